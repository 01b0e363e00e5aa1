#pragma once

#include "clicommand.h"
#include "domain/offer.h"
#include "domain/throughputmeasurement.h"
#include "domain/workload.h"
#include "domain/workloadbuilder.h"
#include "probe/calibrationchoice.h"
#include "projection/catalogprojection.h"
#include "util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>

namespace gf {

class CliArgs;
class OfferTable;
class CliContext;
class CliOptions;

// Options shared by the commands that project (`gpus`, `frontier`, `report`, `plan`, `measure`). Each
// reader returns its value or the Error to fail with (cliUsageError / cliFailure / cliReported).

/// --workload, --samples, --epochs, the custom-workload options and --no-calibration.
void addWorkloadOptions(CliOptions &options);
Result<Workload> workloadFromArgs(const CliArgs &args);
/// The workload as the flags describe it (a preset and its changes, or a custom workload), before it is
/// built; and the build, with the errors in the CLI's words.
Result<WorkloadSpec> workloadSpecFromArgs(const CliArgs &args);
Result<Workload> workloadFromSpec(const WorkloadSpec &spec);
/// --scenario FILE: the arguments parsed again with the scenario's settings as flags in front of the
/// command line's, which override them (--workload replaces the scenario's whole workload, --spot and
/// --on-demand replace each other). Null without --scenario; a file that cannot be read fails (exit 1)
/// naming the file and the field.
Result<std::unique_ptr<CliArgs>> argsWithScenario(const CliArgs &args);
/// The probe run that calibrates (chooseCalibration over the database's runs), or the datasheet
/// defaults with --no-calibration. Fails only when the database cannot be read.
Result<CalibrationChoice> calibrationFromArgs(CliContext &ctx, const CliArgs &args);
/// "Calibration: <source>" and a line per skipped probe run, for the table outputs.
QString calibrationText(const CalibrationChoice &choice);
/// One line describing the workload. The JSON shapes are models/ workloadToJson and calibrationToJson,
/// shared with the JSON report.
QString workloadSummaryText(const Workload &workload);

/// --no-measurements, and the imported measurements it leaves in (all of the database's, or none), for
/// `gpus`, `frontier`, `report` and `plan`: the same speed per GPU and workload in all of them.
void addMeasurementOption(CliOptions &options);
Result<ThroughputMeasurements> measurementsFromArgs(CliContext &ctx, const CliArgs &args);

/// Projection options shared by `frontier`, `report` and `plan`: --deadline, --budget, --spot,
/// --on-demand, --checkpoint-minutes, --setup-minutes, --restore-minutes, --nodes, --weight, --provider,
/// --include-suspect, --interruption-rate, --egress, --no-measurements.
void addProjectionOptions(CliOptions &options);

/// What a projecting command reads before it projects, and the projection.
struct CatalogProjection
{
    CalibrationChoice calibration; ///< the probe run behind results.calibration, for the texts
    ProjectionResults results;     ///< workload, options, offers (those --provider keeps), points, counts
    qsizetype catalogOffers = 0;   ///< current offers in the database, before --provider
};

/// What a projecting command reads before it projects, and the request it projects with.
struct CatalogRequest
{
    CalibrationChoice calibration; ///< the probe run behind request.calibration, for the texts
    ProjectionRequest request;     ///< workload, options, calibration, measurements, --provider as filter
};

/// The middle class of the commands that project a catalog (`frontier`, `report`, `plan`): it declares
/// the workload and projection options before the command's own, and runs the one preamble (options,
/// workload, calibration, current offers, imported measurements, projectCatalog) with every failure a
/// value. A new projecting command is its options plus runProjecting.
class ProjectingCommand : public CliCommand
{
protected:
    ProjectingCommand(Text text, const CliOptions &commandOptions);

    /// The command: reads its own options, calls projectFromArgs, writes its output. Returns the exit
    /// code, or the Error to fail with.
    virtual Result<int> runProjecting(CliContext &ctx, const CliArgs &args) const = 0;

    /// The preamble: the projection options, the workload, the options' ranges, then from the database
    /// the calibration, the current offers and the imported measurements, then projectCatalog with
    /// --provider as the filter. `now` is the projection's time (the age of prices).
    Result<CatalogProjection> projectFromArgs(CliContext &ctx, const CliArgs &args,
                                              const QDateTime &now) const;
    /// The same preamble without the projection: `readOffers` reads the current offers in the form the
    /// command projects them in (after the calibration, before the measurements, as projectFromArgs).
    Result<CatalogRequest> requestFromArgs(CliContext &ctx, const CliArgs &args, const QDateTime &now,
                                           const std::function<Status()> &readOffers) const;

    /// requestFromArgs reading the current offers into `table` (OfferTable: the commands that project a
    /// million offers on the compact path, `frontier` and `report`).
    Result<CatalogRequest> tableRequestFromArgs(CliContext &ctx, const CliArgs &args, const QDateTime &now,
                                                OfferTable &table) const;

private:
    int run(CliContext &ctx, const CliArgs &args) const final;
};

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "projection/offerprojection.h"
#include "viewmodels/calibrationchoice.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

class CliArgs;
class CliContext;
class CliOptions;
struct Workload;

// Options shared by `gpus`, `frontier` and `report`. The *FromArgs functions return -1 and fill *out,
// or print the problem and return the exit code.

/// --workload, --samples, --epochs, the custom-workload options and --no-calibration.
void addWorkloadOptions(CliOptions &options);
int workloadFromArgs(CliContext &ctx, const QString &command, const CliArgs &args, Workload *out);
/// The probe run that calibrates (chooseCalibration over the database's runs), or the datasheet
/// defaults with --no-calibration. Fails only when the database cannot be read.
int calibrationFromArgs(CliContext &ctx, const CliArgs &args, CalibrationChoice *out);
/// "Calibration: <source>" and a line per skipped probe run, for the table outputs.
QString calibrationText(const CalibrationChoice &choice);
/// One line describing the workload. The JSON shapes are models/ workloadToJson and calibrationToJson,
/// shared with the JSON report.
QString workloadSummaryText(const Workload &workload);

/// --no-measurements, and the imported measurements it leaves in (all of the database's, or none), for
/// `gpus`, `frontier` and `report`: the same speed per GPU and workload in all three.
void addMeasurementOption(CliOptions &options);
int measurementsFromArgs(CliContext &ctx, const QString &command, const CliArgs &args,
                         ThroughputMeasurements *out);

/// Projection options shared by `frontier` and `report`: --deadline, --budget, --spot, --on-demand,
/// --checkpoint-minutes, --setup-minutes, --restore-minutes, --nodes, --weight, --provider,
/// --no-measurements.
void addProjectionOptions(CliOptions &options);

struct ProjectionArgs
{
    ProjectionOptions options; ///< `now` left invalid: the command sets it; `measurements` from the database
    QStringList providers;     ///< --provider values (empty = all), each a known provider
};

/// Reads the options declared by addProjectionOptions, range-checked per flag; validateProjectionOptions
/// is left to the caller (after the workload, as the commands always did).
int projectionArgsFromArgs(CliContext &ctx, const QString &command, const CliArgs &args, ProjectionArgs *out);

/// The current offers of the database, restricted to `providers` (all when empty).
int currentOffersForProviders(CliContext &ctx, const QString &command, const QStringList &providers,
                              QList<Offer> *out);

} // namespace gf

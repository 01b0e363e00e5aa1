#include "cli.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "domain/workload.h"
#include "launch/measurementcompare.h"
#include "launch/measurementjson.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "util/format.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

CliOptions measureOptions()
{
    CliOptions o;
    o.addRepeatable(
        QStringLiteral("import"), QStringLiteral("FILE"),
        QStringLiteral("store the measurements of FILE (gf_measure.py JSON or a job log, at most %1 MB); "
                       "repeatable, files may also follow as arguments")
            .arg(kMaxMeasurementFileBytes >> 20));
    o.addValue(QStringLiteral("delete"), QStringLiteral("ID"),
               QStringLiteral("remove one stored measurement"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    o.addFlag(
        QStringLiteral("no-calibration"),
        QStringLiteral("compare with the datasheet-only model, not the newest probe run's calibration"));
    return o;
}

class MeasureCommand final : public CliCommand
{
public:
    MeasureCommand()
        : CliCommand(
              {.name = QStringLiteral("measure"),
               .summary = QStringLiteral(
                   "Import measured throughput (from launch plans) and compare it with the projection"),
               .synopsis = QStringLiteral("[--import FILE ... | --delete ID] [--format table|json]"),
               .description = QStringLiteral(
                   "Measurements of a workload's samples/s on a GPU, taken on a rented offer by a launch "
                   "plan\n"
                   "('gpufrontier-cli plan --probe' or '--sweep': gf_measure.py writes one JSON file per "
                   "task and\n"
                   "prints it in the job log after GPUFRONTIER-MEASUREMENT). --import stores them with "
                   "their\n"
                   "source (the same measurement twice is stored once). From then on 'frontier', 'report' "
                   "and the\n"
                   "app project that workload on that GPU from the newest measurement (flag \"measured\"; "
                   "the\n"
                   "projection commands' --no-measurements ignores them).\n"
                   "Without options: lists the stored measurements beside what the model projects for them\n"
                   "(samples/s per GPU) and the error of the model: (projected - measured) / measured."),
               .positionalArguments = true},
              measureOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int MeasureCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const QStringList files = p.values(QStringLiteral("import")) + p.positional();
    if (!p.positional().isEmpty() && !p.isSet(QStringLiteral("import")))
        return usageError(ctx, QStringLiteral("files to import go with --import"));
    if (!files.isEmpty() && p.isSet(QStringLiteral("delete")))
        return usageError(ctx, QStringLiteral("--import and --delete exclude each other"));
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;

    if (p.isSet(QStringLiteral("delete"))) {
        bool ok = false;
        const qint64 id = p.value(QStringLiteral("delete")).toLongLong(&ok);
        if (!ok || id < 1)
            return usageError(ctx, QStringLiteral("--delete: \"%1\" is not a measurement id")
                                       .arg(p.value(QStringLiteral("delete"))));
        if (auto st = store->deleteUserMeasurement(id); !st) {
            ctx.err << "gpufrontier-cli measure: " << st.error().text() << Qt::endl;
            return ExitFailure;
        }
        ctx.out << "Deleted measurement " << id << ".\n";
        return ExitOk;
    }

    if (!files.isEmpty()) {
        // Read and check every file first: a bad file stores nothing.
        QList<std::pair<QString, QList<MeasurementDocument>>> docs;
        for (const QString &path : files) {
            auto parsed = readMeasurementFile(path, GpuCatalog::builtin());
            if (parsed)
                if (auto st = checkMeasurementsPlausible(parsed.value(), path, builtinWorkloads()); !st)
                    parsed = st.error();
            if (!parsed) {
                ctx.err << "gpufrontier-cli measure: " << parsed.error().text() << Qt::endl
                        << "Nothing was imported." << Qt::endl;
                return ExitFailure;
            }
            docs.append({path, parsed.value()});
        }
        int added = 0, duplicates = 0;
        for (const auto &[path, list] : docs) {
            for (const MeasurementDocument &d : list) {
                auto r = store->addUserMeasurement(d.measurement, QFileInfo(path).absoluteFilePath(), d.json);
                if (!r) {
                    ctx.err << "gpufrontier-cli measure: " << r.error().text() << Qt::endl;
                    return ExitFailure;
                }
                const ThroughputMeasurement &m = d.measurement;
                const QString busy = gpuBusyText(m);
                ctx.out << QStringLiteral("%1 measurement %2: %3 on %4: %5 samples/s per GPU%6 (%7)\n")
                               .arg(r.value().duplicate ? QStringLiteral("Already stored")
                                                        : QStringLiteral("Stored"))
                               .arg(r.value().id)
                               .arg(m.workloadId, m.gpuId, formatNumber(m.samplesPerSPerGpu, 2),
                                    busy.isEmpty() ? QString() : QStringLiteral(", GPU busy ") + busy,
                                    m.source);
                (r.value().duplicate ? duplicates : added) += 1;
            }
        }
        ctx.out << QStringLiteral(
                       "%1 new, %2 already stored. Projections of these workloads on these GPUs now "
                       "use the measurements.\n")
                       .arg(added)
                       .arg(duplicates);
        return ExitOk;
    }

    auto records = store->userMeasurements();
    if (!records) {
        ctx.err << "gpufrontier-cli measure: " << records.error().text() << Qt::endl;
        return ExitFailure;
    }
    const auto calibration = calibrationFromArgs(ctx, p);
    if (!calibration)
        return fail(ctx, calibration.error());
    const CalibrationChoice &choice = calibration.value();
    ThroughputMeasurements list;
    for (const UserMeasurementRecord &r : records.value())
        list.append(r.measurement);
    const QList<MeasurementComparison> rows =
        compareMeasurements(list, builtinWorkloads(), choice.calibration);
    if (*format == u"json") {
        QJsonArray arr;
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const UserMeasurementRecord &r = records.value().at(i);
            const MeasurementComparison &c = rows.at(i);
            QJsonObject o;
            o.insert(u"id", r.id);
            o.insert(u"workload", c.measurement.workloadId);
            o.insert(u"gpu_id", c.measurement.gpuId);
            o.insert(u"offer", offerLabel(c.measurement));
            o.insert(u"measured_samples_per_s_per_gpu", c.measurement.samplesPerSPerGpu);
            o.insert(u"gpu_count", c.measurement.gpuCount);
            o.insert(u"projected_samples_per_s_per_gpu",
                     c.projectedPerGpu ? QJsonValue(*c.projectedPerGpu) : QJsonValue());
            o.insert(u"error_pct", c.errorPct() ? QJsonValue(*c.errorPct()) : QJsonValue());
            o.insert(u"gpu_busy_fraction", c.measurement.gpuBusyFraction > 0
                                               ? QJsonValue(c.measurement.gpuBusyFraction)
                                               : QJsonValue());
            o.insert(u"gpu_busy_method",
                     c.measurement.gpuBusyFraction > 0 && c.measurement.gpuBusyMethod != BusyMethod::Unknown
                         ? QJsonValue(busyMethodName(c.measurement.gpuBusyMethod))
                         : QJsonValue());
            o.insert(u"host_bound",
                     c.measurement.gpuBusyFraction > 0 && c.measurement.gpuBusyFraction < kHostBoundBusy);
            o.insert(u"maybe_host_bound", SpeedModel::builtin().busyMayBeHostBound(c.measurement));
            o.insert(u"not_projected_because", c.why.isEmpty() ? QJsonValue() : QJsonValue(c.why));
            o.insert(u"source", c.measurement.source);
            o.insert(u"measured_at", c.measurement.measuredAt.isValid()
                                         ? QJsonValue(c.measurement.measuredAt.toString(Qt::ISODate))
                                         : QJsonValue());
            o.insert(u"imported_at", r.importedAt.toString(Qt::ISODate));
            o.insert(u"file", r.origin);
            arr.append(o);
        }
        QJsonObject root;
        root.insert(u"calibration", choice.calibration.source);
        root.insert(u"measurements", arr);
        ctx.out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    if (rows.isEmpty()) {
        ctx.out << "No measurements stored. Import some with 'gpufrontier-cli measure --import FILE' (from a "
                   "launch "
                   "plan: 'gpufrontier-cli plan --probe' or '--sweep').\n";
        return ExitOk;
    }
    ctx.out << calibrationText(choice);
    QList<QStringList> table;
    const QString dash = QStringLiteral("–");
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const MeasurementComparison &c = rows.at(i);
        const auto e = c.errorPct();
        const QString busy = gpuBusyText(c.measurement), offer = offerLabel(c.measurement);
        table.append(
            {QString::number(records.value().at(i).id), c.measurement.workloadId, c.measurement.gpuId,
             formatNumber(c.measurement.samplesPerSPerGpu, 2),
             c.projectedPerGpu ? formatNumber(*c.projectedPerGpu, 2) : dash,
             e ? QStringLiteral("%1%2 %").arg(*e >= 0 ? QStringLiteral("+") : QString(), formatNumber(*e, 1))
               : dash,
             busy.isEmpty() ? dash : busy, offer.isEmpty() ? dash : offer,
             c.measurement.measuredAt.isValid() ? c.measurement.measuredAt.toString(Qt::ISODate) : dash,
             c.why.isEmpty() ? c.measurement.source : c.why});
    }
    ctx.out << renderTable({QStringLiteral("ID"), QStringLiteral("Workload"), QStringLiteral("GPU"),
                            QStringLiteral("Measured/GPU"), QStringLiteral("Projected/GPU"),
                            QStringLiteral("Error"), QStringLiteral("GPU busy"), QStringLiteral("Offer"),
                            QStringLiteral("Measured at (UTC)"), QStringLiteral("Source")},
                           table, {true, false, false, true, true, true, true, false, false, false});
    ctx.out
        << "Samples/s per GPU. Projected: the model without the measurement, at the measured batch. Error: "
           "(projected - measured) / "
           "measured.\n"
           "GPU busy: the share of each step the GPU worked (gf_measure.py); under "
        << QString::number(kHostBoundBusy * 100, 'f', 0)
        << " % the host set the speed (host-bound): carried to other NVIDIA GPUs, that step stays a floor "
           "(PROJECTION.md section 3.22). nvidia-smi reads high: a share by it (not by the profiler) under "
        << QString::number(kSmiGpuBoundBusy * 100, 'f', 0)
        << " % is \"maybe host-bound\", carried as GPU-bound with ranges that reach that floor (section "
           "3.27).\n";
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeMeasureCommand()
{
    return std::make_unique<MeasureCommand>();
}

} // namespace gf

#include "cli.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "projection/speedmodel.h"
#include "util/format.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace gf {

namespace {

CliOptions gpusOptions()
{
    CliOptions o;
    addWorkloadOptions(o);
    addMeasurementOption(o);
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    return o;
}

class GpusCommand final : public CliCommand
{
public:
    GpusCommand()
        : CliCommand(
              {.name = QStringLiteral("gpus"),
               .summary = QStringLiteral("Projected samples/s of a workload on every GPU model (one GPU)"),
               .synopsis = QStringLiteral("--workload NAME [OPTIONS]"),
               .description = QStringLiteral(
                   "Lists every GPU model with the projected training speed of the workload on ONE GPU\n"
                   "(projection model v2, models/projection/PROJECTION.md), the evidence it rests on\n"
                   "(tier: measured, measured-converted, transferred, transferred-cross-arch,\n"
                   "transferred-other-vendor, roofline), its 10th-90th percentile range and the spec used.\n"
                   "Fastest first; models without a spec row or a usable rate come last.")},
              gpusOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int GpusCommand::run(CliContext &ctx, const CliArgs &args) const
{
    auto withScenario = argsWithScenario(args);
    if (!withScenario)
        return fail(ctx, withScenario.error());
    const CliArgs &p = withScenario.value() ? *withScenario.value() : args;
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const auto workload = workloadFromArgs(p);
    if (!workload)
        return fail(ctx, workload.error());
    const Workload &w = workload.value();
    const auto calibration = calibrationFromArgs(ctx, p);
    if (!calibration)
        return fail(ctx, calibration.error());
    const CalibrationChoice &choice = calibration.value();
    const Calibration &cal = choice.calibration;

    const GpuCatalog &gpus = GpuCatalog::builtin();
    const GpuSpecTable &specs = GpuSpecTable::builtin();
    // The imported measurements as `frontier` uses them: one speed per GPU and workload in both.
    ProjectionOptions options;
    auto measurements = measurementsFromArgs(ctx, p);
    if (!measurements)
        return fail(ctx, measurements.error());
    options.measurements = measurements.value();
    const QList<SingleGpuSpeed> speeds = singleGpuSpeeds(w, options, cal, specs);
    struct Row
    {
        const GpuModel *model;
        const GpuSpec *spec;
        SingleGpuSpeed t;
    };
    QHash<QString, SingleGpuSpeed> speedById;
    for (qsizetype i = 0; i < speeds.size(); ++i)
        speedById.insert(specs.specs().at(i).id, speeds.at(i));
    QList<Row> rows;
    for (const GpuModel &m : gpus.models()) {
        const GpuSpec *s = specs.spec(m.id);
        rows.append({&m, s, s ? speedById.value(m.id) : SingleGpuSpeed{}});
    }
    std::stable_sort(rows.begin(), rows.end(), [](const Row &a, const Row &b) {
        if (a.t.ok != b.t.ok)
            return a.t.ok;
        return a.t.ok && a.t.samplesPerS > b.t.samplesPerS;
    });
    auto status = [&](const Row &r) -> QString {
        if (!r.spec)
            return QStringLiteral("no spec");
        if (!r.t.ok)
            return QStringLiteral("no %1 rate").arg(precisionName(w.precision));
        QStringList s;
        if (!r.t.referencePreset.isEmpty()) // rule I: the preset's shape, not the roofline (section 3.18)
            s.append(QStringLiteral("%1-shape").arg(r.t.referencePreset));
        else
            s.append(r.t.computeBound ? QStringLiteral("compute-bound") : QStringLiteral("memory-bound"));
        if (r.t.precisionFallback)
            s.append(QStringLiteral("precision-fallback"));
        if (r.t.stepFloorS > 0) // rule Q2 (section 3.21): a step this fast may wait for the host's CPU
            s.append(QStringLiteral("host-bound"));
        if (w.memoryGb > 0 && r.spec->memoryGb < w.memoryGb)
            s.append(QStringLiteral("memory-too-small"));
        return s.join(u',');
    };
    const double total = w.totalSamples();

    if (*format == u"json") {
        QJsonArray arr;
        for (const Row &r : std::as_const(rows)) {
            QJsonObject o;
            o.insert(u"id", r.model->id);
            o.insert(u"name", r.model->name);
            o.insert(u"vendor", r.model->vendor);
            o.insert(u"projected", r.t.ok);
            o.insert(u"samples_per_s", r.t.ok ? QJsonValue(r.t.samplesPerS) : QJsonValue());
            o.insert(u"samples_per_s_low", r.t.ok ? QJsonValue(r.t.samplesPerSLow()) : QJsonValue());
            o.insert(u"samples_per_s_high", r.t.ok ? QJsonValue(r.t.samplesPerSHigh()) : QJsonValue());
            o.insert(u"projection_tier", r.t.ok ? QJsonValue(projectionTierName(r.t.tier)) : QJsonValue());
            o.insert(u"basis", r.t.ok ? QJsonValue(r.t.basis) : QJsonValue());
            o.insert(u"hours_one_gpu", r.t.ok ? QJsonValue(total / r.t.samplesPerS / 3600.0) : QJsonValue());
            o.insert(u"bound", r.t.ok ? QJsonValue(r.t.computeBound ? QStringLiteral("compute")
                                                                    : QStringLiteral("memory"))
                                      : QJsonValue());
            o.insert(u"precision_used", r.t.ok ? QJsonValue(precisionName(r.t.precisionUsed)) : QJsonValue());
            o.insert(u"step_floor_s",
                     r.t.ok && r.t.stepFloorS > 0 ? QJsonValue(r.t.stepFloorS) : QJsonValue());
            o.insert(u"fits_memory",
                     r.spec && w.memoryGb > 0 ? QJsonValue(r.spec->memoryGb >= w.memoryGb) : QJsonValue());
            if (r.spec) {
                QJsonObject s;
                for (int i = 0; i < kPrecisionCount; ++i) {
                    const double v = r.spec->peakTflops[static_cast<std::size_t>(i)];
                    s.insert(precisionName(static_cast<Precision>(i)) + QStringLiteral("_tflops"),
                             v > 0 ? QJsonValue(v) : QJsonValue());
                }
                s.insert(u"memory_gb", r.spec->memoryGb);
                s.insert(u"mem_bw_gbs", r.spec->memBandwidthGbs);
                s.insert(u"interconnect_gbs",
                         r.spec->interconnectGbs > 0 ? QJsonValue(r.spec->interconnectGbs) : QJsonValue());
                s.insert(u"pcie_gen", r.spec->pcieGen > 0 ? QJsonValue(r.spec->pcieGen) : QJsonValue());
                s.insert(u"source", r.spec->source);
                o.insert(u"spec", s);
            } else {
                o.insert(u"spec", QJsonValue());
            }
            o.insert(u"status", status(r));
            arr.append(o);
        }
        QJsonObject root;
        root.insert(u"workload", workloadToJson(w));
        root.insert(u"calibration", calibrationToJson(cal));
        root.insert(u"gpus", arr);
        ctx.out << jsonText(QJsonDocument(root));
        return ExitOk;
    }

    ctx.out << "Workload: " << workloadSummaryText(w) << '\n';
    ctx.out << calibrationText(choice);
    const QString dash = QStringLiteral("–");
    QList<QStringList> table;
    for (const Row &r : std::as_const(rows)) {
        const Precision used = r.t.ok ? r.t.precisionUsed : w.precision;
        table.append(
            {r.model->id, r.model->name,
             r.t.ok ? formatNumber(r.t.samplesPerS, r.t.samplesPerS < 100 ? 2 : 0) : dash,
             r.t.ok ? QStringLiteral("%1–%2").arg(
                          formatNumber(r.t.samplesPerSLow(), r.t.samplesPerS < 100 ? 2 : 0),
                          formatNumber(r.t.samplesPerSHigh(), r.t.samplesPerS < 100 ? 2 : 0))
                    : dash,
             r.t.ok ? projectionTierName(r.t.tier) : dash,
             r.t.ok ? formatHours(total / r.t.samplesPerS / 3600.0) : dash,
             r.spec && r.spec->peak(used) > 0
                 ? QStringLiteral("%1 %2").arg(formatNumber(r.spec->peak(used), 1), precisionName(used))
                 : dash,
             r.spec ? formatNumber(r.spec->memBandwidthGbs) : dash,
             r.spec ? formatNumber(r.spec->memoryGb) : dash, status(r)});
    }
    ctx.out << renderTable({QStringLiteral("GPU"), QStringLiteral("Name"), QStringLiteral("Samples/s"),
                            QStringLiteral("Range (p10–p90)"), QStringLiteral("Tier"),
                            QStringLiteral("Run on 1 GPU"), QStringLiteral("Peak TFLOP/s"),
                            QStringLiteral("Mem GB/s"), QStringLiteral("Mem GB"), QStringLiteral("Notes")},
                           table, {false, false, true, true, false, true, true, true, true, false});
    ctx.out << QStringLiteral("%1 GPU models. Spec sources: resources/gpu_specs.csv (see GPUS.md).\n")
                   .arg(rows.size());
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeGpusCommand()
{
    return std::make_unique<GpusCommand>();
}

} // namespace gf

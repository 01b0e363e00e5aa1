#include "argparser.h"
#include "cli.h"
#include "cli_projectionargs.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "probe/probejson.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gf {

// ------------------------------------------------------------------------------------------------
// Shared by `gpus` and `frontier`
// ------------------------------------------------------------------------------------------------

void addWorkloadOptions(ArgParser &p)
{
    QStringList ids;
    for (const Workload &w : builtinWorkloads())
        ids.append(w.id);
    p.addValue(QStringLiteral("workload"), QStringLiteral("NAME"),
               QStringLiteral("workload preset: %1 (see 'gpufrontier-cli workloads')")
                   .arg(ids.join(QStringLiteral(", "))));
    p.addValue(QStringLiteral("samples"), QStringLiteral("N"),
               QStringLiteral("samples per epoch (default: the preset's)"));
    p.addValue(QStringLiteral("epochs"), QStringLiteral("E"),
               QStringLiteral("epochs (default: the preset's; may be fractional)"));
    p.addValue(QStringLiteral("flops-per-sample"), QStringLiteral("F"),
               QStringLiteral("custom workload: forward+backward FLOPs per sample"));
    p.addValue(
        QStringLiteral("bytes-per-sample"), QStringLiteral("B"),
        QStringLiteral("custom workload: GPU memory traffic per sample, bytes (default 0: compute-bound)"));
    p.addValue(QStringLiteral("measured"), QStringLiteral("S"),
               QStringLiteral("custom workload: samples/s you measured on ONE GPU of --measured-on"));
    p.addValue(QStringLiteral("measured-on"), QStringLiteral("GPU"),
               QStringLiteral("GPU model of --measured, e.g. a100-80gb-sxm4, \"RTX 4090\""));
    p.addValue(QStringLiteral("precision"), QStringLiteral("P"),
               QStringLiteral("custom workload precision: fp32, tf32, fp16, bf16, fp8 (default fp16)"));
    p.addValue(QStringLiteral("params"), QStringLiteral("N"),
               QStringLiteral("custom workload: trainable parameters (gradient exchange; default 0)"));
    p.addValue(QStringLiteral("memory-gb"), QStringLiteral("GB"),
               QStringLiteral("custom workload: GPU memory needed per GPU (default 0: not checked)"));
    p.addValue(QStringLiteral("batch"), QStringLiteral("N"),
               QStringLiteral("micro-batch per GPU (default: the preset's, else 32)"));
    p.addValue(QStringLiteral("min-vcpus"), QStringLiteral("N"),
               QStringLiteral("vCPUs per GPU the input pipeline needs"));
    p.addFlag(QStringLiteral("no-calibration"),
              QStringLiteral("use the datasheet-only default efficiencies, not the newest probe run"));
}

int workloadFromArgs(CliContext &ctx, const QString &cmd, const ArgParser &p, Workload *out)
{
    QString err;
    auto num = [&](const char *name, double lo, double hi) -> std::optional<double> {
        if (!err.isEmpty())
            return std::nullopt;
        return p.number(QLatin1StringView(name), &err, lo, hi);
    };
    const auto samples = num("samples", 1, 1e15);
    const auto epochs = num("epochs", 1e-6, 1e6);
    const auto flops = num("flops-per-sample", 1, 1e21);
    const auto bytes = num("bytes-per-sample", 0, 1e18);
    const auto measured = num("measured", 1e-9, 1e12);
    const auto params = num("params", 0, 1e14);
    const auto memory = num("memory-gb", 0, 1e6);
    const auto batch = num("batch", 1, 1 << 24);
    const auto minVcpus = num("min-vcpus", 0, 1024);
    if (!err.isEmpty())
        return usageError(ctx, cmd, err);
    if (batch && *batch != std::floor(*batch))
        return usageError(ctx, cmd, QStringLiteral("--batch: must be a whole number"));
    std::optional<Precision> precision;
    if (p.isSet(QStringLiteral("precision"))) {
        precision = precisionFromName(p.value(QStringLiteral("precision")));
        if (!precision)
            return usageError(
                ctx, cmd,
                QStringLiteral("--precision: \"%1\" is not one of %2")
                    .arg(p.value(QStringLiteral("precision")), precisionNames().join(QStringLiteral(", "))));
    }
    if (measured.has_value() != p.isSet(QStringLiteral("measured-on")))
        return usageError(ctx, cmd, QStringLiteral("--measured and --measured-on go together"));

    Workload w;
    const QString name = p.value(QStringLiteral("workload"));
    if (!name.isEmpty()) {
        const Workload *preset = findWorkload(builtinWorkloads(), name);
        if (!preset) {
            QStringList ids;
            for (const Workload &b : builtinWorkloads())
                ids.append(b.id);
            return usageError(ctx, cmd,
                              QStringLiteral("--workload: unknown workload \"%1\" (known: %2)")
                                  .arg(name, ids.join(QStringLiteral(", "))));
        }
        w = *preset;
        if (samples)
            w.samplesPerEpoch = *samples;
        if (epochs)
            w.epochs = *epochs;
        if (flops)
            w.flopsPerSample = *flops;
        if (bytes)
            w.bytesPerSample = *bytes;
        if (params)
            w.parameters = *params;
        if (memory)
            w.memoryGb = *memory;
        if (batch)
            w.batchPerGpu = static_cast<int>(*batch);
        if (minVcpus)
            w.minVcpusPerGpu = *minVcpus;
        if (precision)
            w.precision = *precision;
        if (measured) {
            // The preset's FLOPs and bytes give the intensity; the measurement gives the speed.
            CustomWorkloadInput in;
            in.name = w.name;
            in.precision = w.precision;
            in.flopsPerSample = w.flopsPerSample;
            in.bytesPerSample = w.bytesPerSample;
            in.measuredSamplesPerS = measured;
            in.referenceGpu = p.value(QStringLiteral("measured-on"));
            in.parameters = w.parameters;
            in.memoryGb = w.memoryGb;
            in.samplesPerEpoch = w.samplesPerEpoch;
            in.epochs = w.epochs;
            in.minVcpusPerGpu = w.minVcpusPerGpu;
            in.batchPerGpu = w.batchPerGpu;
            auto made = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
            if (!made)
                return usageError(ctx, cmd, made.error().message);
            const QString id = w.id;
            w = made.value();
            w.id = id;
        } else if (flops || bytes || params || memory || precision) {
            w.kind = WorkloadKind::CustomFlops;
        }
    } else {
        if (!flops && !measured)
            return usageError(
                ctx, cmd,
                QStringLiteral("--workload NAME is required (or a custom workload: --flops-per-sample F, "
                               "or --measured S --measured-on GPU; with --samples N)"));
        if (!samples)
            return usageError(ctx, cmd,
                              QStringLiteral("a custom workload needs --samples N (samples per epoch)"));
        CustomWorkloadInput in;
        in.precision = precision.value_or(Precision::Fp16);
        in.flopsPerSample = flops;
        in.bytesPerSample = bytes;
        in.measuredSamplesPerS = measured;
        in.referenceGpu = p.value(QStringLiteral("measured-on"));
        in.parameters = params.value_or(0);
        in.memoryGb = memory.value_or(0);
        in.samplesPerEpoch = *samples;
        in.epochs = epochs.value_or(1);
        in.minVcpusPerGpu = minVcpus.value_or(0);
        in.batchPerGpu = batch ? static_cast<int>(*batch) : 32;
        auto made = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
        if (!made)
            return usageError(ctx, cmd, made.error().message);
        w = made.value();
    }
    if (auto v = validateWorkload(w); !v)
        return usageError(ctx, cmd, v.error().message);
    *out = w;
    return -1;
}

int calibrationFromArgs(CliContext &ctx, const ArgParser &p, Calibration *out)
{
    if (p.isSet(QStringLiteral("no-calibration"))) {
        *out = defaultCalibration();
        out->source = QStringLiteral("datasheet-only defaults (--no-calibration)");
        return -1;
    }
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto runs = store->probeRuns();
    if (!runs) {
        ctx.err << "gpufrontier-cli: cannot read the probe runs: " << runs.error().text() << Qt::endl;
        return ExitFailure;
    }
    const ProbeRunRecord *newest = nullptr;
    for (const ProbeRunRecord &r : runs.value())
        if (!newest || r.createdAt > newest->createdAt ||
            (r.createdAt == newest->createdAt && r.id > newest->id))
            newest = &r;
    if (!newest) {
        *out = defaultCalibration();
        out->source = QStringLiteral(
            "datasheet-only defaults (no probe run in the database; see 'gpufrontier-cli probe')");
        return -1;
    }
    auto parsed = parseProbeJson(newest->json);
    if (!parsed) {
        *out = defaultCalibration();
        out->source = QStringLiteral("datasheet-only defaults (the newest probe run #%1 cannot be read: %2)")
                          .arg(newest->id)
                          .arg(parsed.error().message);
        return -1;
    }
    *out = calibrationFromProbe(parsed.value(), GpuSpecTable::builtin(), GpuCatalog::builtin());
    out->source += QStringLiteral(" [probe run #%1]").arg(newest->id);
    return -1;
}

QString workloadSummaryText(const Workload &w)
{
    QString speed;
    switch (w.kind) {
    case WorkloadKind::Preset:
        speed = QStringLiteral("preset");
        break;
    case WorkloadKind::CustomFlops:
        speed =
            QStringLiteral("custom, %1 GFLOP/sample").arg(QString::number(w.flopsPerSample / 1e9, 'g', 4));
        break;
    case WorkloadKind::CustomMeasured:
        speed = QStringLiteral("custom, measured %1 samples/s on %2")
                    .arg(QString::number(w.measuredSamplesPerS, 'g', 5), w.referenceGpuId);
        break;
    }
    return QStringLiteral("%1 (%2): %3 %4 = %5 x %6 epochs, %7, %8")
        .arg(w.id, w.name, QString::number(w.totalSamples(), 'f', 0), w.sampleUnit,
             QString::number(w.samplesPerEpoch, 'f', 0), QString::number(w.epochs, 'g', 6),
             precisionName(w.precision), speed);
}

// ------------------------------------------------------------------------------------------------
// frontier
// ------------------------------------------------------------------------------------------------

int cliFrontier(CliContext &ctx, const QStringList &args)
{
    const QString cmd = QStringLiteral("frontier");
    ArgParser p;
    addWorkloadOptions(p);
    addProjectionOptions(p);
    p.addFlag(QStringLiteral("frontier-only"),
              QStringLiteral("show only the points on the efficiency frontier"));
    p.addFlag(QStringLiteral("feasible-only"), QStringLiteral("show only points within deadline and budget"));
    p.addValue(QStringLiteral("limit"), QStringLiteral("N"),
               QStringLiteral("show at most N points (fastest first)"));
    p.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    p.addFlag(QStringLiteral("help"), QStringLiteral("show this help"));
    if (const QString e = p.parse(args); !e.isEmpty())
        return usageError(ctx, cmd, e);
    if (p.isSet(QStringLiteral("help"))) {
        ctx.out
            << "Usage: gpufrontier-cli frontier --workload NAME [OPTIONS]\n\n"
               "Projects the training run on every offer of the current catalogs: time (h, incl. setup and\n"
               "expected spot interruptions), cost (USD, billed), samples per dollar, whether the point is "
               "on\n"
               "the efficiency frontier (no other offer is both faster and cheaper) and within the deadline\n"
               "and budget. The model is described in models/projection/PROJECTION.md.\n\nOptions:\n"
            << p.helpText();
        return ExitOk;
    }
    if (!p.positional().isEmpty())
        return usageError(ctx, cmd, QStringLiteral("unexpected argument \"%1\"").arg(p.positional().first()));

    ProjectionArgs projArgs;
    if (const int rc = projectionArgsFromParser(ctx, cmd, p, &projArgs); rc >= 0)
        return rc;
    ProjectionOptions opt = projArgs.options;
    const QStringList providers = projArgs.providers;
    QString err;
    const auto limit = p.number(QStringLiteral("limit"), &err, 1, 1e9);
    if (!err.isEmpty())
        return usageError(ctx, cmd, err);
    const QString format =
        p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")) : QStringLiteral("table");
    if (format != u"table" && format != u"json")
        return usageError(ctx, cmd, QStringLiteral("--format: \"%1\" is not one of table, json").arg(format));
    Workload workload;
    if (const int rc = workloadFromArgs(ctx, cmd, p, &workload); rc >= 0)
        return rc;
    if (auto v = validateProjectionOptions(opt); !v)
        return usageError(ctx, cmd, v.error().message);

    Calibration cal;
    if (const int rc = calibrationFromArgs(ctx, p, &cal); rc >= 0)
        return rc;
    QList<Offer> offers;
    if (const int rc = currentOffersForProviders(ctx, cmd, providers, &offers); rc >= 0)
        return rc;
    opt.now = QDateTime::currentDateTimeUtc();
    const QList<ProjectedOffer> points = projectOffers(offers, workload, opt, cal);

    // Fastest first; points without a projection last, in input order.
    QList<qsizetype> order;
    qsizetype nProjected = 0, nFrontier = 0, nFeasible = 0;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const ProjectedOffer &pt = points.at(i);
        nProjected += pt.projected;
        nFrontier += pt.onFrontier;
        nFeasible += pt.feasible;
        if (p.isSet(QStringLiteral("frontier-only")) && !pt.onFrontier)
            continue;
        if (p.isSet(QStringLiteral("feasible-only")) && !pt.feasible)
            continue;
        order.append(i);
    }
    sortByTime(points, order);
    const qsizetype shownTotal = order.size();
    if (limit && order.size() > *limit)
        order.resize(static_cast<qsizetype>(*limit));
    const qsizetype rec = recommendedIndex(points);
    const GpuCatalog &gpus = GpuCatalog::builtin();
    auto gpuName = [&](const Offer &o) {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : gpus.model(o.gpuId);
        return m ? m->name : o.gpuRawName + QStringLiteral(" (unrecognised)");
    };
    auto modeName = [](const ProjectedOffer &pt) {
        return pt.mode == PriceMode::Spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
    };

    if (format == u"json") {
        QJsonArray arr;
        for (qsizetype i : std::as_const(order)) {
            const ProjectedOffer &pt = points.at(i);
            const Offer &o = offers.at(pt.offerIndex);
            QJsonObject j;
            j.insert(u"provider", o.provider);
            j.insert(u"instance_type", o.instanceType);
            j.insert(u"region", o.region);
            j.insert(u"zone", o.zone.isEmpty() ? QJsonValue() : QJsonValue(o.zone));
            j.insert(u"gpu", o.gpuId.isEmpty() ? QJsonValue() : QJsonValue(o.gpuId));
            j.insert(u"gpu_name", gpuName(o));
            j.insert(u"gpu_count", o.gpuCount);
            j.insert(u"nodes", pt.nodes);
            j.insert(u"price_mode", modeName(pt));
            auto numOrNull = [&](bool ok, double v) { return ok ? QJsonValue(v) : QJsonValue(); };
            const bool priced = pt.projected && !hasFlag(pt.flags, ProjectionFlag::InvalidPrice);
            j.insert(u"usd_per_hour", pt.usdPerHour > 0 ? QJsonValue(pt.usdPerHour) : QJsonValue());
            j.insert(u"samples_per_s", numOrNull(pt.projected, pt.samplesPerS));
            j.insert(u"train_hours", numOrNull(pt.projected, pt.trainHours));
            j.insert(u"interruption_hours", numOrNull(pt.projected, pt.interruptionHours));
            j.insert(u"total_hours", numOrNull(pt.projected, pt.totalHours));
            j.insert(u"cost_usd", numOrNull(priced, pt.costUsd));
            j.insert(u"samples_per_usd", numOrNull(priced, pt.samplesPerUsd));
            j.insert(u"on_frontier", pt.onFrontier);
            j.insert(u"feasible", pt.feasible);
            j.insert(u"recommended", pt.recommended);
            j.insert(u"flags", QJsonArray::fromStringList(projectionFlagNames(pt.flags)));
            arr.append(j);
        }
        QJsonObject root;
        root.insert(u"workload", workloadToJson(workload));
        root.insert(u"calibration", calibrationToJson(cal));
        QJsonObject o;
        o.insert(u"spot_policy", opt.spotPolicy == SpotPolicy::SpotOnly ? QStringLiteral("spot-only")
                                 : opt.spotPolicy == SpotPolicy::OnDemandOnly
                                     ? QStringLiteral("on-demand-only")
                                     : QStringLiteral("both"));
        o.insert(u"setup_minutes", opt.setupMinutes);
        o.insert(u"checkpoint_minutes", opt.checkpointMinutes);
        o.insert(u"restore_minutes", opt.restoreMinutes);
        o.insert(u"deadline_hours", opt.deadlineHours ? QJsonValue(*opt.deadlineHours) : QJsonValue());
        o.insert(u"budget_usd", opt.budgetUsd ? QJsonValue(*opt.budgetUsd) : QJsonValue());
        o.insert(u"weight", opt.weight);
        QJsonArray nodes;
        for (int k : std::as_const(opt.nodeCounts))
            nodes.append(k);
        o.insert(u"nodes", nodes);
        root.insert(u"options", o);
        QJsonObject counts;
        counts.insert(u"offers", offers.size());
        counts.insert(u"points", points.size());
        counts.insert(u"projected", nProjected);
        counts.insert(u"on_frontier", nFrontier);
        counts.insert(u"feasible", nFeasible);
        counts.insert(u"shown", order.size());
        root.insert(u"counts", counts);
        root.insert(u"points", arr);
        ctx.out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return ExitOk;
    }

    ctx.out << "Workload: " << workloadSummaryText(workload) << '\n';
    ctx.out << "Calibration: " << cal.source << '\n';
    ctx.out << QStringLiteral("Offers: %1 -> %2 points (%3 projected, %4 on the frontier, %5 feasible)\n")
                   .arg(offers.size())
                   .arg(points.size())
                   .arg(nProjected)
                   .arg(nFrontier)
                   .arg(nFeasible);
    if (rec >= 0) {
        const ProjectedOffer &pt = points.at(rec);
        const Offer &o = offers.at(pt.offerIndex);
        ctx.out << QStringLiteral("Recommended (weight %1): %2 %3 %4, %5, %6 USD\n")
                       .arg(QString::number(opt.weight, 'f', 2), providerDisplayName(o.provider),
                            o.instanceType,
                            (pt.nodes > 1 ? QStringLiteral("x%1 ").arg(pt.nodes) : QString()) + modeName(pt),
                            formatHours(pt.totalHours), formatUsd(pt.costUsd));
    } else {
        ctx.out << "Recommended: none (no point on the frontier meets the deadline and budget)\n";
    }
    QList<QStringList> rows;
    for (qsizetype i : std::as_const(order)) {
        const ProjectedOffer &pt = points.at(i);
        const Offer &o = offers.at(pt.offerIndex);
        const bool priced = pt.projected && !hasFlag(pt.flags, ProjectionFlag::InvalidPrice);
        const QString dash = QStringLiteral("–");
        QString gpusText = formatNumber(o.gpuCount);
        if (pt.nodes > 1)
            gpusText = QStringLiteral("%1x%2").arg(pt.nodes).arg(gpusText);
        rows.append(
            {pt.recommended ? QStringLiteral("=>") : (pt.onFrontier ? QStringLiteral("*") : QString()),
             providerDisplayName(o.provider), o.instanceType, locationText(o), gpuName(o), gpusText,
             modeName(pt), pt.usdPerHour > 0 ? formatUsdPerHour(pt.usdPerHour) : dash,
             pt.projected ? formatNumber(pt.samplesPerS, pt.samplesPerS < 100 ? 2 : 0) : dash,
             pt.projected ? formatHours(pt.totalHours) : dash, priced ? formatUsd(pt.costUsd) : dash,
             priced ? QString::number(pt.samplesPerUsd, 'f', 0) : dash,
             pt.feasible ? QStringLiteral("yes") : QStringLiteral("no"),
             projectionFlagNames(pt.flags).join(u',')});
    }
    ctx.out << renderTable(
        {QString(), QStringLiteral("Provider"), QStringLiteral("Instance"), QStringLiteral("Region/zone"),
         QStringLiteral("GPU"), QStringLiteral("GPUs"), QStringLiteral("Price"), QStringLiteral("USD/h"),
         QStringLiteral("Samples/s"), QStringLiteral("Time"), QStringLiteral("Cost USD"),
         QStringLiteral("Samples/USD"), QStringLiteral("Feasible"), QStringLiteral("Flags")},
        rows, {false, false, false, false, false, true, false, true, true, true, true, true, false, false});
    ctx.out << QStringLiteral("%1 of %2 points shown. * = on the efficiency frontier, => = recommended.\n")
                   .arg(order.size())
                   .arg(shownTotal);
    return ExitOk;
}

} // namespace gf

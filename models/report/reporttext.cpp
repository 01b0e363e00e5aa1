// The report's shared text: the same wording in every format (tables, sentences, the reproduce line).
#include "report/reportdata.h"
#include "report/reportnumbers.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "domain/workloadbuilder.h"
#include "projection/answer.h"
#include "projection/pointexplanation.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "util/format.h"
#include "util/printable.h"
#include "util/shellquote.h"

#include <QHash>
#include <QLocale>
#include <QSet>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace gf::report {

QString shown(const QString &raw)
{
    const QString s = printableText(raw);
    if (s.size() <= kShownLength)
        return s;
    qsizetype keep = kShownLength - 1;
    if (s.at(keep - 1).isHighSurrogate())
        --keep;
    return s.left(keep) + u'…';
}

/// Where an offer is, cut for display like every provider string.
QString shownLocation(const Offer &o)
{
    return shown(locationText(o));
}

// ------------------------------------------------------------------------------------------------
// Shared text
// ------------------------------------------------------------------------------------------------

QString gpuText(const Offer &o, int nodes)
{
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const QString name = m ? m->name : shown(o.gpuRawName);
    QString s = QStringLiteral("%1 × %2").arg(formatNumber(o.gpuCount), name);
    if (nodes > 1)
        s = QStringLiteral("%1 instances × (%2)").arg(nodes).arg(s);
    return s;
}

QString pricingText(const Offer &o, const ProjectedOffer &p)
{
    return pointPricingText(o, p, &shown);
}

QString pointTitle(const Data &d, qsizetype point)
{
    Offer o;
    const ProjectedOffer p = d.point(point, &o);
    return pointTitleText(o, p, &shown);
}

QString money(const Data &d, double usd)
{
    return formatMoney(usd, d.currency);
}

QString moneyPerHour(const Data &d, std::optional<double> usdPerHour)
{
    return formatMoneyPerHour(usdPerHour, d.currency);
}

QString samplesPerMoney(const Data &d, const ProjectedOffer &p)
{
    return priced(p) ? QString::number(p.samplesPerUsd / d.currency.unitsPerUsd, 'f', 0)
                     : QStringLiteral("–");
}

QString inCurrency(const Data &d, QString text)
{
    return d.currency.isUsd() ? text : text.replace(QStringLiteral("USD"), d.currency.code);
}

QString currencyNote(const Data &d)
{
    if (d.currency.isUsd())
        return {};
    return QStringLiteral("Prices in %1: %2; the data is stored in USD.")
        .arg(d.currency.code, d.currency.rateText());
}

QString rangeText(const Data &d, const ProjectedOffer &p)
{
    if (!p.projected)
        return QStringLiteral("–");
    QString t = QStringLiteral("%1 – %2").arg(formatHours(p.totalHoursLow), formatHours(p.totalHoursHigh));
    if (priced(p))
        t += inCurrency(d, QStringLiteral("; %1 – %2 USD"))
                 .arg(money(d, p.costUsdLow), money(d, p.costUsdHigh));
    return t;
}

QStringList pointHeader()
{
    return {QStringLiteral("Provider"),        QStringLiteral("Instance"),
            QStringLiteral("Region"),          QStringLiteral("GPUs"),
            QStringLiteral("Pricing"),         QStringLiteral("USD/h"),
            QStringLiteral("USD/GPU-h"),       QStringLiteral("Time"),
            QStringLiteral("Cost (USD)"),      QStringLiteral("Samples/USD"),
            QStringLiteral("Interruptions"),   QStringLiteral("Spot overhead"),
            QStringLiteral("Range (p10–p90)"), QStringLiteral("Tier"),
            QStringLiteral("Feasible"),        QStringLiteral("Notes")};
}

QStringList pointHeader(const Data &d)
{
    QStringList out;
    for (const QString &h : pointHeader())
        out.append(inCurrency(d, h));
    return out;
}

QList<bool> pointNumeric()
{
    return {false, false, false, false, false, true,  true,  true,
            true,  true,  true,  true,  false, false, false, false};
}

QStringList pointCells(const Data &d, qsizetype point)
{
    Offer o;
    const ProjectedOffer p = d.point(point, &o);
    const QString dash = QStringLiteral("–");
    QStringList notes;
    if (point == d.recommended)
        notes.append(QStringLiteral("recommended"));
    if (p.onFrontier)
        notes.append(QStringLiteral("frontier"));
    notes += projectionFlagNames(p.flags);
    return {providerDisplayName(o.provider),
            shown(o.instanceType),
            shownLocation(o),
            gpuText(o, p.nodes),
            pricingText(o, p),
            p.usdPerHour > 0 ? moneyPerHour(d, p.usdPerHour) : dash,
            moneyPerHour(d, p.usdPerGpuHour(o)),
            p.projected ? formatHours(p.totalHours) : dash,
            priced(p) ? money(d, p.costUsd) : dash,
            samplesPerMoney(d, p),
            p.projected && p.mode == PriceMode::Spot ? QString::number(p.expectedInterruptions, 'f', 2)
                                                     : dash,
            p.projected && p.mode == PriceMode::Spot ? formatHours(p.interruptionHours) : dash,
            rangeText(d, p),
            p.projected ? projectionTierName(p.tier) : dash,
            p.feasible ? QStringLiteral("yes") : QStringLiteral("no"),
            notes.join(QStringLiteral(", "))};
}

QString spotPolicyName(SpotPolicy policy)
{
    switch (policy) {
    case SpotPolicy::OnDemandOnly:
        return QStringLiteral("on-demand-only");
    case SpotPolicy::SpotAllowed:
        return QStringLiteral("both");
    case SpotPolicy::SpotOnly:
        return QStringLiteral("spot-only");
    }
    return {};
}

QString spotPolicyText(SpotPolicy policy)
{
    switch (policy) {
    case SpotPolicy::OnDemandOnly:
        return QStringLiteral("on-demand prices only");
    case SpotPolicy::SpotAllowed:
        return QStringLiteral("on-demand and spot, as separate points");
    case SpotPolicy::SpotOnly:
        return QStringLiteral("spot / preemptible / interruptible prices only");
    }
    return {};
}

QList<std::pair<QString, QString>> workloadRows(const Data &d)
{
    const Workload &w = d.r->workload;
    QList<std::pair<QString, QString>> rows;
    const QString kind = w.kind == WorkloadKind::Preset        ? QStringLiteral("preset")
                         : w.kind == WorkloadKind::CustomFlops ? QStringLiteral("custom (FLOPs per sample)")
                                                               : QStringLiteral("custom (measured speed)");
    rows.append(
        {QStringLiteral("Workload"), QStringLiteral("%1 (%2, %3)").arg(shown(w.name), shown(w.id), kind)});
    rows.append({QStringLiteral("Precision"), precisionName(w.precision)});
    rows.append({QStringLiteral("Software"),
                 w.stack == SoftwareStack::Typical
                     ? QStringLiteral("typical PyTorch script (speeds carry a fitted per-sample framework "
                                      "overhead and %1; PROJECTION.md sections 3.6 and 3.8)")
                           .arg(w.workloadClass == WorkloadClass::Unknown
                                    ? QStringLiteral("no class factor: workload class unknown, wider ranges")
                                    : QStringLiteral("the fitted efficiency of each GPU architecture for %1 "
                                                     "workloads")
                                          .arg(workloadClassName(w.workloadClass)))
                     : QStringLiteral("tuned, vendor-optimised code (as most published measurements)")});
    rows.append({QStringLiteral("Data set"), QStringLiteral("%1 %2 per epoch × %3 epochs = %4 %2")
                                                 .arg(bigNumber(w.samplesPerEpoch), w.sampleUnit,
                                                      number(w.epochs), bigNumber(w.totalSamples()))});
    if (w.flopsPerSample > 0)
        rows.append({QStringLiteral("Compute per sample"),
                     QStringLiteral("%1 GFLOP (forward + backward)")
                         .arg(QString::number(w.flopsPerSample / 1e9, 'g', 6))});
    rows.append({QStringLiteral("Memory traffic per sample"),
                 w.bytesPerSample > 0
                     ? QStringLiteral("%1 MB").arg(QString::number(w.bytesPerSample / 1e6, 'g', 6))
                 : !(w.flopsPerSample > 0) ? QStringLiteral("not given")
                 : w.stack == SoftwareStack::Tuned
                     ? QStringLiteral("not given (its class's presets' bytes per FLOP are assumed)")
                     : QStringLiteral("not given (the typical stack's traffic for its class is assumed, or "
                                      "its class's reference preset's shape)")});
    if (w.kind == WorkloadKind::CustomMeasured)
        rows.append(
            {QStringLiteral("Measured speed"),
             QStringLiteral("%1 %2/s on one %3%4")
                     .arg(
                         QString::number(w.measuredSamplesPerS, 'g', 6), w.sampleUnit, w.referenceGpuId,
                         w.measuredGpuBusy > 0
                             ? QStringLiteral(", GPU busy %1 %%2")
                                   .arg(busyPercentText(w.measuredGpuBusy),
                                        w.measuredGpuBusy < kHostBoundBusy
                                            ? QStringLiteral(
                                                  " (host-bound: that step is a floor on other GPUs)")
                                        : SpeedModel::builtin().busyMayBeHostBound(SpeedModel::typedFigure(w))
                                            ? QStringLiteral(" (by nvidia-smi, which reads high: maybe "
                                                             "host-bound, so faster GPUs' ranges reach "
                                                             "that step's floor; PROJECTION.md 3.27)")
                                            : QString())
                             : QString()) +
                 (w.measuredBatchPerGpu > 0 && w.measuredBatchPerGpu != w.batchPerGpu
                      ? QStringLiteral(", at batch %1 per GPU").arg(w.measuredBatchPerGpu)
                      : QString())});
    rows.append({QStringLiteral("Parameters"),
                 w.parameters > 0 ? bigNumber(w.parameters) : QStringLiteral("not given")});
    rows.append({QStringLiteral("GPU memory needed"),
                 w.memoryGb > 0 ? QStringLiteral("%1 GB per GPU").arg(formatNumber(w.memoryGb, 1))
                                : QStringLiteral("not given (not checked)")});
    rows.append({QStringLiteral("Micro-batch"), QStringLiteral("%1 per GPU").arg(w.batchPerGpu)});
    if (w.minVcpusPerGpu > 0)
        rows.append(
            {QStringLiteral("vCPUs needed"), QStringLiteral("%1 per GPU").arg(number(w.minVcpusPerGpu))});
    if (!w.notes.isEmpty())
        rows.append({QStringLiteral("Notes"), w.notes});
    return rows;
}

QList<std::pair<QString, QString>> assumptionRows(const Data &d)
{
    const ProjectionOptions &o = d.r->options;
    QList<std::pair<QString, QString>> rows;
    rows.append({QStringLiteral("Prices"), spotPolicyText(o.spotPolicy)});
    if (!d.currency.isUsd())
        rows.append({QStringLiteral("Currency"), currencyNote(d)});
    rows.append({QStringLiteral("Setup time"),
                 minutesText(o.setupMinutes) + QStringLiteral(" boot per run, billed, plus data staging")});
    const Workload &w = d.r->workload;
    rows.append(
        {QStringLiteral("Data staging"),
         w.stagedGb() > 0
             ? QStringLiteral("%1 GB (data set %2 GB + pretrained weights %3 GB) over each offer's sustained "
                              "network bandwidth; a cloud instance below %4 vCPUs sustains %5 % of its "
                              "\"up to\" figure (judgement)")
                   .arg(number(w.stagedGb()), number(w.datasetGb), number(w.pretrainedWeightsGb),
                        number(kBurstVcpuLimit), number(kBurstBaselineShare * 100))
             : QStringLiteral("none")});
    rows.append({QStringLiteral("Input pipeline"),
                 w.cpuCoreSecondsPerSample > 0
                     ? QStringLiteral("%1 vCPU-seconds per %2: speed capped at vCPUs / that (cpu-bound)")
                           .arg(number(w.cpuCoreSecondsPerSample), w.sampleUnit)
                     : QStringLiteral("not given (no CPU cap)")});
    QStringList rates;
    for (const QString &p : knownProviders())
        if (o.interruptionRatePerHour.contains(p))
            rates.append(QStringLiteral("%1 %2 per hour (yours)")
                             .arg(providerDisplayName(p), number(o.interruptionRatePerHour.value(p))));
    rows.append(
        {QStringLiteral("Spot interruption rates"),
         QStringLiteral("documented defaults per provider, capacity and GPU class (resources/SPOT.md, "
                        "resources/spot_interruption.csv, AWS buckets in resources/spot_aws_buckets.csv)") +
             (rates.isEmpty() ? QString()
                              : QStringLiteral("; overridden: ") + rates.join(QStringLiteral(", ")))});
    QStringList egress;
    for (const QString &p : knownProviders())
        if (o.egressUsdPerGb.value(p, 0) > 0)
            egress.append(
                inCurrency(d, QStringLiteral("%1 %2 USD/GB"))
                    .arg(providerDisplayName(p), number(d.currency.fromUsd(o.egressUsdPerGb.value(p)))));
    rows.append({QStringLiteral("Egress"),
                 egress.isEmpty() ? QStringLiteral("none") : egress.join(QStringLiteral(", "))});
    rows.append({QStringLiteral("Suspect prices"),
                 o.includeSuspect
                     ? QStringLiteral("included: they may be on the frontier and recommended")
                     : QStringLiteral("excluded from the frontier and the recommendation (shown, flagged)")});
    rows.append({QStringLiteral("Checkpoint interval"),
                 minutesText(o.checkpointMinutes) +
                     QStringLiteral(" (an interruption loses half of it on average)")});
    rows.append({QStringLiteral("Restore time"),
                 minutesText(o.restoreMinutes) + QStringLiteral(" per spot interruption")});
    rows.append({QStringLiteral("Deadline"),
                 o.deadlineHours ? formatHours(*o.deadlineHours) : QStringLiteral("none")});
    rows.append({QStringLiteral("Budget"),
                 o.budgetUsd ? formatMoneyWithUnit(*o.budgetUsd, d.currency) : QStringLiteral("none")});
    rows.append({QStringLiteral("Recommendation weight"),
                 QStringLiteral("%1 (0 = cheapest, 1 = fastest)").arg(QString::number(o.weight, 'f', 2))});
    QStringList nodes;
    for (int k : o.nodeCounts)
        nodes.append(QString::number(k));
    rows.append({QStringLiteral("Job sizes"),
                 QStringLiteral("%1 instance(s)").arg(nodes.join(QStringLiteral(", ")))});
    rows.append(
        {QStringLiteral("Gradient overlap"), pct(o.overlap * 100) + QStringLiteral(" of a step's compute")});
    rows.append({QStringLiteral("Bytes per gradient"), number(o.bytesPerGradient)});
    rows.append({QStringLiteral("Stale prices"), QStringLiteral("older than %1 days").arg(o.staleDays)});
    rows.append({QStringLiteral("Offers listed"), d.offerSetText});
    rows.append({QStringLiteral("Filter"), describeFilter(d.r->filter)});
    if (o.now.isValid())
        rows.append({QStringLiteral("Projected at"), o.now.toUTC().toString(Qt::ISODate)});
    return rows;
}

QList<std::pair<QString, QString>> calibrationRows(const Data &d)
{
    const Calibration &c = d.r->calibration;
    QList<std::pair<QString, QString>> rows;
    rows.append({QStringLiteral("Speed model"),
                 QStringLiteral("v2: measured training speeds where the workload was measured on the GPU, "
                                "carried over from other measured GPUs by the fitted model otherwise, the "
                                "model's roofline without any measurement; each time and cost has the range "
                                "of its tier's validation error (10th–90th percentile, PROJECTION.md)")});
    if (d.recommended >= 0) {
        if (const SingleGpuSpeed *s = d.r->speedOf(d.offerOf(d.recommended)); s && s->ok)
            rows.append(
                {QStringLiteral("Recommended GPU's speed"),
                 QStringLiteral("%1 (%2): %3")
                     .arg(projectionTierName(s->tier), projectionTierDescription(s->tier), s->basis)});
    }
    rows.append({QStringLiteral("Source"),
                 c.source.isEmpty() ? QStringLiteral("datasheet-only defaults") : c.source});
    rows.append({QStringLiteral("Measured"),
                 c.measured ? QStringLiteral("yes (GPU probe)")
                            : QStringLiteral("no: datasheet peaks × default efficiencies")});
    if (!c.probedGpuId.isEmpty())
        rows.append({QStringLiteral("Probed GPU"), c.probedGpuId});
    QStringList eff;
    for (int i = 0; i < kPrecisionCount; ++i)
        eff.append(QStringLiteral("%1 %2").arg(precisionName(static_cast<Precision>(i)),
                                               pct(c.computeEfficiency[static_cast<std::size_t>(i)] * 100)));
    rows.append({QStringLiteral("Compute efficiency"), eff.join(QStringLiteral(", "))});
    rows.append({QStringLiteral("Memory efficiency"), pct(c.memoryEfficiency * 100)});
    if (const auto &probe = d.input->probe) {
        QString run = QStringLiteral("%1 probe %2").arg(probe->kind, probe->probeVersion);
        if (d.input->probeRunId > 0)
            run += QStringLiteral(", run #%1").arg(d.input->probeRunId);
        if (probe->createdAt.isValid())
            run += QStringLiteral(", %1").arg(probe->createdAt.toUTC().toString(Qt::ISODate));
        rows.append({QStringLiteral("Probe run"), run});
        QString device = shown(probe->deviceName);
        if (probe->memoryGb > 0)
            device += QStringLiteral(", %1 GB").arg(formatNumber(probe->memoryGb, 0));
        if (!probe->driverVersion.isEmpty())
            device += QStringLiteral(", driver %1").arg(probe->driverVersion);
        if (!probe->cudaVersion.isEmpty())
            device += QStringLiteral(", CUDA %1").arg(probe->cudaVersion);
        rows.append({QStringLiteral("Device"), device});
        QStringList figures;
        auto add = [&](const char *name, const std::optional<double> &v) {
            if (v)
                figures.append(QStringLiteral("%1 %2 TFLOP/s")
                                   .arg(QLatin1StringView(name), QString::number(*v, 'f', 1)));
        };
        add("fp32", probe->fp32Tflops);
        add("tf32", probe->tf32Tflops);
        add("fp16", probe->fp16Tflops);
        add("bf16", probe->bf16Tflops);
        add("fp8", probe->fp8Tflops);
        if (probe->memBandwidthGbs)
            figures.append(
                QStringLiteral("memory %1 GB/s").arg(QString::number(*probe->memBandwidthGbs, 'f', 0)));
        if (!figures.isEmpty())
            rows.append({QStringLiteral("Probe figures"), figures.join(QStringLiteral(", "))});
    }
    for (const QString &n : c.notes)
        rows.append({QStringLiteral("Note"), n});
    return rows;
}

QStringList snapshotHeader()
{
    return {QStringLiteral("Provider"),   QStringLiteral("Source"),        QStringLiteral("Origin"),
            QStringLiteral("Price date"), QStringLiteral("Fetched (UTC)"), QStringLiteral("Age"),
            QStringLiteral("Offers"),     QStringLiteral("Unrecognised")};
}

QList<QStringList> snapshotRows(const Data &d)
{
    QList<QStringList> rows;
    for (const Snapshot &s : d.snapshots)
        rows.append({providerDisplayName(s.provider), sourceKindName(s.kind), shown(s.origin),
                     s.dataDate.isValid() ? s.dataDate.toString(Qt::ISODate) : QStringLiteral("–"),
                     s.fetchedAt.isValid() ? s.fetchedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                           : QStringLiteral("–"),
                     formatAgeDays(s.ageDays(d.now)), QString::number(s.rowCount),
                     QString::number(s.unrecognisedCount)});
    return rows;
}

QStringList snapshotNotes(const Data &d)
{
    QStringList out;
    for (const Snapshot &s : d.snapshots)
        if (!s.note.isEmpty())
            out.append(QStringLiteral("%1: %2").arg(providerDisplayName(s.provider), s.note));
    return out;
}

QStringList spotHeader(const Data &d)
{
    return {QStringLiteral("GPU"),
            QStringLiteral("Offers (with spot)"),
            QStringLiteral("Median spot discount"),
            inCurrency(d, QStringLiteral("Best on-demand USD/GPU-h")),
            inCurrency(d, QStringLiteral("Best spot USD/GPU-h")),
            QStringLiteral("Cheapest on-demand run"),
            QStringLiteral("Cheapest spot run"),
            QStringLiteral("Run savings")};
}

QList<QStringList> spotRows(const Data &d)
{
    QList<QStringList> rows;
    const QString dash = QStringLiteral("–");
    auto run = [&](qsizetype i) -> QString {
        if (i < 0)
            return dash;
        Offer o;
        const ProjectedOffer p = d.point(i, &o);
        return inCurrency(d, QStringLiteral("%1 USD, %2 (%3)"))
            .arg(money(d, p.costUsd), formatHours(p.totalHours), shown(o.instanceType));
    };
    for (const SpotSaving &s : d.spotSavings)
        rows.append({s.gpuName, QStringLiteral("%1 (%2)").arg(s.offers).arg(s.offersWithSpot),
                     s.medianDiscountPct ? pct(*s.medianDiscountPct) : dash,
                     s.onDemandUsdPerGpuHour ? moneyPerHour(d, *s.onDemandUsdPerGpuHour) : dash,
                     s.spotUsdPerGpuHour ? moneyPerHour(d, *s.spotUsdPerGpuHour) : dash, run(s.onDemandPoint),
                     run(s.spotPoint), s.runSavingsPct ? pct(*s.runSavingsPct) : dash});
    return rows;
}

QStringList multiNodeHeader(const Data &d)
{
    return {QStringLiteral("GPU"),
            QStringLiteral("K"),
            QStringLiteral("K × 1-GPU spot"),
            QStringLiteral("Spot time"),
            inCurrency(d, QStringLiteral("Spot cost (USD)")),
            QStringLiteral("1 × K-GPU on-demand"),
            QStringLiteral("On-demand time"),
            inCurrency(d, QStringLiteral("On-demand cost (USD)")),
            QStringLiteral("Spot saves"),
            QStringLiteral("Spot time change")};
}

QList<QStringList> multiNodeRows(const Data &d)
{
    QList<QStringList> rows;
    for (const MultiNodeComparison &m : d.multiNode) {
        // Large differences read better as factors ("12.5× slower") than as percentages.
        const double costRatio = m.spot.costUsd / m.onDemand.costUsd;
        const double timeRatio = m.spot.totalHours / m.onDemand.totalHours;
        const QString saves = costRatio >= 2
                                  ? QStringLiteral("costs %1× more").arg(QString::number(costRatio, 'f', 1))
                                  : pct(m.costSavingsPct);
        const QString slower =
            timeRatio >= 2 ? QStringLiteral("%1× slower").arg(QString::number(timeRatio, 'f', 1))
                           : (m.timeChangePct >= 0 ? QStringLiteral("+") : QString()) + pct(m.timeChangePct);
        rows.append({m.gpuName, QString::number(m.gpus),
                     QStringLiteral("%1 × %2 %3 (%4)")
                         .arg(QString::number(m.gpus), providerDisplayName(m.singleOffer.provider),
                              shown(m.singleOffer.instanceType), shownLocation(m.singleOffer)),
                     formatHours(m.spot.totalHours), money(d, m.spot.costUsd),
                     QStringLiteral("%1 %2 (%3)")
                         .arg(providerDisplayName(m.multiOffer.provider), shown(m.multiOffer.instanceType),
                              shownLocation(m.multiOffer)),
                     formatHours(m.onDemand.totalHours), money(d, m.onDemand.costUsd), saves, slower});
    }
    return rows;
}

QString argumentText(const Data &d)
{
    const ProjectionResults &r = *d.r;
    const ProjectionOptions &o = r.options;
    QString limits;
    if (o.deadlineHours && o.budgetUsd)
        limits = inCurrency(d, QStringLiteral("the deadline of %1 and the budget of %2 USD"))
                     .arg(formatHours(*o.deadlineHours), money(d, *o.budgetUsd));
    else if (o.deadlineHours)
        limits = QStringLiteral("the deadline of %1").arg(formatHours(*o.deadlineHours));
    else if (o.budgetUsd)
        limits = inCurrency(d, QStringLiteral("the budget of %1 USD")).arg(money(d, *o.budgetUsd));
    if (d.recommended < 0) {
        QString s = QStringLiteral("No offer is recommended: ");
        if (!limits.isEmpty())
            s += QStringLiteral("no offer on the efficiency frontier meets %1.").arg(limits);
        else
            s += QStringLiteral("no offer could be projected and priced.");
        return s;
    }
    const ProjectedOffer rec = d.point(d.recommended);
    QString s =
        inCurrency(
            d, QStringLiteral(
                   "Train on %1: %2 for %3 USD. It is on the efficiency frontier (no offer is both faster "
                   "and cheaper) among %4 projected offers"))
            .arg(pointTitle(d, d.recommended), formatHours(rec.totalHours), money(d, rec.costUsd),
                 QString::number(d.projected));
    s += limits.isEmpty() ? QStringLiteral(".") : QStringLiteral(" and meets %1.").arg(limits);
    // Compare with the report's own "fastest within limits" and "cheapest within limits" (its cards), so
    // that the summary and the cards name the same offers and figures.
    const qsizetype fastest = d.fastest, cheapest = d.cheapest;
    QStringList comparisons;
    const QList<CompactPoint> &points = d.points->compact();
    if (fastest >= 0 && fastest != d.recommended && points.at(fastest).costUsd > rec.costUsd) {
        const ProjectedOffer f = d.point(fastest);
        comparisons.append(
            inCurrency(d, QStringLiteral("costs %1 less than the fastest within limits (%2, %3 USD in %4)"))
                .arg(pct(100.0 * (1.0 - rec.costUsd / f.costUsd)), pointTitle(d, fastest),
                     money(d, f.costUsd), formatHours(f.totalHours)));
    }
    if (cheapest >= 0 && cheapest != d.recommended && points.at(cheapest).totalHours > rec.totalHours) {
        const ProjectedOffer c = d.point(cheapest);
        comparisons.append(
            inCurrency(
                d, QStringLiteral("finishes %1× sooner than the cheapest within limits (%2, %3 USD in %4)"))
                .arg(QString::number(c.totalHours / rec.totalHours, 'f', 1), pointTitle(d, cheapest),
                     money(d, c.costUsd), formatHours(c.totalHours)));
    }
    if (!comparisons.isEmpty())
        s += QStringLiteral(" It ") + comparisons.join(QStringLiteral(", and ")) + u'.';
    s += indistinguishableText(d);
    return s;
}

QString indistinguishableText(const Data &d)
{
    if (d.recommended < 0)
        return {};
    // indistinguishableFrom reads the feasible frontier points: those, in full, after the recommended one
    // (their order kept, so the result is the same as over every point).
    const QList<CompactPoint> &all = d.points->compact();
    QList<qsizetype> index{d.recommended};
    QList<ProjectedOffer> points{d.point(d.recommended)};
    QStringList gpus{d.offerOf(d.recommended).gpuId};
    for (qsizetype i = 0; i < all.size(); ++i) {
        if (i == d.recommended || !all.at(i).onFrontier || !all.at(i).feasible)
            continue;
        Offer o;
        points.append(d.point(i, &o));
        index.append(i);
        gpus.append(o.gpuId);
    }
    const QList<qsizetype> close =
        indistinguishableFrom(points, 0, [&gpus](qsizetype i) { return gpus.at(i); });
    if (close.isEmpty())
        return {};
    QStringList names;
    for (qsizetype k : close)
        names.append(inCurrency(d, QStringLiteral("%1 (%2, %3 USD)"))
                         .arg(pointTitle(d, index.at(k)), formatHours(points.at(k).totalHours),
                              money(d, points.at(k).costUsd)));
    return QStringLiteral(
               " Within the projection's likely ranges it is indistinguishable from %1: their time "
               "and cost ranges overlap, so the model cannot tell which is better.")
        .arg(names.join(QStringLiteral("; ")));
}

QString headlineText(const Data &d, qsizetype point)
{
    if (point < 0)
        return QStringLiteral("none within the deadline and budget");
    const ProjectedOffer p = d.point(point);
    return inCurrency(
               d, QStringLiteral("%1 — %2, %3 USD (%4 USD/h, %5 samples/USD); likely range %6 (speed: %7)"))
        .arg(pointTitle(d, point), formatHours(p.totalHours), money(d, p.costUsd),
             moneyPerHour(d, p.usdPerHour), samplesPerMoney(d, p), rangeText(d, p),
             projectionTierName(p.tier));
}

QString reproduceCommand(const Data &d, ReportFormat format)
{
    const Workload &w = d.r->workload;
    const ProjectionOptions &o = d.r->options;
    const ProjectionOptions def;
    QStringList a{QStringLiteral("gpufrontier-cli"), QStringLiteral("report")};
    auto arg = [&](const QString &name, const QString &value) {
        a.append(u"--" + name);
        a.append(shellWord(value));
    };
    // A measured speed, with its busy share and the batch it was measured at where they were given.
    const auto measuredArgs = [&] {
        if (w.kind != WorkloadKind::CustomMeasured)
            return;
        arg(QStringLiteral("measured"), number(w.measuredSamplesPerS));
        arg(QStringLiteral("measured-on"), w.referenceGpuId);
        if (w.measuredGpuBusy > 0)
            arg(QStringLiteral("measured-busy"), number(w.measuredGpuBusy * 100));
        if (w.measuredBatchPerGpu > 0 && w.measuredBatchPerGpu != w.batchPerGpu)
            arg(QStringLiteral("measured-batch"), QString::number(w.measuredBatchPerGpu));
    };
    const Workload *preset = w.kind == WorkloadKind::Preset || w.id != u"custom"
                                 ? findWorkload(builtinWorkloads(), w.id)
                                 : nullptr;
    if (preset) {
        arg(QStringLiteral("workload"), w.id);
        // The preset as --batch and --checkpointing make it (presetRecipe, the builder's own rule): the other
        // flags name what differs from that.
        const int presetBatch = preset->batchPerGpu;
        std::optional<bool> checkpointing;
        if (w.gradientCheckpointing != preset->gradientCheckpointing && preset->checkpointingOffered()) {
            arg(QStringLiteral("checkpointing"),
                w.gradientCheckpointing ? QStringLiteral("on") : QStringLiteral("off"));
            checkpointing = w.gradientCheckpointing;
        }
        const Workload base =
            presetRecipe(*preset,
                         w.batchPerGpu != presetBatch ? std::optional<int>(w.batchPerGpu) : std::nullopt,
                         checkpointing)
                .value();
        preset = &base;
        measuredArgs();
        if (w.samplesPerEpoch != preset->samplesPerEpoch)
            arg(QStringLiteral("samples"), number(w.samplesPerEpoch));
        if (w.epochs != preset->epochs)
            arg(QStringLiteral("epochs"), number(w.epochs));
        if (w.flopsPerSample != preset->flopsPerSample)
            arg(QStringLiteral("flops-per-sample"), number(w.flopsPerSample));
        if (w.bytesPerSample != preset->bytesPerSample)
            arg(QStringLiteral("bytes-per-sample"), number(w.bytesPerSample));
        if (w.precision != preset->precision)
            arg(QStringLiteral("precision"), precisionName(w.precision));
        if (w.parameters != preset->parameters)
            arg(QStringLiteral("params"), number(w.parameters));
        if (w.memoryGb != preset->memoryGb)
            arg(QStringLiteral("memory-gb"), number(w.memoryGb));
        if (w.batchPerGpu != presetBatch)
            arg(QStringLiteral("batch"), QString::number(w.batchPerGpu));
        if (w.minVcpusPerGpu != preset->minVcpusPerGpu)
            arg(QStringLiteral("min-vcpus"), number(w.minVcpusPerGpu));
        if (w.datasetGb != preset->datasetGb)
            arg(QStringLiteral("dataset-gb"), number(w.datasetGb));
        if (w.workloadClass != preset->workloadClass)
            arg(QStringLiteral("workload-class"), workloadClassName(w.workloadClass));
    } else {
        measuredArgs();
        if (w.flopsPerSample > 0)
            arg(QStringLiteral("flops-per-sample"), number(w.flopsPerSample));
        if (w.bytesPerSample > 0)
            arg(QStringLiteral("bytes-per-sample"), number(w.bytesPerSample));
        arg(QStringLiteral("samples"), number(w.samplesPerEpoch));
        if (w.epochs != 1)
            arg(QStringLiteral("epochs"), number(w.epochs));
        arg(QStringLiteral("precision"), precisionName(w.precision));
        if (w.parameters > 0)
            arg(QStringLiteral("params"), number(w.parameters));
        if (w.memoryGb > 0)
            arg(QStringLiteral("memory-gb"), number(w.memoryGb));
        if (w.batchPerGpu != 32)
            arg(QStringLiteral("batch"), QString::number(w.batchPerGpu));
        if (w.minVcpusPerGpu > 0)
            arg(QStringLiteral("min-vcpus"), number(w.minVcpusPerGpu));
        if (w.datasetGb > 0)
            arg(QStringLiteral("dataset-gb"), number(w.datasetGb));
        if (w.workloadClass != WorkloadClass::Unknown)
            arg(QStringLiteral("workload-class"), workloadClassName(w.workloadClass));
    }
    if (w.stack != SoftwareStack::Typical)
        arg(QStringLiteral("stack"), softwareStackName(w.stack));
    if (o.includeSuspect)
        a.append(QStringLiteral("--include-suspect"));
    auto perProvider = [&](const QString &name, const QHash<QString, double> &values) {
        QStringList keys = values.keys();
        keys.sort();
        for (const QString &k : keys)
            arg(name, k + u'=' + number(values.value(k)));
    };
    perProvider(QStringLiteral("interruption-rate"), o.interruptionRatePerHour);
    perProvider(QStringLiteral("egress"), o.egressUsdPerGb);
    if (o.deadlineHours)
        arg(QStringLiteral("deadline"), number(*o.deadlineHours));
    if (o.budgetUsd)
        arg(QStringLiteral("budget"), number(*o.budgetUsd));
    if (!d.currency.isUsd())
        arg(QStringLiteral("currency"), d.currency.code);
    if (o.spotPolicy == SpotPolicy::SpotOnly)
        a.append(QStringLiteral("--spot"));
    else if (o.spotPolicy == SpotPolicy::OnDemandOnly)
        a.append(QStringLiteral("--on-demand"));
    if (o.checkpointMinutes != def.checkpointMinutes)
        arg(QStringLiteral("checkpoint-minutes"), number(o.checkpointMinutes));
    if (o.setupMinutes != def.setupMinutes)
        arg(QStringLiteral("setup-minutes"), number(o.setupMinutes));
    if (o.restoreMinutes != def.restoreMinutes)
        arg(QStringLiteral("restore-minutes"), number(o.restoreMinutes));
    QStringList nodes;
    for (int k : o.nodeCounts)
        if (k > 1)
            nodes.append(QString::number(k));
    if (!nodes.isEmpty())
        arg(QStringLiteral("nodes"), nodes.join(u','));
    if (o.weight != def.weight)
        arg(QStringLiteral("weight"), number(o.weight));
    if (!d.r->filter.providers.isEmpty())
        arg(QStringLiteral("provider"), d.r->filter.providers.join(u','));
    if (!d.r->calibration.measured)
        a.append(QStringLiteral("--no-calibration"));
    // The CLI lists all or the frontier offers (GUI filters other than providers, and selections, have no
    // flag).
    arg(QStringLiteral("offers"),
        d.input->offerSet == ReportOfferSet::Frontier ? QStringLiteral("frontier") : QStringLiteral("all"));
    if (!d.input->title.trimmed().isEmpty())
        arg(QStringLiteral("title"), d.input->title.trimmed());
    arg(QStringLiteral("format"), reportFormatName(format));
    arg(QStringLiteral("now"), d.now.toString(Qt::ISODate));
    a.append(QStringLiteral("-o"));
    a.append(QStringLiteral("FILE"));
    return a.join(u' ');
}

} // namespace gf::report

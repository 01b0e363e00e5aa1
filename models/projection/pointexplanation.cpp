#include "projection/pointexplanation.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/speedmodel.h"
#include "projection/spotdefaults.h"
#include "util/format.h"

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

QString num(double v, int significant = 3)
{
    return QString::number(v, 'g', significant);
}

QString minutes(double hours)
{
    return QStringLiteral("%1 min").arg(QString::number(hours * 60.0, 'g', 3));
}

} // namespace

QString explainSpot(const Offer &o, const ProjectedOffer &p, const ProjectionOptions &options)
{
    if (p.mode != PriceMode::Spot)
        return {};
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const QString cls = m ? m->capacityClass : QStringLiteral("standard");
    const auto it = options.interruptionRatePerHour.constFind(o.provider);
    const std::optional<double> override =
        it == options.interruptionRatePerHour.cend() ? std::nullopt : std::optional<double>(*it);
    const SpotRate r = spotRate(SpotDefaults::builtin(), o.provider, o.spotLabel, cls, o.gpuCount,
                                o.interruption, o.reliability, override);
    QString rate;
    if (r.overridden) {
        rate = QStringLiteral("%1 interruptions per instance-hour (your rate for %2)")
                   .arg(num(r.perHour), providerDisplayName(o.provider));
    } else {
        QString base = QStringLiteral("base %1").arg(num(r.basePerHour));
        if (r.row)
            base += QStringLiteral(" (resources/spot_interruption.csv: %1 %2 %3, %4 GPUs and more; %5)")
                        .arg(r.row->provider, r.row->capacity, r.row->capacityClass, num(r.row->minGpus),
                             r.row->basis);
        QString term;
        if (o.provider == u"aws")
            term = QStringLiteral(" + AWS Spot Advisor bucket %1: %2 (resources/spot_aws_buckets.csv)")
                       .arg(o.interruption.isEmpty() ? QStringLiteral("unknown, counted as >20%")
                                                     : o.interruption,
                            num(r.offerPerHour));
        else if (o.provider == u"vastai")
            term = QStringLiteral(" + host downtime 1 - reliability %1 = %2")
                       .arg(o.reliability ? num(*o.reliability, 4) : QStringLiteral("0.98 (assumed)"),
                            num(r.offerPerHour));
        rate = QStringLiteral("%1 interruptions per instance-hour = %2%3 (resources/SPOT.md)")
                   .arg(num(r.perHour), base, term);
    }
    QString t =
        QStringLiteral("Spot risk: %1; expected %2 interruptions x (%3 lost + %4 restore) = %5 overhead")
            .arg(rate, num(p.expectedInterruptions), minutes(options.checkpointMinutes / 60.0 / 2.0),
                 minutes(options.restoreMinutes / 60.0), formatHours(p.interruptionHours));
    if (p.nodes > 1)
        t += QStringLiteral(" (%1 instances: any loss stalls the job)").arg(p.nodes);
    if (r.maxRuntimeHours)
        t += QStringLiteral("; the capacity stops after %1 h of runtime").arg(num(*r.maxRuntimeHours));
    return t + u'.';
}

PointExplanation explainPoint(const Offer &o, const ProjectedOffer &p, const Workload &w,
                              const ProjectionOptions &options, const Calibration &cal,
                              const GpuSpecTable &specs, const Currency &currency)
{
    PointExplanation e;
    QStringList &out = e.facts;
    const bool spot = p.mode == PriceMode::Spot;
    const std::optional<double> price = spot ? o.spotUsdH : o.onDemandUsdH;
    out.append(QStringLiteral("Price: %1 %2 for the whole instance%3; source: %4; prices dated %5.")
                   .arg(formatMoneyPerHour(price, currency) + u' ' + currency.perHourUnit(),
                        spot ? (o.spotLabel.isEmpty() ? QStringLiteral("spot") : o.spotLabel)
                             : QStringLiteral("on-demand"),
                        p.nodes > 1 ? QStringLiteral(" (x %1 instances)").arg(p.nodes) : QString(),
                        o.source.isEmpty() ? QStringLiteral("not stated") : o.source,
                        o.effectivePriceDate().toString(Qt::ISODate)));
    const GpuModel *model = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const GpuSpec *spec = o.gpuId.isEmpty() ? nullptr : specs.spec(o.gpuId);
    if (model && spec && p.projected) {
        // Model v2 (PROJECTION.md section 3): the single-GPU speed with its tier and range.
        const SpeedModel &sm = SpeedModel::builtin();
        const SingleGpuSpeed t = sm.project(*spec, w, sm.anchorsFor(w, options.measurements, specs), cal);
        QString speed = QStringLiteral("Speed: %1 %2/s for the job. One %3: %4 TFLOP/s %5, %6 GB/s "
                                       "(resources/gpu_specs.csv: %7) -> %8 %2/s (likely %9-%10), %11; "
                                       "tier %12: %13")
                            .arg(formatNumber(p.samplesPerS, p.samplesPerS < 100 ? 2 : 0), w.sampleUnit,
                                 model->name, num(spec->peak(t.precisionUsed), 4),
                                 precisionName(t.precisionUsed), num(spec->memBandwidthGbs, 4), spec->source,
                                 formatNumber(t.samplesPerS, t.samplesPerS < 100 ? 2 : 0),
                                 formatNumber(t.samplesPerSLow(), t.samplesPerSLow() < 100 ? 2 : 0),
                                 formatNumber(t.samplesPerSHigh(), t.samplesPerSHigh() < 100 ? 2 : 0),
                                 !t.referencePreset.isEmpty()
                                     ? QStringLiteral("shaped by the %1 preset").arg(t.referencePreset)
                                 : t.computeBound ? QStringLiteral("compute-bound")
                                                  : QStringLiteral("memory-bound"),
                                 projectionTierName(t.tier), t.basis);
        speed += QStringLiteral("; calibration: %1").arg(cal.source);
        const double gpus = o.gpuCount * p.nodes;
        if (t.ok && t.samplesPerS > 0 && gpus > 0 && !hasFlag(p.flags, ProjectionFlag::CpuBound)) {
            const double eff = p.samplesPerS / (gpus * t.samplesPerS);
            if (gpus >= 2)
                speed += QStringLiteral("; %1 GPUs at %2 % scaling efficiency (%3)")
                             .arg(formatNumber(gpus), QString::number(eff * 100, 'f', 0),
                                  o.interconnect.isEmpty() ? QStringLiteral("interconnect not stated: PCIe")
                                                           : o.interconnect);
        }
        out.append(speed + u'.');
    }
    if (w.cpuCoreSecondsPerSample > 0 && p.projected) {
        bool assumed = false;
        const double vcpus = pipelineVcpus(o, &assumed);
        const double cap = p.nodes * vcpus / w.cpuCoreSecondsPerSample;
        out.append(QStringLiteral(
                       "Input pipeline: %1 vCPUs%7 / %2 vCPU-s per %3 = %4 %5/s%6 (workload's "
                       "cpu_core_seconds_per_sample, resources/workloads.json; a judged cost: on two "
                       "hosts (TensorFlow, in sample) most measured pipelines ran at %8 of such a figure, "
                       "so the rate is likely that).")
                       .arg(formatNumber(vcpus * p.nodes), num(w.cpuCoreSecondsPerSample),
                            w.sampleUnit.endsWith(u's') ? w.sampleUnit.chopped(1) : w.sampleUnit,
                            formatNumber(cap), w.sampleUnit,
                            hasFlag(p.flags, ProjectionFlag::CpuBound)
                                ? QStringLiteral(": it caps the GPUs (cpu-bound)")
                                : QStringLiteral(", above the GPU rate"),
                            !assumed ? QString()
                                     : QStringLiteral(
                                           " (assumed: %1 per GPU, what %2 hosts typically have; the offer "
                                           "states none)")
                                           .arg(num(assumedVcpusPerGpu(providerKind(o.provider))),
                                                providerDisplayName(o.provider)),
                            inputPipelineRangeText()));
    }
    if (p.projected) {
        QString setup = QStringLiteral("Setup %1: boot %2")
                            .arg(formatHours(p.setupHours), minutes(options.setupMinutes / 60.0));
        if (w.stagedGb() > 0) {
            const StagingNetwork net = stagingNetwork(o);
            QString how;
            if (net.assumed)
                how =
                    QStringLiteral("no network figure: the %1 default").arg(providerDisplayName(o.provider));
            else if (net.burst)
                how = QStringLiteral("%1 % of the stated %2 Gbps, an \"up to\" figure below %3 vCPUs")
                          .arg(num(kBurstBaselineShare * 100), num(*o.networkGbps), num(kBurstVcpuLimit));
            else
                how = QStringLiteral("the instance's figure");
            setup += QStringLiteral(" + %1 GB staged (data set %2 GB + weights %3 GB) at %4 Gbps (%5) = %6")
                         .arg(num(w.stagedGb(), 4), num(w.datasetGb, 4), num(w.pretrainedWeightsGb, 4),
                              num(net.gbps, 3), how, formatHours(stagingHours(w.stagedGb(), net.gbps)));
        }
        out.append(setup + u'.');
        out.append(
            QStringLiteral("Time %1 = setup %2 + training %3 (%4 %5 / %6 per s) + spot overhead %7; cost %8 "
                           "billed in %9 s increments (minimum %10 s).")
                .arg(formatHours(p.totalHours), formatHours(p.setupHours), formatHours(p.trainHours),
                     QString::number(w.totalSamples(), 'f', 0), w.sampleUnit,
                     formatNumber(p.samplesPerS, p.samplesPerS < 100 ? 2 : 0),
                     formatHours(p.interruptionHours), formatMoneyWithUnit(p.costUsd, currency))
                .arg(o.billingIncrementS)
                .arg(o.billingMinimumS));
    }
    if (const QString s = explainSpot(o, p, options); !s.isEmpty() && p.projected)
        out.append(s);
    const double egress = options.egressUsdPerGb.value(o.provider, 0.0);
    if (egress > 0 && w.stagedGb() > 0)
        out.append(
            QStringLiteral("Egress: %1 GB x %2 USD/GB x %3 instance(s) = %4 USD, included in the cost.")
                .arg(num(w.stagedGb(), 4), num(egress, 3))
                .arg(p.nodes)
                .arg(formatUsd(w.stagedGb() * egress * p.nodes)));
    // Flags: the offer's own numbers where the offer has them, else the generic sentence.
    auto offerFlag = [&](ProjectionFlag pf) -> std::optional<OfferFlag> {
        switch (pf) {
        case ProjectionFlag::SpotAboveOnDemand:
            return OfferFlag::SpotAboveOnDemand;
        case ProjectionFlag::SpotAtFloor:
            return OfferFlag::SpotAtFloor;
        case ProjectionFlag::GpuBelowSpot:
            return OfferFlag::GpuBelowSpot;
        case ProjectionFlag::PriceOutlierLow:
            return OfferFlag::PriceOutlierLow;
        case ProjectionFlag::PriceOutlierHigh:
            return OfferFlag::PriceOutlierHigh;
        case ProjectionFlag::StaleRow:
            return OfferFlag::Stale;
        case ProjectionFlag::MemoryDiffers:
            return OfferFlag::MemoryDiffers;
        case ProjectionFlag::NoOnDemand:
            return OfferFlag::NoOnDemand;
        default:
            return std::nullopt;
        }
    };
    for (ProjectionFlag f : allProjectionFlags()) {
        if (!hasFlag(p.flags, f) || f == ProjectionFlag::CpuBound)
            continue;
        QString text = projectionFlagDescription(f);
        if (const auto of = offerFlag(f))
            text = offerFlagDescription(o, *of);
        e.flags.append(QStringLiteral("%1: %2").arg(projectionFlagNames(flagBit(f)).value(0), text));
    }
    if (p.suspectExcluded)
        e.flags.append(
            QStringLiteral("Not on the frontier and never recommended while suspect prices are excluded."));
    return e;
}

} // namespace gf

#include "projection/speedmodel.h"

#include "util/resourcefiles.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <limits>

namespace gf {

namespace {

bool singlePrecision(Precision p)
{
    return p == Precision::Fp32 || p == Precision::Tf32;
}

QString number(double v)
{
    return QString::number(v, 'g', v >= 1000 ? 5 : 4);
}

/// A custom workload measured without FLOPs per sample is defined by the user's own figure: its shape is a
/// placeholder, so the shipped data say nothing of its speed (no plausibility bound, no overhead to add).
bool definedByItsFigure(const Workload &w)
{
    return !(w.flopsPerSample > 0);
}

} // namespace

double sampleMedian(QList<double> v)
{
    if (v.isEmpty())
        return 0;
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : 0.5 * (v.at(n / 2 - 1) + v.at(n / 2));
}

const ThroughputMeasurement *
newestUserMeasurement(const ThroughputMeasurements &measurements,
                      const std::function<bool(const ThroughputMeasurement &)> &matches)
{
    const ThroughputMeasurement *best = nullptr;
    for (const ThroughputMeasurement &m : measurements) {
        if (m.kind != MeasurementKind::User || !matches(m))
            continue;
        if (!(m.samplesPerSPerGpu > 0) || !std::isfinite(m.samplesPerSPerGpu))
            continue;
        // The newest wins; an unknown date counts as oldest; a later entry wins a tie.
        if (!best || !best->measuredAt.isValid() ||
            (m.measuredAt.isValid() && m.measuredAt >= best->measuredAt))
            best = &m;
    }
    return best;
}

const ThroughputMeasurement *userMeasurementFor(const ThroughputMeasurements &measurements,
                                                const QString &workloadId, const QString &gpuId)
{
    return newestUserMeasurement(measurements, [&](const ThroughputMeasurement &m) {
        return m.gpuId == gpuId && m.workloadId.compare(workloadId, Qt::CaseInsensitive) == 0;
    });
}

bool measurementMatches(const ThroughputMeasurement &m, const Workload &w)
{
    const QString id = m.workloadId.trimmed();
    if (id.isEmpty())
        return false;
    if (w.kind == WorkloadKind::Preset)
        return id.compare(w.id, Qt::CaseInsensitive) == 0;
    return id.compare(w.name.trimmed(), Qt::CaseInsensitive) == 0 ||
           (w.id != u"custom" && id.compare(w.id, Qt::CaseInsensitive) == 0);
}

SpeedModel::SpeedModel(ModelConstants constants, GpuArchTable arch, BenchmarkTable benchmarks)
    : m_constants(std::move(constants)), m_arch(std::move(arch)), m_benchmarks(std::move(benchmarks))
{
}

const SpeedModel &SpeedModel::builtin()
{
    static const SpeedModel model =
        SpeedModel(ModelConstants::builtin(), GpuArchTable::builtin(), BenchmarkTable::builtin())
            .withTypicalStack(TypicalStack::builtin())
            .withStepFloors(StepFloorData::builtin().floors())
            .withVendorLevels(VendorLevels::builtin());
    return model;
}

double SpeedModel::typicalOverheadS(const Workload &w, double flopsPerSample) const
{
    if (w.stack != SoftwareStack::Typical || !(flopsPerSample > 0))
        return 0;
    const double rate = m_typical.overheadTflops(w.id, w.kind != WorkloadKind::Preset, w.workloadClass);
    return rate > 0 ? TypicalStack::overheadS(flopsPerSample, rate) : 0.0;
}

QString SpeedModel::stepFloorBasis(const Workload &w, const GpuArch *arch, bool fromShippedData,
                                   SingleGpuSpeed *r) const
{
    // Rule Q2 (section 3.21): a preset's typical projection from the shipped data on an NVIDIA GPU (the
    // floors were measured on CUDA hosts); a user's own figure carries its own stack and host, a custom
    // workload has no measured step.
    if (!fromShippedData || w.kind != WorkloadKind::Preset || w.stack != SoftwareStack::Typical ||
        w.batchPerGpu <= 0)
        return {};
    if (!arch || arch->otherVendor())
        return {};
    const auto floor = m_stepFloors.constFind(w.id);
    if (floor == m_stepFloors.cend() || !(floor->seconds > 0))
        return {};
    const double cap = w.batchPerGpu / floor->seconds;
    if (!(r->samplesPerS > cap))
        return {};
    r->stepFloorS = floor->seconds;
    const double before = r->samplesPerSLow();
    r->range.p90 = std::max(r->range.p90, std::log(r->samplesPerS / cap));
    const QString text =
        QStringLiteral(
            "; host-bound risk: at batch %1 a step would take %2 ms, shorter than the %3 ms floor of "
            "an eager PyTorch step of this preset (the longest of its steps at the smallest batches, "
            "which did not shrink with the batch, on the host we measured: %4, %5, %6), so the CPU "
            "may set the speed: ")
            .arg(QString::number(w.batchPerGpu), number(w.batchPerGpu / r->samplesPerS * 1e3),
                 number(floor->seconds * 1e3), floor->gpuId, floor->host, floor->measured);
    return text + (before <= cap
                       ? QStringLiteral("the range (slow end %1 samples/s) already covers a step at "
                                        "that floor (%2 samples/s)")
                             .arg(number(before), number(cap))
                       : QStringLiteral("the range reaches %1 samples/s").arg(number(cap)));
}

double SpeedModel::defaultBytesPerFlop(const Workload &w) const
{
    if (w.kind == WorkloadKind::Preset || w.bytesPerSample > 0)
        return 0.0;
    const double typical = m_typical.defaultBytesPerFlopOf(w.workloadClass);
    if (w.stack == SoftwareStack::Typical)
        return typical;
    // Rule AC (section 3.29): the tuned stack takes the class's presets' own bytes per FLOP, without the
    // typical stack's traffic factor. Compute-bound, it rated the newest GPUs by their tensor peak alone
    // (MLPerf's other workloads: Ampere -> later GPUs +0.28 too fast at the median).
    const double m = m_typical.trafficFactor.value(workloadClassName(w.workloadClass), 0.0);
    // A file without the factor states the presets' figure itself (typicalstack.h).
    return m > 0 ? typical / m : typical;
}

double SpeedModel::typicalClassLogFactor(const Workload &w, const QString &arch) const
{
    if (w.stack != SoftwareStack::Typical)
        return 0;
    return m_typical.classLogFactor(arch, w.workloadClass).value_or(0.0);
}

QString SpeedModel::typicalClassBasis(const Workload &w, const QString &arch, bool transferred,
                                      LogRange *range) const
{
    if (m_typical.classLogFactors.isEmpty())
        return {};
    const QString archName = arch.isEmpty() ? QStringLiteral("this GPU's") : arch;
    QString out;
    const auto factor = m_typical.classLogFactor(arch, w.workloadClass);
    if (w.workloadClass == WorkloadClass::Unknown) {
        *range = range->combined(m_typical.unknownClassRange);
        out = QStringLiteral("; workload class unknown: no class factor, range widened");
    } else if (factor) {
        out = QStringLiteral("; class factor x%1 (%2 workloads on %3 GPUs in a typical stack)")
                  .arg(QString::number(std::exp(*factor), 'f', 2), workloadClassName(w.workloadClass),
                       archName);
    } else {
        out = QStringLiteral("; class %1: no class factor for %2 GPUs")
                  .arg(workloadClassName(w.workloadClass), archName);
    }
    if (!m_typical.architectureMeasured(arch, w.workloadClass)) {
        *range = range->envelope(transferred ? m_typical.newArchitectureRangeTransfer
                                             : m_typical.newArchitectureRange);
        out += QStringLiteral("; no typical-stack measurement of this architecture and class; range from "
                              "leave-one-architecture-out");
    }
    return out;
}

SpeedTerms SpeedModel::relativeSpeed(const GpuSpec &gpu, Precision precision, double flops, double bytes,
                                     const Calibration *probe) const
{
    SpeedTerms t;
    const auto used = gpu.effectivePrecision(precision);
    if (!used || !(flops >= 0) || !(bytes >= 0) || !std::isfinite(flops) || !std::isfinite(bytes) ||
        (flops == 0 && bytes == 0))
        return t;
    const auto k = static_cast<std::size_t>(precisionIndex(*used));
    t.precisionUsed = *used;
    t.precisionFallback = *used != precision;
    const bool probed = probe && probe->probed(gpu.id);
    double rate = gpu.peak(*used);
    const GpuArch *a = m_arch.arch(gpu.id);
    const bool tensorHalf = *used == Precision::Fp16 || *used == Precision::Bf16 || *used == Precision::Fp8;
    if (a && a->halfRateFp32Acc && tensorHalf)
        rate *= m_constants.gamma;
    const double m = m_constants.powerOps[k];
    if (m > 0 && gpu.tdpW > 0 && m_constants.epsTflopsPerW > 0 && rate > 0)
        rate = 1.0 / (1.0 / rate + 1.0 / (m_constants.epsTflopsPerW * gpu.tdpW * m));
    double bw = gpu.memBandwidthGbs;
    // A probe says how this machine compares with a typical machine of its GPU model: its sustained /
    // datasheet figure over the typical fraction (section 2's defaults). The anchors were fitted on the
    // datasheet-based rate of typical machines, so a typical probe changes nothing; a slower (power-
    // capped, throttled) or faster machine scales the model's rate and bandwidth of this GPU by it.
    if (probed && probe->measuredTflops[k] > 0 && kDefaultComputeEfficiency[k] > 0) {
        t.computeFactor = probe->computeEfficiency[k] / kDefaultComputeEfficiency[k];
        rate *= t.computeFactor;
        t.probeCalibrated = true;
    }
    if (probed && probe->measuredMemBandwidthGbs > 0 && kDefaultMemoryEfficiency > 0) {
        t.memoryFactor = probe->memoryEfficiency / kDefaultMemoryEfficiency;
        bw *= t.memoryFactor;
        t.probeCalibrated = true;
    }
    if (!(rate > 0) || (bytes > 0 && !(bw > 0)))
        return t;
    t.rateTflops = rate;
    t.bandwidthGbs = bw;
    t.computeS = flops / (rate * 1e12 * m_constants.rho[k]);
    t.memoryS = bytes > 0 ? m_constants.beta * bytes / (bw * 1e9) : 0.0;
    const double mx = std::max(t.computeS, t.memoryS);
    if (!(mx > 0) || !std::isfinite(mx))
        return t;
    double s = 0;
    if (m_constants.p >= 50) {
        s = mx;
    } else {
        const double p = m_constants.p;
        s = mx * std::pow(std::pow(t.computeS / mx, p) + std::pow(t.memoryS / mx, p), 1.0 / p);
    }
    t.relative = 1.0 / s;
    // Rule AG (section 3.31): another vendor's GPU whose MLPerf figures ran off the model's projection from
    // NVIDIA GPUs' takes that level; every use of its relative speed (a target, a user's figure on it) moves.
    if (const VendorLevel *v = m_vendorLevels.find(gpu.id))
        t.relative *= std::exp(v->logLevel);
    t.ok = std::isfinite(t.relative) && t.relative > 0;
    return t;
}

std::pair<double, double> SpeedModel::shapeAt(const Workload &w, int batch, Precision precision) const
{
    double f = w.flopsPerSample;
    double b = w.bytesPerSample;
    if (f <= 0 && b <= 0)
        return {kDefaultArithmeticIntensity, 1.0}; // a measured custom workload without a shape
    // Section 3.7: in the typical stack a custom workload given without its memory traffic moves the
    // bytes per FLOP of its class's presets, not none (a compute-bound guess rates the newest GPUs by
    // their tensor peak alone); in the tuned stack the presets' own figure (rule AC, section 3.29).
    if (b <= 0)
        b = f * defaultBytesPerFlop(w);
    if (b <= 0)
        return {f, 0.0};
    // The workload's B counts bytesPerParamPerStep per parameter and step (its definition) and the frozen
    // weights' reads per step (section 3.23); the model's own per-step traffic per trainable parameter is
    // kappa (equal unless fit_projection.py fits it).
    const double frozenReads = frozenWeightReadsPerStep(w.gradientCheckpointing) * frozenWeightBytes(w);
    const double weights0 = (m_constants.bytesPerParamPerStep * std::max(0.0, w.parameters) + frozenReads) /
                            std::max(1, w.batchPerGpu);
    double activations = b - weights0;
    if (activations < 0)
        return {f, b}; // smaller than the weight traffic: no batch scaling
    if (singlePrecision(precision) && !singlePrecision(w.precision))
        activations *= 2.0;
    else if (!singlePrecision(precision) && singlePrecision(w.precision))
        activations *= 0.5;
    const int b1 = batch > 0 ? batch : w.batchPerGpu;
    return {f,
            activations + (m_constants.kappa * std::max(0.0, w.parameters) + frozenReads) / std::max(1, b1)};
}

const GpuSpec *SpeedModel::specOf(const QString &id, const GpuSpecTable &specs) const
{
    if (const GpuSpec *s = specs.spec(id))
        return s;
    return m_arch.fitOnlySpecs().spec(id);
}

QString SpeedModel::archOf(const QString &id) const
{
    const GpuArch *a = m_arch.arch(id);
    return a ? a->arch : QString();
}

SpeedAnchor SpeedModel::makeAnchor(const ThroughputMeasurement &m, const Workload &w,
                                   const GpuSpec &spec) const
{
    SpeedAnchor a;
    a.gpuId = m.gpuId;
    a.arch = archOf(m.gpuId);
    a.user = m.kind != MeasurementKind::Benchmark;
    a.source = m.source;
    a.samplesPerS = m.samplesPerSPerGpu;
    a.batchPerGpu = m.batchPerGpu > 0 ? m.batchPerGpu : w.batchPerGpu;
    a.precision = precisionFromName(m.precision).value_or(w.precision);
    a.precisionScaled = singlePrecision(a.precision) != singlePrecision(w.precision);
    const auto [f, b] = shapeAt(w, a.batchPerGpu, a.precision);
    const SpeedTerms t = relativeSpeed(spec, a.precision, f, b);
    if (!t.ok || !(m.samplesPerSPerGpu > 0) || !std::isfinite(m.samplesPerSPerGpu))
        return {};
    a.relative = t.relative;
    a.logLevel = std::log(m.samplesPerSPerGpu / t.relative);
    a.measurements = 1;
    a.gpuBusy = m.gpuBusyFraction;
    // Section 3.22: the GPU side (figure / busy) cannot beat twice the GPU's highest datasheet rate (the
    // bound implausibleAgainst() holds a figure to): a busy share below that is raised to it.
    if (const double peak = *std::max_element(spec.peakTflops.begin(), spec.peakTflops.end());
        a.gpuBusy > 0 && peak > 0 && f > 0)
        a.gpuBusy = std::min(1.0, std::max(a.gpuBusy, m.samplesPerSPerGpu * f / (2.0 * peak * 1e12)));
    // Rule S4 (section 3.27): nvidia-smi reads high; between the two lines the step may be host-bound. Judged
    // on the share the rules use (after the raise above), as rule S3 is.
    a.busyUncertain = busyInSmiBand(a.gpuBusy, m.gpuBusyMethod);
    return a;
}

bool SpeedAnchor::hostBound() const
{
    return gpuBusy > 0 && gpuBusy < kHostBoundBusy;
}

bool SpeedModel::busyMayBeHostBound(const QString &gpuId, double busy, BusyMethod method) const
{
    const GpuArch *own = m_arch.arch(gpuId.trimmed());
    return busyInSmiBand(busy, method) && !(own && own->otherVendor());
}

bool SpeedModel::hostRuleApplies(const SpeedAnchor &a, const GpuArch *target) const
{
    if (!a.hostBound() || a.batchPerGpu <= 0 || !(a.samplesPerS > 0) || (target && target->otherVendor()))
        return false;
    const GpuArch *own = m_arch.arch(a.gpuId);
    return !(own && own->otherVendor());
}

QString SpeedModel::farBelowModelBasis(const Workload &w, const WorkloadAnchors &anchors,
                                       const GpuArch *target, SingleGpuSpeed *r) const
{
    if (target && target->otherVendor())
        return {};
    for (const SpeedAnchor &a : anchors.user) {
        const GpuArch *own = m_arch.arch(a.gpuId);
        if (!(a.farBelowModel || a.busyUncertain) || a.batchPerGpu <= 0 || !(a.samplesPerS > 0) ||
            (own && own->otherVendor()))
            continue;
        // Were its host to have set the figure, its step would be a floor here too (rule S3), on another
        // host 0.54x-1.85x as long: the range's slow end reaches that floor's slowest.
        const double step = a.batchPerGpu / a.samplesPerS;
        const double slowest = w.batchPerGpu / step / kHostFloorSlower;
        // Rule S4 says nothing where its floor would not move the range: the range's slow end already at or
        // below the slowest host's floor (which includes a GPU whose own step is longer than the floor).
        if (!a.farBelowModel && !(r->samplesPerSLow() > slowest))
            continue;
        const double low = std::min(r->samplesPerSLow(), slowest);
        const double high = r->samplesPerSHigh();
        r->range = {std::log(r->samplesPerS / high), std::log(r->samplesPerS / low)};
        if (a.busyUncertain)
            return QStringLiteral(
                       "; your figure on %1 was measured with the GPU busy %2 % of the step by nvidia-smi "
                       "(or a share typed in), so it is carried as GPU-bound; but nvidia-smi reads high: on "
                       "our hosts every reading under %3 % was of a step the profiler found host-bound "
                       "(section 3.27). If the host set it, this GPU runs no faster than it: a %4 ms step "
                       "at batch %5, so the range reaches %6 samples/s; a share measured by the profiler "
                       "settles it (a launch plan's synthetic run of a preset, imported)")
                .arg(a.gpuId, busyPercentText(a.gpuBusy), QString::number(kSmiGpuBoundBusy * 100, 'f', 0),
                     number(step * 1e3), QString::number(a.batchPerGpu), number(low));
        return QStringLiteral(
                   "; your figure on %1 is more than %2x below what the model projects for that GPU "
                   "and no busy share was given, so this projection is held to %2x of the model's "
                   "own (section 3.24); if the host set that figure (kernel launches at a small "
                   "batch, the input pipeline), this GPU runs no faster than it: a %3 ms step at "
                   "batch %4, so the range reaches %5 samples/s; give the GPU's busy share "
                   "(--measured-busy, the GPU busy box) to settle it")
            .arg(a.gpuId, number(kImplausibleFactor), number(step * 1e3), QString::number(a.batchPerGpu),
                 number(low));
    }
    return {};
}

QString SpeedModel::batchChangeBasis(const Workload &w, const WorkloadAnchors &anchors,
                                     const QString &targetId, SingleGpuSpeed *r) const
{
    const double k = m_typical.batchChangeMinRatio;
    if (!(k > 1) || w.stack != SoftwareStack::Typical || w.batchPerGpu <= 0 || !(r->samplesPerS > 0))
        return {};
    // The figure nearest the projected batch decides: one measured near it carries its own batch's
    // efficiency. On the figure's own GPU only its figures count (amendment AD-1: the point is the figure at
    // its batch).
    double nearest = std::numeric_limits<double>::infinity();
    int measuredAt = 0;
    for (const SpeedAnchor &a : anchors.user) {
        if (r->userMeasured && a.gpuId != targetId)
            continue;
        if (a.batchPerGpu <= 0)
            return {};
        const double apart = TypicalStack::batchesApart(w.batchPerGpu, a.batchPerGpu);
        if (apart < nearest) {
            nearest = apart;
            measuredAt = a.batchPerGpu;
        }
    }
    if (measuredAt == 0 || nearest < k)
        return {};
    r->range = r->range.envelope(m_typical.batchChangeRangeTransfer);
    r->batchChangeFrom = measuredAt;
    return QStringLiteral("; %1 was measured at batch %2 and this GPU is projected at batch %3, %4x "
                          "apart: a step's efficiency changes with its batch more than the model carries, so "
                          "the range is at least that of figures carried across such a change to other GPUs "
                          "(held out by workload, rule AD, section 3.30): %5-%6 samples/s")
        .arg(r->userMeasured ? QStringLiteral("your figure on this GPU") : QStringLiteral("your figure"),
             QString::number(measuredAt), QString::number(w.batchPerGpu), number(nearest),
             number(r->samplesPerSLow()), number(r->samplesPerSHigh()));
}

QString SpeedModel::userHostFloorBasis(const Workload &w, const WorkloadAnchors &anchors,
                                       const QString &targetId, const GpuArch *target,
                                       SingleGpuSpeed *r) const
{
    if (w.batchPerGpu <= 0 || !(r->samplesPerS > 0))
        return {};
    QString farBelow;
    if (!r->userMeasured)
        farBelow = farBelowModelBasis(w, anchors, target, r);
    // The measured tier rests on the target's own figure alone; a transfer on every host-bound figure.
    double sumLog = 0;
    QStringList where;
    bool otherBatch = false;
    for (const SpeedAnchor &a : anchors.user) {
        if (!hostRuleApplies(a, target) || (r->userMeasured && a.gpuId != targetId))
            continue;
        const double step = a.batchPerGpu / a.samplesPerS;
        sumLog += std::log(step);
        otherBatch = otherBatch || a.batchPerGpu != w.batchPerGpu;
        where.append(a.busyAssumed
                         ? QStringLiteral(
                               "%1 (a %3 ms step at batch %4; no busy share was given and the figure is %5x "
                               "below what the model projects for that GPU, so the GPU is taken as busy "
                               "%2 % of it (rule W, section 3.25): give the busy share (--measured-busy, the "
                               "GPU busy box) to replace it)")
                               .arg(a.gpuId, QString::number(a.gpuBusy * 100, 'f', 0), number(step * 1e3),
                                    QString::number(a.batchPerGpu), number(a.belowModel))
                         : QStringLiteral("%1 (GPU busy %2 % of a %3 ms step at batch %4)")
                               .arg(a.gpuId, QString::number(a.gpuBusy * 100, 'f', 0), number(step * 1e3),
                                    QString::number(a.batchPerGpu)));
    }
    if (where.isEmpty())
        return farBelow;
    const QString figures =
        where.size() == 1 ? QStringLiteral("your measurement on %1").arg(where.first())
                          : QStringLiteral("your measurements on %1").arg(where.join(QStringLiteral(", ")));
    const double floorS = std::exp(sumLog / static_cast<double>(where.size()));
    const double cap = w.batchPerGpu / floorS;
    const double gpuSide = r->samplesPerS;
    if (r->userMeasured) {
        // The figure's own GPU: the point is the figure at its batch, and at another batch the GPU side
        // scaled by the model up to the floor (the range widened by rule S3's errors across batches). Other
        // hosts of this GPU may step 0.54x-1.85x as long: the range reaches their floors.
        r->stepFloorS = floorS;
        r->samplesPerS = std::min(gpuSide, cap);
        if (otherBatch)
            r->range = r->range.widened({kHostBoundCrossBatchP10, kHostBoundCrossBatchP90});
        const double low = std::min(r->samplesPerSLow(), cap / kHostFloorSlower);
        const double high = std::max(r->samplesPerSHigh(), std::min(gpuSide, cap / kHostFloorFaster));
        r->range = {std::log(r->samplesPerS / high), std::log(r->samplesPerS / low)};
        return farBelow +
               QStringLiteral(
                   "; host-bound: %1: the host (the CPU dispatching the kernels, or the input "
                   "pipeline), not the GPU, set this speed; a larger batch, CUDA graphs or "
                   "torch.compile would lift it%2; other hosts may step %3x-%4x as long, so the range "
                   "is %5-%6 samples/s")
                   .arg(
                       figures,
                       otherBatch
                           ? QStringLiteral("; at batch %1 its GPU side (the figure / its busy share, scaled "
                                            "by the model) gives %2 samples/s%3")
                                 .arg(QString::number(w.batchPerGpu), number(gpuSide),
                                      gpuSide > cap
                                          ? QStringLiteral(", held to the floor's %1").arg(number(cap))
                                          : QString())
                           : QString(),
                       QString::number(kHostFloorFaster, 'f', 2), QString::number(kHostFloorSlower, 'f', 2),
                       number(low), number(high));
    }
    // Flagged where the floor binds somewhere in the ranges: the GPU side's fast end above the slowest host's
    // cap. Elsewhere the GPU's own step is the longer one and nothing changes.
    if (!(r->samplesPerSHigh() > cap / kHostFloorSlower))
        return farBelow;
    r->stepFloorS = floorS;
    const double point = std::min(gpuSide, cap);
    const double low = std::min(r->samplesPerSLow(), cap / kHostFloorSlower);
    const double high = std::min(r->samplesPerSHigh(), cap / kHostFloorFaster);
    const bool binds = gpuSide > cap;
    r->samplesPerS = point;
    r->range = {std::log(point / high), std::log(point / low)};
    return farBelow +
           QStringLiteral(
               "; host-bound: %1 %2 set by %3 host, so only the GPU-busy part was carried here and "
               "the %4 ms step is a floor (section 3.22): %5; on another host that floor may be "
               "%6x-%7x as long, so the range is %8-%9 samples/s")
               .arg(figures, where.size() == 1 ? QStringLiteral("was") : QStringLiteral("were"),
                    where.size() == 1 ? QStringLiteral("its") : QStringLiteral("their"), number(floorS * 1e3),
                    binds ? QStringLiteral("the floor binds at batch %1 (%2 samples/s)")
                                .arg(QString::number(w.batchPerGpu), number(cap))
                          : QStringLiteral("this GPU's own step at batch %1 is longer, but not on every host")
                                .arg(QString::number(w.batchPerGpu)),
                    QString::number(kHostFloorFaster, 'f', 2), QString::number(kHostFloorSlower, 'f', 2),
                    number(low), number(high));
}

double SpeedModel::shippedLevel(const QList<SpeedAnchor> &shipped, const QString &gpuId) const
{
    for (const SpeedAnchor &a : shipped)
        if (a.gpuId == gpuId)
            return a.logLevel;
    if (!shipped.isEmpty())
        return level(shipped, archOf(gpuId), gpuId);
    return std::log(m_constants.phi);
}

std::optional<ClassReference> SpeedModel::classReference(const Workload &w, const GpuSpecTable &specs) const
{
    if (w.stack != SoftwareStack::Typical || w.kind == WorkloadKind::Preset || w.bytesPerSample > 0)
        return std::nullopt;
    // Rule J (section 3.18): a figure given without FLOPs per sample takes the shape too (F cancels).
    if (!(w.flopsPerSample > 0) && w.kind != WorkloadKind::CustomMeasured)
        return std::nullopt;
    const QString id = m_typical.classReferencePreset.value(workloadClassName(w.workloadClass));
    if (id.isEmpty())
        return std::nullopt;
    const Workload *preset = findWorkload(builtinWorkloads(), id);
    if (!preset || !(preset->flopsPerSample > 0))
        return std::nullopt;
    ClassReference r;
    r.preset = *preset;
    r.preset.stack = SoftwareStack::Tuned;
    r.preset.precision = w.precision;
    r.shipped = anchorsFor(r.preset, {}, specs).shipped;
    return r;
}

std::optional<double> SpeedModel::referenceLog(const Workload &w, const GpuSpec &spec,
                                               const WorkloadAnchors &anchors,
                                               const Calibration &calibration) const
{
    if (!anchors.reference)
        return std::nullopt;
    WorkloadAnchors presetAnchors;
    presetAnchors.shipped = anchors.reference->shipped;
    const SingleGpuSpeed s = project(spec, anchors.reference->preset, presetAnchors, calibration);
    if (!s.ok)
        return std::nullopt;
    // Without FLOPs per sample (rule J) only the shape counts: the preset's own speed.
    const double scale =
        w.flopsPerSample > 0 ? anchors.reference->preset.flopsPerSample / w.flopsPerSample : 1.0;
    return std::log(s.samplesPerS * scale);
}

QString SpeedModel::implausibleAgainst(const ThroughputMeasurement &m, const Workload &w, const GpuSpec &spec,
                                       const WorkloadAnchors &anchors) const
{
    if (definedByItsFigure(w)) // nothing to check it against
        return {};
    const double measured = m.samplesPerSPerGpu;
    const int batch = m.batchPerGpu > 0 ? m.batchPerGpu : w.batchPerGpu;
    const Precision precision = precisionFromName(m.precision).value_or(w.precision);
    const double flops = shapeAt(w, batch, precision).first;
    const double peak = *std::max_element(spec.peakTflops.begin(), spec.peakTflops.end());
    // Twice the highest dense rate: half-rate FP32-accumulate parts list half their headline figure.
    const double ceiling = 2.0 * peak * 1e12 / flops;
    if (peak > 0 && flops > 0 && !(measured <= ceiling))
        return QStringLiteral(
                   "%1 samples/s per GPU at %2 GFLOPs per sample needs %3 TFLOP/s, more than twice "
                   "the %4's highest datasheet rate (%5 TFLOP/s in any precision): at most %6 samples/s "
                   "are possible")
            .arg(number(measured), number(flops / 1e9), number(measured * flops / 1e12), spec.id,
                 number(peak), number(ceiling));
    const SpeedAnchor a = makeAnchor(m, w, spec);
    if (a.measurements == 0)
        return QStringLiteral("%1 samples/s per GPU cannot be compared with the model on the %2")
            .arg(number(measured), spec.id);
    const double ratio = modelRatio(m, w, spec, anchors, a);
    // Section 3.22: a figure its host held back is judged by its GPU side (figure / busy share), both ways.
    const double busy = hostRuleApplies(a, m_arch.arch(spec.id)) ? a.gpuBusy : 1.0;
    const double judged = ratio / busy;
    if (judged > kImplausibleFactor || judged < 1.0 / kImplausibleFactor || !std::isfinite(judged))
        return QStringLiteral(
                   "%1 samples/s per GPU%7 is %2 times %3 the %4 samples/s the model projects for the "
                   "%5 (the bound is %6 times either way)")
            .arg(number(measured / busy), number(judged >= 1 ? judged : 1.0 / judged),
                 judged >= 1 ? QStringLiteral("above") : QStringLiteral("below"), number(measured / ratio),
                 spec.id, number(kImplausibleFactor),
                 busy < 1 ? QStringLiteral(" (the GPU side of %1 at %2 % busy)")
                                .arg(number(measured), QString::number(busy * 100, 'f', 0))
                          : QString());
    return {};
}

ThroughputMeasurement SpeedModel::typedFigure(const Workload &w)
{
    ThroughputMeasurement m;
    m.workloadId = w.name;
    m.gpuId = w.referenceGpuId;
    m.samplesPerSPerGpu = w.measuredSamplesPerS;
    m.batchPerGpu = w.measuredBatchPerGpu > 0 ? w.measuredBatchPerGpu : w.batchPerGpu; // rule Y, section 3.25
    m.precision = precisionName(w.precision);
    m.kind = MeasurementKind::User;
    m.gpuBusyFraction = w.measuredGpuBusy;
    // A typed share is nvidia-smi's utilization.gpu, as --measured-busy and the GPU busy box say (rule S4).
    m.gpuBusyMethod = BusyMethod::NvidiaSmi;
    return m;
}

SpeedModel::TypedFigureCheck SpeedModel::checkTypedFigure(const Workload &w, const GpuSpecTable &specs) const
{
    TypedFigureCheck out;
    const GpuSpec *spec = specOf(w.referenceGpuId.trimmed(), specs);
    if (w.kind != WorkloadKind::CustomMeasured || !spec)
        return out;
    const WorkloadAnchors anchors = anchorsFor(w, {}, specs);
    out.implausible = implausibleAgainst(typedFigure(w), w, *spec, anchors);
    for (const SpeedAnchor &a : anchors.user)
        if (a.busyAssumed)
            out.assumedBusy = a.gpuBusy;
    return out;
}

double SpeedModel::modelRatio(const ThroughputMeasurement &m, const Workload &w, const GpuSpec &spec,
                              const WorkloadAnchors &anchors, const SpeedAnchor &a) const
{
    const double measured = m.samplesPerSPerGpu;
    // Rule I: against the class's reference preset scaled to the workload's FLOPs, as project() takes it.
    const std::optional<double> ref = referenceLog(w, spec, anchors, defaultCalibration());
    double ratio = ref ? std::exp(a.logLevel + std::log(a.relative) - *ref)
                       : std::exp(a.logLevel - shippedLevel(anchors.shipped, spec.id));
    if (const double overhead = typicalOverheadS(w, shapeAt(w, w.batchPerGpu, w.precision).first);
        overhead > 0 && a.relative > 0) {
        // The typical stack: against what the model projects for this GPU in it, at the workload's shape
        // (the measured tier scales the figure there by r_rel), so the bound is the one project() keeps.
        const auto [f, b] = shapeAt(w, w.batchPerGpu, w.precision);
        const SpeedTerms t = relativeSpeed(spec, w.precision, f, b);
        if (t.ok) {
            const double scale = t.relative / a.relative;
            const double tuned =
                measured / ratio * scale * std::exp(typicalClassLogFactor(w, archOf(spec.id)));
            ratio = measured * scale / TypicalStack::speed(tuned, overhead);
        }
    }
    return ratio;
}

QString SpeedModel::implausibility(const ThroughputMeasurement &m, const Workload &w,
                                   const GpuSpecTable &specs) const
{
    const GpuSpec *spec = specOf(m.gpuId.trimmed(), specs);
    if (!spec)
        return {};
    return implausibleAgainst(m, w, *spec, anchorsFor(w, {}, specs));
}

WorkloadAnchors SpeedModel::anchorsFor(const Workload &w, const ThroughputMeasurements &extra,
                                       const GpuSpecTable &specs) const
{
    WorkloadAnchors out;
    if (w.kind == WorkloadKind::Preset) {
        for (const BenchmarkAnchor &b : m_benchmarks.anchors()) {
            if (b.measurement.workloadId.compare(w.id, Qt::CaseInsensitive) != 0)
                continue;
            const GpuSpec *s = specOf(b.measurement.gpuId, specs);
            if (!s)
                continue;
            SpeedAnchor a = makeAnchor(b.measurement, w, *s);
            if (a.measurements == 0)
                continue;
            a.converted = b.converted();
            out.shipped.append(a);
        }
    }
    out.reference = classReference(w, specs);
    // The user's measurements: per GPU the newest of kind User (userMeasurementFor's rule), so that
    // one mechanism picks the measurement that puts a GPU in the measured tier. An implausible one
    // (implausibility()) is quarantined: it neither counts nor hides an older plausible one.
    ThroughputMeasurements own;
    QString farBelowGpu; // rule W-flag: the GPU of a typed figure far below the model, without a busy share
    std::pair<QString, double> assumedBusy; // rule W: that GPU, and how far below the model its figure is
    QStringList gpus;
    for (const ThroughputMeasurement &m : extra)
        if (m.kind == MeasurementKind::User && measurementMatches(m, w) && !gpus.contains(m.gpuId.trimmed()))
            gpus.append(m.gpuId.trimmed());
    for (const QString &g : std::as_const(gpus)) {
        const GpuSpec *spec = specOf(g, specs);
        if (const ThroughputMeasurement *m =
                newestUserMeasurement(extra, [&](const ThroughputMeasurement &x) {
                    return measurementMatches(x, w) && x.gpuId.trimmed() == g &&
                           (!spec || implausibleAgainst(x, w, *spec, out).isEmpty());
                }))
            own.append(*m);
    }
    if (w.kind == WorkloadKind::CustomMeasured && !w.referenceGpuId.isEmpty() &&
        !gpus.contains(w.referenceGpuId)) {
        ThroughputMeasurement m = typedFigure(w);
        m.source = QStringLiteral("the workload's measured speed: %1 %2/s on one GPU")
                       .arg(number(w.measuredSamplesPerS), w.sampleUnit);
        // Rule W (section 3.25): a typed figure more than kImplausibleFactor below what the model projects
        // for its GPU, with no busy share given, is read as host-bound: its busy share is taken as the one
        // at which its GPU side sits at that bound (ratio x kImplausibleFactor), and rule S3 carries it.
        // Where that share would not be host-bound, rule W-flag (section 3.24) says so in the range and the
        // basis.
        if (const GpuSpec *spec = specOf(m.gpuId, specs);
            spec && !(m.gpuBusyFraction > 0) && !definedByItsFigure(w)) {
            const SpeedAnchor a = makeAnchor(m, w, *spec);
            const double ratio = a.measurements > 0 ? modelRatio(m, w, *spec, out, a) : 0.0;
            // Rule S3's evidence is of CUDA hosts: another vendor's figure is carried as before.
            const GpuArch *arch = m_arch.arch(m.gpuId);
            if (ratio > 0 && ratio < 1.0 / kImplausibleFactor && !(arch && arch->otherVendor())) {
                if (ratio * kImplausibleFactor < kHostBoundBusy) {
                    m.gpuBusyFraction = ratio * kImplausibleFactor;
                    assumedBusy = {m.gpuId, 1.0 / ratio};
                } else {
                    farBelowGpu = m.gpuId;
                }
            }
        }
        own.append(m);
    }
    // One anchor per GPU: the mean level of that GPU's measurements.
    QHash<QString, qsizetype> byGpu;
    for (const ThroughputMeasurement &m : std::as_const(own)) {
        const GpuSpec *s = specOf(m.gpuId.trimmed(), specs);
        if (!s)
            continue;
        SpeedAnchor a = makeAnchor(m, w, *s);
        if (a.measurements == 0)
            continue;
        a.user = true;
        a.farBelowModel = !farBelowGpu.isEmpty() && a.gpuId == farBelowGpu && !(a.gpuBusy > 0);
        if (!assumedBusy.first.isEmpty() && a.gpuId == assumedBusy.first) {
            a.busyAssumed = true;
            a.belowModel = assumedBusy.second;
        }
        if (const auto ref = referenceLog(w, *s, out, defaultCalibration()))
            a.referenceLog = *ref;
        auto it = byGpu.constFind(a.gpuId);
        if (it == byGpu.constEnd()) {
            byGpu.insert(a.gpuId, out.user.size());
            out.user.append(a);
        } else {
            SpeedAnchor &e = out.user[*it];
            e.logLevel = (e.logLevel * e.measurements + a.logLevel) / (e.measurements + 1);
            e.measurements += 1;
            e.precisionScaled = e.precisionScaled || a.precisionScaled;
        }
    }
    return out;
}

double SpeedModel::level(const QList<SpeedAnchor> &anchors, const QString &arch, const QString &exclude,
                         int *count, int *same) const
{
    double num = 0, den = 0;
    int n = 0, s = 0;
    for (const SpeedAnchor &a : anchors) {
        if (a.gpuId == exclude)
            continue;
        const bool sameArch = !arch.isEmpty() && a.arch == arch;
        const double wgt = sameArch ? m_constants.sameArchWeight : 1.0;
        num += wgt * a.logLevel;
        den += wgt;
        ++n;
        s += sameArch ? 1 : 0;
    }
    if (count)
        *count = n;
    if (same)
        *same = s;
    return den > 0 ? num / den : 0.0;
}

SingleGpuSpeed SpeedModel::project(const GpuSpec &target, const Workload &w, const WorkloadAnchors &anchors,
                                   const Calibration &calibration) const
{
    SingleGpuSpeed r;
    const auto [f0, b0] = shapeAt(w, w.batchPerGpu, w.precision);
    const SpeedTerms t = relativeSpeed(target, w.precision, f0, b0, &calibration);
    if (!t.ok || !(target.memBandwidthGbs > 0))
        return r;
    r.precisionUsed = t.precisionUsed;
    r.precisionFallback = t.precisionFallback;
    r.probeCalibrated = t.probeCalibrated;
    r.probeComputeFactor = t.computeFactor;
    r.probeMemoryFactor = t.memoryFactor;
    r.computeBound = t.computeS >= t.memoryS;
    const GpuArch *archRow = m_arch.arch(target.id);
    const QString arch = archRow ? archRow->arch : QString();
    const bool otherVendor = archRow && archRow->otherVendor();
    // The TF32/FP32 transfer range is for workloads trained in 32 bits (model_v2.json); an fp16 workload
    // falling back to the FP32 rate of an old part keeps its tier's range, as in fit_projection.py.
    const bool single = singlePrecision(w.precision);
    auto find = [&](const QList<SpeedAnchor> &list) -> const SpeedAnchor * {
        for (const SpeedAnchor &a : list)
            if (a.gpuId == target.id)
                return &a;
        return nullptr;
    };
    auto anyOtherVendor = [&](const QList<SpeedAnchor> &list) {
        return std::any_of(list.begin(), list.end(), [&](const SpeedAnchor &a) {
            const GpuArch *x = m_arch.arch(a.gpuId);
            return x && x->otherVendor();
        });
    };
    auto transferTier = [&](const QList<SpeedAnchor> &list, int same) {
        if (otherVendor && !anyOtherVendor(list))
            return ProjectionTier::TransferredOtherVendor;
        return same > 0 ? ProjectionTier::Transferred : ProjectionTier::TransferredCrossArch;
    };
    auto rangeOf = [&](ProjectionTier tier, bool precisionScaled) {
        LogRange range = m_constants.range(tier);
        if (single && (tier == ProjectionTier::Transferred || tier == ProjectionTier::TransferredCrossArch))
            range = m_constants.singlePrecisionTransfer;
        if (precisionScaled &&
            (tier == ProjectionTier::Measured || tier == ProjectionTier::MeasuredConverted))
            range = range.widened(m_constants.precisionScaled);
        return range;
    };
    auto idList = [](const QList<SpeedAnchor> &list) {
        QStringList ids;
        for (const SpeedAnchor &a : list)
            ids.append(a.gpuId);
        ids.sort();
        return ids.join(QStringLiteral(", "));
    };

    // The level of the shipped data (ln(speed / r_rel)) seen from a GPU, with its tier.
    struct Base
    {
        double level = 0;
        ProjectionTier tier = ProjectionTier::Roofline;
        bool precisionScaled = false;
        int count = 0;
        int same = 0;
        const SpeedAnchor *own = nullptr;
    };
    // Rule I: a custom workload shaped by its class's reference preset has that preset's tuned level on a
    // GPU (refLevel, in ln(speed / r_rel) of this workload), NaN where the rule does not apply.
    auto baseFor = [&](const QString &gpuId, const QString &gpuArch,
                       double refLevel = std::numeric_limits<double>::quiet_NaN()) {
        Base b;
        if (std::isfinite(refLevel)) {
            b.level = refLevel;
            b.tier = ProjectionTier::Roofline;
            return b;
        }
        for (const SpeedAnchor &a : anchors.shipped)
            if (a.gpuId == gpuId)
                b.own = &a;
        if (b.own) {
            b.level = b.own->logLevel;
            b.tier = b.own->converted ? ProjectionTier::MeasuredConverted : ProjectionTier::Measured;
            b.precisionScaled = b.own->precisionScaled;
            b.count = 1;
        } else if (!anchors.shipped.isEmpty()) {
            b.level = level(anchors.shipped, gpuArch, gpuId, &b.count, &b.same);
            b.tier = ProjectionTier::Transferred; // refined below for the target
        } else {
            b.level = std::log(m_constants.phi);
            b.tier = ProjectionTier::Roofline;
        }
        return b;
    };

    const std::optional<double> targetRef = referenceLog(w, target, anchors, calibration);
    const bool shaped = targetRef.has_value();
    if (shaped)
        r.referencePreset = anchors.reference->preset.id;
    const Base base =
        baseFor(target.id, arch,
                shaped ? *targetRef - std::log(t.relative) : std::numeric_limits<double>::quiet_NaN());
    double logSpeed = std::log(t.relative) + base.level;
    ProjectionTier tier = base.tier;
    bool precisionScaled = base.precisionScaled;
    if (tier == ProjectionTier::Transferred)
        tier = transferTier(anchors.shipped, base.same);
    r.anchorGpus = base.count;
    r.sameArchGpus = base.same;
    QString basis;
    if (base.own) {
        basis = QStringLiteral("measured: %1").arg(base.own->source);
    } else if (shaped) {
        basis = QStringLiteral(
                    "the %1 preset's tuned-stack speed on this GPU scaled to this workload's FLOPs per "
                    "sample (the %2 class's reference, section 3.18; no measurement of this workload)")
                    .arg(anchors.reference->preset.id, workloadClassName(w.workloadClass));
    } else if (tier == ProjectionTier::Roofline) {
        basis = QStringLiteral("roofline: %1 x the model's speed (no measurement of this workload)")
                    .arg(QString::number(m_constants.phi, 'f', 2));
    } else {
        basis = QStringLiteral("transferred from %1 measured GPU%2 (%3 of the %4 architecture): %5")
                    .arg(base.count)
                    .arg(base.count == 1 ? QString() : QStringLiteral("s"))
                    .arg(base.same)
                    .arg(arch.isEmpty() ? QStringLiteral("same") : arch, idList(anchors.shipped));
    }

    double userOverheadScale = anchors.user.isEmpty() ? 1.0 : 0.0;
    double userShift = 0; ///< ln of the user's GPU-side level over the shipped data's (transfer)
    if (!anchors.user.isEmpty()) {
        if (const SpeedAnchor *own = find(anchors.user)) {
            // Rule S3 (section 3.22): a host-bound figure's GPU side ran at figure / busy; at the figure's
            // own batch the floor below brings the point back to the figure.
            logSpeed = std::log(t.relative) + own->logLevel -
                       (hostRuleApplies(*own, archRow) ? std::log(own->gpuBusy) : 0.0);
            tier = ProjectionTier::Measured;
            r.userMeasured = true;
            precisionScaled = own->precisionScaled;
            r.anchorGpus = 1;
            r.sameArchGpus = 0;
            basis = QStringLiteral("your measurement%1: %2")
                        .arg(own->measurements > 1 ? QStringLiteral("s (%1, averaged)").arg(own->measurements)
                                                   : QString(),
                             own->source);
        } else {
            // The user's level relative to the shipped data, on the user's GPUs, carried over like a
            // transfer (same-architecture GPUs weigh more).
            // The user's figures are of their own stack (section 3.6): the gap to the tuned-stack
            // projection of their GPU is their overhead, up to the typical one (a figure between the
            // typical and the tuned projection is a leaner script, not a faster GPU); only what lies
            // beyond moves the GPU-side level. The overhead goes back on the target in that proportion.
            QList<SpeedAnchor> offsets = anchors.user;
            for (SpeedAnchor &u : offsets) {
                // Rule S3 (section 3.22): a host-bound figure carries only its GPU-busy part (its GPU
                // side ran at figure / busy); its measured step comes back as a floor below.
                if (hostRuleApplies(u, archRow))
                    u.logLevel -= std::log(u.gpuBusy);
                const double measured = std::exp(u.logLevel) * u.relative;
                const double overhead = typicalOverheadS(w, shapeAt(w, u.batchPerGpu, u.precision).first);
                // Section 3.8: the typical stack's efficiency of the user's GPU for the workload's class.
                const double userEta = typicalClassLogFactor(w, u.arch);
                const double shipped = baseFor(u.gpuId, u.arch,
                                               shaped && std::isfinite(u.referenceLog)
                                                   ? u.referenceLog - std::log(u.relative)
                                                   : std::numeric_limits<double>::quiet_NaN())
                                           .level +
                                       userEta;
                if (overhead > 0 && measured > 0) {
                    const double tunedHere = u.relative * std::exp(shipped);
                    const double taken = std::clamp(1.0 / measured - 1.0 / tunedHere, 0.0, overhead);
                    u.logLevel -= std::log1p(-taken * measured);
                    userOverheadScale += taken / overhead / static_cast<double>(offsets.size());
                } else {
                    userOverheadScale += 1.0 / static_cast<double>(offsets.size());
                }
                u.logLevel -= shipped;
            }
            int n = 0, same = 0;
            const double shift = level(offsets, arch, target.id, &n, &same);
            userShift = shift;
            logSpeed += shift;
            switch (tier) {
            case ProjectionTier::Measured:
            case ProjectionTier::MeasuredConverted:
                tier = ProjectionTier::MeasuredConverted;
                break;
            case ProjectionTier::Roofline:
                tier = transferTier(anchors.user, same);
                r.anchorGpus = n;
                r.sameArchGpus = same;
                break;
            default:
                break;
            }
            basis += QStringLiteral("; scaled x%1 to your measurements on %2")
                         .arg(QString::number(std::exp(shift), 'f', 3), idList(anchors.user));
            if (base.tier == ProjectionTier::Roofline)
                basis = QStringLiteral("transferred from your measurement%1 on %2")
                            .arg(anchors.user.size() == 1 ? QString() : QStringLiteral("s"),
                                 idList(anchors.user));
            if (shaped)
                basis +=
                    QStringLiteral(" with the GPU-to-GPU shape of the %1 preset's tuned-stack speeds (the %2 "
                                   "class's reference, section 3.18)")
                        .arg(anchors.reference->preset.id, workloadClassName(w.workloadClass));
        }
    }
    if (const VendorLevel *v = m_vendorLevels.find(target.id); v && !r.userMeasured) {
        r.vendorLogLevel = v->logLevel;
        basis +=
            QStringLiteral(
                "; this GPU's MLPerf Training figures (%1) ran x%2 of what the model projects "
                "for it from NVIDIA GPUs' figures of the same rounds, so its speed is scaled by "
                "that (rule AG, section 3.31: the median of %3); the range stays this tier's, since "
                "no figure of this workload on this GPU checks it")
                .arg(v->evidence, QString::number(std::exp(v->logLevel), 'f', 2),
                     v->pairs == 1 ? QStringLiteral("1 pair") : QStringLiteral("%1 pairs").arg(v->pairs));
    }
    if (!r.userMeasured)
        for (const SpeedAnchor &a : anchors.user)
            if (const VendorLevel *v = m_vendorLevels.find(a.gpuId); v && a.gpuId != target.id)
                basis +=
                    QStringLiteral("; your figure on %1 is read against that GPU's level from its MLPerf "
                                   "Training figures (x%2, rule AG, section 3.31)")
                        .arg(a.gpuId, QString::number(std::exp(v->logLevel), 'f', 2));
    if (r.probeCalibrated)
        basis +=
            QStringLiteral("; GEMM rate and memory bandwidth measured by a probe of this GPU: x%1 and x%2 "
                           "of a typical machine (the range stays the tier's)")
                .arg(QString::number(r.probeComputeFactor, 'f', 3),
                     QString::number(r.probeMemoryFactor, 'f', 3));
    r.samplesPerS = std::exp(logSpeed);
    r.tier = tier;
    r.range = rangeOf(tier, precisionScaled);
    r.stack = w.stack;
    r.tunedSamplesPerS = r.samplesPerS;
    if (!r.userMeasured) {
        // Section 3.6: the typical stack's per-sample overhead on top of the tuned stack's time.
        const double typicalOverhead = typicalOverheadS(w, f0);
        if (typicalOverhead > 0) {
            // Section 3.8: the typical stack's efficiency of this architecture for the workload's class.
            const double logEta = typicalClassLogFactor(w, arch);
            const double eta = std::exp(logEta);
            r.overheadS = typicalOverhead * userOverheadScale;
            r.samplesPerS = TypicalStack::speed(r.tunedSamplesPerS * eta, r.overheadS);
            // Without FLOPs per sample the figure's shift is the whole level, not something to bound.
            const bool shapeless = definedByItsFigure(w);
            if (!anchors.user.isEmpty() && !shapeless) {
                // A plausible measurement moves another GPU by at most kImplausibleFactor (section 3.3).
                const double shippedOnly =
                    TypicalStack::speed(r.tunedSamplesPerS * eta * std::exp(-userShift), typicalOverhead);
                r.samplesPerS = shippedOnly * std::clamp(r.samplesPerS / shippedOnly,
                                                         1.0 / kImplausibleFactor, kImplausibleFactor);
            }
            // Section 3.10: a custom workload projected from the shipped data has no typical rows of its
            // own (pooled R_o), nor has a preset held out of a validation fold's rows; a user's figure
            // carried across keeps the conversion's range.
            const bool customOwn =
                m_typical.pooledOverhead(w.id, w.kind != WorkloadKind::Preset) && anchors.user.isEmpty();
            r.range = r.range.combined(customOwn ? m_typical.rangeCustom : m_typical.range);
            basis +=
                shapeless
                    ? QStringLiteral("; typical PyTorch stack: no FLOPs per sample given, so no framework "
                                     "overhead is added (your figure carries your own)")
                    : QStringLiteral("; typical PyTorch stack: +%1 ms per sample of framework overhead, "
                                     "x%2 of the tuned-stack speed")
                          .arg(QString::number(r.overheadS * 1e3, 'g', 3),
                               QString::number(r.samplesPerS / r.tunedSamplesPerS, 'f', 2));
            basis += typicalClassBasis(w, arch, !anchors.user.isEmpty(), &r.range);
            basis += stepFloorBasis(w, archRow, anchors.user.isEmpty(), &r);
            if (const double k = defaultBytesPerFlop(w); k > 0 && !shapeless && !shaped) {
                const double m = m_typical.trafficFactor.value(workloadClassName(w.workloadClass), 0.0);
                basis += QStringLiteral("; memory traffic not given: %1 bytes per FLOP assumed (%2%3)")
                             .arg(QString::number(k, 'g', 3),
                                  w.workloadClass == WorkloadClass::Unknown
                                      ? QStringLiteral("the presets' median")
                                      : QStringLiteral("the presets' figure for %1 workloads")
                                            .arg(workloadClassName(w.workloadClass)),
                                  m > 0 ? QStringLiteral(" x %1, the typical stack's traffic")
                                              .arg(QString::number(m, 'g', 3))
                                        : QString());
            }
        }
    } else if (w.stack == SoftwareStack::Typical) {
        basis += QStringLiteral("; your own stack, as measured");
    }
    if (w.stack == SoftwareStack::Tuned && !r.userMeasured && w.flopsPerSample > 0)
        if (const double k = defaultBytesPerFlop(w); k > 0)
            basis += QStringLiteral("; memory traffic not given: %1 bytes per FLOP assumed (%2, rule AC)")
                         .arg(QString::number(k, 'g', 3),
                              w.workloadClass == WorkloadClass::Unknown
                                  ? QStringLiteral("the presets' median")
                                  : QStringLiteral("the presets' figure for %1 workloads")
                                        .arg(workloadClassName(w.workloadClass)));
    basis += userHostFloorBasis(w, anchors, target.id, archRow, &r);
    basis += batchChangeBasis(w, anchors, target.id, &r);
    r.basis = basis;
    r.ok = std::isfinite(r.samplesPerS) && r.samplesPerS > 0;
    if (!r.ok)
        return SingleGpuSpeed{};
    return r;
}

double SpeedModel::candidateRelative(const Workload &preset, const AnchorCandidate &c,
                                     const GpuSpecTable &specs) const
{
    const GpuSpec *s = specOf(c.gpuId, specs);
    const auto precision = precisionFromName(c.precision);
    if (!s || !precision)
        return 0;
    const auto [f, b] = shapeAt(preset, c.batchPerGpu, *precision);
    const SpeedTerms t = relativeSpeed(*s, *precision, f, b);
    return t.ok ? t.relative : 0.0;
}

CandidateAnchors SpeedModel::candidateAnchors(const Workload &preset, const QString &excludeGpu,
                                              const std::function<double(const AnchorCandidate &)> &rel) const
{
    // fit_projection.py conversion_factors + anchors_for, over anchor_candidates.csv.
    CandidateAnchors out;
    QList<QString> stacks; // in order of first appearance
    QHash<QString, QList<AnchorCandidate>> byStack;
    int referenceRank = -1;
    QString reference;
    // The preset's candidates without the held-out GPU, in file order.
    QList<AnchorCandidate> mine;
    for (const AnchorCandidate &c : m_benchmarks.candidates())
        if (c.presetId.compare(preset.id, Qt::CaseInsensitive) == 0 && c.gpuId != excludeGpu)
            mine.append(c);
    for (const AnchorCandidate &c : std::as_const(mine)) {
        if (!byStack.contains(c.stack))
            stacks.append(c.stack);
        byStack[c.stack].append(c);
        if (c.stackRank == 0) {
            referenceRank = 0;
            reference = c.stack;
        }
    }
    if (referenceRank != 0)
        return out;
    auto levelOf = [&](const QList<AnchorCandidate> &list) {
        double sum = 0;
        int n = 0;
        for (const AnchorCandidate &c : list) {
            const double r = rel(c);
            if (r > 0) {
                sum += std::log(c.samplesPerS / r);
                ++n;
            }
        }
        return n ? sum / n : std::nan("");
    };
    QHash<QString, double> refValue;
    for (const AnchorCandidate &c : byStack.value(reference))
        refValue.insert(c.gpuId, c.samplesPerS);
    const double refLevel = levelOf(byStack.value(reference));
    for (const QString &stack : std::as_const(stacks)) {
        const QList<AnchorCandidate> &list = byStack[stack];
        StackFactor f;
        if (stack == reference) {
            f.method = QStringLiteral("reference");
        } else {
            double sum = 0;
            for (const AnchorCandidate &c : list)
                if (refValue.contains(c.gpuId)) {
                    sum += std::log(refValue.value(c.gpuId) / c.samplesPerS);
                    f.sharedGpus.append(c.gpuId);
                }
            if (!f.sharedGpus.isEmpty()) {
                f.factor = std::exp(sum / f.sharedGpus.size());
                f.method = QStringLiteral("shared-gpu");
                f.sharedGpus.sort();
            } else {
                const double lvl = levelOf(list);
                if (!std::isfinite(lvl) || !std::isfinite(refLevel))
                    continue; // no model level: the stack cannot be converted
                f.factor = std::exp(refLevel - lvl);
                f.method = QStringLiteral("model");
            }
        }
        out.factors.insert(stack, f);
    }
    // Per GPU the most preferred stack that converts.
    QHash<QString, AnchorCandidate> best;
    for (const AnchorCandidate &c : std::as_const(mine)) {
        if (!out.factors.contains(c.stack))
            continue;
        auto it = best.find(c.gpuId);
        if (it == best.end())
            best.insert(c.gpuId, c);
        else if (c.stackRank < it->stackRank)
            *it = c;
    }
    QStringList gpus = best.keys();
    gpus.sort();
    for (const QString &g : std::as_const(gpus)) {
        const AnchorCandidate &c = best[g];
        const StackFactor f = out.factors.value(c.stack);
        out.anchors.append({c, f, c.samplesPerS * f.factor});
    }
    return out;
}

QList<ValidationRow> SpeedModel::validate(const Workload &preset, const GpuSpecTable &specs) const
{
    QList<ValidationRow> rows;
    if (preset.kind != WorkloadKind::Preset)
        return rows;
    // Every measured GPU of the preset, as the app's anchors have them (all data).
    const CandidateAnchors all = candidateAnchors(
        preset, QString(), [&](const AnchorCandidate &c) { return candidateRelative(preset, c, specs); });
    if (all.anchors.size() < 2)
        return rows;
    const Calibration defaults = defaultCalibration();
    // Today's model (v1): the max() roofline with the default efficiencies.
    auto v1 = [&](const AnchorCandidate &c) {
        const GpuSpec *s = specOf(c.gpuId, specs);
        const auto precision = precisionFromName(c.precision);
        if (!s || !precision)
            return 0.0;
        const auto [f, b] = shapeAt(preset, c.batchPerGpu, *precision);
        const GpuThroughput t = rooflineThroughput(*s, f, b, *precision, defaults);
        return t.ok ? t.samplesPerS : 0.0;
    };
    // The transfer of a GPU from the other GPUs' anchors: r(GPU) x exp(weighted mean ln(anchor / r)).
    auto transfer = [](const SpeedModel &m, const CandidateAnchors &others, const AnchorCandidate &target,
                       const std::function<double(const AnchorCandidate &)> &rel, int *count) {
        QList<SpeedAnchor> levels;
        for (const CandidateAnchors::Anchor &a : others.anchors) {
            const double r = rel(a.candidate);
            if (!(r > 0))
                continue;
            SpeedAnchor s;
            s.gpuId = a.candidate.gpuId;
            s.arch = m.archOf(s.gpuId);
            s.logLevel = std::log(a.value / r);
            levels.append(s);
        }
        const double r = rel(target);
        if (count)
            *count = static_cast<int>(levels.size());
        if (levels.isEmpty() || !(r > 0))
            return 0.0;
        return r * std::exp(m.level(levels, m.archOf(target.gpuId), target.gpuId));
    };

    for (const CandidateAnchors::Anchor &own : all.anchors) {
        ValidationRow row;
        row.workloadId = preset.id;
        row.gpuId = own.candidate.gpuId;
        row.stack = own.candidate.stack;
        row.tier =
            own.factor.method == u"reference" ? ProjectionTier::Measured : ProjectionTier::MeasuredConverted;
        const ModelConstants *foldConstants = m_constants.fold(row.gpuId);
        if (!foldConstants) {
            row.note = QStringLiteral("no constants fitted without this GPU in model_v2.json "
                                      "(resources/tools/fit_projection.py --write)");
            rows.append(row);
            continue;
        }
        const SpeedModel fold = withConstants(*foldConstants);
        auto relFold = [&](const AnchorCandidate &c) { return fold.candidateRelative(preset, c, specs); };
        const CandidateAnchors others = fold.candidateAnchors(preset, row.gpuId, relFold);
        const auto truth = others.factors.constFind(row.stack);
        if (others.anchors.isEmpty()) {
            row.note = QStringLiteral("no other GPU measured");
        } else if (truth == others.factors.constEnd()) {
            row.note = QStringLiteral("no other GPU measured in its stack %1 or in the reference stack")
                           .arg(row.stack);
        } else if (truth->method == u"model") {
            row.note =
                QStringLiteral("its figure (%1) converts to the reference stack only through the model: "
                               "no other GPU was measured in both stacks")
                    .arg(row.stack);
        } else {
            row.truthFactor = *truth;
            row.measured = own.candidate.samplesPerS * truth->factor;
            row.projected = transfer(fold, others, own.candidate, relFold, &row.referenceGpus);
            const CandidateAnchors othersV1 = candidateAnchors(preset, row.gpuId, v1);
            row.projectedV1 = transfer(*this, othersV1, own.candidate, v1, nullptr);
            row.validated = row.measured > 0 && row.projected > 0 && row.projectedV1 > 0;
            if (row.validated) {
                row.logError = std::log(row.projected / row.measured);
                row.logErrorV1 = std::log(row.projectedV1 / row.measured);
            } else {
                row.note = QStringLiteral("no projection (unknown GPU or rate)");
            }
        }
        rows.append(row);
    }
    return rows;
}

ValidationSummary summarizeValidation(const QList<ValidationRow> &rows)
{
    ValidationSummary s;
    QList<double> a, b;
    for (const ValidationRow &r : rows) {
        if (!r.validated)
            continue;
        a.append(std::abs(r.logError));
        b.append(std::abs(r.logErrorV1));
    }
    s.n = static_cast<int>(a.size());
    if (a.isEmpty())
        return s;
    s.median = sampleMedian(a);
    s.max = *std::max_element(a.begin(), a.end());
    s.medianV1 = sampleMedian(b);
    s.maxV1 = *std::max_element(b.begin(), b.end());
    return s;
}

} // namespace gf

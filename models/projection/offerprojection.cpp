#include "projection/offerprojection.h"

#include "domain/gpucatalog.h"
#include "domain/offergpu.h"
#include "projection/frontier.h"
#include "projection/spotdefaults.h"
#include "util/hugepages.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <vector>

namespace gf {

QList<ProjectionFlag> allProjectionFlags()
{
    return {ProjectionFlag::UnrecognisedGpu,    ProjectionFlag::NoSpec,
            ProjectionFlag::NoComputeRate,      ProjectionFlag::InvalidGpuCount,
            ProjectionFlag::MemoryTooSmall,     ProjectionFlag::InvalidPrice,
            ProjectionFlag::TooFewVcpus,        ProjectionFlag::StalePrice,
            ProjectionFlag::PrecisionFallback,  ProjectionFlag::InterconnectAssumed,
            ProjectionFlag::NetworkAssumed,     ProjectionFlag::InterruptionAssumed,
            ProjectionFlag::CommunicationBound, ProjectionFlag::SpotAboveOnDemand,
            ProjectionFlag::SpotAtFloor,        ProjectionFlag::GpuBelowSpot,
            ProjectionFlag::PriceOutlierLow,    ProjectionFlag::PriceOutlierHigh,
            ProjectionFlag::StaleRow,           ProjectionFlag::MemoryDiffers,
            ProjectionFlag::CpuBound,           ProjectionFlag::SpotNeverFinishes,
            ProjectionFlag::VcpusAssumed,       ProjectionFlag::Measured,
            ProjectionFlag::NoOnDemand,         ProjectionFlag::HostBound};
}

QString projectionFlagName(ProjectionFlag f)
{
    switch (f) {
    case ProjectionFlag::None:
        return {};
    case ProjectionFlag::UnrecognisedGpu:
        return QStringLiteral("unrecognised-gpu");
    case ProjectionFlag::NoSpec:
        return QStringLiteral("no-spec");
    case ProjectionFlag::NoComputeRate:
        return QStringLiteral("no-compute-rate");
    case ProjectionFlag::InvalidGpuCount:
        return QStringLiteral("invalid-gpu-count");
    case ProjectionFlag::MemoryTooSmall:
        return QStringLiteral("memory-too-small");
    case ProjectionFlag::InvalidPrice:
        return QStringLiteral("invalid-price");
    case ProjectionFlag::TooFewVcpus:
        return QStringLiteral("too-few-vcpus");
    case ProjectionFlag::StalePrice:
        return QStringLiteral("stale-price");
    case ProjectionFlag::PrecisionFallback:
        return QStringLiteral("precision-fallback");
    case ProjectionFlag::InterconnectAssumed:
        return QStringLiteral("interconnect-assumed");
    case ProjectionFlag::NetworkAssumed:
        return QStringLiteral("network-assumed");
    case ProjectionFlag::InterruptionAssumed:
        return QStringLiteral("interruption-assumed");
    case ProjectionFlag::CommunicationBound:
        return QStringLiteral("communication-bound");
    case ProjectionFlag::SpotAboveOnDemand:
        return QStringLiteral("spot-above-on-demand");
    case ProjectionFlag::SpotAtFloor:
        return QStringLiteral("spot-at-floor");
    case ProjectionFlag::GpuBelowSpot:
        return QStringLiteral("gpu-below-spot");
    case ProjectionFlag::PriceOutlierLow:
        return QStringLiteral("price-outlier-low");
    case ProjectionFlag::PriceOutlierHigh:
        return QStringLiteral("price-outlier-high");
    case ProjectionFlag::StaleRow:
        return QStringLiteral("stale");
    case ProjectionFlag::MemoryDiffers:
        return QStringLiteral("memory-differs");
    case ProjectionFlag::CpuBound:
        return QStringLiteral("cpu-bound");
    case ProjectionFlag::SpotNeverFinishes:
        return QStringLiteral("spot-never-finishes");
    case ProjectionFlag::VcpusAssumed:
        return QStringLiteral("vcpus-assumed");
    case ProjectionFlag::Measured:
        return QStringLiteral("measured");
    case ProjectionFlag::NoOnDemand:
        return QStringLiteral("no-on-demand");
    case ProjectionFlag::HostBound:
        return QStringLiteral("host-bound");
    }
    return {};
}

QStringList projectionFlagNames(quint32 flags)
{
    QStringList out;
    for (ProjectionFlag f : allProjectionFlags())
        if (hasFlag(flags, f))
            out.append(projectionFlagName(f));
    return out;
}

QString projectionFlagDescription(ProjectionFlag f)
{
    switch (f) {
    case ProjectionFlag::None:
        return {};
    case ProjectionFlag::UnrecognisedGpu:
        return QStringLiteral(
            "The GPU name of this offer matches no known GPU model, so it cannot be projected.");
    case ProjectionFlag::NoSpec:
        return QStringLiteral(
            "This GPU model has no datasheet figures in the spec table, so it cannot be projected.");
    case ProjectionFlag::NoComputeRate:
        return QStringLiteral(
            "The spec table has no compute rate for this precision on this GPU (nor a fallback).");
    case ProjectionFlag::InvalidGpuCount:
        return QStringLiteral("The offer has no valid GPU count.");
    case ProjectionFlag::MemoryTooSmall:
        return QStringLiteral("The workload needs more memory per GPU than this GPU has.");
    case ProjectionFlag::InvalidPrice:
        return QStringLiteral("The price is missing, zero or negative, so the cost is unknown.");
    case ProjectionFlag::TooFewVcpus:
        return QStringLiteral(
            "Fewer vCPUs per GPU than the workload needs: data loading may starve the GPUs.");
    case ProjectionFlag::StalePrice:
        return QStringLiteral("The catalog's prices are older than the stale-price age; refresh the catalog "
                              "(informational).");
    case ProjectionFlag::PrecisionFallback:
        return QStringLiteral(
            "This GPU lacks the workload's precision; the projection uses a fallback precision.");
    case ProjectionFlag::InterconnectAssumed:
        return QStringLiteral("No NVLink figure for this multi-GPU instance: PCIe bandwidth is assumed.");
    case ProjectionFlag::NetworkAssumed:
        return QStringLiteral(
            "No network figure for this instance: the provider default bandwidth is assumed "
            "(data staging, multi-instance jobs).");
    case ProjectionFlag::InterruptionAssumed:
        return QStringLiteral("No per-offer interruption figure for this spot offer: the documented default "
                              "rate of its provider and GPU class is assumed.");
    case ProjectionFlag::CommunicationBound:
        return QStringLiteral(
            "Gradient exchange takes more than half of each step: fewer GPUs may be as fast.");
    case ProjectionFlag::SpotAboveOnDemand:
        return QStringLiteral(
            "Suspect price: the spot price is not below on-demand (data error or a price at "
            "the cap); not recommended.");
    case ProjectionFlag::SpotAtFloor:
        return QStringLiteral("Suspect price: the spot price is at the provider's floor (<= 10 % of "
                              "on-demand), where a spot market usually has no capacity; not recommended.");
    case ProjectionFlag::GpuBelowSpot:
        return QStringLiteral(
            "Suspect price: the GPU part of this on-demand price is below the GPU's own spot "
            "price, so it is not an on-demand price; not recommended.");
    case ProjectionFlag::PriceOutlierLow:
        return QStringLiteral("Suspect price: on-demand per GPU-hour is below 1/3 of the GPU's robust median "
                              "price; not recommended.");
    case ProjectionFlag::PriceOutlierHigh:
        return QStringLiteral("On-demand per GPU-hour is above 3x the GPU's robust median price (mostly host "
                              "or a premium; informational).");
    case ProjectionFlag::StaleRow:
        return QStringLiteral(
            "Suspect price: the provider's price is more than a year old (judged by its own date, "
            "not against other providers), or its listing ended; not recommended.");
    case ProjectionFlag::MemoryDiffers:
        return QStringLiteral(
            "The offer's memory per GPU differs from the GPU's datasheet; the offer's figure "
            "is used.");
    case ProjectionFlag::CpuBound:
        return QStringLiteral(
                   "The input pipeline caps the speed: vCPUs / CPU seconds per sample is below the "
                   "GPU rate. That cost per sample is judged; on two hosts (TensorFlow, in sample) most "
                   "measured data pipelines ran at %1 of such a figure, and the range of time and cost "
                   "says so.")
            .arg(inputPipelineRangeText());
    case ProjectionFlag::SpotNeverFinishes:
        return QStringLiteral("Interruptions come faster than the run recovers (rate x (checkpoint/2 + "
                              "restore) >= 1): the spot run would not finish.");
    case ProjectionFlag::VcpusAssumed:
        return QStringLiteral("No vCPU figure for this offer: what such hosts typically have is assumed to "
                              "feed the input pipeline (24 vCPUs per GPU on vast.ai, 8 elsewhere).");
    case ProjectionFlag::Measured:
        return QStringLiteral(
            "The speed per GPU is your imported measurement of this workload on this GPU, not the model's.");
    case ProjectionFlag::NoOnDemand:
        return QStringLiteral(
            "This instance type is not sold on demand (capacity blocks, reservations or spot "
            "only): its listed on-demand price is kept off the frontier.");
    case ProjectionFlag::HostBound:
        return QStringLiteral(
            "At this batch a training step on this GPU would be shorter than the floor an eager PyTorch "
            "step of this workload had on the host we measured (at the smallest batches its steps did not "
            "shrink with the batch), or than the step of your own measurement whose GPU was busy only part "
            "of the time: the CPU dispatching the kernels (or the input pipeline) may set the speed, not "
            "the GPU. The range of time and cost reaches that floor (for your own measurement the speed "
            "stops there too); a larger batch, CUDA graphs or torch.compile lift it.");
    }
    return {};
}

double assumedVcpusPerGpu(ProviderKind provider)
{
    return provider == ProviderKind::Vastai ? kAssumedVastVcpusPerGpu : kAssumedVcpusPerGpu;
}

QString inputPipelineRangeText()
{
    return QStringLiteral("%1x-%2x").arg(QString::number(std::exp(-kInputPipelineRange.p90), 'f', 2),
                                         QString::number(std::exp(-kInputPipelineRange.p10), 'f', 2));
}

PipelineCapped capByInputPipeline(double rate, double slow, double fast, double cap, LogRange range)
{
    const double capSlow = cap * std::exp(-range.p90);
    const double capFast = cap * std::exp(-range.p10);
    PipelineCapped out;
    out.cpuBound = cap < rate;
    out.inputLimited = capSlow < slow || capFast < fast;
    out.rate = std::min(rate, cap);
    out.slow = std::min(slow, capSlow);
    out.fast = std::min(fast, capFast);
    return out;
}

double pipelineVcpus(const Offer &o, bool *assumed)
{
    const bool known = o.vcpus && *o.vcpus > 0 && std::isfinite(*o.vcpus);
    if (assumed)
        *assumed = !known;
    if (known)
        return *o.vcpus;
    const double n = std::isfinite(o.gpuCount) && o.gpuCount > 0 ? o.gpuCount : 0.0;
    return std::max(1.0, n * assumedVcpusPerGpu(providerKind(o.provider)));
}

double defaultNetworkGbps(ProviderKind provider)
{
    return provider == ProviderKind::Vastai ? 1.0 : 10.0;
}

StagingNetwork stagingNetwork(const Offer &o)
{
    StagingNetwork n;
    const ProviderKind provider = providerKind(o.provider);
    if (!o.networkGbps || !(*o.networkGbps > 0) || !std::isfinite(*o.networkGbps)) {
        n.gbps = defaultNetworkGbps(provider);
        n.assumed = true;
        return n;
    }
    n.gbps = *o.networkGbps;
    // Marketplace figures are measured; cloud figures of small instances are "up to" bursts.
    if (provider != ProviderKind::Vastai && o.vcpus && *o.vcpus < kBurstVcpuLimit) {
        n.gbps *= kBurstBaselineShare;
        n.burst = true;
    }
    return n;
}

double stagingHours(double gb, double gbps)
{
    if (!(gb > 0) || !std::isfinite(gb) || !(gbps > 0))
        return 0;
    return gb * 8.0 / gbps / 3600.0;
}

Status validateProjectionOptions(const ProjectionOptions &o)
{
    auto minutes = [](const char *name, double v) -> Status {
        if (!std::isfinite(v) || v < 0 || v > 525600)
            return makeError(
                QStringLiteral("%1 must be between 0 and 525600 minutes").arg(QLatin1StringView(name)));
        return Ok{};
    };
    if (auto s = minutes("setup time", o.setupMinutes); !s)
        return s;
    if (auto s = minutes("checkpoint interval", o.checkpointMinutes); !s)
        return s;
    if (auto s = minutes("restore time", o.restoreMinutes); !s)
        return s;
    if (o.deadlineHours && (!std::isfinite(*o.deadlineHours) || *o.deadlineHours <= 0))
        return makeError(QStringLiteral("the deadline must be a positive number of hours"));
    if (o.budgetUsd && (!std::isfinite(*o.budgetUsd) || *o.budgetUsd <= 0))
        return makeError(QStringLiteral("the budget must be a positive number of USD"));
    if (!std::isfinite(o.weight) || o.weight < 0 || o.weight > 1)
        return makeError(QStringLiteral("the weight must be between 0 (cheapest) and 1 (fastest)"));
    for (int k : o.nodeCounts)
        if (k < 1 || k > 255)
            return makeError(QStringLiteral("node counts must be between 1 and 255 (got %1)").arg(k));
    if (o.nodeCounts.size() > 16)
        return makeError(QStringLiteral("at most 16 node counts"));
    if (o.staleDays < 0)
        return makeError(QStringLiteral("the stale-price age must be >= 0 days"));
    if (!std::isfinite(o.overlap) || o.overlap < 0 || o.overlap > 1)
        return makeError(QStringLiteral("the overlap must be between 0 and 1"));
    if (!std::isfinite(o.bytesPerGradient) || o.bytesPerGradient < 0 || o.bytesPerGradient > 16)
        return makeError(QStringLiteral("bytes per gradient must be between 0 and 16"));
    for (auto it = o.interruptionRatePerHour.cbegin(); it != o.interruptionRatePerHour.cend(); ++it)
        if (!std::isfinite(it.value()) || it.value() < 0 || it.value() > 10)
            return makeError(
                QStringLiteral("the interruption rate of %1 must be between 0 and 10 per hour (got %2)")
                    .arg(it.key(), QString::number(it.value())));
    for (auto it = o.egressUsdPerGb.cbegin(); it != o.egressUsdPerGb.cend(); ++it)
        if (!std::isfinite(it.value()) || it.value() < 0 || it.value() > 10)
            return makeError(
                QStringLiteral("the egress price of %1 must be between 0 and 10 USD per GB (got %2)")
                    .arg(it.key(), QString::number(it.value())));
    return Ok{};
}

qsizetype recommendedIndex(const QList<ProjectedOffer> &points)
{
    for (qsizetype i = 0; i < points.size(); ++i)
        if (points.at(i).recommended)
            return i;
    return -1;
}

namespace {

/// At most this many node variants per offer (1 plus 15 node counts > 1).
constexpr int kMaxNodeVariants = 16;

/// Everything about one spec row that does not depend on the offer, computed once per call.
struct SpecInfo
{
    SingleGpuSpeed single;
    double nvlinkGBps = 0;
    double pcieGBps = 0;
    double memoryGb = 0;
    bool hasNvlink = false;
    bool flagship = false; ///< gpus.csv capacity_class (spot interruption default)
    bool measured = false; ///< single.samplesPerS is a user measurement
};

/// Call-wide constants.
struct Context
{
    const Workload *workload = nullptr;
    std::vector<SpecInfo> specs;
    std::vector<int> extraNodes; ///< node counts > 1, sorted, unique
    SpotPolicy policy = SpotPolicy::SpotAllowed;
    double totalSamples = 0;
    double setupHours = 0;
    double checkpointHours = 0;
    double restoreHours = 0;
    double overlap = kDefaultOverlap;
    double bytesPerGradient = kDefaultBytesPerGradient;
    FrontierConstraints constraints;
    bool checkStale = false;
    qint64 nowJulianDay = 0;
    qint64 nowMsecs = 0;
    int staleDays = 7;
    bool includeSuspect = false;
    double stagedGb = 0;
    double cpuSecondsPerSample = 0;
    const SpotDefaults *spot = nullptr;
    std::array<std::optional<double>, kProviderKindCount> rateOverride{};
    std::array<double, kProviderKindCount> egressUsdPerGb{};
};

/// Offer flags that carry over to the points of one price mode.
quint32 offerFlagsFor(int offerFlags, bool spot)
{
    quint32 f = 0;
    auto map = [&](OfferFlag of, ProjectionFlag pf) {
        if (hasFlag(offerFlags, of))
            f |= flagBit(pf);
    };
    map(OfferFlag::Stale, ProjectionFlag::StaleRow);
    map(OfferFlag::MemoryDiffers, ProjectionFlag::MemoryDiffers);
    if (spot) {
        map(OfferFlag::SpotAboveOnDemand, ProjectionFlag::SpotAboveOnDemand);
        map(OfferFlag::SpotAtFloor, ProjectionFlag::SpotAtFloor);
    } else {
        map(OfferFlag::GpuBelowSpot, ProjectionFlag::GpuBelowSpot);
        map(OfferFlag::PriceOutlierLow, ProjectionFlag::PriceOutlierLow);
        map(OfferFlag::PriceOutlierHigh, ProjectionFlag::PriceOutlierHigh);
        map(OfferFlag::NoOnDemand, ProjectionFlag::NoOnDemand);
    }
    return f;
}

/// gpuId -> spec row with a one-entry cache: offers of a catalog come grouped, so consecutive offers
/// usually share the id (same string data when implicitly shared, else compared by content).
class SpecResolver
{
public:
    explicit SpecResolver(const GpuSpecTable &t) : m_table(t) {}
    int resolve(const QString &id)
    {
        if (id.isEmpty())
            return -1;
        if (id.constData() == m_lastData && id.size() == m_lastView.size())
            return m_lastIndex;
        if (QStringView(id) == m_lastView && m_lastData) {
            m_lastData = id.constData();
            m_lastView = id;
            return m_lastIndex;
        }
        m_lastIndex = static_cast<int>(m_table.indexOf(id));
        m_lastData = id.constData();
        m_lastView = id;
        return m_lastIndex;
    }

private:
    const GpuSpecTable &m_table;
    const QChar *m_lastData = nullptr;
    QStringView m_lastView;
    int m_lastIndex = -1;
};

struct Chunk
{
    qsizetype begin = 0; ///< offers [begin, end)
    qsizetype end = 0;
    qsizetype pointBegin = 0; ///< its points [pointBegin, pointBegin + pointCount)
    qsizetype pointCount = 0;
    TimeBinFilter bins; ///< min cost per time bucket of its eligible points
    std::vector<FrontierCandidate> candidates;
};

int modesOf(const Offer &o, SpotPolicy policy)
{
    switch (policy) {
    case SpotPolicy::OnDemandOnly:
        return 1;
    case SpotPolicy::SpotAllowed:
        return o.spotUsdH ? 2 : 1;
    case SpotPolicy::SpotOnly:
        return o.spotUsdH ? 1 : 0;
    }
    return 0;
}

bool isStale(const Offer &o, const Context &c)
{
    if (!c.checkStale)
        return false;
    if (o.dataDate.isValid())
        return c.nowJulianDay - o.dataDate.toJulianDay() > c.staleDays;
    if (o.fetchedAt.isValid())
        return (c.nowMsecs - o.fetchedAt.toMSecsSinceEpoch()) > qint64(c.staleDays) * 86400000;
    return false;
}

/// Number of points an offer produces once its spec row is known.
int pointCount(const Offer &o, int specIndex, const Context &c)
{
    const int modes = modesOf(o, c.policy);
    const bool multiNode =
        specIndex >= 0 && o.gpuCount == 1.0 && c.specs[static_cast<std::size_t>(specIndex)].single.ok;
    return modes * (1 + (multiNode ? static_cast<int>(c.extraNodes.size()) : 0));
}

/// The points of offer `o` (index i) into out; only those of price mode `only` when given. Returns the
/// number written.
int projectOne(const Context &c, const Offer &o, qsizetype i, int specIndex, ProjectedOffer *out,
               TimeBinFilter *bins, std::optional<PriceMode> only = std::nullopt)
{
    const Workload &w = *c.workload;
    quint32 base = 0;
    const SpecInfo *si = nullptr;
    if (o.gpuId.isEmpty())
        base |= flagBit(ProjectionFlag::UnrecognisedGpu);
    else if (specIndex < 0)
        base |= flagBit(ProjectionFlag::NoSpec);
    else {
        si = &c.specs[static_cast<std::size_t>(specIndex)];
        if (!si->single.ok)
            base |= flagBit(ProjectionFlag::NoComputeRate);
        else if (si->single.precisionFallback)
            base |= flagBit(ProjectionFlag::PrecisionFallback);
        if (si->measured)
            base |= flagBit(ProjectionFlag::Measured);
        if (si->single.stepFloorS > 0) // set only on a projected speed
            base |= flagBit(ProjectionFlag::HostBound);
    }
    const double n = o.gpuCount;
    const bool countOk = std::isfinite(n) && n > 0;
    if (!countOk)
        base |= flagBit(ProjectionFlag::InvalidGpuCount);

    // Memory per GPU: the offer's figure, else the spec's; a fractional GPU gets its share of it.
    double memGb = o.gpuMemGb && *o.gpuMemGb > 0 ? *o.gpuMemGb : (si ? si->memoryGb : 0.0);
    if (countOk && n < 1.0)
        memGb *= n;
    if (w.memoryGb > 0 && memGb > 0 && w.memoryGb > memGb)
        base |= flagBit(ProjectionFlag::MemoryTooSmall);
    if (w.minVcpusPerGpu > 0 && o.vcpus && countOk && *o.vcpus / n < w.minVcpusPerGpu)
        base |= flagBit(ProjectionFlag::TooFewVcpus);
    if (isStale(o, c))
        base |= flagBit(ProjectionFlag::StalePrice);

    const bool projectable = si && si->single.ok && countOk;
    double intra = 0;
    if (projectable && n >= 2.0) {
        if (isGpuFabric(o.interconnect) && si->hasNvlink) { // NVLink, NVSwitch, Infinity Fabric
            intra = si->nvlinkGBps;
        } else {
            intra = si->pcieGBps;
            if (!o.interconnect.startsWith(u'P')) // not stated as PCIe: an assumption
                base |= flagBit(ProjectionFlag::InterconnectAssumed);
        }
    }
    const ProviderKind provider = providerKind(o.provider);

    // Speed per node variant: independent of the price mode, computed once.
    const bool multiNode = projectable && n == 1.0;
    const int nodeVariants = 1 + (multiNode ? static_cast<int>(c.extraNodes.size()) : 0);
    std::array<double, kMaxNodeVariants> rate;     // only [0, nodeVariants) is used: no zeroing per offer
    std::array<double, kMaxNodeVariants> rateSlow; // at the slow end of the speed range
    std::array<double, kMaxNodeVariants> rateFast; // at the fast end
    std::array<quint32, kMaxNodeVariants> variantFlags;
    std::array<bool, kMaxNodeVariants> inputLimited; // the input pipeline's cap binds at an end of the range
    const double slowFactor = si ? std::exp(-si->single.range.p90) : 1.0;
    const double fastFactor = si ? std::exp(-si->single.range.p10) : 1.0;
    for (int v = 0; v < nodeVariants; ++v) {
        rate[static_cast<std::size_t>(v)] = 0;
        rateSlow[static_cast<std::size_t>(v)] = 0;
        rateFast[static_cast<std::size_t>(v)] = 0;
        variantFlags[static_cast<std::size_t>(v)] = 0;
        inputLimited[static_cast<std::size_t>(v)] = false;
        if (!projectable)
            continue;
        const int nodes = v == 0 ? 1 : c.extraNodes[static_cast<std::size_t>(v - 1)];
        ScalingInput s;
        s.singleGpuSamplesPerS = si->single.samplesPerS;
        s.gpusPerInstance = n;
        s.nodes = nodes;
        s.parameters = w.parameters;
        s.bytesPerGradient = c.bytesPerGradient;
        s.batchPerGpu = w.batchPerGpu;
        s.overlap = c.overlap;
        s.intraGBps = intra;
        if (nodes > 1) {
            double gbps = o.networkGbps && *o.networkGbps > 0 ? *o.networkGbps : 0.0;
            if (gbps <= 0) {
                gbps = defaultNetworkGbps(provider);
                variantFlags[static_cast<std::size_t>(v)] |= flagBit(ProjectionFlag::NetworkAssumed);
            }
            s.interGBps = networkEffectiveGBps(gbps);
        }
        const ScalingResult sr = scaleDataParallel(s);
        double r = sr.ok ? sr.samplesPerS : 0.0;
        // The range: the same job with the single-GPU speed at either end of its range (communication
        // does not scale with it, so the job's range is narrower than the GPU's when it is exposed).
        s.singleGpuSamplesPerS = si->single.samplesPerS * slowFactor;
        const ScalingResult slow = scaleDataParallel(s);
        s.singleGpuSamplesPerS = si->single.samplesPerS * fastFactor;
        const ScalingResult fast = scaleDataParallel(s);
        double rSlow = sr.ok && slow.ok ? slow.samplesPerS : 0.0;
        double rFast = sr.ok && fast.ok ? fast.samplesPerS : 0.0;
        if (sr.ok && sr.efficiency < 0.5)
            variantFlags[static_cast<std::size_t>(v)] |= flagBit(ProjectionFlag::CommunicationBound);
        // The input pipeline: every instance decodes for its own GPUs.
        if (r > 0 && c.cpuSecondsPerSample > 0) {
            bool assumed = false;
            const double vcpus = pipelineVcpus(o, &assumed);
            if (assumed)
                variantFlags[static_cast<std::size_t>(v)] |= flagBit(ProjectionFlag::VcpusAssumed);
            // The cap has a range (kInputPipelineRange): a job it binds at either end takes it.
            const PipelineCapped capped =
                capByInputPipeline(r, rSlow, rFast, nodes * vcpus / c.cpuSecondsPerSample);
            if (capped.cpuBound)
                variantFlags[static_cast<std::size_t>(v)] |= flagBit(ProjectionFlag::CpuBound);
            if (capped.inputLimited)
                inputLimited[static_cast<std::size_t>(v)] = true;
            r = capped.rate;
            rSlow = capped.slow;
            rFast = capped.fast;
        }
        rate[static_cast<std::size_t>(v)] = r;
        rateSlow[static_cast<std::size_t>(v)] = rSlow;
        rateFast[static_cast<std::size_t>(v)] = rFast;
    }

    // Setup: boot + staging the data set and weights over the instance's sustained bandwidth.
    double setupHours = c.setupHours;
    if (c.stagedGb > 0) {
        const StagingNetwork net = stagingNetwork(o);
        setupHours += stagingHours(c.stagedGb, net.gbps);
        if (net.assumed)
            base |= flagBit(ProjectionFlag::NetworkAssumed);
    }
    const double egressUsd = c.stagedGb * c.egressUsdPerGb[static_cast<std::size_t>(provider)];

    const int modes = modesOf(o, c.policy);
    ProjectedOffer *p = out;
    for (int m = 0; m < modes; ++m) {
        const bool spot = c.policy == SpotPolicy::SpotOnly || m == 1;
        if (only && *only != (spot ? PriceMode::Spot : PriceMode::OnDemand))
            continue;
        const std::optional<double> price = spot ? o.spotUsdH : o.onDemandUsdH;
        const bool priceOk = price && *price > 0 && std::isfinite(*price);
        quint32 modeFlags = base | offerFlagsFor(o.flags, spot);
        double interruptions = 0;
        std::optional<double> maxRuntime;
        if (spot) {
            const SpotRate r =
                spotRate(*c.spot, o.provider, o.spotLabel,
                         si && si->flagship ? QStringView(u"flagship") : QStringView(u"standard"), n,
                         o.interruption, o.reliability, c.rateOverride[static_cast<std::size_t>(provider)]);
            interruptions = r.perHour;
            maxRuntime = r.maxRuntimeHours;
            if (r.assumed)
                modeFlags |= flagBit(ProjectionFlag::InterruptionAssumed);
        }
        if (!priceOk)
            modeFlags |= flagBit(ProjectionFlag::InvalidPrice);
        for (int v = 0; v < nodeVariants; ++v, ++p) {
            const int nodes = v == 0 ? 1 : c.extraNodes[static_cast<std::size_t>(v - 1)];
            ProjectedOffer &pt = *p;
            pt = ProjectedOffer{};
            pt.offerIndex = static_cast<qint32>(i);
            pt.mode = spot ? PriceMode::Spot : PriceMode::OnDemand;
            pt.nodes = static_cast<quint8>(nodes);
            quint32 flags = modeFlags | variantFlags[static_cast<std::size_t>(v)];
            const double r = rate[static_cast<std::size_t>(v)];
            if (r > 0) {
                RunCostInput rc;
                rc.totalSamples = c.totalSamples;
                rc.samplesPerS = r;
                rc.usdPerHour = priceOk ? *price : 0.0;
                rc.nodes = nodes;
                rc.setupHours = setupHours;
                rc.interruptionsPerHour = interruptions;
                rc.checkpointHours = c.checkpointHours;
                rc.restoreHours = c.restoreHours;
                rc.maxRuntimeHours = maxRuntime;
                rc.billingIncrementS = o.billingIncrementS;
                rc.billingMinimumS = o.billingMinimumS;
                const RunCost cost = computeRunCost(rc);
                if (cost.neverFinishes)
                    flags |= flagBit(ProjectionFlag::SpotNeverFinishes);
                if (cost.timeOk) {
                    pt.projected = true;
                    pt.samplesPerS = r;
                    pt.trainHours = cost.trainHours;
                    pt.interruptionHours = cost.interruptionHours;
                    pt.totalHours = cost.totalHours;
                    pt.setupHours = static_cast<float>(cost.setupHours);
                    pt.expectedInterruptions = static_cast<float>(cost.expectedInterruptions);
                    pt.tier = si->single.tier;
                    pt.probeCalibrated = si->single.probeCalibrated;
                    pt.speedLogP10 = static_cast<float>(si->single.range.p10);
                    pt.speedLogP90 = static_cast<float>(si->single.range.p90);
                    const double rs = rateSlow[static_cast<std::size_t>(v)];
                    const double rf = rateFast[static_cast<std::size_t>(v)];
                    if (inputLimited[static_cast<std::size_t>(v)] && rs > 0 && rf > 0) {
                        // the job's own speed range: the GPU's where it leads, the pipeline's where it caps
                        pt.speedLogP10 = static_cast<float>(std::log(r / rf));
                        pt.speedLogP90 = static_cast<float>(std::log(r / rs));
                    }
                    // Slow end: longest time, highest cost; fast end: shortest, cheapest.
                    rc.samplesPerS = rateSlow[static_cast<std::size_t>(v)];
                    const RunCost slow = computeRunCost(rc);
                    rc.samplesPerS = rateFast[static_cast<std::size_t>(v)];
                    const RunCost fast = computeRunCost(rc);
                    const double egress = egressUsd * nodes;
                    pt.totalHoursHigh = static_cast<float>(slow.timeOk ? slow.totalHours : cost.totalHours);
                    pt.totalHoursLow = static_cast<float>(fast.timeOk ? fast.totalHours : cost.totalHours);
                    pt.costUsdHigh = static_cast<float>((slow.costOk ? slow.costUsd : cost.costUsd) + egress);
                    pt.costUsdLow = static_cast<float>((fast.costOk ? fast.costUsd : cost.costUsd) + egress);
                }
                if (cost.costOk) {
                    pt.costUsd = cost.costUsd + egressUsd * nodes;
                    pt.usdPerHour = cost.usdPerHourTotal;
                    pt.samplesPerUsd = cost.samplesPerUsd;
                } else {
                    flags |= flagBit(ProjectionFlag::InvalidPrice);
                    pt.costUsdLow = pt.costUsdHigh = 0;
                }
            }
            if (!pt.projected && priceOk)
                pt.usdPerHour = *price * nodes;
            pt.flags = flags;
            pt.suspectExcluded = !c.includeSuspect && (flags & kSuspectFlags) != 0;
            if (pt.eligible()) {
                pt.feasible = c.constraints.admits({pt.totalHours, pt.costUsd});
                if (bins)
                    bins->add(pt.totalHours, pt.costUsd);
            }
        }
    }
    return static_cast<int>(p - out);
}

template <class Fn> void forEachChunk(QList<Chunk> &chunks, bool parallel, Fn fn)
{
    if (parallel && chunks.size() > 1)
        QtConcurrent::blockingMap(chunks, fn);
    else
        for (Chunk &ch : chunks)
            fn(ch);
}

} // namespace

QList<SingleGpuSpeed> singleGpuSpeeds(const Workload &workload, const ProjectionOptions &options,
                                      const Calibration &calibration, const GpuSpecTable &specs,
                                      const SpeedModel &model)
{
    const WorkloadAnchors anchors = model.anchorsFor(workload, options.measurements, specs);
    QList<SingleGpuSpeed> out;
    out.reserve(specs.size());
    for (const GpuSpec &g : specs.specs())
        out.append(model.project(g, workload, anchors, calibration));
    return out;
}

namespace {

/// The call-wide constants of a projection (projectOffersInto and OfferProjector share them).
void buildContext(Context &c, const Workload &workload, const ProjectionOptions &options,
                  const Calibration &calibration, const GpuSpecTable &specs, const SpeedModel &model)
{
    c.workload = &workload;
    c.policy = options.spotPolicy;
    c.totalSamples = workload.totalSamples();
    auto nonNegative = [](double v) { return std::isfinite(v) ? std::max(0.0, v) : 0.0; };
    c.setupHours = nonNegative(options.setupMinutes) / 60.0;
    c.checkpointHours = nonNegative(options.checkpointMinutes) / 60.0;
    c.restoreHours = nonNegative(options.restoreMinutes) / 60.0;
    c.overlap = std::isfinite(options.overlap) ? std::clamp(options.overlap, 0.0, 1.0) : kDefaultOverlap;
    c.bytesPerGradient = nonNegative(options.bytesPerGradient);
    c.constraints.deadlineHours = options.deadlineHours;
    c.constraints.budgetUsd = options.budgetUsd;
    c.checkStale = options.now.isValid();
    if (c.checkStale) {
        const QDateTime nowUtc = options.now.toUTC();
        c.nowJulianDay = nowUtc.date().toJulianDay();
        c.nowMsecs = nowUtc.toMSecsSinceEpoch();
    }
    c.staleDays = std::max(0, options.staleDays);
    c.includeSuspect = options.includeSuspect;
    c.stagedGb = std::isfinite(workload.stagedGb()) ? std::max(0.0, workload.stagedGb()) : 0.0;
    c.cpuSecondsPerSample = std::isfinite(workload.cpuCoreSecondsPerSample)
                                ? std::max(0.0, workload.cpuCoreSecondsPerSample)
                                : 0.0;
    c.spot = &SpotDefaults::builtin();
    for (auto it = options.interruptionRatePerHour.cbegin(); it != options.interruptionRatePerHour.cend();
         ++it)
        if (std::isfinite(it.value()) && it.value() >= 0)
            c.rateOverride[static_cast<std::size_t>(providerKind(it.key()))] = it.value();
    for (auto it = options.egressUsdPerGb.cbegin(); it != options.egressUsdPerGb.cend(); ++it)
        if (std::isfinite(it.value()) && it.value() >= 0)
            c.egressUsdPerGb[static_cast<std::size_t>(providerKind(it.key()))] = it.value();
    for (int k : options.nodeCounts)
        if (k > 1 && k <= 255)
            c.extraNodes.push_back(k);
    std::sort(c.extraNodes.begin(), c.extraNodes.end());
    c.extraNodes.erase(std::unique(c.extraNodes.begin(), c.extraNodes.end()), c.extraNodes.end());
    if (c.extraNodes.size() > std::size_t(kMaxNodeVariants - 1))
        c.extraNodes.resize(std::size_t(kMaxNodeVariants - 1)); // validateProjectionOptions rejects more

    // Once per spec row: the single-GPU speed (model v2) and the link bandwidths.
    const WorkloadAnchors anchors = model.anchorsFor(workload, options.measurements, specs);
    c.specs.resize(static_cast<std::size_t>(specs.size()));
    for (qsizetype s = 0; s < specs.size(); ++s) {
        const GpuSpec &g = specs.specs().at(s);
        SpecInfo &info = c.specs[static_cast<std::size_t>(s)];
        info.single = model.project(g, workload, anchors, calibration);
        // The measured tier from the user's measurement of this workload on this GPU (userMeasurementFor).
        info.measured = info.single.userMeasured;
        info.hasNvlink = g.interconnectGbs > 0;
        info.nvlinkGBps = nvlinkEffectiveGBps(g);
        info.pcieGBps = pcieEffectiveGBps(g);
        info.memoryGb = g.memoryGb;
        const GpuModel *gpuModel = GpuCatalog::builtin().model(g.id);
        info.flagship = gpuModel && gpuModel->capacityClass == u"flagship";
    }
}

} // namespace

void projectOffersInto(const QList<Offer> &offers, const Workload &workload, const ProjectionOptions &options,
                       const Calibration &calibration, QList<ProjectedOffer> &points,
                       const GpuSpecTable &specs, const SpeedModel &model)
{
    Context c;
    buildContext(c, workload, options, calibration, specs, model);

    // Chunks: large enough to amortise scheduling, many enough to balance two to a few cores.
    const qsizetype n = offers.size();
    constexpr qsizetype kChunk = 1 << 16;
    QList<Chunk> chunks;
    for (qsizetype b = 0; b < n; b += kChunk)
        chunks.append(Chunk{b, std::min(n, b + kChunk), 0, 0, {}, {}});
    const bool parallel = options.parallel && chunks.size() > 1;

    // Pass 1: resolve each offer's spec row once (kept as 16 bits per offer) and count the points per chunk.
    constexpr quint16 kNoSpec = 0xFFFF;
    const bool keepIndex = specs.size() < kNoSpec;
    std::unique_ptr<quint16[]> specIndex(keepIndex ? new quint16[static_cast<std::size_t>(n)] : nullptr);
    forEachChunk(chunks, parallel, [&](Chunk &ch) {
        SpecResolver resolver(specs);
        qsizetype count = 0;
        for (qsizetype i = ch.begin; i < ch.end; ++i) {
            const int si = resolver.resolve(offers.at(i).gpuId);
            if (keepIndex)
                specIndex[static_cast<std::size_t>(i)] = si < 0 ? kNoSpec : static_cast<quint16>(si);
            count += pointCount(offers.at(i), si, c);
        }
        ch.pointCount = count;
    });
    qsizetype total = 0;
    for (Chunk &ch : chunks) {
        ch.pointBegin = total;
        total += ch.pointCount;
    }

    // The output: reuse the caller's capacity; a fresh large buffer is advised to use huge pages,
    // because first-touch page faults dominate the cost of writing a hundred megabytes.
    points.clear();
    if (points.capacity() < total) {
        points = QList<ProjectedOffer>();
        points.reserve(total);
        adviseHugePages(points.data(), static_cast<std::size_t>(total) * sizeof(ProjectedOffer));
    }
    points.resize(total);

    // Pass 2: project every point into its slot (no allocation per offer), min cost per time bucket.
    ProjectedOffer *data = points.data();
    forEachChunk(chunks, parallel, [&](Chunk &ch) {
        SpecResolver resolver(specs);
        ProjectedOffer *out = data + ch.pointBegin;
        for (qsizetype i = ch.begin; i < ch.end; ++i) {
            const quint16 kept = keepIndex ? specIndex[static_cast<std::size_t>(i)] : kNoSpec;
            const int si =
                keepIndex ? (kept == kNoSpec ? -1 : int(kept)) : resolver.resolve(offers.at(i).gpuId);
            projectOne(c, offers.at(i), i, si, out, &ch.bins);
            out += pointCount(offers.at(i), si, c);
        }
        Q_ASSERT(out == data + ch.pointBegin + ch.pointCount);
    });

    // Pass 3: the frontier of the eligible points: prefilter by time bucket, then sort + sweep the survivors.
    TimeBinFilter bins;
    for (const Chunk &ch : std::as_const(chunks))
        bins.merge(ch.bins);
    bins.finish();
    forEachChunk(chunks, parallel, [&](Chunk &ch) {
        for (qsizetype i = ch.pointBegin; i < ch.pointBegin + ch.pointCount; ++i) {
            const ProjectedOffer &p = data[i];
            if (p.eligible() && bins.mayBeOnFrontier(p.totalHours, p.costUsd))
                ch.candidates.push_back({p.totalHours, p.costUsd, i});
        }
    });
    std::vector<FrontierCandidate> candidates;
    for (const Chunk &ch : std::as_const(chunks))
        candidates.insert(candidates.end(), ch.candidates.begin(), ch.candidates.end());
    markFrontier(candidates, options.weight, [&](qsizetype idx) -> ProjectedOffer & { return data[idx]; });
}

struct OfferProjector::Impl
{
    Impl(const GpuSpecTable &specs) : resolver(specs) {}
    Context context;
    SpecResolver resolver;
    std::vector<ProjectedOffer> buffer; ///< projectPoint's: the points of one price mode
};

OfferProjector::OfferProjector(const Workload &workload, const ProjectionOptions &options,
                               const Calibration &calibration, const GpuSpecTable &specs,
                               const SpeedModel &model)
    : m_workload(workload), m_impl(std::make_unique<Impl>(specs))
{
    buildContext(m_impl->context, m_workload, options, calibration, specs, model);
    m_impl->buffer.resize(static_cast<std::size_t>(maxPoints()));
}

OfferProjector::~OfferProjector() = default;

int OfferProjector::maxPoints() const
{
    return 2 * (1 + static_cast<int>(m_impl->context.extraNodes.size()));
}

int OfferProjector::pointCount(const Offer &offer)
{
    return gf::pointCount(offer, m_impl->resolver.resolve(offer.gpuId), m_impl->context);
}

int OfferProjector::project(const Offer &offer, qint32 index, ProjectedOffer *out, TimeBinFilter *bins)
{
    const int si = m_impl->resolver.resolve(offer.gpuId);
    return projectOne(m_impl->context, offer, index, si, out, bins);
}

ProjectedOffer OfferProjector::projectPoint(const Offer &offer, qint32 index, PriceMode mode, int nodes)
{
    const int si = m_impl->resolver.resolve(offer.gpuId);
    ProjectedOffer *out = m_impl->buffer.data();
    const int n = projectOne(m_impl->context, offer, index, si, out, nullptr, mode);
    for (int j = 0; j < n; ++j)
        if (out[j].nodes == nodes)
            return out[j];
    return {};
}

QList<ProjectedOffer> projectOffers(const QList<Offer> &offers, const Workload &workload,
                                    const ProjectionOptions &options, const Calibration &calibration,
                                    const GpuSpecTable &specs, const SpeedModel &model)
{
    QList<ProjectedOffer> points;
    projectOffersInto(offers, workload, options, calibration, points, specs, model);
    return points;
}

bool indistinguishable(const ProjectedOffer &a, const ProjectedOffer &b, bool sameGpu)
{
    if (!a.projected || !b.projected)
        return false;
    if (sameGpu) {
        // One GPU model, one speed and one error: the ranges move together, so their overlap says nothing.
        // The difference of the central values is known up to what the two do not share: the expected
        // spot overhead (judged interruption rates, SPOT.md) and a 1 % tolerance.
        const double tTol = std::max(double(a.interruptionHours), double(b.interruptionHours)) +
                            0.01 * std::max(a.totalHours, b.totalHours);
        const double cTol = std::max(a.interruptionHours * a.usdPerHour, b.interruptionHours * b.usdPerHour) +
                            0.01 * std::max(a.costUsd, b.costUsd);
        return std::abs(a.totalHours - b.totalHours) <= tTol && std::abs(a.costUsd - b.costUsd) <= cTol;
    }
    const bool timeOverlaps = a.totalHoursLow <= b.totalHoursHigh && b.totalHoursLow <= a.totalHoursHigh;
    const bool costOverlaps = a.costUsdLow <= b.costUsdHigh && b.costUsdLow <= a.costUsdHigh;
    return timeOverlaps && costOverlaps;
}

QList<qsizetype> indistinguishableFrom(const QList<ProjectedOffer> &points, qsizetype rec,
                                       const std::function<QString(qsizetype)> &gpuOf, int limit)
{
    if (rec < 0 || rec >= points.size())
        return {};
    const ProjectedOffer &r = points.at(rec);
    const QString gpu = gpuOf(rec);
    QList<qsizetype> out;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const ProjectedOffer &p = points.at(i);
        if (i == rec || !p.onFrontier || !p.feasible)
            continue;
        if (indistinguishable(r, p, gpuOf(i) == gpu))
            out.append(i);
    }
    std::stable_sort(out.begin(), out.end(), [&](qsizetype a, qsizetype b) {
        return std::abs(std::log(points.at(a).totalHours / r.totalHours)) <
               std::abs(std::log(points.at(b).totalHours / r.totalHours));
    });
    // One point per GPU model (the nearest in time): the others of that model are the same choice.
    QStringList seen;
    QList<qsizetype> one;
    for (qsizetype i : std::as_const(out)) {
        const QString g = gpuOf(i);
        if (seen.contains(g))
            continue;
        seen.append(g);
        one.append(i);
    }
    if (limit >= 0 && one.size() > limit)
        one.resize(limit);
    return one;
}

void sortByTime(const QList<ProjectedOffer> &points, QList<qsizetype> &order)
{
    std::stable_sort(order.begin(), order.end(),
                     [&](qsizetype a, qsizetype b) { return fasterThan(points.at(a), points.at(b)); });
}

} // namespace gf

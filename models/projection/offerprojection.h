#pragma once

#include "domain/gpuspecs.h"
#include "domain/offer.h"
#include "domain/throughputmeasurement.h"
#include "domain/workload.h"
#include "projection/modelconstants.h"
#include "projection/projection.h"
#include "projection/runcost.h"
#include "projection/speedmodel.h"
#include "util/result.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QStringList>

#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

namespace gf {

/// Which prices become points.
enum class SpotPolicy : quint8
{
    OnDemandOnly, ///< one on-demand point per offer (and node count)
    SpotAllowed,  ///< the on-demand point AND, when the offer has a spot price, a separate spot point:
                  ///< the frontier then decides (spot is cheaper but slower by its interruption overhead)
    SpotOnly,     ///< spot points only; offers without a spot price give no point
};

enum class PriceMode : quint8
{
    OnDemand,
    Spot
};

/// Why a point is not projected, not eligible, or deserves a look. Bit set in ProjectedOffer::flags.
enum class ProjectionFlag : quint32
{
    None = 0,
    UnrecognisedGpu = 1u << 0, ///< the offer's GPU name matched no canonical GPU: no projection
    NoSpec = 1u << 1,          ///< canonical GPU without a spec row: no projection
    NoComputeRate = 1u << 2,   ///< the spec has no rate for the precision or its fallbacks: no projection
    InvalidGpuCount = 1u << 3, ///< gpuCount <= 0 or not finite: no projection
    MemoryTooSmall = 1u << 4,  ///< workload memory > memory per GPU: kept, never on the frontier, infeasible
    InvalidPrice = 1u << 5,    ///< price missing, zero or negative: hours known, cost unknown; infeasible
    TooFewVcpus = 1u << 6,     ///< vCPUs per GPU below the workload's minimum (input pipeline may starve)
    StalePrice = 1u << 7, ///< price data older than ProjectionOptions::staleDays (refresh; informational)
    PrecisionFallback = 1u << 8,    ///< the GPU lacks the workload's precision; a fallback rate was used
    InterconnectAssumed = 1u << 9,  ///< multi-GPU instance without a stated (or usable) NVLink: PCIe assumed
    NetworkAssumed = 1u << 10,      ///< multi-node job on an offer without a network figure: provider default
    InterruptionAssumed = 1u << 11, ///< spot rate from the provider default, not from a per-offer figure
    CommunicationBound = 1u << 12,  ///< scaling efficiency below 50 %: fewer GPUs may be as fast
    SpotAboveOnDemand = 1u << 13,   ///< spot point: spot >= on-demand (suspect)
    SpotAtFloor = 1u << 14,         ///< spot point: spot at the provider's floor, <= 10 % (suspect)
    GpuBelowSpot = 1u << 15,        ///< on-demand point: GCP GPU part below its own spot price (suspect)
    PriceOutlierLow = 1u << 16,     ///< on-demand point: < 1/3 of the GPU's robust median (suspect)
    PriceOutlierHigh = 1u << 17,    ///< on-demand point: > 3x the GPU's robust median (informational)
    StaleRow = 1u << 18,      ///< the row's price is far older than its snapshot / listing ended (suspect)
    MemoryDiffers = 1u << 19, ///< the offer's memory per GPU matches no variant of its GPU (informational)
    CpuBound = 1u << 20,      ///< the input pipeline (vCPUs / CPU cost per sample) caps the speed
    SpotNeverFinishes = 1u << 21, ///< interruptions come faster than a restore + lost work: no projection
    VcpusAssumed = 1u << 22,      ///< no vCPU figure: assumedVcpusPerGpu() per GPU feed the input pipeline
    /// The single-GPU speed is a user measurement of this workload on this GPU (ProjectionOptions::
    /// measurements), not the model's. Informational. Bit 23: bits 14-22 are taken by the flags above.
    Measured = 1u << 23,
    /// On-demand point of an instance type that is not sold on demand (capacity blocks, reservations or
    /// spot only; OfferFlag::NoOnDemand): shown with its reason, never on the frontier.
    NoOnDemand = 1u << 24,
    /// The typical stack's point would run a preset's eager step faster than the per-step floor measured
    /// for it (rule Q2, PROJECTION.md 3.21): the host's CPU may set the speed; the range reaches that floor.
    HostBound = 1u << 25,
};
inline constexpr quint32 flagBit(ProjectionFlag f)
{
    return static_cast<quint32>(f);
}
inline bool hasFlag(quint32 flags, ProjectionFlag f)
{
    return (flags & flagBit(f)) != 0;
}
/// Flags that make a point unusable (never on the frontier, never feasible).
inline constexpr quint32 kBlockingFlags =
    flagBit(ProjectionFlag::UnrecognisedGpu) | flagBit(ProjectionFlag::NoSpec) |
    flagBit(ProjectionFlag::NoComputeRate) | flagBit(ProjectionFlag::InvalidGpuCount) |
    flagBit(ProjectionFlag::MemoryTooSmall) | flagBit(ProjectionFlag::InvalidPrice) |
    flagBit(ProjectionFlag::SpotNeverFinishes) | flagBit(ProjectionFlag::NoOnDemand);
/// Price-sanity flags (domain/pricesanity.h): such a point is shown but never on the frontier nor
/// recommended unless ProjectionOptions::includeSuspect.
inline constexpr quint32 kSuspectFlags =
    flagBit(ProjectionFlag::SpotAboveOnDemand) | flagBit(ProjectionFlag::SpotAtFloor) |
    flagBit(ProjectionFlag::GpuBelowSpot) | flagBit(ProjectionFlag::PriceOutlierLow) |
    flagBit(ProjectionFlag::StaleRow);

/// Short stable names ("memory-too-small", ...) for the CLI, JSON and reports, in bit order.
/// The JSON/CLI name of one flag ("cpu-bound").
QString projectionFlagName(ProjectionFlag f);
QStringList projectionFlagNames(quint32 flags);
/// One sentence for the user.
QString projectionFlagDescription(ProjectionFlag flag);
/// Every single flag, in bit order.
QList<ProjectionFlag> allProjectionFlags();

struct ProjectionOptions
{
    SpotPolicy spotPolicy = SpotPolicy::SpotAllowed;
    double setupMinutes = 10; ///< boot + image pull, billed, counted once (data staging is added per offer)
    double checkpointMinutes = 30; ///< checkpoint interval: an interruption loses half of it on average
    double restoreMinutes = 10;    ///< per interruption: new instance, setup, checkpoint load
    std::optional<double> deadlineHours;
    std::optional<double> budgetUsd;
    double weight = 0.5; ///< recommended point: 0 = cheapest ... 1 = fastest
    /// Job sizes in instances. 1 = every offer alone; K > 1 adds a point of K instances of every
    /// single-GPU offer (gpuCount == 1) talking over the network. At most 16 entries.
    QList<int> nodeCounts{1};
    QDateTime now; ///< for stale prices; invalid = no staleness check
    int staleDays = 7;
    double overlap = kDefaultOverlap;
    double bytesPerGradient = kDefaultBytesPerGradient;
    bool parallel = true; ///< split large catalogs over the global thread pool (same result)
    /// Points with a price-sanity flag (kSuspectFlags) may be on the frontier and recommended.
    bool includeSuspect = false;
    /// Per provider id: the user's spot interruption rate per instance-hour, replacing the documented
    /// default (projection/spotdefaults.h). Absent = the default.
    QHash<QString, double> interruptionRatePerHour;
    /// Per provider id: USD per GB to bring the workload's staged data to that provider's instances
    /// (egress from where the data lives). Absent = 0.
    QHash<QString, double> egressUsdPerGb;
    /// Measured training throughputs beyond the shipped table (the user's imports). A User
    /// measurement of this workload (userMeasurementFor: same id, same canonical GPU id, the newest when
    /// several) on a GPU puts that GPU in the "measured" tier with the user's speed as its single-GPU
    /// speed, and its points carry ProjectionFlag::Measured; the user's level carries over to the other
    /// GPUs (PROJECTION.md section 3.3).
    ThroughputMeasurements measurements;
};

/// Range checks with messages naming the option.
Status validateProjectionOptions(const ProjectionOptions &options);

/// One point: an offer (index into the input list) priced on-demand or spot, as `nodes` instances.
/// Plain numbers only (no strings) so that a million of them fit in one allocation.
struct ProjectedOffer
{
    qint32 offerIndex = -1;
    PriceMode mode = PriceMode::OnDemand;
    quint8 nodes = 1;
    bool projected = false;       ///< throughput known (hours meaningful)
    bool onFrontier = false;      ///< on the Pareto frontier of all eligible points (time, cost)
    bool feasible = false;        ///< eligible and within deadline and budget
    bool recommended = false;     ///< the recommended point (at most one)
    bool suspectExcluded = false; ///< carries a kSuspectFlags flag and suspect prices are excluded
    ProjectionTier tier = ProjectionTier::None; ///< evidence behind the single-GPU speed (when projected)
    bool probeCalibrated = false;               ///< the GPU's GEMM rate and bandwidth come from a probe run
    quint32 flags = 0;
    double samplesPerS = 0; ///< whole job
    double trainHours = 0;
    double interruptionHours = 0; ///< expected spot overhead
    double totalHours = 0;        ///< setup + train + interruption overhead
    double costUsd = 0;           ///< billed
    double usdPerHour = 0;        ///< whole job (price x nodes)
    double samplesPerUsd = 0;
    float setupHours = 0;            ///< boot + data staging (part of totalHours)
    float expectedInterruptions = 0; ///< whole job, spot points (incl. capped stops)
    /// Uncertainty of the projection (the tier's 10th-90th percentile of ln(projected / measured),
    /// PROJECTION.md section 3.4): time and cost recomputed at the slow and fast end of the speed range
    /// (billing included). Equal to the central values when not projected.
    float speedLogP10 = 0; ///< speed range = samplesPerS x [exp(-speedLogP90), exp(-speedLogP10)]
    float speedLogP90 = 0;
    float totalHoursLow = 0;
    float totalHoursHigh = 0;
    float costUsdLow = 0;
    float costUsdHigh = 0;

    double samplesPerSLow() const { return samplesPerS * std::exp(-double(speedLogP90)); }
    double samplesPerSHigh() const { return samplesPerS * std::exp(-double(speedLogP10)); }

    /// The point's price (on-demand or spot, all its nodes) per GPU and hour; nullopt without a price.
    std::optional<double> usdPerGpuHour(const Offer &offer) const
    {
        return usdPerGpuHourOf(usdPerHour, offer.gpuCount, nodes);
    }
    /// The same from the point's price, its offer's GPU count and its nodes.
    static std::optional<double> usdPerGpuHourOf(double usdPerHour, double gpuCount, int nodes)
    {
        if (!(usdPerHour > 0) || !(gpuCount > 0))
            return std::nullopt;
        return usdPerHour / (gpuCount * std::max(1, nodes));
    }

    /// Projected, priced, memory fits, no excluded suspect price: may be on the frontier.
    bool eligible() const { return projected && !suspectExcluded && (flags & kBlockingFlags) == 0; }
};

/// Projects every offer for the workload and marks the frontier, feasibility and the recommended point.
/// The single entry point of the CLI, the GUI and the reports. Points come in offer order; per offer the
/// on-demand point, then the spot point, each for every node count in order. Pure: same input, same output
/// (also with `parallel`). Workload and options are expected valid (validateWorkload /
/// validateProjectionOptions); out-of-range options are clamped.
/// `model`: projection model v2 (constants, architecture table, shipped measurements).
QList<ProjectedOffer> projectOffers(const QList<Offer> &offers, const Workload &workload,
                                    const ProjectionOptions &options, const Calibration &calibration,
                                    const GpuSpecTable &specs = GpuSpecTable::builtin(),
                                    const SpeedModel &model = SpeedModel::builtin());

/// The same, written into `points` (replaced). Its capacity is reused, so re-projecting the same catalog
/// (the GUI changing a deadline or a weight) writes into memory that is already mapped.
void projectOffersInto(const QList<Offer> &offers, const Workload &workload, const ProjectionOptions &options,
                       const Calibration &calibration, QList<ProjectedOffer> &points,
                       const GpuSpecTable &specs = GpuSpecTable::builtin(),
                       const SpeedModel &model = SpeedModel::builtin());

class TimeBinFilter;

/// One offer at a time, exactly as projectOffers projects each offer (the same constants, the same
/// points in the same order), for callers that hold the catalog in another form than a list of Offers
/// (projection/tableprojection). What depends on every point (onFrontier, recommended) is left false:
/// the caller runs markFrontier over its points. Keeps a cache: one projector per thread.
class OfferProjector
{
public:
    OfferProjector(const Workload &workload, const ProjectionOptions &options, const Calibration &calibration,
                   const GpuSpecTable &specs = GpuSpecTable::builtin(),
                   const SpeedModel &model = SpeedModel::builtin());
    ~OfferProjector();
    OfferProjector(const OfferProjector &) = delete;
    OfferProjector &operator=(const OfferProjector &) = delete;

    /// The most points one offer gives (the size of project's buffer).
    int maxPoints() const;
    /// The number of points `offer` gives.
    int pointCount(const Offer &offer);
    /// Writes the points of `offer` (offerIndex = `index`) to out[0, n) and returns n; the (time, cost) of
    /// its eligible points go into `bins` when given.
    int project(const Offer &offer, qint32 index, ProjectedOffer *out, TimeBinFilter *bins = nullptr);
    /// The one point of `offer` in price mode `mode` on `nodes` instances, as project gives it (only that
    /// mode is projected); a default ProjectedOffer when the offer has no such point.
    ProjectedOffer projectPoint(const Offer &offer, qint32 index, PriceMode mode, int nodes);

private:
    struct Impl;
    Workload m_workload;
    std::unique_ptr<Impl> m_impl;
};

/// The single-GPU speed of the workload on every spec row (parallel to specs.specs()), as
/// projectOffers computes it: tier, range and what it rests on, for tooltips, reports and `gpus`.
QList<SingleGpuSpeed> singleGpuSpeeds(const Workload &workload, const ProjectionOptions &options,
                                      const Calibration &calibration,
                                      const GpuSpecTable &specs = GpuSpecTable::builtin(),
                                      const SpeedModel &model = SpeedModel::builtin());

/// Index of the recommended point, -1 when none.
qsizetype recommendedIndex(const QList<ProjectedOffer> &points);

/// Two projected points cannot be told apart by the model: their time ranges overlap and their cost
/// ranges overlap. Points of the same GPU model (`sameGpu`) share the model's error (one speed per GPU
/// model), so their ranges move together: they are indistinguishable when their central times differ by
/// no more than the larger expected spot overhead + 1 % and their costs by no more than that overhead's
/// cost + 1 % (the same instance on spot and on-demand: same time within the overhead, not the same cost).
bool indistinguishable(const ProjectedOffer &a, const ProjectedOffer &b, bool sameGpu);
/// The feasible frontier points that are indistinguishable from point `reference` (the recommended
/// one; its own GPU model included), one per GPU model, at most `limit`, nearest in time first;
/// `gpuOf(point)` gives a point's GPU id. Empty when `reference` is out of range.
QList<qsizetype> indistinguishableFrom(const QList<ProjectedOffer> &points, qsizetype reference,
                                       const std::function<QString(qsizetype)> &gpuOf, int limit = 3);

/// Default network bandwidth (Gbps) of an instance without a figure: 10 for the clouds, 1 for vast.ai
/// (separate hosts over the internet).
double defaultNetworkGbps(ProviderKind provider);

/// vCPUs per GPU assumed for the input-pipeline cap when an offer states none: the common cloud ratio
/// (8-12 per GPU on p4d/a2; judgement, PROJECTION.md §6). Without it such offers would escape the cap and
/// win every data-loading-heavy workload.
inline constexpr double kAssumedVcpusPerGpu = 8;
/// The same for vast.ai hosts (its rows from SkyPilot carry no vCPU count): what such hosts typically
/// have, 24 per GPU. Both real vast.ai host payloads of the shared data have 24 (an RTX 4090 host with 96
/// cores for 4 GPUs, an RTX 5090 host with 24 for 1), and so do the 8-GPU boards these hosts are built
/// from (AWS p5 24, GCP a3-highgpu 26, Lambda 8x H100 26 per GPU; PROJECTION.md §4).
inline constexpr double kAssumedVastVcpusPerGpu = 24;
/// The input pipeline's rate (vCPUs / the workload's CPU seconds per sample) rests on a judged cost per
/// sample: its 10th-90th percentile in the LogRange convention (true rate = cap x [exp(-p90), exp(-p10)],
/// i.e. 0.52x-1.26x). Set by rule K3 (PROJECTION.md section 3.19) from Lambda's TensorFlow real-data runs
/// on two hosts whose pipeline binds (input_pipeline_runs.csv): the 10th/90th percentiles of ln(real / cap),
/// each host weighted equally, rounded outward; in sample, as two hosts cannot validate each other. It was
/// 0.70x-1.40x, a judgement that held 41 % of those runs. A job that the cap binds at either end of its range
/// takes this range instead of collapsing to one value.
inline constexpr LogRange kInputPipelineRange{-0.232, 0.659};
/// The judged range rule K3 replaced (0.70x-1.40x of the cap): `validate` scores it beside the shipped one.
inline constexpr LogRange kJudgedInputPipelineRange{-0.336, 0.357};
/// "0.52x-1.26x": the pipeline rate's likely range as a factor, for explanations.
QString inputPipelineRangeText();
/// A job's rate and likely range capped by its input pipeline's rate `cap` (samples/s; PROJECTION.md
/// section 4): the point min(rate, cap), the slow end min(slow, cap x exp(-range.p90)), the fast end
/// min(fast, cap x exp(-range.p10)). projectOffers and the pipeline check of `validate` both use it.
struct PipelineCapped
{
    double rate = 0;
    double slow = 0;
    double fast = 0;
    bool cpuBound = false;     ///< the cap binds the point (flag cpu-bound)
    bool inputLimited = false; ///< the cap binds at either end of the range
};
PipelineCapped capByInputPipeline(double rate, double slow, double fast, double cap,
                                  LogRange range = kInputPipelineRange);
/// kAssumedVastVcpusPerGpu for vast.ai, kAssumedVcpusPerGpu for every other provider.
double assumedVcpusPerGpu(ProviderKind provider);
/// The vCPUs the input pipeline gets on one instance of the offer: its own figure, else the assumed
/// count for its GPUs (at least 1); `assumed` tells which.
double pipelineVcpus(const Offer &offer, bool *assumed = nullptr);

/// Share of a cloud's stated bandwidth assumed sustained on instances with fewer than
/// kBurstVcpuLimit vCPUs, whose figure is an "up to" burst rate (judgement, PROJECTION.md §6).
inline constexpr double kBurstBaselineShare = 0.25;
inline constexpr double kBurstVcpuLimit = 16;

/// The bandwidth data staging is assumed to sustain on one instance.
struct StagingNetwork
{
    double gbps = 0;
    bool assumed = false; ///< the offer has no figure: defaultNetworkGbps()
    bool burst = false;   ///< a cloud instance below kBurstVcpuLimit vCPUs: kBurstBaselineShare of the figure
};
StagingNetwork stagingNetwork(const Offer &offer);
/// Hours to stage `gb` gigabytes (1e9 B) at `gbps`: gb x 8 / gbps / 3600; 0 when nothing is staged.
double stagingHours(double gb, double gbps);

/// The order of every time-sorted list (tables, reports, CLI): projected points first, fastest
/// first, ties by lower cost; unprojected points keep their order at the end (use a stable sort).
/// `Point`: ProjectedOffer, or a compact point with the same three members (projection/tableprojection).
template <class Point> inline bool fasterThan(const Point &x, const Point &y)
{
    if (x.projected != y.projected)
        return x.projected;
    if (!x.projected)
        return false;
    if (x.totalHours != y.totalHours)
        return x.totalHours < y.totalHours;
    return x.costUsd < y.costUsd;
}

/// Sorts indexes into points by fasterThan (stable).
void sortByTime(const QList<ProjectedOffer> &points, QList<qsizetype> &order);

} // namespace gf

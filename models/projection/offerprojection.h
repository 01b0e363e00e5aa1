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
#include <QList>
#include <QStringList>

#include <cmath>
#include <functional>
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
    StalePrice = 1u << 7,      ///< price data older than ProjectionOptions::staleDays
    PrecisionFallback = 1u << 8,    ///< the GPU lacks the workload's precision; a fallback rate was used
    InterconnectAssumed = 1u << 9,  ///< multi-GPU instance without a stated (or usable) NVLink: PCIe assumed
    NetworkAssumed = 1u << 10,      ///< multi-node job on an offer without a network figure: provider default
    InterruptionAssumed = 1u << 11, ///< spot rate from the provider default, not from a per-offer figure
    CommunicationBound = 1u << 12,  ///< scaling efficiency below 50 %: fewer GPUs may be as fast
    SpotAboveOnDemand = 1u << 13,   ///< provider data: the spot price exceeds on-demand
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
    flagBit(ProjectionFlag::MemoryTooSmall) | flagBit(ProjectionFlag::InvalidPrice);

/// Short stable names ("memory-too-small", ...) for the CLI, JSON and reports, in bit order.
QStringList projectionFlagNames(quint32 flags);
/// One sentence for the user.
QString projectionFlagDescription(ProjectionFlag flag);
/// Every single flag, in bit order.
QList<ProjectionFlag> allProjectionFlags();

struct ProjectionOptions
{
    SpotPolicy spotPolicy = SpotPolicy::SpotAllowed;
    double setupMinutes = 10;      ///< boot + image pull + data staging, billed, counted once
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
    /// Measured training speeds beyond the shipped table (the user's imports, issue 16): a measurement
    /// of this workload (measurementMatches) on a GPU puts that GPU in the "measured" tier and carries
    /// the user's level over to the other GPUs (PROJECTION.md section 3.3).
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
    bool projected = false;   ///< throughput known (hours meaningful)
    bool onFrontier = false;  ///< on the Pareto frontier of all eligible points (time, cost)
    bool feasible = false;    ///< eligible and within deadline and budget
    bool recommended = false; ///< the recommended point (at most one)
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

    /// Projected, priced, memory fits: may be on the frontier.
    bool eligible() const { return projected && (flags & kBlockingFlags) == 0; }
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

/// The single-GPU speed of the workload on every spec row (parallel to specs.specs()), as
/// projectOffers computes it: tier, range and what it rests on, for tooltips, reports and `gpus`.
QList<SingleGpuSpeed> singleGpuSpeeds(const Workload &workload, const ProjectionOptions &options,
                                      const Calibration &calibration,
                                      const GpuSpecTable &specs = GpuSpecTable::builtin(),
                                      const SpeedModel &model = SpeedModel::builtin());

/// Index of the recommended point, -1 when none.
qsizetype recommendedIndex(const QList<ProjectedOffer> &points);

/// Two projected points cannot be told apart by the model: their time ranges overlap and their cost
/// ranges overlap. Points of the same GPU model share the model's error (one speed per GPU model), so
/// they are never "indistinguishable" by it: `sameGpu` true compares the central values only (false).
bool indistinguishable(const ProjectedOffer &a, const ProjectedOffer &b, bool sameGpu);
/// The feasible frontier points that are indistinguishable from point `reference` (the recommended
/// one), one per GPU model, at most `limit`, nearest in time first; `gpuOf(point)` gives a point's GPU
/// id. Empty when
/// `reference` is out of range.
QList<qsizetype> indistinguishableFrom(const QList<ProjectedOffer> &points, qsizetype reference,
                                       const std::function<QString(qsizetype)> &gpuOf, int limit = 3);

/// Default network bandwidth (Gbps) of an instance without a figure: 10 for the clouds, 1 for vast.ai
/// (separate hosts over the internet).
double defaultNetworkGbps(ProviderKind provider);

/// The order of every time-sorted list (tables, reports, CLI): projected points first, fastest
/// first, ties by lower cost; unprojected points keep their order at the end (use a stable sort).
inline bool fasterThan(const ProjectedOffer &x, const ProjectedOffer &y)
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

#pragma once

#include <QStringView>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <optional>

namespace gf {

// ---------------------------------------------------------------------------------------------
// Spot interruption model (models/projection/PROJECTION.md explains the mappings)
// ---------------------------------------------------------------------------------------------

enum class ProviderKind : quint8
{
    Aws,
    Gcp,
    Azure,
    Paperspace,
    Vastai,
    Other
};
/// Exact match on the provider ids of the catalog ("aws", "gcp", "azure", "paperspace", "vastai").
ProviderKind providerKind(QStringView provider);

/// AWS Spot Instance Advisor "frequency of interruption" bucket (share of instances interrupted per month).
enum class AwsBucket : quint8
{
    Unknown,
    Below5,
    From5To10,
    From10To15,
    From15To20,
    Above20
};
/// "<5%", "5-10%", "10-15%", "15-20%", ">20%"; anything else is Unknown.
AwsBucket awsBucketFromLabel(QStringView label);

/// Hours in a month (8760 / 12).
inline constexpr double kHoursPerMonth = 730.0;
/// Monthly interruption share assumed for each AWS bucket: the midpoint; the open ">20%" bucket 25%.
double awsBucketMonthlyShare(AwsBucket bucket);
/// An AWS spot offer without a bucket is treated like the worst bucket (">20%").
inline constexpr double kAwsUnknownMonthlyShare = 0.25;
/// GCP spot/preemptible: Google's published historical preemption rate of 5-15 % per day -> 10 %/day.
inline constexpr double kGcpInterruptionsPerHour = 0.10 / 24.0;
/// Azure spot (eviction-rate bands are not in the catalogs): the GCP figure.
inline constexpr double kAzureInterruptionsPerHour = 0.10 / 24.0;
/// Paperspace sells no spot capacity; should a spot price appear, and for unknown providers: the GCP figure.
inline constexpr double kDefaultInterruptionsPerHour = 0.10 / 24.0;
/// vast.ai interruptible: (1 - reliability) per hour; an offer without a reliability figure counts as 0.98.
inline constexpr double kVastDefaultReliability = 0.98;

struct InterruptionRate
{
    double perHour = 0;   ///< expected interruptions per instance-hour
    bool assumed = false; ///< true when no per-offer figure (bucket / reliability) backs the rate
};

/// Interruption rate of ONE spot instance of the provider.
InterruptionRate spotInterruptionRate(ProviderKind provider, AwsBucket bucket,
                                      std::optional<double> reliability);

// ---------------------------------------------------------------------------------------------
// Run cost
// ---------------------------------------------------------------------------------------------

/// Seconds billed for `seconds` of use: rounded UP to the increment (<= 0 counts as 1 s), at least
/// the minimum (< 0 counts as 0). A tolerance of 1e-6 of an increment absorbs floating-point noise, so
/// 3600.0000000001 s in 60 s increments bills 3600 s.
inline double billedSeconds(double seconds, int incrementS, int minimumS);

struct RunCostInput
{
    double totalSamples = 0;
    double samplesPerS = 0;          ///< whole job
    double usdPerHour = 0;           ///< ONE instance
    int nodes = 1;                   ///< instances billed
    double setupHours = 0;           ///< boot, image pull, data staging (billed)
    double interruptionsPerHour = 0; ///< per instance; 0 for on-demand
    double checkpointHours = 0.5;    ///< checkpoint interval
    double restoreHours = 1.0 / 6.0; ///< new instance + setup + checkpoint load after an interruption
    int billingIncrementS = 1;
    int billingMinimumS = 0;
};

struct RunCost
{
    bool timeOk = false; ///< throughput and samples valid: the hours are meaningful
    bool costOk = false; ///< also a positive finite price: the dollars are meaningful
    double trainHours = 0;
    double setupHours = 0;
    double expectedInterruptions = 0;
    double interruptionHours = 0;
    double totalHours = 0;      ///< setup + train + interruption overhead (wall clock)
    double billedHours = 0;     ///< per instance, after increment and minimum
    double costUsd = 0;         ///< billedHours x usdPerHour x nodes
    double usdPerHourTotal = 0; ///< usdPerHour x nodes
    double samplesPerUsd = 0; ///< samples/s x 3600 / (usdPerHour x nodes): the run-length-free ranking figure
};

/// trainHours = samples / (samples/s) / 3600;
/// expected interruptions = interruptionsPerHour x nodes x (setup + train)  (any node's loss stalls the
/// synchronous job; first order: interruptions during the overhead itself are neglected);
/// overhead = interruptions x (checkpoint/2 + restore);  total = setup + train + overhead;
/// cost = billedSeconds(total) / 3600 x price x nodes.
inline RunCost computeRunCost(const RunCostInput &in);

// Inline: called once per projected point (millions per call of projectOffers).
inline double billedSeconds(double seconds, int incrementS, int minimumS)
{
    if (!std::isfinite(seconds) || seconds < 0)
        seconds = 0;
    const double inc = incrementS > 0 ? incrementS : 1;
    const double units = std::ceil(seconds / inc - 1e-6); // absorb floating-point noise
    return std::max(units * inc, static_cast<double>(std::max(0, minimumS)));
}

inline RunCost computeRunCost(const RunCostInput &in)
{
    RunCost c;
    const int nodes = std::max(1, in.nodes);
    if (!(in.samplesPerS > 0) || !std::isfinite(in.samplesPerS) || !(in.totalSamples > 0) ||
        !std::isfinite(in.totalSamples))
        return c;
    c.setupHours = std::isfinite(in.setupHours) ? std::max(0.0, in.setupHours) : 0.0;
    c.trainHours = in.totalSamples / in.samplesPerS / 3600.0;
    const double rate = std::isfinite(in.interruptionsPerHour) ? std::max(0.0, in.interruptionsPerHour) : 0.0;
    const double ckpt = std::isfinite(in.checkpointHours) ? std::max(0.0, in.checkpointHours) : 0.0;
    const double restore = std::isfinite(in.restoreHours) ? std::max(0.0, in.restoreHours) : 0.0;
    c.expectedInterruptions = rate * nodes * (c.setupHours + c.trainHours);
    c.interruptionHours = c.expectedInterruptions * (ckpt / 2.0 + restore);
    c.totalHours = c.setupHours + c.trainHours + c.interruptionHours;
    c.timeOk = std::isfinite(c.totalHours);
    if (!c.timeOk)
        return c;
    c.billedHours = billedSeconds(c.totalHours * 3600.0, in.billingIncrementS, in.billingMinimumS) / 3600.0;
    if (!(in.usdPerHour > 0) || !std::isfinite(in.usdPerHour))
        return c; // zero, negative or missing price: hours are known, dollars are not
    c.usdPerHourTotal = in.usdPerHour * nodes;
    c.costUsd = c.billedHours * c.usdPerHourTotal;
    c.samplesPerUsd = in.samplesPerS * 3600.0 / c.usdPerHourTotal;
    c.costOk = std::isfinite(c.costUsd) && std::isfinite(c.samplesPerUsd);
    return c;
}

} // namespace gf

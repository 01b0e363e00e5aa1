#pragma once

#include "domain/provider.h"

#include <QStringView>
#include <QtGlobal>

#include <algorithm>
#include <cmath>
#include <optional>

namespace gf {

// ---------------------------------------------------------------------------------------------
// Spot interruption model (models/projection/PROJECTION.md explains the mappings)
// ---------------------------------------------------------------------------------------------

// ProviderKind and providerKind(): domain/provider.h (the one list of providers).

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

// The interruption rates themselves are data: projection/spotdefaults.h reads
// resources/spot_interruption.csv and resources/spot_aws_buckets.csv (resources/SPOT.md).

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
    std::optional<double>
        maxRuntimeHours; ///< capacity that always stops after this runtime (GCP preemptible)
    int billingIncrementS = 1;
    int billingMinimumS = 0;
};

struct RunCost
{
    bool timeOk = false; ///< throughput and samples valid: the hours are meaningful
    bool costOk = false; ///< also a positive finite price: the dollars are meaningful
    double trainHours = 0;
    double setupHours = 0;
    double expectedInterruptions = 0; ///< random reclaims + capped stops, whole job
    double cappedStops = 0;           ///< of which: stops at the capacity's maximum runtime
    double interruptionHours = 0;     ///< wall-clock overhead of the interruptions
    bool neverFinishes = false;       ///< rate x (checkpoint/2 + restore) >= 1: no progress on average
    double totalHours = 0;            ///< setup + train + interruption overhead (wall clock)
    double billedHours = 0;           ///< per instance, after increment and minimum
    double costUsd = 0;               ///< billedHours x usdPerHour x nodes
    double usdPerHourTotal = 0;       ///< usdPerHour x nodes
    double samplesPerUsd = 0; ///< samples/s x 3600 / (usdPerHour x nodes): the run-length-free ranking figure
};

/// trainHours = samples / (samples/s) / 3600; T = setup + train; o = checkpoint/2 + restore (the time one
/// interruption costs); R = interruptionsPerHour x nodes (any node's loss stalls the synchronous job);
/// capped stops C = floor(T / maxRuntime) when the capacity has a cap;
/// renewal form (interruptions during restores count too): wall = (T + C x o) / (1 - R x o);
/// expected interruptions = R x wall + C; overhead = wall - T; total = wall;
/// R x o >= 1: the run never finishes (timeOk false, neverFinishes true);
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
    const double work = c.setupHours + c.trainHours;
    const double lost = ckpt / 2.0 + restore;
    const double jobRate = rate * nodes;
    if (in.maxRuntimeHours && *in.maxRuntimeHours > 0 && std::isfinite(*in.maxRuntimeHours))
        c.cappedStops = std::floor(work / *in.maxRuntimeHours);
    if (jobRate * lost >= 1.0) {
        c.neverFinishes = true;
        return c;
    }
    const double wall = (work + c.cappedStops * lost) / (1.0 - jobRate * lost);
    c.expectedInterruptions = jobRate * wall + c.cappedStops;
    c.interruptionHours = wall - work;
    c.totalHours = wall;
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

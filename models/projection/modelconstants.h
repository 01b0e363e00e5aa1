#pragma once

#include "domain/gpuspecs.h"
#include "util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>
#include <QStringList>

#include <array>
#include <cmath>
#include <optional>
#include <utility>
#include <vector>

namespace gf {

/// Which evidence a projected single-GPU speed rests on (models/projection/PROJECTION.md section 3).
enum class ProjectionTier : quint8
{
    None = 0,          ///< not projected
    Measured,          ///< this workload was measured on this GPU (shipped table or the user's own figure)
    MeasuredConverted, ///< measured on this GPU in another software stack, converted to the reference stack
    Transferred,       ///< measured on other GPUs, one of them of this GPU's architecture
    TransferredCrossArch,   ///< measured on other GPUs, none of this GPU's architecture
    TransferredOtherVendor, ///< measured on NVIDIA GPUs only, projected onto an AMD/TPU part
    Roofline,               ///< no measurement of this workload anywhere: the model's absolute speed
};
inline constexpr int kProjectionTierCount = 7;

/// "measured", "measured-converted", "transferred", "transferred-cross-arch",
/// "transferred-other-vendor", "roofline"; empty for None.
QString projectionTierName(ProjectionTier tier);
/// One sentence for tooltips and reports.
QString projectionTierDescription(ProjectionTier tier);

/// 10th and 90th percentile of e = ln(projected / measured) on held-out data: the true time of a run
/// lies in projected time x [exp(p10), exp(p90)] (8 times out of 10 on the validation data), the true
/// speed in projected speed x [exp(-p90), exp(-p10)].
struct LogRange
{
    double p10 = 0;
    double p90 = 0;
    /// The range widened by another independent source of error (percentiles added: conservative).
    LogRange widened(const LogRange &other) const
    {
        return {p10 + std::min(0.0, other.p10), p90 + std::max(0.0, other.p90)};
    }
    /// The range combined with another independent source of error, each side in quadrature (the
    /// typical-stack conversion, PROJECTION.md section 3.6: its held-out coverage chose this rule).
    LogRange combined(const LogRange &other) const
    {
        return {-std::hypot(std::min(0.0, p10), std::min(0.0, other.p10)),
                std::hypot(std::max(0.0, p90), std::max(0.0, other.p90))};
    }
    /// The wider of the two on each side.
    LogRange envelope(const LogRange &other) const
    {
        return {std::min(p10, other.p10), std::max(p90, other.p90)};
    }
};

/// The fitted constants of projection model v2 and the per-tier uncertainty, as shipped in
/// resources/benchmarks/model_v2.json (written by resources/tools/fit_projection.py --write).
struct ModelConstants
{
    double beta = 0.5824;         ///< weight of the memory time per byte
    double epsTflopsPerW = 3.808; ///< power limit of the tensor rate, TFLOP/s per W (fp16 ops); 0 = none
    double p = 1.0;        ///< compute and memory times combined as (t_c^p + t_m^p)^(1/p); p >= 50: max()
    double gamma = 1.3711; ///< rate multiplier of half-rate FP32-accumulate parts (GeForce, L40)
    std::array<double, kPrecisionCount> rho{1.7099, 0.9789, 1.0, 1.0, 1.0}; ///< path efficiency per precision
    std::array<double, kPrecisionCount> powerOps{0.0, 0.5, 1.0, 1.0,
                                                 2.0}; ///< ops per joule vs fp16; 0 = no power term
    double phi = 0.5899;                               ///< absolute efficiency of the roofline tier
    double sameArchWeight = 3.0; ///< transfer weight of a reference GPU of the target's architecture
    /// Per-step traffic per trainable parameter that a workload's bytes per sample counts (weights,
    /// gradients, Adam state: the definition of workloads.json); shapeAt takes it out ...
    double bytesPerParamPerStep = 40.0;
    double kappa = 40.0; ///< ... and puts the model's own per-step traffic (B per parameter and step) back
    std::array<LogRange, kProjectionTierCount> tierRanges{}; ///< indexed by ProjectionTier
    LogRange singlePrecisionTransfer; ///< transferred tiers when the GPU runs TF32/FP32
    LogRange precisionScaled;         ///< a measurement scaled from mixed precision to TF32/FP32 or back
    LogRange batchScaled;             ///< a measurement scaled to another batch (documented, not applied)

    /// Leave-one-GPU-out validation: per held-out GPU id, the constants refitted without any
    /// measurement of that GPU (model_v2.json "validation_folds"; ranges are the shipped ones).
    QStringList foldGpuIds;
    std::vector<ModelConstants> folds; ///< parallel to foldGpuIds

    LogRange range(ProjectionTier tier) const { return tierRanges[static_cast<std::size_t>(tier)]; }
    /// The constants fitted without `gpuId`'s measurements; nullptr when model_v2.json has none.
    const ModelConstants *fold(const QString &gpuId) const;
    ModelConstants *fold(const QString &gpuId)
    {
        return const_cast<ModelConstants *>(std::as_const(*this).fold(gpuId));
    }

    /// Parses model_v2.json ({"schema_version":1,"constants":{...},"tier_ranges":{...},"uncertainty":{...}}).
    static Result<ModelConstants> fromJson(const QByteArray &json);
    /// The constants shipped inside the application.
    static const ModelConstants &builtin();
};

/// Reads one model_v2.json "constants" object (the fitted and fixed constants, not the ranges) into `m`;
/// returns the first key that is missing or out of range, else an empty string.
QString readModelConstants(const QJsonObject &constants, ModelConstants &m);

/// A finite JSON number above zero (or at least zero with `orZero`): the check of the model's data files.
bool isPositiveNumber(const QJsonValue &v, bool orZero = false);
/// {p10, p90} of a JSON object {"p10": .., "p90": ..} with p10 <= p90, else nothing.
std::optional<LogRange> logRangeOfObject(const QJsonObject &o);

} // namespace gf

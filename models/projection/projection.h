#pragma once

#include "domain/gpuspecs.h"
#include "domain/workload.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>

namespace gf {

class GpuCatalog;
struct ProbeResult;

// ---------------------------------------------------------------------------------------------
// Model constants (models/projection/PROJECTION.md justifies each one).
// ---------------------------------------------------------------------------------------------

/// Default fraction of the datasheet dense peak that large GEMMs reach, per precision
/// (fp32, tf32, fp16, bf16, fp8): typical cuBLAS results on A100/H100-class parts.
inline constexpr std::array<double, kPrecisionCount> kDefaultComputeEfficiency{0.85, 0.70, 0.75, 0.75, 0.65};
/// Default fraction of the datasheet memory bandwidth a large device copy reaches.
inline constexpr double kDefaultMemoryEfficiency = 0.85;
/// Measured/datasheet ratios are clamped into [kMinEfficiency, kMaxEfficiency].
inline constexpr double kMinEfficiency = 0.02;
inline constexpr double kMaxEfficiency = 1.0;

/// Fraction of the nominal link bandwidth an NCCL ring all-reduce reaches (bus bandwidth).
inline constexpr double kNvlinkEfficiency = 0.80;
inline constexpr double kPcieEfficiency = 0.60;
inline constexpr double kNetworkEfficiency = 0.70;
/// Share of a step's compute time that can hide gradient communication (DDP bucket overlap).
inline constexpr double kDefaultOverlap = 0.5;
/// Bytes per gradient element exchanged (PyTorch AMP keeps fp32 gradients).
inline constexpr double kDefaultBytesPerGradient = 4.0;
/// Arithmetic intensity assumed for a measured custom workload given without FLOPs and bytes (FLOP/byte):
/// only the transfer to other GPUs uses it, and only the ratio of FLOPs to bytes matters there.
inline constexpr double kDefaultArithmeticIntensity = 100.0;

// ---------------------------------------------------------------------------------------------
// Calibration
// ---------------------------------------------------------------------------------------------

/// What a probe run measured on one GPU. Model v2 uses the measured GEMM rates and bandwidth of the
/// probed GPU in place of its datasheet figures (that GPU only); the efficiency factors (measured /
/// datasheet) are what today's model (v1) applied to every GPU and what the reports show.
struct Calibration
{
    std::array<double, kPrecisionCount> computeEfficiency = kDefaultComputeEfficiency;
    double memoryEfficiency = kDefaultMemoryEfficiency;
    bool measured = false; ///< true when at least one factor comes from a GPU probe
    QString source;        ///< one line for the user: "datasheet-only defaults", "probe of ..."
    QString probedGpuId;   ///< canonical id of the probed GPU, empty when none
    QStringList notes;     ///< what was measured, clamped, defaulted or could not be resolved
    /// What the probe measured on probedGpuId (not clamped): sustained dense GEMM TFLOP/s per precision
    /// (0 = not measured) and copy bandwidth GB/s (0 = not measured). Model v2 uses them for that GPU
    /// only, in place of its datasheet rate and bandwidth (PROJECTION.md section 2).
    std::array<double, kPrecisionCount> measuredTflops{};
    double measuredMemBandwidthGbs = 0;

    /// The probe measured something usable on `gpuId`.
    bool probed(const QString &gpuId) const { return measured && !gpuId.isEmpty() && gpuId == probedGpuId; }

    double compute(Precision p) const
    {
        return computeEfficiency[static_cast<std::size_t>(precisionIndex(p))];
    }
};

/// The calibration as JSON (source, measured, probed_gpu, compute_efficiency per precision,
/// memory_efficiency, notes): the shape of the report's "calibration" object without "probe".
QJsonObject calibrationToJson(const Calibration &c);

/// The documented defaults (no probe).
Calibration defaultCalibration();

/// Efficiencies = measured / datasheet on the probed GPU. The device name is resolved with
/// GpuCatalog::resolve("", name). A CPU probe, an unresolved name or a GPU without a spec row gives
/// the defaults with a note saying why ("datasheet-only"). Precisions the probe did not measure keep
/// their default; ratios outside [kMinEfficiency, kMaxEfficiency] are clamped with a note.
Calibration calibrationFromProbe(const ProbeResult &probe, const GpuSpecTable &specs, const GpuCatalog &gpus);

// ---------------------------------------------------------------------------------------------
// Today's model (v1): the max() roofline. Model v2 (speedmodel.h) replaced it for projections; it is
// kept as the baseline of `gpufrontier-cli validate`.
// ---------------------------------------------------------------------------------------------

struct GpuThroughput
{
    bool ok = false; ///< false: no rate for any usable precision (or invalid input)
    double samplesPerS = 0;
    Precision precisionUsed = Precision::Fp32;
    bool precisionFallback = false; ///< the workload's precision has no rate on this GPU
    bool computeBound = true;
    double computeSPerSample = 0; ///< FLOPs / (peak * efficiency)
    double memorySPerSample = 0;  ///< bytes / (bandwidth * efficiency)
};

/// Roofline (v1): time per sample = max(F / (peak_prec * eff_prec), B / (bw * eff_mem)); samples/s = 1 /
/// that.
GpuThroughput rooflineThroughput(const GpuSpec &gpu, double flopsPerSample, double bytesPerSample,
                                 Precision precision, const Calibration &cal);

// ---------------------------------------------------------------------------------------------
// Data-parallel scaling
// ---------------------------------------------------------------------------------------------

/// Nominal PCIe x16 bandwidth per direction, GB/s: gen3 16, gen4 32, gen5 64, gen6 128 (gen1 4, gen2 8);
/// unknown (0) counts as gen3.
double pcieGbsPerDirection(int gen);
/// Effective per-direction GB/s of the GPU-to-GPU link inside an instance: NVLink/NVSwitch when the
/// instance says so and the spec has an interconnect figure (interconnectGbs / 2 x kNvlinkEfficiency),
/// else PCIe of the spec's generation x kPcieEfficiency.
double nvlinkEffectiveGBps(const GpuSpec &gpu);
double pcieEffectiveGBps(const GpuSpec &gpu);
/// Effective GB/s per node over the network: Gbps / 8 x kNetworkEfficiency.
double networkEffectiveGBps(double gbps);

struct ScalingInput
{
    double singleGpuSamplesPerS = 0; ///< one whole GPU
    double gpusPerInstance = 1;      ///< N; < 1 for a shared (fractional) GPU
    int nodes = 1;                   ///< K instances in one data-parallel job
    double parameters = 0;           ///< all-reduced elements
    double bytesPerGradient = kDefaultBytesPerGradient;
    int batchPerGpu = 32;
    double overlap = kDefaultOverlap;
    double intraGBps = 0; ///< effective per-direction GPU link inside an instance (N >= 2)
    double interGBps = 0; ///< effective network per node (K >= 2)
};

struct ScalingResult
{
    bool ok = false;
    double samplesPerS = 0;     ///< whole job (all GPUs of all nodes)
    double computeSPerStep = 0; ///< batch / single-GPU rate
    double allReduceSPerStep = 0;
    double exposedCommSPerStep = 0; ///< max(0, allReduce - overlap x compute)
    double stepS = 0;
    double efficiency = 1;         ///< samplesPerS / (GPUs x single-GPU rate)
    double computeSamplesPerS = 0; ///< the rate without any communication: GPUs x single-GPU rate
};

/// Data-parallel throughput of K nodes x N GPUs:
///   fractional N < 1 (K = 1): N x single rate (time-sliced / MIG share), no communication;
///   else step compute t_c = batch / rate; ring all-reduce of G = parameters x bytesPerGradient:
///   t_ar = 2(N-1)/N x G / intra + 2(K-1)/K x G / inter (hierarchical: in-node ring, then the nodes'
///   NICs carry the whole gradient once more); exposed = max(0, t_ar - overlap x t_c);
///   samples/s = N K batch / (t_c + exposed).
inline ScalingResult scaleDataParallel(const ScalingInput &in);

// Inline: called once per projected point.
inline ScalingResult scaleDataParallel(const ScalingInput &in)
{
    ScalingResult r;
    const double rate = in.singleGpuSamplesPerS;
    const double n = in.gpusPerInstance;
    if (!(rate > 0) || !std::isfinite(rate) || !(n > 0) || !std::isfinite(n) || in.nodes < 1 ||
        in.batchPerGpu < 1)
        return r;
    if (n < 1.0) {
        // A share of one GPU: no gradient exchange inside the instance, throughput in proportion.
        // Multi-node jobs on fractional GPUs are not modelled.
        if (in.nodes > 1)
            return r;
        r.samplesPerS = n * rate;
        r.computeSamplesPerS = r.samplesPerS;
        r.computeSPerStep = in.batchPerGpu / rate;
        r.stepS = r.computeSPerStep;
        r.efficiency = 1;
        r.ok = true;
        return r;
    }
    const double k = in.nodes;
    const double grad = std::max(0.0, in.parameters) * std::max(0.0, in.bytesPerGradient);
    r.computeSPerStep = in.batchPerGpu / rate;
    double ar = 0;
    if (n > 1.0 && grad > 0) {
        if (!(in.intraGBps > 0))
            return r;
        ar += 2.0 * (n - 1.0) / n * grad / (in.intraGBps * 1e9);
    }
    if (k > 1.0 && grad > 0) {
        if (!(in.interGBps > 0))
            return r;
        ar += 2.0 * (k - 1.0) / k * grad / (in.interGBps * 1e9);
    }
    const double overlap = std::clamp(in.overlap, 0.0, 1.0);
    r.allReduceSPerStep = ar;
    r.exposedCommSPerStep = std::max(0.0, ar - overlap * r.computeSPerStep);
    r.stepS = r.computeSPerStep + r.exposedCommSPerStep;
    const double gpus = n * k;
    r.samplesPerS = gpus * in.batchPerGpu / r.stepS;
    r.computeSamplesPerS = gpus * rate;
    r.efficiency = r.samplesPerS / r.computeSamplesPerS;
    r.ok = std::isfinite(r.samplesPerS) && r.samplesPerS > 0;
    return r;
}

} // namespace gf

#pragma once

#include "util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gf {

/// How a measurement's GPU busy share was measured (gf_measure.py's gpu_busy_method; PROJECTION.md section
/// 3.27, rule S4).
enum class BusyMethod : quint8
{
    Unknown,  ///< not stated (counts as nvidia-smi: anything but the profiler)
    Profiler, ///< torch.profiler's kernel, copy and set intervals over the step (the synthetic runs)
    NvidiaSmi ///< nvidia-smi's utilization.gpu (a user's own command; a share typed in), which reads high
};

/// "profiler", "nvidia-smi" or "" (unknown).
QString busyMethodName(BusyMethod m);

/// Where a measured training throughput comes from.
enum class MeasurementKind : quint8
{
    Benchmark, ///< a public measured figure shipped with the application (resources/benchmarks/)
    User,      ///< imported by the user: a measurement run on a rented offer (`measure --import`, GUI)
    Probe      ///< derived from a probe run of this GPU (GEMM / bandwidth figures only)
};

/// One measured training throughput of a workload on a GPU model: the input of the projection's
/// "measured" tier (this workload on this GPU) and of its "transferred" tier (this workload on other
/// GPUs). Plain value; the shipped table, the store and the importers all produce it.
struct ThroughputMeasurement
{
    QString workloadId;           ///< workload preset id ("resnet50") or a custom workload's name
    QString gpuId;                ///< canonical GPU id (resources/gpus.csv)
    double samplesPerSPerGpu = 0; ///< samples/s per GPU (the figure over all GPUs / gpuCount)
    int gpuCount = 1;             ///< GPUs the measurement ran on (multi-GPU figures include scaling loss)
    int batchPerGpu = 0;          ///< per-GPU micro-batch; 0 = unknown
    QString precision;            ///< "fp16", "bf16", "tf32", "fp32", "fp8" (empty = unknown)
    MeasurementKind kind = MeasurementKind::Benchmark;
    QString source;       ///< where it came from, for tooltips and reports (source id + title, file, offer)
    QString offerKey;     ///< User kind: "provider/instance_type/region" it was measured on; else empty
    QDateTime measuredAt; ///< when it was measured or imported (UTC); invalid = unknown
    /// User kind: the share of the measured step in which the GPU was busy (gf_measure.py's
    /// gpu_busy_fraction, PROJECTION.md section 3.22), in (0, 1]; 0 = not measured. Well under 1, the
    /// host (dispatch or input) set the speed, and a faster GPU would not shorten that step.
    double gpuBusyFraction = 0;
    /// How gpuBusyFraction was measured (gpu_busy_method; rule S4, section 3.27).
    BusyMethod gpuBusyMethod = BusyMethod::Unknown;
};

using ThroughputMeasurements = QList<ThroughputMeasurement>;

/// A measurement document's "gpu_busy_fraction" (PROJECTION.md section 3.22): 0 when it is absent or null,
/// the value when it lies in (0, 1]; an error naming the field otherwise. The importer checks documents with
/// it, the store reads stored ones back with it.
Result<double> gpuBusyFractionOf(const QJsonObject &document);
/// A measurement document's "gpu_busy_method" (rule S4, PROJECTION.md section 3.27): Unknown when it is
/// absent or null, Profiler or NvidiaSmi for "profiler" or "nvidia-smi"; an error naming the field otherwise.
Result<BusyMethod> gpuBusyMethodOf(const QJsonObject &document);

} // namespace gf

#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// One GEMM measurement of the probe.
struct ProbeGemm
{
    QString dtype; ///< fp32, tf32, fp16, bf16, fp8 (cuda); fp32, fp64 (cpu)
    int m = 0, n = 0, k = 0;
    double tflops = 0;                 ///< median over repetitions, dense, 2*m*n*k per GEMM
    std::optional<double> maxRelError; ///< against the reference on the small check case
};

/// A probe run as read from the probe's JSON document (probes/README.md documents the schema).
struct ProbeResult
{
    int schemaVersion = 0;
    QString kind; ///< "cuda" or "cpu"
    QString probeVersion;
    QDateTime createdAt; ///< UTC
    QString hostName;
    bool quick = false;

    // Device facts
    QString deviceName;        ///< e.g. "NVIDIA H100 80GB HBM3", or the CPU model
    QString computeCapability; ///< "9.0"; empty for cpu
    int smCount = 0;           ///< SMs (cuda) or hardware threads used (cpu)
    double memoryGb = 0;       ///< device memory (cuda) or host RAM (cpu), GB
    double smClockMhz = 0;
    double memClockMhz = 0;
    int memBusWidthBits = 0;
    int pcieGen = 0;
    int pcieWidth = 0;
    double peakMemBandwidthGbs = 0; ///< datasheet-style peak from clock x bus width (cuda); 0 = unknown
    QString driverVersion;
    QString cudaVersion;

    // Measurements (best over shapes; absent = not measured / not supported)
    QList<ProbeGemm> gemms;
    std::optional<double> fp32Tflops;
    std::optional<double> tf32Tflops;
    std::optional<double> fp16Tflops;
    std::optional<double> bf16Tflops;
    std::optional<double> fp8Tflops;
    std::optional<double> fp64Tflops;       ///< cpu probe only
    std::optional<double> memBandwidthGbs;  ///< device (or host) memory, read+write bytes counted
    std::optional<double> h2dGbs;           ///< pinned host -> device
    std::optional<double> d2hGbs;           ///< device -> pinned host
    std::optional<double> launchOverheadUs; ///< empty kernel launch, microseconds
    double elapsedS = 0;
};

/// A stored probe run (the store keeps them, store/proberecord.h; chooseCalibration reads them).
struct ProbeRunRecord
{
    qint64 id = 0;
    QDateTime createdAt;
    QString origin;
    QString kind;
    QString deviceName;
    QString gpuId;
    int schemaVersion = 0;
    QByteArray json;
};

} // namespace gf

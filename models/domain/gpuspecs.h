#pragma once

#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

#include <array>
#include <optional>

namespace gf {

/// Arithmetic precision of a training workload; selects a peak-rate column of gpu_specs.csv.
enum class Precision : quint8
{
    Fp32 = 0,
    Tf32 = 1,
    Fp16 = 2,
    Bf16 = 3,
    Fp8 = 4
};
inline constexpr int kPrecisionCount = 5;

inline constexpr int precisionIndex(Precision p)
{
    return static_cast<int>(p);
}
/// "fp32", "tf32", "fp16", "bf16", "fp8".
QString precisionName(Precision p);
/// Parses a precision name (case-insensitive); nullopt when unknown.
std::optional<Precision> precisionFromName(QStringView name);
/// Every precision name, in enum order.
QStringList precisionNames();

/// Datasheet figures of one canonical GPU (one row of resources/gpu_specs.csv, see resources/GPUS.md).
/// Rates are dense peak TFLOP/s; 0 means "not supported / not published" (the empty CSV field).
struct GpuSpec
{
    QString id;
    std::array<double, kPrecisionCount> peakTflops{}; ///< indexed by precisionIndex()
    double memoryGb = 0;
    double memBandwidthGbs = 0; ///< device memory bandwidth, GB/s
    double tdpW = 0;            ///< 0 = unknown
    double interconnectGbs = 0; ///< per-GPU NVLink-class bandwidth, both directions summed; 0 = PCIe only
    int pcieGen = 0;            ///< host link generation; 0 = unknown / not PCIe
    double l2CacheMb = 0;       ///< on-die L2, MB; 0 = unknown (not used by the speed model yet)
    QString source;

    double peak(Precision p) const { return peakTflops[static_cast<std::size_t>(precisionIndex(p))]; }

    /// The precision whose peak rate is used for a workload in `wanted`, after the documented
    /// fallback (GPUS.md): bf16 -> fp16 -> fp32; fp16 -> bf16 -> fp32; tf32 -> fp32;
    /// fp8 -> bf16 -> fp16 -> fp32; fp32 has no fallback. nullopt when no rate exists.
    std::optional<Precision> effectivePrecision(Precision wanted) const;
};

/// The GPU spec table: one GpuSpec per canonical GPU id.
class GpuSpecTable
{
public:
    GpuSpecTable() = default;

    /// Parses gpu_specs.csv (header id,fp32_tflops,tf32_tflops,fp16_tflops,bf16_tflops,fp8_tflops,
    /// memory_gb,mem_bw_gbs,tdp_w,interconnect_gbs,pcie_gen[,l2_cache_mb],source; '#' comment lines first;
    /// l2_cache_mb is optional, older tables lack it). Every number must be empty or a finite value >= 0;
    /// mem_bw_gbs and memory_gb must be > 0.
    static Result<GpuSpecTable> fromCsv(const QString &text);
    /// The table shipped inside the application (resources/gpu_specs.csv).
    static const GpuSpecTable &builtin();

    /// nullptr when the id has no row.
    const GpuSpec *spec(const QString &id) const;
    /// Row index of an id, -1 when absent.
    qsizetype indexOf(const QString &id) const { return m_byId.value(id, -1); }
    const QList<GpuSpec> &specs() const { return m_specs; }
    qsizetype size() const { return m_specs.size(); }

    /// Adds or replaces a row (tests, user-supplied specs). Returns an error for invalid values.
    Status insert(const GpuSpec &spec);

private:
    QList<GpuSpec> m_specs;
    QHash<QString, qsizetype> m_byId;
};

/// Checks one spec row's values; the error names the first bad field.
Status validateGpuSpec(const GpuSpec &spec);

} // namespace gf

#pragma once

#include "domain/gpuspecs.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>

namespace gf {

/// Architecture facts of one GPU id the speed model needs beyond the datasheet figures
/// (one row of resources/benchmarks/gpu_arch.csv; the columns are described in its header).
struct GpuArch
{
    QString id;
    QString arch;    ///< "volta", "ampere", "ampere-ga10x", "ada", "hopper", "blackwell", "cdna", "tpu", ...
    QString segment; ///< "datacenter", "workstation", "geforce"
    double l2Mb = 0; ///< last-level cache, MB; 0 = unknown
    /// The datasheet tensor rate with FP32 accumulate is half the FP16-accumulate rate (GeForce RTX,
    /// L40): gpu_specs.csv holds the half rate.
    bool halfRateFp32Acc = false;
    /// No resources/gpus.csv row: the GPU appears in the measured data only; its datasheet figures
    /// are in this table (fitOnlySpecs()) and it is never an offer's GPU.
    bool fitOnly = false;

    /// Not NVIDIA (AMD, TPU, Gaudi, AI100): no measurement of such a part in the shipped data.
    bool otherVendor() const;
};

/// The architecture table, with the datasheet rows of fit-only GPUs.
class GpuArchTable
{
public:
    GpuArchTable() = default;

    /// Parses gpu_arch.csv (header id,arch,segment,l2_mb,half_rate_fp32_acc,fit_only and, for fit-only
    /// rows, fp32_tflops..fp8_tflops,memory_gb,mem_bw_gbs,tdp_w; '#' comment lines first).
    static Result<GpuArchTable> fromCsv(const QString &text);
    /// The table shipped inside the application (resources/benchmarks/gpu_arch.csv).
    static const GpuArchTable &builtin();

    /// nullptr when the id has no row.
    const GpuArch *arch(const QString &id) const;
    const QList<GpuArch> &rows() const { return m_rows; }
    /// Datasheet rows of the fit-only GPUs (A30): the speed model uses them for measurements on
    /// GPUs that have no gpu_specs.csv row.
    const GpuSpecTable &fitOnlySpecs() const { return m_fitOnlySpecs; }

    /// Adds or replaces a row (tests).
    void insert(const GpuArch &row);

private:
    QList<GpuArch> m_rows;
    QHash<QString, qsizetype> m_byId;
    GpuSpecTable m_fitOnlySpecs;
};

} // namespace gf

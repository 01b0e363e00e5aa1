#pragma once

#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// Facts about one machine shape that a price source does not carry (resources/providers/*.csv).
struct MachineShape
{
    QString name;    ///< AWS instance type, Azure VM size (armSkuName) or GCP machine shape
    QString series;  ///< GCP: n1, a2, a3, g2
    QString gpuName; ///< provider spelling, resolved later through the GPU catalog
    double gpuCount = 0;
    std::optional<double> gpuMemGb;
    std::optional<double> vcpus;
    std::optional<double> ramGb;
    std::optional<double> networkGbps;
    QString interconnect;
    QString gpuId; ///< canonical id of resources/gpus.csv; empty: resolve the GPU name instead
};

/// A GCP SKU description prefix and what it names (gcp_gpu_skus.csv, gcp_series_skus.csv).
struct GcpSkuPrefix
{
    QString prefix;
    QString name; ///< GPU name or series
};

/// An instance family a provider lists with an on-demand price that cannot in practice be bought on
/// demand (resources/providers/on_demand_restrictions.csv).
struct OnDemandRestriction
{
    QString provider;
    QString prefix; ///< instance types starting with it
    QString reason;
};

/// The project's provider tables (resources/providers/*.csv), loaded once from the application resources:
/// facts about instance types that price sources do not carry, and the GPU variant of each type.
class ProviderTables
{
public:
    static const ProviderTables &builtin();
    /// Parses the tables from CSV texts (tests build small ones).
    static Result<ProviderTables> fromCsv(const QString &awsCsv, const QString &azureCsv,
                                          const QString &gcpMachinesCsv, const QString &gcpGpuSkusCsv,
                                          const QString &gcpSeriesSkusCsv, const QString &paperspaceCsv = {},
                                          const QString &onDemandRestrictionsCsv = {},
                                          const QString &awsFamiliesCsv = {});

    const MachineShape *awsInstance(const QString &instanceType) const;
    /// The GPU of an AWS instance family (aws_gpu_families.csv: name = family, gpuCount 0) for a size the
    /// instance table does not list: "g7.12xlarge" -> g7, RTX PRO 4500. nullptr for other families.
    const MachineShape *awsFamily(const QString &instanceType) const;
    const MachineShape *azureVmSize(const QString &armSkuName) const;
    const MachineShape *gcpMachine(const QString &name) const;
    const MachineShape *paperspaceMachine(const QString &instanceType) const;
    /// The shape of a provider's instance type: AWS instance type, Azure VM size (a trailing "_Promo" is
    /// ignored), GCP machine type (N1: "n1-standard-8+1xT4"), Paperspace machine type. nullptr for
    /// vast.ai and for types the tables lack.
    const MachineShape *machine(const QString &provider, const QString &instanceType) const;
    const QList<MachineShape> &gcpMachines() const { return m_gcpMachines; }
    const QList<GcpSkuPrefix> &gcpGpuSkus() const { return m_gcpGpuSkus; }
    const QList<GcpSkuPrefix> &gcpSeriesSkus() const { return m_gcpSeriesSkus; }
    QStringList azureVmSizes() const;
    /// Why the provider's instance type cannot be bought on demand; empty when it can.
    QString onDemandRestriction(const QString &provider, const QString &instanceType) const;
    /// AWS families (text before the '.') that have accelerators, e.g. "p4d", "g6e".
    bool awsAcceleratorFamily(QStringView family) const { return m_awsFamilies.contains(family.toString()); }

private:
    QHash<QString, MachineShape> m_aws;
    QHash<QString, MachineShape> m_awsFamilyShapes;
    QHash<QString, MachineShape> m_azure;
    QList<MachineShape> m_gcpMachines;
    QHash<QString, qsizetype> m_gcpByName;
    QHash<QString, MachineShape> m_paperspace;
    QList<GcpSkuPrefix> m_gcpGpuSkus;
    QList<GcpSkuPrefix> m_gcpSeriesSkus;
    QHash<QString, bool> m_awsFamilies;
    QList<OnDemandRestriction> m_onDemandRestrictions;
};

} // namespace gf

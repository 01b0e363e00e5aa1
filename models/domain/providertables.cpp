#include "domain/providertables.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <cmath>

namespace gf {

namespace {

std::optional<double> number(const QString &s, bool *ok)
{
    const QString t = s.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    bool good = false;
    const double v = t.toDouble(&good);
    if (!good || !std::isfinite(v)) {
        *ok = false;
        return std::nullopt;
    }
    return v;
}

Result<QList<MachineShape>> parseShapes(const QString &text, const QString &file, const QString &nameColumn)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(file, parsed.error().message));
    const CsvDocument &doc = parsed.value();
    const int cName = doc.column(nameColumn);
    const int cGpu = doc.column(QStringLiteral("gpu_name"));
    const int cCount = doc.column(QStringLiteral("gpu_count"));
    if (cName < 0 || cGpu < 0 || cCount < 0)
        return makeError(
            QStringLiteral("%1: the columns %2, gpu_name and gpu_count are required").arg(file, nameColumn));
    auto col = [&](const CsvRecord &r, const char *name) { return csvField(doc, r, name); };
    QList<MachineShape> out;
    for (const CsvRecord &r : doc.records) {
        if (r.fields.size() != doc.header.size())
            return makeError(QStringLiteral("%1: line %2 has %3 fields, the header has %4")
                                 .arg(file, QString::number(r.line), QString::number(r.fields.size()),
                                      QString::number(doc.header.size())));
        bool ok = true;
        MachineShape m;
        m.name = r.fields.at(cName).trimmed();
        m.series = col(r, "series");
        m.gpuName = r.fields.at(cGpu).trimmed();
        m.gpuCount = number(r.fields.at(cCount), &ok).value_or(0);
        m.gpuMemGb = number(col(r, "gpu_mem_gb"), &ok);
        m.vcpus = number(col(r, "vcpus"), &ok);
        m.ramGb = number(col(r, "ram_gb"), &ok);
        m.networkGbps = number(col(r, "network_gbps"), &ok);
        m.interconnect = col(r, "interconnect");
        m.gpuId = col(r, "gpu_id");
        if (!ok || m.name.isEmpty() || !(m.gpuCount > 0))
            return makeError(QStringLiteral("%1: line %2 is not a valid machine shape")
                                 .arg(file, QString::number(r.line)));
        out.append(m);
    }
    return out;
}

/// A table whose columns `required` must all be there and whose every line has the header's fields.
Result<CsvDocument> parseTable(const QString &text, const QString &file, const QStringList &required)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(file, parsed.error().message));
    for (const QString &c : required)
        if (parsed.value().column(c) < 0)
            return makeError(QStringLiteral("%1: the columns %2 are required")
                                 .arg(file, required.join(QStringLiteral(", "))));
    for (const CsvRecord &r : parsed.value().records)
        if (r.fields.size() != parsed.value().header.size())
            return makeError(QStringLiteral("%1: line %2 has %3 fields, the header has %4")
                                 .arg(file, QString::number(r.line), QString::number(r.fields.size()),
                                      QString::number(parsed.value().header.size())));
    return parsed;
}

Result<QList<GcpSkuPrefix>> parsePrefixes(const QString &text, const QString &file, const QString &nameColumn)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(file, parsed.error().message));
    const CsvDocument &doc = parsed.value();
    const int cPrefix = doc.column(QStringLiteral("description_prefix"));
    const int cName = doc.column(nameColumn);
    if (cPrefix < 0 || cName < 0)
        return makeError(
            QStringLiteral("%1: the columns description_prefix and %2 are required").arg(file, nameColumn));
    QList<GcpSkuPrefix> out;
    for (const CsvRecord &r : doc.records) {
        if (r.fields.size() != doc.header.size())
            return makeError(QStringLiteral("%1: line %2 has the wrong number of fields")
                                 .arg(file, QString::number(r.line)));
        out.append({r.fields.at(cPrefix).trimmed(), r.fields.at(cName).trimmed()});
    }
    return out;
}

} // namespace

Result<ProviderTables> ProviderTables::fromCsv(const QString &awsCsv, const QString &azureCsv,
                                               const QString &gcpMachinesCsv, const QString &gcpGpuSkusCsv,
                                               const QString &gcpSeriesSkusCsv, const QString &paperspaceCsv,
                                               const QString &onDemandRestrictionsCsv,
                                               const QString &awsFamiliesCsv)
{
    ProviderTables t;
    auto aws = parseShapes(awsCsv, QStringLiteral("aws_instance_types.csv"), QStringLiteral("instance_type"));
    if (!aws)
        return aws.error();
    for (const MachineShape &m : aws.value()) {
        t.m_aws.insert(m.name, m);
        t.m_awsFamilies.insert(m.name.section(u'.', 0, 0), true);
    }
    auto azure = parseShapes(azureCsv, QStringLiteral("azure_vm_sizes.csv"), QStringLiteral("vm_size"));
    if (!azure)
        return azure.error();
    for (const MachineShape &m : azure.value())
        t.m_azure.insert(m.name, m);
    auto gcp =
        parseShapes(gcpMachinesCsv, QStringLiteral("gcp_machine_types.csv"), QStringLiteral("instance_type"));
    if (!gcp)
        return gcp.error();
    t.m_gcpMachines = gcp.value();
    for (qsizetype i = 0; i < t.m_gcpMachines.size(); ++i)
        t.m_gcpByName.insert(t.m_gcpMachines.at(i).name, i);
    if (!paperspaceCsv.isEmpty()) {
        auto ps = parseShapes(paperspaceCsv, QStringLiteral("paperspace_machine_types.csv"),
                              QStringLiteral("instance_type"));
        if (!ps)
            return ps.error();
        for (const MachineShape &m : ps.value())
            t.m_paperspace.insert(m.name, m);
    }
    auto gpus = parsePrefixes(gcpGpuSkusCsv, QStringLiteral("gcp_gpu_skus.csv"), QStringLiteral("gpu_name"));
    if (!gpus)
        return gpus.error();
    t.m_gcpGpuSkus = gpus.value();
    auto series =
        parsePrefixes(gcpSeriesSkusCsv, QStringLiteral("gcp_series_skus.csv"), QStringLiteral("series"));
    if (!series)
        return series.error();
    t.m_gcpSeriesSkus = series.value();
    if (!awsFamiliesCsv.isEmpty()) {
        const QString file = QStringLiteral("aws_gpu_families.csv");
        auto doc =
            parseTable(awsFamiliesCsv, file,
                       {QStringLiteral("family"), QStringLiteral("gpu_name"), QStringLiteral("gpu_mem_gb"),
                        QStringLiteral("interconnect"), QStringLiteral("gpu_id")});
        if (!doc)
            return doc.error();
        for (const CsvRecord &r : doc.value().records) {
            auto f = [&](const char *name) {
                return r.fields.at(doc.value().column(QLatin1String(name))).trimmed();
            };
            bool ok = true;
            MachineShape m;
            m.name = f("family");
            m.gpuName = f("gpu_name");
            m.gpuMemGb = number(f("gpu_mem_gb"), &ok);
            m.interconnect = f("interconnect");
            m.gpuId = f("gpu_id");
            if (!ok || m.name.isEmpty() || m.gpuName.isEmpty())
                return makeError(QStringLiteral("%1: line %2 is not a valid GPU family")
                                     .arg(file, QString::number(r.line)));
            t.m_awsFamilies.insert(m.name, true);
            t.m_awsFamilyShapes.insert(m.name, m);
        }
    }
    if (!onDemandRestrictionsCsv.isEmpty()) {
        const QString file = QStringLiteral("on_demand_restrictions.csv");
        auto doc = parseTable(
            onDemandRestrictionsCsv, file,
            {QStringLiteral("provider"), QStringLiteral("instance_prefix"), QStringLiteral("reason")});
        if (!doc)
            return doc.error();
        for (const CsvRecord &r : doc.value().records) {
            auto f = [&](const char *name) {
                return r.fields.at(doc.value().column(QLatin1String(name))).trimmed();
            };
            const OnDemandRestriction x{f("provider"), f("instance_prefix"), f("reason")};
            if (x.provider.isEmpty() || x.prefix.isEmpty() || x.reason.isEmpty())
                return makeError(QStringLiteral("%1: line %2 is not a valid restriction")
                                     .arg(file, QString::number(r.line)));
            t.m_onDemandRestrictions.append(x);
        }
    }
    return t;
}

const ProviderTables &ProviderTables::builtin()
{
    static const ProviderTables tables = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("providers/aws_instance_types.csv")),
                         readResourceText(QStringLiteral("providers/azure_vm_sizes.csv")),
                         readResourceText(QStringLiteral("providers/gcp_machine_types.csv")),
                         readResourceText(QStringLiteral("providers/gcp_gpu_skus.csv")),
                         readResourceText(QStringLiteral("providers/gcp_series_skus.csv")),
                         readResourceText(QStringLiteral("providers/paperspace_machine_types.csv")),
                         readResourceText(QStringLiteral("providers/on_demand_restrictions.csv")),
                         readResourceText(QStringLiteral("providers/aws_gpu_families.csv")));
        if (!r)
            qFatal("the provider tables shipped with the application are broken: %s",
                   qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return tables;
}

const MachineShape *ProviderTables::awsInstance(const QString &instanceType) const
{
    auto it = m_aws.constFind(instanceType);
    return it == m_aws.constEnd() ? nullptr : &*it;
}

const MachineShape *ProviderTables::awsFamily(const QString &instanceType) const
{
    auto it = m_awsFamilyShapes.constFind(instanceType.section(u'.', 0, 0));
    return it == m_awsFamilyShapes.constEnd() ? nullptr : &*it;
}

const MachineShape *ProviderTables::azureVmSize(const QString &armSkuName) const
{
    auto it = m_azure.constFind(armSkuName);
    return it == m_azure.constEnd() ? nullptr : &*it;
}

const MachineShape *ProviderTables::gcpMachine(const QString &name) const
{
    auto it = m_gcpByName.constFind(name);
    return it == m_gcpByName.constEnd() ? nullptr : &m_gcpMachines.at(*it);
}

const MachineShape *ProviderTables::paperspaceMachine(const QString &instanceType) const
{
    auto it = m_paperspace.constFind(instanceType);
    return it == m_paperspace.constEnd() ? nullptr : &*it;
}

const MachineShape *ProviderTables::machine(const QString &provider, const QString &instanceType) const
{
    if (provider == u"aws")
        return awsInstance(instanceType);
    if (provider == u"azure") {
        static const QString kPromo = QStringLiteral("_Promo");
        return azureVmSize(instanceType.endsWith(kPromo) ? instanceType.chopped(kPromo.size())
                                                         : instanceType);
    }
    if (provider == u"gcp")
        return gcpMachine(instanceType);
    if (provider == u"paperspace")
        return paperspaceMachine(instanceType);
    return nullptr;
}

QString ProviderTables::onDemandRestriction(const QString &provider, const QString &instanceType) const
{
    for (const OnDemandRestriction &r : m_onDemandRestrictions)
        if (r.provider == provider && instanceType.startsWith(r.prefix))
            return r.reason;
    return {};
}

QStringList ProviderTables::azureVmSizes() const
{
    QStringList out = m_azure.keys();
    out.sort();
    return out;
}

} // namespace gf

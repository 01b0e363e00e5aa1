#include "launch/skypilotnames.h"

#include "domain/provider.h"
#include "launch/skypilotrules.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QRegularExpression>

#include <cmath>

namespace gf {

QString skypilotCloud(const QString &provider)
{
    const QString p = provider.toLower();
    if (const ProviderInfo *info = providerInfo(p))
        return info->skypilotCloud;
    for (const ProviderInfo &info : providers()) // SkyPilot's own name given ("vast")
        if (info.skypilotCloud == p)
            return info.skypilotCloud;
    return {};
}

Result<SkypilotAcceleratorTable> SkypilotAcceleratorTable::fromCsv(const QString &text)
{
    auto doc = parseCsv(text);
    if (!doc)
        return doc.error().prefixed(QStringLiteral("skypilot_accelerators.csv: "));
    const CsvDocument &d = doc.value();
    const int cId = d.column(QStringLiteral("gpu_id"));
    const int cAcc = d.column(QStringLiteral("accelerator"));
    const int cOver = d.column(QStringLiteral("overrides"));
    const int cVast = d.column(QStringLiteral("vast_type"));
    if (cId < 0 || cAcc < 0 || cOver < 0 || cVast < 0)
        return makeError(QStringLiteral(
            "skypilot_accelerators.csv: needs columns gpu_id, accelerator, overrides, vast_type"));
    SkypilotAcceleratorTable t;
    for (const CsvRecord &r : d.records) {
        auto field = [&](int c) { return c < r.fields.size() ? r.fields.at(c).trimmed() : QString(); };
        Row row;
        row.gpuId = field(cId);
        row.accelerator = field(cAcc);
        row.vastType = field(cVast);
        if (row.gpuId.isEmpty() || row.accelerator.isEmpty())
            return makeError(
                QStringLiteral("skypilot_accelerators.csv line %1: gpu_id and accelerator are required")
                    .arg(r.line));
        for (const QString &o : field(cOver).split(u'|', Qt::SkipEmptyParts)) {
            const qsizetype colon = o.indexOf(u':');
            if (colon <= 0 || colon == o.size() - 1)
                return makeError(QStringLiteral("skypilot_accelerators.csv line %1: override \"%2\" is not "
                                                "cloud:NAME or cloud/PREFIX:NAME")
                                     .arg(r.line)
                                     .arg(o));
            row.overrides.append({o.left(colon).trimmed(), o.mid(colon + 1).trimmed()});
        }
        if (t.m_byId.contains(row.gpuId))
            return makeError(QStringLiteral("skypilot_accelerators.csv line %1: %2 given twice")
                                 .arg(r.line)
                                 .arg(row.gpuId));
        t.m_byId.insert(row.gpuId, t.m_rows.size());
        t.m_rows.append(row);
    }
    return t;
}

const SkypilotAcceleratorTable &SkypilotAcceleratorTable::builtin()
{
    static const SkypilotAcceleratorTable table = [] {
        auto t = fromCsv(readResourceText(QStringLiteral("providers/skypilot_accelerators.csv")));
        if (!t)
            qFatal("%s", qPrintable(t.error().text()));
        return t.value();
    }();
    return table;
}

QString SkypilotAcceleratorTable::acceleratorName(const QString &gpuId, const QString &cloud,
                                                  const QString &instanceType) const
{
    const auto it = m_byId.constFind(gpuId);
    if (it == m_byId.cend())
        return {};
    const Row &row = m_rows.at(*it);
    // The most specific override first: cloud/PREFIX, then cloud.
    for (const auto &[key, name] : row.overrides) {
        const qsizetype slash = key.indexOf(u'/');
        if (slash > 0 && key.left(slash) == cloud && instanceType.startsWith(key.mid(slash + 1)))
            return name;
    }
    for (const auto &[key, name] : row.overrides)
        if (key == cloud)
            return name;
    return row.accelerator;
}

QString SkypilotAcceleratorTable::vastType(const QString &gpuId) const
{
    const auto it = m_byId.constFind(gpuId);
    return it == m_byId.cend() ? QString() : m_rows.at(*it).vastType;
}

Result<SkypilotPin> skypilotPin(const Offer &o, const SkypilotAcceleratorTable &table)
{
    SkypilotPin pin;
    pin.cloud = skypilotCloud(o.provider);
    if (pin.cloud.isEmpty())
        return makeError(QStringLiteral("SkyPilot has no cloud for provider \"%1\"").arg(o.provider));
    if (o.gpuId.isEmpty())
        return makeError(QStringLiteral("the GPU \"%1\" of this offer is not recognised").arg(o.gpuRawName));
    if (!(o.gpuCount >= 1) || o.gpuCount != std::floor(o.gpuCount) || o.gpuCount > 64)
        return makeError(QStringLiteral("SkyPilot pins whole GPUs; this offer has %1").arg(o.gpuCount));
    pin.acceleratorCount = static_cast<int>(o.gpuCount);
    pin.region = o.region;
    pin.instanceType = o.instanceType;
    // Offers read from a provider's own API instead of SkyPilot's catalog (refresh/runpodpricesource,
    // ocipricesource; their rows' source says so) are not located per data centre.
    if (o.source.startsWith(QStringLiteral("RunPod GraphQL")))
        return makeError(
            QStringLiteral("this RunPod offer comes from RunPod's own API, which names neither a "
                           "data centre nor SkyPilot's accelerator name; refresh RunPod from "
                           "SkyPilot's catalog to plan it"));
    if (o.source.startsWith(QStringLiteral("Oracle price list"))) {
        pin.region.clear(); // one price in every region: SkyPilot picks one
        pin.notes.append(QStringLiteral("Oracle prices every region alike: SkyPilot chooses the region"));
    }

    if (pin.cloud == u"gcp") {
        // GPU Frontier names an N1 host with attached GPUs "n1-standard-8+1xT4": SkyPilot takes the host
        // as instance type and the GPUs as accelerators.
        static const QRegularExpression n1(QStringLiteral("^(n1-[a-z]+-\\d+)\\+(\\d+)x(.+)$"));
        if (const auto m = n1.match(o.instanceType); m.hasMatch())
            pin.instanceType = m.captured(1);
        pin.zone = o.zone;
    } else if (pin.cloud == u"aws") {
        // AWS catalogs give the zone as an AZ id (use1-az6), which maps to a different zone name in every
        // account: SkyPilot pins the region and picks the zone.
        if (!o.zone.isEmpty())
            pin.notes.append(
                QStringLiteral("zone %1 is an AWS AZ id (its name differs per account): only the "
                               "region is pinned")
                    .arg(o.zone));
    } else if (!o.zone.isEmpty()) {
        pin.zone = o.zone;
    }

    // A cloud read through SkyPilot's catalog: the offer's GPU name is that catalog's AcceleratorName
    // ("H100-SXM" at RunPod, "RTX PRO 6000 96GB" at Seeweb), the name SkyPilot accepts for it.
    if (const ProviderInfo *info = providerInfo(o.provider);
        info && info->live == LiveSource::SkypilotCatalog && !o.gpuRawName.isEmpty())
        pin.accelerator = o.gpuRawName;
    else
        pin.accelerator = table.acceleratorName(o.gpuId, pin.cloud, pin.instanceType);
    if (pin.accelerator.isEmpty())
        return makeError(QStringLiteral("GPU %1 has no SkyPilot accelerator name").arg(o.gpuId));
    if (const auto retired = retiredText(o))
        return makeError(*retired);

    // SkyPilot's pairing of hosts and accelerators (skypilot_hosts.csv): a pair it refuses is not pinned.
    const SkypilotHostTable &hosts = SkypilotHostTable::builtin();
    if (auto pair = hosts.checkPair(pin.cloud, pin.instanceType, pin.accelerator, pin.acceleratorCount,
                                    o.vcpus, o.ramGb);
        !pair) {
        if (!hosts.countAttachable(pin.cloud, pin.accelerator, pin.acceleratorCount))
            return pair.error();
        // SkyPilot chooses among its hosts for these accelerators; the location is pinned only as far as its
        // catalog lists one of them there (skypilot_host_zones.csv), else it would find nothing to launch.
        const QStringList choices = hosts.hostsFor(pin.cloud, pin.accelerator, pin.acceleratorCount);
        bool known = false, inZone = false, inRegion = false;
        for (const QString &h : choices) {
            if (const QStringList *zones = hosts.zonesOf(pin.cloud, h)) {
                known = true;
                for (const QString &z : *zones) {
                    inZone = inZone || (!pin.zone.isEmpty() && z == pin.zone);
                    inRegion = inRegion || z.startsWith(pin.region + u'-');
                }
            }
        }
        const QString hostText =
            choices.isEmpty() ? QStringLiteral("an N1 host") : choices.join(QStringLiteral(", "));
        QString where;
        if (!known || inZone || (pin.zone.isEmpty() && inRegion)) {
            where = QStringLiteral("in %1").arg(locationText(pin.region, pin.zone));
        } else if (inRegion) {
            where = QStringLiteral("in region %1 (SkyPilot's catalog has %2 in other zones of it, not in %3)")
                        .arg(pin.region, hostText, pin.zone);
            pin.zone.clear();
        } else {
            where = QStringLiteral("on %1 in any region (SkyPilot's catalog has %2 in no zone of %3)")
                        .arg(pin.cloud, hostText, pin.region);
            pin.zone.clear();
            pin.region.clear();
        }
        pin.notes.append(QStringLiteral("%1: the task pins %2:%3 %4 without an instance type, and SkyPilot "
                                        "chooses the host (%5); the price shown is this offer's, SkyPilot's "
                                        "host may cost more or less")
                             .arg(pair.error().message, pin.accelerator,
                                  QString::number(pin.acceleratorCount), where, hostText));
        pin.instanceType.clear();
    }

    if (pin.cloud == u"vast") {
        // SkyPilot launches vast.ai by its own synthetic types "<count>x-<GPU>-32-65536"; a marketplace
        // offer id is not one of them.
        static const QRegularExpression synthetic(QStringLiteral("^\\d+x-[A-Za-z0-9_]+-\\d+-\\d+$"));
        if (!synthetic.match(o.instanceType).hasMatch()) {
            const QString vt = table.vastType(o.gpuId);
            if (vt.isEmpty())
                return makeError(
                    QStringLiteral("SkyPilot has no vast.ai instance type for GPU %1").arg(o.gpuId));
            pin.instanceType = QStringLiteral("%1x-%2-32-65536").arg(pin.acceleratorCount).arg(vt);
            // SkyPilot's vast.ai regions are the locations of its own catalog: a marketplace machine's
            // location is usually not one of them, so the region is left to SkyPilot.
            pin.notes.append(
                QStringLiteral("vast.ai offer %1 is a marketplace machine in %2: the plan pins SkyPilot's "
                               "nearest type %3 in any region SkyPilot lists for it (vast.ai picks the host; "
                               "the price and location may differ from the offer)")
                    .arg(o.instanceType, o.region, pin.instanceType));
            pin.region.clear();
        }
    }
    return pin;
}

} // namespace gf

#include "providers/gcpbilling.h"

#include "domain/providertables.h"
#include "util/jsondocument.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <set>

namespace gf {

namespace {

/// "units" is an int64 sent as a string (sometimes a number); nanos an int32.
bool money(const QJsonObject &unitPrice, double *out)
{
    const QJsonValue units = unitPrice.value(QStringLiteral("units"));
    const QJsonValue nanos = unitPrice.value(QStringLiteral("nanos"));
    double u = 0;
    if (units.isString()) {
        bool ok = false;
        u = static_cast<double>(units.toString().toLongLong(&ok));
        if (!ok)
            return false;
    } else if (units.isDouble()) {
        u = units.toDouble();
    } else if (!units.isUndefined() && !units.isNull()) {
        return false;
    }
    double n = 0;
    if (nanos.isDouble())
        n = nanos.toDouble();
    else if (!nanos.isUndefined() && !nanos.isNull())
        return false;
    if (std::abs(n) >= 1e9)
        return false;
    *out = u + n / 1e9;
    return std::isfinite(*out);
}

enum class Part
{
    Core,
    Ram,
    Gpu
};

/// A SKU description without its vendor word: Google writes the same GPU "Nvidia H200 141GB GPU" in one
/// region and "H200 141GB GPU" in another (provider-sources.md).
QStringView withoutVendor(QStringView d)
{
    static const QString kNvidia = QStringLiteral("Nvidia ");
    return d.startsWith(kNvidia, Qt::CaseInsensitive) ? d.mid(kNvidia.size()) : d;
}

QString partKey(Part part, const QString &name, const QString &region, bool spot)
{
    return QString::number(static_cast<int>(part)) + u'\x1f' + name + u'\x1f' + region +
           (spot ? QStringLiteral("\x1fspot") : QString());
}

} // namespace

Result<GcpSkuPage> parseGcpSkuPage(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonDocument doc = std::move(parsed).value();
    if (!doc.isObject())
        return makeError(
            QStringLiteral("%1: not a Cloud Billing SKU list (the document is not an object)").arg(origin));
    const QJsonObject root = doc.object();
    if (root.contains(QStringLiteral("error")))
        return makeError(QStringLiteral("%1: the API answered with an error: %2")
                             .arg(origin, root.value(QStringLiteral("error"))
                                              .toObject()
                                              .value(QStringLiteral("message"))
                                              .toString()));
    const QJsonValue skus = root.value(QStringLiteral("skus"));
    GcpSkuPage page;
    const QJsonValue next = root.value(QStringLiteral("nextPageToken"));
    if (next.isString())
        page.nextPageToken = next.toString();
    else if (!next.isUndefined() && !next.isNull())
        return makeError(QStringLiteral("%1: nextPageToken is not a string").arg(origin));
    if (skus.isUndefined() && page.nextPageToken.isEmpty())
        return page; // an empty last page may omit "skus"
    if (!skus.isArray())
        return makeError(
            QStringLiteral("%1: \"skus\" is not an array: not a Cloud Billing SKU list").arg(origin));
    const QJsonArray list = skus.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            return makeError(QStringLiteral("%1: skus[%2] is not an object").arg(origin, QString::number(i)));
        const QJsonObject o = list.at(i).toObject();
        GcpSku s;
        s.skuId = o.value(QStringLiteral("skuId")).toString();
        if (!o.value(QStringLiteral("description")).isString())
            return makeError(
                QStringLiteral("%1: skus[%2].description is not a string").arg(origin, QString::number(i)));
        s.description = o.value(QStringLiteral("description")).toString();
        const QJsonObject category = o.value(QStringLiteral("category")).toObject();
        s.resourceGroup = category.value(QStringLiteral("resourceGroup")).toString();
        s.usageType = category.value(QStringLiteral("usageType")).toString();
        const QJsonValue regions = o.value(QStringLiteral("serviceRegions"));
        if (!regions.isUndefined() && !regions.isArray())
            return makeError(QStringLiteral("%1: skus[%2].serviceRegions is not an array")
                                 .arg(origin, QString::number(i)));
        for (const QJsonValue &r : regions.toArray())
            if (r.isString())
                s.regions.append(r.toString());
        const QJsonValue pricing = o.value(QStringLiteral("pricingInfo"));
        if (!pricing.isArray() || pricing.toArray().isEmpty())
            return makeError(QStringLiteral("%1: skus[%2] (%3) has no pricingInfo array")
                                 .arg(origin, QString::number(i), s.description));
        const QJsonObject expr =
            pricing.toArray().first().toObject().value(QStringLiteral("pricingExpression")).toObject();
        s.usageUnit = expr.value(QStringLiteral("usageUnit")).toString();
        const QJsonValue tiers = expr.value(QStringLiteral("tieredRates"));
        if (!tiers.isArray() || tiers.toArray().isEmpty())
            return makeError(QStringLiteral("%1: skus[%2] (%3) has no tieredRates")
                                 .arg(origin, QString::number(i), s.description));
        // The first tier (startUsageAmount 0) is the list price.
        QJsonObject tier = tiers.toArray().first().toObject();
        for (const QJsonValue &t : tiers.toArray())
            if (t.toObject().value(QStringLiteral("startUsageAmount")).toDouble() == 0)
                tier = t.toObject();
        const QJsonObject unitPrice = tier.value(QStringLiteral("unitPrice")).toObject();
        s.currency = unitPrice.value(QStringLiteral("currencyCode")).toString();
        if (!money(unitPrice, &s.unitPrice))
            return makeError(QStringLiteral("%1: skus[%2] (%3): unitPrice units/nanos are not numbers")
                                 .arg(origin, QString::number(i), s.description));
        page.skus.append(std::move(s));
    }
    return page;
}

struct GcpOfferComposer::State
{
    QHash<QString, double> parts;
    std::set<QString> regions;
    int otherCurrency = 0, badUnit = 0, duplicates = 0;
};

GcpOfferComposer::GcpOfferComposer(const ProviderTables &tables)
    : m_tables(tables), m_state(std::make_unique<State>())
{
}

GcpOfferComposer::~GcpOfferComposer() = default;

qsizetype GcpOfferComposer::pricesHeld() const
{
    return m_state->parts.size();
}

void GcpOfferComposer::add(const GcpSku &s)
{
    static const QString kRunning = QStringLiteral(" running in ");
    static const QString kSpotGpu = QStringLiteral(" attached to Spot Preemptible VMs running in ");
    static const QString kSpotPrefix = QStringLiteral("Spot Preemptible ");
    static const QString kCoreRunning = QStringLiteral("Core running in ");
    static const QString kRamRunning = QStringLiteral("Ram running in ");
    const QString &d = s.description;
    bool spot = false;
    if (s.usageType == u"Preemptible")
        spot = true;
    else if (s.usageType != u"OnDemand")
        return; // commitments, reservations
    // A Spot SKU filed as OnDemand (SkyPilot special-cases a B200 one): its wording says what it is.
    if (!spot && (d.contains(kSpotGpu) || d.startsWith(kSpotPrefix)))
        spot = true;
    std::optional<std::pair<Part, QString>> what;
    const QStringView bare = withoutVendor(d);
    for (const GcpSkuPrefix &g : m_tables.gcpGpuSkus()) {
        const QStringView prefix = withoutVendor(g.prefix);
        if (bare.startsWith(prefix) && bare.mid(prefix.size()).startsWith(spot ? kSpotGpu : kRunning)) {
            what = std::pair{Part::Gpu, g.name};
            break;
        }
    }
    if (!what) {
        const QString rest = spot ? (d.startsWith(kSpotPrefix) ? d.mid(kSpotPrefix.size()) : QString()) : d;
        for (const GcpSkuPrefix &sp : m_tables.gcpSeriesSkus()) {
            if (!rest.startsWith(sp.prefix + u' '))
                continue;
            const QString tail = rest.mid(sp.prefix.size() + 1);
            if (tail.startsWith(kCoreRunning))
                what = std::pair{Part::Core, sp.name};
            else if (tail.startsWith(kRamRunning))
                what = std::pair{Part::Ram, sp.name};
            break;
        }
    }
    if (!what)
        return;
    if (s.currency != u"USD") {
        ++m_state->otherCurrency;
        return;
    }
    const QString expectedUnit = what->first == Part::Ram ? QStringLiteral("GiBy.h") : QStringLiteral("h");
    if (s.usageUnit != expectedUnit || !(s.unitPrice > 0)) {
        ++m_state->badUnit;
        return;
    }
    for (const QString &r : s.regions) {
        const QString key = partKey(what->first, what->second, r, spot);
        if (m_state->parts.contains(key)) {
            ++m_state->duplicates;
            continue;
        }
        m_state->parts.insert(key, s.unitPrice);
        m_state->regions.insert(r);
    }
}

SnapshotData GcpOfferComposer::finish(const QString &source)
{
    const ProviderTables &tables = m_tables;
    SnapshotData data;
    data.provider = QStringLiteral("gcp");
    data.description = source;
    const QHash<QString, double> parts = std::move(m_state->parts);
    const std::set<QString> regions = std::move(m_state->regions);
    const int otherCurrency = m_state->otherCurrency, badUnit = m_state->badUnit,
              duplicates = m_state->duplicates;
    m_state = std::make_unique<State>();
    int gpuBelowSpot = 0;
    for (const MachineShape &m : tables.gcpMachines()) {
        // Series "gpu": the GPU SKU carries the whole machine's price (a4: "B200 (1 gpu slice)", host at 0);
        // "a3plus|a3": the first series with both a core and a RAM price in the region.
        const bool gpuOnly = m.series == u"gpu";
        const QStringList series = m.series.split(u'|');
        for (const QString &r : regions) {
            auto price = [&](bool spot) -> std::optional<double> {
                const auto gpu = parts.constFind(partKey(Part::Gpu, m.gpuName, r, spot));
                if (gpu == parts.constEnd())
                    return std::nullopt;
                if (gpuOnly)
                    return std::round(m.gpuCount * *gpu * 1e6) / 1e6;
                for (const QString &sr : series) {
                    const auto core = parts.constFind(partKey(Part::Core, sr, r, spot));
                    const auto ram = parts.constFind(partKey(Part::Ram, sr, r, spot));
                    if (core == parts.constEnd() || ram == parts.constEnd() || !m.vcpus || !m.ramGb)
                        continue;
                    return std::round((*m.vcpus * *core + *m.ramGb * *ram + m.gpuCount * *gpu) * 1e6) / 1e6;
                }
                return std::nullopt;
            };
            const auto od = price(false);
            if (!od)
                continue;
            Offer o;
            o.provider = data.provider;
            o.instanceType = m.name;
            o.region = r;
            o.gpuRawName = m.gpuName;
            o.gpuCount = m.gpuCount;
            o.gpuMemGb = m.gpuMemGb;
            o.vcpus = m.vcpus;
            o.ramGb = m.ramGb;
            o.networkGbps = m.networkGbps;
            o.interconnect = m.interconnect;
            o.onDemandUsdH = od;
            if (const auto sp = price(true)) {
                o.spotUsdH = sp;
                o.spotLabel = QStringLiteral("spot");
            }
            // A GPU on-demand SKU priced below the same GPU's spot SKU is not an on-demand price.
            const auto gpuOd = parts.constFind(partKey(Part::Gpu, m.gpuName, r, false));
            const auto gpuSpot = parts.constFind(partKey(Part::Gpu, m.gpuName, r, true));
            if (gpuOd != parts.constEnd() && gpuSpot != parts.constEnd() && *gpuOd < *gpuSpot) {
                o.flags |= static_cast<int>(OfferFlag::GpuBelowSpot);
                ++gpuBelowSpot;
            }
            o.billingIncrementS = 1;
            o.billingMinimumS = 60;
            o.source = QStringLiteral("GCP Cloud Billing Catalog (core + RAM + GPU SKUs)");
            data.offers.append(std::move(o));
        }
    }
    if (otherCurrency)
        data.warnings.append(
            QStringLiteral("%1 SKUs priced in another currency than USD skipped").arg(otherCurrency));
    if (badUnit)
        data.warnings.append(
            QStringLiteral("%1 SKUs with an unexpected unit or a zero price skipped").arg(badUnit));
    if (duplicates)
        data.warnings.append(QStringLiteral("%1 region prices given twice (first kept)").arg(duplicates));
    if (gpuBelowSpot)
        data.warnings.append(
            QStringLiteral("%1 offers whose GPU on-demand SKU is below its spot SKU (flagged "
                           "gpu-below-spot)")
                .arg(gpuBelowSpot));
    return data;
}

SnapshotData composeGcpOffers(const QList<GcpSku> &skus, const ProviderTables &tables, const QString &source)
{
    return GcpOfferComposer(tables).compose(skus, source);
}

} // namespace gf

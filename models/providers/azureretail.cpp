#include "providers/azureretail.h"

#include "domain/providertables.h"
#include "util/jsondocument.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

enum class Meter
{
    OnDemand,
    Spot,
    LowPriority
};

struct Chosen
{
    double price = 0;
    QString date;
    bool primary = false;
    bool set = false;
};

void choose(Chosen &c, const AzureRetailItem &item)
{
    // Newest effective date wins; on a tie the primary meter region.
    if (!c.set || item.effectiveStartDate > c.date ||
        (item.effectiveStartDate == c.date && item.isPrimaryMeterRegion && !c.primary)) {
        c.price = item.retailPrice;
        c.date = item.effectiveStartDate;
        c.primary = item.isPrimaryMeterRegion;
        c.set = true;
    }
}

bool windowsMeter(const AzureRetailItem &i)
{
    const QString &p = i.productName;
    return p.contains(QStringLiteral(" Windows")) || p.endsWith(QStringLiteral(" Win")) ||
           p.contains(QStringLiteral(" Win ")) || i.meterName.contains(QStringLiteral("Windows"));
}

} // namespace

Result<AzureRetailPage> parseAzureRetailPage(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonDocument doc = std::move(parsed).value();
    if (!doc.isObject())
        return makeError(
            QStringLiteral("%1: not an Azure Retail Prices response (the document is not an object)")
                .arg(origin));
    const QJsonObject root = doc.object();
    const QJsonValue items = root.value(QStringLiteral("Items"));
    if (!items.isArray())
        return makeError(QStringLiteral("%1: not an Azure Retail Prices response (\"Items\" is %2)")
                             .arg(origin, items.isUndefined() ? QStringLiteral("missing")
                                                              : QStringLiteral("not an array")));
    AzureRetailPage page;
    page.currency = root.value(QStringLiteral("BillingCurrency")).toString();
    const QJsonValue next = root.value(QStringLiteral("NextPageLink"));
    if (next.isString())
        page.nextPageLink = next.toString().trimmed();
    else if (!next.isNull() && !next.isUndefined())
        return makeError(QStringLiteral("%1: NextPageLink is neither a string nor null").arg(origin));
    const QJsonArray list = items.toArray();
    page.items.reserve(list.size());
    for (qsizetype i = 0; i < list.size(); ++i) {
        if (!list.at(i).isObject())
            return makeError(
                QStringLiteral("%1: Items[%2] is not an object").arg(origin, QString::number(i)));
        const QJsonObject o = list.at(i).toObject();
        auto text = [&](const char *name, QString *out) -> bool {
            const QJsonValue v = o.value(QLatin1String(name));
            if (v.isUndefined() || v.isNull())
                return true;
            if (!v.isString())
                return false;
            *out = v.toString();
            return true;
        };
        AzureRetailItem item;
        const char *bad = nullptr;
        if (!text("armSkuName", &item.armSkuName))
            bad = "armSkuName";
        else if (!text("armRegionName", &item.armRegionName))
            bad = "armRegionName";
        else if (!text("meterName", &item.meterName))
            bad = "meterName";
        else if (!text("skuName", &item.skuName))
            bad = "skuName";
        else if (!text("productName", &item.productName))
            bad = "productName";
        else if (!text("serviceName", &item.serviceName))
            bad = "serviceName";
        else if (!text("type", &item.type))
            bad = "type";
        else if (!text("unitOfMeasure", &item.unitOfMeasure))
            bad = "unitOfMeasure";
        else if (!text("currencyCode", &item.currencyCode))
            bad = "currencyCode";
        else if (!text("effectiveStartDate", &item.effectiveStartDate))
            bad = "effectiveStartDate";
        if (bad)
            return makeError(QStringLiteral("%1: Items[%2].%3 is not a string")
                                 .arg(origin, QString::number(i), QLatin1String(bad)));
        const QJsonValue price = o.value(QStringLiteral("retailPrice"));
        if (!price.isDouble())
            return makeError(QStringLiteral("%1: Items[%2].retailPrice is %3, a number was expected")
                                 .arg(origin, QString::number(i),
                                      price.isString() ? QStringLiteral("a string")
                                                       : QStringLiteral("missing or not a number")));
        item.retailPrice = price.toDouble();
        const QJsonValue primary = o.value(QStringLiteral("isPrimaryMeterRegion"));
        item.isPrimaryMeterRegion = primary.isBool() ? primary.toBool() : true;
        page.items.append(std::move(item));
    }
    return page;
}

struct AzureOfferComposer::State
{
    struct Prices
    {
        Chosen meters[3];
    };
    QHash<QString, Prices> byKey; // size \x1f region
    QList<QString> order;
    int windows = 0, zero = 0, otherCurrency = 0, notHourly = 0, unknownSize = 0;
};

AzureOfferComposer::AzureOfferComposer(const ProviderTables &tables)
    : m_tables(tables), m_state(std::make_unique<State>())
{
}

AzureOfferComposer::~AzureOfferComposer() = default;

qsizetype AzureOfferComposer::pricesHeld() const
{
    qsizetype n = 0;
    for (const State::Prices &p : std::as_const(m_state->byKey))
        for (const Chosen &c : p.meters)
            n += c.set ? 1 : 0;
    return n;
}

void AzureOfferComposer::add(const AzureRetailItem &i)
{
    if (!i.serviceName.isEmpty() && i.serviceName != u"Virtual Machines")
        return;
    if (i.type != u"Consumption")
        return; // DevTestConsumption, Reservation
    if (i.productName.contains(QStringLiteral("Cloud Services")))
        return;
    if (windowsMeter(i)) {
        ++m_state->windows;
        return;
    }
    if (i.unitOfMeasure != u"1 Hour") {
        ++m_state->notHourly;
        return;
    }
    if (i.currencyCode != u"USD") {
        ++m_state->otherCurrency;
        return;
    }
    Meter kind = Meter::OnDemand;
    QString sku = i.skuName;
    if (i.skuName.endsWith(QStringLiteral(" Spot")) || i.meterName.endsWith(QStringLiteral(" Spot"))) {
        kind = Meter::Spot;
        sku.chop(sku.endsWith(QStringLiteral(" Spot")) ? 5 : 0);
    } else if (i.skuName.endsWith(QStringLiteral(" Low Priority")) ||
               i.meterName.endsWith(QStringLiteral(" Low Priority"))) {
        kind = Meter::LowPriority;
        sku.chop(sku.endsWith(QStringLiteral(" Low Priority")) ? 13 : 0);
    }
    QString size = i.armSkuName;
    if (size.isEmpty() && !sku.isEmpty()) // armSkuName is sometimes empty: rebuild it from skuName
        size = QStringLiteral("Standard_") + sku.trimmed().replace(u' ', u'_');
    if (!m_tables.azureVmSize(size)) {
        ++m_state->unknownSize;
        return;
    }
    if (!(i.retailPrice > 0) || !std::isfinite(i.retailPrice)) {
        ++m_state->zero; // $0 placeholder meters
        return;
    }
    if (i.armRegionName.isEmpty())
        return;
    const QString key = size + u'\x1f' + i.armRegionName;
    auto it = m_state->byKey.find(key);
    if (it == m_state->byKey.end()) {
        it = m_state->byKey.insert(key, {});
        m_state->order.append(key);
    }
    choose(it->meters[static_cast<int>(kind)], i);
}

SnapshotData AzureOfferComposer::finish(const QString &source)
{
    const ProviderTables &tables = m_tables;
    SnapshotData data;
    data.provider = QStringLiteral("azure");
    data.description = source;
    const int windows = m_state->windows, zero = m_state->zero, otherCurrency = m_state->otherCurrency,
              notHourly = m_state->notHourly, unknownSize = m_state->unknownSize;
    int spotEqual = 0, lowPriorityUsed = 0, spotOnly = 0;
    QList<QString> order = std::move(m_state->order);
    const QHash<QString, State::Prices> byKey = std::move(m_state->byKey);
    m_state = std::make_unique<State>();
    std::sort(order.begin(), order.end());
    for (const QString &key : std::as_const(order)) {
        const State::Prices &p = byKey.value(key);
        const QString size = key.section(u'\x1f', 0, 0);
        const QString region = key.section(u'\x1f', 1);
        const Chosen &od = p.meters[static_cast<int>(Meter::OnDemand)];
        const Chosen &spot = p.meters[static_cast<int>(Meter::Spot)];
        const Chosen &low = p.meters[static_cast<int>(Meter::LowPriority)];
        if (!od.set) {
            ++spotOnly;
            continue;
        }
        const MachineShape *shape = tables.azureVmSize(size);
        Offer o;
        o.provider = data.provider;
        o.instanceType = size;
        o.region = region;
        o.gpuRawName = shape->gpuName;
        o.gpuCount = shape->gpuCount;
        o.gpuMemGb = shape->gpuMemGb;
        o.vcpus = shape->vcpus;
        o.ramGb = shape->ramGb;
        o.interconnect = shape->interconnect;
        o.onDemandUsdH = od.price;
        if (spot.set) {
            if (std::abs(spot.price - od.price) < 1e-9) {
                ++spotEqual; // a known data error: spot "priced" at on-demand
            } else {
                o.spotUsdH = spot.price;
                o.spotLabel = QStringLiteral("spot");
            }
        } else if (low.set && std::abs(low.price - od.price) >= 1e-9) {
            o.spotUsdH = low.price;
            o.spotLabel = QStringLiteral("low priority");
            ++lowPriorityUsed;
        }
        o.billingIncrementS = 60;
        o.billingMinimumS = 60;
        o.source = QStringLiteral("Azure Retail Prices API");
        data.offers.append(std::move(o));
    }
    if (windows)
        data.warnings.append(QStringLiteral("%1 Windows meters skipped (Linux prices only)").arg(windows));
    if (zero)
        data.warnings.append(QStringLiteral("%1 meters priced $0 skipped (placeholders)").arg(zero));
    if (otherCurrency)
        data.warnings.append(
            QStringLiteral("%1 meters in another currency than USD skipped").arg(otherCurrency));
    if (notHourly)
        data.warnings.append(QStringLiteral("%1 meters not billed per hour skipped").arg(notHourly));
    if (unknownSize)
        data.warnings.append(
            QStringLiteral("%1 meters of VM sizes outside the project's GPU size table skipped")
                .arg(unknownSize));
    if (spotEqual)
        data.warnings.append(
            QStringLiteral("%1 spot prices equal to on-demand dropped (a known Azure data error)")
                .arg(spotEqual));
    if (lowPriorityUsed)
        data.warnings.append(
            QStringLiteral("%1 offers have only a low-priority price (labelled \"low priority\", not spot)")
                .arg(lowPriorityUsed));
    if (spotOnly)
        data.warnings.append(
            QStringLiteral("%1 sizes with a spot but no pay-as-you-go price skipped").arg(spotOnly));
    return data;
}

SnapshotData composeAzureOffers(const QList<AzureRetailItem> &items, const ProviderTables &tables,
                                const QString &source)
{
    return AzureOfferComposer(tables).compose(items, source);
}

QStringList azureGpuFilters(const ProviderTables &tables, int sizesPerFilter)
{
    const QStringList sizes = tables.azureVmSizes();
    QStringList out;
    for (qsizetype i = 0; i < sizes.size(); i += sizesPerFilter) {
        QStringList ors;
        for (const QString &s : sizes.mid(i, sizesPerFilter))
            ors.append(QStringLiteral("armSkuName eq '%1'").arg(s));
        out.append(QStringLiteral("serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and (%1)")
                       .arg(ors.join(QStringLiteral(" or "))));
    }
    return out;
}

} // namespace gf

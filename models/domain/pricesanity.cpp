#include "domain/pricesanity.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "domain/providertables.h"

#include <QMap>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace gf {

namespace {

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2.0;
}

std::optional<double> perGpuHour(const Offer &o)
{
    if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0) || !(o.gpuCount > 0) || !std::isfinite(o.gpuCount))
        return std::nullopt;
    return *o.onDemandUsdH / o.gpuCount;
}

QString usd(double v)
{
    return QString::number(v, 'g', 4);
}

QString gpuName(const Offer &o)
{
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    return m ? m->name : o.gpuRawName;
}

} // namespace

QString priceClass(const QString &provider)
{
    return provider == u"vastai" ? QStringLiteral("marketplace") : QStringLiteral("cloud");
}

int spotSanityFlags(const Offer &o, const PriceSanityRules &rules)
{
    int f = 0;
    if (!o.spotUsdH || !o.onDemandUsdH || !(*o.onDemandUsdH > 0))
        return f;
    if (*o.spotUsdH >= *o.onDemandUsdH)
        f |= static_cast<int>(OfferFlag::SpotAboveOnDemand);
    if (o.provider == rules.spotFloorProvider &&
        *o.spotUsdH <= rules.spotFloorRatio * rules.spotFloorTolerance * *o.onDemandUsdH)
        f |= static_cast<int>(OfferFlag::SpotAtFloor);
    return f;
}

bool isStaleRow(const Offer &o, const PriceSanityRules &)
{
    const QDate ref = o.dataDate.isValid() ? o.dataDate : o.fetchedAt.date();
    return ref.isValid() && o.listingEnd.isValid() && o.listingEnd < ref;
}

namespace {
QDate todayOf(const PriceSanityRules &rules)
{
    return rules.today.isValid() ? rules.today : QDate::currentDate();
}

/// The date of an offer's prices, never later than the day after it was imported: a date from the
/// future (stored before such dates were refused) cannot make the other offers look old.
QDate priceDateOf(const Offer &o)
{
    QDate d = o.priceDate.isValid() ? o.priceDate : o.dataDate.isValid() ? o.dataDate : o.fetchedAt.date();
    if (o.fetchedAt.isValid() && d.isValid())
        d = std::min(d, o.fetchedAt.toUTC().date().addDays(1));
    return d;
}
} // namespace

bool isPriceTooOld(const Offer &o, const PriceSanityRules &rules)
{
    const QDate d = priceDateOf(o);
    return d.isValid() && d.daysTo(todayOf(rules)) > rules.maxPriceAgeDays;
}

int monthsBetween(const QDate &from, const QDate &to)
{
    if (!from.isValid() || !to.isValid() || to < from)
        return 0;
    int months = (to.year() - from.year()) * 12 + (to.month() - from.month());
    if (to.day() < from.day())
        --months;
    return std::max(0, months);
}

QString priceAgeText(const Offer &o, const PriceSanityRules &rules)
{
    if (!isPriceTooOld(o, rules))
        return {};
    const QDate d = priceDateOf(o);
    return QStringLiteral("%1 prices from %2, %3 months old")
        .arg(providerDisplayName(o.provider), d.toString(QStringLiteral("yyyy-MM")),
             QString::number(monthsBetween(d, todayOf(rules))));
}

QString onDemandRestrictionReason(const Offer &o)
{
    return ProviderTables::builtin().onDemandRestriction(o.provider, o.instanceType);
}

int onDemandRestrictionFlag(const Offer &o)
{
    return o.onDemandUsdH && !onDemandRestrictionReason(o).isEmpty() ? static_cast<int>(OfferFlag::NoOnDemand)
                                                                     : 0;
}

QDate newestPriceDate(const QList<Offer> &offers)
{
    QDate newest;
    for (const Offer &o : offers)
        if (const QDate d = priceDateOf(o); d.isValid() && (!newest.isValid() || d > newest))
            newest = d;
    return newest;
}

QString medianKey(const Offer &o)
{
    const QString gpu =
        o.gpuId.isEmpty() ? QStringLiteral("raw:") + GpuCatalog::normalise(o.gpuRawName) : o.gpuId;
    return priceClass(o.provider) + u'\x1f' + gpu;
}

namespace {

/// The per-GPU-hour prices of each (price class, GPU) group, per provider: one list per (group key,
/// provider), filled offer by offer.
class MedianGroups
{
public:
    /// The list of (key, provider), made on first use.
    int slot(const QString &key, const QString &provider)
    {
        const auto it = m_slotOf.constFind({key, provider});
        if (it != m_slotOf.constEnd())
            return it.value();
        const int s = static_cast<int>(m_slots.size());
        m_slots.push_back({key, provider, {}});
        m_slotOf.insert({key, provider}, s);
        return s;
    }
    void add(int slot, double perGpuHour)
    {
        m_slots[static_cast<std::size_t>(slot)].prices.append(perGpuHour);
    }
    void add(const Offer &o)
    {
        if (const auto x = perGpuHour(o))
            add(slot(medianKey(o), o.provider), *x);
    }
    const QString &key(int slot) const { return m_slots[static_cast<std::size_t>(slot)].key; }
    /// key -> the median over its providers of each provider's median.
    QHash<QString, double> medians() const
    {
        // key -> provider -> per-GPU-hour prices (QMap: a stable provider order)
        QHash<QString, QMap<QString, QList<double>>> groups;
        for (const Slot &s : m_slots)
            groups[s.key][s.provider].append(s.prices);
        QHash<QString, double> out;
        for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
            QList<double> providerMedians;
            for (const QList<double> &v : it.value())
                providerMedians.append(median(v));
            out.insert(it.key(), median(providerMedians));
        }
        return out;
    }

private:
    struct Slot
    {
        QString key;
        QString provider;
        QList<double> prices;
    };
    std::vector<Slot> m_slots;
    QHash<std::pair<QString, QString>, int> m_slotOf; ///< (key, provider) -> slot
};

/// The rules' today, read once: QDate::currentDate() reads the time zone (a stat of /etc/localtime) per
/// call, which was a tenth of the time of `frontier` over a million offers.
PriceSanityRules withToday(const PriceSanityRules &given)
{
    PriceSanityRules rules = given;
    rules.today = todayOf(given);
    return rules;
}

/// Recomputes the offer's kComputedPriceFlags and median; true when it has a suspect flag. `medianOf()`
/// gives the median of the offer's group (called only for an offer with a per-GPU-hour price).
template <class MedianOf> bool applySanity(Offer &o, MedianOf medianOf, const PriceSanityRules &rules)
{
    int f = o.flags & ~kComputedPriceFlags;
    f |= spotSanityFlags(o, rules);
    o.medianUsdPerGpuH = 0;
    if (const auto x = perGpuHour(o)) {
        const double m = medianOf();
        o.medianUsdPerGpuH = m;
        if (m > 0 && *x < m / rules.outlierFactor)
            f |= static_cast<int>(OfferFlag::PriceOutlierLow);
        else if (m > 0 && *x > rules.outlierFactor * m)
            f |= static_cast<int>(OfferFlag::PriceOutlierHigh);
    }
    if (isStaleRow(o, rules) || isPriceTooOld(o, rules))
        f |= static_cast<int>(OfferFlag::Stale);
    f |= onDemandRestrictionFlag(o);
    o.flags = f;
    return (f & (kSuspectSpotFlags | kSuspectOnDemandFlags)) != 0;
}

} // namespace

QHash<QString, double> robustMedians(const QList<Offer> &offers)
{
    MedianGroups groups;
    for (const Offer &o : offers)
        groups.add(o);
    return groups.medians();
}

qsizetype applyPriceSanity(QList<Offer> &offers, const PriceSanityRules &given)
{
    const PriceSanityRules rules = withToday(given);
    const QHash<QString, double> medians = robustMedians(offers);
    qsizetype suspect = 0;
    for (Offer &o : offers)
        suspect += applySanity(
                       o, [&] { return medians.value(medianKey(o), 0); }, rules)
                       ? 1
                       : 0;
    return suspect;
}

qsizetype applyPriceSanity(OfferTable &offers, const PriceSanityRules &given)
{
    const PriceSanityRules rules = withToday(given);
    // An offer's group depends only on its provider, GPU id and GPU name: its key is built once per
    // distinct (provider, GPU id, GPU name) of the table, found by their text ids, not once per offer.
    using Ids = std::pair<quint64, quint32>; // (provider, GPU id), GPU name
    QHash<Ids, int> slotOf;
    MedianGroups groups;
    auto slot = [&](qsizetype i, const Offer &o) {
        const Ids ids{quint64(offers.textId(i, OfferTable::Provider)) << 32 |
                          offers.textId(i, OfferTable::GpuId),
                      offers.textId(i, OfferTable::GpuRawName)};
        auto it = slotOf.constFind(ids);
        if (it == slotOf.constEnd())
            it = slotOf.insert(ids, groups.slot(medianKey(o), o.provider));
        return it.value();
    };
    for (qsizetype i = 0; i < offers.size(); ++i) {
        const Offer o = offers.view(i);
        if (const auto x = perGpuHour(o))
            groups.add(slot(i, o), *x);
    }
    const QHash<QString, double> medians = groups.medians();
    QHash<int, double> slotMedian; // the median of each slot's group
    for (auto it = slotOf.cbegin(); it != slotOf.cend(); ++it)
        slotMedian.insert(it.value(), medians.value(groups.key(it.value()), 0));
    qsizetype suspect = 0;
    for (qsizetype i = 0; i < offers.size(); ++i) {
        Offer o = offers.view(i);
        suspect += applySanity(
                       o, [&] { return slotMedian.value(slot(i, o)); }, rules)
                       ? 1
                       : 0;
        offers.setFlags(i, o.flags);
        offers.setMedianUsdPerGpuH(i, o.medianUsdPerGpuH);
    }
    return suspect;
}

QList<OfferFlag> allOfferFlags()
{
    return {OfferFlag::UnrecognisedGpu,  OfferFlag::SpotAboveOnDemand,
            OfferFlag::MemoryDiffers,    OfferFlag::SpotAtFloor,
            OfferFlag::GpuBelowSpot,     OfferFlag::PriceOutlierLow,
            OfferFlag::PriceOutlierHigh, OfferFlag::Stale,
            OfferFlag::NoOnDemand};
}

QString offerFlagName(OfferFlag f)
{
    switch (f) {
    case OfferFlag::None:
        return {};
    case OfferFlag::UnrecognisedGpu:
        return QStringLiteral("unrecognised_gpu");
    case OfferFlag::SpotAboveOnDemand:
        return QStringLiteral("spot_above_on_demand");
    case OfferFlag::MemoryDiffers:
        return QStringLiteral("memory_differs");
    case OfferFlag::SpotAtFloor:
        return QStringLiteral("spot_at_floor");
    case OfferFlag::GpuBelowSpot:
        return QStringLiteral("gpu_below_spot");
    case OfferFlag::PriceOutlierLow:
        return QStringLiteral("price_outlier_low");
    case OfferFlag::PriceOutlierHigh:
        return QStringLiteral("price_outlier_high");
    case OfferFlag::Stale:
        return QStringLiteral("stale");
    case OfferFlag::NoOnDemand:
        return QStringLiteral("no_on_demand");
    }
    return {};
}

QStringList offerFlagNames(int flags)
{
    QStringList out;
    for (OfferFlag f : allOfferFlags())
        if (hasFlag(flags, f))
            out.append(offerFlagName(f));
    return out;
}

QString offerFlagDescription(const Offer &o, OfferFlag f, const PriceSanityRules &rules)
{
    const double od = o.onDemandUsdH.value_or(0);
    const double spot = o.spotUsdH.value_or(0);
    switch (f) {
    case OfferFlag::None:
        return {};
    case OfferFlag::UnrecognisedGpu:
        return QStringLiteral("The provider's GPU name \"%1\" matches no known GPU model: no projection.")
            .arg(o.gpuRawName);
    case OfferFlag::SpotAboveOnDemand:
        return QStringLiteral("Spot %1 USD/h is not below on-demand %2 USD/h (a data error or a price at the "
                              "cap): the spot option is not recommended.")
            .arg(usd(spot), usd(od));
    case OfferFlag::MemoryDiffers: {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        return QStringLiteral(
                   "The offer states %1 GB per GPU; the %2 datasheet says %3 GB; the offer's figure "
                   "is used.")
            .arg(o.gpuMemGb ? QString::number(*o.gpuMemGb, 'g', 4) : QStringLiteral("?"), gpuName(o),
                 m ? QString::number(m->memoryGb, 'g', 4) : QStringLiteral("?"));
    }
    case OfferFlag::SpotAtFloor:
        return QStringLiteral(
                   "Spot %1 USD/h is %2 % of on-demand %3 USD/h, at AWS's spot floor (%4 %): a spot "
                   "market priced at its floor usually has no capacity; the spot option is not "
                   "recommended.")
            .arg(usd(spot), QString::number(od > 0 ? 100.0 * spot / od : 0, 'f', 1), usd(od),
                 QString::number(rules.spotFloorRatio * 100, 'g', 3));
    case OfferFlag::GpuBelowSpot:
        return QStringLiteral("The GPU part of this composed on-demand price is below the GPU's own spot "
                              "price: it is not an on-demand price (commitment or reservation SKU); the "
                              "on-demand option is not recommended.");
    case OfferFlag::PriceOutlierLow:
    case OfferFlag::PriceOutlierHigh: {
        const double x = o.gpuCount > 0 ? od / o.gpuCount : 0;
        const QString where =
            QStringLiteral("the robust median of %1 %2 offers (%3 USD per GPU-hour: the median of each "
                           "provider's median)")
                .arg(priceClass(o.provider), gpuName(o), usd(o.medianUsdPerGpuH));
        if (f == OfferFlag::PriceOutlierLow)
            return QStringLiteral(
                       "On-demand %1 USD per GPU-hour is below 1/%2 of %3: too good to be true; the "
                       "on-demand option is not recommended.")
                .arg(usd(x), QString::number(rules.outlierFactor, 'g', 3), where);
        return QStringLiteral("On-demand %1 USD per GPU-hour is above %2x %3: mostly host (vCPUs, RAM, "
                              "network) or a premium. Shown for information; the offer is not excluded.")
            .arg(usd(x), QString::number(rules.outlierFactor, 'g', 3), where);
    }
    case OfferFlag::NoOnDemand: {
        const QString reason = onDemandRestrictionReason(o);
        return QStringLiteral("Not sold on demand: %1. The listed on-demand price (%2 USD/h) is shown but "
                              "kept off the frontier and never recommended; a spot price stays usable.")
            .arg(reason.isEmpty() ? QStringLiteral("capacity blocks or reservations only") : reason, usd(od));
    }
    case OfferFlag::Stale: {
        const QDate ref = o.dataDate.isValid() ? o.dataDate : o.fetchedAt.date();
        if (o.listingEnd.isValid() && o.listingEnd < ref)
            return QStringLiteral(
                       "The listing ended on %1, before its snapshot's date %2: probably no longer "
                       "offered; not recommended.")
                .arg(o.listingEnd.toString(Qt::ISODate), ref.toString(Qt::ISODate));
        return QStringLiteral(
                   "%1 (older than %2 days): prices and what is offered move within a year; refresh "
                   "%3; not recommended unless suspect prices are included.")
            .arg(priceAgeText(o, rules), QString::number(rules.maxPriceAgeDays),
                 providerDisplayName(o.provider));
    }
    }
    return {};
}

} // namespace gf

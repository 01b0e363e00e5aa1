#include "domain/offerfilter.h"

#include "domain/gpucatalog.h"

#include <algorithm>
#include <vector>

namespace gf {

std::optional<double> effectivePrice(const Offer &o, bool spot)
{
    return spot ? o.spotUsdH : o.onDemandUsdH;
}

bool OfferFilter::isEmpty() const
{
    return providers.isEmpty() && gpu.isEmpty() && !minGpus && !minGpuMemGb && !maxPriceUsdH && !spotOnly &&
           region.isEmpty() && text.isEmpty();
}

bool OfferFilter::accepts(const Offer &o) const
{
    return OfferMatcher(*this).accepts(o);
}

OfferMatcher::OfferMatcher(OfferFilter filter) : m_filter(std::move(filter))
{
    if (!m_filter.gpu.isEmpty())
        m_gpuNeedle = GpuCatalog::normalise(m_filter.gpu);
    m_words = m_filter.text.split(u' ', Qt::SkipEmptyParts);
    m_words.removeDuplicates();
    if (m_words.size() > 64) // more words than bits: the rest are matched like the first 64
        m_words.resize(64);
    m_allWords = m_words.size() >= 64 ? ~quint64(0) : (quint64(1) << m_words.size()) - 1;
}

namespace {

/// What `compute` gives for `key`, computed once per distinct key.
template <typename V, typename Compute>
V remembered(QHash<QString, V> &cache, const QString &key, Compute compute)
{
    auto it = cache.constFind(key);
    if (it == cache.constEnd())
        it = cache.insert(key, compute());
    return *it;
}

} // namespace

bool OfferMatcher::gpuHit(const Offer &o)
{
    // The canonical id and its model's name, or the provider's own name, contains the needle.
    const bool byId = remembered(m_gpuIdHit, o.gpuId, [&] {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        return GpuCatalog::normalise(o.gpuId).contains(m_gpuNeedle) ||
               (m && GpuCatalog::normalise(m->name).contains(m_gpuNeedle));
    });
    return byId || remembered(m_gpuRawHit, o.gpuRawName,
                              [&] { return GpuCatalog::normalise(o.gpuRawName).contains(m_gpuNeedle); });
}

bool OfferMatcher::regionHit(const Offer &o)
{
    const QString &needle = m_filter.region;
    if (remembered(m_regionHit, o.region, [&] { return o.region.contains(needle, Qt::CaseInsensitive); }))
        return true;
    if (o.zone.isEmpty())
        return false;
    if (remembered(m_zoneHit, o.zone, [&] { return o.zone.contains(needle, Qt::CaseInsensitive); }))
        return true;
    // As tables show it: "us-east-1 (use1-az6)". A zone belongs to one region, so it is the key.
    return remembered(m_locationHit, o.zone,
                      [&] { return locationText(o).contains(needle, Qt::CaseInsensitive); });
}

quint64 OfferMatcher::wordsIn(const QString &hay) const
{
    quint64 mask = 0;
    for (qsizetype w = 0; w < m_words.size(); ++w)
        if (hay.contains(m_words.at(w), Qt::CaseInsensitive))
            mask |= quint64(1) << w;
    return mask;
}

quint64 OfferMatcher::textMask(const Offer &o)
{
    quint64 mask = remembered(m_providerWords, o.provider,
                              [&] { return wordsIn(o.provider) | wordsIn(providerDisplayName(o.provider)); });
    mask |= remembered(m_regionWords, o.region, [&] { return wordsIn(o.region); });
    mask |= remembered(m_zoneWords, o.zone, [&] { return wordsIn(o.zone); });
    mask |= remembered(m_gpuRawWords, o.gpuRawName, [&] { return wordsIn(o.gpuRawName); });
    mask |= remembered(m_gpuIdWords, o.gpuId, [&] {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        return m ? wordsIn(m->name) : quint64(0);
    });
    if (mask != m_allWords)
        mask |= wordsIn(o.instanceType); // instance types (vast.ai offer ids) rarely repeat: not cached
    return mask;
}

bool OfferMatcher::accepts(const Offer &o)
{
    const OfferFilter &f = m_filter;
    if (!f.providers.isEmpty() && !f.providers.contains(o.provider))
        return false;
    if (!f.gpu.isEmpty() && !gpuHit(o))
        return false;
    if (f.minGpus && o.gpuCount < *f.minGpus)
        return false;
    if (f.minGpuMemGb && (!o.gpuMemGb || *o.gpuMemGb < *f.minGpuMemGb))
        return false;
    if (f.spotOnly && !o.spotUsdH)
        return false;
    if (f.maxPriceUsdH) {
        const auto p = effectivePrice(o, f.spotOnly);
        if (!p || *p > *f.maxPriceUsdH)
            return false;
    }
    if (!f.region.isEmpty() && !regionHit(o))
        return false;
    if (!m_words.isEmpty() && textMask(o) != m_allWords)
        return false;
    return true;
}

QStringList offerSortKeyNames()
{
    return {QStringLiteral("price"),        QStringLiteral("provider"), QStringLiteral("instance"),
            QStringLiteral("region"),       QStringLiteral("gpu"),      QStringLiteral("gpus"),
            QStringLiteral("gpu-mem"),      QStringLiteral("vcpus"),    QStringLiteral("spot"),
            QStringLiteral("price-per-gpu")};
}

std::optional<OfferSortKey> offerSortKeyFromName(const QString &name)
{
    const int i = static_cast<int>(offerSortKeyNames().indexOf(name));
    if (i < 0)
        return std::nullopt;
    return static_cast<OfferSortKey>(i);
}

namespace {

/// sortOffers over any holder of offers: `offerAt(i)` gives offer i (a reference or a value), `count`
/// is their number.
template <class OfferAt>
void sortOffersAt(qsizetype count, OfferAt offerAt, QList<qsizetype> &order, OfferSortKey key,
                  bool descending, bool spot)
{
    auto num = [&](const Offer &o) -> std::optional<double> {
        switch (key) {
        case OfferSortKey::Price:
            return effectivePrice(o, spot);
        case OfferSortKey::GpuCount:
            return o.gpuCount;
        case OfferSortKey::GpuMemory:
            return o.gpuMemGb;
        case OfferSortKey::Vcpus:
            return o.vcpus;
        case OfferSortKey::Spot:
            return o.spotUsdH;
        case OfferSortKey::PricePerGpu: {
            const auto p = effectivePrice(o, spot);
            if (!p)
                return std::nullopt;
            return *p / o.gpuCount;
        }
        default:
            return std::nullopt;
        }
    };
    auto text = [&](const Offer &o) -> QString {
        switch (key) {
        case OfferSortKey::Provider:
            return o.provider;
        case OfferSortKey::Instance:
            return o.instanceType;
        case OfferSortKey::Region:
            return locationText(o);
        case OfferSortKey::Gpu:
            return o.gpuId.isEmpty() ? o.gpuRawName : o.gpuId;
        default:
            return {};
        }
    };
    const bool numeric = key == OfferSortKey::Price || key == OfferSortKey::GpuCount ||
                         key == OfferSortKey::GpuMemory || key == OfferSortKey::Vcpus ||
                         key == OfferSortKey::Spot || key == OfferSortKey::PricePerGpu;
    // Each offer's key is computed once (not once per comparison), then the positions are sorted.
    if (numeric) {
        std::vector<std::optional<double>> keys(static_cast<std::size_t>(count));
        for (qsizetype i : std::as_const(order))
            keys[static_cast<std::size_t>(i)] = num(offerAt(i));
        std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
            const auto &x = keys[static_cast<std::size_t>(a)];
            const auto &y = keys[static_cast<std::size_t>(b)];
            if (!x || !y)
                return x.has_value() && !y.has_value(); // missing values last
            return descending ? *x > *y : *x < *y;
        });
        return;
    }
    std::vector<QString> keys(static_cast<std::size_t>(count));
    for (qsizetype i : std::as_const(order))
        keys[static_cast<std::size_t>(i)] = text(offerAt(i));
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        const int c = QString::compare(keys[static_cast<std::size_t>(a)], keys[static_cast<std::size_t>(b)],
                                       Qt::CaseInsensitive);
        return descending ? c > 0 : c < 0;
    });
}

} // namespace

void sortOffers(const QList<Offer> &offers, QList<qsizetype> &order, OfferSortKey key, bool descending,
                bool spot)
{
    sortOffersAt(
        offers.size(), [&](qsizetype i) -> const Offer & { return offers.at(i); }, order, key, descending,
        spot);
}

void sortOffers(const OfferTable &offers, QList<qsizetype> &order, OfferSortKey key, bool descending,
                bool spot)
{
    sortOffersAt(
        offers.size(), [&](qsizetype i) { return offers.view(i); }, order, key, descending, spot);
}

} // namespace gf

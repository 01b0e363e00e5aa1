#pragma once

#include "domain/offer.h"
#include "domain/offertable.h"

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// Offer filters shared by the CLI and the GUI's filter proxy.
struct OfferFilter
{
    QStringList providers; ///< empty = all
    QString gpu;           ///< case-insensitive: canonical id, GPU name or provider name contains it
    std::optional<double> minGpus;
    std::optional<double> minGpuMemGb;  ///< per GPU
    std::optional<double> maxPriceUsdH; ///< on the spot price when spotOnly, else on-demand
    bool spotOnly = false;              ///< only offers with a spot price
    QString region; ///< case-insensitive substring of the region, the zone or both as shown ("us-east-1
                    ///< (use1-az6)")
    QString text;   ///< free text over provider, instance, region, GPU

    /// One offer (OfferMatcher does many faster).
    bool accepts(const Offer &o) const;
    bool isEmpty() const;
};

/// An OfferFilter prepared for many offers: the needles are split and normalised once, and what a
/// repeated text (a provider, region, zone or GPU name) gives is remembered, so filtering 100,000 offers
/// is one pass of lookups instead of string searches and allocations per offer. Same verdicts as
/// OfferFilter::accepts. Keeps caches: one matcher per thread.
class OfferMatcher
{
public:
    explicit OfferMatcher(OfferFilter filter);
    bool accepts(const Offer &o);
    const OfferFilter &filter() const { return m_filter; }

private:
    bool gpuHit(const Offer &o);
    bool regionHit(const Offer &o);
    quint64 textMask(const Offer &o);
    quint64 wordsIn(const QString &hay) const;

    OfferFilter m_filter;
    QString m_gpuNeedle;
    QStringList m_words;
    quint64 m_allWords = 0;
    QHash<QString, bool> m_gpuIdHit, m_gpuRawHit, m_regionHit, m_zoneHit, m_locationHit;
    QHash<QString, quint64> m_providerWords, m_regionWords, m_zoneWords, m_gpuRawWords, m_gpuIdWords;
};

/// The price the filter and the default sort look at.
std::optional<double> effectivePrice(const Offer &o, bool spot);

enum class OfferSortKey
{
    Price,
    Provider,
    Instance,
    Region,
    Gpu,
    GpuCount,
    GpuMemory,
    Vcpus,
    Spot,
    PricePerGpu
};
std::optional<OfferSortKey> offerSortKeyFromName(const QString &name);
QStringList offerSortKeyNames();
/// Sorts positions into `offers` (stable); missing values last in either direction.
void sortOffers(const QList<Offer> &offers, QList<qsizetype> &order, OfferSortKey key, bool descending,
                bool spot);
/// The same over a compact table (the same order as over table.toList()).
void sortOffers(const OfferTable &offers, QList<qsizetype> &order, OfferSortKey key, bool descending,
                bool spot);

} // namespace gf

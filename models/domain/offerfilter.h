#pragma once

#include "domain/offer.h"

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
    QString region;                     ///< case-insensitive substring of region or zone
    QString text;                       ///< free text over provider, instance, region, GPU

    bool accepts(const Offer &o) const;
    bool isEmpty() const;
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

} // namespace gf

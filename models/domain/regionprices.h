#pragma once

#include "domain/offer.h"

#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// The cheapest way to rent one GPU model in one region of one provider, on-demand and spot.
struct RegionPrice
{
    QString provider;
    QString region;
    int offers = 0; ///< offers of this GPU in the region (all zones and instance types)

    struct Best
    {
        std::optional<double> usdPerGpuHour; ///< instance price / GPUs per instance
        std::optional<double> usdPerHour;    ///< price of that whole instance
        QString instanceType;
        QString zone;
        double gpuCount = 0;
    };
    Best onDemand; ///< lowest on-demand price per GPU-hour
    Best spot;     ///< lowest spot price per GPU-hour

    /// The lower of the two per-GPU-hour prices; nullopt when neither is known.
    std::optional<double> bestUsdPerGpuHour() const;
};

/// Whether an offer rents `gpu`: its canonical GPU id, else (unrecognised GPUs) the provider's own name.
bool offerHasGpu(const Offer &offer, const QString &gpu);

/// Per (provider, region), the cheapest on-demand and spot offer of `gpu` per GPU-hour, ordered by the
/// on-demand price per GPU-hour (then spot; rows without an on-demand price after those with one, then
/// provider and region for a stable order). Offers without GPUs are left out.
QList<RegionPrice> cheapestByRegion(const QList<Offer> &offers, const QString &gpu);

} // namespace gf

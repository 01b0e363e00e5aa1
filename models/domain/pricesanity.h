#pragma once

#include "domain/offer.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// The price-sanity rules (resources/catalog/SOURCES.md "Price sanity report"; the snapshot builder
/// resources/tools/build_snapshot.py applies the same thresholds).
struct PriceSanityRules
{
    double spotFloorRatio = 0.10;      ///< AWS's spot floor: 10 % of on-demand ...
    double spotFloorTolerance = 1.005; ///< ... + 0.5 %: AWS rounds spot prices to 4 decimals
    double outlierFactor = 3.0;        ///< per-GPU-hour on-demand below median / 3 or above 3 x median
    int staleDays = 90;                ///< a row's price older than its snapshot by more than this
};

/// Flags that make an option of an offer suspect: such a point is shown but never recommended unless
/// the user includes suspect prices. The high-side outlier is informational (a high price cannot make
/// a bad recommendation; on big hosts it is mostly vCPUs and RAM that a CPU-bound job can use).
inline constexpr int kSuspectSpotFlags = static_cast<int>(OfferFlag::SpotAboveOnDemand) |
                                         static_cast<int>(OfferFlag::SpotAtFloor) |
                                         static_cast<int>(OfferFlag::Stale);
inline constexpr int kSuspectOnDemandFlags = static_cast<int>(OfferFlag::GpuBelowSpot) |
                                             static_cast<int>(OfferFlag::PriceOutlierLow) |
                                             static_cast<int>(OfferFlag::Stale);
/// The bits applyPriceSanity recomputes (the rest are set by the import and kept).
inline constexpr int kComputedPriceFlags =
    static_cast<int>(OfferFlag::SpotAboveOnDemand) | static_cast<int>(OfferFlag::SpotAtFloor) |
    static_cast<int>(OfferFlag::PriceOutlierLow) | static_cast<int>(OfferFlag::PriceOutlierHigh) |
    static_cast<int>(OfferFlag::Stale);

/// "marketplace" (vast.ai) or "cloud" (every other provider): marketplace prices are structurally
/// 2-10x below cloud list prices, so each class has its own medians.
QString priceClass(const QString &provider);

/// The spot rules of one offer: SpotAboveOnDemand (spot >= on-demand) and SpotAtFloor.
int spotSanityFlags(const Offer &offer, const PriceSanityRules &rules = {});
/// A row whose own price date is more than staleDays before its snapshot's date, or whose listing
/// ended before that date. The reference is the row's own snapshot, not the wall clock nor the newest
/// snapshot of another provider: a bundled or older snapshot stays usable as a whole (its age is shown
/// by the stale-price projection flag), while rows mixed in from an older capture are caught.
bool isStaleRow(const Offer &offer, const PriceSanityRules &rules = {});

/// Robust median on-demand USD per GPU-hour per (price class, GPU): the median over providers of each
/// provider's median, so that each provider counts once (an even count takes the mean of the two
/// middle values). Key: medianKey(). Offers without an on-demand price or GPU count are left out.
QHash<QString, double> robustMedians(const QList<Offer> &offers);
/// The key of an offer's group: price class + GPU id, or the normalised provider name when unrecognised.
QString medianKey(const Offer &offer);

/// Recomputes kComputedPriceFlags and medianUsdPerGpuH of every offer over `offers` as one population
/// (the current snapshot of every provider). Returns the number of offers with any suspect flag.
qsizetype applyPriceSanity(QList<Offer> &offers, const PriceSanityRules &rules = {});

/// Every offer flag, in bit order.
QList<OfferFlag> allOfferFlags();
/// Stable names for the offer JSON ("spot_at_floor", ...), in bit order.
QStringList offerFlagNames(int flags);
QString offerFlagName(OfferFlag flag);
/// One sentence with the offer's own numbers: what the flag means here and what it excludes.
QString offerFlagDescription(const Offer &offer, OfferFlag flag, const PriceSanityRules &rules = {});

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "domain/offertable.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// The price-sanity rules (resources/catalog/SOURCES.md "Price sanity report"; the snapshot builder
/// resources/tools/build_snapshot.py applies the same thresholds).
struct PriceSanityRules
{
    /// AWS's spot floor: 10 % of on-demand (only AWS has one: Azure's "up to 90 %" is a discount cap it
    /// sets itself, GCP sets fixed spot prices of 9-40 % of on-demand, vast.ai bids are a market) ...
    double spotFloorRatio = 0.10;
    double spotFloorTolerance = 1.005;                 ///< ... + 0.5 %: AWS rounds spot prices to 4 decimals
    QString spotFloorProvider = QStringLiteral("aws"); ///< the provider whose floor it is
    double outlierFactor = 3.0; ///< per-GPU-hour on-demand below median / 3 or above 3 x median
    /// Kept for the snapshot builder's report: a row's price older than its snapshot by more than this.
    int staleDays = 90;
    /// A price is stale when its own date (the row's, else its snapshot's) is more than this many days
    /// before `today`: each provider is judged by the age of its own prices, never against another
    /// provider's (a bundled Azure file of 2024-07 is stale because it is 29 months old, not because AWS's
    /// is newer). A year: GPU list prices moved by up to 45 % within 2025 (AWS's June 2025 cut).
    int maxPriceAgeDays = 365;
    /// The day prices are judged on; invalid = the current date.
    QDate today;
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
    static_cast<int>(OfferFlag::Stale) | static_cast<int>(OfferFlag::NoOnDemand);

/// "marketplace" (vast.ai) or "cloud" (every other provider): marketplace prices are structurally
/// 2-10x below cloud list prices, so each class has its own medians.
QString priceClass(const QString &provider);

/// The spot rules of one offer: SpotAboveOnDemand (spot >= on-demand) and SpotAtFloor (AWS offers only).
int spotSanityFlags(const Offer &offer, const PriceSanityRules &rules = {});
/// A row whose listing ended before its snapshot's date (a marketplace offer mixed in from an older
/// capture).
bool isStaleRow(const Offer &offer, const PriceSanityRules &rules = {});
/// The offer's price date (its row's, else its snapshot's) is more than rules.maxPriceAgeDays before
/// rules.today: the age of the provider's own prices, whatever the other providers' dates.
bool isPriceTooOld(const Offer &offer, const PriceSanityRules &rules = {});
/// Whole months between `from` and `to` (2024-07-01 -> 2026-11-26: 28), for messages.
int monthsBetween(const QDate &from, const QDate &to);
/// "Azure prices from 2024-07, 28 months old": the facts of a stale offer (empty when not too old).
QString priceAgeText(const Offer &offer, const PriceSanityRules &rules = {});
/// NoOnDemand when the built-in provider tables say the offer's instance type cannot be bought on demand
/// (resources/providers/on_demand_restrictions.csv), else 0.
int onDemandRestrictionFlag(const Offer &offer);
/// The reason the built-in tables give (empty when the type can be bought on demand).
QString onDemandRestrictionReason(const Offer &offer);

/// The newest price date over the offers (row price date, else snapshot date); invalid when none.
QDate newestPriceDate(const QList<Offer> &offers);

/// Robust median on-demand USD per GPU-hour per (price class, GPU): the median over providers of each
/// provider's median, so that each provider counts once (an even count takes the mean of the two
/// middle values). Key: medianKey(). Offers without an on-demand price or GPU count are left out.
QHash<QString, double> robustMedians(const QList<Offer> &offers);
/// The key of an offer's group: price class + GPU id, or the normalised provider name when unrecognised.
QString medianKey(const Offer &offer);

/// Recomputes kComputedPriceFlags and medianUsdPerGpuH of every offer over `offers` as one population
/// (the current snapshot of every provider): Stale = isStaleRow or isPriceTooOld.
/// Returns the number of offers with any suspect flag.
qsizetype applyPriceSanity(QList<Offer> &offers, const PriceSanityRules &rules = {});
/// The same over a compact table: the same flags and medians as over table.toList().
qsizetype applyPriceSanity(OfferTable &offers, const PriceSanityRules &rules = {});

/// Every offer flag, in bit order.
QList<OfferFlag> allOfferFlags();
/// Stable names for the offer JSON ("spot_at_floor", ...), in bit order.
QStringList offerFlagNames(int flags);
QString offerFlagName(OfferFlag flag);
/// One sentence with the offer's own numbers: what the flag means here and what it excludes.
QString offerFlagDescription(const Offer &offer, OfferFlag flag, const PriceSanityRules &rules = {});

} // namespace gf

#pragma once

#include "domain/provider.h"

#include <QDate>
#include <QDateTime>
#include <QString>

#include <optional>

namespace gf {

struct GpuModel;

/// Facts about an offer's data (a bit set). The import stores them; the price-sanity flags are
/// recomputed over the whole current catalog whenever it is read (domain/pricesanity.h), because the
/// outlier test compares every provider's prices and the stored bits of older databases lack them.
enum class OfferFlag : int
{
    None = 0,
    UnrecognisedGpu = 1 << 0,   ///< the provider's GPU name matches no canonical GPU
    SpotAboveOnDemand = 1 << 1, ///< spot >= on-demand (provider data error, or a price at the cap)
    MemoryDiffers = 1 << 2,     ///< the offer's memory per GPU matches no variant of its GPU family
    SpotAtFloor = 1 << 3,       ///< spot <= 10 % of on-demand: AWS's floor, a market without capacity
    GpuBelowSpot = 1 << 4,      ///< composed GCP offer whose GPU on-demand part is below its own spot part
    PriceOutlierLow = 1 << 5,   ///< on-demand per GPU-hour < 1/3 of the GPU's robust median
    PriceOutlierHigh = 1 << 6,  ///< on-demand per GPU-hour > 3x the GPU's robust median (informational)
    Stale = 1 << 7,             ///< row price > 90 days older than its snapshot, or its listing ended
    /// The instance type cannot be bought on demand (capacity blocks, reservations or spot only:
    /// resources/providers/on_demand_restrictions.csv): its on-demand price is kept off the frontier.
    NoOnDemand = 1 << 8,
};

inline int operator|(OfferFlag a, OfferFlag b)
{
    return static_cast<int>(a) | static_cast<int>(b);
}
inline bool hasFlag(int flags, OfferFlag f)
{
    return (flags & static_cast<int>(f)) != 0;
}

/// One rentable configuration: an instance type (or marketplace machine) in a region.
/// Prices are for the whole instance, in USD per hour.
struct Offer
{
    qint64 id = 0;
    qint64 snapshotId = 0;
    QString provider;     ///< aws, gcp, azure, paperspace, vastai
    QString instanceType; ///< instance type or offer id
    QString region;
    QString zone;                   ///< availability zone where the provider has one
    QString gpuRawName;             ///< GPU name as the provider writes it
    QString gpuId;                  ///< canonical GPU id; empty when unrecognised
    double gpuCount = 0;            ///< GPUs per instance (fractional for shared GPUs)
    std::optional<double> gpuMemGb; ///< memory per GPU, GB
    std::optional<double> vcpus;
    std::optional<double> ramGb;
    std::optional<double> networkGbps;
    QString interconnect; ///< NVSwitch, NVLink, PCIe or empty
    std::optional<double> onDemandUsdH;
    std::optional<double> spotUsdH;
    QString spotLabel; ///< provider's name for spot capacity: spot, preemptible, interruptible, low priority
    QString interruption;              ///< AWS spot advisor bucket, e.g. "<5%"
    std::optional<double> reliability; ///< vast.ai host reliability, 0..1
    std::optional<double> uploadGbps;  ///< vast.ai host upload bandwidth, Gbit/s (networkGbps = download)
    std::optional<double> dlperf;      ///< vast.ai DLPerf score (its own deep-learning performance estimate)
    int billingIncrementS = 1;
    int billingMinimumS = 60;
    QString source; ///< per-row provenance
    int flags = 0;
    QDate priceDate;  ///< the row's own price date when it differs from the snapshot's (vast.ai captures)
    QDate listingEnd; ///< marketplace listing end (vast.ai end_date); invalid = none stated
    double medianUsdPerGpuH = 0; ///< computed: robust median on-demand USD/GPU-h of its GPU and price class

    // From the snapshot (filled by queries)
    QDateTime fetchedAt; ///< when the snapshot was fetched/imported (UTC)
    QDate dataDate;      ///< date of the underlying price data

    bool recognised() const { return !gpuId.isEmpty(); }
    /// The date of this row's price: its own, else the snapshot's data date, else the import date.
    QDate effectivePriceDate() const
    {
        if (priceDate.isValid())
            return priceDate;
        return dataDate.isValid() ? dataDate : fetchedAt.date();
    }
    /// The price per GPU and hour the offer lists: its on-demand price (its spot price when it has no
    /// on-demand one) divided by its GPUs; nullopt without a price or GPUs. The Offers table, the CLI
    /// `offers` table and the reports show it.
    std::optional<double> usdPerGpuHour() const
    {
        const std::optional<double> hourly = onDemandUsdH ? onDemandUsdH : spotUsdH;
        if (!hourly || !(gpuCount > 0))
            return std::nullopt;
        return *hourly / gpuCount;
    }
    std::optional<double> spotSavingsPct() const
    {
        if (!spotUsdH || !onDemandUsdH || *onDemandUsdH <= 0)
            return std::nullopt;
        return 100.0 * (1.0 - *spotUsdH / *onDemandUsdH);
    }
};

enum class SourceKind
{
    Bundled,
    Live,
    File
};

QString sourceKindName(SourceKind kind);
std::optional<SourceKind> sourceKindFromName(const QString &name);

/// A catalog snapshot: one import of one provider's prices.
struct Snapshot
{
    qint64 id = 0;
    QString provider;
    SourceKind kind = SourceKind::Bundled;
    QString origin;      ///< URL or file name
    QDateTime fetchedAt; ///< UTC
    QDate dataDate;      ///< date of the price data itself (bundled snapshots are older than their import)
    QString checksum;    ///< SHA-256 of the payload, hex
    int rowCount = 0;
    int unrecognisedCount = 0;
    QString status; ///< ok, unchanged
    QString note;
    bool current = false; ///< newest good snapshot of its provider

    /// Age of the prices: from the data date when known, else from the fetch time.
    qint64 ageDays(const QDateTime &now) const;
};

/// Where an offer is, as every table, report and CLI shows it: "us-east-1 (use1-az6)" when the
/// provider names a zone, else the region ("westeurope", vast.ai's host location).
QString locationText(const Offer &offer);
/// The same for a region and a zone given apart (a SkyPilot task's pin).
QString locationText(const QString &region, const QString &zone);

/// The offer's GPU as tables and reports name it: the canonical name, else the provider's name +
/// kUnrecognisedGpuSuffix.
QString gpuModelName(const Offer &offer);
/// The built-in catalog's model of a GPU id (gpuModelName's look-up), nullptr for an empty or unknown id.
const GpuModel *gpuModelOf(const QString &gpuId);
/// What gpuModelName adds to the provider's name of a GPU the catalog does not know.
inline constexpr QLatin1StringView kUnrecognisedGpuSuffix{" (unrecognised)"};

/// The date of an offer's prices (ISO): its data date, else the day it was fetched (UTC); empty when neither.
QString priceDateText(const Offer &offer);
/// Age of an offer's prices at `now`, days: from the data date when known, else from the fetch time.
qint64 priceAgeDays(const Offer &offer, const QDateTime &now);

} // namespace gf

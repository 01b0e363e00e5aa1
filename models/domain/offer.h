#pragma once

#include "domain/provider.h"

#include <QDate>
#include <QDateTime>
#include <QString>

#include <optional>

namespace gf {

/// Flags computed when an offer is imported (stored as a bit set).
enum class OfferFlag : int
{
    None = 0,
    UnrecognisedGpu = 1 << 0,   ///< the provider's GPU name matches no canonical GPU
    SpotAboveOnDemand = 1 << 1, ///< the spot price is higher than on-demand (provider data error)
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

    // From the snapshot (filled by queries)
    QDateTime fetchedAt; ///< when the snapshot was fetched/imported (UTC)
    QDate dataDate;      ///< date of the underlying price data

    bool recognised() const { return !gpuId.isEmpty(); }
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

/// The offer's GPU as tables and reports name it: the canonical name, else the provider's name +
/// " (unrecognised)".
QString gpuModelName(const Offer &offer);

/// The date of an offer's prices (ISO): its data date, else the day it was fetched (UTC); empty when neither.
QString priceDateText(const Offer &offer);
/// Age of an offer's prices at `now`, days: from the data date when known, else from the fetch time.
qint64 priceAgeDays(const Offer &offer, const QDateTime &now);

} // namespace gf

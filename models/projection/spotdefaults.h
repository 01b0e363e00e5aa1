#pragma once

#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace gf {

/// One row of resources/spot_interruption.csv: the base interruption rate of GPU spot capacity.
struct SpotRateRow
{
    QString provider;      ///< provider id or "*"
    QString capacity;      ///< the offer's spot_label (spot, preemptible, interruptible) or "*"
    QString capacityClass; ///< flagship, standard or "*"
    double minGpus = 0;    ///< applies to offers with at least this many GPUs per instance
    double baseRatePerHour = 0;
    double restoreMinutes = 10;
    std::optional<double> maxRuntimeHours; ///< hard runtime cap (GCP preemptible: 24 h)
    QString basis;                         ///< fact, judgement, fact+judgement
    QString source;
};

/// One row of resources/spot_aws_buckets.csv: an AWS Spot Advisor bucket as a per-hour term.
struct AwsBucketRate
{
    QString bucket; ///< "<5%" ... ">20%", "unknown"
    double monthlyShare = 0;
    double exposureHours = 12;
    double ratePerHour = 0;
    QString basis;
};

/// The documented spot interruption defaults (resources/SPOT.md).
class SpotDefaults
{
public:
    SpotDefaults() = default;
    /// Parses the two CSVs (columns by name, '#' comment lines first).
    static Result<SpotDefaults> fromCsv(const QString &ratesCsv, const QString &awsBucketsCsv);
    /// The tables shipped inside the application.
    static const SpotDefaults &builtin();

    /// The best row for an offer (SPOT.md "The rule"): provider exact else "*", then capacity exact else
    /// "*", then capacity class exact else "*", key by key; among the rows left with min_gpus <= gpuCount
    /// the largest min_gpus (an empty capacity matches any). nullptr when nothing matches.
    const SpotRateRow *baseRow(QStringView provider, QStringView capacity, QStringView capacityClass,
                               double gpuCount) const;
    /// The bucket's row; the "unknown" row for an empty or unknown label (nullptr if the table lacks it).
    const AwsBucketRate *awsBucket(QStringView label) const;
    const QList<SpotRateRow> &rows() const { return m_rows; }

private:
    QList<SpotRateRow> m_rows;
    QList<AwsBucketRate> m_buckets;
};

/// The interruption rate of ONE spot instance and where each part comes from.
struct SpotRate
{
    double perHour = 0;                    ///< base + per-offer term, or the user's override
    double basePerHour = 0;                ///< the matched row's base rate
    double offerPerHour = 0;               ///< AWS bucket term or vast.ai 1 - reliability
    double restoreMinutes = 10;            ///< the row's suggested restore time
    std::optional<double> maxRuntimeHours; ///< capacity cap (GCP preemptible)
    bool assumed = false;                  ///< no per-offer figure backs the rate (flag interruption-assumed)
    bool overridden = false;               ///< the user's rate for the provider replaced it
    const SpotRateRow *row = nullptr;
    const AwsBucketRate *bucket = nullptr; ///< AWS only
};

/// SPOT.md "The rule": base(provider, spot label, capacity class, GPU count) + per-offer term
/// (AWS: the bucket's rate_per_hour, the "unknown" row without a bucket; vast.ai: 1 - reliability,
/// 0.98 when absent; others 0). assumed = AWS without bucket, vast.ai without reliability, or another
/// provider. A user override (>= 0) replaces perHour entirely and clears `assumed`; the cap stays.
/// An unrecognised GPU counts as capacity class "standard".
SpotRate spotRate(const SpotDefaults &defaults, QStringView provider, QStringView spotLabel,
                  QStringView capacityClass, double gpuCount, QStringView awsBucketLabel,
                  std::optional<double> reliability, std::optional<double> userOverridePerHour);

/// vast.ai reliability assumed for an offer without one (SPOT.md).
inline constexpr double kVastDefaultReliability = 0.98;
/// Base rate used when no row matches at all (the standard-GPU default of SPOT.md).
inline constexpr double kFallbackInterruptionsPerHour = 0.015;

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "util/bytesink.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace gf {

class ProviderTables;

/// What an AWS EC2 price list offer file (one region, or the global file) yields: the Linux,
/// shared-tenancy, no-pre-installed-software, capacity "Used", on-demand hourly price of every GPU
/// instance type, joined with the project's instance-type table (the file has no GPU model).
struct AwsOfferResult
{
    QString version;         ///< "version" of the offer file, e.g. 20250912225308
    QString publicationDate; ///< ISO date-time
    QStringList regions;     ///< region codes seen in the kept rows
    QList<Offer> offers;     ///< on-demand only (spot comes from the spot feed)
    QStringList warnings;
    qint64 products = 0; ///< products seen
    qint64 bytes = 0;    ///< bytes parsed
};

/// Streaming reader of an AWS offer file, JSON or CSV flavour (decided on the first byte).
/// Memory stays bounded whatever the file size: the JSON is parsed as events, products that are
/// not GPU instances and reserved terms are skipped unparsed, and only the kept SKUs are held.
/// Usable as an ByteSink (a retried download starts it over) or fed from a file.
class AwsOfferStream final : public ByteSink
{
public:
    /// `origin` names the file or URL in messages; `defaultRegion` is used when rows have no
    /// regionCode (older files); `tables` maps instance types to GPUs.
    AwsOfferStream(const ProviderTables &tables, QString origin, QString defaultRegion = {});
    ~AwsOfferStream() override;

    void begin() override;
    bool write(const char *data, std::size_t size) override;
    QString errorString() const override;
    /// Ends the input; returns the offers or what was wrong (naming the origin).
    Result<AwsOfferResult> finish();

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

/// Convenience for tests and fuzzers: the whole document in memory.
Result<AwsOfferResult> parseAwsOffers(QByteArrayView data, const ProviderTables &tables,
                                      const QString &origin, const QString &defaultRegion = {});

/// The region index (offers/v1.0/aws/AmazonEC2/current/region_index.json): region code -> URL of its
/// current offer file (relative URLs as in the file).
struct AwsRegionIndex
{
    QString publicationDate;
    QList<QPair<QString, QString>> regions; ///< (regionCode, currentVersionUrl), sorted by code
};
Result<AwsRegionIndex> parseAwsRegionIndex(QByteArrayView data, const QString &origin);

} // namespace gf

#pragma once

#include "providers/awsspot.h"
#include "providers/azureretail.h"
#include "providers/gcpbilling.h"
#include "providers/snapshotfile.h"
#include "util/csv.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gf {

class ProviderTables;

/// The real formats GPU Frontier reads, detected from the first bytes of a file or body.
enum class ProviderFormat
{
    Unknown,
    GpuFrontierCsv, ///< resources/catalog/*.csv
    SkypilotCsv,    ///< skypilot-catalog vms.csv
    AwsOfferJson,   ///< EC2 price list offer file (JSON)
    AwsOfferCsv,    ///< EC2 price list offer file (CSV flavour)
    AwsSpotFeed,    ///< spot.js (JSONP) or spot.json
    AwsSpotAdvisor, ///< spot-advisor-data.json
    AzureRetail,    ///< Retail Prices API page
    GcpSkus,        ///< Cloud Billing Catalog SKU page
    VastOffers,     ///< vast.ai offer search answer
};

QString providerFormatName(ProviderFormat format);
/// Which provider a format belongs to (empty for the provider-neutral CSVs).
QString providerOfFormat(ProviderFormat format);
/// Detects the format from the first bytes (64 KB are plenty).
ProviderFormat detectProviderFormat(QByteArrayView head);

/// The parsed sources of one provider before they are combined into one snapshot.
struct ProviderParts
{
    QString provider;
    bool haveAwsOffers = false;
    QList<Offer> awsOnDemand;
    std::optional<AwsSpotPrices> awsSpot;
    std::optional<AwsSpotAdvisor> awsAdvisor;
    QList<AzureRetailItem> azureItems; ///< items held whole (composed when no composer is set)
    QList<GcpSku> gcpSkus;             ///< SKUs held whole (composed when no composer is set)
    /// The saved API pages a file import read, folded page by page as each file is read (readProviderFiles):
    /// their offers are composed by composeProvider (once: finishing starts the composer over).
    std::shared_ptr<OfferComposer<AzureRetailItem>> azureComposer;
    std::shared_ptr<OfferComposer<GcpSku>> gcpComposer;
    std::optional<SnapshotData> complete; ///< a source that is a whole catalog already (CSV, vast.ai)
    /// SHA-256 (raw) of a GPU Frontier catalog CSV read from a file, computed while it streamed: the
    /// snapshot checksum of the file as it is (as the bundled snapshot's). Empty otherwise.
    QByteArray fileSha256;
    QStringList warnings;
    QStringList descriptions;
    QDate dataDate;
};

/// Combines the parts into the provider's snapshot. AWS spot or advisor data without an offer file
/// apply to `currentAws` (the offers of the current AWS snapshot).
Result<SnapshotData> composeProvider(ProviderParts parts, const ProviderTables &tables,
                                     const QList<Offer> *currentAws = nullptr);

/// Progress of a long parse: permille of the work and a message.
using PartProgress = std::function<void(int permille, const QString &message)>;

/// Reads the files a user downloaded (air-gapped import) into parts: every file is detected, must
/// belong to `provider`, and goes through the same parser as the live refresh (the AWS offer file
/// streamed from disk). Errors name the provider, the file and what is wrong.
Result<ProviderParts> readProviderFiles(const QString &provider, const QStringList &paths,
                                        const ProviderTables &tables, const PartProgress &progress = {},
                                        const std::atomic_bool *cancel = nullptr,
                                        const InputLimits &limits = {});

/// Whether `paths` is one whole-catalog file that imports streamed (streamCatalogFile): a GPU Frontier
/// catalog CSV, a vast.ai offer search answer or a SkyPilot catalog (vms.csv).
bool streamsAsCatalog(const QStringList &paths);

/// Reads one whole-catalog file of `provider` (streamsAsCatalog), with the checks and messages of
/// readProviderFiles, giving its offers to `sink` as they are read: nothing holds them all. The result holds
/// the catalog's header and warnings, no offers; `fileSha256` gets the snapshot's checksum (raw SHA-256):
/// a GPU Frontier CSV's bytes, computed while it streamed, or the offers' fingerprint
/// (snapshotFingerprintSha256) of a vast.ai answer or a SkyPilot catalog.
Result<SnapshotData> streamCatalogFile(const QString &provider, const QString &path, OfferSink &sink,
                                       const InputLimits &limits, QByteArray *fileSha256,
                                       const ProviderTables &tables);

/// A canonical text of the offers (sorted), hashed as the snapshot checksum: the same prices give
/// the same checksum whatever the download's byte order, so "unchanged" is detected.
QByteArray snapshotFingerprint(const SnapshotData &data);
/// The SHA-256 (raw) of snapshotFingerprint, hashed row by row (the fingerprint's text is never whole).
QByteArray snapshotFingerprintSha256(const SnapshotData &data);

/// Passes a streamed catalog on to the import with the header its source gives it (its description and the
/// date of the prices, whatever the parser's head says), counting the offers.
class CatalogHeadSink final : public OfferSink
{
public:
    CatalogHeadSink(OfferSink &next, QString description, QDate dataDate)
        : m_next(next), m_description(std::move(description)), m_dataDate(dataDate)
    {
    }
    Status begin(const SnapshotData &head) override;
    Status add(Offer &&offer) override;
    qint64 offers() const { return m_offers; }
    QDate dataDate() const { return m_dataDate; }

private:
    OfferSink &m_next;
    QString m_description;
    QDate m_dataDate;
    qint64 m_offers = 0;
};

/// Passes the offers on and computes the snapshot's fingerprint (snapshotFingerprintSha256 of the offers
/// given, in any order) as they go: each row is kept as compact UTF-8 (~150 bytes an offer, not the offer)
/// to be sorted at the end (sorted as QString compares them).
class FingerprintingSink final : public OfferSink
{
public:
    explicit FingerprintingSink(OfferSink &next) : m_next(next) {}
    Status begin(const SnapshotData &head) override;
    Status add(Offer &&offer) override;
    /// After the last offer: the fingerprint's SHA-256 (raw); `provider` when begin() was not called.
    QByteArray sha256(const QString &provider);

private:
    struct Row
    {
        std::string_view text; ///< in m_blocks
        bool plain;            ///< no character at or above U+D800: its UTF-8 bytes sort as the text
    };
    OfferSink &m_next;
    QString m_provider;
    std::vector<Row> m_rows;
    std::vector<std::unique_ptr<char[]>> m_blocks; ///< the rows' bytes, one after the other
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::string m_row; ///< the row being made
};

/// Gives every offer its 1-based row number (validation messages name it), unless the parser gave the
/// offers their file lines already.
void numberRows(SnapshotData &data);

} // namespace gf

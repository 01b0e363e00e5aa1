#pragma once

#include "providers/providerimport.h"
#include "refresh/httpclient.h"
#include "refresh/refreshoptions.h"
#include "store/catalogstore.h"
#include "store/refreshstate.h"
#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace gf {

class ProviderTables;

/// What a price source downloaded, ready to be composed into a snapshot and imported.
struct FetchedCatalog
{
    ProviderParts parts;
    bool notModified = false; ///< every document answered 304
    bool recordCheck = true;  ///< record an "unchanged" row when nothing changed
    QString origin;           ///< where the prices came from: the URL after redirects (responseOrigin)
    QList<FetchState> states; ///< conditional-request validators, stored after a successful import
    SourceKind kind = SourceKind::Live;
    QByteArray rawPayload;    ///< checksum input when the source is a whole catalog file
    QByteArray payloadSha256; ///< or its SHA-256 (raw), computed while the file streamed (wins when set)
    qint64 bytes = 0;
    int requests = 0;
    QString note;     ///< an extra line of facts for the outcome message
    QString noteCode; ///< what kind of note it is, for the front ends' advice ("no-public-api")
    /// A whole catalog that streams straight into the import (a GPU Frontier catalog CSV file, the pages of
    /// the vast.ai offer search), instead of `parts`: reads it into `sink` (CatalogStore's SnapshotImport)
    /// and returns its header and warnings (no offers), its checksum (raw SHA-256) in `*sha256`. `self` is
    /// this catalog: a source that downloads while it streams adds its bytes and requests there. A live
    /// source's callback may use the SourceContext it was fetched with (alive until the import is done).
    std::function<Result<SnapshotData>(OfferSink &sink, QByteArray *sha256, FetchedCatalog &self)> streamed;
};

/// What a price source may use while it fetches: the options, the provider tables, the store (for
/// conditional-request state), progress and cancellation.
class SourceContext
{
public:
    SourceContext(const RefreshOptions &options, CatalogStore &store, const ProviderTables &tables,
                  const std::atomic_bool *cancel, const RefreshProgress &progress);

    const RefreshOptions &options() const { return m_options; }
    const ProviderTables &tables() const { return m_tables; }
    CatalogStore &store() const { return m_store; }
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    void report(int permille, const QString &message) const;

    /// An HTTP client with the refresh's options, cancel flag and secrets (kept out of its errors).
    /// Use one client for all requests of a source: it keeps the connection between them.
    HttpClient http() const;
    /// `text` without the refresh's credentials (API keys, URL userinfo, key=... parameters).
    QString redact(const QString &text) const;
    /// defaultUrl moved onto the overriding base URL (same path and query), if one is set.
    QString endpoint(const QString &defaultUrl) const;
    /// An absolute URL found in a document (next page, region file) moved onto the overriding base.
    QString rebase(const QString &url) const;

    /// A small document (index, spot feed, advisor) with a conditional request: a 304 reuses the
    /// copy stored with the current snapshot. Validators and bytes are recorded in `into`.
    struct Document
    {
        QByteArray body;
        bool notModified = false;
        QString effectiveUrl; ///< where the document came from after redirects (the URL asked for on a 304)
    };
    Result<Document> document(HttpClient &http, const QString &provider, const QString &url,
                              FetchedCatalog &into) const;

private:
    const RefreshOptions &m_options;
    CatalogStore &m_store;
    const ProviderTables &m_tables;
    const std::atomic_bool *m_cancel;
    const RefreshProgress &m_progress;
    QStringList m_secrets;
};

/// One provider's live price source (its public API or files). One class per provider; the
/// refresher finds them through priceSource() and never switches on the provider's name.
class PriceSource
{
public:
    virtual ~PriceSource() = default;
    /// The provider id ("aws", ...).
    virtual QString provider() const = 0;
    /// The public endpoint a refresh downloads from; empty when the provider has no price API.
    virtual QString defaultBaseUrl() const = 0;
    /// Downloads and parses the provider's current prices.
    virtual Result<FetchedCatalog> fetch(const SourceContext &context) const = 0;
};

/// The price source of a provider, nullptr for an unknown provider. A provider with a keyless API of its own
/// and SkyPilot's catalog (domain/provider.h directSource) gets its own API by default and the catalog for
/// SourceChoice::Skypilot; a choice the provider does not have gives nullptr (sourceChoiceError says why).
const PriceSource *priceSource(const QString &provider, SourceChoice choice = SourceChoice::Default);

/// Why `choice` is not a source of `provider` ("Lambda has no keyless API of its own: ..."); empty when it
/// is.
QString sourceChoiceError(const QString &provider, SourceChoice choice);

/// The origin a snapshot records for a response: the URL it finally came from after redirects (the one
/// asked for when the client did not say), without the query when `withoutQuery` (paged APIs).
QString responseOrigin(const HttpResponse &response, const QString &requested, bool withoutQuery = false);

/// "12.3" megabytes, for progress lines.
QString megabytesText(qint64 bytes);

} // namespace gf

#pragma once

#include "httpclient.h"
#include "result.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace gf {

class CatalogStore;
class GpuCatalog;
class ProviderTables;

/// How a refresh runs. Base URLs are overridable (mirrors, proxies, tests).
struct RefreshOptions
{
    /// Replaces the scheme, host and port of every endpoint of the provider; the paths stay
    /// (AWS: <base>/offers/v1.0/aws/AmazonEC2/current/region_index.json, <base>/spot.json,
    /// <base>/spot-advisor-data.json; Azure: <base>/api/retail/prices; GCP: <base>/v1/services/...;
    /// vast.ai: <base>/api/v0/bundles/; Paperspace: <base>/paperspace.csv).
    QString baseUrl;
    QString gcpApiKey;      ///< Cloud Billing Catalog API key (never printed)
    QString vastApiKey;     ///< optional bearer token for vast.ai
    QStringList awsRegions; ///< empty = every region of the index except the China partition (CNY)
    HttpOptions http;
    int minRows = 5;             ///< fewer offers means a truncated or empty answer: rejected
    int maxPages = 2000;         ///< guard against endless pagination
    int azureSizesPerQuery = 12; ///< VM sizes per Retail Prices $filter (keeps URLs short)
    bool conditional = true;     ///< send ETag/Last-Modified validators
};

enum class RefreshStatus
{
    Imported,
    Unchanged,
    Failed,
    Cancelled
};
QString refreshStatusName(RefreshStatus status);

/// How one provider's refresh or import ended.
struct RefreshOutcome
{
    QString provider;
    RefreshStatus status = RefreshStatus::Failed;
    qint64 snapshotId = 0;
    int rows = 0;
    int unrecognised = 0;
    QString origin;
    QString message; ///< the error, or a one-line summary
    QStringList warnings;
    qint64 bytes = 0;
    int requests = 0;
    bool ok() const { return status == RefreshStatus::Imported || status == RefreshStatus::Unchanged; }
};

/// Progress on a 0-1000 scale with a message ("AWS: us-east-1 offer file, 120 of 480 MB").
using RefreshProgress = std::function<void(int permille, const QString &message)>;

/// Fetches a provider's real price sources, parses and validates them, and imports one snapshot in
/// one transaction. Any failure leaves the catalog as it was (the previous snapshot stays current)
/// and is logged as the provider's last error. Blocking: run it on a worker thread with its own
/// CatalogStore (RefreshService does).
class CatalogRefresher
{
public:
    CatalogRefresher(CatalogStore &store, RefreshOptions options = {});
    CatalogRefresher(CatalogStore &store, RefreshOptions options, const ProviderTables &tables,
                     const GpuCatalog &gpus);

    void setCancelFlag(const std::atomic_bool *cancel) { m_cancel = cancel; }
    void setProgress(RefreshProgress progress) { m_progress = std::move(progress); }

    /// Refreshes one provider from its live source.
    RefreshOutcome refresh(const QString &provider);
    /// Imports files the user downloaded, through the same parsers and checks.
    RefreshOutcome importFiles(const QString &provider, const QStringList &paths);

    static QString defaultBaseUrl(const QString &provider);
    /// Age in days of the curated Paperspace table shipped with the application.
    static QDate paperspaceTableDate();

private:
    struct Fetched;
    Result<Fetched> fetchAws();
    Result<Fetched> fetchAzure();
    Result<Fetched> fetchGcp();
    Result<Fetched> fetchVast();
    Result<Fetched> fetchPaperspace();
    QString endpoint(const QString &provider, const QString &defaultUrl) const;
    void report(int permille, const QString &message) const;
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    RefreshOutcome conclude(const QString &provider, QDateTime started, Result<Fetched> fetched, bool live);

    CatalogStore &m_store;
    RefreshOptions m_options;
    const ProviderTables &m_tables;
    const GpuCatalog &m_gpus;
    const std::atomic_bool *m_cancel = nullptr;
    RefreshProgress m_progress;
    int m_rangeFrom = 0; ///< progress sub-range of the step in progress
    int m_rangeTo = 1000;
};

} // namespace gf

Q_DECLARE_METATYPE(gf::RefreshOutcome)

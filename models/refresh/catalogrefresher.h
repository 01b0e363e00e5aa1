#pragma once

#include "refresh/refreshoptions.h"
#include "util/result.h"

#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>

namespace gf {

class CatalogStore;
class GpuCatalog;
class ProviderTables;
struct FetchedCatalog;

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
    QString message; ///< the error, or a one-line summary (facts only)
    QString code;    ///< Error::code of a failure, or the kind of note ("gcp-api-key", "no-public-api")
    QStringList warnings;
    qint64 bytes = 0;
    int requests = 0;
    bool ok() const { return status == RefreshStatus::Imported || status == RefreshStatus::Unchanged; }
};

/// Fetches a provider's real price sources, parses and validates them, and imports one snapshot in
/// one transaction. Any failure leaves the catalog as it was (the previous snapshot stays current)
/// and is logged as the provider's last error. Credentials (API keys, URL userinfo, key=...
/// parameters) are redacted from every message, warning, log row and stored origin. Blocking: run it on a
/// worker thread with its own CatalogStore (RefreshService does).
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

private:
    void report(int permille, const QString &message) const;
    bool cancelled() const { return m_cancel && m_cancel->load(); }
    RefreshOutcome conclude(const QString &provider, QDateTime started, Result<FetchedCatalog> fetched,
                            bool live);

    CatalogStore &m_store;
    RefreshOptions m_options;
    const ProviderTables &m_tables;
    const GpuCatalog &m_gpus;
    const std::atomic_bool *m_cancel = nullptr;
    RefreshProgress m_progress;
    QStringList m_secrets; ///< refreshSecrets(m_options): redacted in every text
};

} // namespace gf

Q_DECLARE_METATYPE(gf::RefreshOutcome)

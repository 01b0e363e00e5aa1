#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

namespace gf {

class CatalogStore;

/// What we know about one source URL: validators for a conditional request and the copy behind the
/// current snapshot (so a 304 can reuse it).
struct FetchState
{
    QString url;
    QString provider;
    QString etag;
    QString lastModified;
    QDateTime fetchedAt;
    QString cacheKind; ///< "raw" (the body) or "offers-csv" (offers parsed from a large file)
    QByteArray cache;
};

/// One refresh or file import attempt.
struct RefreshLogEntry
{
    qint64 id = 0;
    QString provider;
    QDateTime startedAt;
    QDateTime finishedAt;
    QString outcome; ///< imported, unchanged, failed, cancelled
    QString origin;
    qint64 snapshotId = 0;
    QString message;
};

/// Refresh bookkeeping (schema 3: fetch_state, refresh_log) on a CatalogStore's connection.
/// Same thread rules as the store.
class RefreshState
{
public:
    explicit RefreshState(const CatalogStore &store);

    Result<std::optional<FetchState>> fetchState(const QString &url) const;
    /// Replaces the states of these URLs, in one transaction.
    Status saveFetchStates(const QList<FetchState> &states);

    /// Records that a provider was checked and nothing changed (HTTP 304 or the same content): a
    /// snapshot row with status "unchanged" and no offers; the current snapshot stays current.
    Result<qint64> recordUnchanged(const QString &provider, const QString &kind, const QString &origin,
                                   const QString &note);

    Result<qint64> log(const RefreshLogEntry &entry);
    /// Newest entries first; provider empty = all.
    Result<QList<RefreshLogEntry>> recentLog(const QString &provider = {}, int limit = 20) const;
    /// The newest attempt of a provider when it failed (the "last error"), else nothing.
    Result<std::optional<RefreshLogEntry>> lastError(const QString &provider) const;

private:
    const CatalogStore *m_store;
    QString m_connection;
};

} // namespace gf

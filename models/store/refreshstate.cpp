#include "store/refreshstate.h"

#include "store/catalogstore.h"
#include "store/storetime.h"

#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

namespace gf {

using store::fromIso;
using store::isoUtc;

namespace {

QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

RefreshLogEntry entryFrom(const QSqlQuery &q)
{
    RefreshLogEntry e;
    e.id = q.value(0).toLongLong();
    e.provider = q.value(1).toString();
    e.startedAt = fromIso(q.value(2).toString());
    e.finishedAt = fromIso(q.value(3).toString());
    e.outcome = q.value(4).toString();
    e.origin = q.value(5).toString();
    e.snapshotId = q.value(6).toLongLong();
    e.message = q.value(7).toString();
    return e;
}

} // namespace

RefreshState::RefreshState(const CatalogStore &store) : m_store(&store), m_connection(store.connectionName())
{
}

Result<std::optional<FetchState>> RefreshState::fetchState(const QString &url) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("SELECT url, provider, etag, last_modified, fetched_at, cache_kind, cache FROM "
                             "fetch_state WHERE url = ?"));
    q.addBindValue(url);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot read the refresh state"), q.lastError().text());
    if (!q.next())
        return std::optional<FetchState>();
    FetchState s;
    s.url = q.value(0).toString();
    s.provider = q.value(1).toString();
    s.etag = q.value(2).toString();
    s.lastModified = q.value(3).toString();
    s.fetchedAt = fromIso(q.value(4).toString());
    s.cacheKind = q.value(5).toString();
    s.cache = q.value(6).toByteArray();
    return std::optional<FetchState>(s);
}

Status RefreshState::saveFetchStates(const QList<FetchState> &states)
{
    if (auto st = m_store->checkBeforeWrite(); !st)
        return st;
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    if (!db.transaction())
        return makeError(QStringLiteral("Cannot store the refresh state"), db.lastError().text());
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO fetch_state(url, provider, etag, last_modified, fetched_at, cache_kind, cache) "
        "VALUES(?, ?, ?, ?, ?, ?, ?) ON CONFLICT(url) DO UPDATE SET provider=excluded.provider, "
        "etag=excluded.etag, last_modified=excluded.last_modified, fetched_at=excluded.fetched_at, "
        "cache_kind=excluded.cache_kind, cache=excluded.cache"));
    for (const FetchState &s : states) {
        q.addBindValue(s.url);
        q.addBindValue(s.provider);
        q.addBindValue(text(s.etag));
        q.addBindValue(text(s.lastModified));
        q.addBindValue(isoUtc(s.fetchedAt.isValid() ? s.fetchedAt : QDateTime::currentDateTimeUtc()));
        q.addBindValue(text(s.cacheKind));
        q.addBindValue(s.cache);
        if (!q.exec()) {
            const QString e = q.lastError().text();
            db.rollback();
            return makeError(QStringLiteral("Cannot store the refresh state"), e);
        }
    }
    if (!db.commit()) {
        const QString e = db.lastError().text();
        db.rollback();
        return makeError(QStringLiteral("Cannot store the refresh state"), e);
    }
    return Ok{};
}

Result<qint64> RefreshState::recordUnchanged(const QString &provider, const QString &kind,
                                             const QString &origin, const QString &note)
{
    if (auto st = m_store->checkBeforeWrite(); !st)
        return st.error();
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    QSqlQuery q(db);
    // The unchanged row repeats the current snapshot's checksum and data date; it holds no offers.
    q.prepare(QStringLiteral(
        "INSERT INTO snapshot(provider, source_kind, origin, fetched_at, data_date, checksum, row_count, "
        "unrecognised_count, status, note) "
        "SELECT ?, ?, ?, ?, (SELECT data_date FROM snapshot WHERE provider = ? AND status = 'ok' "
        "ORDER BY fetched_at DESC, id DESC LIMIT 1), "
        "COALESCE((SELECT checksum FROM snapshot WHERE provider = ? AND status = 'ok' "
        "ORDER BY fetched_at DESC, id DESC LIMIT 1), ''), 0, 0, 'unchanged', ?"));
    q.addBindValue(provider);
    q.addBindValue(kind);
    q.addBindValue(origin);
    q.addBindValue(isoUtc(QDateTime::currentDateTimeUtc()));
    q.addBindValue(provider);
    q.addBindValue(provider);
    q.addBindValue(text(note));
    if (!q.exec())
        return makeError(QStringLiteral("Cannot record the unchanged check of %1").arg(provider),
                         q.lastError().text());
    return q.lastInsertId().toLongLong();
}

Result<qint64> RefreshState::log(const RefreshLogEntry &e)
{
    if (auto st = m_store->checkBeforeWrite(); !st)
        return st.error();
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral(
        "INSERT INTO refresh_log(provider, started_at, finished_at, outcome, origin, snapshot_id, message) "
        "VALUES(?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(e.provider);
    q.addBindValue(isoUtc(e.startedAt.isValid() ? e.startedAt : QDateTime::currentDateTimeUtc()));
    q.addBindValue(isoUtc(e.finishedAt.isValid() ? e.finishedAt : QDateTime::currentDateTimeUtc()));
    q.addBindValue(e.outcome);
    q.addBindValue(text(e.origin));
    q.addBindValue(e.snapshotId > 0 ? QVariant(e.snapshotId) : QVariant(QMetaType(QMetaType::LongLong)));
    q.addBindValue(text(e.message));
    if (!q.exec())
        return makeError(QStringLiteral("Cannot record the refresh of %1").arg(e.provider),
                         q.lastError().text());
    return q.lastInsertId().toLongLong();
}

Result<QList<RefreshLogEntry>> RefreshState::recentLog(const QString &provider, int limit) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    QString sql = QStringLiteral("SELECT id, provider, started_at, finished_at, outcome, origin, "
                                 "snapshot_id, message FROM refresh_log");
    if (!provider.isEmpty())
        sql += QStringLiteral(" WHERE provider = ?");
    sql += QStringLiteral(" ORDER BY id DESC LIMIT ?");
    q.prepare(sql);
    if (!provider.isEmpty())
        q.addBindValue(provider);
    q.addBindValue(limit);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot read the refresh log"), q.lastError().text());
    QList<RefreshLogEntry> out;
    while (q.next())
        out.append(entryFrom(q));
    return out;
}

Result<std::optional<RefreshLogEntry>> RefreshState::lastError(const QString &provider) const
{
    auto log = recentLog(provider, 1);
    if (!log)
        return log.error();
    if (log.value().isEmpty() || log.value().first().outcome != u"failed")
        return std::optional<RefreshLogEntry>();
    return std::optional<RefreshLogEntry>(log.value().first());
}

} // namespace gf

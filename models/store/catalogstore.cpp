#include "store/catalogstore.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "domain/snapshotchecks.h"
#include "store/offerreader.h"
#include "store/storetime.h"
#include "util/printable.h"
#include "util/resourcefiles.h"

#include <QAtomicInt>
#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QStandardPaths>
#include <QThread>
#include <QUrl>
#include <QVariant>

#include <array>
#include <cstdio>
#include <limits>
#include <string>

#include <sqlite3.h>

#ifdef Q_OS_LINUX
#include <sys/stat.h>
#include <sys/sysmacros.h>
#endif

namespace gf {

using store::fromIso;
using store::isoUtc;

namespace {

QAtomicInt s_connectionCounter;

const QStringList &migrations()
{
    static const QStringList files = {
        QStringLiteral("sql/001_initial.sql"),          QStringLiteral("sql/002_probe_runs.sql"),
        QStringLiteral("sql/003_refresh.sql"),          QStringLiteral("sql/004_vastai_metrics.sql"),
        QStringLiteral("sql/005_price_dates.sql"),

        QStringLiteral("sql/006_user_measurements.sql")};
    return files;
}

/// Splits a migration script into statements (statements end with ';' at the end of a line).
QStringList splitStatements(const QString &script)
{
    QStringList out;
    QString current;
    const QStringList lines = script.split(u'\n');
    for (const QString &line : lines) {
        const QString t = line.trimmed();
        if (t.startsWith(QStringLiteral("--")) || t.isEmpty())
            continue;
        current += line + u'\n';
        if (t.endsWith(u';')) {
            out.append(current.trimmed());
            current.clear();
        }
    }
    if (!current.trimmed().isEmpty())
        out.append(current.trimmed());
    return out;
}

/// The WHERE clauses of the offer reads (offerQueryPlans explains them).
QString snapshotOffersWhere()
{
    return QStringLiteral("o.snapshot_id = ? ORDER BY o.id");
}

QString historyWhere(bool withRegion)
{
    return QStringLiteral("o.provider = ? AND o.instance_type = ?") +
           (withRegion ? QStringLiteral(" AND o.region = ?") : QString()) +
           QStringLiteral(" ORDER BY s.fetched_at, s.id, o.region, o.zone");
}

QString currentNamesSql(const QString &column)
{
    return QStringLiteral(
               "SELECT DISTINCT o.provider, o.%1 FROM offer o WHERE o.snapshot_id IN (SELECT (SELECT s.id "
               "FROM snapshot s WHERE s.provider = p.id AND s.status = 'ok' ORDER BY s.fetched_at DESC, "
               "s.id DESC LIMIT 1) FROM provider p)")
        .arg(column);
}

QString sqlError(const QSqlQuery &q)
{
    return q.lastError().text();
}

/// What a SQLite failure means for the user, and what to do: SQLite's own words ("database or disk is
/// full") name neither the file nor a remedy.
QString sqliteProblem(const QString &path, const QString &sqlite)
{
    auto has = [&](const char *words) {
        return sqlite.contains(QLatin1StringView(words), Qt::CaseInsensitive);
    };
    if (has("disk is full"))
        return QStringLiteral(
                   "the disk holding %1 is full (or the file may not grow): free some space there, "
                   "or use a database on another disk (--db, $GPUFRONTIER_DB), and try again")
            .arg(path);
    if (has("disk I/O error"))
        return QStringLiteral(
                   "reading or writing %1 failed (a disk I/O error: the disk may be full, failing or "
                   "gone); check it and try again")
            .arg(path);
    if (has("malformed") || has("corrupt"))
        return QStringLiteral(
                   "%1 is damaged (SQLite finds malformed pages); restore a backup, or move it aside "
                   "and GPU Frontier starts a new catalog with the bundled prices")
            .arg(path);
    if (has("not a database") || has("encrypted"))
        return QStringLiteral("%1 is not a SQLite database; move it aside (GPU Frontier then starts a new "
                              "catalog there) or give another path with --db")
            .arg(path);
    if (has("unable to open"))
        return QStringLiteral("%1 cannot be opened (no permission, or its folder cannot be written)")
            .arg(path);
    if (has("readonly") || has("read-only"))
        return QStringLiteral("%1 is read-only for this user").arg(path);
    return sqlite;
}

/// The objects a database of the current schema holds (tables and indexes, with their SQL), from the
/// migrations run on an empty in-memory database: anything else (a trigger, a view, a changed table)
/// was not made by GPU Frontier.
const QHash<QString, QString> &expectedSchema()
{
    static const QHash<QString, QString> schema = [] {
        QHash<QString, QString> out;
        const QString name =
            QStringLiteral("gpufrontier-schema-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
            db.setDatabaseName(QStringLiteral(":memory:"));
            if (db.open()) {
                QSqlQuery q(db);
                for (const QString &file : migrations())
                    for (const QString &stmt : splitStatements(readResourceText(file)))
                        q.exec(stmt);
                q.exec(QStringLiteral(
                    "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"));
                while (q.next())
                    out.insert(q.value(0).toString() + u' ' + q.value(1).toString(),
                               q.value(2).toString().simplified());
            }
            db.close();
        }
        QSqlDatabase::removeDatabase(name);
        return out;
    }();
    return schema;
}

/// Qt binds a null QString as SQL NULL; NOT NULL text columns get an empty string instead.
QVariant text(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

/// Scope guard: rolls back unless committed. BEGIN IMMEDIATE takes the write lock up front, so two
/// processes (or two connections of one app) never both read a state and then both try to change it.
class Transaction
{
public:
    explicit Transaction(QSqlDatabase db) : m_db(std::move(db))
    {
        QSqlQuery q(m_db);
        m_active = q.exec(QStringLiteral("BEGIN IMMEDIATE"));
        if (!m_active)
            m_error = q.lastError();
    }
    /// Why BEGIN failed.
    QSqlError error() const { return m_error; }
    ~Transaction()
    {
        if (m_active)
            QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
    }
    bool active() const { return m_active; }
    bool commit()
    {
        if (!m_active)
            return false;
        m_active = false;
        QSqlQuery q(m_db);
        if (q.exec(QStringLiteral("COMMIT")))
            return true;
        m_commitError = q.lastError().text();
        QSqlQuery(m_db).exec(QStringLiteral("ROLLBACK"));
        return false;
    }
    /// SQLite's words when COMMIT failed (a full disk).
    QString commitError() const { return m_commitError; }

private:
    QSqlDatabase m_db;
    bool m_active = false;
    QSqlError m_error;
    QString m_commitError;
};

/// The line of /proc/locks (Linux) for a write lock on `file` within [from, to], as "process N (name)";
/// empty when none is listed or /proc/locks cannot be read. Reading /proc/locks opens nothing of the
/// database: closing a descriptor of it would drop this process's own SQLite locks.
QString writeLockHolder(const QString &file, qint64 from, qint64 to)
{
#ifndef Q_OS_LINUX
    Q_UNUSED(file);
    Q_UNUSED(from);
    Q_UNUSED(to);
    return {};
#else
    struct stat st;
    if (::stat(QFile::encodeName(file).constData(), &st) != 0)
        return {};
    QFile locks(QStringLiteral("/proc/locks"));
    if (!locks.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    const QString id = QStringLiteral("%1:%2:%3")
                           .arg(major(st.st_dev), 2, 16, QLatin1Char('0'))
                           .arg(minor(st.st_dev), 2, 16, QLatin1Char('0'))
                           .arg(static_cast<qulonglong>(st.st_ino));
    // "1: POSIX  ADVISORY  WRITE 3568 fd:00:2531452 120 120"
    for (const QByteArray &raw : locks.readAll().split('\n')) {
        const QStringList f = QString::fromLatin1(raw).simplified().split(u' ');
        if (f.size() < 8 || f.at(3) != u"WRITE" || f.at(5).compare(id, Qt::CaseInsensitive) != 0)
            continue;
        bool ok1 = false, ok2 = true;
        const qint64 start = f.at(6).toLongLong(&ok1);
        const qint64 end = f.at(7) == u"EOF" ? std::numeric_limits<qint64>::max() : f.at(7).toLongLong(&ok2);
        if (!ok1 || !ok2 || end < from || start > to)
            continue;
        const QString pid = f.at(4);
        QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
        const QString name =
            comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll()).trimmed() : QString();
        QString who = QStringLiteral("process %1").arg(pid);
        if (!name.isEmpty())
            who += QStringLiteral(" (%1)").arg(name);
        if (pid == QString::number(QCoreApplication::applicationPid()))
            who += QStringLiteral(", this program itself on another connection");
        return who;
    }
    return {};
#endif
}

/// Why a write transaction could not start: the lock and, where the system tells, what holds it.
QString lockedText(const QString &path, const QSqlError &error)
{
    const QString sqlite = error.text();
    if (!sqlite.contains(QStringLiteral("locked")) && !sqlite.contains(QStringLiteral("busy")))
        return sqlite;
    // WAL mode: the write lock is byte 120 of the -shm file; rollback journal: the reserved/pending bytes.
    QString holder = writeLockHolder(path + QStringLiteral("-shm"), 120, 120);
    if (holder.isEmpty())
        holder = writeLockHolder(path, 0x40000000, 0x40000002);
    QString text = QStringLiteral("the database %1 is locked: another connection is writing to it").arg(path);
    if (!holder.isEmpty())
        text += QStringLiteral(" (%1 holds its write lock)").arg(holder);
    else
        text += QStringLiteral(" (the system does not say which program)");
    return text + QStringLiteral("; try again when it has finished");
}

} // namespace

CatalogStore::CatalogStore(QString path, QString connection)
    : m_path(std::move(path)), m_connection(std::move(connection))
{
}

CatalogStore::~CatalogStore()
{
    {
        QSqlDatabase db = QSqlDatabase::database(m_connection, false);
        if (db.isOpen())
            db.close();
    }
    QSqlDatabase::removeDatabase(m_connection);
}

QString CatalogStore::defaultPath()
{
    const QString env = qEnvironmentVariable("GPUFRONTIER_DB");
    if (!env.isEmpty())
        return env;
    QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    if (dir.isEmpty())
        dir = QDir::homePath() + QStringLiteral("/.local/share/gpufrontier");
    return dir + QStringLiteral("/catalog.sqlite");
}

int CatalogStore::latestSchemaVersion()
{
    return static_cast<int>(migrations().size());
}

Result<std::unique_ptr<CatalogStore>> CatalogStore::open(const QString &path)
{
    return openAtVersion(path, latestSchemaVersion());
}

Result<std::unique_ptr<CatalogStore>> CatalogStore::openAtVersion(const QString &path, int targetVersion)
{
    if (path.isEmpty())
        return makeError(QStringLiteral("No database path given"));
    if (path != u":memory:") {
        const QFileInfo info(path);
        if (info.exists() && info.isDir())
            return makeError(QStringLiteral("Cannot open the catalog database %1: it is a folder").arg(path));
        if (!QDir().mkpath(info.absolutePath()))
            return makeError(
                QStringLiteral("Cannot open the catalog database %1: cannot create the folder %2")
                    .arg(path, info.absolutePath()));
    }
    const QString name = QStringLiteral("gpufrontier-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
    std::unique_ptr<CatalogStore> store(new CatalogStore(path, name));
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        db.setConnectOptions(QStringLiteral("QSQLITE_BUSY_TIMEOUT=5000"));
        if (!db.open())
            return makeError(QStringLiteral("Cannot open the catalog database %1").arg(path),
                             db.lastError().text());
        QSqlQuery q(db);
        // A file that is not SQLite fails here, on the first read.
        if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
            return makeError(QStringLiteral("Cannot open the catalog database %1: %2")
                                 .arg(path, sqliteProblem(path, sqlError(q))),
                             sqlError(q));
        if (path != u":memory:" && !q.exec(QStringLiteral("PRAGMA journal_mode=WAL")))
            return makeError(QStringLiteral("Cannot open the catalog database %1: %2")
                                 .arg(path, sqliteProblem(path, sqlError(q))),
                             sqlError(q));
        q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
        q.exec(QStringLiteral("PRAGMA synchronous=NORMAL"));
    }
    if (auto st = store->migrate(targetVersion); !st)
        return st.error();
    if (targetVersion == latestSchemaVersion())
        if (auto st = store->checkSchema(); !st)
            return st.error();
    return store;
}

bool CatalogStore::isWriteProtected(const QString &path)
{
    if (path == u":memory:")
        return false;
    const QFileInfo info(path);
    return info.exists() && (!info.isWritable() || !QFileInfo(info.absolutePath()).isWritable());
}

Result<std::unique_ptr<CatalogStore>> CatalogStore::openReadOnly(const QString &path)
{
    const QFileInfo info(path);
    if (!info.exists() || info.isDir())
        return makeError(
            QStringLiteral("Cannot open the catalog database %1 for reading: it does not exist").arg(path));
    // A WAL database needs its -shm file: where it cannot be created (a read-only folder), the database is
    // opened as immutable (no other program can change it there either).
    const bool canShare =
        QFileInfo(info.absolutePath()).isWritable() || QFileInfo::exists(path + QStringLiteral("-shm"));
    const QString uri = QUrl::fromLocalFile(info.absoluteFilePath()).toString(QUrl::FullyEncoded) +
                        (canShare ? QStringLiteral("?mode=ro") : QStringLiteral("?immutable=1"));
    const QString name = QStringLiteral("gpufrontier-%1").arg(s_connectionCounter.fetchAndAddRelaxed(1));
    std::unique_ptr<CatalogStore> store(new CatalogStore(path, name));
    store->m_readOnly = true;
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(uri);
    db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_OPEN_URI;QSQLITE_BUSY_TIMEOUT=5000"));
    if (!db.open())
        return makeError(QStringLiteral("Cannot open the catalog database %1 for reading").arg(path),
                         db.lastError().text());
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral("PRAGMA user_version")) || !q.next())
        return makeError(QStringLiteral("Cannot open the catalog database %1: %2")
                             .arg(path, sqliteProblem(path, sqlError(q))),
                         sqlError(q));
    const int version = q.value(0).toInt();
    if (version != latestSchemaVersion())
        return makeError(
            QStringLiteral("The catalog database %1 is read-only and has schema version %2; this "
                           "version of GPU Frontier needs %3, an upgrade that has to write")
                .arg(path, QString::number(version), QString::number(latestSchemaVersion())));
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    return store;
}

std::optional<Error> CatalogStore::readOnlyError() const
{
    if (!m_readOnly)
        return std::nullopt;
    return makeError(
        QStringLiteral("Cannot write to the catalog database %1: it is read-only (no write access "
                       "to it or its folder), opened for reading only")
            .arg(m_path));
}

int CatalogStore::schemaVersion() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (q.exec(QStringLiteral("PRAGMA user_version")) && q.next())
        return q.value(0).toInt();
    return -1;
}

Status CatalogStore::migrate(int targetVersion)
{
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    const int current = schemaVersion();
    if (current < 0) {
        QSqlQuery q(db);
        q.exec(QStringLiteral("PRAGMA user_version"));
        return makeError(QStringLiteral("Cannot read the schema version of %1: %2")
                             .arg(m_path, sqliteProblem(m_path, sqlError(q))),
                         sqlError(q));
    }
    if (current > latestSchemaVersion())
        return makeError(
            QStringLiteral("The catalog database %1 has schema version %2, newer than this version of "
                           "GPU Frontier understands (%3). Update the application.")
                .arg(m_path, QString::number(current), QString::number(latestSchemaVersion())));
    for (int v = current; v < targetVersion; ++v) {
        const QString script = readResourceText(migrations().at(v));
        if (script.isEmpty())
            return makeError(QStringLiteral("Migration %1 is missing from the application").arg(v + 1));
        Transaction tx(db);
        if (!tx.active())
            return makeError(
                QStringLiteral("Cannot start the migration to schema %1 of %2").arg(v + 1).arg(m_path),
                db.lastError().text());
        QSqlQuery q(db);
        // Another connection may have migrated while we waited for the lock.
        if (schemaVersion() > v)
            continue;
        for (const QString &stmt : splitStatements(script)) {
            if (!q.exec(stmt))
                return makeError(QStringLiteral("Migration to schema %1 of %2 failed: %3")
                                     .arg(QString::number(v + 1), m_path, sqliteProblem(m_path, sqlError(q))),
                                 sqlError(q) + QStringLiteral(" in: ") + stmt.left(80));
        }
        if (v == 0) {
            for (const QString &p : knownProviders()) {
                q.prepare(QStringLiteral("INSERT INTO provider(id, display_name) VALUES(?, ?)"));
                q.addBindValue(p);
                q.addBindValue(providerDisplayName(p));
                if (!q.exec())
                    return makeError(QStringLiteral("Migration 1 failed"), sqlError(q));
            }
        }
        if (!q.exec(QStringLiteral("PRAGMA user_version = %1").arg(v + 1)))
            return makeError(QStringLiteral("Migration to schema %1 failed").arg(v + 1), sqlError(q));
        if (!tx.commit()) {
            const QString why = tx.commitError().isEmpty() ? db.lastError().text() : tx.commitError();
            return makeError(QStringLiteral("Cannot set up the catalog database %1 (schema %2): %3")
                                 .arg(m_path, QString::number(v + 1), sqliteProblem(m_path, why)),
                             why);
        }
    }
    return Ok{};
}

Status CatalogStore::checkSchema() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")))
        return makeError(QStringLiteral("Cannot read the schema of the catalog database %1: %2")
                             .arg(m_path, sqliteProblem(m_path, sqlError(q))),
                         sqlError(q));
    const QHash<QString, QString> &expected = expectedSchema();
    if (expected.isEmpty())
        return makeError(
            QStringLiteral("The expected schema of the catalog database is missing from the application"));
    QSet<QString> seen;
    auto refuse = [&](const QString &what) {
        return makeError(QStringLiteral("The catalog database %1 %2, which GPU Frontier did not create: it "
                                        "is not used, so that nothing it does can change or hide prices. "
                                        "Remove it with the sqlite3 tool, or move the database aside (a new "
                                        "one starts with the bundled prices).")
                             .arg(m_path, what));
    };
    while (q.next()) {
        const QString type = q.value(0).toString();
        const QString name = q.value(1).toString();
        const QString key = type + u' ' + name;
        seen.insert(key);
        const auto it = expected.constFind(key);
        if (it == expected.constEnd())
            return refuse(QStringLiteral("holds a %1 \"%2\"").arg(type, name));
        if (*it != q.value(2).toString().simplified())
            return refuse(QStringLiteral("has a %1 \"%2\" defined differently").arg(type, name));
    }
    for (auto it = expected.constBegin(); it != expected.constEnd(); ++it)
        if (!seen.contains(it.key()))
            return refuse(QStringLiteral("lacks the %1").arg(it.key()));
    return Ok{};
}

Status CatalogStore::checkBeforeWrite() const
{
    if (auto ro = readOnlyError())
        return *ro;
    if (m_intact)
        return Ok{};
    // Once per connection, before its first write: a damaged file must not take in more data.
    QSqlQuery q(QSqlDatabase::database(m_connection));
    QStringList problems;
    if (!q.exec(QStringLiteral("PRAGMA quick_check(5)")))
        problems.append(sqlError(q));
    while (q.next())
        if (const QString line = q.value(0).toString(); line != u"ok")
            problems.append(line);
    if (!problems.isEmpty())
        return makeError(
            QStringLiteral("The catalog database %1 is damaged (SQLite's quick_check: %2); nothing is "
                           "written to it. Restore a backup, or move it aside: GPU Frontier "
                           "then starts a new catalog with the bundled prices.")
                .arg(m_path, printableText(problems.join(QStringLiteral("; "))).left(400)));
    if (auto st = checkSchema(); !st)
        return st;
    m_intact = true;
    return Ok{};
}

Status CatalogStore::syncGpuModels(const GpuCatalog &gpus)
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("INSERT INTO gpu_model(id, vendor, name, memory_gb) VALUES(?, ?, ?, ?) "
                             "ON CONFLICT(id) DO UPDATE SET vendor=excluded.vendor, name=excluded.name, "
                             "memory_gb=excluded.memory_gb"));
    for (const GpuModel &m : gpus.models()) {
        q.addBindValue(m.id);
        q.addBindValue(m.vendor);
        q.addBindValue(m.name);
        q.addBindValue(m.memoryGb);
        if (!q.exec())
            return makeError(QStringLiteral("Cannot store the GPU list"), sqlError(q));
    }
    return Ok{};
}

Result<ImportOutcome> CatalogStore::importSnapshot(SnapshotData data, SourceKind kind,
                                                   const QString &givenOrigin, const QByteArray &payload,
                                                   const GpuCatalog &gpus, const ImportOptions &options)
{
    ImportOptions o = options;
    if (o.payloadSha256.isEmpty())
        o.payloadSha256 = QCryptographicHash::hash(payload, QCryptographicHash::Sha256);
    auto session = beginImport(kind, givenOrigin, gpus, o);
    if (!session)
        return session.error();
    SnapshotImport &import = *session.value();
    QList<Offer> offers = std::move(data.offers);
    data.offers = {};
    if (auto st = import.begin(data); !st)
        return st.error();
    for (Offer &offer : offers)
        if (auto st = import.add(std::move(offer)); !st)
            return st.error();
    offers = {};
    return import.finish(std::move(data), o.payloadSha256);
}

Result<std::unique_ptr<SnapshotImport>> CatalogStore::beginImport(SourceKind kind, const QString &givenOrigin,
                                                                  const GpuCatalog &gpus,
                                                                  const ImportOptions &options,
                                                                  const std::atomic_bool *cancel)
{
    if (auto st = checkBeforeWrite(); !st)
        return st.error();
    // A file name or URL is shown like any provider text: no control characters.
    const QString origin = options.validate ? printableText(givenOrigin) : givenOrigin;
    return std::unique_ptr<SnapshotImport>(new SnapshotImport(*this, kind, origin, gpus, options, cancel));
}

namespace {

sqlite3 *sqliteHandle(const QSqlDatabase &db)
{
    const QVariant handle = db.driver() ? db.driver()->handle() : QVariant();
    return handle.isValid() && qstrcmp(handle.typeName(), "sqlite3*") == 0
               ? *static_cast<sqlite3 *const *>(handle.constData())
               : nullptr;
}

struct StatementDeleter
{
    void operator()(sqlite3_stmt *st) const { sqlite3_finalize(st); }
};
using Statement = std::unique_ptr<sqlite3_stmt, StatementDeleter>;

Statement prepare(sqlite3 *conn, const char *sql)
{
    sqlite3_stmt *raw = nullptr;
    if (!conn || sqlite3_prepare_v2(conn, sql, -1, &raw, nullptr) != SQLITE_OK)
        return {};
    return Statement(raw);
}

QString sqliteMessage(sqlite3 *conn)
{
    return conn ? QString::fromUtf8(sqlite3_errmsg(conn))
                : QStringLiteral("the database connection is not an open SQLite connection");
}

/// Binds a text (UTF-16, used as it is until the statement steps); a null QString as an empty text.
int bindText(sqlite3_stmt *st, int i, const QString &s)
{
    static const char16_t empty[1] = {0};
    return sqlite3_bind_text16(st, i, s.isEmpty() ? static_cast<const void *>(empty) : s.utf16(),
                               static_cast<int>(s.size() * 2), SQLITE_STATIC);
}

/// bindText through `buffer` (kept until the statement steps): an ASCII text is bound as the UTF-8 the
/// database stores, which spares SQLite its conversion from UTF-16; any other text as bindText binds it.
int bindTextVia(sqlite3_stmt *st, int i, const QString &s, std::string &buffer)
{
    const auto n = static_cast<std::size_t>(s.size());
    const char16_t *from = reinterpret_cast<const char16_t *>(s.constData());
    // Two plain loops (the compiler vectorises both): whether every unit is ASCII, then the narrowing.
    char16_t all = 0;
    for (std::size_t k = 0; k < n; ++k)
        all |= from[k];
    if (all >= 0x80)
        return bindText(st, i, s);
    buffer.resize(n);
    char *to = buffer.data();
    for (std::size_t k = 0; k < n; ++k)
        to[k] = static_cast<char>(from[k]);
    return sqlite3_bind_text(st, i, to, static_cast<int>(n), SQLITE_STATIC);
}

int bindOptional(sqlite3_stmt *st, int i, const std::optional<double> &v)
{
    return v ? sqlite3_bind_double(st, i, *v) : sqlite3_bind_null(st, i);
}

int bindDate(sqlite3_stmt *st, int i, const QDate &d)
{
    if (!d.isValid())
        return sqlite3_bind_null(st, i);
    int year = 0, month = 0, day = 0;
    d.getDate(&year, &month, &day);
    if (year >= 1 && year <= 9999) { // "YYYY-MM-DD" as Qt::ISODate writes it, without a QString per row
        char text[10];
        auto digits = [&](int at, int value, int count) {
            for (int k = count - 1; k >= 0; --k, value /= 10)
                text[at + k] = static_cast<char>('0' + value % 10);
        };
        digits(0, year, 4);
        text[4] = '-';
        digits(5, month, 2);
        text[7] = '-';
        digits(8, day, 2);
        return sqlite3_bind_text(st, i, text, sizeof text, SQLITE_TRANSIENT);
    }
    const QByteArray iso = d.toString(Qt::ISODate).toLatin1();
    return sqlite3_bind_text(st, i, iso.constData(), static_cast<int>(iso.size()), SQLITE_TRANSIENT);
}

} // namespace

/// The connection's page caches sized for an import (SnapshotImport::kImportCacheKiB), the earlier sizes
/// given back when the import ends (committed or not). SQLite allocates a cache's pages as they are used:
/// a small import takes no more memory than before.
class SnapshotImport::PageCache
{
public:
    explicit PageCache(sqlite3 *conn) : m_conn(conn)
    {
        m_main = read("main");
        m_temp = read("temp");
        set("main", -kImportCacheKiB);
        set("temp", -kImportTempCacheKiB);
    }
    ~PageCache()
    {
        if (m_main)
            set("main", *m_main);
        if (m_temp)
            set("temp", *m_temp);
    }
    PageCache(const PageCache &) = delete;
    PageCache &operator=(const PageCache &) = delete;

private:
    std::optional<qint64> read(const char *schema) const
    {
        const std::string sql = std::string("PRAGMA ") + schema + ".cache_size";
        Statement st = prepare(m_conn, sql.c_str());
        if (!st || sqlite3_step(st.get()) != SQLITE_ROW)
            return std::nullopt;
        return sqlite3_column_int64(st.get(), 0);
    }
    void set(const char *schema, qint64 size) const
    {
        if (!m_conn)
            return;
        const std::string sql = std::string("PRAGMA ") + schema + ".cache_size = " + std::to_string(size);
        sqlite3_exec(m_conn, sql.c_str(), nullptr, nullptr, nullptr);
    }

    sqlite3 *m_conn;
    std::optional<qint64> m_main, m_temp;
};

/// The rows and offer ids an import has seen, in temporary tables of its connection (SQLite keeps them in
/// a temporary file beyond its page cache): emptied when the import starts and when it ends.
class SnapshotImport::Seen final : public SeenRows
{
public:
    explicit Seen(sqlite3 *conn) : m_conn(conn)
    {
        if (m_conn)
            m_ready = sqlite3_exec(m_conn,
                                   "CREATE TEMP TABLE IF NOT EXISTS gf_import_row(digest BLOB PRIMARY KEY) "
                                   "WITHOUT ROWID; "
                                   "CREATE TEMP TABLE IF NOT EXISTS gf_import_offer_id(id TEXT PRIMARY KEY, "
                                   "line INTEGER NOT NULL, digest BLOB) WITHOUT ROWID; "
                                   "DELETE FROM temp.gf_import_row; DELETE FROM temp.gf_import_offer_id;",
                                   nullptr, nullptr, nullptr) == SQLITE_OK;
        m_row = prepare(m_conn, "INSERT OR IGNORE INTO temp.gf_import_row(digest) VALUES(?)");
        m_id = prepare(m_conn,
                       "INSERT OR IGNORE INTO temp.gf_import_offer_id(id, line, digest) VALUES(?, ?, ?)");
        m_idLine = prepare(m_conn, "SELECT line, digest FROM temp.gf_import_offer_id WHERE id = ?");
    }
    ~Seen() override
    {
        m_row.reset();
        m_id.reset();
        m_idLine.reset();
        if (m_conn && m_ready)
            sqlite3_exec(m_conn, "DELETE FROM temp.gf_import_row; DELETE FROM temp.gf_import_offer_id;",
                         nullptr, nullptr, nullptr);
    }
    Result<bool> addRow(QByteArrayView digest) override
    {
        if (!m_ready || !m_row)
            return failure();
        sqlite3_bind_blob(m_row.get(), 1, digest.constData(), static_cast<int>(digest.size()), SQLITE_STATIC);
        const int rc = sqlite3_step(m_row.get());
        sqlite3_reset(m_row.get());
        if (rc != SQLITE_DONE)
            return failure();
        return sqlite3_changes(m_conn) > 0;
    }
    Result<qint64> addOfferId(const QString &id, qint64 line) override
    {
        auto earlier = recordId(id, line, nullptr);
        if (!earlier)
            return earlier.error();
        return earlier.value().first;
    }
    /// One look-up where the id is new (recorded with the row's digest) or the row repeats the one recorded
    /// with it; only a row that differs from its id's (an offer id conflict, an error unless the import is
    /// refused for another reason first) goes to the table of rows as well. The rows of vast.ai offers with
    /// ids are thus not in gf_import_row: the same answers as addRow + addOfferId, half the inserts.
    Result<Keyed> addKeyedRow(const QString &id, QByteArrayView digest, qint64 line) override
    {
        auto earlier = recordId(id, line, &digest);
        if (!earlier)
            return earlier.error();
        Keyed k;
        if (earlier.value().first == 0) // a new id: a new row (an identical row has the same id)
            return k;
        if (earlier.value().second == digest) { // the row recorded with the id
            k.fresh = false;
            return k;
        }
        auto fresh = addRow(digest);
        if (!fresh)
            return fresh.error();
        k.fresh = fresh.value();
        if (k.fresh)
            k.earlier = earlier.value().first;
        return k;
    }

private:
    /// Records `id` at `line` (with `digest` when given): {0, -} when new, else the line and digest it was
    /// recorded with before.
    Result<std::pair<qint64, QByteArray>> recordId(const QString &id, qint64 line,
                                                   const QByteArrayView *digest)
    {
        if (!m_ready || !m_id || !m_idLine)
            return failure();
        bindTextVia(m_id.get(), 1, id, m_idText); // an offer id is digits: bound as UTF-8, no conversion
        sqlite3_bind_int64(m_id.get(), 2, line);
        if (digest)
            sqlite3_bind_blob(m_id.get(), 3, digest->constData(), static_cast<int>(digest->size()),
                              SQLITE_STATIC);
        else
            sqlite3_bind_null(m_id.get(), 3);
        int rc = sqlite3_step(m_id.get());
        sqlite3_reset(m_id.get());
        if (rc != SQLITE_DONE)
            return failure();
        if (sqlite3_changes(m_conn) > 0)
            return std::pair{qint64(0), QByteArray()};
        bindTextVia(m_idLine.get(), 1, id, m_idText);
        rc = sqlite3_step(m_idLine.get());
        std::pair<qint64, QByteArray> earlier;
        if (rc == SQLITE_ROW) {
            earlier.first = sqlite3_column_int64(m_idLine.get(), 0);
            earlier.second = QByteArray(static_cast<const char *>(sqlite3_column_blob(m_idLine.get(), 1)),
                                        sqlite3_column_bytes(m_idLine.get(), 1));
        }
        sqlite3_reset(m_idLine.get());
        if (rc != SQLITE_ROW)
            return failure();
        return earlier;
    }
    Error failure() const
    {
        return makeError(QStringLiteral("Cannot check the rows for repeats in the import's temporary tables"),
                         sqliteMessage(m_conn));
    }

    sqlite3 *m_conn;
    bool m_ready = false;
    Statement m_row, m_id, m_idLine;
    std::string m_idText; ///< the id bound to m_id / m_idLine (bindTextVia)
};

/// The import's transaction and its offer INSERT.
struct SnapshotImport::Tx
{
    explicit Tx(const QSqlDatabase &db) : transaction(db) {}
    Transaction transaction;
    Statement insertOffer;
    std::array<std::string, 27> text; ///< the texts bound to insertOffer's parameters (bindTextVia)
};

SnapshotImport::SnapshotImport(CatalogStore &store, SourceKind kind, QString origin, const GpuCatalog &gpus,
                               ImportOptions options, const std::atomic_bool *cancel)
    : m_store(store), m_kind(kind), m_origin(std::move(origin)), m_gpus(gpus), m_options(std::move(options)),
      m_cancel(cancel)
{
}

SnapshotImport::~SnapshotImport() = default;

Status SnapshotImport::begin(const SnapshotData &head)
{
    if (m_begun)
        return makeError(QStringLiteral("Cannot import %1: the catalog began twice").arg(m_origin));
    m_head.provider = head.provider;
    m_head.dataDate = head.dataDate;
    m_head.description = head.description;
    m_head.warnings = head.warnings;
    m_begun = true;
    return Ok{};
}

Status SnapshotImport::add(Offer &&offer)
{
    return addPrepared(std::move(offer), PreparedRow{});
}

Status SnapshotImport::addPrepared(Offer &&offer, const PreparedRow &prepared)
{
    if (!m_begun)
        return makeError(
            QStringLiteral("Cannot import %1: an offer came before the catalog's header").arg(m_origin));
    m_chunk.append(std::move(offer));
    m_prepared.push_back(prepared);
    ++m_received;
    m_peakHeld = std::max(m_peakHeld, m_chunk.size());
    if (m_chunk.size() >= kChunkRows)
        return flush(false);
    return Ok{};
}

Status SnapshotImport::flush(bool last)
{
    if (m_cancel && m_cancel->load())
        return makeError(QStringLiteral("Import of %1 cancelled; nothing was imported").arg(m_origin));
    if (m_options.validate) {
        if (!m_validator) {
            // Before the first row is checked: repeats are looked up in the database's temporary tables.
            sqlite3 *conn = sqliteHandle(QSqlDatabase::database(m_store.m_connection));
            m_seen = std::make_unique<Seen>(conn);
            if (!m_cache) // after the temporary tables exist: their cache is then the one sized
                m_cache = std::make_unique<PageCache>(conn);
            m_validator = std::make_unique<SnapshotValidator>(m_gpus, m_origin, m_options.limits, *m_seen);
            if (auto st =
                    m_validator->begin(m_head, last ? std::optional<qsizetype>(m_received) : std::nullopt);
                !st)
                return st;
        }
        if (auto st = m_validator->add(m_chunk, &m_prepared); !st)
            return st;
    }
    if (!m_cache)
        m_cache = std::make_unique<PageCache>(sqliteHandle(QSqlDatabase::database(m_store.m_connection)));
    if (!m_tx)
        if (auto st = start(); !st)
            return st;
    if (!m_unchanged)
        if (auto st = insert(m_chunk); !st)
            return st;
    m_chunk.clear();
    m_prepared.clear();
    return Ok{};
}

Status SnapshotImport::start()
{
    QSqlDatabase db = QSqlDatabase::database(m_store.m_connection);
    m_tx = std::make_unique<Tx>(db);
    if (!m_tx->transaction.active())
        return makeError(QStringLiteral("Cannot start the import of %1: %2")
                             .arg(m_origin, lockedText(m_store.m_path, m_tx->transaction.error())));
    QSqlQuery q(db);
    // Same payload as the current snapshot: record nothing new.
    q.prepare(QStringLiteral("SELECT id, checksum FROM snapshot WHERE provider = ? AND status = 'ok' "
                             "ORDER BY fetched_at DESC, id DESC LIMIT 1"));
    q.addBindValue(m_head.provider);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot import %1").arg(m_origin), sqlError(q));
    if (q.next()) {
        m_currentId = q.value(0).toLongLong();
        m_currentChecksum = q.value(1).toString();
    }
    if (!m_options.payloadSha256.isEmpty() &&
        m_currentChecksum == QString::fromLatin1(m_options.payloadSha256.toHex()) && m_currentId != 0) {
        m_unchanged = true;
        return Ok{};
    }
    if (auto st = m_store.syncGpuModels(m_gpus); !st)
        return st;
    // The checksum, the counts and the note are set when the last row is in (finish).
    q.prepare(QStringLiteral(
        "INSERT INTO snapshot(provider, source_kind, origin, fetched_at, data_date, checksum, "
        "row_count, unrecognised_count, status, note) VALUES(?, ?, ?, ?, ?, '', 0, 0, 'ok', '')"));
    q.addBindValue(m_head.provider);
    q.addBindValue(sourceKindName(m_kind));
    q.addBindValue(m_origin);
    q.addBindValue(isoUtc(QDateTime::currentDateTimeUtc()));
    q.addBindValue(m_head.dataDate.isValid() ? QVariant(m_head.dataDate.toString(Qt::ISODate))
                                             : QVariant(QMetaType(QMetaType::QString)));
    if (!q.exec())
        return makeError(QStringLiteral("Cannot import %1: the snapshot could not be recorded (%2)")
                             .arg(m_origin, sqliteProblem(m_store.m_path, sqlError(q))),
                         sqlError(q));
    m_snapshotId = q.lastInsertId().toLongLong();
    sqlite3 *conn = sqliteHandle(db);
    m_tx->insertOffer = prepare(
        conn,
        "INSERT INTO offer(snapshot_id, provider, instance_type, region, zone, gpu_raw_name, gpu_id, "
        "gpu_count, gpu_mem_gb, vcpus, ram_gb, network_gbps, interconnect, ondemand_usd_h, spot_usd_h, "
        "spot_label, interruption, reliability, billing_increment_s, billing_minimum_s, source, flags, "
        "upload_gbps, dlperf, price_date, listing_end) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
        "?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!m_tx->insertOffer)
        return makeError(QStringLiteral("Cannot import %1: %2")
                             .arg(m_origin, sqliteProblem(m_store.m_path, sqliteMessage(conn))));
    return Ok{};
}

Status SnapshotImport::insert(const QList<Offer> &rows)
{
    sqlite3_stmt *st = m_tx->insertOffer.get();
    sqlite3 *conn = sqlite3_db_handle(st);
    auto text = [&](int i, const QString &s) {
        return bindTextVia(st, i, s, m_tx->text[static_cast<std::size_t>(i)]);
    };
    for (const Offer &o : rows) {
        ++m_inserted;
        m_unrecognised += o.gpuId.isEmpty() ? 1 : 0;
        sqlite3_bind_int64(st, 1, m_snapshotId);
        text(2, o.provider);
        text(3, o.instanceType);
        text(4, o.region);
        text(5, o.zone);
        text(6, o.gpuRawName);
        if (o.gpuId.isEmpty())
            sqlite3_bind_null(st, 7);
        else
            text(7, o.gpuId);
        sqlite3_bind_double(st, 8, o.gpuCount);
        bindOptional(st, 9, o.gpuMemGb);
        bindOptional(st, 10, o.vcpus);
        bindOptional(st, 11, o.ramGb);
        bindOptional(st, 12, o.networkGbps);
        text(13, o.interconnect);
        bindOptional(st, 14, o.onDemandUsdH);
        bindOptional(st, 15, o.spotUsdH);
        text(16, o.spotLabel);
        text(17, o.interruption);
        bindOptional(st, 18, o.reliability);
        sqlite3_bind_int(st, 19, o.billingIncrementS);
        sqlite3_bind_int(st, 20, o.billingMinimumS);
        text(21, o.source);
        sqlite3_bind_int(st, 22, o.flags);
        bindOptional(st, 23, o.uploadGbps);
        bindOptional(st, 24, o.dlperf);
        bindDate(st, 25, o.priceDate);
        bindDate(st, 26, o.listingEnd);
        const int rc = sqlite3_step(st);
        sqlite3_reset(st); // every parameter is bound again for the next row
        if (rc == SQLITE_DONE)
            continue;
        const QString sqlite = sqliteMessage(conn);
        const QString problem = sqliteProblem(m_store.m_path, sqlite);
        if (problem != sqlite) // the disk, not the row
            return makeError(
                QStringLiteral("Cannot import %1: %2; nothing was imported").arg(m_origin, problem), sqlite);
        return makeError(
            QStringLiteral(
                "Cannot import %1: offer %2 (%3) was rejected by the database; nothing was imported")
                .arg(m_origin, QString::number(m_inserted), o.instanceType),
            sqlite);
    }
    return Ok{};
}

Result<ImportOutcome> SnapshotImport::finish(SnapshotData meta, const QByteArray &payloadSha256)
{
    if (!m_begun)
        if (auto st = begin(meta); !st)
            return st.error();
    meta.provider = m_head.provider;
    meta.dataDate = m_head.dataDate;
    meta.offers = {};
    // A parser that knows its warnings only at the end (skipped rows): a catalog of one chunk, refused as
    // too small when the validation begins, names them as the whole-catalog import did.
    if (!m_validator)
        for (const QString &w : std::as_const(meta.warnings))
            if (!m_head.warnings.contains(w))
                m_head.warnings.append(w);
    if (auto st = flush(true); !st)
        return st.error();
    if (m_validator)
        if (auto st = m_validator->finish(meta, m_received); !st)
            return st.error();
    ImportOutcome outcome;
    outcome.warnings = meta.warnings;
    const QString checksum = QString::fromLatin1(payloadSha256.toHex());
    if (m_unchanged || (m_currentId != 0 && m_currentChecksum == checksum)) {
        m_tx.reset(); // rolls back what this import wrote
        outcome.unchanged = true;
        outcome.snapshotId = m_currentId;
        return outcome;
    }
    QSqlQuery q(QSqlDatabase::database(m_store.m_connection));
    q.prepare(QStringLiteral(
        "UPDATE snapshot SET checksum = ?, row_count = ?, unrecognised_count = ?, note = ? WHERE id = ?"));
    q.addBindValue(checksum);
    q.addBindValue(m_inserted);
    q.addBindValue(m_unrecognised);
    q.addBindValue(text(meta.description));
    q.addBindValue(m_snapshotId);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot import %1: the snapshot could not be recorded (%2)")
                             .arg(m_origin, sqliteProblem(m_store.m_path, sqlError(q))),
                         sqlError(q));
    m_tx->insertOffer.reset();
    if (!m_tx->transaction.commit())
        return makeError(QStringLiteral("Cannot import %1: %2; nothing was imported")
                             .arg(m_origin, sqliteProblem(m_store.m_path, m_tx->transaction.commitError())),
                         m_tx->transaction.commitError());
    outcome.snapshotId = m_snapshotId;
    outcome.rows = static_cast<int>(m_inserted);
    outcome.unrecognised = m_unrecognised;
    return outcome;
}

Result<QStringList> CatalogStore::providersWithSnapshots() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral("SELECT DISTINCT provider FROM snapshot")))
        return makeError(QStringLiteral("Cannot read the catalog %1").arg(m_path), sqlError(q));
    QStringList have;
    while (q.next())
        have.append(q.value(0).toString());
    return have;
}

Result<QList<Snapshot>> CatalogStore::snapshots(const QString &provider) const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    QString sql = QStringLiteral(
        "SELECT s.id, s.provider, s.source_kind, s.origin, s.fetched_at, s.data_date, s.checksum, "
        "s.row_count, "
        "s.unrecognised_count, s.status, s.note, "
        "(s.id = (SELECT c.id FROM snapshot c WHERE c.provider = s.provider AND c.status = 'ok' "
        "         ORDER BY c.fetched_at DESC, c.id DESC LIMIT 1)) AS current "
        "FROM snapshot s");
    if (!provider.isEmpty())
        sql += QStringLiteral(" WHERE s.provider = ?");
    sql += QStringLiteral(" ORDER BY s.provider, s.fetched_at DESC, s.id DESC");
    q.prepare(sql);
    if (!provider.isEmpty())
        q.addBindValue(provider);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot list the catalog snapshots"), sqlError(q));
    QList<Snapshot> out;
    while (q.next()) {
        Snapshot s;
        s.id = q.value(0).toLongLong();
        s.provider = q.value(1).toString();
        s.kind = sourceKindFromName(q.value(2).toString()).value_or(SourceKind::File);
        s.origin = q.value(3).toString();
        s.fetchedAt = fromIso(q.value(4).toString());
        s.dataDate = QDate::fromString(q.value(5).toString(), Qt::ISODate);
        s.checksum = q.value(6).toString();
        s.rowCount = q.value(7).toInt();
        s.unrecognisedCount = q.value(8).toInt();
        s.status = q.value(9).toString();
        s.note = q.value(10).toString();
        s.current = q.value(11).toBool();
        out.append(s);
    }
    return out;
}

Result<QList<Offer>> CatalogStore::queryOffers(const QString &where, const QVariantList &binds) const
{
    QList<Offer> out;
    if (auto st = store::readOffers(QSqlDatabase::database(m_connection), m_path, where, binds, out); !st)
        return st.error();
    return out;
}

Status CatalogStore::readCurrentOffers(const std::function<void(qsizetype)> &reserve,
                                       const std::function<void(Offer &&)> &sink) const
{
    // One query per current snapshot (the offer_snapshot index gives its rows in id order, no sort), the
    // snapshots in import order: the offers come in id order as before, without a temporary B-tree.
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.setForwardOnly(true);
    if (!q.exec(QStringLiteral("SELECT c.id, c.row_count FROM snapshot c WHERE c.id IN (SELECT (SELECT s.id "
                               "FROM snapshot s WHERE "
                               "s.provider = p.id AND s.status = 'ok' ORDER BY s.fetched_at DESC, s.id DESC "
                               "LIMIT 1) FROM provider p) "
                               "ORDER BY (SELECT MIN(o.id) FROM offer o WHERE o.snapshot_id = c.id)")))
        return makeError(QStringLiteral("Cannot read the offers from %1").arg(m_path), sqlError(q));
    QList<qint64> snapshotIds;
    qsizetype rows = 0;
    while (q.next()) {
        snapshotIds.append(q.value(0).toLongLong());
        rows += q.value(1).toLongLong();
    }
    q.finish();
    reserve(rows);
    for (qint64 id : std::as_const(snapshotIds)) {
        if (auto st = store::readOffers(QSqlDatabase::database(m_connection), m_path, snapshotOffersWhere(),
                                        {id}, sink);
            !st)
            return st;
    }
    return Ok{};
}

Result<QList<Offer>> CatalogStore::currentOffers() const
{
    QList<Offer> offers;
    if (auto st = readCurrentOffers([&](qsizetype rows) { offers.reserve(rows); },
                                    [&](Offer &&o) { offers.append(std::move(o)); });
        !st)
        return st.error();
    applyPriceSanity(offers); // the current catalog is the population of the outlier test
    return offers;
}

Result<OfferTable> CatalogStore::currentOfferTable() const
{
    OfferTable offers;
    if (auto st = readCurrentOffers([&](qsizetype rows) { offers.reserve(rows); },
                                    [&](Offer &&o) { offers.append(o); });
        !st)
        return st.error();
    applyPriceSanity(offers); // the same population and rules as currentOffers
    return offers;
}

Result<CatalogStore::CurrentNames> CatalogStore::currentNames() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.setForwardOnly(true);
    CurrentNames names;
    for (const auto &[column, target] : {std::pair{QStringLiteral("instance_type"), &names.instances},
                                         std::pair{QStringLiteral("region"), &names.regions}}) {
        if (!q.exec(currentNamesSql(column)))
            return makeError(QStringLiteral("Cannot read the offers from %1").arg(m_path), sqlError(q));
        while (q.next())
            (*target)[q.value(0).toString()].append(q.value(1).toString());
    }
    for (QStringList &l : names.instances)
        l.sort();
    for (QStringList &l : names.regions)
        l.sort();
    return names;
}

Result<QList<Offer>> CatalogStore::history(const QString &provider, const QString &instanceType,
                                           const QString &region) const
{
    QVariantList binds{provider, instanceType};
    if (!region.isEmpty())
        binds.append(region);
    return queryOffers(historyWhere(!region.isEmpty()), binds);
}

Result<QList<std::pair<QString, QStringList>>> CatalogStore::offerQueryPlans() const
{
    const QList<std::pair<QString, QString>> queries{
        {QStringLiteral("current offers"), QString::fromUtf8(store::offerQuery(snapshotOffersWhere()))},
        {QStringLiteral("history"), QString::fromUtf8(store::offerQuery(historyWhere(false)))},
        {QStringLiteral("history in a region"), QString::fromUtf8(store::offerQuery(historyWhere(true)))},
        {QStringLiteral("current names"), currentNamesSql(QStringLiteral("instance_type"))}};
    QList<std::pair<QString, QStringList>> out;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    for (const auto &[name, sql] : queries) {
        if (!q.prepare(QStringLiteral("EXPLAIN QUERY PLAN ") + sql))
            return makeError(QStringLiteral("Cannot explain the query \"%1\"").arg(name), sqlError(q));
        for (int i = 0; i < sql.count(u'?'); ++i)
            q.addBindValue(QStringLiteral("x"));
        if (!q.exec())
            return makeError(QStringLiteral("Cannot explain the query \"%1\"").arg(name), sqlError(q));
        QStringList steps;
        while (q.next())
            steps.append(q.value(3).toString());
        out.append({name, steps});
    }
    return out;
}

Result<qint64> CatalogStore::addProbeRun(const ProbeRunRecord &run)
{
    if (auto st = checkBeforeWrite(); !st)
        return st.error();
    if (auto future = store::futureDateError(QStringLiteral("the probe run"), run.createdAt))
        return *future;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    // The same document imported again is the same run: stored once.
    if (!run.json.isEmpty()) {
        q.prepare(QStringLiteral("SELECT id FROM probe_run WHERE kind = ? AND json = ? ORDER BY id LIMIT 1"));
        q.addBindValue(run.kind);
        q.addBindValue(QString::fromUtf8(run.json));
        if (!q.exec())
            return makeError(QStringLiteral("Cannot read the probe runs"), sqlError(q));
        if (q.next())
            return q.value(0).toLongLong();
    }
    q.prepare(QStringLiteral(
        "INSERT INTO probe_run(created_at, origin, kind, device_name, gpu_id, schema_version, json) "
        "VALUES(?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(isoUtc(run.createdAt.isValid() ? run.createdAt : QDateTime::currentDateTimeUtc()));
    q.addBindValue(text(run.origin));
    q.addBindValue(run.kind);
    q.addBindValue(text(run.deviceName));
    q.addBindValue(run.gpuId.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(run.gpuId));
    q.addBindValue(run.schemaVersion);
    q.addBindValue(QString::fromUtf8(run.json));
    if (!q.exec())
        return makeError(QStringLiteral("Cannot store the probe run"), sqlError(q));
    return q.lastInsertId().toLongLong();
}

Result<QList<ProbeRunRecord>> CatalogStore::probeRuns() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(
            QStringLiteral("SELECT id, created_at, origin, kind, device_name, gpu_id, schema_version, json "
                           "FROM probe_run ORDER BY created_at DESC, id DESC")))
        return makeError(QStringLiteral("Cannot read the probe runs"), sqlError(q));
    QList<ProbeRunRecord> out;
    while (q.next()) {
        ProbeRunRecord r;
        r.id = q.value(0).toLongLong();
        r.createdAt = fromIso(q.value(1).toString());
        r.origin = q.value(2).toString();
        r.kind = q.value(3).toString();
        r.deviceName = q.value(4).toString();
        r.gpuId = q.value(5).toString();
        r.schemaVersion = q.value(6).toInt();
        r.json = q.value(7).toString().toUtf8();
        out.append(r);
    }
    return out;
}

} // namespace gf

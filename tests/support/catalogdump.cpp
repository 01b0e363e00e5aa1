#include "catalogdump.h"

#include <QCryptographicHash>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QUuid>
#include <QVariant>

namespace gf::test {

namespace {

template <class F> auto withDb(const QString &dbPath, F f)
{
    const QString name = QStringLiteral("dump-") + QUuid::createUuid().toString(QUuid::WithoutBraces);
    decltype(f(std::declval<QSqlDatabase &>())) result{};
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY;QSQLITE_BUSY_TIMEOUT=5000"));
        if (db.open())
            result = f(db);
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return result;
}

} // namespace

QByteArray dumpCatalog(const QString &dbPath)
{
    return withDb(dbPath, [](QSqlDatabase &db) -> QByteArray {
        QCryptographicHash h(QCryptographicHash::Sha256);
        QSqlQuery q(db);
        for (const char *table : {"snapshot", "offer", "gpu_model", "fetch_state"}) {
            if (!q.exec(QStringLiteral("SELECT * FROM %1 ORDER BY 1").arg(QLatin1String(table))))
                return QByteArray("error: ") + q.lastQuery().toUtf8();
            h.addData(QByteArray(table));
            while (q.next())
                for (int i = 0; i < q.record().count(); ++i)
                    h.addData(QByteArray(q.value(i).toString().toUtf8() + '\x1f'));
        }
        return h.result().toHex();
    });
}

int countWhere(const QString &dbPath, const QString &table, const QString &where)
{
    return withDb(dbPath, [&](QSqlDatabase &db) -> int {
        QSqlQuery q(db);
        if (q.exec(QStringLiteral("SELECT COUNT(*) FROM %1 WHERE %2")
                       .arg(table, where.isEmpty() ? QStringLiteral("1") : where)) &&
            q.next())
            return q.value(0).toInt();
        return -1;
    });
}

QString lastLog(const QString &dbPath, const QString &provider)
{
    return withDb(dbPath, [&](QSqlDatabase &db) -> QString {
        QSqlQuery q(db);
        q.prepare(QStringLiteral(
            "SELECT outcome, message FROM refresh_log WHERE provider = ? ORDER BY id DESC LIMIT 1"));
        q.addBindValue(provider);
        if (q.exec() && q.next())
            return q.value(0).toString() + u'|' + q.value(1).toString();
        return QString();
    });
}

QStringList columnsContaining(const QString &dbPath, const QString &needle)
{
    return withDb(dbPath, [&](QSqlDatabase &db) -> QStringList {
        QStringList found;
        const QByteArray bytes = needle.toUtf8();
        for (const QString &table : db.tables()) {
            QSqlQuery q(db);
            if (!q.exec(QStringLiteral("SELECT * FROM \"%1\"").arg(table))) {
                found.append(table + QStringLiteral(": unreadable"));
                continue;
            }
            while (q.next()) {
                const QSqlRecord r = q.record();
                for (int i = 0; i < r.count(); ++i) {
                    const QString where = table + u'.' + r.fieldName(i);
                    if (!found.contains(where) && q.value(i).toByteArray().contains(bytes))
                        found.append(where);
                }
            }
        }
        return found;
    });
}

} // namespace gf::test

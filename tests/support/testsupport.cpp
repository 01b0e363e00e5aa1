#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

namespace gf::test {

TempDb::TempDb()
{
    if (!m_dir.isValid())
        qFatal("cannot create a temporary folder");
}

std::unique_ptr<CatalogStore> TempDb::open() const
{
    auto r = CatalogStore::open(path());
    if (!r)
        qFatal("cannot open the test database: %s", qPrintable(r.error().text()));
    return std::move(r).value();
}

QByteArray makeCatalogCsv(const QString &provider, int rows, const QString &gpuName)
{
    QString s =
        QStringLiteral("# provider: %1\n# snapshot_date: 2026-11-01\n# source: test fixture\n").arg(provider);
    s += snapshotCsvColumns().join(u',') + u'\n';
    for (int i = 1; i <= rows; ++i) {
        s += QStringLiteral("%1,type-%2,region-%3,,%4,%5,80,%6,%7,,,%8.00,%9,spot,,,1,60,fixture,,,,\n")
                 .arg(provider)
                 .arg(i)
                 .arg(i % 3)
                 .arg(gpuName)
                 .arg((i % 4) + 1)
                 .arg(8 * ((i % 4) + 1))
                 .arg(64 * ((i % 4) + 1))
                 .arg(i)
                 .arg(i % 2 ? QString::number(i * 0.4, 'f', 2) : QString());
    }
    return s.toUtf8();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        qFatal("cannot write %s", qPrintable(path));
}

int countRows(const QString &dbPath, const QString &table)
{
    const QString name = QStringLiteral("count-") + QString::number(reinterpret_cast<quintptr>(&dbPath));
    int n = -1;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(dbPath);
        db.setConnectOptions(QStringLiteral("QSQLITE_OPEN_READONLY"));
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("SELECT COUNT(*) FROM ") + table) && q.next())
                n = q.value(0).toInt();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return n;
}

} // namespace gf::test

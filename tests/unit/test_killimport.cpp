// kill -9 during imports: a child process (gpufrontier-cli import) is killed at random points, many
// times; after every kill the database passes PRAGMA integrity_check and the current snapshot is
// complete: the previous one when the kill came before the commit, else the new one (never a part). Kill
// points are spread over the whole import (parse, validation, the write transaction, the commit) using the
// duration of one measured import; nothing asserts a time.
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>
#include <QThread>

using namespace gf;
using namespace gf::test;

namespace {

constexpr int kRows = 60000;
constexpr int kKills = 20;

/// A large catalog file; `variant` shifts every price so two files are different snapshots.
void writeBigCatalog(const QString &path, int variant)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    QByteArray s = "# provider: aws\n# snapshot_date: 2026-11-01\n# source: kill test\n";
    s += "provider,instance_type,region,zone,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,network_gbps,"
         "interconnect,"
         "ondemand_usd_h,spot_usd_h,spot_label,interruption,reliability,billing_increment_s,billing_minimum_"
         "s,source\n";
    for (int i = 0; i < kRows; ++i) {
        s += "aws,p4d.test" + QByteArray::number(i) + ",us-east-" + QByteArray::number(1 + i % 2) +
             ",use1-az" + QByteArray::number(i % 6) + ",A100,8,40,96,1152,400,NVSwitch," +
             QByteArray::number(20 + (i % 100) * 0.01 + variant * 0.001, 'f', 4) + "," +
             QByteArray::number(6 + (i % 50) * 0.01, 'f', 4) + ",spot,10-15%,,1,60,kill test\n";
        if (s.size() > (1 << 20)) {
            f.write(s);
            s.clear();
        }
    }
    f.write(s);
}

struct DbState
{
    QString integrity;
    qint64 current = 0;
    int currentRows = -1;   ///< row_count of the current snapshot
    int currentOffers = -1; ///< offers actually stored for it
};

DbState inspect(const QString &path)
{
    DbState st;
    const QString name = QStringLiteral("kill-inspect");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (db.open()) {
            QSqlQuery q(db);
            if (q.exec(QStringLiteral("PRAGMA integrity_check")) && q.next())
                st.integrity = q.value(0).toString();
            if (q.exec(
                    QStringLiteral("SELECT id, row_count FROM snapshot WHERE provider='aws' AND status='ok' "
                                   "ORDER BY fetched_at DESC, id DESC LIMIT 1")) &&
                q.next()) {
                st.current = q.value(0).toLongLong();
                st.currentRows = q.value(1).toInt();
            }
            q.prepare(QStringLiteral("SELECT COUNT(*) FROM offer WHERE snapshot_id = ?"));
            q.addBindValue(st.current);
            if (q.exec() && q.next())
                st.currentOffers = q.value(0).toInt();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return st;
}

} // namespace

class TestKillImport final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void killedImportsLeaveTheDatabaseIntact()
    {
        const QString cli = builtExecutable(QStringLiteral("gpufrontier-cli"));
        QVERIFY2(QFile::exists(cli), qPrintable(cli));
        TempDb db;
        const QString fileA = db.dir() + QStringLiteral("/big-a.csv");
        const QString fileB = db.dir() + QStringLiteral("/big-b.csv");
        writeBigCatalog(fileA, 0);
        writeBigCatalog(fileB, 1);

        auto import = [&](const QString &file) {
            auto *p = new QProcess;
            p->setProcessChannelMode(QProcess::MergedChannels);
            p->start(cli, {QStringLiteral("--db"), db.path(), QStringLiteral("import"),
                           QStringLiteral("--provider"), QStringLiteral("aws"), QStringLiteral("--file"),
                           file, QStringLiteral("--quiet")});
            return p;
        };

        // One complete import: the baseline snapshot, and how long an import takes here.
        QElapsedTimer clock;
        clock.start();
        {
            std::unique_ptr<QProcess> p(import(fileA));
            QVERIFY(p->waitForFinished(240000));
            QVERIFY2(p->exitCode() == 0, p->readAll().constData());
        }
        const qint64 fullMs = std::max<qint64>(50, clock.elapsed());
        DbState base = inspect(db.path());
        QCOMPARE(base.integrity, QStringLiteral("ok"));
        QCOMPARE(base.currentRows, kRows);
        QCOMPARE(base.currentOffers, kRows);
        QString currentFile = fileA;

        const quint32 seed = QRandomGenerator::global()->generate();
        qInfo("kill test: one import takes %lld ms; random seed %u", static_cast<long long>(fullMs), seed);
        QRandomGenerator rng(seed);
        int killed = 0, completed = 0;
        // The kill window starts at the measured import time and shrinks whenever an import commits first,
        // so a loaded machine (where one import's time varies a lot) still reaches kKills / 2 kills before
        // the commit; extra rounds (up to 4 x kKills) only run when it has not yet.
        qint64 window = fullMs * 12 / 10;
        for (int i = 0; i < kKills || (killed < kKills / 2 && i < kKills * 4); ++i) {
            const QString next = currentFile == fileA ? fileB : fileA;
            std::unique_ptr<QProcess> p(import(next));
            QVERIFY(p->waitForStarted(30000));
            const int delay =
                static_cast<int>(rng.bounded(static_cast<quint32>(std::max<qint64>(1, window))));
            QThread::msleep(static_cast<unsigned long>(delay));
            const bool running = p->state() == QProcess::Running;
            if (running)
                p->kill(); // SIGKILL
            QVERIFY(p->waitForFinished(240000));
            const bool finishedNormally = p->exitStatus() == QProcess::NormalExit && p->exitCode() == 0;
            const DbState st = inspect(db.path());
            QVERIFY2(st.integrity == u"ok",
                     qPrintable(QStringLiteral("kill %1 at %2 ms: %3").arg(i).arg(delay).arg(st.integrity)));
            if (finishedNormally || st.current != base.current) {
                // The import committed before the kill (or finished): the new snapshot is current and
                // complete.
                ++completed;
                window = window * 3 / 4;
                QVERIFY2(st.current > base.current,
                         qPrintable(QStringLiteral("kill %1 at %2 ms").arg(i).arg(delay)));
                currentFile = next;
            } else {
                ++killed; // killed before its commit: the previous snapshot is still current
            }
            QCOMPARE(st.currentRows, kRows);
            QCOMPARE(st.currentOffers, kRows);
            base = st;
            // The database still opens and migrates normally.
            auto store = CatalogStore::open(db.path());
            QVERIFY2(store.ok(), qPrintable(store.ok() ? QString() : store.error().text()));
        }
        qInfo("kill test: %d imports killed before their commit, %d committed before the kill", killed,
              completed);
        QVERIFY(killed >= kKills / 2);
    }
};

QTEST_GUILESS_MAIN(TestKillImport)
#include "test_killimport.moc"

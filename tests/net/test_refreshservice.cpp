#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "fixtureserver.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/refreshservice.h"
#include "refreshfixture.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>

using namespace gf;
using namespace gf::test;

class TestRefreshService final : public QObject
{
    Q_OBJECT

    FixtureServer m_server;

    void serveAws() { serveAwsFixtures(m_server); }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("no_proxy", "127.0.0.1,localhost");
        QVERIFY(m_server.start());
    }

    void init()
    {
        m_server.clearRoutes();
        m_server.clearRequests();
    }

    void refreshesOnAWorkerThread()
    {
        serveAws();
        m_server.route("/api/retail/prices", {fixtureAnswer(QStringLiteral("providers/azure/page1.json"))});
        m_server.route("/api/retail/prices/page2",
                       {fixtureAnswer(QStringLiteral("providers/azure/page2.json"))});
        TempDb db;
        RefreshService service(
            db.path()); // the worker opens its own connection (and fills the empty database)
        service.setOptions(fastRefreshOptions());
        service.setBaseUrl(QStringLiteral("aws"), m_server.baseUrl());
        service.setBaseUrl(QStringLiteral("azure"), m_server.baseUrl());
        QSignalSpy progress(&service, &RefreshService::progress);
        QSignalSpy finished(&service, &RefreshService::finished);
        QSignalSpy started(&service, &RefreshService::providerStarted);
        QSignalSpy done(&service, &RefreshService::jobFinished);
        const quint64 job = service.refresh({QStringLiteral("aws"), QStringLiteral("azure")});
        QVERIFY(job > 0);
        QVERIFY(service.isRunning());
        QCOMPARE(service.refresh({QStringLiteral("aws")}), quint64(0)); // one job at a time
        QVERIFY(done.wait(60000));
        QCOMPARE(done.first().first().toULongLong(), job);
        QCOMPARE(started.size(), 2);
        QCOMPARE(finished.size(), 2);
        const RefreshOutcome aws = finished.at(0).at(1).value<RefreshOutcome>();
        const RefreshOutcome azure = finished.at(1).at(1).value<RefreshOutcome>();
        QVERIFY2(aws.status == RefreshStatus::Imported, qPrintable(aws.message));
        QCOMPARE(aws.rows, 16);
        QVERIFY2(azure.status == RefreshStatus::Imported, qPrintable(azure.message));
        QVERIFY(progress.size() > 3);
        int last = -1;
        for (const QList<QVariant> &p : std::as_const(progress)) {
            const int permille = p.at(0).toInt();
            QVERIFY(permille >= 0 && permille <= 1000);
            QVERIFY(!p.at(1).toString().isEmpty());
            last = permille;
        }
        QVERIFY(last >= 500);
        QVERIFY(!service.isRunning());
        // The GUI thread's own connection sees the new snapshots.
        auto store = db.open();
        QCOMPARE(countWhere(db.path(), QStringLiteral("snapshot"),
                            QStringLiteral("status='ok' AND source_kind='live'")),
                 2);
    }

    void cancelStopsAStalledDownload()
    {
        serveAws();
        FixtureResponse stall = fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"));
        stall.stallAfter = 100;
        stall.stallMs = 30000;
        m_server.route("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json", {stall});
        TempDb db;
        {
            auto store = db.open();
            QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        }
        const QByteArray before = dumpCatalog(db.path());
        RefreshService service(db.path());
        RefreshOptions o = fastRefreshOptions();
        o.http.lowSpeedTimeS = 60; // would wait a minute for data: only the cancel can end it soon
        service.setOptions(o);
        service.setBaseUrl(QStringLiteral("aws"), m_server.baseUrl());
        QSignalSpy progress(&service, &RefreshService::progress);
        QSignalSpy finished(&service, &RefreshService::finished);
        service.refresh({QStringLiteral("aws")});
        // Wait until the offer file is being read, then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(
            m_server.count("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json") > 0, 20000);
        QElapsedTimer t;
        t.start();
        service.cancel();
        QVERIFY(finished.wait(20000));
        QVERIFY(t.elapsed() < 20000);
        const RefreshOutcome out = finished.first().at(1).value<RefreshOutcome>();
        QCOMPARE(out.status, RefreshStatus::Cancelled);
        service.wait();
        QCOMPARE(dumpCatalog(db.path()), before);
        QVERIFY(lastLog(db.path(), QStringLiteral("aws")).startsWith(QStringLiteral("cancelled|")));
    }

    void importsFilesOffTheGuiThread()
    {
        TempDb db;
        RefreshService service(db.path());
        QSignalSpy finished(&service, &RefreshService::finished);
        service.importFiles(QStringLiteral("azure"),
                            {QStringLiteral(GF_FIXTURES_DIR "/providers/azure/page1.json"),
                             QStringLiteral(GF_FIXTURES_DIR "/providers/azure/page2.json")});
        QVERIFY(finished.wait(30000));
        const RefreshOutcome out = finished.first().at(1).value<RefreshOutcome>();
        QVERIFY2(out.status == RefreshStatus::Imported, qPrintable(out.message));
        QCOMPARE(out.rows, 13);
        QCOMPARE(countWhere(db.path(), QStringLiteral("snapshot"),
                            QStringLiteral("provider='azure' AND source_kind='file'")),
                 1);
    }
};

QTEST_GUILESS_MAIN(TestRefreshService)
#include "test_refreshservice.moc"

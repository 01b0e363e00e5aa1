#include "catalogdump.h"
#include "cli.h"
#include "clirun.h"
#include "fixtureserver.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

FixtureResponse file(const QString &fixture)
{
    return FixtureResponse::json(readFixture(fixture));
}

} // namespace

class TestCliRefresh final : public QObject
{
    Q_OBJECT

    FixtureServer m_server;
    QTemporaryDir m_config;

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("no_proxy", "127.0.0.1,localhost");
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8()); // no user settings leak in
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
        QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier test"));
        QCoreApplication::setApplicationName(QStringLiteral("gpufrontier-test"));
        QVERIFY(m_server.start());
        m_server.route("/offers/v1.0/aws/AmazonEC2/current/region_index.json",
                       {file(QStringLiteral("providers/aws/region_index.json"))});
        m_server.route("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json",
                       {file(QStringLiteral("providers/aws/us-east-1.json"))});
        m_server.route("/offers/v1.0/aws/AmazonEC2/20250912225308/us-west-2/index.json",
                       {file(QStringLiteral("providers/aws/us-west-2.json"))});
        m_server.route("/spot.json", {file(QStringLiteral("providers/aws/spot.json"))});
        m_server.route("/spot-advisor-data.json",
                       {file(QStringLiteral("providers/aws/spot-advisor-data.gpu-only.json"))});
    }

    void refreshAndHistory()
    {
        TempDb db;
        CliRun r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"),
                                   QStringLiteral("aws"), QStringLiteral("--url"), m_server.baseUrl()});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("AWS: imported 16 offers as snapshot")), qPrintable(r.out));
        // Progress on stderr, one line per step: permille as a percentage and what is happening.
        QVERIFY2(r.err.contains(QStringLiteral("%] AWS: reading the region index")), qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("AWS: us-east-1 offer file")), qPrintable(r.err));

        r = cli(db.path(), {QStringLiteral("history"), QStringLiteral("--provider"), QStringLiteral("aws"),
                            QStringLiteral("--instance"), QStringLiteral("p3.2xlarge"),
                            QStringLiteral("--region"), QStringLiteral("us-east-1")});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("AWS p3.2xlarge:")), qPrintable(r.out));
        QVERIFY(r.out.contains(QStringLiteral("use1-az1"))); // bundled rows are per zone
        QVERIFY(r.out.contains(QStringLiteral("0.4995")));

        r = cli(db.path(),
                {QStringLiteral("history"), QStringLiteral("--provider"), QStringLiteral("aws"),
                 QStringLiteral("--instance"), QStringLiteral("p3.2xlarge"), QStringLiteral("--region"),
                 QStringLiteral("us-east-1"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.rc, int(ExitOk));
        const QJsonArray a = QJsonDocument::fromJson(r.out.toUtf8()).array();
        QVERIFY(a.size() >= 2);
        const QJsonObject live = a.last().toObject();
        QCOMPARE(live.value(QStringLiteral("ondemand_usd_h")).toDouble(), 3.06);
        QCOMPARE(live.value(QStringLiteral("spot_usd_h")).toDouble(), 0.4995);
        QCOMPARE(live.value(QStringLiteral("zone")).toString(), QString());
        QVERIFY(a.first().toObject().value(QStringLiteral("snapshot_id")).toInt() <
                live.value(QStringLiteral("snapshot_id")).toInt());

        r = cli(db.path(), {QStringLiteral("history"), QStringLiteral("--provider"), QStringLiteral("aws"),
                            QStringLiteral("--instance"), QStringLiteral("nope.large")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY(r.err.contains(QStringLiteral("no stored price")));
    }

    void failuresAndUsage()
    {
        TempDb db;
        // Usage errors: exit 2.
        CliRun r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--url"), m_server.baseUrl()});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY(r.err.contains(QStringLiteral("--url needs exactly one --provider")));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("aws"),
                            QStringLiteral("--url"), QStringLiteral("ftp://x")});
        QCOMPARE(r.rc, int(ExitUsage));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("ibm")});
        QCOMPARE(r.rc, int(ExitUsage));
        r = cli(db.path(), {QStringLiteral("history"), QStringLiteral("--provider"), QStringLiteral("aws")});
        QCOMPARE(r.rc, int(ExitUsage));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--ca-bundle"), db.dir() + QStringLiteral("/no-such.pem")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("no-such.pem\" does not exist (from --ca-bundle)")),
                 qPrintable(r.err));
        {
            QFile notPem(db.dir() + QStringLiteral("/not-a-cert.pem"));
            QVERIFY(notPem.open(QIODevice::WriteOnly));
            notPem.write("hello\n");
        }
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--ca-bundle"), db.dir() + QStringLiteral("/not-a-cert.pem")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("holds no PEM certificate")), qPrintable(r.err));
        // GCP without a key: a clear message, the bundled prices stay.
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY2(r.err.contains(QStringLiteral("needs an API key")) &&
                     r.err.contains(QStringLiteral("previous Google Cloud snapshot stays current")) &&
                     r.err.contains(QStringLiteral("Pass --api-key KEY or set GPUFRONTIER_GCP_API_KEY")),
                 qPrintable(r.err));
        // Paperspace: no API; says how old the curated table is.
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"),
                            QStringLiteral("paperspace"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitOk));
        QVERIFY2(r.out.contains(QStringLiteral("days old")) &&
                     r.out.contains(QStringLiteral("gpufrontier-cli import --provider paperspace")),
                 qPrintable(r.out));
        // A server error: exit 1, nothing imported.
        m_server.route("/api/retail/prices", {FixtureResponse::json("{}", 500)});
        const QByteArray before = dumpCatalog(db.path());
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--retries"),
                            QStringLiteral("1"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY2(r.err.contains(QStringLiteral("HTTP 500 Internal Server Error")) &&
                     r.err.contains(QStringLiteral("(after 2 attempts)")),
                 qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
        r = cli(db.path(), {QStringLiteral("catalogs"), QStringLiteral("--current")});
        QVERIFY(r.out.contains(QStringLiteral("bundled")));
    }

    void importProviderFormats()
    {
        TempDb db;
        const QString dir = QStringLiteral(GF_FIXTURES_DIR "/providers/");
        CliRun r = cli(db.path(), {QStringLiteral("import"), QStringLiteral("--file"),
                                   dir + QStringLiteral("gcp/skus-page1.json"), QStringLiteral("--file"),
                                   dir + QStringLiteral("gcp/skus-page2.json")});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err)); // the provider comes from the format
        QVERIFY2(r.out.contains(QStringLiteral("imported 22 offers")), qPrintable(r.out));
        r = cli(db.path(), {QStringLiteral("import"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--file"), dir + QStringLiteral("skypilot/azure.csv"),
                            QStringLiteral("--quiet")});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("imported 172 offers")), qPrintable(r.out));
        QVERIFY(r.err.contains(QStringLiteral("warning: ")));
        r = cli(db.path(), {QStringLiteral("import"), QStringLiteral("--file"),
                            dir + QStringLiteral("skypilot/vast.csv")});
        QCOMPARE(r.rc, int(ExitUsage)); // SkyPilot files do not say which cloud they are
        r = cli(db.path(), {QStringLiteral("import"), QStringLiteral("--provider"), QStringLiteral("vastai"),
                            QStringLiteral("--file"),
                            dir + QStringLiteral("vastai/search-offers-raw.RTX4090.2024.cli-capture.json")});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err));
        r = cli(db.path(), {QStringLiteral("import"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--file"), dir + QStringLiteral("aws/spot.json")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY2(r.err.contains(QStringLiteral("spot.json looks like an AWS spot price feed")),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestCliRefresh)
#include "test_clirefresh.moc"

#include "catalogdump.h"
#include "cli.h"
#include "clirun.h"
#include "fixtureserver.h"
#include "refresh/refreshsettings.h"
#include "refresh/secretstore.h"
#include "refreshfixture.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;

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
        qputenv("XDG_DATA_HOME", (m_config.path() + QStringLiteral("/data")).toUtf8()); // nor stored keys
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
        QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier test"));
        QCoreApplication::setApplicationName(QStringLiteral("gpufrontier-test"));
        QVERIFY(m_server.start());
        serveAwsFixtures(m_server);
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

    // RunPod (and Oracle) read their own keyless API by default; --source skypilot, or the Catalogs page's
    // setting, reads SkyPilot's catalog instead.
    void sourceChoice()
    {
        TempDb db;
        m_server.route("/graphql", {fixtureAnswer(QStringLiteral("providers/runpod/gputypes.json"))});
        FixtureResponse csv = fixtureAnswer(QStringLiteral("providers/skypilot/runpod.csv"));
        csv.contentType = "text/plain";
        m_server.route("/skypilot-org/skypilot-catalog/master/catalogs/v9/runpod/vms.csv", {csv});
        m_server.clearRequests();
        CliRun r =
            cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("runpod"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--quiet")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("RunPod: imported 20 offers")), qPrintable(r.out));
        QCOMPARE(m_server.count("/graphql"), 1);
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("runpod"),
                            QStringLiteral("--source"), QStringLiteral("skypilot"), QStringLiteral("--url"),
                            m_server.baseUrl(), QStringLiteral("--quiet")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(QStringLiteral("RunPod: imported 6 offers")), qPrintable(r.out));
        QCOMPARE(m_server.count("/graphql"), 1);
        // The setting of the Catalogs page is the default.
        {
            QSettings s;
            RefreshSettings::setSource(s, QStringLiteral("runpod"), SourceChoice::Skypilot);
        }
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("runpod"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--quiet")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QCOMPARE(m_server.count("/graphql"), 1); // SkyPilot's catalog again
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("runpod"),
                            QStringLiteral("--source"), QStringLiteral("direct"), QStringLiteral("--url"),
                            m_server.baseUrl(), QStringLiteral("--quiet")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QCOMPARE(m_server.count("/graphql"), 2); // --source wins over the setting
        {
            QSettings s;
            RefreshSettings::setSource(s, QStringLiteral("runpod"), SourceChoice::Default);
        }
        // Usage errors: a source that is not one, or one the named provider does not have.
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("runpod"),
                            QStringLiteral("--source"), QStringLiteral("github")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("--source: \"github\" is not a source (direct, skypilot)")),
                 qPrintable(r.err));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("lambda"),
                            QStringLiteral("--source"), QStringLiteral("direct")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("Lambda has no keyless price API of its own")),
                 qPrintable(r.err));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--help")});
        QVERIFY2(r.out.contains(QStringLiteral("[--source direct|skypilot]")) &&
                     r.out.contains(QStringLiteral("--source skypilot reads runpod and oci")),
                 qPrintable(r.out));
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
        QVERIFY2(
            r.err.contains(QStringLiteral("needs an API key")) &&
                r.err.contains(QStringLiteral("previous Google Cloud snapshot stays current")) &&
                r.err.contains(QStringLiteral("Pass --api-key-file FILE or set GPUFRONTIER_GCP_API_KEY")),
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

    void maxTime()
    {
        TempDb db;
        CliRun r =
            cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--max-time"), QStringLiteral("0")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("--max-time: 0 is out of range")), qPrintable(r.err));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--max-time"), QStringLiteral("soon")});
        QCOMPARE(r.rc, int(ExitUsage));
        // A server that trickles: the download ends at the limit, with the URL, the limit and advice.
        FixtureResponse slow = fixtureAnswer(QStringLiteral("providers/azure/page1.json"));
        slow.trickleBytes = 20;
        slow.trickleMs = 20;
        m_server.route("/api/retail/prices", {slow});
        m_server.clearRequests();
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("azure"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--max-time"),
                            QStringLiteral("0.4"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY2(r.err.contains(m_server.baseUrl() + QStringLiteral("/api/retail/prices?$filter=")) &&
                     r.err.contains(QStringLiteral("not finished within the time limit of 0.4 s for one "
                                                   "download")) &&
                     r.err.contains(QStringLiteral("allow more time per download with --max-time SECONDS")),
                 qPrintable(r.err));
        QCOMPARE(m_server.count("/api/retail/prices"), 1);
    }

    void credentialsStayOutOfOutputAndDatabase()
    {
        TempDb db;
        // A base URL with user:password: used for the requests, never printed or stored.
        const QString password = QStringLiteral("s3cret-cli-pass");
        const QString url = QStringLiteral("http://gf:%1@127.0.0.1:%2").arg(password).arg(m_server.port());
        CliRun r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"),
                                   QStringLiteral("aws"), QStringLiteral("--url"), url});
        QVERIFY2(r.rc == ExitOk, qPrintable(r.err));
        QVERIFY(!r.out.contains(password) && !r.err.contains(password));
        QCOMPARE(columnsContaining(db.path(), password), QStringList());
        r = cli(db.path(), {QStringLiteral("catalogs"), QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(r.rc == ExitOk && !r.out.contains(password), qPrintable(r.out + r.err));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("aws"),
                            QStringLiteral("--url"), url + QStringLiteral("/?x=1")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(!r.err.contains(password) && r.err.contains(QStringLiteral("http://REDACTED@127.0.0.1")),
                 qPrintable(r.err));

        // The GCP key: from a file (no warning), on argv (a warning), never echoed from an error body.
        const QString key = QStringLiteral("AIzaSy-cli-secret-key");
        m_server.route("/v1/services/6F81-5844-456A/skus",
                       {FixtureResponse::json(
                           "{\"error\":{\"message\":\"API key " + key.toUtf8() + " not valid\"}}", 400)});
        const QString keyFile = db.dir() + QStringLiteral("/gcp.key");
        {
            QFile f(keyFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(key.toUtf8() + "\n");
            f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
        }
        m_server.clearRequests();
        r = cli(db.path(),
                {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                 QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--api-key-file"), keyFile,
                 QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY(m_server.requests().first().query.contains(QByteArray("key=" + key.toUtf8())));
        QVERIFY2(r.err.contains(QStringLiteral("API key REDACTED not valid")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(key) && !r.out.contains(key), qPrintable(r.err));
        QVERIFY2(!r.err.contains(QStringLiteral("warning")), qPrintable(r.err));
        QCOMPARE(columnsContaining(db.path(), key), QStringList());

        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--api-key"), key,
                            QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY2(r.err.contains(QStringLiteral("warning: --api-key puts the key on the command line")),
                 qPrintable(r.err));
        QVERIFY2(!r.err.contains(key) && !r.out.contains(key), qPrintable(r.err));
        QCOMPARE(columnsContaining(db.path(), key), QStringList());

        // Usage: both at once, a missing or empty file, a file others can read.
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--api-key"), key, QStringLiteral("--api-key-file"), keyFile});
        QCOMPARE(r.rc, int(ExitUsage));
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--api-key-file"), db.dir() + QStringLiteral("/none.key")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("--api-key-file: cannot read")), qPrintable(r.err));
        const QString emptyFile = db.dir() + QStringLiteral("/empty.key");
        {
            QFile f(emptyFile);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("\n");
        }
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--api-key-file"), emptyFile});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("holds no key on its first line")), qPrintable(r.err));
        QFile::setPermissions(keyFile, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther);
        r = cli(db.path(),
                {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                 QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--api-key-file"), keyFile,
                 QStringLiteral("--retries"), QStringLiteral("0"), QStringLiteral("--quiet")});
        QVERIFY2(r.err.contains(QStringLiteral("can be read by other users; chmod 600 it")),
                 qPrintable(r.err));

        // No flag, no environment: the key stored from the GUI's Catalogs page. An older version's plain
        // setting moves into the store (here the 0600 file: GPUFRONTIER_SECRET_STORE=file) first.
        QSettings().setValue(QStringLiteral("refresh/gcpApiKey"), key);
        m_server.clearRequests();
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--retries"),
                            QStringLiteral("0"), QStringLiteral("--quiet")});
        QCOMPARE(r.rc, int(ExitFailure));
        QVERIFY(!m_server.requests().isEmpty());
        QVERIFY(m_server.requests().first().query.contains(QByteArray("key=" + key.toUtf8())));
        QVERIFY2(r.err.contains(QStringLiteral("moved from the plain settings file into the key file")),
                 qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("mode 0600")), qPrintable(r.err));
        QVERIFY2(!r.err.contains(key) && !r.out.contains(key), qPrintable(r.err));
        QVERIFY(!QSettings().contains(QStringLiteral("refresh/gcpApiKey")));
        const SecretStore store;
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, key);
        // The next run reads the store without moving anything; the environment comes before it.
        qputenv("GPUFRONTIER_GCP_API_KEY", "AIzaSy-from-environment");
        m_server.clearRequests();
        r = cli(db.path(), {QStringLiteral("refresh"), QStringLiteral("--provider"), QStringLiteral("gcp"),
                            QStringLiteral("--url"), m_server.baseUrl(), QStringLiteral("--retries"),
                            QStringLiteral("0"), QStringLiteral("--quiet")});
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
        QVERIFY(!m_server.requests().isEmpty());
        QVERIFY(m_server.requests().first().query.contains(QByteArray("key=AIzaSy-from-environment")));
        QVERIFY2(!r.err.contains(QStringLiteral("moved")), qPrintable(r.err));
        QVERIFY(store.remove(kGcpApiKeySecret));
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

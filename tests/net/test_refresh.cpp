#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "fixtureserver.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/catalogrefresher.h"
#include "refreshfixture.h"
#include "store/catalogstore.h"
#include "store/refreshstate.h"
#include "testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

const QByteArray kAzure = "/api/retail/prices";
const QByteArray kAzure2 = "/api/retail/prices/page2";
const QByteArray kGcp = "/v1/services/6F81-5844-456A/skus";
const QByteArray kVast = "/api/v0/bundles/";
constexpr int kVastDefaultLimitForTest = 64; // vast.ai's default answer size (providers/vastai.h)

FixtureResponse status(int code, const QByteArray &body = "{\"message\":\"error\"}")
{
    FixtureResponse r = FixtureResponse::json(body, code);
    return r;
}

QByteArray azurePage2(const char *ending)
{
    QJsonObject o =
        QJsonDocument::fromJson(readFixture(QStringLiteral("providers/azure/page2.json"))).object();
    const QByteArray e(ending);
    if (e == "missing")
        o.remove(QStringLiteral("NextPageLink"));
    else if (e == "empty")
        o.insert(QStringLiteral("NextPageLink"), QStringLiteral(""));
    else
        o.insert(QStringLiteral("NextPageLink"), QJsonValue(QJsonValue::Null));
    return QJsonDocument(o).toJson();
}

} // namespace

class TestRefresh final : public QObject
{
    Q_OBJECT

    RefreshHarness m_h;
    FixtureServer &m_server = m_h.server();

    /// Retries matter here: three tries per request.
    RefreshOptions fastOptions(const QString &base) const { return fastRefreshOptions(base, 3); }
    void serveAws() { serveAwsFixtures(m_server, true); }
    RefreshOutcome refresh(const QString &provider, const RefreshOptions &options)
    {
        return m_h.refresh(provider, options);
    }
    RefreshOutcome expectFailure(const QString &provider, const RefreshOptions &options,
                                 const QString &expected)
    {
        return m_h.expectFailure(provider, options, expected);
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_h.start()); }
    void init() { QVERIFY(m_h.reset()); }
    void cleanup() { m_h.close(); }

    void awsFullRefreshThenNotModified()
    {
        serveAws();
        const int okBefore = countWhere(m_h.dbPath(), QStringLiteral("snapshot"),
                                        QStringLiteral("provider='aws' AND status='ok'"));
        RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16); // 10 types in us-east-1 + 6 in us-west-2; the cn- region is not fetched
        QCOMPARE(m_server.count("/offers/v1.0/aws/AmazonEC2/20250912225308/cn-north-1/index.json"), 0);
        const FixtureRequest first = m_server.requests().first();
        QVERIFY(first.headers.value("user-agent").startsWith("GPUFrontier/" GPUFRONTIER_VERSION));
        QVERIFY(first.headers.value("accept-encoding").contains("gzip") ||
                first.headers.value("accept-encoding").contains("deflate"));

        auto offers = m_h.store().currentOffers();
        QVERIFY(offers.ok());
        int aws = 0;
        for (const Offer &x : offers.value()) {
            if (x.provider != u"aws")
                continue;
            ++aws;
            QVERIFY(x.zone.isEmpty());
            if (x.instanceType == u"p3.2xlarge" && x.region == u"us-east-1") {
                QCOMPARE(*x.onDemandUsdH, 3.06);
                QCOMPARE(*x.spotUsdH, 0.4995);
                QCOMPARE(x.interruption, QStringLiteral(">20%"));
                QCOMPARE(x.gpuId, QStringLiteral("v100-16gb-sxm2"));
                QCOMPARE(x.dataDate, QDateTime::currentDateTimeUtc().date());
            }
        }
        QCOMPARE(aws, 16);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("snapshot"),
                            QStringLiteral("provider='aws' AND status='ok'")),
                 okBefore + 1);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("fetch_state"), QStringLiteral("provider='aws'")),
                 5);

        // Again: every source answers 304 to the validators: "unchanged", no new snapshot, no download.
        m_server.clearRequests();
        const QByteArray offersBefore = dumpCatalog(m_h.dbPath());
        o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QVERIFY(o.message.contains(QStringLiteral("HTTP 304")));
        QCOMPARE(o.bytes, 0);
        for (const FixtureRequest &r : m_server.requests())
            QVERIFY2(!r.headers.value("if-none-match").isEmpty(), r.path.constData());
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("snapshot"),
                            QStringLiteral("provider='aws' AND status='ok'")),
                 okBefore + 1);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("snapshot"),
                            QStringLiteral("provider='aws' AND status='unchanged' AND row_count=0")),
                 1);
        QVERIFY(dumpCatalog(m_h.dbPath()) != offersBefore); // only the "unchanged" row
        QCOMPARE(m_h.store().currentOffers().value().size(), offers.value().size());

        // The spot feed changed, the offer files did not: their stored copies are reused.
        m_server.route(
            kAwsSpotPath,
            {FixtureResponse::json(
                readFixture(QStringLiteral("providers/aws/spot.json")).replace("\"0.4995\"", "\"0.5123\""))});
        m_server.clearRequests();
        o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16);
        auto hist = m_h.store().history(QStringLiteral("aws"), QStringLiteral("p3.2xlarge"),
                                        QStringLiteral("us-east-1"));
        QVERIFY(hist.ok());
        QCOMPARE(*hist.value().last().spotUsdH, 0.5123);
        QCOMPARE(*hist.value().last().onDemandUsdH, 3.06);
    }

    void awsRegionFilter()
    {
        serveAws();
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.awsRegions = {QStringLiteral("us-west-2")};
        const RefreshOutcome o = refresh(QStringLiteral("aws"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 6);
        QCOMPARE(m_server.count(kAwsEastPath), 0);
        opt.awsRegions = {QStringLiteral("mars-1")};
        expectFailure(QStringLiteral("aws"), opt,
                      QStringLiteral("region \"mars-1\" is not in the region index"));
    }

    void serverErrorThenSuccess()
    {
        serveAws();
        m_server.route(kAwsEastPath,
                       {status(500), fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"))});
        const RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16);
        QCOMPARE(m_server.count(kAwsEastPath), 2);
    }

    void serverErrorEveryTime()
    {
        serveAws();
        m_server.route(kAwsEastPath, {status(503)});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("HTTP 503 Service Unavailable"));
        QCOMPARE(m_server.count(kAwsEastPath), 3); // maxAttempts
    }

    void tooManyRequestsHonoursRetryAfter()
    {
        serveAws();
        FixtureResponse busy = status(429);
        busy.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("1")));
        m_server.route(kAwsSpotPath, {busy, fixtureAnswer(QStringLiteral("providers/aws/spot.json"))});
        QElapsedTimer t;
        t.start();
        const RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QVERIFY(t.elapsed() >= 1000); // waited as asked (a lower bound only: no timing upper bound)
        QCOMPARE(m_server.count(kAwsSpotPath), 2);
    }

    void retryAfterLongerThanWeWait()
    {
        serveAws();
        FixtureResponse busy = status(429);
        busy.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("3600")));
        m_server.route(kAwsSpotPath, {busy});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("asks to retry after 3600 s"));
        QCOMPARE(m_server.count(kAwsSpotPath), 1);
    }

    void connectionClosedMidBody()
    {
        serveAws();
        FixtureResponse cut = fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"));
        cut.closeAfter = 20000;
        m_server.route(kAwsEastPath, {cut, fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"))});
        RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported,
                 qPrintable(o.message)); // the retry starts the parse over
        QCOMPARE(o.rows, 16);
        QCOMPARE(m_server.count(kAwsEastPath), 2);
        // Closed every time: failure, nothing imported.
        m_server.route(kAwsEastPath, {cut});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("the connection closed before the end of the body"));
    }

    void stallPastTheLowSpeedLimit()
    {
        serveAws();
        FixtureResponse stall = fixtureAnswer(QStringLiteral("providers/aws/us-west-2.json"));
        stall.stallAfter = 2000;
        stall.stallMs = 5000;
        m_server.route(kAwsWestPath, {stall, fixtureAnswer(QStringLiteral("providers/aws/us-west-2.json"))});
        RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(m_server.count(kAwsWestPath), 2);
        RefreshOptions once = fastOptions(m_server.baseUrl());
        once.http.maxAttempts = 1;
        m_server.route(kAwsWestPath, {stall});
        expectFailure(QStringLiteral("aws"), once, QStringLiteral("stalled after 2000 bytes"));
    }

    void invalidJsonIsNotRetried()
    {
        serveAws();
        QByteArray broken = readFixture(QStringLiteral("providers/aws/us-east-1.json"));
        broken.insert(broken.indexOf("\"terms\""), "oops ");
        m_server.route(kAwsEastPath, {FixtureResponse::json(broken)});
        const RefreshOutcome o = expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                                               QStringLiteral("invalid AWS offer file: line "));
        QVERIFY2(o.message.contains(m_server.baseUrl() + QString::fromLatin1(kAwsEastPath)),
                 qPrintable(o.message)); // names the URL
        QCOMPARE(m_server.count(kAwsEastPath), 1);
    }

    void jsonpSpotFeed_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<QByteArray>("suffix");
        QTest::newRow(")") << QByteArray("callback(") << QByteArray(")");
        QTest::newRow(");") << QByteArray("callback(") << QByteArray(");\n");
    }

    void jsonpSpotFeed()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(QByteArray, suffix);
        serveAws();
        FixtureResponse js = FixtureResponse::json(
            prefix + readFixture(QStringLiteral("providers/aws/spot.json")).trimmed() + suffix);
        js.contentType = "application/javascript";
        m_server.route(kAwsSpotPath, {js});
        const RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        auto hist = m_h.store().history(QStringLiteral("aws"), QStringLiteral("g5.48xlarge"),
                                        QStringLiteral("us-west-2"));
        QCOMPARE(*hist.value().last().spotUsdH, 6.5517);
    }

    void wrongContentType()
    {
        serveAws();
        FixtureResponse html =
            FixtureResponse::json("<html><head><title>Sign in to the hotel Wi-Fi</title></head></html>");
        html.contentType = "text/html; charset=utf-8";
        m_server.route(kAwsIndexPath, {html});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("expected JSON but the server sent text/html"));
    }

    void wrongTypes()
    {
        serveAws();
        m_server.route(kAwsWestPath,
                       {FixtureResponse::json(
                           R"({"formatVersion":"v1.0","offerCode":"AmazonEC2","products":[],"terms":{}})")});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("\"products\" is an array"));
    }

    void notFoundIsNotRetried()
    {
        serveAws();
        m_server.route(kAwsAdvisorPath, {status(404, "<Error><Code>NoSuchKey</Code></Error>")});
        expectFailure(QStringLiteral("aws"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("HTTP 404 Not Found"));
        QCOMPARE(m_server.count(kAwsAdvisorPath), 1);
    }

    void compressedBody()
    {
        serveAws();
        FixtureResponse z = fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"));
        z.deflate = true;
        m_server.route(kAwsEastPath, {z});
        const RefreshOutcome o = refresh(QStringLiteral("aws"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16);
    }

    void azurePagination_data()
    {
        QTest::addColumn<QByteArray>("ending");
        QTest::newRow("null") << QByteArray("null");
        QTest::newRow("missing") << QByteArray("missing");
        QTest::newRow("empty string") << QByteArray("empty");
    }

    void azurePagination()
    {
        QFETCH(QByteArray, ending);
        m_server.route(kAzure, {fixtureAnswer(QStringLiteral("providers/azure/page1.json"))});
        m_server.route(kAzure2, {FixtureResponse::json(azurePage2(ending.constData()))});
        const RefreshOutcome o = refresh(QStringLiteral("azure"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 13);
        QCOMPARE(m_server.count(kAzure), 1);
        QCOMPARE(m_server.count(kAzure2), 1);
        QVERIFY(m_server.requests().first().query.startsWith(
            "$filter=serviceName%20eq%20%27Virtual%20Machines%27"));
        QVERIFY(o.warnings.join(u' ').contains(QStringLiteral("Windows meters skipped")));
    }

    void oneConnectionPerSource_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<int>("requests");
        QTest::newRow("aws: index, 2 region files, spot feed, advisor") << QStringLiteral("aws") << 5;
        QTest::newRow("azure: 2 pages") << QStringLiteral("azure") << 2;
        QTest::newRow("gcp: 2 pages") << QStringLiteral("gcp") << 2;
    }

    void oneConnectionPerSource()
    {
        // Every request of a source goes through one client: one TCP connection (and TLS session)
        // for all pages and files of one host, instead of one per request.
        QFETCH(QString, provider);
        QFETCH(int, requests);
        serveAws();
        m_server.route(kAzure, {fixtureAnswer(QStringLiteral("providers/azure/page1.json"))});
        m_server.route(kAzure2, {FixtureResponse::json(azurePage2("null"))});
        m_server.route(kGcp, {fixtureAnswer(QStringLiteral("providers/gcp/skus-page1.json"))});
        m_server.route(kGcp, {fixtureAnswer(QStringLiteral("providers/gcp/skus-page2.json"))},
                       "pageToken=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPw");
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.gcpApiKey = QStringLiteral("AIzaSy-test-key");
        const RefreshOutcome o = refresh(provider, opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.requests, requests);
        QCOMPARE(m_server.requests().size(), requests);
        QCOMPARE(m_server.connections(), 1);
    }

    void azureEmptyPage()
    {
        m_server.route(
            kAzure, {fixtureAnswer(QStringLiteral(
                        "providers/azure/retail-prices.empty-page.2026-10-03.finfocus-plugin-test.json"))});
        expectFailure(QStringLiteral("azure"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("only 0 offers, at least 5 expected"));
    }

    void azureWrongTypes()
    {
        m_server.route(kAzure, {fixtureAnswer(QStringLiteral("providers/azure/page1.json"))});
        const QByteArray page2 =
            QString::fromUtf8(azurePage2("null"))
                .replace(QRegularExpression(QStringLiteral("\"retailPrice\": ([0-9.]+)")),
                         QStringLiteral("\"retailPrice\": \"\\1\""))
                .toUtf8();
        m_server.route(kAzure2, {FixtureResponse::json(page2)});
        expectFailure(QStringLiteral("azure"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("retailPrice is a string, a number was expected"));
    }

    void azurePaginationLoop()
    {
        QByteArray loop = azurePage2("null");
        loop.replace("\"NextPageLink\": null",
                     "\"NextPageLink\": \"{{BASE}}/api/retail/prices/page2?$skip=100\"");
        m_server.route(kAzure, {fixtureAnswer(QStringLiteral("providers/azure/page1.json"))});
        m_server.route(kAzure2, {FixtureResponse::json(loop)});
        expectFailure(QStringLiteral("azure"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("pagination loop"));
    }

    void gcpNeedsAKey()
    {
        const RefreshOutcome o = expectFailure(QStringLiteral("gcp"), fastOptions(m_server.baseUrl()),
                                               QStringLiteral("needs an API key"));
        QCOMPARE(o.code, QStringLiteral("gcp-api-key")); // the front ends say where to enter a key
        QVERIFY(m_server.requests().isEmpty());
    }

    void gcpPagesAndKeyNeverShown()
    {
        m_server.route(kGcp, {fixtureAnswer(QStringLiteral("providers/gcp/skus-page1.json"))});
        m_server.route(kGcp, {fixtureAnswer(QStringLiteral("providers/gcp/skus-page2.json"))},
                       "pageToken=APKCS1HVa0YpwgyTFbqbJ1eGwzKZmsPw");
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.gcpApiKey = QStringLiteral("AIzaSy-secret-test-key");
        RefreshOutcome o = refresh(QStringLiteral("gcp"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 22);
        QCOMPARE(m_server.count(kGcp), 2);
        QVERIFY(m_server.requests().first().query.contains("key=AIzaSy-secret-test-key"));
        QVERIFY(m_server.requests().first().query.contains("currencyCode=USD"));
        // A rejected key: the message says so, without the key.
        m_server.route(
            kGcp,
            {status(
                400,
                R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key."}})")});
        o = expectFailure(QStringLiteral("gcp"), opt, QStringLiteral("HTTP 400 Bad Request"));
        QVERIFY2(!o.message.contains(QStringLiteral("secret")), qPrintable(o.message));
        QVERIFY(o.message.contains(QStringLiteral("key=REDACTED")));
        QVERIFY(!lastLog(m_h.dbPath(), QStringLiteral("gcp")).contains(QStringLiteral("secret")));
    }

    void keyEchoedByTheServerIsNeverStored()
    {
        // Secrets: an error body that repeats the key must not print or store it.
        const QString key = QStringLiteral("AIzaSy-echoed-secret-key");
        m_server.route(kGcp,
                       {status(400, R"({"error":{"code":400,"message":"API key AIzaSy-echoed-secret-key )"
                                    R"(is not valid for key=AIzaSy-echoed-secret-key"}})")});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.gcpApiKey = key;
        QStringList progress;
        CatalogRefresher refresher(m_h.store(), opt);
        refresher.setProgress([&](int, const QString &m) { progress.append(m); });
        const RefreshOutcome o = refresher.refresh(QStringLiteral("gcp"));
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(QStringLiteral("HTTP 400 Bad Request")), qPrintable(o.message));
        QVERIFY2(o.message.contains(QStringLiteral("API key REDACTED is not valid")), qPrintable(o.message));
        for (const QString &text : QStringList{o.message, o.origin} + o.warnings + progress)
            QVERIFY2(!text.contains(key), qPrintable(text));
        QVERIFY(m_server.requests().first().query.contains(key.toUtf8())); // the key was sent
        QCOMPARE(columnsContaining(m_h.dbPath(), key), QStringList());
        QCOMPARE(columnsContaining(m_h.dbPath(), QStringLiteral("AIzaSy")), QStringList());
    }

    void urlPasswordIsNeverStored()
    {
        // A mirror behind basic authentication: the password is sent, never shown or stored.
        serveAws();
        const QString password = QStringLiteral("s3cret-mirror-pass");
        RefreshOptions opt =
            fastOptions(QStringLiteral("http://gf:%1@127.0.0.1:%2").arg(password).arg(m_server.port()));
        RefreshOutcome o = refresh(QStringLiteral("aws"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(m_server.requests().first().headers.value("authorization"),
                 "Basic " + QByteArray("gf:" + password.toUtf8()).toBase64());
        QVERIFY2(o.origin.startsWith(QStringLiteral("http://REDACTED@127.0.0.1:")), qPrintable(o.origin));
        QCOMPARE(columnsContaining(m_h.dbPath(), password), QStringList());
        QVERIFY(countWhere(m_h.dbPath(), QStringLiteral("fetch_state"),
                           QStringLiteral("url LIKE 'http://REDACTED@127.0.0.1:%'")) >= 5);
        // The validators stored under the redacted URLs are found again: nothing changed (304s).
        m_server.clearRequests();
        o = refresh(QStringLiteral("aws"), opt);
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QCOMPARE(m_server.requests().first().headers.value("if-none-match"), QByteArray("\"idx-1\""));
        // A failure names the URL without the password.
        m_server.route(kAwsIndexPath, {status(500, "{\"echo\":\"" + password.toUtf8() + "\"}")});
        opt.http.maxAttempts = 1;
        o = expectFailure(QStringLiteral("aws"), opt, QStringLiteral("HTTP 500"));
        QVERIFY2(!o.message.contains(password) &&
                     o.message.contains(QStringLiteral("GET http://REDACTED@127.0.0.1:")),
                 qPrintable(o.message));
        QCOMPARE(columnsContaining(m_h.dbPath(), password), QStringList());
        QCOMPARE(columnsContaining(m_h.dbPath(), QStringLiteral("s3cret")), QStringList());
    }

    void timeLimitPerDownload()
    {
        // Slow servers: a server that trickles an offer file never trips the stall check; the time
        // limit of one download ends the refresh, without retries, and nothing is imported.
        serveAws();
        FixtureResponse slow = fixtureAnswer(QStringLiteral("providers/aws/us-west-2.json"));
        slow.trickleBytes = 20;
        slow.trickleMs = 20;
        m_server.route(kAwsWestPath, {slow});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.http.lowSpeedBytesPerS = 1;
        opt.http.lowSpeedTimeS = 60;
        opt.http.maxTimeMs = 400;
        const RefreshOutcome o =
            expectFailure(QStringLiteral("aws"), opt,
                          QStringLiteral("/us-west-2/index.json: not finished within the time limit of 0.4 s "
                                         "for one download"));
        QCOMPARE(o.code, QStringLiteral("download-time-limit"));
        QCOMPARE(m_server.count(kAwsWestPath), 1);
    }

    void vastaiSearch()
    {
        m_server.route(kVast, {fixtureAnswer(QStringLiteral("providers/vastai/offers.json"))});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.minRows = 1;
        const RefreshOutcome o = refresh(QStringLiteral("vastai"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 1); // the mirror's two offers were not rentable
        const FixtureRequest req = m_server.requests().first();
        QCOMPARE(req.method, QByteArray("POST"));
        QCOMPARE(req.headers.value("content-type"), QByteArray("application/json"));
        QVERIFY(QJsonDocument::fromJson(req.body).object().contains(QStringLiteral("rentable")));
        // The same answer again: same prices, "unchanged", no second snapshot.
        const RefreshOutcome again = refresh(QStringLiteral("vastai"), opt);
        QCOMPARE(again.status, RefreshStatus::Unchanged);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("snapshot"),
                            QStringLiteral("provider='vastai' AND status='ok'")),
                 2); // bundled + 1
    }

    void skypilotHostedCatalogs()
    {
        // Every cloud read through SkyPilot's hosted catalog shares one source: v9 first, older schema
        // folders when a cloud has none there, columns by header name.
        const QByteArray v9 = "/skypilot-org/skypilot-catalog/master/catalogs/v9/";
        const QByteArray v8 = "/skypilot-org/skypilot-catalog/master/catalogs/v8/";
        auto csv = [](const QString &fixture) {
            FixtureResponse r =
                FixtureResponse::json(readFixture(QStringLiteral("providers/skypilot/") + fixture));
            r.contentType = "text/plain; charset=utf-8"; // what raw.githubusercontent.com sends
            return r;
        };
        m_server.route(v9 + "lambda/vms.csv", {csv(QStringLiteral("lambda.csv"))});
        RefreshOutcome o = refresh(QStringLiteral("lambda"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.ok(), qPrintable(o.message));
        QCOMPARE(o.status, RefreshStatus::Imported);
        QCOMPARE(o.rows, 6);
        // RunPod's file sits in v8 only, with its own column order: v9 answers 404, v8 is read.
        // (RunPod and Oracle read their own APIs by default: SkyPilot's catalog is chosen here.)
        RefreshOptions skypilot = fastOptions(m_server.baseUrl());
        skypilot.source = SourceChoice::Skypilot;
        m_server.route(v8 + "runpod/vms.csv", {csv(QStringLiteral("runpod.csv"))});
        o = refresh(QStringLiteral("runpod"), skypilot);
        QVERIFY2(o.ok(), qPrintable(o.message));
        QCOMPARE(o.rows, 6);
        QVERIFY2(o.message.contains(QStringLiteral("schema v8 was read")), qPrintable(o.message));
        // A malformed page (an HTML error page, a truncated row) fails naming the file; nothing changes.
        FixtureResponse html = FixtureResponse::json("<html><body>rate limited</body></html>");
        html.contentType = "text/html";
        m_server.route(v9 + "nebius/vms.csv", {html});
        expectFailure(QStringLiteral("nebius"), fastOptions(m_server.baseUrl()), QStringLiteral("Nebius: "));
        QByteArray truncated = readFixture(QStringLiteral("providers/skypilot/oci.csv"));
        truncated.chop(truncated.size() - truncated.lastIndexOf(',', truncated.size() - 2));
        FixtureResponse cut = FixtureResponse::json(truncated);
        cut.contentType = "text/plain";
        m_server.route(v9 + "oci/vms.csv", {cut});
        expectFailure(QStringLiteral("oci"), skypilot, QStringLiteral("fields"));
        // No file in any schema: the last 404 is the error.
        expectFailure(QStringLiteral("cudo"), fastOptions(m_server.baseUrl()), QStringLiteral("404"));
        // Another cloud's file under this cloud's name (AWS rows for Fluidstack) is refused.
        m_server.route(v9 + "fluidstack/vms.csv", {csv(QStringLiteral("aws-2026.csv"))});
        expectFailure(QStringLiteral("fluidstack"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("named like AWS's offers"));
    }

    // An empty SkyPilot catalog (the header only, or nothing at all) is refused, naming the file.
    void skypilotEmptyAnswer()
    {
        const QByteArray v9 = "/skypilot-org/skypilot-catalog/master/catalogs/v9/";
        const QByteArray lambda = readFixture(QStringLiteral("providers/skypilot/lambda.csv"));
        FixtureResponse header = FixtureResponse::json(lambda.left(lambda.indexOf('\n') + 1));
        header.contentType = "text/plain; charset=utf-8";
        m_server.route(v9 + "lambda/vms.csv", {header});
        expectFailure(QStringLiteral("lambda"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("has no GPU row with an on-demand price"));
        FixtureResponse empty = FixtureResponse::json(QByteArray());
        empty.contentType = "text/plain; charset=utf-8";
        m_server.route(v9 + "lambda/vms.csv", {empty});
        expectFailure(QStringLiteral("lambda"), fastOptions(m_server.baseUrl()), QStringLiteral("Lambda: "));
    }

    // RunPod's keyless GraphQL API, its default live source (fixtures shaped after the documented format).
    void runpodGraphql()
    {
        const QByteArray path = "/graphql";
        m_server.route(path, {fixtureAnswer(QStringLiteral("providers/runpod/gputypes.json"))});
        RefreshOutcome o = refresh(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 20);
        QCOMPARE(m_server.count(path), 1);
        const FixtureRequest req = m_server.requests().last();
        QCOMPARE(req.method, QByteArray("POST"));
        QCOMPARE(req.headers.value("content-type"), QByteArray("application/json"));
        QVERIFY(req.body.contains("gpuCount8: lowestPrice(input: {gpuCount: 8})"));
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("offer"),
                            QStringLiteral("provider='runpod' AND instance_type='8x_H100-SXM_SECURE' AND "
                                           "ondemand_usd_h=26.32 AND spot_usd_h=16.8 AND vcpus=160 AND "
                                           "gpu_id IS NOT NULL")),
                 1);
        QVERIFY(o.origin.endsWith(QStringLiteral("/graphql")));
        // The same answer with its fields in another order: the same prices, no new snapshot.
        m_server.route(path, {fixtureAnswer(QStringLiteral("providers/runpod/gputypes-reordered.json"))});
        o = refresh(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        // A malformed GPU type is skipped and counted, never fatal.
        m_server.route(path,
                       {fixtureAnswer(QStringLiteral("providers/runpod/gputypes-malformed-entry.json"))});
        o = refresh(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.ok(), qPrintable(o.message));
        QVERIFY2(o.warnings.join(u'|').contains(QStringLiteral("2 malformed GPU types skipped")),
                 qPrintable(o.warnings.join(u'|')));
        // Answers that must change nothing.
        m_server.route(path, {fixtureAnswer(QStringLiteral("providers/runpod/gputypes-empty.json"))});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("lists 0 GPU types but no price"));
        m_server.route(path, {fixtureAnswer(QStringLiteral("providers/runpod/graphql-error.json"))});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("answered with an error: Cannot query field"));
        m_server.route(path, {FixtureResponse::json("{\"data\": {\"gpuTypes\": [{\"id\": \"NVIDIA L4\",")});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("invalid JSON"));
        m_server.route(path, {status(500)});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()), QStringLiteral("HTTP 500"));
        m_server.route(path, {status(429)});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()), QStringLiteral("429"));
        FixtureResponse cut = fixtureAnswer(QStringLiteral("providers/runpod/gputypes.json"));
        cut.closeAfter = 500;
        m_server.route(path, {cut});
        expectFailure(QStringLiteral("runpod"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("the connection closed before the end of the body"));
    }

    // Oracle's keyless price list (shapes.json + products.json), its default live source.
    void oracleCloudPriceList()
    {
        const QByteArray shapes = "/a/ocom/docs/cloudestimator2/data/shapes.json";
        const QByteArray products = "/a/ocom/docs/cloudestimator2/data/products.json";
        auto serve = [&](const QString &s, const QString &p) {
            m_server.route(shapes,
                           {fixtureAnswer(QStringLiteral("providers/oci/") + s, "\"s-" + s.toUtf8() + '"')});
            m_server.route(products,
                           {fixtureAnswer(QStringLiteral("providers/oci/") + p, "\"p-" + p.toUtf8() + '"')});
        };
        serve(QStringLiteral("shapes.json"), QStringLiteral("products.json"));
        RefreshOutcome o = refresh(QStringLiteral("oci"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 6);
        QVERIFY2(o.message.contains(QStringLiteral("preemptible prices are derived (50 % of pay-as-you-go)")),
                 qPrintable(o.message));
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("offer"),
                            QStringLiteral("provider='oci' AND instance_type='BM.GPU.H100.8' AND "
                                           "region='all regions' AND ondemand_usd_h=80 AND spot_usd_h=40 AND "
                                           "spot_label='preemptible' AND gpu_id IS NOT NULL")),
                 1);
        // Both files unchanged (ETag): HTTP 304, no new snapshot.
        o = refresh(QStringLiteral("oci"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QVERIFY2(o.message.contains(QStringLiteral("HTTP 304")), qPrintable(o.message));
        // Another field order: the same prices.
        serve(QStringLiteral("shapes-reordered.json"), QStringLiteral("products-reordered.json"));
        o = refresh(QStringLiteral("oci"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QVERIFY2(o.message.contains(QStringLiteral("same prices")), qPrintable(o.message));
        // A malformed shape and an unpriced one: skipped and counted.
        serve(QStringLiteral("shapes-malformed-entry.json"), QStringLiteral("products.json"));
        o = refresh(QStringLiteral("oci"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.ok(), qPrintable(o.message));
        const QString w = o.warnings.join(u'|');
        QVERIFY2(w.contains(QStringLiteral("1 malformed shapes or products skipped")) &&
                     w.contains(QStringLiteral("1 GPU shapes without a USD price skipped")),
                 qPrintable(w));
        serve(QStringLiteral("shapes-empty.json"), QStringLiteral("products.json"));
        expectFailure(QStringLiteral("oci"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("lists no active GPU shape"));
        m_server.route(shapes, {FixtureResponse::json("<html><body>Oracle</body></html>")});
        expectFailure(QStringLiteral("oci"), fastOptions(m_server.baseUrl()), QStringLiteral("invalid JSON"));
        m_server.route(shapes, {fixtureAnswer(QStringLiteral("providers/oci/shapes.json"))});
        m_server.route(products, {status(500)});
        expectFailure(QStringLiteral("oci"), fastOptions(m_server.baseUrl()), QStringLiteral("HTTP 500"));
        m_server.route(products, {status(429)});
        expectFailure(QStringLiteral("oci"), fastOptions(m_server.baseUrl()), QStringLiteral("429"));
        FixtureResponse cut = fixtureAnswer(QStringLiteral("providers/oci/products.json"));
        cut.closeAfter = 300;
        m_server.route(products, {cut});
        expectFailure(QStringLiteral("oci"), fastOptions(m_server.baseUrl()),
                      QStringLiteral("the connection closed before the end of the body"));
    }

    // RunPod and Oracle have two live sources: their own API by default, SkyPilot's catalog when chosen.
    void sourceChoice()
    {
        const QByteArray v9 = "/skypilot-org/skypilot-catalog/master/catalogs/v9/";
        FixtureResponse csv =
            FixtureResponse::json(readFixture(QStringLiteral("providers/skypilot/runpod.csv")));
        csv.contentType = "text/plain";
        m_server.route(v9 + "runpod/vms.csv", {csv});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.source = SourceChoice::Skypilot;
        RefreshOutcome o = refresh(QStringLiteral("runpod"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 6);
        QCOMPARE(m_server.count("/graphql"), 0);
        QVERIFY(o.origin.contains(QStringLiteral("skypilot-catalog")));
        // A choice a provider does not have is refused before anything is downloaded.
        opt.source = SourceChoice::Direct;
        o = refresh(QStringLiteral("lambda"), opt);
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(QStringLiteral("Lambda has no keyless price API of its own")),
                 qPrintable(o.message));
        opt.source = SourceChoice::Skypilot;
        o = refresh(QStringLiteral("aws"), opt);
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(QStringLiteral("AWS is not read from SkyPilot's hosted catalog")),
                 qPrintable(o.message));
        QVERIFY(m_server.requests().size() == 1);
    }

    // provider-sources.md: vast.ai may answer exactly 64 offers (its default limit) whatever the limit: the
    // refresh warns and pages on by price (dph_total >= the last price, cheapest first); one malformed offer
    // of a page is skipped and counted, never fatal.
    void vastaiPagesAnAnswerCutAt64()
    {
        auto page = [](int first, int count, double from, bool malformed) {
            QJsonArray offers;
            for (int i = 0; i < count; ++i)
                offers.append(QJsonObject{{QStringLiteral("id"), first + i},
                                          {QStringLiteral("gpu_name"), QStringLiteral("RTX 4090")},
                                          {QStringLiteral("num_gpus"), 1},
                                          {QStringLiteral("geolocation"), QStringLiteral("Texas, US")},
                                          {QStringLiteral("cpu_cores"), 64},
                                          {QStringLiteral("cpu_cores_effective"), 16.0},
                                          {QStringLiteral("cpu_ram"), 128000},
                                          {QStringLiteral("dph_total"), from + i * 0.01}});
            if (malformed)
                offers.append(QJsonObject{{QStringLiteral("id"), 999},
                                          {QStringLiteral("gpu_name"), QStringLiteral("RTX 4090")},
                                          {QStringLiteral("dph_total"), QStringLiteral("0.7")}});
            return FixtureResponse::json(
                QJsonDocument(QJsonObject{{QStringLiteral("offers"), offers}}).toJson());
        };
        // Page 1: 64 offers at 0.30 .. 0.93; page 2 repeats the last one (the cursor is inclusive) and
        // adds 9.
        m_server.route(kVast, {page(1, 64, 0.30, false), page(64, 10, 0.93, true)});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.vastPageDelayMs = 0;
        const RefreshOutcome o = refresh(QStringLiteral("vastai"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 73);
        QCOMPARE(m_server.count(kVast), 2);
        const QJsonObject second = QJsonDocument::fromJson(m_server.requests().at(1).body).object();
        QCOMPARE(second.value(QStringLiteral("dph_total")).toObject().value(QStringLiteral("gte")).toDouble(),
                 0.93);
        const QString w = o.warnings.join(u'|');
        QVERIFY2(w.contains(QStringLiteral("exactly 64 offers")) && w.contains(QStringLiteral("2 requests")),
                 qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("1 malformed offers skipped (first: offers[10].dph_total is not a "
                                           "number)")),
                 qPrintable(w));
        // The partial-machine share reached the catalog: 16 of 64 vCPUs, a quarter of 128 GB.
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("offer"),
                            QStringLiteral("provider='vastai' AND vcpus=16 AND ram_gb=32")),
                 73);
    }

    // Paging stops at vastMaxPages, and says that the dearer offers are missing.
    void vastaiPagingStopsAtItsLimit()
    {
        QList<FixtureResponse> pages;
        for (int p = 0; p < 3; ++p) {
            QJsonArray offers;
            for (int i = 0; i < kVastDefaultLimitForTest; ++i)
                offers.append(QJsonObject{{QStringLiteral("id"), p * 100 + i},
                                          {QStringLiteral("gpu_name"), QStringLiteral("A40")},
                                          {QStringLiteral("num_gpus"), 1},
                                          {QStringLiteral("dph_total"), 0.2 + p + i * 0.001}});
            pages.append(FixtureResponse::json(
                QJsonDocument(QJsonObject{{QStringLiteral("offers"), offers}}).toJson()));
        }
        m_server.route(kVast, pages);
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.vastPageDelayMs = 0;
        opt.vastMaxPages = 2;
        const RefreshOutcome o = refresh(QStringLiteral("vastai"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 128);
        QCOMPARE(m_server.count(kVast), 2);
        QVERIFY2(o.warnings.join(u'|').contains(QStringLiteral("stopped after 2 pages")),
                 qPrintable(o.warnings.join(u'|')));
    }

    void paperspaceCuratedTable()
    {
        // No API: the curated table is the source and its age is stated.
        RefreshOutcome o = refresh(QStringLiteral("paperspace"), RefreshOptions{});
        QCOMPARE(o.status, RefreshStatus::Unchanged);
        QVERIFY2(o.message.contains(QStringLiteral("no public price API")) &&
                     o.message.contains(QStringLiteral("days old")),
                 qPrintable(o.message));
        // A mirror of an updated table (SkyPilot format here).
        FixtureResponse csv =
            FixtureResponse::json(readFixture(QStringLiteral("providers/skypilot/paperspace.csv")));
        csv.contentType = "text/csv";
        m_server.route("/paperspace.csv", {csv});
        o = refresh(QStringLiteral("paperspace"), fastOptions(m_server.baseUrl()));
        QVERIFY2(o.ok(), qPrintable(o.message));
        QCOMPARE(o.status, RefreshStatus::Imported);
        QCOMPARE(o.rows, 14);
    }

    void importDownloadedFiles()
    {
        // Air-gapped: the same files as the live refresh, imported through the same parsers.
        CatalogRefresher r(m_h.store(), RefreshOptions{});
        const QString dir = QStringLiteral(GF_FIXTURES_DIR "/providers/aws/");
        RefreshOutcome o =
            r.importFiles(QStringLiteral("aws"),
                          {dir + QStringLiteral("us-east-1.json"), dir + QStringLiteral("us-west-2.json"),
                           dir + QStringLiteral("spot.js.2014-04.iconara-ec2pricing.js"),
                           dir + QStringLiteral("spot-advisor-data.gpu-only.json")});
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16);
        // Spot files alone update the current AWS snapshot's spot prices.
        o = r.importFiles(QStringLiteral("aws"), {dir + QStringLiteral("spot.json")});
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 16);
        auto hist = m_h.store().history(QStringLiteral("aws"), QStringLiteral("p3.2xlarge"),
                                        QStringLiteral("us-east-1"));
        QCOMPARE(*hist.value().last().spotUsdH, 0.4995);
        // A file of another provider is refused, naming it.
        const QByteArray before = dumpCatalog(m_h.dbPath());
        o = r.importFiles(QStringLiteral("aws"),
                          {QStringLiteral(GF_FIXTURES_DIR "/providers/azure/page1.json")});
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(QStringLiteral("page1.json looks like an Azure Retail Prices API page")),
                 qPrintable(o.message));
        QCOMPARE(dumpCatalog(m_h.dbPath()), before);
        // Validation names the provider, the file and the row.
        QTemporaryDir tmp;
        QFile bad(tmp.filePath(QStringLiteral("aws-bad.csv")));
        QVERIFY(bad.open(QIODevice::WriteOnly));
        bad.write(makeCatalogCsv(QStringLiteral("aws"), 6).replace("3.00", "-3.00"));
        bad.close();
        o = r.importFiles(QStringLiteral("aws"), {bad.fileName()});
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(QStringLiteral("aws-bad.csv")) &&
                     o.message.contains(QStringLiteral("(AWS)")) &&
                     o.message.contains(QStringLiteral("on-demand price -3 USD/h is not plausible")),
                 qPrintable(o.message));
        QCOMPARE(dumpCatalog(m_h.dbPath()), before);
        QVERIFY(bad.open(QIODevice::WriteOnly | QIODevice::Truncate));
        bad.write(makeCatalogCsv(QStringLiteral("aws"), 3));
        bad.close();
        o = r.importFiles(QStringLiteral("aws"), {bad.fileName()});
        QVERIFY2(o.message.startsWith(QStringLiteral("AWS: aws-bad.csv: only 3 offers, at least 5 expected")),
                 qPrintable(o.message));
        QCOMPARE(dumpCatalog(m_h.dbPath()), before);
    }

    // Provenance: a redirected refresh records where the prices came from, the final URL.
    void redirectRecordsTheFinalUrl()
    {
        FixtureResponse moved = status(307, "{}"); // 307 keeps the POST
        moved.headers.append(
            {"Location",
             (m_server.baseUrl() + QStringLiteral("/mirror") + QString::fromLatin1(kVast)).toUtf8()});
        m_server.route(kVast, {moved});
        m_server.route("/mirror" + kVast, {fixtureAnswer(QStringLiteral("providers/vastai/offers.json"))});
        RefreshOptions opt = fastOptions(m_server.baseUrl());
        opt.minRows = 1;
        const RefreshOutcome o = refresh(QStringLiteral("vastai"), opt);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(m_server.count("/mirror" + kVast), 1);
        auto snapshots = m_h.store().snapshots(QStringLiteral("vastai"));
        QVERIFY(snapshots && !snapshots.value().isEmpty());
        QCOMPARE(snapshots.value().first().origin,
                 m_server.baseUrl() + QStringLiteral("/mirror") + QString::fromLatin1(kVast));
    }
};

QTEST_GUILESS_MAIN(TestRefresh)
#include "test_refresh.moc"

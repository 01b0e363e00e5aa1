#include "fixtureserver.h"
#include "refresh/httpclient.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QTest>
#include <QThread>
#include <QTimeZone>

#include <atomic>
#include <thread>

using namespace gf;
using namespace gf::test;

namespace {

HttpOptions fast()
{
    HttpOptions o;
    o.connectTimeoutMs = 3000;
    o.lowSpeedBytesPerS = 1000;
    o.lowSpeedTimeS = 1;
    o.maxAttempts = 3;
    o.backoffInitialMs = 20;
    o.backoffMaxMs = 100;
    return o;
}

} // namespace

class TestHttpClient final : public QObject
{
    Q_OBJECT

    FixtureServer m_server;

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

    void retryAfterValues()
    {
        const qint64 now = QDateTime(QDate(2026, 1, 1), QTime(12, 0), QTimeZone::utc()).toSecsSinceEpoch();
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral("120"), now), 120);
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral(" 0 "), now), 0);
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral("Thu, 01 Jan 2026 12:01:30 GMT"), now), 90);
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral("Thu, 01 Jan 2026 11:00:00 GMT"), now),
                 0); // in the past: now
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral("soon"), now), -1);
        QCOMPARE(HttpClient::parseRetryAfter(QStringLiteral("-5"), now), -1);
    }

    void backoffDoublesWithJitterAndCap()
    {
        HttpOptions o;
        o.backoffInitialMs = 1000;
        o.backoffMaxMs = 8000;
        for (quint32 r : {0u, 1u, 777u, 0xFFFFFFFFu}) {
            const int a1 = HttpClient::backoffMs(o, 1, r), a3 = HttpClient::backoffMs(o, 3, r),
                      a9 = HttpClient::backoffMs(o, 9, r);
            QVERIFY(a1 >= 500 && a1 <= 1000);
            QVERIFY(a3 >= 2000 && a3 <= 4000);
            QVERIFY(a9 >= 4000 && a9 <= 8000); // capped
        }
        QVERIFY(HttpClient::backoffMs(o, 2, 0) != HttpClient::backoffMs(o, 2, 12345)); // jitter
    }

    void userAgentAndConditionalRequest()
    {
        FixtureResponse r = FixtureResponse::json("{\"a\":1}");
        r.etag = "\"v1\"";
        r.lastModified = "Wed, 21 Oct 2026 07:28:00 GMT";
        m_server.route("/doc", {r});
        HttpClient http(fast());
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/doc");
        auto first = http.fetch(req);
        QVERIFY(first.ok());
        QCOMPARE(first.value().status, 200);
        QCOMPARE(first.value().body, QByteArray("{\"a\":1}"));
        QCOMPARE(first.value().etag, QStringLiteral("\"v1\""));
        QCOMPARE(first.value().lastModified, QStringLiteral("Wed, 21 Oct 2026 07:28:00 GMT"));
        req.ifNoneMatch = first.value().etag;
        req.ifModifiedSince = first.value().lastModified;
        auto second = http.fetch(req);
        QVERIFY(second.ok());
        QVERIFY(second.value().notModified);
        QVERIFY(second.value().body.isEmpty());
        const QList<FixtureRequest> seen = m_server.requests();
        QCOMPARE(seen.size(), 2);
        QVERIFY(seen.at(0).headers.value("user-agent").startsWith("GPUFrontier/" GPUFRONTIER_VERSION " "));
        QCOMPARE(seen.at(1).headers.value("if-none-match"), QByteArray("\"v1\""));
        QCOMPARE(seen.at(1).headers.value("if-modified-since"), QByteArray("Wed, 21 Oct 2026 07:28:00 GMT"));
    }

    void proxyFromTheEnvironment()
    {
        // libcurl takes http_proxy from the environment: the fixture server plays the proxy.
        m_server.route("http://prices.example.invalid/api", {FixtureResponse::json("{\"via\":\"proxy\"}")});
        const QByteArray oldNoProxy = qgetenv("no_proxy");
        qputenv("http_proxy", m_server.baseUrl().toUtf8());
        qunsetenv("no_proxy");
        HttpClient http(fast());
        HttpRequest req;
        req.url = QStringLiteral("http://prices.example.invalid/api");
        auto r = http.fetch(req);
        qunsetenv("http_proxy");
        qputenv("no_proxy", oldNoProxy);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().body, QByteArray("{\"via\":\"proxy\"}"));
    }

    void bodyLimit()
    {
        m_server.route("/big", {FixtureResponse::json(QByteArray(300000, 'x'))});
        HttpOptions o = fast();
        o.maxBodyBytes = 100000;
        HttpClient http(o);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/big");
        auto r = http.fetch(req);
        QVERIFY(!r.ok());
        QVERIFY(r.error().text().contains(QStringLiteral("larger than")));
    }

    void cancelWhileWaitingToRetry()
    {
        FixtureResponse busy = FixtureResponse::json("{}", 503);
        busy.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("60")));
        m_server.route("/busy", {busy});
        std::atomic_bool cancel{false};
        HttpClient http(fast());
        http.setCancelFlag(&cancel);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/busy");
        std::thread canceller([&] {
            while (m_server.count("/busy") == 0)
                QThread::msleep(10);
            QThread::msleep(100);
            cancel.store(true);
        });
        QElapsedTimer t;
        t.start();
        auto r = http.fetch(req);
        canceller.join();
        QVERIFY(!r.ok());
        QVERIFY(r.error().text().endsWith(QStringLiteral("cancelled")));
        QVERIFY(t.elapsed() < 60000); // did not sit out the Retry-After
        QCOMPARE(m_server.count("/busy"), 1);
    }

    void connectionRefusedIsRetriedThenReported()
    {
        HttpOptions o = fast();
        o.maxAttempts = 2;
        HttpClient http(o);
        HttpRequest req;
        req.url = QStringLiteral("http://127.0.0.1:1/nothing-listens-here");
        auto r = http.fetch(req);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(QStringLiteral("(after 2 attempts)")),
                 qPrintable(r.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "test_httpclient.moc"

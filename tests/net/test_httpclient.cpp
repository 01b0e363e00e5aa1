#include "fixtureserver.h"
#include "refresh/httpclient.h"
#include "refresh/redact.h"

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

    void pagedRequestsShareOneConnection()
    {
        // Paged sources (Azure, GCP) make many requests to one host: one client keeps one
        // connection (and one TLS session) for all of them instead of reconnecting per page.
        const int pages = 6;
        for (int i = 1; i <= pages; ++i)
            m_server.route("/page", {FixtureResponse::json("{\"page\":" + QByteArray::number(i) + "}")},
                           "n=" + QByteArray::number(i));
        HttpClient http(fast());
        for (int i = 1; i <= pages; ++i) {
            HttpRequest req;
            req.url = m_server.baseUrl() + QStringLiteral("/page?n=%1").arg(i);
            auto r = http.fetch(req);
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
            QCOMPARE(r.value().body, "{\"page\":" + QByteArray::number(i) + "}");
        }
        QCOMPARE(m_server.count("/page"), pages);
        QCOMPARE(m_server.connections(), 1);

        // A moved client (SourceContext::http() returns one by value) keeps its connection.
        HttpClient moved = std::move(http);
        HttpRequest again;
        again.url = m_server.baseUrl() + QStringLiteral("/page?n=1");
        QVERIFY(moved.fetch(again).ok());
        QCOMPARE(m_server.connections(), 1);

        // Two clients: two connections. A server that closes after each answer: one per request.
        HttpClient other(fast());
        QVERIFY(other.fetch(again).ok());
        QCOMPARE(m_server.connections(), 2);
        m_server.setKeepAlive(false);
        m_server.clearRequests();
        HttpClient third(fast());
        for (int i = 0; i < 3; ++i)
            QVERIFY(third.fetch(again).ok());
        m_server.setKeepAlive(true);
        QCOMPARE(m_server.connections(), 3);
    }

    void optionsDoNotLeakBetweenRequests()
    {
        // One handle serves every request: nothing of a POST with headers and validators may carry
        // over to the next GET.
        m_server.route("/post", {FixtureResponse::json("{}")});
        m_server.route("/get", {FixtureResponse::json("{}")});
        HttpClient http(fast());
        HttpRequest post;
        post.url = m_server.baseUrl() + QStringLiteral("/post");
        post.method = "POST";
        post.body = "{\"q\":1}";
        post.headers.append(qMakePair(QByteArray("X-Custom"), QByteArray("one")));
        post.ifNoneMatch = QStringLiteral("\"etag\"");
        QVERIFY(http.fetch(post).ok());
        HttpRequest get;
        get.url = m_server.baseUrl() + QStringLiteral("/get");
        get.expectJson = false;
        QVERIFY(http.fetch(get).ok());
        const QList<FixtureRequest> seen = m_server.requests();
        QCOMPARE(seen.size(), 2);
        QCOMPARE(seen.at(0).method, QByteArray("POST"));
        QCOMPARE(seen.at(0).body, QByteArray("{\"q\":1}"));
        QCOMPARE(seen.at(0).headers.value("x-custom"), QByteArray("one"));
        QCOMPARE(seen.at(1).method, QByteArray("GET"));
        QVERIFY(seen.at(1).body.isEmpty());
        QVERIFY(!seen.at(1).headers.contains("x-custom"));
        QVERIFY(!seen.at(1).headers.contains("if-none-match"));
        QVERIFY(!seen.at(1).headers.contains("content-length"));
        QCOMPARE(seen.at(1).headers.value("accept"), QByteArray("*/*"));
        QVERIFY(seen.at(1).headers.value("user-agent").startsWith("GPUFrontier/"));
    }

    void timeLimitStopsATrickle()
    {
        // 20 bytes every 20 ms is fast enough for the low-speed check but would need 100 s for this
        // body: the time limit of the download ends it, with the URL and the limit, and no retry.
        FixtureResponse slow = FixtureResponse::json(QByteArray(100000, ' '));
        slow.trickleBytes = 20;
        slow.trickleMs = 20;
        m_server.route("/slow", {slow});
        HttpOptions o = fast();
        o.lowSpeedBytesPerS = 1;
        o.lowSpeedTimeS = 60;
        o.maxTimeMs = 300;
        HttpClient http(o);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/slow");
        auto r = http.fetch(req);
        QVERIFY(!r.ok());
        const QString e = r.error().text();
        QVERIFY2(e.startsWith(QStringLiteral("GET ") + req.url +
                              QStringLiteral(": not finished within the "
                                             "time limit of 0.3 s for one "
                                             "download (received ")),
                 qPrintable(e));
        QVERIFY2(e.endsWith(QStringLiteral(" of 100000 bytes); not retried")), qPrintable(e));
        QCOMPARE(r.error().code, QStringLiteral("download-time-limit"));
        QCOMPARE(m_server.count("/slow"), 1);

        // The same client goes on working after a transfer it stopped.
        m_server.route("/fast", {FixtureResponse::json("{}")});
        req.url = m_server.baseUrl() + QStringLiteral("/fast");
        QVERIFY(http.fetch(req).ok());
    }

    void timeLimitIncludesTheWaitsBetweenAttempts()
    {
        // A retry that could only start after the limit is not waited for.
        FixtureResponse busy = FixtureResponse::json("{}", 503);
        busy.headers.append(qMakePair(QByteArray("Retry-After"), QByteArray("5")));
        m_server.route("/busy", {busy});
        HttpOptions o = fast();
        o.maxTimeMs = 300;
        HttpClient http(o);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/busy");
        auto r = http.fetch(req);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(QStringLiteral(
                     "HTTP 503 Service Unavailable: {}; a retry in 5 s would pass the time limit of "
                     "0.3 s for one download")),
                 qPrintable(r.error().text()));
        QCOMPARE(r.error().code, QStringLiteral("download-time-limit"));
        QCOMPARE(m_server.count("/busy"), 1);
    }

    void redactSecrets_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("secrets");
        QTest::addColumn<QString>("expected");
        const QStringList none;
        QTest::newRow("userinfo") << QStringLiteral("GET http://user:pa55word@mirror.example/x: HTTP 500")
                                  << none << QStringLiteral("GET http://REDACTED@mirror.example/x: HTTP 500");
        QTest::newRow("user only") << QStringLiteral("https://tok3n@h/") << none
                                   << QStringLiteral("https://REDACTED@h/");
        QTest::newRow("@ in the password") << QStringLiteral("see http://u:p@ss@h:8080/p?q=1 now") << none
                                           << QStringLiteral("see http://REDACTED@h:8080/p?q=1 now");
        QTest::newRow("@ in the path is no userinfo")
            << QStringLiteral("http://h/a@b and me@example.com") << none
            << QStringLiteral("http://h/a@b and me@example.com");
        QTest::newRow("key parameter")
            << QStringLiteral("GET http://h/skus?key=AIza123&currencyCode=USD failed") << none
            << QStringLiteral("GET http://h/skus?key=REDACTED&currencyCode=USD failed");
        QTest::newRow("key parameter ends a message part")
            << QStringLiteral("GET http://h/skus?key=AIza:x1: HTTP 400") << none
            << QStringLiteral("GET http://h/skus?key=REDACTED: HTTP 400");
        QTest::newRow("other credential parameters")
            << QStringLiteral("u?api_key=a&Token=b&access_token=c&X-Amz-Signature=d&pageToken=keep") << none
            << QStringLiteral("u?api_key=REDACTED&Token=REDACTED&access_token=REDACTED&"
                              "X-Amz-Signature=REDACTED&pageToken=keep");
        QTest::newRow("key value anywhere")
            << QStringLiteral("HTTP 400: {\"message\": \"API key AIzaSy-secret not valid\"}")
            << QStringList{QStringLiteral("AIzaSy-secret")}
            << QStringLiteral("HTTP 400: {\"message\": \"API key REDACTED not valid\"}");
        QTest::newRow("percent-encoded secret")
            << QStringLiteral("echo: p%40ss%2Fw0rd and p@ss/w0rd") << QStringList{QStringLiteral("p@ss/w0rd")}
            << QStringLiteral("echo: REDACTED and REDACTED");
        QTest::newRow("too short to replace alone")
            << QStringLiteral("abc http://u:abc@h/") << QStringList{QStringLiteral("abc")}
            << QStringLiteral("abc http://REDACTED@h/");
    }

    void redactSecrets()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, secrets);
        QFETCH(QString, expected);
        QCOMPARE(gf::redactSecrets(text, secrets), expected);
    }

    void errorTextsHideCredentials()
    {
        const QByteArray key = "AIzaSy-echoed-key-1234";
        m_server.route("/echo", {FixtureResponse::json(
                                    "{\"error\":\"bad key " + key + " for user:hunter2pass\"}", 400)});
        HttpClient http(fast());
        http.setSecrets({QString::fromLatin1(key), QStringLiteral("hunter2pass")});
        HttpRequest req;
        req.url = QStringLiteral("http://user:hunter2pass@127.0.0.1:%1/echo?key=%2")
                      .arg(m_server.port())
                      .arg(QString::fromLatin1(key));
        auto r = http.fetch(req);
        QVERIFY(!r.ok());
        const QString e = r.error().text();
        QVERIFY2(!e.contains(QString::fromLatin1(key)) && !e.contains(QStringLiteral("hunter2")),
                 qPrintable(e));
        QVERIFY2(e.contains(QStringLiteral("GET http://REDACTED@127.0.0.1:")) &&
                     e.contains(QStringLiteral("/echo?key=REDACTED: HTTP 400 Bad Request")) &&
                     e.contains(QStringLiteral("bad key REDACTED for user:REDACTED")),
                 qPrintable(e));
        // The credentials themselves still go to the server.
        QCOMPARE(m_server.requests().first().headers.value("authorization"),
                 "Basic " + QByteArray("user:hunter2pass").toBase64());
        QCOMPARE(m_server.requests().first().query, "key=" + key);
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

    // A giant response header is named as such, not "Out of memory".
    void giantHeaderIsNamed()
    {
        FixtureResponse r = FixtureResponse::json("{}");
        r.headers.append({"X-Padding", QByteArray(1024 * 1024, 'a')});
        m_server.route("/big-header", {r});
        HttpOptions o = fast();
        o.maxAttempts = 1;
        HttpClient http(o);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/big-header");
        const auto resp = http.fetch(req);
        QVERIFY(!resp);
        const QString message = resp.error().text();
        QVERIFY2(!message.contains(QStringLiteral("Out of memory")) &&
                     message.contains(QStringLiteral("header")),
                 qPrintable(message));
    }

    // Messages: a '%' in a URL is text, not a placeholder of the message.
    void percentInUrlStaysText()
    {
        m_server.route("/mirror%2Fa/x", {FixtureResponse::json("{\"message\":\"down\"}", 500)});
        HttpOptions o = fast();
        o.maxAttempts = 2;
        HttpClient http(o);
        HttpRequest req;
        req.url = m_server.baseUrl() + QStringLiteral("/mirror%2Fa/x");
        const auto resp = http.fetch(req);
        QVERIFY(!resp);
        const QString message = resp.error().text();
        QVERIFY2(message.contains(QStringLiteral("/mirror%2Fa/x")) &&
                     message.contains(QStringLiteral("after 2 attempts")),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "test_httpclient.moc"

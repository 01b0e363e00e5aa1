// Reliability round 3 (issue 23), the refresh side, against the loopback fixture server: the origin a
// redirected refresh records, a giant response header, and a URL with '%' in the messages.
#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "fixtureserver.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/catalogrefresher.h"
#include "refresh/httpclient.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

RefreshOptions fastOptions(const QString &base)
{
    RefreshOptions o;
    o.baseUrl = base;
    o.http.connectTimeoutMs = 3000;
    o.http.lowSpeedBytesPerS = 1000;
    o.http.lowSpeedTimeS = 1;
    o.http.maxAttempts = 2;
    o.http.backoffInitialMs = 20;
    o.http.backoffMaxMs = 100;
    o.minRows = 1;
    return o;
}

/// The origin of the newest snapshot of `provider`.
QString newestOrigin(const QString &dbPath, const QString &provider)
{
    QString origin;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"origin-reader"_s);
        db.setDatabaseName(dbPath);
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(u"SELECT origin FROM snapshot WHERE provider = ? ORDER BY id DESC LIMIT 1"_s);
            q.addBindValue(provider);
            if (q.exec() && q.next())
                origin = q.value(0).toString();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(u"origin-reader"_s);
    return origin;
}

} // namespace

class TestRefreshReliability final : public QObject
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

    // 12. A redirected refresh records where the prices came from: the final URL.
    void redirectRecordsTheFinalUrl()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        FixtureResponse moved;
        moved.status = 307; // keeps the POST
        moved.body = "{}";
        moved.headers.append({"Location", (m_server.baseUrl() + u"/mirror/api/v0/bundles/"_s).toUtf8()});
        m_server.route("/api/v0/bundles/", {moved});
        m_server.route("/mirror/api/v0/bundles/",
                       {FixtureResponse::json(readFixture(u"providers/vastai/offers.json"_s))});
        CatalogRefresher r(*store, fastOptions(m_server.baseUrl()));
        const RefreshOutcome o = r.refresh(u"vastai"_s);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(m_server.count("/mirror/api/v0/bundles/"), 1);
        QCOMPARE(newestOrigin(db.path(), u"vastai"_s), m_server.baseUrl() + u"/mirror/api/v0/bundles/"_s);
    }

    // 10. A giant response header is named as such, not "Out of memory".
    void giantHeaderIsNamed()
    {
        FixtureResponse r = FixtureResponse::json("{}");
        r.headers.append({"X-Padding", QByteArray(1024 * 1024, 'a')});
        m_server.route("/big-header", {r});
        HttpOptions options;
        options.maxAttempts = 1;
        HttpClient http(options);
        HttpRequest req;
        req.url = m_server.baseUrl() + u"/big-header"_s;
        const auto resp = http.fetch(req);
        QVERIFY(!resp);
        const QString message = resp.error().text();
        QVERIFY2(!message.contains(u"Out of memory"_s) && message.contains(u"header"_s), qPrintable(message));
    }

    // 9. A '%' in a URL is text, not a placeholder of the message.
    void percentInUrlStaysText()
    {
        m_server.route("/mirror%2Fa/x", {FixtureResponse::json("{\"message\":\"down\"}", 500)});
        HttpOptions options;
        options.maxAttempts = 2;
        options.backoffInitialMs = 10;
        options.backoffMaxMs = 20;
        HttpClient http(options);
        HttpRequest req;
        req.url = m_server.baseUrl() + u"/mirror%2Fa/x"_s;
        const auto resp = http.fetch(req);
        QVERIFY(!resp);
        const QString message = resp.error().text();
        QVERIFY2(message.contains(u"/mirror%2Fa/x"_s) && message.contains(u"after 2 attempts"_s),
                 qPrintable(message));
    }
};

QTEST_GUILESS_MAIN(TestRefreshReliability)
#include "test_refreshreliability.moc"

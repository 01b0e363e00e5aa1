#include "refreshfixture.h"

#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "fixtures.h"
#include "refresh/bundledsnapshot.h"

#include <QTest>

namespace gf::test {

FixtureResponse fixtureAnswer(const QString &fixture, const QByteArray &etag)
{
    FixtureResponse r = FixtureResponse::json(readFixture(fixture));
    r.etag = etag;
    return r;
}

RefreshOptions fastRefreshOptions(const QString &baseUrl, int maxAttempts)
{
    RefreshOptions o;
    o.baseUrl = baseUrl;
    o.http.connectTimeoutMs = 3000;
    o.http.lowSpeedBytesPerS = 1000;
    o.http.lowSpeedTimeS = 1;
    o.http.maxAttempts = maxAttempts;
    o.http.backoffInitialMs = 20;
    o.http.backoffMaxMs = 100;
    o.azureSizesPerQuery = 1000; // one query: the fixture server does not evaluate $filter
    o.vastPageDelayMs = 0;
    return o;
}

void serveAwsFixtures(FixtureServer &server, bool etags)
{
    const auto answer = [etags](const char *fixture, const QByteArray &etag) {
        return QList<FixtureResponse>{fixtureAnswer(QStringLiteral("providers/aws/") + QLatin1String(fixture),
                                                    etags ? etag : QByteArray())};
    };
    server.route(kAwsIndexPath, answer("region_index.json", "\"idx-1\""));
    server.route(kAwsEastPath, answer("us-east-1.json", "\"east-1\""));
    server.route(kAwsWestPath, answer("us-west-2.json", "\"west-1\""));
    server.route(kAwsSpotPath, answer("spot.json", "\"spot-1\""));
    server.route(kAwsAdvisorPath, answer("spot-advisor-data.gpu-only.json", "\"adv-1\""));
}

bool RefreshHarness::start()
{
    qputenv("no_proxy", "127.0.0.1,localhost");
    return m_server.start();
}

bool RefreshHarness::reset()
{
    m_server.clearRoutes();
    m_server.clearRequests();
    m_store.reset();
    m_db = std::make_unique<TempDb>();
    m_store = m_db->open();
    return m_store && importBundledIfEmpty(*m_store, GpuCatalog::builtin()).ok();
}

void RefreshHarness::close()
{
    m_store.reset();
    m_db.reset();
}

RefreshOutcome RefreshHarness::refresh(const QString &provider, const RefreshOptions &options)
{
    CatalogRefresher r(*m_store, options);
    return r.refresh(provider);
}

RefreshOutcome RefreshHarness::expectFailure(const QString &provider, const RefreshOptions &options,
                                             const QString &expected)
{
    const QByteArray before = dumpCatalog(dbPath());
    const RefreshOutcome o = refresh(provider, options);
    [&] {
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(expected), qPrintable(o.message));
        QVERIFY2(o.message.contains(QStringLiteral("the previous ")) &&
                     o.message.contains(QStringLiteral("snapshot stays current")),
                 qPrintable(o.message));
        QCOMPARE(dumpCatalog(dbPath()), before);
        QVERIFY(lastLog(dbPath(), provider).startsWith(QStringLiteral("failed|")));
    }();
    return o;
}

} // namespace gf::test

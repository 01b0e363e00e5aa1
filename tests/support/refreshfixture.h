#pragma once

#include "fixtureserver.h"
#include "refresh/catalogrefresher.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QByteArray>
#include <QString>

#include <memory>

namespace gf::test {

/// A fixture file as a JSON answer, with an ETag when one is given.
FixtureResponse fixtureAnswer(const QString &fixture, const QByteArray &etag = {});

/// Short timeouts and back-offs: every misbehaviour of the fixture server resolves in about a second.
/// `maxAttempts` tries per request (the tests of retries ask for more than the others).
RefreshOptions fastRefreshOptions(const QString &baseUrl = {}, int maxAttempts = 2);

/// AWS's real paths of the fixture offer files.
inline const QByteArray kAwsIndexPath = "/offers/v1.0/aws/AmazonEC2/current/region_index.json";
inline const QByteArray kAwsEastPath = "/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json";
inline const QByteArray kAwsWestPath = "/offers/v1.0/aws/AmazonEC2/20250912225308/us-west-2/index.json";
inline const QByteArray kAwsSpotPath = "/spot.json";
inline const QByteArray kAwsAdvisorPath = "/spot-advisor-data.json";

/// Serves, on those paths, the fixture offer files: the region index, us-east-1 and us-west-2, the spot
/// prices and the spot advisor. With `etags`, each answer carries a distinct ETag (for 304 tests).
void serveAwsFixtures(FixtureServer &server, bool etags = false);

/// The set-up every refresh test shares: a loopback fixture server (started once per test case) and,
/// per test function, a fresh temporary catalog holding the bundled snapshots.
class RefreshHarness
{
public:
    /// initTestCase: no proxy for the loopback address, and the server listening. False on failure.
    bool start();
    /// init: no routes, no requests seen, a fresh catalog with the bundled snapshots. False on failure.
    bool reset();
    /// cleanup: closes and removes the catalog.
    void close();

    FixtureServer &server() { return m_server; }
    CatalogStore &store() { return *m_store; }
    QString dbPath() const { return m_db->path(); }

    RefreshOutcome refresh(const QString &provider, const RefreshOptions &options);

    /// A refresh that must fail: its message names `expected` and says the previous snapshot stays
    /// current, the catalog is byte for byte as before, and the refresh log records the failure. Checks
    /// with QTest (a failed check ends the calling test at its next QTest::currentTestFailed()).
    RefreshOutcome expectFailure(const QString &provider, const RefreshOptions &options,
                                 const QString &expected);

private:
    FixtureServer m_server;
    std::unique_ptr<TempDb> m_db;
    std::unique_ptr<CatalogStore> m_store;
};

} // namespace gf::test

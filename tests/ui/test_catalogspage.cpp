#include "catalogdump.h"
#include "catalogspage.h"
#include "domain/provider.h"
#include "fixtureserver.h"
#include "historychart.h"
#include "refresh/refreshservice.h"
#include "refresh/secretstore.h"
#include "refreshfixture.h"
#include "testsupport.h"
#include "viewmodels/catalogservice.h"
#include "viewmodels/catalogstatusmodel.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLabel>
#include <QLineEdit>
#include <QMutex>
#include <QMutexLocker>
#include <QProgressBar>
#include <QPushButton>
#include <QScopeGuard>
#include <QSettings>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>

using namespace gf;
using namespace gf::test;

namespace {

// A keychain that starts later: as a user who starts GNOME Keyring after storing the key.
class FakeKeychain final : public KeychainBackend
{
public:
    bool running = false;
    QHash<QString, QString> entries;

    KeychainAnswer read(const QString &, const QString &name) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        if (!entries.contains(name))
            return {KeychainAnswer::State::NotFound, {}, QStringLiteral("not found")};
        return {KeychainAnswer::State::Ok, entries.value(name), {}};
    }
    KeychainAnswer write(const QString &, const QString &name, const QString &value) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        entries.insert(name, value);
        return {KeychainAnswer::State::Ok, {}, {}};
    }
    KeychainAnswer remove(const QString &, const QString &name) override
    {
        if (!running)
            return {KeychainAnswer::State::Unavailable, {}, QStringLiteral("no keyring is running")};
        entries.remove(name);
        return {KeychainAnswer::State::Ok, {}, {}};
    }
};

// A keychain that answers only once the test opens it (a keyring asking for its password), and notes the
// thread of every call.
class SlowKeychain final : public KeychainBackend
{
public:
    std::atomic_bool open{false};
    std::atomic_bool refuseWrites{false}; ///< as a keyring that denies access
    std::atomic_int writes{0};
    QHash<QString, QString> entries; // touched by the calling thread only while the test waits

    QList<QThread *> threads() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_threads;
    }
    KeychainAnswer read(const QString &, const QString &name) override
    {
        if (!waitOpen())
            return {KeychainAnswer::State::Failed, {}, QStringLiteral("the test never answered")};
        if (!entries.contains(name))
            return {KeychainAnswer::State::NotFound, {}, QStringLiteral("not found")};
        return {KeychainAnswer::State::Ok, entries.value(name), {}};
    }
    KeychainAnswer write(const QString &, const QString &name, const QString &value) override
    {
        if (!waitOpen())
            return {KeychainAnswer::State::Failed, {}, QStringLiteral("the test never answered")};
        ++writes;
        if (refuseWrites)
            return {KeychainAnswer::State::Failed, {}, QStringLiteral("access denied")};
        entries.insert(name, value);
        return {KeychainAnswer::State::Ok, {}, {}};
    }
    KeychainAnswer remove(const QString &, const QString &name) override
    {
        if (!waitOpen())
            return {KeychainAnswer::State::Failed, {}, QStringLiteral("the test never answered")};
        entries.remove(name);
        return {KeychainAnswer::State::Ok, {}, {}};
    }

private:
    bool waitOpen()
    {
        {
            const QMutexLocker lock(&m_mutex);
            m_threads.append(QThread::currentThread());
        }
        for (int i = 0; i < 1000 && !open.load(); ++i)
            QThread::msleep(10);
        return open.load();
    }
    mutable QMutex m_mutex;
    QList<QThread *> m_threads;
};

// The page calls the secret store off the GUI thread: wait until it has answered every call.
bool settled(const CatalogsPage &page)
{
    return QTest::qWaitFor([&page] { return page.secretService()->pending() == 0; }, 10000);
}

} // namespace

class TestCatalogsPage final : public QObject
{
    Q_OBJECT

    FixtureServer m_server;
    QTemporaryDir m_config;

    static int row(const CatalogsPage &page, const QString &provider)
    {
        return page.statusModel()->rowOf(provider);
    }

private:
    /// Google's billing API answers "bad key" (400) once, without retries, at the page's GCP base URL.
    void answerGcpWithABadKeyError(CatalogsPage &page)
    {
        m_server.route("/v1/services/6F81-5844-456A/skus",
                       {FixtureResponse::json("{\"error\":{\"message\":\"bad key\"}}", 400)});
        page.service()->setOptions([] {
            RefreshOptions o;
            o.http.maxAttempts = 1;
            return o;
        }());
        page.baseUrlEdit(QStringLiteral("gcp"))->setText(m_server.baseUrl());
    }

private Q_SLOTS:
    void initTestCase()
    {
        qputenv("no_proxy", "127.0.0.1,localhost");
        qputenv("XDG_CONFIG_HOME", m_config.path().toUtf8());
        qputenv("XDG_DATA_HOME", (m_config.path() + QStringLiteral("/data")).toUtf8()); // the key file
        qunsetenv("GPUFRONTIER_GCP_API_KEY");
        QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier test"));
        QCoreApplication::setApplicationName(QStringLiteral("catalogspage-test"));
        QVERIFY(m_server.start());
    }

    void init()
    {
        QSettings().clear();
        m_server.clearRoutes();
        m_server.clearRequests();
    }

    void showsEveryProviderWithAgeBadges()
    {
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QAbstractItemModelTester tester(page.statusModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        const CatalogStatusModel *m = page.statusModel();
        QCOMPARE(m->rowCount(), int(knownProviders().size()));
        for (int r = 0; r < m->rowCount(); ++r) {
            QVERIFY(m->index(r, CatalogStatusModel::Snapshot).data().toInt() > 0); // the bundled snapshot
            QCOMPARE(m->index(r, CatalogStatusModel::Source).data().toString(), QStringLiteral("bundled"));
            QVERIFY(m->index(r, CatalogStatusModel::Offers).data().toInt() > 0);
            // The bundled prices are older than 7 days: flagged, with a badge in the view.
            QVERIFY(m->index(r, CatalogStatusModel::Age).data(CatalogStatusModel::StaleRole).toBool());
            const QModelIndex shown = page.statusView()->model()->index(r, CatalogStatusModel::Age);
            QVERIFY(!shown.data(Qt::DecorationRole).isNull());
            // Past the year that flags their offers: "(stale)"; before: "(refresh advised)".
            QVERIFY(shown.data().toString().contains(QStringLiteral("stale")) ||
                    shown.data().toString().contains(QStringLiteral("refresh advised")));
        }
        QCOMPARE(m->index(row(page, QStringLiteral("aws")), CatalogStatusModel::Offers).data().toInt(), 1883);
        QVERIFY(m->index(row(page, QStringLiteral("azure")), CatalogStatusModel::Age)
                    .data()
                    .toString()
                    .contains(QStringLiteral("(stale)"))); // 2024-07-01: more than a year
        QVERIFY(page.cancelButton() && !page.cancelButton()->isEnabled());
    }

    void readOnlyDatabaseDisablesWrites()
    {
        // A database that cannot be written is shown, and nothing offers to write it.
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        QVERIFY(page.importButton()->isEnabled() && page.refreshAllButton()->isEnabled());
        page.setReadOnly(true);
        QVERIFY(!page.importButton()->isEnabled());
        QVERIFY(!page.refreshAllButton()->isEnabled());
        QVERIFY(!page.refreshButton(QStringLiteral("aws"))->isEnabled());
        QVERIFY(page.importButton()->toolTip().contains(QStringLiteral("read-only")));
        page.setReadOnly(false);
        QVERIFY(page.importButton()->isEnabled() && page.refreshAllButton()->isEnabled());
        QVERIFY(!page.importButton()->toolTip().contains(QStringLiteral("read-only")));
    }

    void refreshFromTheGuiUpdatesTheTable()
    {
        serveAwsFixtures(m_server);
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        QSignalSpy changed(&page, &CatalogsPage::catalogChanged);
        QSignalSpy ended(&page, &CatalogsPage::jobEnded);
        // The base URL typed in the settings area is used (and kept in QSettings).
        page.baseUrlEdit(QStringLiteral("aws"))->setText(m_server.baseUrl());
        QTest::mouseClick(page.refreshButton(QStringLiteral("aws")), Qt::LeftButton);
        QVERIFY(page.isBusy());
        QVERIFY(page.cancelButton()->isEnabled());
        QVERIFY(!page.refreshAllButton()->isEnabled());
        QVERIFY(page.progressBar(QStringLiteral("aws"))->isVisibleTo(&page));
        QVERIFY(ended.wait(60000));
        QCOMPARE(changed.size(), 1);
        QVERIFY2(page.rowStatus(QStringLiteral("aws"))->text().contains(QStringLiteral("imported 16 offers")),
                 qPrintable(page.rowStatus(QStringLiteral("aws"))->text()));
        QVERIFY(!page.progressBar(QStringLiteral("aws"))->isVisibleTo(&page));
        QCOMPARE(page.statusText(), QStringLiteral("Catalog updated."));
        QCOMPARE(QSettings().value(QStringLiteral("refresh/baseUrl/aws")).toString(), m_server.baseUrl());
        QTRY_COMPARE_WITH_TIMEOUT(page.statusModel()
                                      ->index(row(page, QStringLiteral("aws")), CatalogStatusModel::Offers)
                                      .data()
                                      .toInt(),
                                  16, 30000);
        const QModelIndex src =
            page.statusModel()->index(row(page, QStringLiteral("aws")), CatalogStatusModel::Source);
        QCOMPARE(src.data().toString(), QStringLiteral("live"));
        QVERIFY(!page.statusModel()
                     ->index(row(page, QStringLiteral("aws")), CatalogStatusModel::Age)
                     .data(CatalogStatusModel::StaleRole)
                     .toBool());

        // The price history of one offer: bundled (per zone, cheapest shown) then live.
        QSignalSpy history(&page, &CatalogsPage::historyLoaded);
        page.historyProvider()->setCurrentIndex(page.historyProvider()->findData(QStringLiteral("aws")));
        page.historyInstance()->setCurrentText(QStringLiteral("p3.2xlarge"));
        page.historyRegion()->setCurrentIndex(page.historyRegion()->findData(QStringLiteral("us-east-1")));
        QTRY_VERIFY_WITH_TIMEOUT(page.historyChart()->onDemandPointCount() == 2, 30000);
        QCOMPARE(page.historyChart()->spotPointCount(), 2);

        // A failure shows the error in the row and in the table; nothing changes.
        m_server.route("/spot.json", {FixtureResponse::json("{}", 503)});
        page.service()->setOptions([] {
            RefreshOptions o;
            o.http.maxAttempts = 1;
            return o;
        }());
        const QByteArray before = dumpCatalog(db.path());
        ended.clear();
        changed.clear();
        QTest::mouseClick(page.refreshButton(QStringLiteral("aws")), Qt::LeftButton);
        QVERIFY(ended.wait(60000));
        QCOMPARE(changed.size(), 0);
        QVERIFY(page.rowStatus(QStringLiteral("aws"))->text().contains(QStringLiteral("HTTP 503")));
        // The page's own status says it failed (it said "Done." before).
        QVERIFY2(page.statusText().startsWith(QStringLiteral("Failed: AWS")), qPrintable(page.statusText()));
        QTRY_VERIFY_WITH_TIMEOUT(page.statusModel()
                                     ->index(row(page, QStringLiteral("aws")), CatalogStatusModel::LastError)
                                     .data()
                                     .toString()
                                     .contains(QStringLiteral("HTTP 503")),
                                 30000);
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    void cancelAStalledRefresh()
    {
        serveAwsFixtures(m_server);
        FixtureResponse stall = fixtureAnswer(QStringLiteral("providers/aws/us-east-1.json"));
        stall.stallAfter = 100;
        stall.stallMs = 30000;
        m_server.route("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json", {stall});
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        page.baseUrlEdit(QStringLiteral("aws"))->setText(m_server.baseUrl());
        QSignalSpy ended(&page, &CatalogsPage::jobEnded);
        QTest::mouseClick(page.refreshButton(QStringLiteral("aws")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            m_server.count("/offers/v1.0/aws/AmazonEC2/20250912225308/us-east-1/index.json") > 0, 30000);
        QTest::mouseClick(page.cancelButton(), Qt::LeftButton);
        QVERIFY(ended.wait(30000));
        QVERIFY2(page.rowStatus(QStringLiteral("aws"))->text().contains(QStringLiteral("cancelled")),
                 qPrintable(page.rowStatus(QStringLiteral("aws"))->text()));
        QVERIFY(page.refreshButton(QStringLiteral("aws"))->isEnabled());
    }

    void importFileThroughTheSeam()
    {
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        page.setFileChooser(
            [] { return QStringList{QStringLiteral(GF_FIXTURES_DIR "/providers/skypilot/vast.csv")}; });
        QString askedFor;
        page.setProviderChooser([&](const QString &f) {
            askedFor = f;
            return QStringLiteral("vastai");
        });
        QSignalSpy changed(&page, &CatalogsPage::catalogChanged);
        QTest::mouseClick(page.importButton(), Qt::LeftButton);
        QVERIFY(changed.wait(30000));
        QVERIFY(askedFor.endsWith(QStringLiteral("vast.csv"))); // SkyPilot files do not say which cloud
        QTRY_COMPARE_WITH_TIMEOUT(page.statusModel()
                                      ->index(row(page, QStringLiteral("vastai")), CatalogStatusModel::Source)
                                      .data()
                                      .toString(),
                                  QStringLiteral("file"), 30000);
    }

    // The status line's advice works: with a keyring started after the key went to the file,
    // entering the same key again, or "Move to keychain", moves it there and deletes the file.
    void keyMovesIntoTheKeychain()
    {
        const QByteArray mode = qgetenv("GPUFRONTIER_SECRET_STORE");
        qputenv("GPUFRONTIER_SECRET_STORE", "auto");
        FakeKeychain keychain;
        SecretStore::setKeychainForTesting(&keychain);
        auto restore = qScopeGuard([&] {
            SecretStore::setKeychainForTesting(nullptr);
            qputenv("GPUFRONTIER_SECRET_STORE", mode);
        });
        const QString key = QStringLiteral("AIzaSy-ui-move-test");
        const SecretStore store;
        const QString path = store.filePath(kGcpApiKeySecret);
        QVERIFY(store.remove(kGcpApiKeySecret));
        TempDb db;
        {
            CatalogService service(db.path());
            CatalogsPage page(&service, nullptr);
            QVERIFY(settled(page));
            QVERIFY(page.gcpKeyMoveButton()->isHidden());
            page.gcpKeyEdit()->setText(key);
            page.gcpKeyEdit()->setModified(true);
            Q_EMIT page.gcpKeyEdit()->editingFinished();
            QVERIFY(settled(page));
            QVERIFY(QFileInfo::exists(path));
            QVERIFY2(page.gcpKeyStatus()->text().contains(QStringLiteral("Move to keychain")),
                     qPrintable(page.gcpKeyStatus()->text()));
            QVERIFY(!page.gcpKeyMoveButton()->isHidden());

            // Focus leaving the field without typing writes nothing; typing the same key again moves it.
            keychain.running = true;
            Q_EMIT page.gcpKeyEdit()->editingFinished();
            QVERIFY(settled(page));
            QVERIFY(keychain.entries.isEmpty());
            page.gcpKeyEdit()->setText(key);
            page.gcpKeyEdit()->setModified(true);
            Q_EMIT page.gcpKeyEdit()->editingFinished();
            QVERIFY(settled(page));
            QCOMPARE(keychain.entries.value(kGcpApiKeySecret), key);
            QVERIFY(!QFileInfo::exists(path));
            QCOMPARE(page.gcpKeyStatus()->text(), QStringLiteral("Kept in the desktop keychain."));
            QVERIFY(page.gcpKeyMoveButton()->isHidden());
        }
        // The button: refused while no keyring runs (the file kept), done once one does.
        keychain.running = false;
        keychain.entries.clear();
        QVERIFY(store.write(kGcpApiKeySecret, key));
        QVERIFY(QFileInfo::exists(path));
        {
            CatalogService service(db.path());
            CatalogsPage page(&service, nullptr);
            QVERIFY(settled(page));
            QCOMPARE(page.gcpKeyEdit()->text(), key);
            QVERIFY(!page.gcpKeyMoveButton()->isHidden());
            QTest::mouseClick(page.gcpKeyMoveButton(), Qt::LeftButton);
            QVERIFY(settled(page));
            QVERIFY(QFileInfo::exists(path));
            QVERIFY2(page.gcpKeyStatus()->text().contains(QStringLiteral("still in its file")) &&
                         !page.gcpKeyStatus()->text().contains(key),
                     qPrintable(page.gcpKeyStatus()->text()));
            keychain.running = true;
            QTest::mouseClick(page.gcpKeyMoveButton(), Qt::LeftButton);
            QVERIFY(settled(page));
            QCOMPARE(keychain.entries.value(kGcpApiKeySecret), key);
            QVERIFY(!QFileInfo::exists(path));
            QCOMPARE(page.gcpKeyStatus()->text(), QStringLiteral("Kept in the desktop keychain."));
            QVERIFY(page.gcpKeyMoveButton()->isHidden());
        }
        QVERIFY(store.remove(kGcpApiKeySecret));
    }

    // The page never waits for the keychain on the GUI thread: reading the key when it opens, storing a
    // typed key and the refresh that follows (which must use the key just typed) all wait off it, and the
    // page says what it waits for meanwhile.
    void keychainCallsLeaveTheGuiThread()
    {
        const QByteArray mode = qgetenv("GPUFRONTIER_SECRET_STORE");
        qputenv("GPUFRONTIER_SECRET_STORE", "auto");
        SlowKeychain keychain;
        keychain.entries.insert(kGcpApiKeySecret, QStringLiteral("AIzaSy-slow-old"));
        SecretStore::setKeychainForTesting(&keychain);
        auto restore = qScopeGuard([&] {
            keychain.open = true;
            SecretStore::setKeychainForTesting(nullptr);
            qputenv("GPUFRONTIER_SECRET_STORE", mode);
        });
        TempDb db;
        CatalogService service(db.path());
        {
            CatalogsPage page(&service, nullptr);
            // The page is up while the keychain has not answered: the field waits, the status says why.
            QVERIFY(!page.gcpKeyEdit()->isEnabled());
            QVERIFY2(page.gcpKeyStatus()->text().contains(QStringLiteral("Reading the stored GCP API key")),
                     qPrintable(page.gcpKeyStatus()->text()));
            QCOMPARE(page.secretService()->pending(), 1);
            keychain.open = true;
            QVERIFY(settled(page));
            QVERIFY(page.gcpKeyEdit()->isEnabled());
            QCOMPARE(page.gcpKeyEdit()->text(), QStringLiteral("AIzaSy-slow-old"));
            QCOMPARE(page.gcpKeyStatus()->text(), QStringLiteral("Kept in the desktop keychain."));

            // A new key typed, then Refresh at once: the refresh waits for the store, then sends that key.
            answerGcpWithABadKeyError(page);
            keychain.open = false;
            QSignalSpy ended(&page, &CatalogsPage::jobEnded);
            page.gcpKeyEdit()->setText(QStringLiteral("AIzaSy-slow-new"));
            page.gcpKeyEdit()->setModified(true);
            Q_EMIT page.gcpKeyEdit()->editingFinished();
            QVERIFY2(page.gcpKeyStatus()->text().contains(QStringLiteral("Storing the GCP API key")),
                     qPrintable(page.gcpKeyStatus()->text()));
            QTest::mouseClick(page.refreshButton(QStringLiteral("gcp")), Qt::LeftButton);
            QVERIFY(page.isBusy());
            QVERIFY(!page.refreshAllButton()->isEnabled());
            QCOMPARE(page.statusText(), QStringLiteral("Waiting for the secret store…"));
            QVERIFY(!page.service()->isRunning());
            keychain.open = true;
            QVERIFY(ended.wait(60000));
            QVERIFY(!m_server.requests().isEmpty());
            QVERIFY2(m_server.requests().first().query.contains(QByteArray("key=AIzaSy-slow-new")),
                     m_server.requests().first().query.constData());
            QCOMPARE(page.gcpKeyStatus()->text(), QStringLiteral("Kept in the desktop keychain."));
        }
        QCOMPARE(keychain.entries.value(kGcpApiKeySecret), QStringLiteral("AIzaSy-slow-new"));
        const QList<QThread *> threads = keychain.threads();
        QVERIFY(threads.size() >= 3); // read, write, the refresh's read
        for (QThread *t : threads)
            QVERIFY(t != QThread::currentThread());
    }

    // A key the store refuses: the refresh asked for meanwhile still starts, once, and the key is tried once.
    void aRefusedKeyDoesNotHoldUpTheRefresh()
    {
        const QByteArray mode = qgetenv("GPUFRONTIER_SECRET_STORE");
        qputenv("GPUFRONTIER_SECRET_STORE", "keychain");
        SlowKeychain keychain;
        keychain.open = true;
        keychain.refuseWrites = true;
        SecretStore::setKeychainForTesting(&keychain);
        auto restore = qScopeGuard([&] {
            SecretStore::setKeychainForTesting(nullptr);
            qputenv("GPUFRONTIER_SECRET_STORE", mode);
        });
        TempDb db;
        CatalogService service(db.path());
        CatalogsPage page(&service, nullptr);
        QVERIFY(settled(page));
        answerGcpWithABadKeyError(page);
        QSignalSpy ended(&page, &CatalogsPage::jobEnded);
        page.gcpKeyEdit()->setText(QStringLiteral("AIzaSy-refused"));
        page.gcpKeyEdit()->setModified(true);
        QTest::mouseClick(page.refreshButton(QStringLiteral("gcp")), Qt::LeftButton);
        QVERIFY(ended.wait(60000));
        QVERIFY(settled(page));
        QCOMPARE(keychain.writes.load(), 1);
        QCOMPARE(ended.size(), 1);
        auto *error = page.findChild<QLabel *>(QStringLiteral("settingsError"));
        QVERIFY(error && !error->isHidden());
        QVERIFY2(error->text().contains(QStringLiteral("GCP API key: ")) &&
                     !error->text().contains(QStringLiteral("AIzaSy-refused")),
                 qPrintable(error->text()));
    }

    // RunPod has two live sources: its own GraphQL API (default) and SkyPilot's catalog, chosen on the page.
    void sourceChooserPicksTheCatalog()
    {
        m_server.route("/graphql", {FixtureResponse::json(
                                       readFixture(QStringLiteral("providers/runpod/gputypes.json")))});
        FixtureResponse csv =
            FixtureResponse::json(readFixture(QStringLiteral("providers/skypilot/runpod.csv")));
        csv.contentType = "text/plain";
        m_server.route("/skypilot-org/skypilot-catalog/master/catalogs/v9/runpod/vms.csv", {csv});
        TempDb db;
        CatalogService pageService(db.path());
        CatalogsPage page(&pageService, nullptr);
        QSignalSpy loaded(&page, &CatalogsPage::statusLoaded);
        QVERIFY(loaded.wait(30000));
        QVERIFY(!page.sourceChooser(QStringLiteral("lambda"))); // one source only
        QVERIFY(page.sourceChooser(QStringLiteral("oci")));
        QComboBox *source = page.sourceChooser(QStringLiteral("runpod"));
        QVERIFY(source);
        QCOMPARE(source->count(), 2);
        QCOMPARE(source->currentIndex(), 0);
        QVERIFY2(source->currentText().contains(QStringLiteral("RunPod GraphQL API")) &&
                     source->currentText().contains(QStringLiteral("(default)")),
                 qPrintable(source->currentText()));
        page.baseUrlEdit(QStringLiteral("runpod"))->setText(m_server.baseUrl());
        // The user picks SkyPilot's catalog: kept in the settings and used by the next refresh.
        page.show();
        source->setFocus();
        QTest::keyClick(source, Qt::Key_Down);
        QCOMPARE(source->currentIndex(), 1);
        QCOMPARE(QSettings().value(QStringLiteral("refresh/source/runpod")).toString(),
                 QStringLiteral("skypilot"));
        QSignalSpy ended(&page, &CatalogsPage::jobEnded);
        QTest::mouseClick(page.refreshButton(QStringLiteral("runpod")), Qt::LeftButton);
        QVERIFY(ended.wait(60000));
        QVERIFY2(
            page.rowStatus(QStringLiteral("runpod"))->text().contains(QStringLiteral("imported 6 offers")),
            qPrintable(page.rowStatus(QStringLiteral("runpod"))->text()));
        QCOMPARE(m_server.count("/graphql"), 0);
        {
            // Another page (the next start) shows the choice; back to the default, RunPod's API is read.
            CatalogService againService(db.path());
            CatalogsPage again(&againService, nullptr);
            QCOMPARE(again.sourceChooser(QStringLiteral("runpod"))->currentIndex(), 1);
        }
        QTest::keyClick(source, Qt::Key_Up);
        QCOMPARE(source->currentIndex(), 0);
        QVERIFY(!QSettings().contains(QStringLiteral("refresh/source/runpod")));
        ended.clear();
        QTest::mouseClick(page.refreshButton(QStringLiteral("runpod")), Qt::LeftButton);
        QVERIFY(ended.wait(60000));
        QVERIFY2(
            page.rowStatus(QStringLiteral("runpod"))->text().contains(QStringLiteral("imported 20 offers")),
            qPrintable(page.rowStatus(QStringLiteral("runpod"))->text()));
        QCOMPARE(m_server.count("/graphql"), 1);
    }

    void settingsAreKept()
    {
        TempDb db;
        {
            CatalogService pageService(db.path());
            CatalogsPage page(&pageService, nullptr);
            QVERIFY(settled(page));
            page.gcpKeyEdit()->setText(QStringLiteral("test-key"));
            Q_EMIT page.gcpKeyEdit()->editingFinished();
            QVERIFY(settled(page));
            page.baseUrlEdit(QStringLiteral("azure"))->setText(QStringLiteral("not a url"));
            Q_EMIT page.baseUrlEdit(QStringLiteral("azure"))->editingFinished();
            QVERIFY(QSettings()
                        .value(QStringLiteral("refresh/baseUrl/azure"))
                        .isNull()); // rejected, with a message
        }
        // The key went to the secret store (here its 0600 file, GPUFRONTIER_SECRET_STORE=file), not the
        // settings, and the page says where it is.
        QVERIFY(!QSettings().contains(QStringLiteral("refresh/gcpApiKey")));
        const SecretStore store;
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, QStringLiteral("test-key"));
        QCOMPARE(QFile::permissions(store.filePath(kGcpApiKeySecret)),
                 QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser |
                     QFileDevice::WriteUser);
        CatalogService againService(db.path());
        CatalogsPage again(&againService, nullptr);
        QVERIFY(settled(again));
        QCOMPARE(again.gcpKeyEdit()->text(), QStringLiteral("test-key"));
        QVERIFY(!again.gcpKeyStatus()->isHidden());
        QVERIFY2(again.gcpKeyStatus()->text().contains(QStringLiteral("0600")) &&
                     !again.gcpKeyStatus()->text().contains(QStringLiteral("test-key")),
                 qPrintable(again.gcpKeyStatus()->text()));
        // Clearing the field removes the key.
        again.gcpKeyEdit()->clear();
        Q_EMIT again.gcpKeyEdit()->editingFinished();
        QVERIFY(settled(again));
        QVERIFY(store.read(kGcpApiKeySecret).value().value.isEmpty());
        QVERIFY(again.gcpKeyStatus()->isHidden());
        // A key an older version kept in the settings moves into the store when the page opens.
        QSettings().setValue(QStringLiteral("refresh/gcpApiKey"), QStringLiteral("legacy-key"));
        {
            CatalogService legacyService(db.path());
            CatalogsPage legacy(&legacyService, nullptr);
            QVERIFY(settled(legacy));
            QCOMPARE(legacy.gcpKeyEdit()->text(), QStringLiteral("legacy-key"));
        }
        QVERIFY(!QSettings().contains(QStringLiteral("refresh/gcpApiKey")));
        QCOMPARE(store.read(kGcpApiKeySecret).value().value, QStringLiteral("legacy-key"));
        QVERIFY(store.remove(kGcpApiKeySecret));

        // CA bundle: a missing file is refused with a message naming it; a PEM file is kept.
        auto *ca = again.findChild<QLineEdit *>(QStringLiteral("caBundle"));
        QVERIFY(ca);
        ca->setText(db.dir() + QStringLiteral("/missing.pem"));
        Q_EMIT ca->editingFinished();
        QVERIFY(QSettings().value(QStringLiteral("refresh/caBundle")).isNull());
        auto *error = again.findChild<QLabel *>(QStringLiteral("settingsError"));
        QVERIFY(error);
        QVERIFY2(error->text().contains(QStringLiteral("missing.pem\" does not exist")),
                 qPrintable(error->text()));
        const QString pem = db.dir() + QStringLiteral("/ca.pem");
        QFile f(pem);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");
        f.close();
        ca->setText(pem);
        Q_EMIT ca->editingFinished();
        QCOMPARE(QSettings().value(QStringLiteral("refresh/caBundle")).toString(), pem);
        QVERIFY(error->text().isEmpty());
        CatalogService thirdService(db.path());
        CatalogsPage third(&thirdService, nullptr);
        QVERIFY(settled(third));
        QCOMPARE(third.findChild<QLineEdit *>(QStringLiteral("caBundle"))->text(), pem);
        QSettings().remove(QStringLiteral("refresh/caBundle"));
    }
};

QTEST_MAIN(TestCatalogsPage)
#include "test_catalogspage.moc"

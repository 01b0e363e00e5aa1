// The GUI never waits for the database: with every catalog request slowed down on the service's
// worker (a slow disk, a database locked by another process), the window keeps processing its event
// loop (timers fire at their pace) until the catalog arrives.
#include "mainwindow.h"
#include "offerspage.h"
#include "probepage.h"
#include "testsupport.h"
#include "viewmodels/catalogservice.h"
#include "viewmodels/offertablemodel.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>
#include <QTimer>

using namespace gf;
using namespace gf::test;

class TestSlowStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void windowStaysResponsiveWhileTheStoreIsSlow()
    {
        constexpr int kDelayMs = 1200;
        TempDb db;
        qputenv("GPUFRONTIER_TEST_STORE_DELAY_MS", QByteArray::number(kDelayMs));
        MainWindow w(db.path());
        qunsetenv("GPUFRONTIER_TEST_STORE_DELAY_MS");
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();

        // The window was built and shown without waiting for the store.
        QVERIFY(w.isLoading());
        QVERIFY(w.catalogService()->pending() > 0);
        QCOMPARE(w.offersPage()->model()->rowCount(), 0);

        int ticks = 0;
        qint64 longestGapMs = 0;
        QElapsedTimer sinceTick;
        sinceTick.start();
        QTimer timer;
        timer.setInterval(20);
        connect(&timer, &QTimer::timeout, this, [&] {
            ++ticks;
            longestGapMs = std::max(longestGapMs, sinceTick.restart());
        });
        timer.start();
        QVERIFY(loaded.wait(60000));
        timer.stop();

        // Several timer ticks while the requests were held up, and never a pause as long as one
        // request: the GUI thread did not run the store's work.
        QVERIFY2(ticks >= 5, qPrintable(QString::number(ticks)));
        QVERIFY2(longestGapMs < kDelayMs, qPrintable(QString::number(longestGapMs)));
        QVERIFY(w.offersPage()->model()->rowCount() > 0);
        // The probe page's history arrives through the same service.
        QTRY_VERIFY(w.catalogService()->pending() == 0);
    }
};

QTEST_MAIN(TestSlowStore)
#include "test_slowstore.moc"

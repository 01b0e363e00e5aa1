#include "probepage.h"
#include "testsupport.h"
#include "viewmodels/catalogservice.h"

#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace gf;
using namespace gf::test;

class TestProbePage final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // The probes are found in the build tree.
        qputenv("GPUFRONTIER_PROBE_DIR", QByteArray(GF_BINARY_DIR "/probes"));
    }

    void importsAProbeFromAnotherMachine()
    {
        TempDb db;
        CatalogService pageService(db.path());
        ProbePage page(&pageService);
        QCOMPARE(page.historyCount(), 0);
        QSignalSpy calibration(&page, &ProbePage::calibrationChanged);
        QVERIFY(page.importFile(fixturePath(QStringLiteral("probe/cuda_h100.json"))));
        QTRY_COMPARE(page.historyCount(), 1);
        QCOMPARE(calibration.size(), 1);
        const Calibration c = calibration.first().at(0).value<Calibration>();
        QVERIFY(c.measured);
        QVERIFY(!c.probedGpuId.isEmpty());
        auto *figures = page.findChild<QTableWidget *>(QStringLiteral("probeFigures"));
        QVERIFY(figures && figures->rowCount() >= 6);
        // BF16 row: measured, datasheet and an efficiency in percent.
        bool efficiency = false;
        for (int r = 0; r < figures->rowCount(); ++r)
            efficiency = efficiency || figures->item(r, 2)->text().endsWith(QStringLiteral("%"));
        QVERIFY(efficiency);
        auto *device = page.findChild<QLabel *>(QStringLiteral("probeDevice"));
        QVERIFY(device->text().contains(QStringLiteral("H100")));
    }

    void rejectsBadFiles()
    {
        TempDb db;
        CatalogService pageService(db.path());
        ProbePage page(&pageService);
        QVERIFY(!page.importFile(fixturePath(QStringLiteral("probe/not_json.txt"))));
        QVERIFY(page.statusText().contains(QStringLiteral("not_json.txt")));
        QVERIFY(!page.importFile(db.dir() + QStringLiteral("/missing.json")));
        QVERIFY(page.statusText().contains(QStringLiteral("Cannot read")));
        QCOMPARE(page.historyCount(), 0);
    }

    void runsTheRealCpuProbe()
    {
        TempDb db;
        CatalogService pageService(db.path());
        ProbePage page(&pageService);
        QSignalSpy finished(&page, &ProbePage::runFinished);
        page.runProbe(true, true);
        QVERIFY(page.isRunning());
        QVERIFY(finished.wait(120000));
        QVERIFY2(finished.first().at(0).toBool(), qPrintable(page.statusText()));
        QTRY_COMPARE(page.historyCount(), 1);
        // A CPU probe calibrates nothing on the GPU side: datasheet defaults, said so, and the button that
        // would calibrate with it is off.
        QVERIFY(!page.calibration().measured);
        auto *use = page.findChild<QPushButton *>(QStringLiteral("probeUse"));
        QVERIFY(use);
        QVERIFY(!use->isEnabled());
        QVERIFY(use->toolTip().contains(QStringLiteral("cannot calibrate")));
        // A GPU run imported beside it: the button is on while that run is selected, off on the CPU run.
        QVERIFY(page.importFile(fixturePath(QStringLiteral("probe/h100-2026-11-26/full.json"))));
        QTRY_COMPARE(page.historyCount(), 2);
        auto *history = page.findChild<QTableWidget *>(QStringLiteral("probeHistory"));
        QVERIFY(history);
        for (int row = 0; row < history->rowCount(); ++row) {
            history->setCurrentCell(row, 0);
            QCOMPARE(use->isEnabled(), history->item(row, 2)->text() == QStringLiteral("cuda"));
        }
    }

    /// No GPU here: the page says so (the runner's fact) and what to do instead (the page's own advice),
    /// and moves the focus to the CPU probe.
    void noGpuSaysWhatToDo()
    {
        TempDb db;
        // A stand-in gpufrontier-probe that finds no device (exit 2 with its error document).
        QFile::copy(fixturePath(QStringLiteral("probe/fake_nodevice.sh")),
                    db.dir() + QStringLiteral("/gpufrontier-probe"));
        QFile::copy(fixturePath(QStringLiteral("probe/nodevice.json")),
                    db.dir() + QStringLiteral("/nodevice.json"));
        QFile::setPermissions(db.dir() + QStringLiteral("/gpufrontier-probe"),
                              QFileDevice::ReadOwner | QFileDevice::ExeOwner | QFileDevice::WriteOwner);
        const QByteArray saved = qgetenv("GPUFRONTIER_PROBE_DIR");
        qputenv("GPUFRONTIER_PROBE_DIR", db.dir().toLocal8Bit());
        CatalogService pageService(db.path());
        ProbePage page(&pageService);
        page.show();
        QSignalSpy finished(&page, &ProbePage::runFinished);
        page.runProbe(false, true);
        QVERIFY(finished.wait(60000));
        qputenv("GPUFRONTIER_PROBE_DIR", saved);
        QVERIFY(!finished.first().at(0).toBool());
        QVERIFY2(page.statusText().contains(QStringLiteral("No CUDA GPU")), qPrintable(page.statusText()));
        QVERIFY2(page.statusText().contains(QStringLiteral("Run the CPU probe instead")),
                 qPrintable(page.statusText()));
        QCOMPARE(page.historyCount(), 0);
    }

    void cancelStopsTheRun()
    {
        TempDb db;
        CatalogService pageService(db.path());
        ProbePage page(&pageService);
        QSignalSpy finished(&page, &ProbePage::runFinished);
        page.runProbe(true, false);
        QVERIFY(page.isRunning());
        page.cancel();
        QVERIFY(finished.wait(30000));
        QCOMPARE(finished.first().at(0).toBool(), false);
        QCOMPARE(page.historyCount(), 0);
    }
};

QTEST_MAIN(TestProbePage)
#include "test_probepage.moc"

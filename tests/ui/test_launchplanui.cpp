// The GUI end of launch plans and measurements: File > Launch plan… writes the plan for the recommended point
// through the dialog (remembered choices), and the Measurements page imports a measurement that changes the
// projection.
#include "launchplandialog.h"
#include "launchplanner.h"
#include "mainwindow.h"
#include "mainwindowwait.h"
#include "measurementspage.h"
#include "testsupport.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QMessageBox>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

class TestLaunchPlanUi final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    std::unique_ptr<MainWindow> m_window;

    void waitForProjection() { QVERIFY(gf::test::waitForProjection(*m_window)); }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(u"GPU Frontier Tests"_s);
        QApplication::setApplicationName(u"gpufrontier-launchplan-test"_s);
        QSettings().clear();
        m_window = std::make_unique<MainWindow>(m_db.path());
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        QSignalSpy projected(m_window.get(), &MainWindow::projectionUpdated);
        m_window->resize(1400, 850);
        m_window->show();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.wait(30000));
    }

    void launchPlanForTheRecommendedPoint()
    {
        QTemporaryDir dir;
        const QString target = dir.filePath(u"plan"_s);
        const QString package = dir.filePath(u"gf-package.tar.gz"_s);
        {
            QFile p(package);
            QVERIFY(p.open(QIODevice::WriteOnly));
            p.write("not really a package");
        }
        bool sawDialog = false;
        // The dialog (modal), answered from a timer; the plan is then written off the GUI thread and the
        // outcome shown in a message box that does not block.
        QTimer::singleShot(200, this, [&] {
            auto *d = qobject_cast<LaunchPlanDialog *>(QApplication::activeModalWidget());
            if (!d)
                return;
            sawDialog = true;
            d->findChild<QLineEdit *>(u"launchDir"_s)->setText(target);
            d->findChild<QLineEdit *>(u"launchRun"_s)->setText(u"python train.py"_s);
            d->findChild<QCheckBox *>(u"launchProbe"_s)->setChecked(true);
            d->findChild<QLineEdit *>(u"launchPackage"_s)->setText(package); // copied into the plan
            d->findChild<QSpinBox *>(u"launchNodes"_s)->setValue(1);
            d->accept();
        });
        auto *action = m_window->findChild<QAction *>(u"launchPlanAction"_s);
        QVERIFY(action);
        QSignalSpy written(m_window->launchPlanner(), &LaunchPlanner::finished);
        action->trigger();
        QVERIFY(sawDialog);
        QVERIFY(written.wait(30000));
        QVERIFY(written.first().first().value<LaunchPlanOutcome>().ok());
        auto *box = m_window->findChild<QMessageBox *>(u"launchPlanOutcome"_s);
        QVERIFY(box && box->isVisible());
        QVERIFY2(box->text().contains(u"Wrote 1 SkyPilot task"_s), qPrintable(box->text()));
        box->accept();
        const QDir plan(target);
        QVERIFY(plan.exists(u"README.txt"_s));
        QVERIFY(plan.exists(u"gf_measure.py"_s));
        QVERIFY(plan.exists(u"gf-package.tar.gz"_s));
        const QStringList yamls = plan.entryList({u"*.yaml"_s});
        QCOMPARE(yamls.size(), 1);
        QFile f(plan.filePath(yamls.first()));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString yaml = QString::fromUtf8(f.readAll());
        QVERIFY(yaml.contains(u"GF_USER_CMD: \"python train.py\""_s));
        QVERIFY(yaml.contains(u"accelerators: "_s));
        // Remembered for next time.
        QCOMPARE(QSettings().value(u"launchPlan/dir"_s).toString(), target);
        QCOMPARE(QSettings().value(u"launchPlan/probe"_s).toBool(), true);
        LaunchPlanDialog again({u"x"_s});
        QCOMPARE(again.directory(), target);
        QCOMPARE(again.options().runCommand, u"python train.py"_s);
        QVERIFY(again.options().probe);
        // A sweep always runs the probe: the box is checked and fixed while the sweep is chosen.
        auto *probe = again.findChild<QCheckBox *>(u"launchProbe"_s);
        auto *sweep = again.findChild<QCheckBox *>(u"launchSweep"_s);
        QVERIFY(probe && sweep);
        sweep->setChecked(false);
        probe->setChecked(false);
        QVERIFY(probe->isEnabled());
        QVERIFY(!again.options().probe);
        sweep->setChecked(true);
        QVERIFY(probe->isChecked());
        QVERIFY(!probe->isEnabled());
        QVERIFY(again.options().probe && again.options().sweep);
    }

    void importedMeasurementChangesTheProjection()
    {
        waitForProjection();
        ProjectionResultsPtr before = m_window->projection()->results();
        QVERIFY(before);
        const QString workload = before->workload.id;
        // A GPU of the recommended point.
        QVERIFY(before->recommended >= 0);
        const ProjectedOffer rec = before->points.at(before->recommended);
        const QString gpu = before->offers.at(rec.offerIndex).gpuId;
        QVERIFY(!hasFlag(rec.flags, ProjectionFlag::Measured));

        QTemporaryDir dir;
        const QString file = dir.filePath(u"m.json"_s);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(
                        QJsonObject{{u"schema"_s, u"gpufrontier-measurement"_s},
                                    {u"schema_version"_s, 1},
                                    {u"workload"_s, workload},
                                    {u"gpu_id"_s, gpu},
                                    // Plausible (figures 10x off the model are refused):
                                    // 90 % of the job's projected speed per GPU.
                                    {u"samples_per_s_per_gpu"_s,
                                     0.9 * rec.samplesPerS / before->offers.at(rec.offerIndex).gpuCount /
                                         std::max(1, int(rec.nodes))},
                                    {u"gpu_count"_s, 1}})
                        .toJson());
        }
        MeasurementsPage *page = m_window->measurementsPage();
        QSignalSpy changed(page, &MeasurementsPage::measurementsChanged);
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        page->importFiles({file});
        QVERIFY(changed.wait(30000));
        QVERIFY(loaded.count() > 0 || loaded.wait(30000));
        QTRY_COMPARE_WITH_TIMEOUT(page->table()->rowCount(), 1, 10000);
        QVERIFY(page->statusText().contains(u"1 new"_s));
        QVERIFY(!page->table()->item(0, 5)->text().isEmpty()); // error column
        waitForProjection();
        ProjectionResultsPtr after = m_window->projection()->results();
        bool measured = false;
        for (const ProjectedOffer &p : after->points)
            if (after->offers.at(p.offerIndex).gpuId == gpu && p.projected) {
                QVERIFY(hasFlag(p.flags, ProjectionFlag::Measured));
                measured = true;
            }
        QVERIFY(measured);
    }
};

QTEST_MAIN(TestLaunchPlanUi)
#include "test_launchplanui.moc"

// AppState: the GUI's state outside any window (catalog, snapshots, calibration, projection, selection), and
// the launch-plan job the GUI writes off its thread.
#include "testsupport.h"
#include "viewmodels/appstate.h"
#include "viewmodels/launchplanjob.h"

#include <QDir>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;

class TestAppState final : public QObject
{
    Q_OBJECT

    static void waitForResults(AppState &state)
    {
        QTRY_VERIFY_WITH_TIMEOUT(state.results() != nullptr && !state.projection()->isBusy(), 60000);
    }

private Q_SLOTS:
    void loadsTheCatalogAndProjectsIt()
    {
        TempDb db;
        AppState state(db.path());
        QSignalSpy started(&state, &AppState::loadStarted);
        QSignalSpy loaded(&state, &AppState::catalogLoaded);
        QSignalSpy calibrated(&state, &AppState::calibrationChanged);
        QSignalSpy ready(&state, &AppState::resultsReady);
        state.setWorkload(*findWorkload(builtinWorkloads(), QStringLiteral("resnet50")), {});
        state.reload();
        QCOMPARE(started.size(), 1);
        QVERIFY(state.isLoading());
        state.reload(); // ignored while loading
        QCOMPARE(started.size(), 1);
        QVERIFY(loaded.wait(60000));
        QVERIFY(!state.isLoading());
        QCOMPARE(calibrated.size(), 1);
        const auto load = loaded.first().first().value<CatalogLoad>();
        QVERIFY(state.offers().size() > 1000); // the bundled snapshot, imported on first open
        QCOMPARE(state.offers().size(), load.offers.size());
        QVERIFY(!state.snapshots().isEmpty());
        QVERIFY(!state.isReadOnly());
        QVERIFY(!state.results()); // not projected yet
        waitForResults(state);
        QVERIFY(!ready.isEmpty());
        QCOMPARE(state.results()->catalogSize(), state.offers().size());
        QCOMPARE(state.results()->workload.id, QStringLiteral("resnet50"));

        // A new catalog drops the results of the old one until its own arrive.
        loaded.clear();
        state.reload();
        QVERIFY(loaded.wait(60000));
        QVERIFY(!state.results());
        waitForResults(state);
        QCOMPARE(state.results()->catalogSize(), state.offers().size());
    }

    void selectionAndCalibrationAreSignalled()
    {
        AppState state(QStringLiteral("/nonexistent-set-by-test/catalog.sqlite"));
        QSignalSpy selected(&state, &AppState::selectionChanged);
        state.setSelectedRows({3, 1});
        QCOMPARE(selected.size(), 1);
        QCOMPARE(state.selectedRows(), (QList<int>{3, 1}));
        QSignalSpy calibrated(&state, &AppState::calibrationChanged);
        Calibration c = defaultCalibration();
        c.source = QStringLiteral("probe run 7");
        state.setCalibration(c);
        QCOMPARE(calibrated.size(), 1);
        QCOMPARE(state.calibration().source, QStringLiteral("probe run 7"));
        QCOMPARE(state.projection()->calibration().source, QStringLiteral("probe run 7"));
    }

    void aLoadThatFailsIsSignalled()
    {
        QTemporaryDir dir;
        const QString notADatabase = dir.filePath(QStringLiteral("catalog.sqlite"));
        writeFile(notADatabase,
                  QByteArray("this is not an SQLite database, but long enough to look like one"));
        AppState state(notADatabase);
        QSignalSpy failed(&state, &AppState::loadFailed);
        state.reload();
        QVERIFY(failed.wait(60000));
        QVERIFY(!state.isLoading());
        QVERIFY(!failed.first().first().toString().isEmpty());
    }

    void launchPlanJobWritesOffTheGuiThreadsData()
    {
        TempDb db;
        AppState state(db.path());
        state.setWorkload(*findWorkload(builtinWorkloads(), QStringLiteral("gpt2-124m")), {});
        QSignalSpy loaded(&state, &AppState::catalogLoaded);
        state.reload();
        QVERIFY(loaded.wait(60000));
        waitForResults(state);
        const ProjectionResultsPtr r = state.results();
        QVERIFY2(
            r->recommended >= 0,
            qPrintable(
                QStringLiteral("%1 points, %2 on the frontier").arg(r->points.size()).arg(r->frontierCount)));
        // None asked for: the recommended point, marked.
        const LaunchPlanRequest request = launchPlanRequest(*r, {}, QStringLiteral(" (rec)"));
        QCOMPARE(request.candidates.size(), 1);
        QVERIFY2(request.lines.first().endsWith(QStringLiteral(" (rec)")), qPrintable(request.lines.first()));

        QTemporaryDir dir;
        LaunchPlanJob job;
        job.workload = r->workload;
        job.candidates = request.candidates;
        job.directory = dir.filePath(QStringLiteral("plan"));
        job.packageDirs = {dir.path()};
        // Measuring needs the package: none found, nothing written, the error says where it looked.
        job.options.probe = true;
        const LaunchPlanOutcome missing = writeLaunchPlanJob(job);
        QCOMPARE(missing.stage, LaunchPlanOutcome::Stage::Package);
        QVERIFY2(missing.error.contains(dir.path()), qPrintable(missing.error));
        QVERIFY(!QFileInfo::exists(job.directory));
        // Without measuring: the plan is written.
        job.options.probe = false;
        const LaunchPlanOutcome written = writeLaunchPlanJob(job);
        QVERIFY2(written.ok(), qPrintable(written.error));
        QCOMPARE(written.plan.tasks.size(), 1);
        QVERIFY(QFileInfo::exists(job.directory + QStringLiteral("/README.txt")));
        QVERIFY(QFileInfo::exists(job.directory + u'/' + written.plan.tasks.first().fileName));
    }
};

QTEST_GUILESS_MAIN(TestAppState)
#include "test_appstate.moc"

// Scenarios in the GUI (ui/scenarioactions, ui/scenariocomparedialog) on the real MainWindow: save, change,
// open (panel, filter and projection restored), bad files named with nothing changed, and the comparison
// of two scenarios (answers, differing settings, both frontiers on one chart).
#include "mainwindow.h"
#include "offerspage.h"
#include "projection/scenario.h"
#include "projection/scenariocomparison.h"
#include "scenarioactions.h"
#include "scenariocomparedialog.h"
#include "testsupport.h"
#include "util/format.h"
#include "viewmodels/projectioncontroller.h"
#include "workloadpanel.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QFile>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMessageBox>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolTip>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

class TestScenarios final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    QTemporaryDir m_dir;
    std::unique_ptr<MainWindow> m_window;

    WorkloadPanel *panel() const { return m_window->workloadPanel(); }
    ScenarioActions *actions() const { return m_window->scenarioActions(); }

    /// The newest results once the projection of the current settings is in.
    ProjectionResultsPtr settledResults()
    {
        QApplication::processEvents();
        m_window->projection()->waitForIdle();
        QApplication::processEvents();
        return m_window->state()->results();
    }

    void shot(QWidget *w, const QString &name)
    {
        const QString dir = qEnvironmentVariable("GF_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        const QString theme = qEnvironmentVariable("GF_SCREENSHOT_THEME", u"light"_s);
        const QString scale = qEnvironmentVariable("QT_SCALE_FACTOR", u"1"_s);
        w->grab().save(dir + u'/' + name + u'-' + theme + u"-x"_s + scale + u".png"_s);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(u"GPU Frontier Tests"_s);
        QApplication::setApplicationName(u"gpufrontier-scenarios-test"_s);
        QSettings().clear();
        m_window = std::make_unique<MainWindow>(m_db.path());
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        QSignalSpy projected(m_window.get(), &MainWindow::projectionUpdated);
        m_window->resize(1400, 850);
        m_window->show();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.wait(30000));
        if (qEnvironmentVariable("GF_SCREENSHOT_THEME") == u"dark")
            m_window->findChild<QAction *>(u"theme_dark"_s)->trigger();
    }

    void shortcutsAreTheirsAlone()
    {
        auto *save = m_window->findChild<QAction *>(u"saveScenario"_s);
        auto *open = m_window->findChild<QAction *>(u"openScenario"_s);
        QVERIFY(save && open);
        QCOMPARE(save->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_S));
        QCOMPARE(open->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_O));
        for (QAction *a : m_window->findChildren<QAction *>())
            if (a != save && a != open && !a->shortcut().isEmpty())
                QVERIFY2(a->shortcut() != save->shortcut() && a->shortcut() != open->shortcut(),
                         qPrintable(a->text()));
        QVERIFY(m_window->findChild<QAction *>(u"compareScenarios"_s));
    }

    // Save, change the panel and the filter, open: every setting is back and the projection ran again.
    void saveChangeOpenRestores()
    {
        panel()->selectPreset(u"vit-b16"_s);
        panel()->setSamples(500000);
        panel()->setDeadlineHours(6);
        panel()->setBudgetUsd(80);
        panel()->setSpotPolicy(SpotPolicy::OnDemandOnly);
        panel()->setWeight(0.2);
        panel()->setInterruptionRate(u"aws"_s, 0.07);
        auto *gpu = m_window->findChild<QLineEdit *>(u"gpuFilter"_s);
        QVERIFY(gpu);
        gpu->setText(u"H100"_s);
        QCOMPARE(settledResults()->filter.gpu, u"H100"_s);

        const QString path = m_dir.filePath(u"vit.json"_s);
        QVERIFY(actions()->saveFile(path).ok());
        QCOMPARE(actions()->recentFiles().value(0), QFileInfo(path).absoluteFilePath());
        QCOMPARE(QSettings().value(u"scenarios/lastFolder"_s).toString(), QFileInfo(path).absolutePath());

        panel()->selectPreset(u"resnet50"_s);
        panel()->setDeadlineHours(24);
        panel()->setBudgetUsd(0);
        panel()->setSpotPolicy(SpotPolicy::SpotOnly);
        panel()->setWeight(0.9);
        panel()->setInterruptionRate(u"aws"_s, -1);
        gpu->clear();
        ProjectionResultsPtr changed = settledResults();
        QCOMPARE(changed->workload.id, u"resnet50"_s);
        QVERIFY(changed->filter.gpu.isEmpty());

        QVERIFY(actions()->openFile(path).ok());
        const Workload w = panel()->workload().value();
        QCOMPARE(w.id, u"vit-b16"_s);
        QCOMPARE(w.samplesPerEpoch, 500000.0);
        const ProjectionOptions o = panel()->options();
        QCOMPARE(o.deadlineHours, std::optional<double>(6));
        QCOMPARE(o.budgetUsd, std::optional<double>(80));
        QCOMPARE(o.spotPolicy, SpotPolicy::OnDemandOnly);
        QCOMPARE(o.weight, 0.2);
        QCOMPARE(o.interruptionRatePerHour.value(u"aws"_s), 0.07);
        QCOMPARE(m_window->offersPage()->filter().gpu, u"H100"_s);
        QCOMPARE(gpu->text(), u"H100"_s);
        // The projection follows: the restored workload, limits and filter.
        QTRY_VERIFY_WITH_TIMEOUT(
            m_window->state()->results() && m_window->state()->results()->workload.id == u"vit-b16"_s, 30000);
        ProjectionResultsPtr restored = settledResults();
        QCOMPARE(restored->workload.id, u"vit-b16"_s);
        QCOMPARE(restored->options.deadlineHours, std::optional<double>(6));
        QCOMPARE(restored->options.spotPolicy, SpotPolicy::OnDemandOnly);
        QCOMPARE(restored->filter.gpu, u"H100"_s);
        gpu->clear();
        settledResults();
    }

    // A preset's batch comes back from the file into its box (with the other settings) and is kept.
    void settingsWithoutABoxAreKept()
    {
        Scenario s;
        s.workload.preset = u"resnet50"_s;
        s.workload.overrides.batchPerGpu = 64;
        s.options.restoreMinutes = 25;
        const QString path = m_dir.filePath(u"batch.json"_s);
        QVERIFY(writeScenarioFile(path, s).ok());
        QVERIFY(actions()->openFile(path).ok());
        QCOMPARE(panel()->workload().value().batchPerGpu, 64);
        QCOMPARE(panel()->options().restoreMinutes, 25.0);
        auto *batch = panel()->findChild<QSpinBox *>(u"batch"_s);
        QVERIFY(batch);
        QCOMPARE(batch->value(), 64);
        // Saved again, it is still there.
        const QString again = m_dir.filePath(u"batch2.json"_s);
        QVERIFY(actions()->saveFile(again).ok());
        QCOMPARE(readScenarioFile(again).value().workload.overrides.batchPerGpu, std::optional<int>(64));
        settledResults();
    }

    // A malformed file: a message box names the file and the field; nothing changes.
    void malformedFileIsNamedAndChangesNothing()
    {
        const QByteArray before = scenarioToBytes(actions()->current());
        const QString path = m_dir.filePath(u"bad.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"gpufrontier-scenario","version":1,"workload":{"preset":"gpt2-124m"},
                   "limits":{"budget_usd":"lots"}})");
        f.close();
        QVERIFY(!actions()->openFile(path).ok());
        QMessageBox *box = actions()->lastProblem();
        QVERIFY(box);
        QTRY_VERIFY(box->isVisible());
        QVERIFY2(box->text().contains(QDir::toNativeSeparators(path)), qPrintable(box->text()));
        QVERIFY2(box->text().contains(u"limits.budget_usd: must be a number"_s), qPrintable(box->text()));
        QCOMPARE(scenarioToBytes(actions()->current()), before);
        box->close();

        // A newer version: refused, named.
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"schema":"gpufrontier-scenario","version":2,"workload":{"preset":"gpt2-124m"}})");
        f.close();
        QVERIFY(!actions()->openFile(path).ok());
        QTRY_VERIFY(actions()->lastProblem() && actions()->lastProblem()->isVisible());
        QVERIFY(actions()->lastProblem()->text().contains(u"newer GPU Frontier"_s));
        QCOMPARE(scenarioToBytes(actions()->current()), before);
        actions()->lastProblem()->close();
    }

    void unwritablePathIsNamed()
    {
        const QString path = m_dir.filePath(u"no/such/folder/s.json"_s);
        QVERIFY(!actions()->saveFile(path).ok());
        QTRY_VERIFY(actions()->lastProblem() && actions()->lastProblem()->isVisible());
        QVERIFY2(actions()->lastProblem()->text().contains(QDir::toNativeSeparators(path)),
                 qPrintable(actions()->lastProblem()->text()));
        QVERIFY(!QFile::exists(path));
        actions()->lastProblem()->close();
    }

    // Two scenarios side by side: both answers, the settings that differ, both frontiers on one chart.
    void compareTwoScenarios()
    {
        Scenario a;
        a.name = u"ResNet-50, 6 h"_s;
        a.workload.preset = u"resnet50"_s;
        a.options.deadlineHours = 6;
        Scenario b;
        b.name = u"ViT-B/16, 24 h"_s;
        b.workload.preset = u"vit-b16"_s;
        b.options.deadlineHours = 24;
        b.options.budgetUsd = 400;
        const QString pa = m_dir.filePath(u"a.json"_s), pb = m_dir.filePath(u"b.json"_s);
        QVERIFY(writeScenarioFile(pa, a).ok());
        QVERIFY(writeScenarioFile(pb, b).ok());

        ScenarioCompareDialog *dialog = actions()->openCompare();
        QVERIFY(dialog && dialog->isVisible());
        dialog->setSources(pa, pb);
        QSignalSpy compared(dialog, &ScenarioCompareDialog::compared);
        dialog->compare();
        QVERIFY(compared.wait(60000));
        QCOMPARE(dialog->outcomes().size(), 2);
        for (int side = 0; side < 2; ++side) {
            const ScenarioOutcome &o = dialog->outcomes().at(side);
            QCOMPARE(o.results.workload.id, side == 0 ? u"resnet50"_s : u"vit-b16"_s);
            QVERIFY(o.answer.hasRecommendation());
            // Each answer is answerOf the scenario's projection.
            QCOMPARE(o.answer.recommended, answerOf(o.results).recommended);
            const QString text = dialog->findChild<QLabel *>(side == 0 ? u"answerA"_s : u"answerB"_s)->text();
            QVERIFY(text.contains(o.label.toHtmlEscaped()));
            for (const ScenarioPick &p : o.picks) {
                QVERIFY2(p.point >= 0, qPrintable(p.role));
                QVERIFY2(text.contains(p.offer.toHtmlEscaped()), qPrintable(p.offer + u" in "_s + text));
                QVERIFY(o.results.points.at(p.point).feasible);
            }
            QVERIFY(text.contains(u"Cheapest within limits"_s));
            QVERIFY(text.contains(u"Fastest within limits"_s));
            QVERIFY(text.contains(u"likely"_s));
        }
        // The recommended point of A finishes within A's 6 h.
        const ScenarioOutcome &oa = dialog->outcomes().at(0);
        QVERIFY(oa.results.points.at(oa.answer.recommended).totalHours <= 6);

        // Two frontier series, each with its frontier's points, on log axes with titles.
        QChart *chart = dialog->chart();
        int frontiers = 0;
        for (QAbstractSeries *s : chart->series()) {
            if (auto *line = qobject_cast<QLineSeries *>(s)) {
                const int side = s->objectName() == u"frontierA" ? 0 : 1;
                QVERIFY2(s->objectName() == u"frontierA" || s->objectName() == u"frontierB",
                         qPrintable(s->objectName() + u" "_s + s->name()));
                QCOMPARE(line->count(), dialog->outcomes().at(side).frontier.size());
                QVERIFY(line->count() > 0);
                ++frontiers;
            }
        }
        QCOMPARE(frontiers, 2);
        // A frontier point's tooltip: the side, the offer, time and cost with their ranges (found by tipAt
        // below).
        for (int side = 0; side < 2; ++side) {
            const ScenarioOutcome &o = dialog->outcomes().at(side);
            for (const qsizetype i : {o.frontier.first(), o.frontier.last()}) {
                const ProjectedOffer &pt = o.results.points.at(i);
                const QString tip = dialog->pointText(side, i);
                QVERIFY2(tip.contains(pointOfferText(o.results, i).toHtmlEscaped()), qPrintable(tip));
                QVERIFY2(tip.contains(o.label.toHtmlEscaped()), qPrintable(tip));
                QVERIFY(tip.contains(formatUsd(pt.costUsd)));
                QVERIFY(tip.contains(u"likely"_s));
                QCOMPARE(tip.contains(u"recommended"_s), i == o.answer.recommended);
            }
        }
        QVERIFY(dialog->pointText(0, -1).isEmpty());
        QVERIFY(dialog->pointText(2, 0).isEmpty());
        // With the mouse: moved onto a point of B's frontier the chart shows its tooltip; off it, none.
        dialog->resize(1200, 900);
        QApplication::processEvents();
        for (QAbstractSeries *s : chart->series())
            if (s->objectName() == u"frontierB"_s) {
                auto *line = qobject_cast<QLineSeries *>(s);
                const ScenarioOutcome &o = dialog->outcomes().at(1);
                const ProjectedOffer &pt = o.results.points.at(o.frontier.first());
                auto *view = dialog->findChild<QChartView *>();
                QVERIFY(view);
                const QPoint at = view->mapFromScene(
                    chart->mapToScene(chart->mapToPosition(QPointF(pt.totalHours, pt.costUsd), line)));
                QCOMPARE(dialog->tipAt(at), dialog->pointText(1, o.frontier.first()));
                QVERIFY(dialog->tipAt(QPoint(2, 2)).isEmpty());
                QVERIFY(QTest::qWaitForWindowExposed(dialog));
                // The tooltip event the view gets when the mouse rests there (as QWidget sends it).
                const auto restAt = [&](const QPoint &p) {
                    QHelpEvent help(QEvent::ToolTip, p, view->viewport()->mapToGlobal(p));
                    QApplication::sendEvent(view->viewport(), &help);
                };
                restAt(at + QPoint(2, 1));
                QTRY_VERIFY(QToolTip::isVisible());
                QVERIFY2(
                    QToolTip::text().contains(pointOfferText(o.results, o.frontier.first()).toHtmlEscaped()),
                    qPrintable(QToolTip::text()));
                restAt(QPoint(2, 2));
                QTRY_VERIFY(!QToolTip::isVisible());
            }
        QCOMPARE(chart->axes().size(), 2);
        for (QAbstractAxis *axis : chart->axes()) {
            QVERIFY(qobject_cast<QLogValueAxis *>(axis));
            QVERIFY(!axis->titleText().isEmpty());
        }
        // The settings that differ.
        auto *table = dialog->findChild<QTableWidget *>(u"scenarioDifferences"_s);
        QStringList fields;
        for (int r = 0; r < table->rowCount(); ++r)
            fields.append(table->item(r, 0)->text());
        QCOMPARE(fields,
                 (QStringList{u"limits.budget_usd"_s, u"limits.deadline_hours"_s, u"workload.preset"_s}));
        dialog->resize(1200, 900);
        QApplication::processEvents();
        shot(dialog, u"scenario-compare"_s);

        // The current settings against a file: open A, compare "current" with A: no difference, same answer.
        QVERIFY(actions()->openFile(pa).ok());
        settledResults();
        dialog->close();
        QApplication::processEvents();
        ScenarioCompareDialog *again = actions()->openCompare();
        again->setSources(QString(), pa);
        QSignalSpy again2(again, &ScenarioCompareDialog::compared);
        again->compare();
        QVERIFY(again2.wait(60000));
        QCOMPARE(again->outcomes().at(0).label, u"Current settings"_s);
        QCOMPARE(again->outcomes().at(0).answer.recommended, again->outcomes().at(1).answer.recommended);
        auto *sameTable = again->findChild<QTableWidget *>(u"scenarioDifferences"_s);
        QCOMPARE(sameTable->rowCount(), 1);
        QVERIFY(sameTable->item(0, 0)->text().contains(u"same settings"_s));

        // A bad file on one side: named, nothing projected.
        const QString bad = m_dir.filePath(u"broken.json"_s);
        QFile f(bad);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"schema\": \"gpufrontier-scenario\", \"version\": 1, \"workload\": {\"preset\": 5}}");
        f.close();
        again->setSources(pa, bad);
        QSignalSpy failed(again, &ScenarioCompareDialog::failed);
        again->compare();
        QCOMPARE(failed.size(), 1);
        const QString message = failed.at(0).at(0).toString();
        QVERIFY2(message.contains(bad) && message.contains(u"workload.preset: must be a text"_s),
                 qPrintable(message));
        QVERIFY(again->findChild<QLabel *>(u"compareStatus"_s)->text().contains(u"workload.preset"_s));
        again->close();
    }
};

QTEST_MAIN(TestScenarios)
#include "test_scenarios.moc"

// The Answer page on the real main window with the bundled catalog: first on start, the recommended,
// cheapest and fastest offers within the limits with their figures, ranges and evidence, why the pick beat
// its rival, the next steps (frontier, compare, launch plan, export), updates with the workload panel, and
// when nothing fits, which limit to move — with a button that moves it.
// GF_SCREENSHOT_DIR=DIR [GF_SCREENSHOT_THEME=dark|light] saves the window at each step.
#include "answerpage.h"
#include "comparepage.h"
#include "frontierpage.h"
#include "mainwindow.h"
#include "mainwindowwait.h"
#include "offerspage.h"
#include "testsupport.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "workloadpanel.h"

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialog>
#include <QLabel>
#include <QPushButton>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>

using namespace gf;
using namespace gf::test;

class TestAnswerPage final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    std::unique_ptr<MainWindow> m_window;

    AnswerPage *page() const { return m_window->answerPage(); }

    void waitForProjection() { QVERIFY(gf::test::waitForProjection(*m_window)); }

    void shot(const QString &name)
    {
        const QString dir = qEnvironmentVariable("GF_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QApplication::processEvents();
        const QString theme = qEnvironmentVariable("GF_SCREENSHOT_THEME", QStringLiteral("light"));
        m_window->grab().save(dir + u'/' + name + u'-' + theme + QStringLiteral(".png"));
    }

    QLabel *label(const char *name) const
    {
        auto *l = page()->findChild<QLabel *>(QString::fromLatin1(name));
        return l;
    }

    QPushButton *button(const QString &name) const { return page()->findChild<QPushButton *>(name); }

    void setPreset(const QString &id)
    {
        auto *preset = m_window->workloadPanel()->findChild<QComboBox *>(QStringLiteral("workloadPreset"));
        QVERIFY(preset);
        const int index = preset->findData(id);
        QVERIFY2(index >= 0, qPrintable(id));
        preset->setCurrentIndex(index);
        waitForProjection();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-answer-test"));
        m_window = std::make_unique<MainWindow>(m_db.path());
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        QSignalSpy projected(m_window.get(), &MainWindow::projectionUpdated);
        m_window->resize(1400, 850);
        m_window->show();
        if (qEnvironmentVariable("GF_SCREENSHOT_THEME") == u"dark")
            m_window->findChild<QAction *>(QStringLiteral("theme_dark"))->trigger();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.count() > 0 || projected.wait(30000));
        waitForProjection();
    }

    void opensOnTheAnswer()
    {
        QCOMPARE(m_window->tabs()->currentWidget(), page());
        QCOMPARE(m_window->tabs()->indexOf(page()), int(MainWindow::AnswerTab));
        ProjectionResultsPtr r = m_window->projection()->results();
        QVERIFY(r);
        QCOMPARE(page()->results(), r);
        const Answer &a = page()->answer();
        QCOMPARE(a.recommended, r->recommended);
        QVERIFY(a.recommended >= 0 && a.cheapest >= 0 && a.fastest >= 0);

        const ProjectedOffer &rec = r->points.at(a.recommended);
        const QString headline = label("answerHeadline")->text();
        QVERIFY2(headline.contains(r->workload.name), qPrintable(headline));
        QVERIFY2(headline.contains(pointTitleText(r->offers.at(rec.offerIndex), rec)), qPrintable(headline));
        QVERIFY2(headline.contains(formatUsd(rec.costUsd) + QStringLiteral(" USD")), qPrintable(headline));
        const QString limits = label("answerLimits")->text();
        QVERIFY2(limits.contains(u"no deadline") && limits.contains(u"typical PyTorch stack"),
                 qPrintable(limits));

        // The three cards: each with its figures, likely range, price per GPU-hour and evidence.
        for (const auto &[name, point] :
             {std::pair{"answerRecommended", a.recommended}, std::pair{"answerCheapest", a.cheapest},
              std::pair{"answerFastest", a.fastest}}) {
            auto *card = page()->findChild<QWidget *>(QString::fromLatin1(name));
            QVERIFY2(card && card->isVisible(), name);
            const ProjectedOffer &p = r->points.at(point);
            const QString figures = card->findChild<QLabel *>(QString::fromLatin1(name) + u"Figures")->text();
            QCOMPARE(figures,
                     QStringLiteral("%1 · %2 USD").arg(formatHours(p.totalHours), formatUsd(p.costUsd)));
            const QString range = card->findChild<QLabel *>(QString::fromLatin1(name) + u"Range")->text();
            QVERIFY2(range.contains(formatHours(p.totalHoursLow)) &&
                         range.contains(formatHours(p.totalHoursHigh)),
                     qPrintable(range));
            QVERIFY(
                card->findChild<QLabel *>(QString::fromLatin1(name) + u"Gpu")->text().contains(u"USD/GPU-h"));
            const QLabel *evidence = card->findChild<QLabel *>(QString::fromLatin1(name) + u"Evidence");
            QVERIFY2(evidence->text().contains(u"evidence") && evidence->text().contains(u"stack"),
                     qPrintable(evidence->text()));
            QVERIFY(!evidence->toolTip().isEmpty());
        }
        // The cheapest within limits is the cheapest feasible point, the fastest the fastest.
        for (const ProjectedOffer &p : r->points)
            if (p.feasible) {
                QVERIFY(p.costUsd >= r->points.at(a.cheapest).costUsd);
                QVERIFY(p.totalHours >= r->points.at(a.fastest).totalHours);
            }
        // Why: names the rival.
        const QString why = label("answerWhy")->text();
        QVERIFY2(why.contains(u"Why this one"), qPrintable(why));
        if (a.rival >= 0) {
            const ProjectedOffer &q = r->points.at(a.rival);
            QVERIFY2(why.contains(pointTitleText(r->offers.at(q.offerIndex), q).toHtmlEscaped()),
                     qPrintable(why));
        }
        QVERIFY(!page()->findChild<QWidget *>(QStringLiteral("answerNothingFits"))->isVisible());
        shot(QStringLiteral("answer-first-start"));
    }

    void followsTheWorkloadPanel()
    {
        setPreset(QStringLiteral("vit-b16"));
        ProjectionResultsPtr r = m_window->projection()->results();
        QCOMPARE(page()->results(), r);
        QVERIFY2(label("answerHeadline")->text().contains(r->workload.name), qPrintable(r->workload.name));
        QCOMPARE(page()->answer().recommended, r->recommended);
        setPreset(QStringLiteral("resnet50"));
    }

    void aTightDeadlineStillAnswers()
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        const Answer &a = page()->answer();
        // A deadline between the fastest point and the unconstrained recommendation.
        const double fastest = r->points.at(a.fastest).totalHours;
        const double recommended = r->points.at(a.recommended).totalHours;
        QVERIFY(fastest < recommended);
        const double deadline = std::ceil((fastest + (recommended - fastest) / 3) * 10) / 10;
        m_window->workloadPanel()->setDeadlineHours(deadline);
        waitForProjection();
        r = m_window->projection()->results();
        QVERIFY(r->options.deadlineHours);
        const Answer &tight = page()->answer();
        QVERIFY(tight.recommended >= 0);
        QVERIFY(r->points.at(tight.recommended).totalHours <= *r->options.deadlineHours);
        QVERIFY(r->points.at(tight.cheapest).totalHours <= *r->options.deadlineHours);
        QVERIFY2(
            label("answerLimits")->text().contains(QStringLiteral("deadline %1").arg(formatHours(deadline))),
            qPrintable(label("answerLimits")->text()));
        shot(QStringLiteral("answer-tight-deadline"));
        m_window->workloadPanel()->setDeadlineHours(0);
        waitForProjection();
    }

    void nothingFitsSaysWhichLimitToMove()
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        const double fastest = r->points.at(page()->answer().fastest).totalHours;
        const double cheapest = r->points.at(page()->answer().cheapest).costUsd;
        m_window->workloadPanel()->setDeadlineHours(std::max(0.1, std::floor(fastest * 0.5 * 10) / 10));
        m_window->workloadPanel()->setBudgetUsd(std::max(1.0, std::floor(cheapest * 0.5)));
        waitForProjection();
        r = m_window->projection()->results();
        QCOMPARE(r->recommended, qsizetype(-1));
        auto *box = page()->findChild<QWidget *>(QStringLiteral("answerNothingFits"));
        QVERIFY(box && box->isVisible());
        QVERIFY(!page()->findChild<QWidget *>(QStringLiteral("answerRecommended"))->isVisible());
        QVERIFY2(label("answerHeadline")->text().contains(u"no offer fits"),
                 qPrintable(label("answerHeadline")->text()));
        const QString facts = page()->findChild<QLabel *>(QStringLiteral("answerNothingFacts"))->text();
        QVERIFY2(facts.contains(u"deadline") && facts.contains(u"budget"), qPrintable(facts));
        const QString text = page()->plainText();
        QVERIFY2(text.contains(u"Raise the deadline from") && text.contains(u"budget"), qPrintable(text));
        QVERIFY(!button(QStringLiteral("answerLaunchPlan"))->isEnabled());
        shot(QStringLiteral("answer-nothing-fits"));

        // The button moves the limits in the workload panel; the new projection has an answer.
        QPushButton *apply = button(QStringLiteral("answerApplyMove0"));
        QVERIFY(apply && apply->isVisible());
        QTest::mouseClick(apply, Qt::LeftButton);
        waitForProjection();
        r = m_window->projection()->results();
        QVERIFY2(r->recommended >= 0, qPrintable(page()->plainText()));
        QVERIFY(page()->findChild<QWidget *>(QStringLiteral("answerRecommended"))->isVisible());
        QVERIFY(!box->isVisible());
        QVERIFY(button(QStringLiteral("answerLaunchPlan"))->isEnabled());
        m_window->workloadPanel()->setDeadlineHours(0);
        m_window->workloadPanel()->setBudgetUsd(0);
        waitForProjection();
    }

    void nextStepsOpenTheirPages()
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        const Answer a = page()->answer();
        const QList<int> rows = page()->answerRows();
        QVERIFY(!rows.isEmpty());

        // Compare: the three offers on the Compare page.
        QTest::mouseClick(button(QStringLiteral("answerCompare")), Qt::LeftButton);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->comparePage());
        QList<int> selected = m_window->offersPage()->selectedRows();
        std::sort(selected.begin(), selected.end());
        QList<int> expected = rows;
        std::sort(expected.begin(), expected.end());
        QCOMPARE(selected, expected);

        // Show on frontier: the Frontier page with the recommended offer selected.
        m_window->tabs()->setCurrentWidget(page());
        QTest::mouseClick(button(QStringLiteral("answerRecommendedFrontier")), Qt::LeftButton);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->frontierPage());
        QCOMPARE(m_window->offersPage()->selectedRows(), QList<int>{int(r->catalogRowOf(a.recommended))});

        // Export: the export dialog opens.
        m_window->tabs()->setCurrentWidget(page());
        QTest::mouseClick(button(QStringLiteral("answerExport")), Qt::LeftButton);
        QDialog *exportDialog = nullptr;
        QTRY_VERIFY((exportDialog = m_window->findChild<QDialog *>(QStringLiteral("exportDialog"))) &&
                    exportDialog->isVisible());
        exportDialog->close();
    }

    void pricesFollowTheDisplayCurrency()
    {
        QVERIFY(DisplayCurrency::instance().setCode(QStringLiteral("EUR")));
        auto restore =
            qScopeGuard([] { QVERIFY(DisplayCurrency::instance().setCode(QStringLiteral("USD"))); });
        ProjectionResultsPtr r = m_window->projection()->results();
        const Currency &eur = DisplayCurrency::instance().current();
        const ProjectedOffer &rec = r->points.at(page()->answer().recommended);
        QVERIFY2(label("answerHeadline")->text().endsWith(formatMoneyWithUnit(rec.costUsd, eur)),
                 qPrintable(label("answerHeadline")->text()));
        const QString gpu = page()->findChild<QLabel *>(QStringLiteral("answerRecommendedGpu"))->text();
        QVERIFY2(gpu.contains(u"EUR/h") && gpu.contains(u"EUR/GPU-h"), qPrintable(gpu));
        const QString figures =
            page()->findChild<QLabel *>(QStringLiteral("answerRecommendedFigures"))->text();
        QVERIFY2(figures.endsWith(formatMoneyWithUnit(rec.costUsd, eur)), qPrintable(figures));
        // The limits line keeps the budget in USD, as the panel takes it.
        QVERIFY(!label("answerWhy")->text().contains(u" USD"));
    }

    void tabShortcutsFollowTheNewFirstPage()
    {
        QTest::keyClick(m_window.get(), Qt::Key_2, Qt::ControlModifier);
        QCOMPARE(m_window->tabs()->currentWidget(), m_window->offersPage());
        QTest::keyClick(m_window.get(), Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(m_window->tabs()->currentWidget(), page());
    }
};

QTEST_MAIN(TestAnswerPage)
#include "test_answerpage.moc"

#include "comparepage.h"
#include "domain/provider.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "mainwindow.h"
#include "mainwindowwait.h"
#include "offerspage.h"
#include "testsupport.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/pointgroupmodel.h"
#include "viewmodels/pointtablemodel.h"
#include "workloadpanel.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGraphicsTextItem>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineEdit>
#include <QLogValueAxis>
#include <QRandomGenerator>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableWidget>
#include <QTest>
#include <QTreeView>
#include <QValueAxis>

using namespace gf;
using namespace gf::test;

class TestFrontier final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    std::unique_ptr<MainWindow> m_window;

    void waitForProjection() { QVERIFY(gf::test::waitForProjection(*m_window)); }

    void showFrontierTab()
    {
        m_window->tabs()->setCurrentWidget(m_window->frontierPage());
        QTRY_VERIFY(m_window->frontierPage()->chart()->isVisible());
        QApplication::processEvents();
    }

    /// For a look: GF_SCREENSHOT_DIR=DIR [GF_SCREENSHOT_THEME=dark|light] ui_frontier saves the window
    /// (with the hover tip shown, if any) at the steps of the mouse test.
    void shot(const QString &name)
    {
        const QString dir = qEnvironmentVariable("GF_SCREENSHOT_DIR");
        if (dir.isEmpty())
            return;
        QPixmap pixmap = m_window->grab(); // the chart's hover tip is a label inside the window
        const QString theme = qEnvironmentVariable("GF_SCREENSHOT_THEME", QStringLiteral("light"));
        pixmap.save(dir + u'/' + name + u'-' + theme + QStringLiteral(".png"));
    }

    static QChartView *chartView(FrontierChart *chart)
    {
        return chart->findChild<QChartView *>(QStringLiteral("frontierChartView"));
    }

    /// Where Qt Charts draws a value, on the chart view's viewport (where the mouse events go).
    static QPoint pixelOf(FrontierChart *chart, QPointF value)
    {
        QAbstractSeries *series = nullptr;
        for (QAbstractSeries *s : chart->chart()->series())
            if (qobject_cast<QScatterSeries *>(s)) {
                series = s;
                break;
            }
        const QPointF inChart = chart->chart()->mapToPosition(value, series);
        return chartView(chart)->mapFromScene(chart->chart()->mapToScene(inChart));
    }

    /// A frontier point with no other projected point within 3 px of it, so that a mouse on its pixel
    /// can only mean it.
    qsizetype lonelyFrontierPoint(FrontierChart *chart, const QRect &within)
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        QList<QPoint> pixels(r->points.size());
        for (qsizetype i = 0; i < r->points.size(); ++i)
            pixels[i] = r->points.at(i).projected && r->points.at(i).costUsd > 0
                            ? pixelOf(chart, QPointF(r->points.at(i).totalHours, r->points.at(i).costUsd))
                            : QPoint(-1000, -1000);
        for (qsizetype i = 0; i < r->points.size(); ++i) {
            if (!r->points.at(i).onFrontier || !within.contains(pixels.at(i)))
                continue;
            bool alone = true;
            for (qsizetype j = 0; j < r->points.size() && alone; ++j)
                alone = j == i || (pixels.at(j) - pixels.at(i)).manhattanLength() > 3;
            if (alone)
                return i;
        }
        return -1;
    }

    /// Hover a point with the mouse: its tooltip shows; click it: the offer is selected everywhere.
    void hoverAndClickWithTheMouse(FrontierChart *chart, qsizetype point, bool zoomed)
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        QWidget *viewport = chartView(chart)->viewport();
        const ProjectedOffer &p = r->points.at(point);
        const QPoint at = pixelOf(chart, QPointF(p.totalHours, p.costUsd));
        QVERIFY(viewport->rect().contains(at));
        QTest::mouseMove(viewport, at + QPoint(40, 40)); // come from elsewhere
        QTest::mouseMove(viewport, at);
        // Under a real X server the pointer's motion events arrive from the server, after the tip of the
        // position before may still be up: wait for the tip of this point.
        const Offer &o = r->offers.at(p.offerIndex);
        QLabel *tip = chart->hoverTip();
        QTRY_VERIFY2(tip->isVisible() && tip->text().contains(o.instanceType), qPrintable(tip->text()));
        // Inside the view, and off the cursor.
        QVERIFY(viewport->rect().contains(tip->geometry()));
        QVERIFY(!tip->geometry().contains(at));
        QCOMPARE(chart->pointAt(at), int(point));
        shot(zoomed ? QStringLiteral("hover-zoomed") : QStringLiteral("hover"));

        m_window->offersPage()->view()->clearSelection();
        QCOMPARE(chart->selectedCount(), 0);
        auto *x = chart->chart()->axes(Qt::Horizontal).value(0);
        const QVariant before = x->property("min");
        QTest::mouseClick(viewport, Qt::LeftButton, {}, at);
        const int catalogRow = static_cast<int>(r->catalogIndex.at(p.offerIndex));
        QCOMPARE(m_window->offersPage()->selectedRows(), QList<int>{catalogRow});
        QCOMPARE(chart->selectedCount(), 1);
        QCOMPARE(x->property("min"), before); // a click does not zoom
        QTreeView *table = m_window->frontierPage()->frontierView();
        QVERIFY(table->currentIndex().isValid());
        QCOMPARE(table->currentIndex().data(PointTableModel::PointIndexRole).value<qsizetype>(), point);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-frontier-test"));
        m_window = std::make_unique<MainWindow>(m_db.path());
        QSignalSpy loaded(m_window.get(), &MainWindow::catalogLoaded);
        QSignalSpy projected(m_window.get(), &MainWindow::projectionUpdated);
        m_window->resize(1400, 850);
        m_window->show();
        QVERIFY(loaded.wait(30000));
        QVERIFY(projected.wait(30000));
    }

    /// Above the threshold the chart's points are prepared on a worker: the page shows what it showed until
    /// they are ready, and of two projections in a row only the newer is shown.
    void largeProjectionsArePreparedOffTheGuiThread()
    {
        FrontierPage *page = m_window->frontierPage();
        FrontierChart *chart = page->chart();
        const ProjectionResultsPtr r = m_window->projection()->results();
        QVERIFY(r);
        QCOMPARE(page->results(), r);
        const int points = chart->pointCount();
        const int frontier = chart->frontierPointCount();
        const QString summary = page->summary();
        QVERIFY(summary.contains(QStringLiteral("recommended:")));
        auto other = std::make_shared<ProjectionResults>(*r);
        other->recommended = -1; // its summary says "nothing recommended"
        page->setPrepareOnWorkerAbove(0);
        page->setResults(other);
        QVERIFY(page->isPreparing());
        QCOMPARE(page->results(), r); // still the shown one
        page->setResults(r);          // newer: the preparation of `other` is dropped
        QTRY_VERIFY_WITH_TIMEOUT(!page->isPreparing(), 30000);
        QCOMPARE(page->results(), r);
        QCOMPARE(chart->pointCount(), points);
        QCOMPARE(chart->frontierPointCount(), frontier);
        QCOMPARE(page->summary(), summary);
        // One alone is shown when ready.
        page->setResults(other);
        QTRY_VERIFY_WITH_TIMEOUT(!page->isPreparing(), 30000);
        QCOMPARE(page->results(), ProjectionResultsPtr(other));
        QVERIFY(page->summary().contains(QStringLiteral("nothing recommended")));
        page->setPrepareOnWorkerAbove(FrontierPage::kPrepareOnWorkerAbove);
        page->setResults(r);
        QCOMPARE(page->results(), r); // at once again
    }

    void chartShowsEveryProjectedPointAndTheFrontier()
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        QVERIFY(r);
        FrontierChart *chart = m_window->frontierPage()->chart();
        int drawable = 0;
        int frontier = 0;
        for (const ProjectedOffer &p : r->points) {
            drawable += (p.projected && p.costUsd > 0) ? 1 : 0;
            frontier += p.onFrontier ? 1 : 0;
        }
        QVERIFY(drawable > 1000);
        QCOMPARE(chart->pointCount(), drawable);
        QVERIFY(frontier > 0);
        QCOMPARE(chart->frontierPointCount(), frontier);
        QCOMPARE(m_window->frontierPage()->frontierModel()->rowCount(), frontier);
        // The recommended point exists without constraints and is on the frontier.
        QVERIFY(r->recommended >= 0);
        QVERIFY(r->points.at(r->recommended).onFrontier);
        QVERIFY(m_window->frontierPage()->summary().contains(QStringLiteral("recommended")));
        // Offers table shows projection columns.
        OfferTableModel *model = m_window->offersPage()->model();
        int withTime = 0;
        for (int row = 0; row < model->rowCount(); ++row)
            withTime +=
                model->index(row, OfferTableModel::Hours).data(OfferTableModel::SortRole).isValid() ? 1 : 0;
        QVERIFY(withTime > 1000);
    }

    // Grouped (the default), a group row shows its best member: the cheapest eligible projected run.
    void groupRowsShowTheBestMember()
    {
        OffersPage *page = m_window->offersPage();
        QVERIFY(page->isGrouped());
        OfferGroupModel *groups = page->groupModel();
        QAbstractItemModelTester tester(groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        OfferTableModel *model = page->model();
        int checked = 0;
        for (int g = 0; g < groups->rowCount() && checked < 300; ++g) {
            const QModelIndex row = groups->index(g, 0);
            if (!groups->isGroupRow(row))
                continue;
            std::optional<double> best;
            for (int c = 0; c < groups->rowCount(row); ++c) {
                const int member = groups->sourceRow(groups->index(c, 0, row));
                const ProjectedOffer *p = model->pointFor(member);
                if (p && p->eligible() && p->costUsd > 0 && (!best || p->costUsd < *best))
                    best = p->costUsd;
            }
            if (!best)
                continue;
            const ProjectedOffer *shown = model->pointFor(groups->sourceRow(row));
            QVERIFY(shown);
            QCOMPARE(shown->costUsd, *best);
            QCOMPARE(groups->index(g, OfferTableModel::Cost).data(OfferTableModel::SortRole).toDouble(),
                     *best);
            QCOMPARE(groups->index(g, OfferTableModel::Hours).data(),
                     model->index(groups->sourceRow(row), OfferTableModel::Hours).data());
            ++checked;
        }
        QVERIFY(checked > 20);
    }

    void frontierTableGroupsToo()
    {
        FrontierPage *page = m_window->frontierPage();
        PointGroupModel *groups = page->frontierGroups();
        QAbstractItemModelTester tester(groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        const int points = page->frontierModel()->rowCount();
        QVERIFY(groups->rowCount() > 0 && groups->rowCount() <= points);
        int members = 0;
        for (int g = 0; g < groups->rowCount(); ++g)
            members += std::max(1, groups->rowCount(groups->index(g, 0)));
        QCOMPARE(members, points);
        // The Offers page's toggle switches both tables.
        m_window->offersPage()->setGrouped(false);
        QCOMPARE(groups->rowCount(), points);
        QVERIFY(!groups->isGrouped());
        m_window->offersPage()->setGrouped(true);
        QVERIFY(groups->isGrouped());
        // The chart keeps every point either way.
        QVERIFY(page->chart()->pointCount() > points);
    }

    void changingTheWorkloadRecomputes()
    {
        auto *preset = m_window->findChild<QComboBox *>(QStringLiteral("workloadPreset"));
        QVERIFY(preset);
        const int bert = preset->findData(QStringLiteral("bert-large-squad"));
        QVERIFY(bert >= 0);
        preset->setCurrentIndex(bert);
        waitForProjection();
        ProjectionResultsPtr r = m_window->projection()->results();
        QCOMPARE(r->workload.id, QStringLiteral("bert-large-squad"));
        QCOMPARE(m_window->frontierPage()->chart()->frontierPointCount(), int(r->frontierCount));

        // Doubling the epochs doubles the training hours of every projected point.
        const ProjectedOffer before = r->points.at(r->recommended);
        auto *epochs = m_window->findChild<QDoubleSpinBox *>(QStringLiteral("epochs"));
        epochs->setValue(epochs->value() * 2);
        waitForProjection();
        ProjectionResultsPtr r2 = m_window->projection()->results();
        bool found = false;
        for (const ProjectedOffer &p : r2->points) {
            if (p.offerIndex == before.offerIndex && p.mode == before.mode && p.nodes == before.nodes) {
                QVERIFY(qAbs(p.trainHours - 2 * before.trainHours) < 1e-6 * before.trainHours + 1e-9);
                found = true;
            }
        }
        QVERIFY(found);
    }

    void deadlineAndBudgetConstrainTheRecommendation()
    {
        ProjectionResultsPtr r = m_window->projection()->results();
        // A deadline between the fastest and the slowest frontier point.
        double fastest = 1e300, slowest = 0;
        for (const ProjectedOffer &p : r->points)
            if (p.onFrontier) {
                fastest = std::min(fastest, p.totalHours);
                slowest = std::max(slowest, p.totalHours);
            }
        const double deadline = (fastest + slowest) / 2;
        m_window->workloadPanel()->setDeadlineHours(deadline);
        waitForProjection();
        r = m_window->projection()->results();
        QVERIFY(r->options.deadlineHours.has_value());
        QVERIFY(r->recommended >= 0);
        QVERIFY(r->points.at(r->recommended).totalHours <= r->options.deadlineHours.value() + 1e-9);
        for (const ProjectedOffer &p : r->points)
            if (p.feasible)
                QVERIFY(p.totalHours <= *r->options.deadlineHours + 1e-9);
        // An impossible budget: nothing is feasible, nothing is recommended.
        m_window->workloadPanel()->setBudgetUsd(0.001 + 0.0);
        m_window->workloadPanel()->setBudgetUsd(1); // 1 USD
        waitForProjection();
        r = m_window->projection()->results();
        bool anyFeasible = false;
        for (const ProjectedOffer &p : r->points)
            anyFeasible = anyFeasible || p.feasible;
        if (!anyFeasible)
            QCOMPARE(r->recommended, qsizetype(-1));
        m_window->workloadPanel()->setBudgetUsd(0);
        m_window->workloadPanel()->setDeadlineHours(0);
        waitForProjection();
    }

    // Regression: hovering or clicking a point did nothing with a real mouse (the rubber band took every
    // press; the series' hover needs markers of its own). Real mouse events on the view, before and after
    // a drag-zoom.
    void clickingAPointSelectsTheOffer()
    {
        if (qEnvironmentVariable("GF_SCREENSHOT_THEME") == u"dark")
            m_window->findChild<QAction *>(QStringLiteral("theme_dark"))->trigger();
        showFrontierTab();
        FrontierChart *chart = m_window->frontierPage()->chart();
        QWidget *viewport = chartView(chart)->viewport();
        const QRect plot = chart->chart()->plotArea().toRect().adjusted(20, 20, -20, -20);
        const qsizetype point = lonelyFrontierPoint(chart, plot);
        QVERIFY(point >= 0);
        hoverAndClickWithTheMouse(chart, point, false);

        // Drag a rectangle around the point: the chart zooms, and the point still answers the mouse.
        ProjectionResultsPtr r = m_window->projection()->results();
        const ProjectedOffer &p = r->points.at(point);
        auto *x = qobject_cast<QLogValueAxis *>(chart->chart()->axes(Qt::Horizontal).value(0));
        QVERIFY(x);
        const double spanBefore = x->max() / x->min();
        const QPoint at = pixelOf(chart, QPointF(p.totalHours, p.costUsd));
        const QPoint from = at - QPoint(60, 60), to = at + QPoint(60, 60);
        QTest::mousePress(viewport, Qt::LeftButton, {}, from);
        QTest::mouseMove(viewport, (from + to) / 2);
        QTest::mouseMove(viewport, to);
        QTest::mouseRelease(viewport, Qt::LeftButton, {}, to);
        QTRY_VERIFY(x->max() / x->min() < spanBefore / 2);
        QVERIFY(x->min() < p.totalHours && p.totalHours < x->max());
        QApplication::processEvents();
        const qsizetype zoomedPoint =
            lonelyFrontierPoint(chart, viewport->rect().intersected(chart->chart()->plotArea().toRect()));
        QVERIFY(zoomedPoint >= 0);
        hoverAndClickWithTheMouse(chart, zoomedPoint, true);
        shot(QStringLiteral("clicked-zoomed"));
        chart->resetZoom();

        // Selecting rows in the offers table highlights their points.
        QTreeView *offers = m_window->offersPage()->view();
        offers->clearSelection();
        QCOMPARE(m_window->frontierPage()->chart()->selectedCount(), 0);
        offers->selectionModel()->select(offers->model()->index(0, 0),
                                         QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(m_window->frontierPage()->chart()->selectedCount(), 1);
    }

    // The hover tip goes beside the cursor, inside the view, on the side with room (a QToolTip window from
    // the chart view never reached the screen under a real X server, or lay under the pointer and hid
    // itself).
    void hoverTipStaysInsideTheViewAndOffTheCursor()
    {
        const QRect area(0, 0, 800, 500);
        for (const QSize tip : {QSize(300, 150), QSize(440, 240)}) {
            for (const QPoint cursor : {QPoint(10, 10), QPoint(790, 10), QPoint(10, 490), QPoint(790, 490),
                                        QPoint(400, 250), QPoint(400, 10), QPoint(400, 490)}) {
                const QRect placed(FrontierChart::hoverTipPosition(cursor, tip, area), tip);
                QVERIFY(area.contains(placed));
                QVERIFY2(!placed.adjusted(-8, -8, 8, 8).contains(cursor),
                         qPrintable(QStringLiteral("tip %1x%2 at %3,%4 covers %5,%6")
                                        .arg(tip.width())
                                        .arg(tip.height())
                                        .arg(placed.x())
                                        .arg(placed.y())
                                        .arg(cursor.x())
                                        .arg(cursor.y())));
            }
        }
        // A tip bigger than the view stays inside it.
        const QRect huge(FrontierChart::hoverTipPosition({400, 250}, {900, 600}, area), QSize(900, 600));
        QCOMPARE(huge.topLeft(), area.topLeft());
    }

    void logAxesToggle()
    {
        FrontierChart *chart = m_window->frontierPage()->chart();
        auto *logX = m_window->findChild<QCheckBox *>(QStringLiteral("logX"));
        auto *logY = m_window->findChild<QCheckBox *>(QStringLiteral("logY"));
        QVERIFY(logX && logY);
        QVERIFY(chart->logX());
        QVERIFY(qobject_cast<QLogValueAxis *>(chart->chart()->axes(Qt::Horizontal).value(0)));
        logX->setChecked(false);
        QVERIFY(!chart->logX());
        QVERIFY(qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Horizontal).value(0)));
        logY->setChecked(false);
        QVERIFY(qobject_cast<QValueAxis *>(chart->chart()->axes(Qt::Vertical).value(0)));
        // Points survive the axis change.
        QVERIFY(chart->pointCount() > 1000);
        logX->setChecked(true);
        logY->setChecked(true);
        QVERIFY(qobject_cast<QLogValueAxis *>(chart->chart()->axes(Qt::Vertical).value(0)));
    }

    /// Large point sets: points that fall in the same few pixels of one series share a marker,
    /// the frontier and the selection stay exact, and a zoom draws the detail of the zoomed view.
    void thinningKeepsFrontierAndFollowsZoom()
    {
        FrontierChart chart;
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QList<ChartPoint> points;
        // As a marketplace looks: many offers of a few configurations at nearly the same time and cost.
        QRandomGenerator rng(3);
        QList<QPointF> configs;
        for (int c = 0; c < 300; ++c)
            configs.append(QPointF(std::pow(10.0, rng.generateDouble() * 3 - 1), // 0.1 .. 100 h
                                   std::pow(10.0, rng.generateDouble() * 3)));   // 1 .. 1000 USD
        for (int i = 0; i < 30000; ++i) {
            const QPointF &c = configs.at(rng.bounded(int(configs.size())));
            ChartPoint p;
            p.hours = c.x() * (1 + 0.01 * (rng.generateDouble() - 0.5));
            p.costUsd = c.y() * (1 + 0.02 * (rng.generateDouble() - 0.5));
            p.provider = rng.bounded(5);
            p.spot = rng.bounded(2) == 1;
            p.id = i;
            points.append(p);
        }
        for (int k = 0; k < 25; ++k) { // a frontier: faster is dearer
            ChartPoint p;
            p.hours = 0.05 * std::pow(1.3, k);
            p.costUsd = 0.5 / std::pow(1.2, k);
            p.onFrontier = true;
            p.id = 100000 + k;
            points.append(p);
        }
        chart.setPoints(points, std::nullopt, std::nullopt, 100000);
        QCoreApplication::processEvents();
        QCOMPARE(chart.pointCount(), points.size());
        const int drawn = chart.drawnPointCount();
        QVERIFY2(drawn < points.size() / 4, qPrintable(QString::number(drawn)));
        QVERIFY(drawn >= 300);
        QCOMPARE(chart.frontierPointCount(), 25);
        // Every efficient (frontier) point is drawn as a marker of its own.
        int efficient = 0;
        for (QAbstractSeries *s : chart.chart()->series())
            if (auto *sc = qobject_cast<QScatterSeries *>(s); sc && sc->markerSize() > 8)
                efficient += sc->count();
        QCOMPARE(efficient, 25 + 1); // + the recommended marker
        // A selected point is drawn where it is, thinned or not.
        chart.setSelectedIds({12345});
        QCOMPARE(chart.selectedCount(), 1);

        // Zoom into one configuration: its offers spread over the view, more of them get a marker of their
        // own, and only points in the view are drawn.
        auto *x = qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
        auto *y = qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(x && y);
        const QPointF c = configs.first();
        const double x0 = c.x() * 0.995, x1 = c.x() * 1.005, y0 = c.y() * 0.99, y1 = c.y() * 1.01;
        auto inside = [&](double hx, double cy) { return hx >= x0 && hx <= x1 && cy >= y0 && cy <= y1; };
        auto drawnInside = [&] {
            int n = 0;
            for (QAbstractSeries *s : chart.chart()->series())
                if (auto *sc = qobject_cast<QScatterSeries *>(s); sc && sc->markerSize() < 7)
                    for (const QPointF &pt : sc->points())
                        n += inside(pt.x(), pt.y());
            return n;
        };
        int inView = 0;
        for (const ChartPoint &p : std::as_const(points))
            inView += !p.onFrontier && inside(p.hours, p.costUsd);
        const int drawnBefore = drawnInside();
        const double ox0 = x->min(), ox1 = x->max(), oy0 = y->min(), oy1 = y->max();
        x->setRange(x0, x1);
        y->setRange(y0, y1);
        QTRY_VERIFY(chart.drawnPointCount() < drawn);
        const int drawnNow = drawnInside();
        QCOMPARE(chart.drawnPointCount() - 25 - 0, drawnNow); // nothing outside the view but the frontier
        QVERIFY2(inView > 20, qPrintable(QString::number(inView)));
        QVERIFY2(drawnNow > 2 * drawnBefore,
                 qPrintable(QStringLiteral("%1 vs %2").arg(drawnNow).arg(drawnBefore)));
        QVERIFY(drawnNow <= inView);
        x->setRange(ox0, ox1); // back to the whole view
        y->setRange(oy0, oy1);
        QTRY_COMPARE(chart.drawnPointCount(), drawn);
    }

    // Regression: a zoom inside one decade of a log axis (3 h to 5 h) showed no label: a log axis labels
    // only the powers of its base. Every zoom keeps at least two labelled ticks inside the view.
    void logAxesKeepLabelsOnEveryZoom()
    {
        FrontierChart chart;
        chart.resize(900, 600);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        QList<ChartPoint> points;
        for (int i = 0; i < 40; ++i) {
            ChartPoint p;
            p.hours = 0.2 * std::pow(1.2, i); // 0.2 .. 240 h
            p.costUsd = 500 / std::pow(1.15, i);
            p.id = i;
            points.append(p);
        }
        chart.setPoints(points, std::nullopt, std::nullopt, std::nullopt);
        QCoreApplication::processEvents();
        auto *x = qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Horizontal).value(0));
        auto *y = qobject_cast<QLogValueAxis *>(chart.chart()->axes(Qt::Vertical).value(0));
        QVERIFY(x && y);
        QCOMPARE(x->base(), 10.0); // whole decades on the full view
        // The labels Qt Charts draws: the powers of the axis's base inside its range, printed with the
        // axis's label format; they must be at least two and tell apart.
        auto labels = [](QLogValueAxis *a) {
            QStringList out;
            const double first = std::ceil(std::log(a->min()) / std::log(a->base()) - 1e-9);
            const double last = std::floor(std::log(a->max()) / std::log(a->base()) + 1e-9);
            for (double n = first; n <= last; ++n)
                out.append(QString::asprintf(qPrintable(a->labelFormat()), std::pow(a->base(), n)));
            return out;
        };
        struct Range
        {
            double lo, hi;
        };
        for (const Range &r : {Range{3, 5}, Range{3.9, 4.1}, Range{20, 90}, Range{0.5, 40}}) {
            // A drag-zoom over the pixels of that time range (and a cost range of a few dollars).
            const QPointF a = chart.chart()->mapToPosition(QPointF(r.lo, 8));
            const QPointF b = chart.chart()->mapToPosition(QPointF(r.hi, 6));
            chart.chart()->zoomIn(QRectF(a, b).normalized());
            QCoreApplication::processEvents();
            QVERIFY2(std::abs(x->min() / r.lo - 1) < 0.02 && std::abs(x->max() / r.hi - 1) < 0.02,
                     qPrintable(QStringLiteral("%1..%2").arg(x->min()).arg(x->max())));
            for (QLogValueAxis *axis : {x, y}) {
                const QStringList shown = labels(axis);
                QVERIFY2(shown.size() >= 2 && axis->tickCount() >= 2,
                         qPrintable(QStringLiteral("%1..%2 base %3: %4")
                                        .arg(axis->min())
                                        .arg(axis->max())
                                        .arg(axis->base())
                                        .arg(shown.join(u' '))));
                QCOMPARE(QSet<QString>(shown.begin(), shown.end()).size(), shown.size());
            }
            chart.resetZoom();
            QCoreApplication::processEvents();
            QCOMPARE(x->base(), 10.0);
        }
    }

    // Regression: legend entries were cut ("Within deadlin…") on first render at the default window size.
    void legendEntriesAreNeverCut()
    {
        showFrontierTab();
        // Deadline and budget show every guide's entry.
        m_window->workloadPanel()->setDeadlineHours(6);
        m_window->workloadPanel()->setBudgetUsd(50);
        waitForProjection();
        QApplication::processEvents();
        QLegend *legend = m_window->frontierPage()->chart()->chart()->legend();
        QStringList labels;
        for (QLegendMarker *marker : legend->markers())
            if (marker->isVisible())
                labels.append(marker->label());
        QVERIFY(labels.contains(QStringLiteral("Within deadline and budget")));
        QStringList shown;
        QList<QGraphicsItem *> items = legend->childItems();
        while (!items.isEmpty()) {
            QGraphicsItem *item = items.takeLast();
            items.append(item->childItems());
            if (auto *text = dynamic_cast<QGraphicsTextItem *>(item); text && text->isVisible()) {
                shown.append(text->toPlainText());
                // Not clipped by the chart's edge either.
                QVERIFY2(
                    m_window->frontierPage()->chart()->chart()->rect().contains(text->sceneBoundingRect()),
                    qPrintable(shown.last()));
            }
        }
        shot(QStringLiteral("legend"));
        for (const QString &label : std::as_const(labels))
            QVERIFY2(shown.contains(label),
                     qPrintable(label + QStringLiteral(" shown as: ") + shown.join(QStringLiteral(" | "))));
        m_window->workloadPanel()->setBudgetUsd(0);
        m_window->workloadPanel()->setDeadlineHours(0);
        waitForProjection();
    }

    // The frontier's likely range: a band over the frontier points, toggled by a check box.
    void uncertaintyBandToggle()
    {
        FrontierChart *chart = m_window->frontierPage()->chart();
        auto *box = m_window->findChild<QCheckBox *>(QStringLiteral("showUncertainty"));
        QVERIFY(box);
        box->setChecked(true);
        QVERIFY(chart->showUncertainty());
        QVERIFY(chart->frontierPointCount() > 0);
        QCOMPARE(chart->uncertaintyBandPointCount(), chart->frontierPointCount());
        box->setChecked(false);
        QVERIFY(!chart->showUncertainty());
        QCOMPARE(chart->uncertaintyBandPointCount(), 0);
        box->setChecked(true);
        QVERIFY(chart->uncertaintyBandPointCount() > 0);
    }

    void legendTogglesProviders()
    {
        FrontierChart *chart = m_window->frontierPage()->chart();
        chart->setProviderVisible(0, false);
        QVERIFY(!chart->providerVisible(0));
        int hiddenSeries = 0;
        for (QAbstractSeries *s : chart->chart()->series())
            if (auto *sc = qobject_cast<QScatterSeries *>(s); sc && !sc->isVisible())
                ++hiddenSeries;
        QCOMPARE(hiddenSeries, 4); // on-demand + spot, efficient + dominated
        chart->setProviderVisible(0, true);
    }

    void filtersNarrowTheChart()
    {
        const int all = m_window->frontierPage()->chart()->pointCount();
        auto *gpu = m_window->findChild<QLineEdit *>(QStringLiteral("gpuFilter"));
        QTest::keyClicks(gpu, QStringLiteral("A100"));
        waitForProjection();
        const int a100 = m_window->frontierPage()->chart()->pointCount();
        QVERIFY(a100 > 0 && a100 < all);
        // The Frontier page says that a filter narrows it, and which (it used to change silently).
        const QString notice = m_window->frontierPage()->filterNoticeText();
        QVERIFY2(notice.contains(QStringLiteral("Filtered on the Offers page")) &&
                     notice.contains(QStringLiteral("GPU matches \"A100\"")),
                 qPrintable(notice));
        QVERIFY(notice.contains(QString::number(m_window->projection()->results()->offers.size())));
        for (const Offer &o : m_window->projection()->results()->offers)
            QVERIFY(o.gpuId.contains(QStringLiteral("a100")) ||
                    o.gpuRawName.contains(QStringLiteral("A100")));
        m_window->offersPage()->resetFilters();
        waitForProjection();
        QCOMPARE(m_window->frontierPage()->chart()->pointCount(), all);
        QVERIFY(m_window->frontierPage()->filterNoticeText().isEmpty());
    }

    // The legend names every provider of the table (legible: none cut off), and an empty
    // recommendation says why: Azure alone has only 2024 prices, more than a year old.
    void everyProviderInTheLegendAndWhyNothingIsPicked()
    {
        QStringList labels;
        for (QLegendMarker *m : m_window->frontierPage()->chart()->chart()->legend()->markers())
            if (m->isVisible())
                labels.append(m->label());
        for (const ProviderInfo &p : providers())
            QVERIFY2(labels.contains(p.displayName), qPrintable(labels.join(u", ")));
        for (const QString &p : knownProviders())
            if (p != u"azure")
                m_window->findChild<QCheckBox *>(QStringLiteral("provider_") + p)->setChecked(false);
        waitForProjection();
        const QString s = m_window->frontierPage()->summary();
        QVERIFY2(s.contains(QStringLiteral("nothing recommended")) &&
                     s.contains(QStringLiteral("Azure prices from 2024-07")) &&
                     s.contains(QStringLiteral(
                         "refresh Azure on the Catalogs page, or tick Include suspect prices")),
                 qPrintable(s));
        QVERIFY2(!s.contains(QStringLiteral("deadline")) && !s.contains(QStringLiteral("budget")),
                 qPrintable(s));
        m_window->offersPage()->resetFilters();
        waitForProjection();
        QVERIFY(m_window->frontierPage()->summary().contains(QStringLiteral("recommended: ")));
    }

    void compareSelectedOffers()
    {
        QTreeView *offers = m_window->offersPage()->view();
        offers->clearSelection();
        QCOMPARE(m_window->comparePage()->comparedCount(), 0);
        auto *sel = offers->selectionModel();
        for (int r : {0, 5, 10})
            sel->select(offers->model()->index(r, 0),
                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(m_window->comparePage()->comparedCount(), 3);
        QTableWidget *t = m_window->comparePage()->table();
        bool hasCost = false;
        for (int r = 0; r < t->rowCount(); ++r)
            hasCost = hasCost || t->verticalHeaderItem(r)->text().contains(QStringLiteral("Run cost"));
        QVERIFY(hasCost);
        // At most six.
        for (int r = 11; r < 20; ++r)
            sel->select(offers->model()->index(r, 0),
                        QItemSelectionModel::Select | QItemSelectionModel::Rows);
        QCOMPARE(m_window->comparePage()->comparedCount(), ComparePage::kMaxOffers);

        // vast.ai's own metrics (DLPerf, upload) appear only when a compared offer has them.
        auto rowLabels = [t] {
            QStringList labels;
            for (int r = 0; r < t->rowCount(); ++r)
                labels.append(t->verticalHeaderItem(r)->text());
            return labels;
        };
        const QList<Offer> &all = m_window->projection()->results()->offers;
        int withDlperf = -1, aws = -1;
        for (int i = 0; i < all.size(); ++i) {
            if (withDlperf < 0 && all.at(i).dlperf)
                withDlperf = i;
            if (aws < 0 && all.at(i).provider == u"aws")
                aws = i;
        }
        QVERIFY(withDlperf >= 0 &&
                aws >= 0); // the bundled vast.ai snapshot has DLPerf for its captured offers
        m_window->comparePage()->setOffers(all, {aws, aws + 1}, m_window->projection()->results());
        QVERIFY(!rowLabels().contains(QStringLiteral("DLPerf (vast.ai)")));
        m_window->comparePage()->setOffers(all, {aws, withDlperf}, m_window->projection()->results());
        QVERIFY(rowLabels().contains(QStringLiteral("DLPerf (vast.ai)")));
        QVERIFY(rowLabels().contains(QStringLiteral("Upload (Gbps)")));
    }

    void cleanupTestCase() { m_window.reset(); }
};

QTEST_MAIN(TestFrontier)
#include "test_frontier.moc"

// Benchmark (a program that prints figures, not a test): the real main window on a large catalog.
//
//   bench_ui_scale DATABASE [SEARCH_TEXT]
//
// DATABASE is a catalog database (make one with tests/benchmarks/bench_scale.py --keep, or
// bench_history below). Opens MainWindow on it as the app does and prints, in milliseconds:
//   - open: from constructing the window to the Offers table holding the catalog (rows shown);
//   - first projection: until the Time/Cost columns and the Frontier page have their results;
//   - per keystroke: typing SEARCH_TEXT (default "rtx 4090") into the Offers search box: the time the GUI
//     thread is busy with each key (filtering the table), and the longest stall of the event loop while
//     the projection for the filter catches up (a 5 ms timer measures the gaps);
//   - workload change: another preset until every page shows its results;
//   - history: choosing an offer on the Catalogs page until its price-history chart is drawn.
// Runs offscreen when there is no display (QT_QPA_PLATFORM=offscreen). Use a Release build.
#include "catalogspage.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "historychart.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "uibench.h"
#include "viewmodels/offertablemodel.h"
#include "workloadpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cstdio>

using namespace gf;
using namespace gf::bench;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier bench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_ui_scale"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_ui_scale DATABASE [SEARCH_TEXT]\n");
        return 2;
    }
    const QString db = QString::fromLocal8Bit(argv[1]);
    const QString search = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("rtx 4090");

    QElapsedTimer total;
    total.start();
    MainWindow w(db);
    w.resize(1440, 860);
    w.show();
    QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
    QSignalSpy projected(&w, &MainWindow::projectionUpdated);
    OffersPage *offers = w.offersPage();
    if (!waitFor([&] { return !loaded.isEmpty(); }, 120000)) {
        std::fprintf(stderr, "the catalog did not load\n");
        return 1;
    }
    QCoreApplication::processEvents(); // the first paint of the table
    const double openMs = ms(total);
    const int rows = offers->model()->rowCount();
    const int shown = offers->proxy()->rowCount();
    if (!waitFor([&] { return !projected.isEmpty(); }, 120000)) {
        std::fprintf(stderr, "the projection did not finish\n");
        return 1;
    }
    QCoreApplication::processEvents();
    const double firstProjectionMs = ms(total);
    std::printf("platform: %s\n", qPrintable(QGuiApplication::platformName()));
    std::printf("catalog: %d offers, %d rows in the Offers table (grouped: %s)\n", rows, shown,
                offers->isGrouped() ? "yes" : "no");
    std::printf("open to Offers table shown:        %8.0f ms\n", openMs);
    std::printf("open to first projection shown:    %8.0f ms\n", firstProjectionMs);

    // Typing in the search box.
    auto *box = offers->findChild<QLineEdit *>(QStringLiteral("search"));
    w.tabs()->setCurrentWidget(offers);
    box->setFocus();
    QCoreApplication::processEvents();
    StallMeter stalls;
    QList<double> perKey;
    projected.clear();
    stalls.start();
    for (const QChar c : search) {
        QElapsedTimer t;
        t.start();
        QTest::keyClicks(box, QString(c));
        QCoreApplication::processEvents(); // the filter and the repaint of the table
        perKey.append(ms(t));
        QTest::qWait(60); // a fast typist
    }
    waitFor([&] { return !projected.isEmpty() && !w.projection()->isBusy(); }, 60000);
    QCoreApplication::processEvents();
    const double typingStall = stalls.stop();
    std::sort(perKey.begin(), perKey.end());
    std::printf("search \"%s\": %d rows shown; per keystroke median %.0f ms, max %.0f ms\n",
                qPrintable(search), offers->proxy()->rowCount(), perKey.at(perKey.size() / 2), perKey.last());
    std::printf("longest event-loop stall while typing and re-projecting: %.0f ms\n", typingStall);
    box->clear();
    waitFor([&] { return !w.projection()->isBusy(); }, 60000);
    QCoreApplication::processEvents();

    // A workload change: every page recomputes.
    auto *preset = w.workloadPanel()->findChild<QComboBox *>(QStringLiteral("workloadPreset"));
    QList<double> change;
    double changeStall = 0;
    for (int r = 0; r < 3; ++r) {
        projected.clear();
        stalls.start();
        QElapsedTimer t;
        t.start();
        preset->setCurrentIndex((preset->currentIndex() + 1) % std::max(1, preset->count() - 1));
        waitFor([&] { return !projected.isEmpty(); }, 60000);
        QCoreApplication::processEvents();
        change.append(ms(t));
        changeStall = std::max(changeStall, stalls.stop());
    }
    std::sort(change.begin(), change.end());
    std::printf(
        "workload change to every page updated: median %.0f ms, max %.0f ms (longest stall %.0f ms)\n",
        change.at(change.size() / 2), change.last(), changeStall);

    // The frontier chart: one full repaint.
    w.tabs()->setCurrentWidget(w.frontierPage());
    QCoreApplication::processEvents();
    QElapsedTimer paint;
    paint.start();
    w.frontierPage()->grab();
    std::printf("frontier page repaint:             %8.0f ms (%d points, %d markers drawn)\n", ms(paint),
                w.frontierPage()->chart()->pointCount(), w.frontierPage()->chart()->drawnPointCount());

    // Price history of one offer.
    CatalogsPage *catalogs = w.catalogsPage();
    w.tabs()->setCurrentWidget(catalogs);
    waitFor([&] { return catalogs->historyInstance()->count() > 0; }, 120000);
    QCoreApplication::processEvents();
    QSignalSpy history(catalogs, &CatalogsPage::historyLoaded);
    QList<double> historyMs;
    QComboBox *instances = catalogs->historyInstance();
    {
        // The provider with the most instance types (a marketplace lists every offer).
        QComboBox *providers = catalogs->historyProvider();
        const int vast = providers->findData(QStringLiteral("vastai"));
        QElapsedTimer t;
        t.start();
        if (vast >= 0)
            providers->setCurrentIndex(vast);
        QCoreApplication::processEvents();
        std::printf("history choosers for %s: %d instance types listed in %.0f ms\n",
                    qPrintable(providers->currentText()), instances->count(), ms(t));
        waitFor([&] { return !history.isEmpty(); }, 60000);
    }
    const int n = instances->count();
    for (int r = 0; r < 5 && n > 1; ++r) {
        history.clear();
        QElapsedTimer t;
        t.start();
        instances->setCurrentIndex((instances->currentIndex() + 1 + r * 7919) % n);
        waitFor([&] { return !history.isEmpty(); }, 60000);
        catalogs->historyChart()->grab();
        historyMs.append(ms(t));
    }
    if (!historyMs.isEmpty()) {
        std::sort(historyMs.begin(), historyMs.end());
        std::printf(
            "price history of one offer (query + chart drawn): median %.0f ms, max %.0f ms (%d instance "
            "types listed)\n",
            historyMs.at(historyMs.size() / 2), historyMs.last(), n);
    }
    return 0;
}

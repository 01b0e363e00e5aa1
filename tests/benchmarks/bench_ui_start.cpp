// Benchmark (a program that prints figures, not a test): the GUI's start and its responsiveness on a
// large catalog, as a user meets them.
//
//   bench_ui_start DATABASE [SEARCH_TEXT] [SCREENSHOT_PREFIX]
//
// DATABASE is a catalog database, e.g. 200,000 current offers of 14 providers:
//   tests/benchmarks/gen_catalog.py --offers 200000 --all-providers --date $(date -I) --out /tmp/cat
//   for f in /tmp/cat/*.csv; do GPUFRONTIER_DB=/tmp/cat.sqlite gpufrontier-cli import --file $f; done
// Opens the real MainWindow on it (QSettings of its own: a fresh user) and prints, in milliseconds:
//   - start: from the window's constructor to show(), and from show() to the Answer page (the first tab)
//     showing its answer (the recommendation cards filled, or "no offer fits"); the longest event-loop
//     stall in that time (a 5 ms heartbeat timer measures the gaps between its ticks);
//   - search: SEARCH_TEXT (default "rtx 4090") typed into the Offers page's search box one key at a time
//     (QTest::keyClick): per key, the time the key's own handling blocks the GUI thread, the time until
//     the table shows the filtered rows, and until the projection for the new filter is shown everywhere
//     and the event loop is idle again; the longest stall of the whole sequence; then the same text typed
//     at a fast typist's pace (60 ms a key) and the longest stall;
//   - workload preset, deadline, sorting the Offers table, the Frontier tab with its chart: time until
//     every page shows the result and the longest stall.
// SCREENSHOT_PREFIX: writes PREFIX-loading.png (the window at its first paint) and PREFIX-answer.png.
// Runs offscreen when there is no display (QT_QPA_PLATFORM=offscreen). Use a Release build.
#include "answerpage.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "uibench.h"
#include "viewmodels/appstate.h"
#include "viewmodels/offertablemodel.h"
#include "workloadpanel.h"

#include <QApplication>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <QTreeView>

#include <algorithm>
#include <cstdio>
#include <functional>

#include <time.h>

using namespace gf;
using namespace gf::bench;

namespace {

/// CPU time of the calling thread, ns: what it did, whatever else the machine runs.
qint64 threadCpuNs()
{
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return qint64(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// Runs the event loop until nothing is left to do: no projection running, and 300 ms in which no pass of
/// the GUI thread's event loop did work of note (timers of a debounce or a coalescing included). "Work" is
/// the thread's CPU time, so that a loaded machine's scheduling delays do not count as work.
void settle(MainWindow &w)
{
    QElapsedTimer quiet;
    quiet.start();
    qint64 cpu = threadCpuNs();
    while (quiet.elapsed() < 300 || w.projection()->isBusy()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 2);
        QThread::usleep(500);
        const qint64 now = threadCpuNs();
        if (now - cpu > 1000000 || w.projection()->isBusy())
            quiet.restart(); // something ran: a pass took 1 ms of CPU time (a heartbeat tick takes µs)
        cpu = now;
    }
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v.at(v.size() / 2);
}

double maxOf(const QList<double> &v)
{
    return v.isEmpty() ? 0 : *std::max_element(v.begin(), v.end());
}

/// The Answer page shows the answer for the loaded catalog: its cards (with a title) or "no offer fits",
/// not "Updating …".
bool answerShown(const MainWindow &w)
{
    const ProjectionResultsPtr results = w.state()->results(); // of the current catalog, else null
    if (!results || w.state()->offers().isEmpty())
        return false;
    const AnswerPage *page = w.answerPage();
    const auto *card = page->findChild<QWidget *>(QStringLiteral("answerRecommended"));
    const auto *title = page->findChild<QLabel *>(QStringLiteral("answerRecommendedTitle"));
    const auto *nothing = page->findChild<QWidget *>(QStringLiteral("answerNothingFits"));
    const auto *updating = page->findChild<QWidget *>(QStringLiteral("answerUpdating"));
    const bool cards = card && title && card->isVisibleTo(page) && !title->text().isEmpty();
    const bool none = nothing && nothing->isVisibleTo(page);
    return (cards || none) && !(updating && updating->isVisibleTo(page));
}

void save(QWidget &w, const QString &prefix, const char *what)
{
    if (prefix.isEmpty())
        return;
    const QString path = prefix + u'-' + QString::fromLatin1(what) + QStringLiteral(".png");
    if (w.grab().save(path))
        std::printf("screenshot: %s\n", qPrintable(path));
}

struct Timed
{
    double ms = 0;
    double stall = 0;
};

/// Does `action`, then runs the event loop until `done` and settle(): the time and the longest stall.
Timed timeAction(MainWindow &w, StallMeter &stalls, const std::function<void()> &action,
                 const std::function<bool()> &done)
{
    stalls.start();
    QElapsedTimer t;
    t.start();
    action();
    waitFor(done, 120000);
    settle(w);
    Timed r{ms(t), stalls.stop()};
    return r;
}

} // namespace

int main(int argc, char **argv)
{
    std::setvbuf(stdout, nullptr, _IOLBF, 0); // each figure as soon as it is measured
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    // A fresh user: the window's settings (geometry, filters, grouping) go to a folder of their own.
    QTemporaryDir config;
    qputenv("XDG_CONFIG_HOME", config.path().toLocal8Bit());
    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier bench"));
    QCoreApplication::setApplicationName(QStringLiteral("bench_ui_start"));
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_ui_start DATABASE [SEARCH_TEXT] [SCREENSHOT_PREFIX]\n");
        return 2;
    }
    const QString db = QString::fromLocal8Bit(argv[1]);
    const QString search = argc > 2 ? QString::fromLocal8Bit(argv[2]) : QStringLiteral("rtx 4090");
    const QString shots = argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString();

    StallMeter stalls;
    QElapsedTimer construct;
    construct.start();
    MainWindow w(db);
    w.resize(1440, 860);
    const double constructMs = ms(construct);
    QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
    QSignalSpy projected(&w, &MainWindow::projectionUpdated);
    stalls.start();
    QElapsedTimer shown;
    shown.start();
    w.show();
    (void)QTest::qWaitForWindowExposed(&w, 5000);
    QCoreApplication::processEvents();
    const double exposedMs = ms(shown);
    save(w, shots, "loading");
    // Each when it happens: the window may show the answer before it has filled the Offers table.
    double loadedMs = -1, answerMs = -1, answerStall = 0;
    waitFor(
        [&] {
            if (loadedMs < 0 && !loaded.isEmpty())
                loadedMs = ms(shown);
            if (answerMs < 0 && answerShown(w)) {
                answerMs = ms(shown);
                answerStall = stalls.worst();
            }
            return loadedMs >= 0 && answerMs >= 0;
        },
        120000);
    if (loadedMs < 0) {
        std::fprintf(stderr, "the catalog did not load\n");
        return 1;
    }
    if (answerMs < 0) {
        std::fprintf(stderr, "the Answer page showed no answer\n");
        return 1;
    }
    settle(w);
    const double startStall = stalls.stop();
    const double idleMs = ms(shown);
    save(w, shots, "answer");
    OffersPage *offers = w.offersPage();
    std::printf("platform: %s\n", qPrintable(QGuiApplication::platformName()));
    std::printf("catalog: %d offers, %d rows in the Offers table (grouped: %s); first tab: %s\n",
                offers->model()->rowCount(), offers->proxy()->rowCount(), offers->isGrouped() ? "yes" : "no",
                qPrintable(w.tabs()->tabText(w.tabs()->currentIndex()).remove(u'&')));
    std::printf(
        "start: constructor %.0f ms; show() to exposed %.0f ms, to catalog loaded (in the Offers "
        "table) %.0f ms, to the answer shown %.0f ms (longest stall until then %.0f ms); to idle %.0f ms "
        "(longest stall %.0f ms)\n",
        constructMs, exposedMs, loadedMs, answerMs, answerStall, idleMs, startStall);

    // The search box, one key at a time.
    auto *box = offers->findChild<QLineEdit *>(QStringLiteral("search"));
    w.tabs()->setCurrentWidget(offers);
    box->setFocus();
    settle(w);
    QList<double> handled, filtered, idle, keyStalls;
    for (const QChar c : search) {
        stalls.start();
        QElapsedTimer t;
        t.start();
        QTest::keyClick(box, c.toLatin1());
        handled.append(ms(t));
        const QString want = box->text().trimmed();
        waitFor([&] { return offers->proxy()->filter().text == want; }, 120000);
        QCoreApplication::processEvents(); // the table's repaint
        filtered.append(ms(t));
        settle(w);
        idle.append(ms(t));
        keyStalls.append(stalls.stop());
        std::printf(
            "  key '%c': handled %.0f ms, table filtered %.0f ms, idle %.0f ms, longest stall %.0f ms\n",
            c.toLatin1(), handled.last(), filtered.last(), idle.last(), keyStalls.last());
    }
    const int searchRows = offers->proxy()->rowCount();
    std::printf("search \"%s\" (%d rows shown), one key at a time, median / max ms:\n", qPrintable(search),
                searchRows);
    std::printf("  key handled %.0f / %.0f; table filtered %.0f / %.0f; projection shown, idle %.0f / %.0f; "
                "longest stall %.0f / %.0f\n",
                median(handled), maxOf(handled), median(filtered), maxOf(filtered), median(idle), maxOf(idle),
                median(keyStalls), maxOf(keyStalls));
    box->clear();
    settle(w);
    {
        // A fast typist: 60 ms a key, not waiting for anything.
        stalls.start();
        QElapsedTimer t;
        t.start();
        for (const QChar c : search) {
            QTest::keyClick(box, c.toLatin1());
            QTest::qWait(60);
        }
        const QString want = box->text().trimmed();
        waitFor([&] { return offers->proxy()->filter().text == want; }, 120000);
        settle(w);
        std::printf("  typed at 60 ms a key: idle %.0f ms after the first key; longest stall %.0f ms\n",
                    ms(t), stalls.stop());
    }
    box->clear();
    settle(w);

    // Sorting the Offers table: by the run cost, then by price.
    QTreeView *view = offers->view();
    for (const int column : {int(OfferTableModel::Cost), int(OfferTableModel::OnDemand)}) {
        const Timed r = timeAction(
            w, stalls, [&] { view->sortByColumn(column, Qt::AscendingOrder); },
            [&] {
                // The rows sorted (on a large catalog: on a worker, then adopted by the GUI thread).
                return view->header()->sortIndicatorSection() == column && !offers->proxy()->isSortPending();
            });
        std::printf("sort the Offers table by %s: %.0f ms (longest stall %.0f ms)\n",
                    qPrintable(offers->model()->headerData(column, Qt::Horizontal).toString()), r.ms,
                    r.stall);
    }

    // The workload preset and the deadline, seen on the Answer page.
    w.tabs()->setCurrentWidget(w.answerPage());
    settle(w);
    auto *preset = w.workloadPanel()->findChild<QComboBox *>(QStringLiteral("workloadPreset"));
    QList<double> presetMs, presetStall;
    for (int r = 0; r < 3; ++r) {
        projected.clear();
        const Timed t = timeAction(
            w, stalls,
            [&] { preset->setCurrentIndex((preset->currentIndex() + 1) % std::max(1, preset->count() - 1)); },
            [&] { return !projected.isEmpty() && answerShown(w); });
        presetMs.append(t.ms);
        presetStall.append(t.stall);
    }
    std::printf("workload preset changed to every page updated: median %.0f ms, max %.0f ms (longest stall "
                "%.0f ms)\n",
                median(presetMs), maxOf(presetMs), maxOf(presetStall));
    auto *deadline = w.workloadPanel()->findChild<QDoubleSpinBox *>(QStringLiteral("deadline"));
    QList<double> deadlineMs, deadlineStall;
    for (const double hours : {48.0, 12.0, 0.0}) {
        projected.clear();
        const Timed t = timeAction(
            w, stalls, [&] { deadline->setValue(hours); },
            [&] { return !projected.isEmpty() && answerShown(w); });
        deadlineMs.append(t.ms);
        deadlineStall.append(t.stall);
    }
    std::printf(
        "deadline changed to every page updated: median %.0f ms, max %.0f ms (longest stall %.0f ms)\n",
        median(deadlineMs), maxOf(deadlineMs), maxOf(deadlineStall));

    // The Frontier tab: the chart and its table painted.
    {
        const Timed t = timeAction(
            w, stalls, [&] { w.tabs()->setCurrentWidget(w.frontierPage()); }, [] { return true; });
        std::printf("switch to the Frontier tab (chart painted): %.0f ms (longest stall %.0f ms); %d points, "
                    "%d markers drawn\n",
                    t.ms, t.stall, w.frontierPage()->chart()->pointCount(),
                    w.frontierPage()->chart()->drawnPointCount());
        QElapsedTimer paint;
        paint.start();
        w.frontierPage()->grab();
        std::printf("frontier page, one full repaint: %.0f ms\n", ms(paint));
    }
    // A workload change while the Frontier tab is shown (the chart redrawn).
    {
        projected.clear();
        const Timed t = timeAction(
            w, stalls, [&] { deadline->setValue(24.0); }, [&] { return !projected.isEmpty(); });
        std::printf("deadline changed on the Frontier tab: %.0f ms (longest stall %.0f ms)\n", t.ms, t.stall);
    }
    return 0;
}

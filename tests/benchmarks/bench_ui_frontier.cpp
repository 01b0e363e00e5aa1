// Benchmark (not a test): how fast the GUI reacts to a workload change on a large catalog.
// Generates N offers (default 50,000) by replicating the bundled catalog with jittered prices,
// then times (1) the projection + frontier as the GUI runs it (projectCatalog),
// (2) handing the points to the frontier chart (series replace()), (3) rendering the chart once.
// Usage: bench_ui_frontier [N] [repetitions] [last-render.png]; runs with QT_QPA_PLATFORM=offscreen when
// no display. Under a display (e.g. xvfb-run) charts above 20,000 points use OpenGL series.

#include "domain/gpucatalog.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "projection/catalogprojection.h"
#include "refresh/bundledsnapshot.h"
#include "store/catalogstore.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>

using namespace gf;

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const int n = argc > 1 ? std::max(1, QString::fromLocal8Bit(argv[1]).toInt()) : 50000;
    const int reps = argc > 2 ? std::max(1, QString::fromLocal8Bit(argv[2]).toInt()) : 5;
    const QString savePng =
        argc > 3 ? QString::fromLocal8Bit(argv[3]) : QString(); // the last render, to look at

    QTemporaryDir dir;
    auto store = CatalogStore::open(dir.filePath(QStringLiteral("bench.sqlite")));
    if (!store || !importBundledIfEmpty(*store.value(), GpuCatalog::builtin())) {
        std::fprintf(stderr, "cannot build the catalog\n");
        return 1;
    }
    const QList<Offer> base = store.value()->currentOffers().value();
    QList<Offer> offers;
    offers.reserve(n);
    QRandomGenerator rng(42);
    while (offers.size() < n) {
        Offer o = base.at(offers.size() % base.size());
        const double f = 0.7 + 0.6 * rng.generateDouble();
        if (o.onDemandUsdH)
            o.onDemandUsdH = *o.onDemandUsdH * f;
        if (o.spotUsdH)
            o.spotUsdH = *o.spotUsdH * f;
        offers.append(o);
    }
    const Workload workload = builtinWorkloads().first();
    ProjectionOptions options;
    options.now = QDateTime::currentDateTimeUtc();

    FrontierPage page;
    page.resize(1200, 800);
    page.show();
    QApplication::processEvents();

    QList<double> project, chart, render;
    ProjectionResultsPtr results;
    for (int r = 0; r < reps; ++r) {
        QElapsedTimer t;
        t.start();
        results = std::make_shared<const ProjectionResults>(projectCatalog(
            offers, {OfferFilter{}, workload, options, defaultCalibration(), {}, quint64(r + 1)}));
        project.append(t.nsecsElapsed() / 1e6);
        t.restart();
        page.setResults(results);
        chart.append(t.nsecsElapsed() / 1e6);
        t.restart();
        const QPixmap pm = page.chart()->grab();
        render.append(t.nsecsElapsed() / 1e6);
        if (!savePng.isEmpty() && r == reps - 1)
            pm.save(savePng);
    }
    auto median = [](QList<double> v) {
        std::sort(v.begin(), v.end());
        return v.at(v.size() / 2);
    };
    std::printf("platform: %s\n", qPrintable(QGuiApplication::platformName()));
    std::printf("offers: %d, projected points: %lld, drawn: %d, frontier: %lld, repetitions: %d\n", n,
                static_cast<long long>(results->points.size()), page.chart()->pointCount(),
                static_cast<long long>(results->frontierCount), reps);
    std::printf("projection + frontier (worker thread): median %.1f ms\n", median(project));
    std::printf("chart update (GUI thread, series replace + table): median %.1f ms\n", median(chart));
    std::printf("chart render (one full repaint): median %.1f ms\n", median(render));
    std::printf("GUI-thread time per workload change: median %.1f ms\n", median(chart) + median(render));
    return 0;
}

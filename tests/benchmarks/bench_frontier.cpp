// Benchmark: projection + Pareto frontier over 1,000,000 generated offers, and the naive O(n^2)
// frontier on a subsample with an extrapolation to the full set. Prints figures; asserts nothing about time.
//
//   bench_frontier [OFFERS] [SUBSAMPLE] [REPEATS]     (defaults 1000000 20000 5)
//
// Build it in a Release tree for meaningful numbers:
//   cmake -S . -B build/projrel -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUFRONTIER_WITH_CUDA=OFF
//   cmake --build build/projrel --target bench_frontier && build/projrel/tests/bench_frontier

#include "domain/gpuspecs.h"
#include "domain/offer.h"
#include "domain/workload.h"
#include "projection/frontier.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QThread>
#include <QThreadPool>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

using namespace gf;

namespace {

/// Offers over every spec'd GPU, the five providers, realistic counts, prices, buckets and interconnects.
/// The GPU id of every offer is its own string (as when read from the database), so the spec lookup is
/// exercised as in the app; provider, region and the other labels are shared.
QList<Offer> generate(int n, quint32 seed)
{
    QRandomGenerator rng(seed);
    const QList<GpuSpec> &specs = GpuSpecTable::builtin().specs();
    const QStringList providers{QStringLiteral("aws"), QStringLiteral("gcp"), QStringLiteral("azure"),
                                QStringLiteral("paperspace"), QStringLiteral("vastai")};
    const QStringList buckets{QStringLiteral("<5%"),    QStringLiteral("5-10%"), QStringLiteral("10-15%"),
                              QStringLiteral("15-20%"), QStringLiteral(">20%"),  QString()};
    const QStringList links{QStringLiteral("NVSwitch"), QStringLiteral("NVLink"), QStringLiteral("PCIe"),
                            QString()};
    QStringList regions;
    for (int r = 0; r < 40; ++r)
        regions.append(QStringLiteral("region-%1").arg(r));
    const double counts[] = {0.25, 0.5, 1, 1, 1, 1, 2, 4, 8, 8};
    const QDate date(2026, 1, 1);
    QList<Offer> out;
    out.reserve(n);
    for (int i = 0; i < n; ++i) {
        Offer o;
        const int p = rng.bounded(5);
        o.provider = providers.at(p);
        o.instanceType = providers.at(p);
        o.region = regions.at(rng.bounded(40));
        const int s = rng.bounded(int(specs.size()) + 1);
        const QString &id = s < specs.size() ? specs.at(s).id : QString();
        o.gpuId = QString(id.constData(), id.size()); // a separate copy per offer
        o.gpuCount = counts[rng.bounded(10)];
        const double perGpu = 0.05 + rng.generateDouble() * 6.0;
        o.onDemandUsdH = std::round(perGpu * o.gpuCount * 1000.0) / 1000.0;
        if (rng.bounded(10) < 7)
            o.spotUsdH = std::round(*o.onDemandUsdH * (0.15 + 0.6 * rng.generateDouble()) * 1000.0) / 1000.0;
        o.interruption = p == 0 ? buckets.at(rng.bounded(6)) : QString();
        if (p == 4)
            o.reliability = 0.9 + 0.1 * rng.generateDouble();
        o.interconnect = o.gpuCount >= 2 ? links.at(rng.bounded(4)) : QString();
        if (rng.bounded(2))
            o.networkGbps = double(10 * (1 + rng.bounded(40)));
        o.vcpus = std::max(1.0, o.gpuCount) * double(2 + rng.bounded(15));
        if (rng.bounded(2))
            o.gpuMemGb = double(8 * (1 + rng.bounded(16)));
        o.billingIncrementS = rng.bounded(2) ? 1 : 60;
        o.billingMinimumS = 60;
        o.dataDate = date.addDays(rng.bounded(30));
        out.append(std::move(o));
    }
    return out;
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v[v.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const int n = args.size() > 1 ? args.at(1).toInt() : 1000000;
    const int sub = args.size() > 2 ? args.at(2).toInt() : 20000;
    const int repeats = args.size() > 3 ? std::max(1, args.at(3).toInt()) : 5;

    const Workload workload = *findWorkload(builtinWorkloads(), u"resnet50");
    const Calibration cal = defaultCalibration();
    (void)GpuSpecTable::builtin(); // parse the resources outside the timings

    QElapsedTimer timer;
    timer.start();
    const QList<Offer> offers = generate(n, 20240601);
    std::printf("generated %d offers in %.0f ms (not timed below)\n", n, double(timer.nsecsElapsed()) / 1e6);
    std::printf("threads: %d (QThread::idealThreadCount), pool max %d\n", QThread::idealThreadCount(),
                QThreadPool::globalInstance()->maxThreadCount());

    ProjectionOptions opt;
    opt.now = QDateTime::fromString(QStringLiteral("2026-02-01T00:00:00Z"), Qt::ISODate);
    opt.deadlineHours = 48;
    opt.budgetUsd = 500;

    // What this machine charges for first-touching fresh memory (page faults), for reading the figures.
    {
        const std::size_t bytes = std::size_t(1700000) * sizeof(ProjectedOffer);
        timer.restart();
        std::vector<char> fresh(bytes, 1);
        const double firstMs = double(timer.nsecsElapsed()) / 1e6;
        timer.restart();
        std::fill(fresh.begin(), fresh.end(), 2);
        const double secondMs = double(timer.nsecsElapsed()) / 1e6;
        std::printf("memory: writing %.0f MB the first time %.1f ms, the second time %.1f ms (4 KB pages, no "
                    "advice)\n",
                    double(bytes) / 1e6, firstMs, secondMs);
    }

    QList<ProjectedOffer> points;
    for (const bool parallel : {true, false}) {
        opt.parallel = parallel;
        std::vector<double> cold, warm, cpu;
        for (int r = 0; r < repeats; ++r) {
            timer.restart();
            points = projectOffers(offers, workload, opt, cal); // a fresh output list each time
            cold.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        for (int r = 0; r < repeats; ++r) {
            const std::clock_t c0 = std::clock();
            timer.restart();
            projectOffersInto(offers, workload, opt, cal, points); // re-projection into the same list
            warm.push_back(double(timer.nsecsElapsed()) / 1e6);
            cpu.push_back(1000.0 * double(std::clock() - c0) / CLOCKS_PER_SEC);
        }
        std::printf(
            "projection + frontier + recommendation, %s: fresh output median %.1f ms (min %.1f); "
            "reused output median %.1f ms (min %.1f), CPU time (all threads) median %.1f ms; %d runs each\n",
            parallel ? "parallel" : "serial  ", median(cold), *std::min_element(cold.begin(), cold.end()),
            median(warm), *std::min_element(warm.begin(), warm.end()), median(cpu), repeats);
    }

    qsizetype projected = 0, eligible = 0, onFrontier = 0, feasible = 0;
    QList<TimeCost> pts;
    pts.reserve(points.size());
    for (const ProjectedOffer &p : std::as_const(points)) {
        projected += p.projected;
        onFrontier += p.onFrontier;
        feasible += p.feasible;
        if (p.eligible()) {
            ++eligible;
            pts.append({p.totalHours, p.costUsd});
        }
    }
    std::printf("points %lld: projected %lld, eligible %lld, on the frontier %lld, feasible %lld\n",
                static_cast<long long>(points.size()), static_cast<long long>(projected),
                static_cast<long long>(eligible), static_cast<long long>(onFrontier),
                static_cast<long long>(feasible));

    // The frontier alone on the eligible points (O(n) prefilter + sort of the survivors), and sort-only.
    {
        std::vector<double> a, b;
        QList<qsizetype> f1, f2;
        for (int r = 0; r < repeats; ++r) {
            timer.restart();
            f1 = paretoFrontier(pts);
            a.push_back(double(timer.nsecsElapsed()) / 1e6);
            timer.restart();
            f2 = paretoFrontierSorted(pts);
            b.push_back(double(timer.nsecsElapsed()) / 1e6);
        }
        std::printf(
            "paretoFrontier on %lld points: median %.1f ms (prefilter + sweep); sort + sweep only: %.1f ms; "
            "same result: %s; frontier size %lld\n",
            static_cast<long long>(pts.size()), median(a), median(b), f1 == f2 ? "yes" : "NO",
            static_cast<long long>(f1.size()));
    }

    // Naive O(n^2) on a subsample, compared with the fast one on the same subsample, extrapolated.
    const qsizetype m = std::min<qsizetype>(sub, pts.size());
    QList<TimeCost> sample;
    sample.reserve(m);
    QRandomGenerator rng(7);
    for (qsizetype i = 0; i < m; ++i)
        sample.append(pts.at(rng.bounded(int(pts.size()))));
    timer.restart();
    const QList<qsizetype> naive = paretoFrontierNaive(sample);
    const double naiveMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    const QList<qsizetype> fast = paretoFrontier(sample);
    const double fastMs = double(timer.nsecsElapsed()) / 1e6;
    const double scale = double(pts.size()) / double(std::max<qsizetype>(1, m));
    std::printf("naive O(n^2) on %lld points: %.1f ms (fast: %.3f ms; same result: %s)\n",
                static_cast<long long>(m), naiveMs, fastMs, naive == fast ? "yes" : "NO");
    std::printf(
        "naive extrapolated to %lld points: %.0f ms (x%.0f^2; this naive stops at the first dominator, so "
        "catalog-like points cost far less than n^2 pairs)\n",
        static_cast<long long>(pts.size()), naiveMs * scale * scale, scale);
    // Worst case for the naive one: every point on the frontier (a staircase), all n^2 pairs compared.
    QList<TimeCost> stairs;
    stairs.reserve(m);
    for (qsizetype i = 0; i < m; ++i)
        stairs.append({1.0 + double(i), 1e6 - double(i)});
    timer.restart();
    const QList<qsizetype> naiveStairs = paretoFrontierNaive(stairs);
    const double stairsMs = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    const QList<qsizetype> fastStairs = paretoFrontier(stairs);
    const double fastStairsMs = double(timer.nsecsElapsed()) / 1e6;
    std::printf("naive on a %lld-point staircase (all on the frontier): %.1f ms (fast: %.3f ms; same: %s); "
                "extrapolated to %lld points: %.0f s\n",
                static_cast<long long>(m), stairsMs, fastStairsMs, naiveStairs == fastStairs ? "yes" : "NO",
                static_cast<long long>(pts.size()), stairsMs * scale * scale / 1000.0);
    return naive == fast && naiveStairs == fastStairs ? 0 : 1;
}

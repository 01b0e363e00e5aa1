#include "projection/frontier.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gf;

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

/// Random points from a fixed seed. mode 0: continuous; 1: small integer grid (many ties);
/// 2: anti-correlated (a long frontier); 3: all equal.
QList<TimeCost> randomPoints(quint32 seed, int n, int mode)
{
    QRandomGenerator rng(seed);
    QList<TimeCost> pts;
    pts.reserve(n);
    for (int i = 0; i < n; ++i) {
        switch (mode) {
        case 0:
            pts.append({0.1 + rng.generateDouble() * 100.0, 1.0 + rng.generateDouble() * 1000.0});
            break;
        case 1:
            pts.append({double(rng.bounded(10)), double(rng.bounded(10))});
            break;
        case 2: {
            const double t = 0.5 + rng.generateDouble() * 50.0;
            pts.append({t, 100.0 / t + rng.generateDouble() * 2.0});
            break;
        }
        default:
            pts.append({3.0, 7.0});
            break;
        }
    }
    return pts;
}
} // namespace

class TestFrontier final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void handComputed_data()
    {
        QTest::addColumn<QList<TimeCost>>("points");
        QTest::addColumn<QList<qsizetype>>("expected"); // sorted by (time, cost, index)
        QTest::newRow("empty") << QList<TimeCost>{} << QList<qsizetype>{};
        QTest::newRow("single") << QList<TimeCost>{{2, 3}} << QList<qsizetype>{0};
        // (3,7) is dominated by (2,5); the two (2,5) are equal: both on the frontier.
        QTest::newRow("classic with duplicate")
            << QList<TimeCost>{{1, 10}, {2, 5}, {3, 7}, {4, 1}, {2, 5}} << QList<qsizetype>{0, 1, 4, 3};
        // Same time: only the cheaper one.
        QTest::newRow("same time") << QList<TimeCost>{{1, 5}, {1, 3}} << QList<qsizetype>{1};
        // Same cost: only the faster one.
        QTest::newRow("same cost") << QList<TimeCost>{{1, 5}, {2, 5}} << QList<qsizetype>{0};
        QTest::newRow("all ties") << QList<TimeCost>{{2, 2}, {2, 2}, {2, 2}, {2, 2}, {2, 2}}
                                  << QList<qsizetype>{0, 1, 2, 3, 4};
        // Non-finite coordinates are never on the frontier and dominate nothing.
        QTest::newRow("nan and inf") << QList<TimeCost>{{kNaN, 1}, {1, kInf}, {2, 2}, {kInf, 0}, {0.5, kNaN}}
                                     << QList<qsizetype>{2};
        // Zero and negative times (not produced by projections, but the function is general).
        QTest::newRow("zero and negative")
            << QList<TimeCost>{{0, 5}, {-1, 6}, {1, 1}} << QList<qsizetype>{1, 0, 2};
        // A staircase: every point on it, given in reverse order.
        QTest::newRow("staircase reversed")
            << QList<TimeCost>{{5, 1}, {4, 2}, {3, 3}, {2, 4}, {1, 5}} << QList<qsizetype>{4, 3, 2, 1, 0};
        // One point dominates all others.
        QTest::newRow("one dominator")
            << QList<TimeCost>{{3, 3}, {1, 1}, {2, 5}, {5, 2}} << QList<qsizetype>{1};
    }
    void handComputed()
    {
        QFETCH(QList<TimeCost>, points);
        QFETCH(QList<qsizetype>, expected);
        QCOMPARE(paretoFrontier(points), expected);
        QCOMPARE(paretoFrontierSorted(points), expected);
        QCOMPARE(paretoFrontierNaive(points), expected);
    }

    void dominance()
    {
        QVERIFY(dominates({1, 1}, {2, 2}));
        QVERIFY(dominates({1, 2}, {1, 3}));
        QVERIFY(dominates({1, 3}, {2, 3}));
        QVERIFY(!dominates({1, 1}, {1, 1})); // equal points do not dominate each other
        QVERIFY(!dominates({1, 3}, {2, 2}));
    }

    // Properties on random catalogs (fixed seeds): the fast frontier equals the naive one; no frontier point
    // is dominated; every point off the frontier has a dominator ON the frontier.
    void randomProperties_data()
    {
        QTest::addColumn<quint32>("seed");
        QTest::addColumn<int>("n");
        QTest::addColumn<int>("mode");
        for (int mode = 0; mode < 4; ++mode)
            for (int n : {0, 1, 2, 7, 50, 600, 3000})
                QTest::addRow("mode%d n%d", mode, n) << quint32(1000 * mode + n + 17) << n << mode;
    }
    void randomProperties()
    {
        QFETCH(quint32, seed);
        QFETCH(int, n);
        QFETCH(int, mode);
        const QList<TimeCost> pts = randomPoints(seed, n, mode);
        const QList<qsizetype> f = paretoFrontier(pts);
        QCOMPARE(f, paretoFrontierNaive(pts));
        QCOMPARE(f, paretoFrontierSorted(pts));
        QList<bool> on(pts.size(), false);
        for (qsizetype i : f)
            on[i] = true;
        for (qsizetype i : f)
            for (const TimeCost &q : pts)
                QVERIFY(!dominates(q, pts.at(i)));
        for (qsizetype i = 0; i < pts.size(); ++i) {
            if (on.at(i))
                continue;
            bool hasDominator = false;
            for (qsizetype j : f)
                hasDominator = hasDominator || dominates(pts.at(j), pts.at(i));
            QVERIFY2(hasDominator, qPrintable(QString::number(i)));
        }
        if (n > 0)
            QVERIFY(!f.isEmpty());
        // Sorted by time, costs strictly falling between distinct times.
        for (qsizetype k = 1; k < f.size(); ++k) {
            const TimeCost &a = pts.at(f.at(k - 1));
            const TimeCost &b = pts.at(f.at(k));
            QVERIFY(a.time <= b.time);
            QVERIFY(a.time == b.time ? a.cost == b.cost : a.cost > b.cost);
        }
    }

    // The frontier as a set of points does not depend on the input order.
    void orderIndependent()
    {
        QList<TimeCost> pts = randomPoints(7, 2000, 1);
        auto asPoints = [](const QList<TimeCost> &p, const QList<qsizetype> &idx) {
            QList<std::pair<double, double>> out;
            for (qsizetype i : idx)
                out.append({p.at(i).time, p.at(i).cost});
            return out;
        };
        const auto before = asPoints(pts, paretoFrontier(pts));
        QRandomGenerator rng(99);
        for (qsizetype i = pts.size() - 1; i > 0; --i)
            std::swap(pts[i], pts[rng.bounded(int(i + 1))]);
        QCOMPARE(asPoints(pts, paretoFrontier(pts)), before);
    }

    // A large input through the prefilter: same as the sort-only path (the naive one is too slow here).
    void largeMatchesSorted()
    {
        const QList<TimeCost> pts = randomPoints(4242, 200000, 2);
        QCOMPARE(paretoFrontier(pts), paretoFrontierSorted(pts));
    }

    // Times far outside the bucket range (clamped buckets) still give the exact frontier.
    void extremeTimes()
    {
        QList<TimeCost> pts = randomPoints(31, 3000, 2);
        for (qsizetype i = 0; i < pts.size(); ++i)
            pts[i].time = i % 3 == 0 ? pts[i].time * 1e-15 : (i % 3 == 1 ? pts[i].time * 1e15 : pts[i].time);
        QCOMPARE(paretoFrontier(pts), paretoFrontierNaive(pts));
    }

    void binsAreMonotone()
    {
        double prev = 0;
        int prevBin = TimeBinFilter::binOf(prev);
        for (double t = 1e-6; t < 1e7; t *= 1.01) {
            const int b = TimeBinFilter::binOf(t);
            QVERIFY(b >= prevBin);
            prevBin = b;
        }
        QCOMPARE(TimeBinFilter::binOf(-1), 0);
        QCOMPARE(TimeBinFilter::binOf(0), 0);
        // 16 bins per doubling of time; clamped at 2^-32 and 2^32.
        QCOMPARE(TimeBinFilter::binOf(2.0) - TimeBinFilter::binOf(1.0), 16);
        QCOMPARE(TimeBinFilter::binOf(1e-30), 0);
        QCOMPARE(TimeBinFilter::binOf(1e30), 1023);
        QCOMPARE(TimeBinFilter::binOf(std::numeric_limits<double>::infinity()), 1023);
    }

    // The feasible set is a box: frontier(feasible) == frontier(all) restricted to the box.
    void constraintsCommuteWithFrontier()
    {
        const QList<TimeCost> pts = randomPoints(5, 3000, 2);
        const FrontierConstraints c{20.0, 10.0};
        QList<TimeCost> feasible;
        QList<qsizetype> map;
        for (qsizetype i = 0; i < pts.size(); ++i)
            if (c.admits(pts.at(i))) {
                feasible.append(pts.at(i));
                map.append(i);
            }
        QList<qsizetype> sub;
        for (qsizetype k : paretoFrontier(feasible))
            sub.append(map.at(k));
        QList<qsizetype> restricted;
        for (qsizetype i : paretoFrontier(pts))
            if (c.admits(pts.at(i)))
                restricted.append(i);
        QCOMPARE(sub, restricted);
    }

    void recommend_data()
    {
        QTest::addColumn<double>("weight");
        QTest::addColumn<double>("deadline");    // 0 = none
        QTest::addColumn<double>("budget");      // 0 = none
        QTest::addColumn<qsizetype>("expected"); // -1 = none
        // Frontier (1,10) (2,5) (4,1): tmin 1, cmin 1; score w ln t + (1 - w) ln c.
        // w = 0: cost only -> (4,1). w = 1: time only -> (1,10).
        QTest::newRow("cheapest") << 0.0 << 0.0 << 0.0 << qsizetype(2);
        QTest::newRow("fastest") << 1.0 << 0.0 << 0.0 << qsizetype(0);
        // w = 0.5: t x c = 10, 10, 4 -> (4,1).
        QTest::newRow("balanced") << 0.5 << 0.0 << 0.0 << qsizetype(2);
        // w = 0.8: 0.2 ln 10 = 0.46, 0.8 ln 2 + 0.2 ln 5 = 0.88, 0.8 ln 4 = 1.11 -> (1,10).
        QTest::newRow("leaning time") << 0.8 << 0.0 << 0.0 << qsizetype(0);
        // w = 0.3: 0.7 ln 10 = 1.61, 0.3 ln 2 + 0.7 ln 5 = 1.33, 0.3 ln 4 = 0.42 -> (4,1).
        QTest::newRow("leaning cost") << 0.3 << 0.0 << 0.0 << qsizetype(2);
        // Deadline 3 h: (1,10), (2,5) remain; t x c = 10 and 10: a tie goes to the cheaper (2,5).
        QTest::newRow("deadline tie") << 0.5 << 3.0 << 0.0 << qsizetype(1);
        // Budget 5: (2,5), (4,1): w = 1 -> (2,5).
        QTest::newRow("budget") << 1.0 << 0.0 << 5.0 << qsizetype(1);
        QTest::newRow("infeasible") << 0.5 << 0.5 << 0.0 << qsizetype(-1);
        QTest::newRow("weight clamped") << 7.0 << 0.0 << 0.0 << qsizetype(0);
    }
    void recommend()
    {
        QFETCH(double, weight);
        QFETCH(double, deadline);
        QFETCH(double, budget);
        QFETCH(qsizetype, expected);
        const QList<TimeCost> pts{{1, 10}, {2, 5}, {4, 1}, {3, 8}};
        const QList<qsizetype> f = paretoFrontier(pts);
        QCOMPARE(f, (QList<qsizetype>{0, 1, 2}));
        FrontierConstraints c;
        if (deadline > 0)
            c.deadlineHours = deadline;
        if (budget > 0)
            c.budgetUsd = budget;
        const auto r = recommendPoint(pts, f, weight, c);
        QCOMPARE(r.value_or(-1), expected);
    }

    // A near-equal time does not buy a multiple of the cost: the same instance on-demand (19 min, 36.52 USD)
    // and on spot (20 min, 6.34 USD). On the former min-max scale over these two points both scored 0.5 and
    // the tie went to the faster; relative to each other the spot point is 3.5 % slower for 17 % of the
    // cost.
    void recommendNearEqualTimes()
    {
        const QList<TimeCost> pts{{19.0 / 60, 36.52}, {20.0 / 60, 6.34}};
        const QList<qsizetype> f = paretoFrontier(pts);
        QCOMPARE(f.size(), 2);
        QCOMPARE(recommendPoint(pts, f, 0.5).value_or(-1), qsizetype(1));
        QCOMPARE(recommendPoint(pts, f, 0.9).value_or(-1), qsizetype(1)); // 0.9 x 5 % < 0.1 x 176 %
        QCOMPARE(recommendPoint(pts, f, 1.0).value_or(-1), qsizetype(0)); // time only
        QVERIFY(std::abs(recommendationScore(pts.at(1), 19.0 / 60, 6.34, 0.5) - 0.5 * std::log(20.0 / 19)) <
                1e-12);
    }

    // The pick does not depend on other points that do not win themselves (min-max normalisation did: a
    // slow, slightly cheaper point stretched the ranges and moved the pick from (2,4) to (4,3)).
    void recommendIgnoresPointsThatDoNotWin()
    {
        const QList<TimeCost> base{{1, 10}, {2, 4}, {4, 3}};
        QList<TimeCost> more = base;
        more.append({100, 2.9});
        for (double w : {0.2, 0.4, 0.5, 0.6, 0.8}) {
            const auto a = recommendPoint(base, paretoFrontier(base), w);
            const auto b = recommendPoint(more, paretoFrontier(more), w);
            QVERIFY(a && b);
            QCOMPARE(*b, *a);
        }
        QCOMPARE(recommendPoint(base, paretoFrontier(base), 0.5).value_or(-1), qsizetype(1)); // t x c = 8
    }

    // A zero cost or time (no log scale): the former min-max scale, t in [1,4], c in [0,10]: 0.5, 0.417, 0.5.
    void recommendMinMaxFallback()
    {
        const QList<TimeCost> pts{{1, 10}, {2, 5}, {4, 0}};
        QCOMPARE(recommendPoint(pts, paretoFrontier(pts), 0.5).value_or(-1), qsizetype(1));
        QVERIFY(std::isnan(recommendationScore(pts.at(2), 1, 0, 0.5)));
    }

    void recommendSingleAndEqual()
    {
        QCOMPARE(recommendPoint({{2, 2}}, {0}, 0.5).value_or(-1), qsizetype(0));
        // Equal points: the lowest index wins.
        const QList<TimeCost> eq{{2, 2}, {2, 2}, {2, 2}};
        QCOMPARE(recommendPoint(eq, paretoFrontier(eq), 0.5).value_or(-1), qsizetype(0));
        QVERIFY(!recommendPoint({}, {}, 0.5));
    }
};

QTEST_APPLESS_MAIN(TestFrontier)
#include "test_frontier.moc"

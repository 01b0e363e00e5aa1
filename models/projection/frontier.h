#pragma once

#include <QList>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace gf {

/// One point of the efficiency plot: x = time of the run (h), y = its cost (USD). Lower is better for both.
struct TimeCost
{
    double time = 0;
    double cost = 0;
};

/// a dominates b: a is no slower and no dearer, and strictly better in at least one of the two.
/// Equal points do not dominate each other.
inline bool dominates(const TimeCost &a, const TimeCost &b)
{
    return a.time <= b.time && a.cost <= b.cost && (a.time < b.time || a.cost < b.cost);
}

/// The Pareto frontier: indices of the points that no other point dominates, sorted by
/// (time, cost, index). Points with a NaN or infinite coordinate are never on it.
/// Ties: equal points (same time and same cost) are ALL on the frontier when one of them is, so
/// the result does not depend on the input order; of points with the same time only the
/// cheapest (and its equals) can be on it.
/// O(n) prefilter (TimeBinFilter) then O(m log m) sort + sweep of the m survivors: O(n log n) worst case.
QList<qsizetype> paretoFrontier(const QList<TimeCost> &points);
/// Same result by sort + sweep only (no prefilter); O(n log n).
QList<qsizetype> paretoFrontierSorted(const QList<TimeCost> &points);
/// Reference implementation: every pair compared, O(n^2). For tests and the benchmark.
QList<qsizetype> paretoFrontierNaive(const QList<TimeCost> &points);

/// A point handed to the sweep: coordinates and the caller's index.
struct FrontierCandidate
{
    double time;
    double cost;
    qsizetype index;
};
/// Sorts the candidates by (time, cost, index) and returns the indices of the non-dominated ones in
/// that order. Candidates must have finite coordinates.
QList<qsizetype> sweepFrontier(std::vector<FrontierCandidate> &candidates);

/// O(n) prefilter that discards most dominated points before the sort.
/// Times are bucketed by the top 16 bits of their IEEE-754 pattern (sign, exponent and 4 mantissa
/// bits: 16 buckets per doubling of time, a monotone key for times > 0), clamped to the 1024 buckets
/// between 2^-32 and 2^32 (times <= 0 and tiny times share the first bucket, huge ones the last).
/// Any monotone non-decreasing bucketing keeps the rule exact: a point whose cost is >= the cheapest
/// cost of a strictly earlier bucket is dominated by that cheaper and strictly faster point, so it
/// can be skipped; the rest are candidates. 8 KB per filter.
class TimeBinFilter
{
public:
    TimeBinFilter();
    static int binOf(double time);
    void add(double time, double cost);
    void merge(const TimeBinFilter &other);
    /// Call once after every add/merge and before mayBeOnFrontier.
    void finish();
    bool mayBeOnFrontier(double time, double cost) const
    {
        return cost < m_min[static_cast<std::size_t>(binOf(time))];
    }

private:
    std::vector<double> m_min; ///< per bin: min cost in it; after finish(): min cost of all earlier bins
    int m_lo;
    int m_hi;
};

/// Deadline (max hours) and budget (max USD): the feasible set is the box time <= deadline, cost <= budget.
/// The frontier of the feasible set is the feasible part of the frontier (a dominator of a feasible
/// point is itself feasible), so constraints never require recomputing the frontier.
struct FrontierConstraints
{
    std::optional<double> deadlineHours;
    std::optional<double> budgetUsd;
    bool admits(const TimeCost &p) const
    {
        return (!deadlineHours || p.time <= *deadlineHours) && (!budgetUsd || p.cost <= *budgetUsd);
    }
};

/// The recommended point for a cost-vs-time weight w in [0, 1] (clamped): among the feasible
/// frontier points, minimise the relative (log) score  w * ln(t / tmin) + (1 - w) * ln(c / cmin)
/// (recommendationScore; tmin, cmin over the feasible frontier), i.e. t^w * c^(1-w): at w = 0.5 a point
/// x % faster is worth at most x % more money. The pick does not depend on which other points are on
/// the frontier (tmin and cmin shift every score alike), so near-equal times never buy a multiple of the
/// cost. When a time or cost is not positive, the min-max scale w * (t - tmin)/(tmax - tmin) +
/// (1 - w) * (c - cmin)/(cmax - cmin) is used instead. w = 1: the fastest, w = 0: the cheapest.
/// Ties: lower cost, then lower time, then lower index.
/// `frontier` holds indices into `points`. nullopt when no frontier point is feasible.
std::optional<qsizetype> recommendPoint(const QList<TimeCost> &points, const QList<qsizetype> &frontier,
                                        double weight, const FrontierConstraints &constraints = {});
/// The score recommendPoint minimises on its log scale, relative to the fastest and cheapest feasible
/// frontier points (0 = both at once); NaN when a figure is not positive.
double recommendationScore(const TimeCost &point, double minTime, double minCost, double weight);

/// The last step of a projection (projectOffers, projectTable): the frontier of the candidates (eligible
/// points past the time-bin prefilter), its points marked, and the recommended one among its feasible points.
/// `pointAt(index)` gives the point (ProjectedOffer or a compact point: onFrontier, feasible, recommended,
/// totalHours, costUsd).
template <class PointAt>
void markFrontier(std::vector<FrontierCandidate> &candidates, double weight, PointAt pointAt)
{
    const QList<qsizetype> frontier = sweepFrontier(candidates);
    QList<TimeCost> feasibleFrontier;
    QList<qsizetype> feasibleIndex;
    for (qsizetype idx : frontier) {
        auto &p = pointAt(idx);
        p.onFrontier = true;
        if (p.feasible) {
            feasibleFrontier.append({p.totalHours, p.costUsd});
            feasibleIndex.append(idx);
        }
    }
    QList<qsizetype> all(feasibleFrontier.size());
    for (qsizetype k = 0; k < all.size(); ++k)
        all[k] = k;
    if (const auto best = recommendPoint(feasibleFrontier, all, weight))
        pointAt(feasibleIndex.at(*best)).recommended = true;
}

} // namespace gf

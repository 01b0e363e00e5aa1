#include "projection/frontier.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gf {

namespace {
constexpr int kBinCount = 1024;
constexpr int kFirstKey = (1023 - 32) << 4; // top 16 bits of 2^-32: exponent field, 4 mantissa bits
constexpr double kInf = std::numeric_limits<double>::infinity();

bool finitePoint(const TimeCost &p)
{
    return std::isfinite(p.time) && std::isfinite(p.cost);
}

bool candidateLess(const FrontierCandidate &a, const FrontierCandidate &b)
{
    if (a.time != b.time)
        return a.time < b.time;
    if (a.cost != b.cost)
        return a.cost < b.cost;
    return a.index < b.index;
}
} // namespace

QList<qsizetype> sweepFrontier(std::vector<FrontierCandidate> &c)
{
    std::sort(c.begin(), c.end(), candidateLess);
    QList<qsizetype> out;
    double bestBefore = kInf; // cheapest cost among strictly faster points
    std::size_t i = 0;
    while (i < c.size()) {
        // One group of equal times: its first element is the cheapest.
        const double t = c[i].time;
        const double groupMin = c[i].cost;
        std::size_t j = i;
        if (groupMin < bestBefore) {
            // Every point of the group with the group's minimal cost is on the frontier (equal points all
            // are).
            while (j < c.size() && c[j].time == t && c[j].cost == groupMin)
                out.append(c[j++].index);
            bestBefore = groupMin;
        }
        while (j < c.size() && c[j].time == t)
            ++j;
        i = j;
    }
    return out;
}

TimeBinFilter::TimeBinFilter() : m_min(kBinCount, kInf), m_lo(kBinCount), m_hi(-1) {}

int TimeBinFilter::binOf(double time)
{
    if (!(time > 0))
        return 0;
    quint64 bits = 0;
    std::memcpy(&bits, &time, sizeof bits);
    // Positive doubles: the bit pattern is monotone in the value, and so is the clamp.
    return std::clamp(static_cast<int>(bits >> 48) - kFirstKey, 0, kBinCount - 1);
}

void TimeBinFilter::add(double time, double cost)
{
    const int b = binOf(time);
    double &m = m_min[static_cast<std::size_t>(b)];
    if (cost < m)
        m = cost;
    m_lo = std::min(m_lo, b);
    m_hi = std::max(m_hi, b);
}

void TimeBinFilter::merge(const TimeBinFilter &other)
{
    for (int b = other.m_lo; b <= other.m_hi; ++b) {
        double &m = m_min[static_cast<std::size_t>(b)];
        m = std::min(m, other.m_min[static_cast<std::size_t>(b)]);
    }
    m_lo = std::min(m_lo, other.m_lo);
    m_hi = std::max(m_hi, other.m_hi);
}

void TimeBinFilter::finish()
{
    // Exclusive prefix minimum: m_min[b] becomes the cheapest cost in bins < b.
    double running = kInf;
    for (int b = 0; b < kBinCount; ++b) {
        double &m = m_min[static_cast<std::size_t>(b)];
        const double own = m;
        m = running;
        running = std::min(running, own);
    }
}

QList<qsizetype> paretoFrontierSorted(const QList<TimeCost> &points)
{
    std::vector<FrontierCandidate> c;
    c.reserve(static_cast<std::size_t>(points.size()));
    for (qsizetype i = 0; i < points.size(); ++i)
        if (finitePoint(points.at(i)))
            c.push_back({points.at(i).time, points.at(i).cost, i});
    return sweepFrontier(c);
}

QList<qsizetype> paretoFrontier(const QList<TimeCost> &points)
{
    TimeBinFilter bins;
    for (const TimeCost &p : points)
        if (finitePoint(p))
            bins.add(p.time, p.cost);
    bins.finish();
    std::vector<FrontierCandidate> c;
    for (qsizetype i = 0; i < points.size(); ++i) {
        const TimeCost &p = points.at(i);
        if (finitePoint(p) && bins.mayBeOnFrontier(p.time, p.cost))
            c.push_back({p.time, p.cost, i});
    }
    return sweepFrontier(c);
}

QList<qsizetype> paretoFrontierNaive(const QList<TimeCost> &points)
{
    std::vector<FrontierCandidate> on;
    for (qsizetype i = 0; i < points.size(); ++i) {
        if (!finitePoint(points.at(i)))
            continue;
        bool dominated = false;
        for (qsizetype j = 0; j < points.size() && !dominated; ++j)
            dominated = j != i && finitePoint(points.at(j)) && dominates(points.at(j), points.at(i));
        if (!dominated)
            on.push_back({points.at(i).time, points.at(i).cost, i});
    }
    std::sort(on.begin(), on.end(), candidateLess);
    QList<qsizetype> out;
    out.reserve(static_cast<qsizetype>(on.size()));
    for (const FrontierCandidate &f : on)
        out.append(f.index);
    return out;
}

std::optional<qsizetype> recommendPoint(const QList<TimeCost> &points, const QList<qsizetype> &frontier,
                                        double weight, const FrontierConstraints &constraints)
{
    const double w = std::isfinite(weight) ? std::clamp(weight, 0.0, 1.0) : 0.5;
    QList<qsizetype> feasible;
    double tMin = kInf, tMax = -kInf, cMin = kInf, cMax = -kInf;
    for (qsizetype idx : frontier) {
        if (idx < 0 || idx >= points.size())
            continue;
        const TimeCost &p = points.at(idx);
        if (!finitePoint(p) || !constraints.admits(p))
            continue;
        feasible.append(idx);
        tMin = std::min(tMin, p.time);
        tMax = std::max(tMax, p.time);
        cMin = std::min(cMin, p.cost);
        cMax = std::max(cMax, p.cost);
    }
    if (feasible.isEmpty())
        return std::nullopt;
    // Relative (log) scale when every time and cost is positive: a point 10 % faster is worth up to
    // 10 % more money at w = 0.5, whatever else is on the frontier. Else (a free or instant point) the
    // min-max scale over the feasible frontier.
    const bool logScale = tMin > 0 && cMin > 0;
    const double tRange = tMax - tMin;
    const double cRange = cMax - cMin;
    std::optional<qsizetype> best;
    double bestScore = kInf;
    for (qsizetype idx : std::as_const(feasible)) {
        const TimeCost &p = points.at(idx);
        double score = 0;
        if (logScale) {
            score = w * std::log(p.time / tMin) + (1.0 - w) * std::log(p.cost / cMin);
        } else {
            const double nt = tRange > 0 ? (p.time - tMin) / tRange : 0.0;
            const double nc = cRange > 0 ? (p.cost - cMin) / cRange : 0.0;
            score = w * nt + (1.0 - w) * nc;
        }
        bool better = !best || score < bestScore;
        if (best && score == bestScore) {
            // A tie goes to the cheaper point (then the faster, then the lower index).
            const TimeCost &q = points.at(*best);
            better = p.cost < q.cost ||
                     (p.cost == q.cost && (p.time < q.time || (p.time == q.time && idx < *best)));
        }
        if (better) {
            best = idx;
            bestScore = score;
        }
    }
    return best;
}

double recommendationScore(const TimeCost &point, double minTime, double minCost, double weight)
{
    const double w = std::isfinite(weight) ? std::clamp(weight, 0.0, 1.0) : 0.5;
    if (!(minTime > 0) || !(minCost > 0) || !(point.time > 0) || !(point.cost > 0))
        return std::numeric_limits<double>::quiet_NaN();
    return w * std::log(point.time / minTime) + (1.0 - w) * std::log(point.cost / minCost);
}

} // namespace gf

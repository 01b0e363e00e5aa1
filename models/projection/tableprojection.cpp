#include "projection/tableprojection.h"

#include "projection/frontier.h"
#include "util/hugepages.h"

#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <limits>
#include <vector>

namespace gf {

namespace {

/// Rows [begin, end) of the table, projected by one thread.
struct TableChunk
{
    qsizetype begin = 0;
    qsizetype end = 0;
    std::vector<qint32> rows; ///< its rows that pass the filter
    qsizetype offerBegin = 0; ///< index of its first such offer among all that pass
    qsizetype pointBegin = 0;
    qsizetype pointCount = 0;
    TimeBinFilter bins;
};

} // namespace

CompactPoint compactPointOf(const ProjectedOffer &p)
{
    CompactPoint c;
    c.totalHours = p.totalHours;
    c.costUsd = p.costUsd;
    c.offerIndex = p.offerIndex;
    c.flags = p.flags;
    c.nodes = p.nodes;
    c.mode = p.mode;
    c.projected = p.projected;
    c.onFrontier = p.onFrontier;
    c.feasible = p.feasible;
    c.recommended = p.recommended;
    c.suspectExcluded = p.suspectExcluded;
    return c;
}

namespace {

/// compactOf's way back: a point with what the compact point keeps (its marks, flags, time and cost), without
/// re-projecting it.
ProjectedOffer markedPointOf(const CompactPoint &c)
{
    ProjectedOffer p;
    p.offerIndex = c.offerIndex;
    p.mode = c.mode;
    p.nodes = c.nodes;
    p.projected = c.projected;
    p.onFrontier = c.onFrontier;
    p.feasible = c.feasible;
    p.recommended = c.recommended;
    p.suspectExcluded = c.suspectExcluded;
    p.flags = c.flags;
    p.totalHours = c.totalHours;
    p.costUsd = c.costUsd;
    return p;
}

template <class Fn> void forEachTableChunk(std::vector<TableChunk> &chunks, bool parallel, Fn fn)
{
    if (parallel && chunks.size() > 1)
        QtConcurrent::blockingMap(chunks, fn);
    else
        for (TableChunk &ch : chunks)
            fn(ch);
}

} // namespace

TableProjection::TableProjection(const OfferTable &table, const ProjectionRequest &request)
    : m_table(table), m_request(request)
{
    m_request.options.measurements = request.measurements;
    const ProjectionOptions &opt = m_request.options;
    auto newProjector = [&] {
        return std::make_unique<OfferProjector>(m_request.workload, opt, m_request.calibration);
    };
    m_projector = newProjector();

    // The chunks of projectOffers: large enough to amortise scheduling, many enough for a few cores.
    constexpr qsizetype kChunk = 1 << 16;
    std::vector<TableChunk> chunks;
    for (qsizetype b = 0; b < table.size(); b += kChunk) {
        TableChunk ch;
        ch.begin = b;
        ch.end = std::min(table.size(), b + kChunk);
        chunks.push_back(std::move(ch));
    }
    const bool parallel = opt.parallel && chunks.size() > 1;

    // Pass 1: the offers that pass the filter and the number of their points. Counted first, the points
    // are written into one list of the exact size (a list per chunk, then joined, held them twice).
    const bool filtered = !m_request.filter.isEmpty();
    forEachTableChunk(chunks, parallel, [&](TableChunk &ch) {
        OfferMatcher matcher(m_request.filter);
        const auto projector = newProjector();
        for (qsizetype row = ch.begin; row < ch.end; ++row) {
            const Offer o = table.view(row);
            if (filtered && !matcher.accepts(o))
                continue;
            ch.rows.push_back(static_cast<qint32>(row));
            ch.pointCount += projector->pointCount(o);
        }
    });
    qsizetype offers = 0, total = 0;
    for (TableChunk &ch : chunks) {
        ch.offerBegin = offers;
        ch.pointBegin = total;
        offers += static_cast<qsizetype>(ch.rows.size());
        total += ch.pointCount;
    }
    m_rows.reserve(offers);
    for (const TableChunk &ch : chunks)
        m_rows.append(QList<qint32>(ch.rows.begin(), ch.rows.end()));
    m_points.reserve(total);
    adviseHugePages(m_points.data(), static_cast<std::size_t>(total) * sizeof(CompactPoint));
    m_points.resize(total);

    // Pass 2: every point, in projectOffers' order, compacted into its slot.
    CompactPoint *data = m_points.data();
    forEachTableChunk(chunks, parallel, [&](TableChunk &ch) {
        const auto projector = newProjector();
        std::vector<ProjectedOffer> buffer(static_cast<std::size_t>(projector->maxPoints()));
        CompactPoint *out = data + ch.pointBegin;
        for (std::size_t k = 0; k < ch.rows.size(); ++k) {
            const Offer o = table.view(ch.rows[k]);
            const auto index = static_cast<qint32>(ch.offerBegin + static_cast<qsizetype>(k));
            const int n = projector->project(o, index, buffer.data(), &ch.bins);
            for (int j = 0; j < n; ++j)
                *out++ = compactPointOf(buffer[static_cast<std::size_t>(j)]);
        }
        Q_ASSERT(out == data + ch.pointBegin + ch.pointCount);
        ch.rows = {};
    });

    // The frontier and the recommended point, as projectOffers marks them.
    TimeBinFilter bins;
    for (const TableChunk &ch : chunks)
        bins.merge(ch.bins);
    bins.finish();
    std::vector<FrontierCandidate> candidates;
    for (qsizetype i = 0; i < total; ++i) {
        const CompactPoint &p = data[i];
        if (p.eligible() && bins.mayBeOnFrontier(p.totalHours, p.costUsd))
            candidates.push_back({p.totalHours, p.costUsd, i});
    }
    markFrontier(candidates, opt.weight, [&](qsizetype idx) -> CompactPoint & { return data[idx]; });

    // The counts, as projectCatalog counts them.
    for (qsizetype i = 0; i < total; ++i) {
        const CompactPoint &p = data[i];
        m_frontierCount += p.onFrontier ? 1 : 0;
        m_projectedCount += p.projected ? 1 : 0;
        m_feasibleCount += p.feasible ? 1 : 0;
        if (p.recommended && m_recommended < 0)
            m_recommended = i;
    }
}

TableProjection::~TableProjection() = default;

Offer TableProjection::offer(qint32 offerIndex) const
{
    return m_table.view(m_rows.at(offerIndex));
}

ProjectedOffer TableProjection::point(qsizetype i, Offer *offerOut) const
{
    const CompactPoint &c = m_points.at(i);
    Offer o = offer(c.offerIndex);
    ProjectedOffer p = m_projector->projectPoint(o, c.offerIndex, c.mode, c.nodes);
    p.onFrontier = c.onFrontier;
    p.recommended = c.recommended;
    if (offerOut)
        *offerOut = std::move(o);
    return p;
}

void TableProjection::prefetch(const QList<qsizetype> &order, qsizetype k) const
{
    // Three loads depend on each other: the point, its offer's row number, the row. Each is started a
    // few points before the next needs it.
    constexpr qsizetype kAhead = 4;
    const qsizetype n = order.size();
#if defined(__GNUC__)
    if (k + 3 * kAhead < n)
        __builtin_prefetch(m_points.constData() + order.at(k + 3 * kAhead));
    if (k + 2 * kAhead < n)
        __builtin_prefetch(m_rows.constData() + m_points.at(order.at(k + 2 * kAhead)).offerIndex);
#endif
    if (k + kAhead < n)
        m_table.prefetch(m_rows.at(m_points.at(order.at(k + kAhead)).offerIndex));
}

NoRecommendation TableProjection::whyNoRecommendation() const
{
    // What explainNoRecommendation reads of a point: its marks, flags and offer.
    auto marks = [&](qsizetype i) { return markedPointOf(m_points.at(i)); };
    return explainNoRecommendation(
        offerCount(), m_points.size(), marks, [&](qint32 i) { return offer(i); }, m_request.options);
}

void sortByTime(const QList<CompactPoint> &points, QList<qsizetype> &order)
{
    // The keys side by side, not looked up in the points per comparison (over a million points the
    // cache misses of those lookups cost more than the comparisons); ties by position in `order`, which
    // is what a stable sort keeps, so no merge buffer is needed. 24 bytes a point.
    struct Key
    {
        double totalHours;
        double costUsd;
        quint32 point;
        quint32 position : 31;
        quint32 projected : 1;
    };
    static_assert(sizeof(Key) == 24);
    Q_ASSERT(points.size() <= std::numeric_limits<qint32>::max());
    std::vector<Key> keys;
    keys.reserve(static_cast<std::size_t>(order.size()));
    for (qsizetype k = 0; k < order.size(); ++k) {
        const CompactPoint &p = points.at(order.at(k));
        keys.push_back({p.totalHours, p.costUsd, static_cast<quint32>(order.at(k)), static_cast<quint32>(k),
                        p.projected ? 1u : 0u});
    }
    std::sort(keys.begin(), keys.end(), [](const Key &a, const Key &b) {
        if (fasterThan(a, b))
            return true;
        if (fasterThan(b, a))
            return false;
        return a.position < b.position;
    });
    for (std::size_t k = 0; k < keys.size(); ++k)
        order[static_cast<qsizetype>(k)] = keys[k].point;
}

} // namespace gf

// The report's analysis: what every format shows (warnings, spot savings, single-GPU spot instances
// versus one multi-GPU instance), computed once into report::Data by build().
#include "report/reportdata.h"
#include "report/reportnumbers.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/answer.h"
#include "projection/catalogprojection.h"
#include "projection/norecommendation.h"
#include "projection/pointexplanation.h"
#include "util/format.h"
#include "util/printable.h"
#include "util/shellquote.h"

#include <QHash>
#include <QLocale>
#include <QSet>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace gf::report {

namespace {

/// A ProjectionResults' offers and points, as they are.
class ListPoints final : public Points
{
public:
    explicit ListPoints(const ProjectionResults &r) : m_r(r)
    {
        m_compact.reserve(r.points.size());
        for (const ProjectedOffer &p : r.points)
            m_compact.append(compactPointOf(p));
    }
    qsizetype offerCount() const override { return m_r.offers.size(); }
    const QList<CompactPoint> &compact() const override { return m_compact; }
    ProjectedOffer point(qsizetype i, Offer *offer) const override
    {
        const ProjectedOffer &p = m_r.points.at(i);
        if (offer)
            *offer = m_r.offers.at(p.offerIndex);
        return p;
    }
    Offer offer(qint32 offerIndex) const override { return m_r.offers.at(offerIndex); }
    NoRecommendation whyNoRecommendation() const override
    {
        return explainNoRecommendation(m_r.offers, m_r.points, m_r.options);
    }

private:
    const ProjectionResults &m_r;
    QList<CompactPoint> m_compact;
};

/// A TableProjection's compact points; a point read is projected again.
class TablePoints final : public Points
{
public:
    explicit TablePoints(const TableProjection &t) : m_t(t) {}
    qsizetype offerCount() const override { return m_t.offerCount(); }
    const QList<CompactPoint> &compact() const override { return m_t.points(); }
    ProjectedOffer point(qsizetype i, Offer *offer) const override { return m_t.point(i, offer); }
    Offer offer(qint32 offerIndex) const override { return m_t.offer(offerIndex); }
    void prefetch(const QList<qsizetype> &order, qsizetype k) const override { m_t.prefetch(order, k); }
    NoRecommendation whyNoRecommendation() const override { return m_t.whyNoRecommendation(); }

private:
    const TableProjection &m_t;
};

/// The projection's settings and counts of a TableProjection, in a ProjectionResults without offers or
/// points (as projectCatalog fills them).
std::shared_ptr<const ProjectionResults> settingsOf(const TableProjection &t)
{
    auto r = std::make_shared<ProjectionResults>();
    r->filter = t.filter();
    r->workload = t.workload();
    r->options = t.options();
    r->calibration = t.calibration();
    r->recommended = t.recommended();
    r->frontierCount = t.frontierCount();
    r->projectedCount = t.projectedCount();
    r->feasibleCount = t.feasibleCount();
    r->gpuSpeeds = gpuSpeedsOf(r->workload, r->options, r->calibration);
    return r;
}

/// What the analysis reads of every offer, gathered in one pass over them (a million offers of an
/// OfferTable are read once, not once per section).
struct OfferFacts
{
    // Stale prices: provider -> (offers, max age), and the date of the oldest.
    std::map<QString, std::pair<int, qint64>> staleByProvider;
    std::map<QString, QDate> staleDate;
    int staleOffers = 0;
    std::map<QString, int> unrecognised;
    int unrecognisedOffers = 0;
    std::map<QString, int> suspectByFlag;
    int suspectOffers = 0;
    // Spot savings per GPU id (sorted by id), the discounts of offers with both prices.
    std::map<QString, SpotSaving> byGpu;
    QHash<QString, qint32> lastOfGpu; ///< the last offer of each GPU id
    QHash<QString, QList<double>> discounts;
    // Per GPU id: single-GPU offers with a spot price, whole-number multi-GPU offers with an on-demand
    // price.
    std::map<QString, QList<qint32>> singles, multis;
    QSet<qint64> snapshots;
};

OfferFacts offerFacts(Data &d)
{
    const ProjectionOptions &opt = d.r->options;
    OfferFacts f;
    const qsizetype n = d.offerCount();
    d.offerProvider.assign(static_cast<std::size_t>(n), -1);
    const QStringList providers = knownProviders();
    QHash<QString, qint8> providerIndex;
    for (qint32 i = 0; i < n; ++i) {
        const Offer o = d.points->offer(i);
        auto pi = providerIndex.constFind(o.provider);
        if (pi == providerIndex.cend())
            pi = providerIndex.insert(o.provider, static_cast<qint8>(providers.indexOf(o.provider)));
        d.offerProvider[static_cast<std::size_t>(i)] = *pi;
        f.snapshots.insert(o.snapshotId);

        const qint64 age = priceAgeDays(o, d.now);
        if (age > opt.staleDays) {
            ++f.staleOffers;
            auto &e = f.staleByProvider[o.provider];
            ++e.first;
            if (age > e.second) {
                e.second = age;
                f.staleDate[o.provider] = o.dataDate.isValid() ? o.dataDate : o.fetchedAt.date();
            }
        }
        if (!o.recognised()) {
            ++f.unrecognisedOffers;
            ++f.unrecognised[QStringLiteral("%1: \"%2\"")
                                 .arg(providerDisplayName(o.provider), shown(o.gpuRawName))];
        }
        if (const int flags = o.flags & (kSuspectSpotFlags | kSuspectOnDemandFlags); flags != 0) {
            ++f.suspectOffers;
            for (const QString &name : offerFlagNames(flags))
                ++f.suspectByFlag[QString(name).replace(u'_', u'-')];
        }
        if (!o.recognised())
            continue;

        auto it = f.byGpu.find(o.gpuId);
        if (it == f.byGpu.end()) {
            it = f.byGpu.emplace(o.gpuId, SpotSaving{}).first;
            it->second.gpuId = o.gpuId;
        }
        SpotSaving &s = it->second;
        f.lastOfGpu[o.gpuId] = i; // its name is the last offer's (gpuModelName)
        ++s.offers;
        const bool od = o.onDemandUsdH && *o.onDemandUsdH > 0;
        const bool sp = o.spotUsdH && *o.spotUsdH > 0;
        if (o.gpuCount > 0) {
            if (od) {
                const double v = *o.onDemandUsdH / o.gpuCount;
                s.onDemandUsdPerGpuHour = s.onDemandUsdPerGpuHour ? std::min(*s.onDemandUsdPerGpuHour, v) : v;
            }
            if (sp) {
                const double v = *o.spotUsdH / o.gpuCount;
                s.spotUsdPerGpuHour = s.spotUsdPerGpuHour ? std::min(*s.spotUsdPerGpuHour, v) : v;
            }
        }
        if (od && sp) {
            ++s.offersWithSpot;
            f.discounts[o.gpuId].append(100.0 * (1.0 - *o.spotUsdH / *o.onDemandUsdH));
        }

        if (o.gpuCount == 1 && sp)
            f.singles[o.gpuId].append(i);
        else if (o.gpuCount >= 2 && o.gpuCount <= 255 && o.gpuCount == std::floor(o.gpuCount) && od)
            f.multis[o.gpuId].append(i);
    }
    for (auto &[id, s] : f.byGpu)
        s.gpuName = shown(gpuModelName(d.points->offer(f.lastOfGpu.value(id))));
    return f;
}

void addWarnings(Data &d, const OfferFacts &f)
{
    const ProjectionResults &r = *d.r;
    const ProjectionOptions &opt = r.options;

    // Calibration caveat.
    if (!r.calibration.measured)
        d.warnings.append(
            {QStringLiteral("datasheet-only"),
             QStringLiteral("No GPU probe calibrates these projections: speeds come from datasheet peaks and "
                            "default efficiencies, so absolute times may be off by 30 % or more (the "
                            "ranking is more reliable). Run 'gpufrontier-cli probe' on a GPU you have."),
             {}});

    // Prices older than the stale threshold, per provider.
    if (f.staleOffers > 0) {
        QStringList items;
        for (const auto &[provider, e] : f.staleByProvider)
            items.append(QStringLiteral("%1: %2, prices dated %3 (%4 old)")
                             .arg(providerDisplayName(provider), offersText(e.first),
                                  f.staleDate.at(provider).toString(Qt::ISODate), formatAgeDays(e.second)));
        d.warnings.append(
            {QStringLiteral("stale-prices"),
             QStringLiteral("%1 of %2 offers have prices older than %3 days: prices and spot discounts "
                            "change often; refresh the catalogs before deciding.")
                 .arg(f.staleOffers)
                 .arg(d.offerCount())
                 .arg(opt.staleDays),
             items});
    }

    // Unrecognised GPUs.
    if (f.unrecognisedOffers > 0) {
        QStringList items;
        for (const auto &[name, n] : f.unrecognised)
            items.append(QStringLiteral("%1 (%2)").arg(name, offersText(n)));
        d.warnings.append(
            {QStringLiteral("unrecognised-gpus"),
             QStringLiteral("%1 offers have a GPU name that matches no known GPU model: they are not "
                            "projected and appear in no comparison.")
                 .arg(f.unrecognisedOffers),
             capped(items, 12)});
    }

    // Suspect prices (price-sanity flags), per flag.
    if (f.suspectOffers > 0) {
        QStringList items;
        for (const auto &[name, n] : f.suspectByFlag)
            items.append(QStringLiteral("%1: %2").arg(name, offersText(n)));
        d.warnings.append(
            {QStringLiteral("suspect-prices"),
             opt.includeSuspect
                 ? QStringLiteral(
                       "%1 offers carry a suspect price (price-sanity flags) and are INCLUDED in the "
                       "frontier and the recommendation.")
                       .arg(f.suspectOffers)
                 : QStringLiteral(
                       "%1 offers carry a suspect price (price-sanity flags): the flagged option is "
                       "listed but excluded from the frontier and the recommendation.")
                       .arg(f.suspectOffers),
             items});
    }

    // Memory too small.
    std::map<QString, int> tooSmall;
    QSet<qint32> tooSmallOffers;
    for (const CompactPoint &p : d.points->compact()) {
        if (!hasFlag(p.flags, ProjectionFlag::MemoryTooSmall) || tooSmallOffers.contains(p.offerIndex))
            continue;
        tooSmallOffers.insert(p.offerIndex);
        const Offer o = d.points->offer(p.offerIndex);
        QString mem;
        if (o.gpuMemGb && o.gpuCount > 0 && o.gpuCount < 1) // a share of one GPU gets its share of the memory
            mem = QStringLiteral(" (%1 of a GPU: %2 GB)")
                      .arg(formatNumber(o.gpuCount), formatNumber(*o.gpuMemGb * o.gpuCount, 1));
        else if (o.gpuMemGb)
            mem = QStringLiteral(" (%1 GB)").arg(formatNumber(*o.gpuMemGb));
        ++tooSmall[shown(gpuModelName(o)) + mem];
    }
    if (!tooSmallOffers.isEmpty()) {
        QStringList items;
        for (const auto &[name, n] : tooSmall)
            items.append(QStringLiteral("%1: %2").arg(name, offersText(n)));
        d.warnings.append(
            {QStringLiteral("memory-too-small"),
             QStringLiteral("%1 offers have less GPU memory than the workload needs (%2 GB per GPU): they "
                            "cannot run it and are never on the frontier.")
                 .arg(tooSmallOffers.size())
                 .arg(formatNumber(r.workload.memoryGb, 1)),
             items});
    }

    // Assumptions that dominate the result, looked at on the frontier and the recommended point.
    QList<qsizetype> key = d.frontier;
    if (d.recommended >= 0 && !key.contains(d.recommended))
        key.append(d.recommended);
    QStringList spotItems, setupItems, commItems;
    double worstSpot = 0, worstSetup = 0;
    const double setupHours = opt.setupMinutes / 60.0;
    for (qsizetype i : std::as_const(key)) {
        const ProjectedOffer p = d.point(i);
        if (!p.projected || !(p.totalHours > 0))
            continue;
        const double spotShare = p.interruptionHours / p.totalHours;
        if (p.mode == PriceMode::Spot && spotShare > 0.20) {
            spotItems.append(QStringLiteral("%1: %2 of %3")
                                 .arg(pointTitle(d, i), pct(spotShare * 100), formatHours(p.totalHours)));
            worstSpot = std::max(worstSpot, spotShare);
        }
        const double setupShare = setupHours / p.totalHours;
        if (setupShare > 0.10) {
            setupItems.append(QStringLiteral("%1: %2 of %3")
                                  .arg(pointTitle(d, i), pct(setupShare * 100), formatHours(p.totalHours)));
            worstSetup = std::max(worstSetup, setupShare);
        }
        if (hasFlag(p.flags, ProjectionFlag::CommunicationBound))
            commItems.append(pointTitle(d, i));
    }
    if (!spotItems.isEmpty())
        d.warnings.append(
            {QStringLiteral("spot-overhead-dominates"),
             QStringLiteral("Expected spot interruption overhead is more than 20 % of the time on %1 of the "
                            "frontier/recommended offers (up to %2): these results depend on the assumed "
                            "interruption rate, the checkpoint interval (%3) and the restore time (%4).")
                 .arg(spotItems.size())
                 .arg(pct(worstSpot * 100), minutesText(opt.checkpointMinutes),
                      minutesText(opt.restoreMinutes)),
             capped(spotItems, 12)});
    if (!setupItems.isEmpty())
        d.warnings.append(
            {QStringLiteral("setup-dominates"),
             QStringLiteral("The setup time (%1, billed) is more than 10 % of the time on %2 of the "
                            "frontier/recommended offers (up to %3): for such short runs the setup "
                            "assumption decides the ranking.")
                 .arg(minutesText(opt.setupMinutes))
                 .arg(setupItems.size())
                 .arg(pct(worstSetup * 100)),
             capped(setupItems, 12)});
    if (!commItems.isEmpty())
        d.warnings.append(
            {QStringLiteral("communication-bound"),
             QStringLiteral("On %1 frontier/recommended offers the gradient exchange takes more than half "
                            "of each step: the interconnect and network assumptions decide their speed.")
                 .arg(commItems.size()),
             capped(commItems, 12)});

    if (const NoRecommendation why = d.points->whyNoRecommendation(); !why.facts.isEmpty())
        d.warnings.append({QStringLiteral("nothing-feasible"),
                           QStringLiteral("Nothing is recommended: %1.").arg(why.facts),
                           {}});
}

void addSpotSavings(Data &d, OfferFacts &f)
{
    const QList<CompactPoint> &points = d.points->compact();
    // The slot of each offer's GPU id (the offers' ids looked up once per id, not once per point).
    QHash<QString, SpotSaving *> byId;
    for (auto &[id, s] : f.byGpu)
        byId.insert(id, &s);
    std::vector<SpotSaving *> slot(static_cast<std::size_t>(d.offerCount()), nullptr);
    for (qsizetype i = 0; i < points.size(); ++i) {
        const CompactPoint &p = points.at(i);
        if (p.nodes != 1 || !p.eligible())
            continue;
        SpotSaving *&s = slot[static_cast<std::size_t>(p.offerIndex)];
        if (!s) {
            const Offer o = d.points->offer(p.offerIndex);
            s = byId.value(o.gpuId);
            if (!s)
                continue;
        }
        qsizetype &best = p.mode == PriceMode::Spot ? s->spotPoint : s->onDemandPoint;
        if (best < 0 || p.costUsd < points.at(best).costUsd)
            best = i;
    }
    QList<SpotSaving> out;
    for (auto &[id, s] : f.byGpu) {
        if (s.offersWithSpot == 0 && (s.spotPoint < 0 || s.onDemandPoint < 0))
            continue;
        if (!f.discounts.value(id).isEmpty())
            s.medianDiscountPct = median(f.discounts.value(id));
        if (s.spotPoint >= 0 && s.onDemandPoint >= 0)
            s.runSavingsPct =
                100.0 * (1.0 - points.at(s.spotPoint).costUsd / points.at(s.onDemandPoint).costUsd);
        out.append(s);
    }
    std::stable_sort(out.begin(), out.end(), [](const SpotSaving &a, const SpotSaving &b) {
        return a.gpuName.compare(b.gpuName, Qt::CaseInsensitive) < 0;
    });
    d.spotSavings = out;
}

void addMultiNode(Data &d, const OfferFacts &f)
{
    const ProjectionResults &r = *d.r;
    // The offers compared: per GPU model with both kinds, its single-GPU spot offers and its multi-GPU
    // on-demand offers (in offer order per GPU model: the first cheapest of each kind is kept).
    std::set<int> ks;
    for (const auto &[gpu, list] : f.multis) {
        if (!f.singles.count(gpu))
            continue;
        for (qint32 i : list)
            ks.insert(static_cast<int>(d.points->offer(i).gpuCount));
    }
    if (ks.empty())
        return;
    ProjectionOptions opt = r.options;
    opt.spotPolicy = SpotPolicy::SpotAllowed;
    opt.nodeCounts = {1};
    for (int k : ks)
        opt.nodeCounts.append(k);
    opt.parallel = false;
    // Each offer projected alone (projectOffers' points, one offer at a time), nothing kept but the best.
    OfferProjector projector(r.workload, opt, r.calibration);
    std::vector<ProjectedOffer> buffer(static_cast<std::size_t>(projector.maxPoints()));
    struct Best
    {
        ProjectedOffer point;
        qint32 offer = -1;
    };
    std::map<std::pair<QString, int>, std::pair<Best, Best>> best; // (gpu, K) -> (spot, on-demand)
    auto consider = [&](qint32 index, bool single) {
        const Offer o = d.points->offer(index);
        const int n = projector.project(o, index, buffer.data());
        for (int j = 0; j < n; ++j) {
            const ProjectedOffer &p = buffer[static_cast<std::size_t>(j)];
            if (!p.eligible())
                continue;
            if (single && p.mode == PriceMode::Spot && p.nodes >= 2) {
                Best &b = best[{o.gpuId, p.nodes}].first;
                if (b.offer < 0 || p.costUsd < b.point.costUsd)
                    b = {p, index};
            } else if (!single && p.mode == PriceMode::OnDemand && p.nodes == 1) {
                Best &b = best[{o.gpuId, static_cast<int>(o.gpuCount)}].second;
                if (b.offer < 0 || p.costUsd < b.point.costUsd)
                    b = {p, index};
            }
        }
    };
    for (const auto &[gpu, list] : f.multis) {
        const auto singles = f.singles.find(gpu);
        if (singles == f.singles.end())
            continue;
        for (qint32 i : singles->second)
            consider(i, true);
        for (qint32 i : list)
            consider(i, false);
    }
    for (const auto &[key, b] : best) {
        if (b.first.offer < 0 || b.second.offer < 0)
            continue;
        MultiNodeComparison m;
        m.gpuId = key.first;
        m.gpus = key.second;
        m.spot = b.first.point;
        m.onDemand = b.second.point;
        // Frontier and recommendation refer to the report's projection, which these extra points are not part
        // of.
        m.spot.onFrontier = m.onDemand.onFrontier = false;
        m.spot.recommended = m.onDemand.recommended = false;
        m.singleOffer = d.points->offer(b.first.offer);
        m.multiOffer = d.points->offer(b.second.offer);
        m.gpuName = shown(gpuModelName(m.singleOffer));
        m.costSavingsPct = 100.0 * (1.0 - m.spot.costUsd / m.onDemand.costUsd);
        m.timeChangePct = 100.0 * (m.spot.totalHours / m.onDemand.totalHours - 1.0);
        d.multiNode.append(m);
    }
    std::stable_sort(d.multiNode.begin(), d.multiNode.end(),
                     [](const MultiNodeComparison &a, const MultiNodeComparison &b) {
                         const int c = a.gpuName.compare(b.gpuName, Qt::CaseInsensitive);
                         return c < 0 || (c == 0 && a.gpus < b.gpus);
                     });
}

} // namespace

Result<Data> build(const ReportInput &in)
{
    if (!in.results && !in.table)
        return makeError(QStringLiteral(
            "There is no projection to report on yet: wait until the projection has finished."));
    Data d;
    if (in.table) {
        d.ownResults = settingsOf(*in.table);
        d.r = d.ownResults.get();
        d.points = std::make_shared<TablePoints>(*in.table);
    } else {
        d.r = in.results.get();
        d.points = std::make_shared<ListPoints>(*in.results);
    }
    const ProjectionResults &r = *d.r;
    const QList<CompactPoint> &points = d.points->compact();
    d.input = &in;
    d.currency = in.currency;
    d.now = in.generatedAt.isValid() ? in.generatedAt.toUTC() : QDateTime::currentDateTimeUtc();
    d.now = QDateTime(d.now.date(), QTime(d.now.time().hour(), d.now.time().minute(), d.now.time().second()),
                      QTimeZone::utc())
                .toUTC(); // Qt::UTC spec: ISO text ends in "Z"
    d.title = in.title.trimmed().isEmpty() ? QStringLiteral("GPU Frontier report: %1").arg(r.workload.name)
                                           : in.title.trimmed();
    d.generator = QStringLiteral("GPU Frontier %1").arg(QStringLiteral(GPUFRONTIER_VERSION));

    for (qsizetype i = 0; i < points.size(); ++i) {
        const CompactPoint &p = points.at(i);
        d.projected += p.projected ? 1 : 0;
        d.feasible += p.feasible ? 1 : 0;
        if (p.onFrontier)
            d.frontier.append(i);
    }
    sortByTime(points, d.frontier);
    auto all = [&] {
        QList<qsizetype> list(points.size());
        std::iota(list.begin(), list.end(), qsizetype(0));
        return list;
    };

    const qsizetype offers = d.offerCount();
    const QString filterText = describeFilter(r.filter);
    switch (in.offerSet) {
    case ReportOfferSet::All:
    case ReportOfferSet::Filtered:
        d.rows = all();
        if (in.offerSet == ReportOfferSet::All && r.filter.isEmpty())
            d.offerSetText = QStringLiteral("All %1 offers of the current catalogs").arg(offers);
        else if (r.filter.isEmpty())
            d.offerSetText = QStringLiteral("All %1 offers (no filter)").arg(offers);
        else
            d.offerSetText =
                QStringLiteral("The %1 offers matching the filter: %2").arg(offers).arg(filterText);
        if (d.rows.isEmpty())
            return makeError(
                offers == 0
                    ? QStringLiteral("The report would list no offers: the filter excludes every offer.")
                    : QStringLiteral("The report would list no offers: nothing could be projected."));
        break;
    case ReportOfferSet::Frontier:
        d.rows = d.frontier;
        d.offerSetText =
            QStringLiteral("The %1 offers on the efficiency frontier (of %2 offers%3)")
                .arg(d.frontier.size())
                .arg(offers)
                .arg(r.filter.isEmpty() ? QString() : QStringLiteral(" matching the filter: ") + filterText);
        if (d.rows.isEmpty())
            return makeError(
                QStringLiteral("No offer is on the efficiency frontier, so a frontier report would be empty "
                               "(no offer could be projected and priced)."));
        break;
    case ReportOfferSet::Selected: {
        if (in.selectedOffers.isEmpty())
            return makeError(
                QStringLiteral("No offers are selected: select offers in the table first, or report on all, "
                               "the filtered or the frontier offers."));
        QSet<qsizetype> selected(in.selectedOffers.cbegin(), in.selectedOffers.cend());
        for (qsizetype i = 0; i < points.size(); ++i)
            if (selected.contains(points.at(i).offerIndex))
                d.rows.append(i);
        d.offerSetText = QStringLiteral("%1 selected offers").arg(selected.size());
        if (d.rows.isEmpty())
            return makeError(
                QStringLiteral("The selected offers are not part of the projection (filtered out?): "
                               "nothing to report."));
        break;
    }
    }
    if (in.offerSet != ReportOfferSet::Frontier) // the frontier is in time order already
        sortByTime(points, d.rows);

    d.recommended = r.recommended;
    if (d.recommended >= 0) {
        Offer o;
        const ProjectedOffer p = d.point(d.recommended, &o);
        d.recommendedExplanation =
            explainPoint(o, p, r.workload, r.options, r.calibration, GpuSpecTable::builtin(), in.currency)
                .all();
    }
    const PicksWithinLimits picks = picksWithinLimits(points, d.rows);
    d.cheapest = picks.cheapest;
    d.fastest = picks.fastest;

    OfferFacts facts = offerFacts(d);
    // Snapshots the offers come from; else the current ones.
    for (const Snapshot &s : in.snapshots)
        if (facts.snapshots.contains(s.id))
            d.snapshots.append(s);
    if (d.snapshots.isEmpty())
        for (const Snapshot &s : in.snapshots)
            if (s.current)
                d.snapshots.append(s);
    std::stable_sort(d.snapshots.begin(), d.snapshots.end(), [](const Snapshot &a, const Snapshot &b) {
        const qsizetype ia = knownProviders().indexOf(a.provider);
        const qsizetype ib = knownProviders().indexOf(b.provider);
        return ia != ib ? ia < ib : a.id < b.id;
    });

    addSpotSavings(d, facts);
    addMultiNode(d, facts);
    addWarnings(d, facts);
    d.chart = reportChartData(
        points, d.recommended, [&d](qint32 offer) { return int(d.offerProvider[std::size_t(offer)]); },
        r.options, in.offerSet == ReportOfferSet::Selected ? d.rows : QList<qsizetype>{}, &in.currency);
    return d;
}

} // namespace gf::report

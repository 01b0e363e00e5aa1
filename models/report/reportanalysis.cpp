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
#include <set>

namespace gf::report {

namespace {

void addWarnings(Data &d)
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
    std::map<QString, std::pair<int, qint64>> staleByProvider; // provider -> (offers, max age)
    std::map<QString, QDate> staleDate;
    int staleOffers = 0;
    for (const Offer &o : r.offers) {
        const qint64 age = priceAgeDays(o, d.now);
        if (age <= opt.staleDays)
            continue;
        ++staleOffers;
        auto &e = staleByProvider[o.provider];
        ++e.first;
        if (age > e.second) {
            e.second = age;
            staleDate[o.provider] = o.dataDate.isValid() ? o.dataDate : o.fetchedAt.date();
        }
    }
    if (staleOffers > 0) {
        QStringList items;
        for (const auto &[provider, e] : staleByProvider)
            items.append(QStringLiteral("%1: %2, prices dated %3 (%4 old)")
                             .arg(providerDisplayName(provider), offersText(e.first),
                                  staleDate[provider].toString(Qt::ISODate), formatAgeDays(e.second)));
        d.warnings.append(
            {QStringLiteral("stale-prices"),
             QStringLiteral("%1 of %2 offers have prices older than %3 days: prices and spot discounts "
                            "change often; refresh the catalogs before deciding.")
                 .arg(staleOffers)
                 .arg(r.offers.size())
                 .arg(opt.staleDays),
             items});
    }

    // Unrecognised GPUs.
    std::map<QString, int> unrecognised;
    int unrecognisedOffers = 0;
    for (const Offer &o : r.offers) {
        if (o.recognised())
            continue;
        ++unrecognisedOffers;
        ++unrecognised[QStringLiteral("%1: \"%2\"")
                           .arg(providerDisplayName(o.provider), shown(o.gpuRawName))];
    }
    if (unrecognisedOffers > 0) {
        QStringList items;
        for (const auto &[name, n] : unrecognised)
            items.append(QStringLiteral("%1 (%2)").arg(name, offersText(n)));
        d.warnings.append(
            {QStringLiteral("unrecognised-gpus"),
             QStringLiteral("%1 offers have a GPU name that matches no known GPU model: they are not "
                            "projected and appear in no comparison.")
                 .arg(unrecognisedOffers),
             capped(items, 12)});
    }

    // Suspect prices (price-sanity flags), per flag.
    std::map<QString, int> suspectByFlag;
    int suspectOffers = 0;
    for (const Offer &o : r.offers) {
        const int f = o.flags & (kSuspectSpotFlags | kSuspectOnDemandFlags);
        if (f == 0)
            continue;
        ++suspectOffers;
        for (const QString &name : offerFlagNames(f))
            ++suspectByFlag[QString(name).replace(u'_', u'-')];
    }
    if (suspectOffers > 0) {
        QStringList items;
        for (const auto &[name, n] : suspectByFlag)
            items.append(QStringLiteral("%1: %2").arg(name, offersText(n)));
        d.warnings.append(
            {QStringLiteral("suspect-prices"),
             opt.includeSuspect
                 ? QStringLiteral(
                       "%1 offers carry a suspect price (price-sanity flags) and are INCLUDED in the "
                       "frontier and the recommendation.")
                       .arg(suspectOffers)
                 : QStringLiteral(
                       "%1 offers carry a suspect price (price-sanity flags): the flagged option is "
                       "listed but excluded from the frontier and the recommendation.")
                       .arg(suspectOffers),
             items});
    }

    // Memory too small.
    std::map<QString, int> tooSmall;
    QSet<qint32> tooSmallOffers;
    for (const ProjectedOffer &p : r.points) {
        if (!hasFlag(p.flags, ProjectionFlag::MemoryTooSmall) || tooSmallOffers.contains(p.offerIndex))
            continue;
        tooSmallOffers.insert(p.offerIndex);
        const Offer &o = r.offers.at(p.offerIndex);
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
        const ProjectedOffer &p = r.points.at(i);
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

    if (const NoRecommendation why = explainNoRecommendation(r.offers, r.points, opt); !why.facts.isEmpty())
        d.warnings.append({QStringLiteral("nothing-feasible"),
                           QStringLiteral("Nothing is recommended: %1.").arg(why.facts),
                           {}});
}

void addSpotSavings(Data &d)
{
    const ProjectionResults &r = *d.r;
    std::map<QString, SpotSaving> byGpu; // sorted by id for a stable order, re-sorted by name below
    QHash<QString, QList<double>> discounts;
    for (const Offer &o : r.offers) {
        if (!o.recognised())
            continue;
        SpotSaving &s = byGpu[o.gpuId];
        s.gpuId = o.gpuId;
        s.gpuName = shown(gpuModelName(o));
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
            discounts[o.gpuId].append(100.0 * (1.0 - *o.spotUsdH / *o.onDemandUsdH));
        }
    }
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        if (p.nodes != 1 || !p.eligible())
            continue;
        const Offer &o = r.offers.at(p.offerIndex);
        auto it = byGpu.find(o.gpuId);
        if (it == byGpu.end())
            continue;
        qsizetype &best = p.mode == PriceMode::Spot ? it->second.spotPoint : it->second.onDemandPoint;
        if (best < 0 || p.costUsd < r.points.at(best).costUsd)
            best = i;
    }
    QList<SpotSaving> out;
    for (auto &[id, s] : byGpu) {
        if (s.offersWithSpot == 0 && (s.spotPoint < 0 || s.onDemandPoint < 0))
            continue;
        if (!discounts.value(id).isEmpty())
            s.medianDiscountPct = median(discounts.value(id));
        if (s.spotPoint >= 0 && s.onDemandPoint >= 0)
            s.runSavingsPct =
                100.0 * (1.0 - r.points.at(s.spotPoint).costUsd / r.points.at(s.onDemandPoint).costUsd);
        out.append(s);
    }
    std::stable_sort(out.begin(), out.end(), [](const SpotSaving &a, const SpotSaving &b) {
        return a.gpuName.compare(b.gpuName, Qt::CaseInsensitive) < 0;
    });
    d.spotSavings = out;
}

void addMultiNode(Data &d)
{
    const ProjectionResults &r = *d.r;
    // Per GPU model: single-GPU offers with a spot price, and whole-number multi-GPU offers with an on-demand
    // price.
    std::map<QString, QList<qsizetype>> singles, multis;
    for (qsizetype i = 0; i < r.offers.size(); ++i) {
        const Offer &o = r.offers.at(i);
        if (!o.recognised())
            continue;
        if (o.gpuCount == 1 && o.spotUsdH && *o.spotUsdH > 0)
            singles[o.gpuId].append(i);
        else if (o.gpuCount >= 2 && o.gpuCount <= 255 && o.gpuCount == std::floor(o.gpuCount) &&
                 o.onDemandUsdH && *o.onDemandUsdH > 0)
            multis[o.gpuId].append(i);
    }
    QList<Offer> subset;
    QList<qsizetype> subsetSource;
    std::set<int> ks;
    for (const auto &[gpu, list] : multis) {
        if (!singles.count(gpu))
            continue;
        for (qsizetype i : singles[gpu]) {
            subset.append(r.offers.at(i));
            subsetSource.append(i);
        }
        for (qsizetype i : list) {
            subset.append(r.offers.at(i));
            subsetSource.append(i);
            ks.insert(static_cast<int>(r.offers.at(i).gpuCount));
        }
    }
    if (subset.isEmpty())
        return;
    ProjectionOptions opt = r.options;
    opt.spotPolicy = SpotPolicy::SpotAllowed;
    opt.nodeCounts = {1};
    for (int k : ks)
        opt.nodeCounts.append(k);
    opt.parallel = false;
    const QList<ProjectedOffer> pts =
        projectCatalog(subset, {OfferFilter{}, r.workload, opt, r.calibration, opt.measurements, r.jobId})
            .points;

    std::map<std::pair<QString, int>, std::pair<qsizetype, qsizetype>>
        best; // (gpu, K) -> (spot point, on-demand point)
    for (qsizetype i = 0; i < pts.size(); ++i) {
        const ProjectedOffer &p = pts.at(i);
        if (!p.eligible())
            continue;
        const Offer &o = subset.at(p.offerIndex);
        if (o.gpuCount == 1 && p.mode == PriceMode::Spot && p.nodes >= 2) {
            auto &b = best[{o.gpuId, p.nodes}];
            if (b.first == 0 || p.costUsd < pts.at(b.first - 1).costUsd)
                b.first = i + 1;
        } else if (o.gpuCount >= 2 && p.mode == PriceMode::OnDemand && p.nodes == 1) {
            auto &b = best[{o.gpuId, static_cast<int>(o.gpuCount)}];
            if (b.second == 0 || p.costUsd < pts.at(b.second - 1).costUsd)
                b.second = i + 1;
        }
    }
    for (const auto &[key, b] : best) {
        if (b.first == 0 || b.second == 0)
            continue;
        MultiNodeComparison m;
        m.gpuId = key.first;
        m.gpus = key.second;
        m.spot = pts.at(b.first - 1);
        m.onDemand = pts.at(b.second - 1);
        // Frontier and recommendation refer to the report's projection, which these extra points are not part
        // of.
        m.spot.onFrontier = m.onDemand.onFrontier = false;
        m.spot.recommended = m.onDemand.recommended = false;
        m.singleOffer = subset.at(m.spot.offerIndex);
        m.multiOffer = subset.at(m.onDemand.offerIndex);
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
    if (!in.results)
        return makeError(QStringLiteral(
            "There is no projection to report on yet: wait until the projection has finished."));
    const ProjectionResults &r = *in.results;
    Data d;
    d.input = &in;
    d.currency = in.currency;
    d.r = &r;
    d.now = in.generatedAt.isValid() ? in.generatedAt.toUTC() : QDateTime::currentDateTimeUtc();
    d.now = QDateTime(d.now.date(), QTime(d.now.time().hour(), d.now.time().minute(), d.now.time().second()),
                      QTimeZone::utc())
                .toUTC(); // Qt::UTC spec: ISO text ends in "Z"
    d.title = in.title.trimmed().isEmpty() ? QStringLiteral("GPU Frontier report: %1").arg(r.workload.name)
                                           : in.title.trimmed();
    d.generator = QStringLiteral("GPU Frontier %1").arg(QStringLiteral(GPUFRONTIER_VERSION));

    QList<qsizetype> all;
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        d.projected += p.projected ? 1 : 0;
        d.feasible += p.feasible ? 1 : 0;
        if (p.onFrontier)
            d.frontier.append(i);
        all.append(i);
    }
    sortByTime(r.points, d.frontier);

    const QString filterText = describeFilter(r.filter);
    switch (in.offerSet) {
    case ReportOfferSet::All:
    case ReportOfferSet::Filtered:
        d.rows = all;
        if (in.offerSet == ReportOfferSet::All && r.filter.isEmpty())
            d.offerSetText = QStringLiteral("All %1 offers of the current catalogs").arg(r.offers.size());
        else if (r.filter.isEmpty())
            d.offerSetText = QStringLiteral("All %1 offers (no filter)").arg(r.offers.size());
        else
            d.offerSetText =
                QStringLiteral("The %1 offers matching the filter: %2").arg(r.offers.size()).arg(filterText);
        if (d.rows.isEmpty())
            return makeError(
                r.offers.isEmpty()
                    ? QStringLiteral("The report would list no offers: the filter excludes every offer.")
                    : QStringLiteral("The report would list no offers: nothing could be projected."));
        break;
    case ReportOfferSet::Frontier:
        d.rows = d.frontier;
        d.offerSetText =
            QStringLiteral("The %1 offers on the efficiency frontier (of %2 offers%3)")
                .arg(d.frontier.size())
                .arg(r.offers.size())
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
        for (qsizetype i : std::as_const(all))
            if (selected.contains(r.points.at(i).offerIndex))
                d.rows.append(i);
        d.offerSetText = QStringLiteral("%1 selected offers").arg(selected.size());
        if (d.rows.isEmpty())
            return makeError(
                QStringLiteral("The selected offers are not part of the projection (filtered out?): "
                               "nothing to report."));
        break;
    }
    }
    sortByTime(r.points, d.rows);

    d.recommended = r.recommended;
    if (d.recommended >= 0) {
        const ProjectedOffer &p = r.points.at(d.recommended);
        d.recommendedExplanation = explainPoint(r.offers.at(p.offerIndex), p, r.workload, r.options,
                                                r.calibration, GpuSpecTable::builtin(), in.currency)
                                       .all();
    }
    const PicksWithinLimits picks = picksWithinLimits(r.points, d.rows);
    d.cheapest = picks.cheapest;
    d.fastest = picks.fastest;

    // Snapshots the offers come from; else the current ones.
    QSet<qint64> used;
    for (const Offer &o : r.offers)
        used.insert(o.snapshotId);
    for (const Snapshot &s : in.snapshots)
        if (used.contains(s.id))
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

    addSpotSavings(d);
    addMultiNode(d);
    addWarnings(d);
    d.chart = reportChartData(r, in.offerSet == ReportOfferSet::Selected ? d.rows : QList<qsizetype>{},
                              &in.currency);
    return d;
}

} // namespace gf::report

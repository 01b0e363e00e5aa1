#include "report/reportdata.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/norecommendation.h"
#include "projection/pointexplanation.h"
#include "util/format.h"
#include "util/printable.h"

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

bool priced(const ProjectedOffer &p)
{
    return p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
}

QString pct(double v, int decimals = 0)
{
    return QString::number(v, 'f', decimals) + QStringLiteral(" %");
}

QString minutesText(double m)
{
    return QString::number(m, 'g', 6) + QStringLiteral(" min");
}

QString number(double v)
{
    return QString::number(v, 'g', 12);
}

/// "1.2 billion", "25.6 million", "50,000": large counts for people.
QString bigNumber(double v)
{
    if (v >= 1e12)
        return QStringLiteral("%1 trillion").arg(QString::number(v / 1e12, 'g', 4));
    if (v >= 1e9)
        return QStringLiteral("%1 billion").arg(QString::number(v / 1e9, 'g', 4));
    if (v >= 1e6)
        return QStringLiteral("%1 million").arg(QString::number(v / 1e6, 'g', 4));
    return QLocale::c().toString(v, 'f', v == std::floor(v) ? 0 : 2);
}

QString offersText(qsizetype n)
{
    return n == 1 ? QStringLiteral("1 offer") : QStringLiteral("%1 offers").arg(n);
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2;
}

QStringList capped(const QStringList &items, qsizetype max)
{
    if (items.size() <= max)
        return items;
    QStringList out = items.mid(0, max);
    out.append(QStringLiteral("… and %1 more").arg(items.size() - max));
    return out;
}

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
    const QList<ProjectedOffer> pts = projectOffers(subset, r.workload, opt, r.calibration);

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

QString shown(const QString &raw)
{
    const QString s = printableText(raw);
    if (s.size() <= kShownLength)
        return s;
    qsizetype keep = kShownLength - 1;
    if (s.at(keep - 1).isHighSurrogate())
        --keep;
    return s.left(keep) + u'…';
}

/// Where an offer is, cut for display like every provider string.
QString shownLocation(const Offer &o)
{
    return shown(locationText(o));
}

Result<Data> build(const ReportInput &in)
{
    if (!in.results)
        return makeError(QStringLiteral(
            "There is no projection to report on yet: wait until the projection has finished."));
    const ProjectionResults &r = *in.results;
    Data d;
    d.input = &in;
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
        d.recommendedExplanation =
            explainPoint(r.offers.at(p.offerIndex), p, r.workload, r.options, r.calibration).all();
    }
    for (qsizetype i : std::as_const(d.rows)) {
        const ProjectedOffer &p = r.points.at(i);
        if (!p.feasible)
            continue;
        if (d.cheapest < 0 || p.costUsd < r.points.at(d.cheapest).costUsd ||
            (p.costUsd == r.points.at(d.cheapest).costUsd &&
             p.totalHours < r.points.at(d.cheapest).totalHours))
            d.cheapest = i;
        if (d.fastest < 0 || p.totalHours < r.points.at(d.fastest).totalHours ||
            (p.totalHours == r.points.at(d.fastest).totalHours && p.costUsd < r.points.at(d.fastest).costUsd))
            d.fastest = i;
    }

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
    d.chart = reportChartData(r, in.offerSet == ReportOfferSet::Selected ? d.rows : QList<qsizetype>{});
    return d;
}

// ------------------------------------------------------------------------------------------------
// Shared text
// ------------------------------------------------------------------------------------------------

QString gpuText(const Offer &o, int nodes)
{
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const QString name = m ? m->name : shown(o.gpuRawName);
    QString s = QStringLiteral("%1 × %2").arg(formatNumber(o.gpuCount), name);
    if (nodes > 1)
        s = QStringLiteral("%1 instances × (%2)").arg(nodes).arg(s);
    return s;
}

QString pricingText(const Offer &o, const ProjectedOffer &p)
{
    if (p.mode == PriceMode::Spot)
        return o.spotLabel.isEmpty() ? QStringLiteral("spot") : shown(o.spotLabel);
    return QStringLiteral("on-demand");
}

QString pointTitle(const Data &d, qsizetype point)
{
    const ProjectedOffer &p = d.r->points.at(point);
    const Offer &o = d.r->offers.at(p.offerIndex);
    QString s = QStringLiteral("%1 %2").arg(providerDisplayName(o.provider), shown(o.instanceType));
    if (p.nodes > 1)
        s += QStringLiteral(" ×%1").arg(p.nodes);
    s += QStringLiteral(" in %1, %2").arg(shownLocation(o), pricingText(o, p));
    return s;
}

QString rangeText(const ProjectedOffer &p)
{
    if (!p.projected)
        return QStringLiteral("–");
    QString t = QStringLiteral("%1 – %2").arg(formatHours(p.totalHoursLow), formatHours(p.totalHoursHigh));
    if (priced(p))
        t += QStringLiteral("; %1 – %2 USD").arg(formatUsd(p.costUsdLow), formatUsd(p.costUsdHigh));
    return t;
}

QStringList pointHeader()
{
    return {
        QStringLiteral("Provider"),      QStringLiteral("Instance"),      QStringLiteral("Region"),
        QStringLiteral("GPUs"),          QStringLiteral("Pricing"),       QStringLiteral("USD/h"),
        QStringLiteral("Time"),          QStringLiteral("Cost (USD)"),    QStringLiteral("Samples/USD"),
        QStringLiteral("Interruptions"), QStringLiteral("Spot overhead"), QStringLiteral("Range (p10–p90)"),
        QStringLiteral("Tier"),          QStringLiteral("Feasible"),      QStringLiteral("Notes")};
}

QList<bool> pointNumeric()
{
    return {false, false, false, false, false, true,  true, true,
            true,  true,  true,  false, false, false, false};
}

QStringList pointCells(const Data &d, qsizetype point)
{
    const ProjectedOffer &p = d.r->points.at(point);
    const Offer &o = d.r->offers.at(p.offerIndex);
    const QString dash = QStringLiteral("–");
    QStringList notes;
    if (point == d.recommended)
        notes.append(QStringLiteral("recommended"));
    if (p.onFrontier)
        notes.append(QStringLiteral("frontier"));
    notes += projectionFlagNames(p.flags);
    return {providerDisplayName(o.provider),
            shown(o.instanceType),
            shownLocation(o),
            gpuText(o, p.nodes),
            pricingText(o, p),
            p.usdPerHour > 0 ? formatUsdPerHour(p.usdPerHour) : dash,
            p.projected ? formatHours(p.totalHours) : dash,
            priced(p) ? formatUsd(p.costUsd) : dash,
            priced(p) ? QString::number(p.samplesPerUsd, 'f', 0) : dash,
            p.projected && p.mode == PriceMode::Spot ? QString::number(p.expectedInterruptions, 'f', 2)
                                                     : dash,
            p.projected && p.mode == PriceMode::Spot ? formatHours(p.interruptionHours) : dash,
            rangeText(p),
            p.projected ? projectionTierName(p.tier) : dash,
            p.feasible ? QStringLiteral("yes") : QStringLiteral("no"),
            notes.join(QStringLiteral(", "))};
}

QString spotPolicyName(SpotPolicy policy)
{
    switch (policy) {
    case SpotPolicy::OnDemandOnly:
        return QStringLiteral("on-demand-only");
    case SpotPolicy::SpotAllowed:
        return QStringLiteral("both");
    case SpotPolicy::SpotOnly:
        return QStringLiteral("spot-only");
    }
    return {};
}

QString spotPolicyText(SpotPolicy policy)
{
    switch (policy) {
    case SpotPolicy::OnDemandOnly:
        return QStringLiteral("on-demand prices only");
    case SpotPolicy::SpotAllowed:
        return QStringLiteral("on-demand and spot, as separate points");
    case SpotPolicy::SpotOnly:
        return QStringLiteral("spot / preemptible / interruptible prices only");
    }
    return {};
}

QString describeFilter(const OfferFilter &f)
{
    QStringList parts;
    if (!f.providers.isEmpty()) {
        QStringList names;
        for (const QString &p : f.providers)
            names.append(providerDisplayName(p));
        parts.append(QStringLiteral("providers %1").arg(names.join(QStringLiteral(", "))));
    }
    if (!f.gpu.isEmpty())
        parts.append(QStringLiteral("GPU matches \"%1\"").arg(f.gpu));
    if (f.minGpus)
        parts.append(QStringLiteral("at least %1 GPUs").arg(formatNumber(*f.minGpus)));
    if (f.minGpuMemGb)
        parts.append(QStringLiteral("at least %1 GB per GPU").arg(formatNumber(*f.minGpuMemGb)));
    if (f.maxPriceUsdH)
        parts.append(QStringLiteral("%1 price at most %2 USD/h")
                         .arg(f.spotOnly ? QStringLiteral("spot") : QStringLiteral("on-demand"),
                              formatUsdPerHour(*f.maxPriceUsdH)));
    if (f.spotOnly)
        parts.append(QStringLiteral("with a spot price"));
    if (!f.region.isEmpty())
        parts.append(QStringLiteral("region matches \"%1\"").arg(f.region));
    if (!f.text.isEmpty())
        parts.append(QStringLiteral("text matches \"%1\"").arg(f.text));
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral("; "));
}

QList<std::pair<QString, QString>> workloadRows(const Data &d)
{
    const Workload &w = d.r->workload;
    QList<std::pair<QString, QString>> rows;
    const QString kind = w.kind == WorkloadKind::Preset        ? QStringLiteral("preset")
                         : w.kind == WorkloadKind::CustomFlops ? QStringLiteral("custom (FLOPs per sample)")
                                                               : QStringLiteral("custom (measured speed)");
    rows.append(
        {QStringLiteral("Workload"), QStringLiteral("%1 (%2, %3)").arg(shown(w.name), shown(w.id), kind)});
    rows.append({QStringLiteral("Precision"), precisionName(w.precision)});
    rows.append({QStringLiteral("Data set"), QStringLiteral("%1 %2 per epoch × %3 epochs = %4 %2")
                                                 .arg(bigNumber(w.samplesPerEpoch), w.sampleUnit,
                                                      number(w.epochs), bigNumber(w.totalSamples()))});
    if (w.flopsPerSample > 0)
        rows.append({QStringLiteral("Compute per sample"),
                     QStringLiteral("%1 GFLOP (forward + backward)")
                         .arg(QString::number(w.flopsPerSample / 1e9, 'g', 6))});
    rows.append({QStringLiteral("Memory traffic per sample"),
                 w.bytesPerSample > 0
                     ? QStringLiteral("%1 MB").arg(QString::number(w.bytesPerSample / 1e6, 'g', 6))
                     : QStringLiteral("not given (compute-bound)")});
    if (w.kind == WorkloadKind::CustomMeasured)
        rows.append(
            {QStringLiteral("Measured speed"),
             QStringLiteral("%1 %2/s on one %3")
                 .arg(QString::number(w.measuredSamplesPerS, 'g', 6), w.sampleUnit, w.referenceGpuId)});
    rows.append({QStringLiteral("Parameters"),
                 w.parameters > 0 ? bigNumber(w.parameters) : QStringLiteral("not given")});
    rows.append({QStringLiteral("GPU memory needed"),
                 w.memoryGb > 0 ? QStringLiteral("%1 GB per GPU").arg(formatNumber(w.memoryGb, 1))
                                : QStringLiteral("not given (not checked)")});
    rows.append({QStringLiteral("Micro-batch"), QStringLiteral("%1 per GPU").arg(w.batchPerGpu)});
    if (w.minVcpusPerGpu > 0)
        rows.append(
            {QStringLiteral("vCPUs needed"), QStringLiteral("%1 per GPU").arg(number(w.minVcpusPerGpu))});
    if (!w.notes.isEmpty())
        rows.append({QStringLiteral("Notes"), w.notes});
    return rows;
}

QList<std::pair<QString, QString>> assumptionRows(const Data &d)
{
    const ProjectionOptions &o = d.r->options;
    QList<std::pair<QString, QString>> rows;
    rows.append({QStringLiteral("Prices"), spotPolicyText(o.spotPolicy)});
    rows.append({QStringLiteral("Setup time"),
                 minutesText(o.setupMinutes) + QStringLiteral(" boot per run, billed, plus data staging")});
    const Workload &w = d.r->workload;
    rows.append(
        {QStringLiteral("Data staging"),
         w.stagedGb() > 0
             ? QStringLiteral("%1 GB (data set %2 GB + pretrained weights %3 GB) over each offer's sustained "
                              "network bandwidth; a cloud instance below %4 vCPUs sustains %5 % of its "
                              "\"up to\" figure (judgement)")
                   .arg(number(w.stagedGb()), number(w.datasetGb), number(w.pretrainedWeightsGb),
                        number(kBurstVcpuLimit), number(kBurstBaselineShare * 100))
             : QStringLiteral("none")});
    rows.append({QStringLiteral("Input pipeline"),
                 w.cpuCoreSecondsPerSample > 0
                     ? QStringLiteral("%1 vCPU-seconds per %2: speed capped at vCPUs / that (cpu-bound)")
                           .arg(number(w.cpuCoreSecondsPerSample), w.sampleUnit)
                     : QStringLiteral("not given (no CPU cap)")});
    QStringList rates;
    for (const QString &p : knownProviders())
        if (o.interruptionRatePerHour.contains(p))
            rates.append(QStringLiteral("%1 %2 per hour (yours)")
                             .arg(providerDisplayName(p), number(o.interruptionRatePerHour.value(p))));
    rows.append(
        {QStringLiteral("Spot interruption rates"),
         QStringLiteral("documented defaults per provider, capacity and GPU class (resources/SPOT.md, "
                        "resources/spot_interruption.csv, AWS buckets in resources/spot_aws_buckets.csv)") +
             (rates.isEmpty() ? QString()
                              : QStringLiteral("; overridden: ") + rates.join(QStringLiteral(", ")))});
    QStringList egress;
    for (const QString &p : knownProviders())
        if (o.egressUsdPerGb.value(p, 0) > 0)
            egress.append(QStringLiteral("%1 %2 USD/GB")
                              .arg(providerDisplayName(p), number(o.egressUsdPerGb.value(p))));
    rows.append({QStringLiteral("Egress"),
                 egress.isEmpty() ? QStringLiteral("none") : egress.join(QStringLiteral(", "))});
    rows.append({QStringLiteral("Suspect prices"),
                 o.includeSuspect
                     ? QStringLiteral("included: they may be on the frontier and recommended")
                     : QStringLiteral("excluded from the frontier and the recommendation (shown, flagged)")});
    rows.append({QStringLiteral("Checkpoint interval"),
                 minutesText(o.checkpointMinutes) +
                     QStringLiteral(" (an interruption loses half of it on average)")});
    rows.append({QStringLiteral("Restore time"),
                 minutesText(o.restoreMinutes) + QStringLiteral(" per spot interruption")});
    rows.append({QStringLiteral("Deadline"),
                 o.deadlineHours ? formatHours(*o.deadlineHours) : QStringLiteral("none")});
    rows.append({QStringLiteral("Budget"),
                 o.budgetUsd ? formatUsd(*o.budgetUsd) + QStringLiteral(" USD") : QStringLiteral("none")});
    rows.append({QStringLiteral("Recommendation weight"),
                 QStringLiteral("%1 (0 = cheapest, 1 = fastest)").arg(QString::number(o.weight, 'f', 2))});
    QStringList nodes;
    for (int k : o.nodeCounts)
        nodes.append(QString::number(k));
    rows.append({QStringLiteral("Job sizes"),
                 QStringLiteral("%1 instance(s)").arg(nodes.join(QStringLiteral(", ")))});
    rows.append(
        {QStringLiteral("Gradient overlap"), pct(o.overlap * 100) + QStringLiteral(" of a step's compute")});
    rows.append({QStringLiteral("Bytes per gradient"), number(o.bytesPerGradient)});
    rows.append({QStringLiteral("Stale prices"), QStringLiteral("older than %1 days").arg(o.staleDays)});
    rows.append({QStringLiteral("Offers listed"), d.offerSetText});
    rows.append({QStringLiteral("Filter"), describeFilter(d.r->filter)});
    if (o.now.isValid())
        rows.append({QStringLiteral("Projected at"), o.now.toUTC().toString(Qt::ISODate)});
    return rows;
}

QList<std::pair<QString, QString>> calibrationRows(const Data &d)
{
    const Calibration &c = d.r->calibration;
    QList<std::pair<QString, QString>> rows;
    rows.append({QStringLiteral("Speed model"),
                 QStringLiteral("v2: measured training speeds where the workload was measured on the GPU, "
                                "carried over from other measured GPUs by the fitted model otherwise, the "
                                "model's roofline without any measurement; each time and cost has the range "
                                "of its tier's validation error (10th–90th percentile, PROJECTION.md)")});
    if (d.recommended >= 0) {
        const ProjectedOffer &p = d.r->points.at(d.recommended);
        if (const SingleGpuSpeed *s = d.r->speedOf(d.r->offers.at(p.offerIndex)); s && s->ok)
            rows.append(
                {QStringLiteral("Recommended GPU's speed"),
                 QStringLiteral("%1 (%2): %3")
                     .arg(projectionTierName(s->tier), projectionTierDescription(s->tier), s->basis)});
    }
    rows.append({QStringLiteral("Source"),
                 c.source.isEmpty() ? QStringLiteral("datasheet-only defaults") : c.source});
    rows.append({QStringLiteral("Measured"),
                 c.measured ? QStringLiteral("yes (GPU probe)")
                            : QStringLiteral("no: datasheet peaks × default efficiencies")});
    if (!c.probedGpuId.isEmpty())
        rows.append({QStringLiteral("Probed GPU"), c.probedGpuId});
    QStringList eff;
    for (int i = 0; i < kPrecisionCount; ++i)
        eff.append(QStringLiteral("%1 %2").arg(precisionName(static_cast<Precision>(i)),
                                               pct(c.computeEfficiency[static_cast<std::size_t>(i)] * 100)));
    rows.append({QStringLiteral("Compute efficiency"), eff.join(QStringLiteral(", "))});
    rows.append({QStringLiteral("Memory efficiency"), pct(c.memoryEfficiency * 100)});
    if (const auto &probe = d.input->probe) {
        QString run = QStringLiteral("%1 probe %2").arg(probe->kind, probe->probeVersion);
        if (d.input->probeRunId > 0)
            run += QStringLiteral(", run #%1").arg(d.input->probeRunId);
        if (probe->createdAt.isValid())
            run += QStringLiteral(", %1").arg(probe->createdAt.toUTC().toString(Qt::ISODate));
        rows.append({QStringLiteral("Probe run"), run});
        QString device = shown(probe->deviceName);
        if (probe->memoryGb > 0)
            device += QStringLiteral(", %1 GB").arg(formatNumber(probe->memoryGb, 0));
        if (!probe->driverVersion.isEmpty())
            device += QStringLiteral(", driver %1").arg(probe->driverVersion);
        if (!probe->cudaVersion.isEmpty())
            device += QStringLiteral(", CUDA %1").arg(probe->cudaVersion);
        rows.append({QStringLiteral("Device"), device});
        QStringList figures;
        auto add = [&](const char *name, const std::optional<double> &v) {
            if (v)
                figures.append(QStringLiteral("%1 %2 TFLOP/s")
                                   .arg(QLatin1StringView(name), QString::number(*v, 'f', 1)));
        };
        add("fp32", probe->fp32Tflops);
        add("tf32", probe->tf32Tflops);
        add("fp16", probe->fp16Tflops);
        add("bf16", probe->bf16Tflops);
        add("fp8", probe->fp8Tflops);
        if (probe->memBandwidthGbs)
            figures.append(
                QStringLiteral("memory %1 GB/s").arg(QString::number(*probe->memBandwidthGbs, 'f', 0)));
        if (!figures.isEmpty())
            rows.append({QStringLiteral("Probe figures"), figures.join(QStringLiteral(", "))});
    }
    for (const QString &n : c.notes)
        rows.append({QStringLiteral("Note"), n});
    return rows;
}

QStringList snapshotHeader()
{
    return {QStringLiteral("Provider"),   QStringLiteral("Source"),        QStringLiteral("Origin"),
            QStringLiteral("Price date"), QStringLiteral("Fetched (UTC)"), QStringLiteral("Age"),
            QStringLiteral("Offers"),     QStringLiteral("Unrecognised")};
}

QList<QStringList> snapshotRows(const Data &d)
{
    QList<QStringList> rows;
    for (const Snapshot &s : d.snapshots)
        rows.append({providerDisplayName(s.provider), sourceKindName(s.kind), shown(s.origin),
                     s.dataDate.isValid() ? s.dataDate.toString(Qt::ISODate) : QStringLiteral("–"),
                     s.fetchedAt.isValid() ? s.fetchedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                           : QStringLiteral("–"),
                     formatAgeDays(s.ageDays(d.now)), QString::number(s.rowCount),
                     QString::number(s.unrecognisedCount)});
    return rows;
}

QStringList snapshotNotes(const Data &d)
{
    QStringList out;
    for (const Snapshot &s : d.snapshots)
        if (!s.note.isEmpty())
            out.append(QStringLiteral("%1: %2").arg(providerDisplayName(s.provider), s.note));
    return out;
}

QStringList spotHeader()
{
    return {QStringLiteral("GPU"),
            QStringLiteral("Offers (with spot)"),
            QStringLiteral("Median spot discount"),
            QStringLiteral("Best on-demand USD/GPU-h"),
            QStringLiteral("Best spot USD/GPU-h"),
            QStringLiteral("Cheapest on-demand run"),
            QStringLiteral("Cheapest spot run"),
            QStringLiteral("Run savings")};
}

QList<QStringList> spotRows(const Data &d)
{
    QList<QStringList> rows;
    const QString dash = QStringLiteral("–");
    auto run = [&](qsizetype i) -> QString {
        if (i < 0)
            return dash;
        const ProjectedOffer &p = d.r->points.at(i);
        return QStringLiteral("%1 USD, %2 (%3)")
            .arg(formatUsd(p.costUsd), formatHours(p.totalHours),
                 shown(d.r->offers.at(p.offerIndex).instanceType));
    };
    for (const SpotSaving &s : d.spotSavings)
        rows.append({s.gpuName, QStringLiteral("%1 (%2)").arg(s.offers).arg(s.offersWithSpot),
                     s.medianDiscountPct ? pct(*s.medianDiscountPct) : dash,
                     s.onDemandUsdPerGpuHour ? formatUsdPerHour(*s.onDemandUsdPerGpuHour) : dash,
                     s.spotUsdPerGpuHour ? formatUsdPerHour(*s.spotUsdPerGpuHour) : dash,
                     run(s.onDemandPoint), run(s.spotPoint), s.runSavingsPct ? pct(*s.runSavingsPct) : dash});
    return rows;
}

QStringList multiNodeHeader()
{
    return {QStringLiteral("GPU"),
            QStringLiteral("K"),
            QStringLiteral("K × 1-GPU spot"),
            QStringLiteral("Spot time"),
            QStringLiteral("Spot cost (USD)"),
            QStringLiteral("1 × K-GPU on-demand"),
            QStringLiteral("On-demand time"),
            QStringLiteral("On-demand cost (USD)"),
            QStringLiteral("Spot saves"),
            QStringLiteral("Spot time change")};
}

QList<QStringList> multiNodeRows(const Data &d)
{
    QList<QStringList> rows;
    for (const MultiNodeComparison &m : d.multiNode) {
        // Large differences read better as factors ("12.5× slower") than as percentages.
        const double costRatio = m.spot.costUsd / m.onDemand.costUsd;
        const double timeRatio = m.spot.totalHours / m.onDemand.totalHours;
        const QString saves = costRatio >= 2
                                  ? QStringLiteral("costs %1× more").arg(QString::number(costRatio, 'f', 1))
                                  : pct(m.costSavingsPct);
        const QString slower =
            timeRatio >= 2 ? QStringLiteral("%1× slower").arg(QString::number(timeRatio, 'f', 1))
                           : (m.timeChangePct >= 0 ? QStringLiteral("+") : QString()) + pct(m.timeChangePct);
        rows.append({m.gpuName, QString::number(m.gpus),
                     QStringLiteral("%1 × %2 %3 (%4)")
                         .arg(QString::number(m.gpus), providerDisplayName(m.singleOffer.provider),
                              shown(m.singleOffer.instanceType), shownLocation(m.singleOffer)),
                     formatHours(m.spot.totalHours), formatUsd(m.spot.costUsd),
                     QStringLiteral("%1 %2 (%3)")
                         .arg(providerDisplayName(m.multiOffer.provider), shown(m.multiOffer.instanceType),
                              shownLocation(m.multiOffer)),
                     formatHours(m.onDemand.totalHours), formatUsd(m.onDemand.costUsd), saves, slower});
    }
    return rows;
}

QString argumentText(const Data &d)
{
    const ProjectionResults &r = *d.r;
    const ProjectionOptions &o = r.options;
    QString limits;
    if (o.deadlineHours && o.budgetUsd)
        limits = QStringLiteral("the deadline of %1 and the budget of %2 USD")
                     .arg(formatHours(*o.deadlineHours), formatUsd(*o.budgetUsd));
    else if (o.deadlineHours)
        limits = QStringLiteral("the deadline of %1").arg(formatHours(*o.deadlineHours));
    else if (o.budgetUsd)
        limits = QStringLiteral("the budget of %1 USD").arg(formatUsd(*o.budgetUsd));
    if (d.recommended < 0) {
        QString s = QStringLiteral("No offer is recommended: ");
        if (!limits.isEmpty())
            s += QStringLiteral("no offer on the efficiency frontier meets %1.").arg(limits);
        else
            s += QStringLiteral("no offer could be projected and priced.");
        return s;
    }
    const ProjectedOffer &rec = r.points.at(d.recommended);
    QString s = QStringLiteral(
                    "Train on %1: %2 for %3 USD. It is on the efficiency frontier (no offer is both faster "
                    "and cheaper) among %4 projected offers")
                    .arg(pointTitle(d, d.recommended), formatHours(rec.totalHours), formatUsd(rec.costUsd))
                    .arg(d.projected);
    s += limits.isEmpty() ? QStringLiteral(".") : QStringLiteral(" and meets %1.").arg(limits);
    // Compare with the fastest and the cheapest feasible offers of the whole projection.
    qsizetype fastest = -1, cheapest = -1;
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        if (!p.feasible)
            continue;
        if (fastest < 0 || p.totalHours < r.points.at(fastest).totalHours)
            fastest = i;
        if (cheapest < 0 || p.costUsd < r.points.at(cheapest).costUsd)
            cheapest = i;
    }
    QStringList comparisons;
    if (fastest >= 0 && fastest != d.recommended && r.points.at(fastest).costUsd > rec.costUsd) {
        const ProjectedOffer &f = r.points.at(fastest);
        comparisons.append(QStringLiteral("costs %1 less than the fastest offer (%2, %3 USD in %4)")
                               .arg(pct(100.0 * (1.0 - rec.costUsd / f.costUsd)), pointTitle(d, fastest),
                                    formatUsd(f.costUsd), formatHours(f.totalHours)));
    }
    if (cheapest >= 0 && cheapest != d.recommended && r.points.at(cheapest).totalHours > rec.totalHours) {
        const ProjectedOffer &c = r.points.at(cheapest);
        comparisons.append(QStringLiteral("finishes %1× sooner than the cheapest offer (%2, %3 USD in %4)")
                               .arg(QString::number(c.totalHours / rec.totalHours, 'f', 1),
                                    pointTitle(d, cheapest), formatUsd(c.costUsd),
                                    formatHours(c.totalHours)));
    }
    if (!comparisons.isEmpty())
        s += QStringLiteral(" It ") + comparisons.join(QStringLiteral(", and ")) + u'.';
    s += indistinguishableText(d);
    return s;
}

QString indistinguishableText(const Data &d)
{
    const ProjectionResults &r = *d.r;
    const QList<qsizetype> close = indistinguishableFrom(
        r.points, d.recommended, [&r](qsizetype i) { return r.offers.at(r.points.at(i).offerIndex).gpuId; });
    if (close.isEmpty())
        return {};
    QStringList names;
    for (qsizetype i : close)
        names.append(QStringLiteral("%1 (%2, %3 USD)")
                         .arg(pointTitle(d, i), formatHours(r.points.at(i).totalHours),
                              formatUsd(r.points.at(i).costUsd)));
    return QStringLiteral(
               " Within the projection's likely ranges it is indistinguishable from %1: their time "
               "and cost ranges overlap, so the model cannot tell which is better.")
        .arg(names.join(QStringLiteral("; ")));
}

QString headlineText(const Data &d, qsizetype point)
{
    if (point < 0)
        return QStringLiteral("none within the deadline and budget");
    const ProjectedOffer &p = d.r->points.at(point);
    return QStringLiteral("%1 — %2, %3 USD (%4 USD/h, %5 samples/USD); likely range %6 (speed: %7)")
        .arg(pointTitle(d, point), formatHours(p.totalHours), formatUsd(p.costUsd),
             formatUsdPerHour(p.usdPerHour), QString::number(p.samplesPerUsd, 'f', 0), rangeText(p),
             projectionTierName(p.tier));
}

QString reproduceCommand(const Data &d, ReportFormat format)
{
    const Workload &w = d.r->workload;
    const ProjectionOptions &o = d.r->options;
    const ProjectionOptions def;
    QStringList a{QStringLiteral("gpufrontier-cli"), QStringLiteral("report")};
    auto quote = [](const QString &s) -> QString {
        static const QString safe =
            QStringLiteral("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-,:/+=");
        for (QChar c : s)
            if (!safe.contains(c))
                return u'\'' + QString(s).replace(QStringLiteral("'"), QStringLiteral("'\\''")) + u'\'';
        return s.isEmpty() ? QStringLiteral("''") : s;
    };
    auto arg = [&](const QString &name, const QString &value) {
        a.append(u"--" + name);
        a.append(quote(value));
    };
    const Workload *preset = w.kind == WorkloadKind::Preset || w.id != u"custom"
                                 ? findWorkload(builtinWorkloads(), w.id)
                                 : nullptr;
    if (preset) {
        arg(QStringLiteral("workload"), w.id);
        // The preset as --checkpointing and --batch make it: the other flags name what differs from that.
        Workload base = *preset;
        if (w.gradientCheckpointing != base.gradientCheckpointing && base.checkpointingOffered()) {
            arg(QStringLiteral("checkpointing"),
                w.gradientCheckpointing ? QStringLiteral("on") : QStringLiteral("off"));
            base = withCheckpointing(base, w.gradientCheckpointing).value();
        }
        if (w.batchPerGpu != base.batchPerGpu)
            base = withBatch(base, w.batchPerGpu);
        preset = &base;
        if (w.kind == WorkloadKind::CustomMeasured) {
            arg(QStringLiteral("measured"), number(w.measuredSamplesPerS));
            arg(QStringLiteral("measured-on"), w.referenceGpuId);
        }
        if (w.samplesPerEpoch != preset->samplesPerEpoch)
            arg(QStringLiteral("samples"), number(w.samplesPerEpoch));
        if (w.epochs != preset->epochs)
            arg(QStringLiteral("epochs"), number(w.epochs));
        if (w.kind != WorkloadKind::CustomMeasured && w.flopsPerSample != preset->flopsPerSample)
            arg(QStringLiteral("flops-per-sample"), number(w.flopsPerSample));
        if (w.kind != WorkloadKind::CustomMeasured && w.bytesPerSample != preset->bytesPerSample)
            arg(QStringLiteral("bytes-per-sample"), number(w.bytesPerSample));
        if (w.precision != preset->precision)
            arg(QStringLiteral("precision"), precisionName(w.precision));
        if (w.parameters != preset->parameters)
            arg(QStringLiteral("params"), number(w.parameters));
        if (w.memoryGb != preset->memoryGb)
            arg(QStringLiteral("memory-gb"), number(w.memoryGb));
        if (w.batchPerGpu != preset->batchPerGpu)
            arg(QStringLiteral("batch"), QString::number(w.batchPerGpu));
        if (w.minVcpusPerGpu != preset->minVcpusPerGpu)
            arg(QStringLiteral("min-vcpus"), number(w.minVcpusPerGpu));
        if (w.datasetGb != preset->datasetGb)
            arg(QStringLiteral("dataset-gb"), number(w.datasetGb));
    } else {
        if (w.kind == WorkloadKind::CustomMeasured) {
            arg(QStringLiteral("measured"), number(w.measuredSamplesPerS));
            arg(QStringLiteral("measured-on"), w.referenceGpuId);
        }
        if (w.flopsPerSample > 0)
            arg(QStringLiteral("flops-per-sample"), number(w.flopsPerSample));
        if (w.bytesPerSample > 0)
            arg(QStringLiteral("bytes-per-sample"), number(w.bytesPerSample));
        arg(QStringLiteral("samples"), number(w.samplesPerEpoch));
        if (w.epochs != 1)
            arg(QStringLiteral("epochs"), number(w.epochs));
        arg(QStringLiteral("precision"), precisionName(w.precision));
        if (w.parameters > 0)
            arg(QStringLiteral("params"), number(w.parameters));
        if (w.memoryGb > 0)
            arg(QStringLiteral("memory-gb"), number(w.memoryGb));
        if (w.batchPerGpu != 32)
            arg(QStringLiteral("batch"), QString::number(w.batchPerGpu));
        if (w.minVcpusPerGpu > 0)
            arg(QStringLiteral("min-vcpus"), number(w.minVcpusPerGpu));
        if (w.datasetGb > 0)
            arg(QStringLiteral("dataset-gb"), number(w.datasetGb));
    }
    if (o.includeSuspect)
        a.append(QStringLiteral("--include-suspect"));
    auto perProvider = [&](const QString &name, const QHash<QString, double> &values) {
        QStringList keys = values.keys();
        keys.sort();
        for (const QString &k : keys)
            arg(name, k + u'=' + number(values.value(k)));
    };
    perProvider(QStringLiteral("interruption-rate"), o.interruptionRatePerHour);
    perProvider(QStringLiteral("egress"), o.egressUsdPerGb);
    if (o.deadlineHours)
        arg(QStringLiteral("deadline"), number(*o.deadlineHours));
    if (o.budgetUsd)
        arg(QStringLiteral("budget"), number(*o.budgetUsd));
    if (o.spotPolicy == SpotPolicy::SpotOnly)
        a.append(QStringLiteral("--spot"));
    else if (o.spotPolicy == SpotPolicy::OnDemandOnly)
        a.append(QStringLiteral("--on-demand"));
    if (o.checkpointMinutes != def.checkpointMinutes)
        arg(QStringLiteral("checkpoint-minutes"), number(o.checkpointMinutes));
    if (o.setupMinutes != def.setupMinutes)
        arg(QStringLiteral("setup-minutes"), number(o.setupMinutes));
    if (o.restoreMinutes != def.restoreMinutes)
        arg(QStringLiteral("restore-minutes"), number(o.restoreMinutes));
    QStringList nodes;
    for (int k : o.nodeCounts)
        if (k > 1)
            nodes.append(QString::number(k));
    if (!nodes.isEmpty())
        arg(QStringLiteral("nodes"), nodes.join(u','));
    if (o.weight != def.weight)
        arg(QStringLiteral("weight"), number(o.weight));
    if (!d.r->filter.providers.isEmpty())
        arg(QStringLiteral("provider"), d.r->filter.providers.join(u','));
    if (!d.r->calibration.measured)
        a.append(QStringLiteral("--no-calibration"));
    // The CLI lists all or the frontier offers (GUI filters other than providers, and selections, have no
    // flag).
    arg(QStringLiteral("offers"),
        d.input->offerSet == ReportOfferSet::Frontier ? QStringLiteral("frontier") : QStringLiteral("all"));
    if (!d.input->title.trimmed().isEmpty())
        arg(QStringLiteral("title"), d.input->title.trimmed());
    arg(QStringLiteral("format"), reportFormatName(format));
    arg(QStringLiteral("now"), d.now.toString(Qt::ISODate));
    a.append(QStringLiteral("-o"));
    a.append(QStringLiteral("FILE"));
    return a.join(u' ');
}

} // namespace gf::report

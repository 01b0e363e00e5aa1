#include "projection/norecommendation.h"

#include "domain/pricesanity.h"
#include "domain/provider.h"
#include "util/format.h"

#include <map>

namespace gf {

NoRecommendation explainNoRecommendation(const QList<Offer> &offers, const QList<ProjectedOffer> &points,
                                         const ProjectionOptions &options)
{
    return explainNoRecommendation(
        offers.size(), points.size(), [&](qsizetype i) { return points.at(i); },
        [&](qint32 i) { return offers.at(i); }, options);
}

NoRecommendation explainNoRecommendation(qsizetype offerCount, qsizetype pointCount,
                                         const std::function<ProjectedOffer(qsizetype)> &pointAt,
                                         const std::function<Offer(qint32)> &offerAt,
                                         const ProjectionOptions &options)
{
    NoRecommendation out;
    for (qsizetype i = 0; i < pointCount; ++i)
        if (pointAt(i).recommended)
            return out;
    if (pointCount == 0) {
        out.facts = QStringLiteral("no offer matches the filters");
        return out;
    }
    qsizetype projected = 0, eligible = 0, feasible = 0, suspect = 0, staleCount = 0;
    PriceSanityRules rules;
    if (options.now.isValid())
        rules.today = options.now.date();
    std::map<int, Offer> oldestStale; // provider-table order -> its oldest stale offer
    for (qsizetype i = 0; i < pointCount; ++i) {
        const ProjectedOffer p = pointAt(i);
        if (!p.projected || (p.flags & kBlockingFlags) != 0)
            continue;
        ++projected;
        if (p.eligible())
            ++eligible;
        if (p.feasible)
            ++feasible;
        if (!p.suspectExcluded)
            continue;
        ++suspect;
        if (!hasFlag(p.flags, ProjectionFlag::StaleRow))
            continue;
        const Offer o = offerAt(p.offerIndex);
        if (isPriceTooOld(o, rules)) {
            ++staleCount;
            const int order = static_cast<int>(providerKind(o.provider));
            const auto slot = oldestStale.find(order);
            if (slot == oldestStale.end())
                oldestStale.emplace(order, o);
            else if (o.effectivePriceDate() < slot->second.effectivePriceDate())
                slot->second = o;
        }
    }
    if (projected == 0) {
        out.facts = QStringLiteral("none of the %1 offers can be projected (GPU not recognised, no specs, or "
                                   "the workload does not fit its memory)")
                        .arg(offerCount);
        return out;
    }
    QStringList parts;
    if (eligible == 0 && suspect > 0) {
        out.suspectExcluded = true;
        QStringList ages;
        for (const auto &[order, o] : oldestStale) {
            ages.append(priceAgeText(o, rules));
            out.staleProviders.append(o.provider);
        }
        QString s = QStringLiteral("every point that could be picked has a suspect price");
        if (!ages.isEmpty())
            s += QStringLiteral(": ") + ages.join(QStringLiteral("; "));
        if (suspect > staleCount)
            s += QStringLiteral(" (%1 more with another suspect-price flag)").arg(suspect - staleCount);
        parts.append(s);
    }
    if (eligible > 0 && feasible == 0 && (options.deadlineHours || options.budgetUsd)) {
        QStringList limits;
        if (options.deadlineHours)
            limits.append(QStringLiteral("the deadline of %1").arg(formatHours(*options.deadlineHours)));
        if (options.budgetUsd)
            limits.append(QStringLiteral("the budget of %1 USD").arg(*options.budgetUsd, 0, 'f', 2));
        parts.append(QStringLiteral("no offer meets %1").arg(limits.join(QStringLiteral(" and "))));
        if (suspect > 0)
            out.suspectExcluded = true;
    }
    if (parts.isEmpty())
        parts.append(QStringLiteral("no point is on the frontier"));
    out.facts = parts.join(QStringLiteral("; "));
    return out;
}

} // namespace gf

#include "projection/norecommendation.h"

#include "domain/pricesanity.h"
#include "domain/provider.h"

#include <map>

namespace gf {

NoRecommendation explainNoRecommendation(const QList<Offer> &offers, const QList<ProjectedOffer> &points,
                                         const ProjectionOptions &options)
{
    NoRecommendation out;
    if (recommendedIndex(points) >= 0)
        return out;
    if (points.isEmpty()) {
        out.facts = QStringLiteral("no offer matches the filters");
        return out;
    }
    qsizetype projected = 0, eligible = 0, feasible = 0, suspect = 0, staleCount = 0;
    PriceSanityRules rules;
    if (options.now.isValid())
        rules.today = options.now.date();
    std::map<int, const Offer *> oldestStale; // provider-table order -> its oldest stale offer
    for (const ProjectedOffer &p : points) {
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
        const Offer &o = offers.at(p.offerIndex);
        if (hasFlag(p.flags, ProjectionFlag::StaleRow) && isPriceTooOld(o, rules)) {
            ++staleCount;
            const int order = static_cast<int>(providerKind(o.provider));
            const Offer *&slot = oldestStale[order];
            if (!slot || o.effectivePriceDate() < slot->effectivePriceDate())
                slot = &o;
        }
    }
    if (projected == 0) {
        out.facts = QStringLiteral("none of the %1 offers can be projected (GPU not recognised, no specs, or "
                                   "the workload does not fit its memory)")
                        .arg(offers.size());
        return out;
    }
    QStringList parts;
    if (eligible == 0 && suspect > 0) {
        out.suspectExcluded = true;
        QStringList ages;
        for (const auto &[order, o] : oldestStale) {
            ages.append(priceAgeText(*o, rules));
            out.staleProviders.append(o->provider);
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
            limits.append(QStringLiteral("the deadline of %1 h").arg(*options.deadlineHours, 0, 'g', 4));
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

#include "projection/answer.h"

#include "projection/frontier.h"
#include "util/format.h"

#include <cmath>
#include <limits>

namespace gf {

namespace {

bool cheaperPick(const ProjectedOffer &p, const ProjectedOffer &q)
{
    return p.costUsd < q.costUsd || (p.costUsd == q.costUsd && p.totalHours < q.totalHours);
}

bool fasterPick(const ProjectedOffer &p, const ProjectedOffer &q)
{
    return p.totalHours < q.totalHours || (p.totalHours == q.totalHours && p.costUsd < q.costUsd);
}

void consider(const QList<ProjectedOffer> &points, qsizetype i, PicksWithinLimits &out)
{
    const ProjectedOffer &p = points.at(i);
    if (!p.feasible)
        return;
    if (out.cheapest < 0 || cheaperPick(p, points.at(out.cheapest)))
        out.cheapest = i;
    if (out.fastest < 0 || fasterPick(p, points.at(out.fastest)))
        out.fastest = i;
}

/// The feasible frontier point with the best score after the recommended one (recommendPoint's score).
qsizetype rivalOf(const ProjectionResults &r)
{
    QList<qsizetype> feasible;
    double tMin = std::numeric_limits<double>::infinity(), cMin = tMin;
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        if (!p.onFrontier || !p.feasible)
            continue;
        feasible.append(i);
        tMin = std::min(tMin, p.totalHours);
        cMin = std::min(cMin, p.costUsd);
    }
    qsizetype best = -1;
    double bestScore = std::numeric_limits<double>::infinity();
    const double w = r.options.weight;
    for (qsizetype i : std::as_const(feasible)) {
        const ProjectedOffer &p = r.points.at(i);
        if (i == r.recommended || (p.totalHours == r.points.at(r.recommended).totalHours &&
                                   p.costUsd == r.points.at(r.recommended).costUsd))
            continue; // an equal point is no rival: it is the same answer at another place
        double score = recommendationScore({p.totalHours, p.costUsd}, tMin, cMin, w);
        if (!std::isfinite(score)) // a free or instant point: rank by distance in the two figures
            score = std::abs(p.totalHours - r.points.at(r.recommended).totalHours) +
                    std::abs(p.costUsd - r.points.at(r.recommended).costUsd);
        if (best < 0 || score < bestScore) {
            best = i;
            bestScore = score;
        }
    }
    return best;
}

QList<LimitMove> limitMoves(const ProjectionResults &r)
{
    const ProjectionOptions &o = r.options;
    if (!o.deadlineHours && !o.budgetUsd)
        return {};
    const double deadline = o.deadlineHours.value_or(std::numeric_limits<double>::infinity());
    const double budget = o.budgetUsd.value_or(std::numeric_limits<double>::infinity());
    qsizetype byDeadline = -1, byBudget = -1, byBoth = -1;
    double bothRatio = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        if (!p.eligible() || !std::isfinite(p.totalHours) || !std::isfinite(p.costUsd))
            continue;
        if (p.feasible)
            return {}; // something fits: nothing to move
        if (o.deadlineHours && p.costUsd <= budget &&
            (byDeadline < 0 || fasterPick(p, r.points.at(byDeadline))))
            byDeadline = i;
        if (o.budgetUsd && p.totalHours <= deadline &&
            (byBudget < 0 || cheaperPick(p, r.points.at(byBudget))))
            byBudget = i;
        if (o.deadlineHours && o.budgetUsd) {
            const double ratio = std::max(p.totalHours / deadline, p.costUsd / budget);
            if (ratio < bothRatio) {
                bothRatio = ratio;
                byBoth = i;
            }
        }
    }
    QList<LimitMove> moves;
    if (byDeadline >= 0)
        moves.append({r.points.at(byDeadline).totalHours, std::nullopt, byDeadline});
    if (byBudget >= 0)
        moves.append({std::nullopt, r.points.at(byBudget).costUsd, byBudget});
    if (moves.isEmpty() && byBoth >= 0)
        moves.append({r.points.at(byBoth).totalHours, r.points.at(byBoth).costUsd, byBoth});
    return moves;
}

/// A limit shown so that the point fits it: hours rounded up to the figure formatHours shows, USD to the
/// cent (the whole dollar from 100 USD).
double roundedUp(double v, double step)
{
    return std::ceil(v / step - 1e-9) * step;
}

double hoursLimitShown(double hours)
{
    if (hours < 0.1)
        return roundedUp(hours * 60.0, 0.1) / 60.0;
    if (hours < 1.0)
        return roundedUp(hours * 60.0, 1.0) / 60.0;
    if (hours < 10.0)
        return roundedUp(hours, 0.01);
    if (hours < 72.0)
        return roundedUp(hours, 0.1);
    return roundedUp(hours / 24.0, 0.1) * 24.0;
}

double usdLimitShown(double usd)
{
    return usd < 100 ? roundedUp(usd, 0.01) : roundedUp(usd, 1.0);
}

QString ratioText(double ratio)
{
    return QString::number(ratio, 'f', ratio < 10 ? 1 : 0);
}

} // namespace

PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points, const QList<qsizetype> &candidates)
{
    PicksWithinLimits out;
    for (qsizetype i : candidates)
        consider(points, i, out);
    return out;
}

PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points)
{
    PicksWithinLimits out;
    for (qsizetype i = 0; i < points.size(); ++i)
        consider(points, i, out);
    return out;
}

Answer answerOf(const ProjectionResults &r)
{
    Answer a;
    const PicksWithinLimits picks = picksWithinLimits(r.points);
    a.cheapest = picks.cheapest;
    a.fastest = picks.fastest;
    a.recommended = r.recommended;
    if (a.recommended < 0) {
        a.none = explainNoRecommendation(r.offers, r.points, r.options);
        a.moves = limitMoves(r);
        return a;
    }
    a.rival = rivalOf(r);
    if (a.rival >= 0) {
        const ProjectedOffer &p = r.points.at(a.recommended);
        const ProjectedOffer &q = r.points.at(a.rival);
        a.rivalWithinRange = p.totalHoursLow <= q.totalHoursHigh && q.totalHoursLow <= p.totalHoursHigh;
    }
    return a;
}

QString answerWhyText(const ProjectionResults &r, const Answer &a,
                      const std::function<QString(qsizetype)> &titleOf)
{
    if (a.recommended < 0 || a.rival < 0)
        return {};
    const ProjectedOffer &p = r.points.at(a.recommended);
    const ProjectedOffer &q = r.points.at(a.rival);
    const double w = r.options.weight;
    const QString balance = std::abs(w - 0.5) < 1e-9 ? QStringLiteral("with time and cost weighed equally")
                                                     : QStringLiteral("with time weighed %1 % and cost %2 %")
                                                           .arg(QString::number(100.0 * w, 'f', 0),
                                                                QString::number(100.0 * (1.0 - w), 'f', 0));
    QString s;
    if (q.totalHours < p.totalHours) {
        s = QStringLiteral(
                "%1 would finish sooner (%2 instead of %3) but costs %4× as much (%5 USD instead of "
                "%6 USD); %7, the time it saves is not worth its price.")
                .arg(titleOf(a.rival), formatHours(q.totalHours), formatHours(p.totalHours),
                     ratioText(p.costUsd > 0 ? q.costUsd / p.costUsd : 0), formatUsd(q.costUsd),
                     formatUsd(p.costUsd), balance);
    } else {
        s = QStringLiteral(
                "%1 would cost less (%2 USD instead of %3 USD) but takes %4× as long (%5 instead of "
                "%6); %7, the money it saves is not worth the wait.")
                .arg(titleOf(a.rival), formatUsd(q.costUsd), formatUsd(p.costUsd),
                     ratioText(p.totalHours > 0 ? q.totalHours / p.totalHours : 0), formatHours(q.totalHours),
                     formatHours(p.totalHours), balance);
    }
    if (a.rivalWithinRange)
        s += QStringLiteral(" Their likely time ranges overlap: within the projection's uncertainty either "
                            "could be the faster.");
    return s;
}

QStringList limitMoveTexts(const ProjectionResults &r, const Answer &a,
                           const std::function<QString(qsizetype)> &titleOf)
{
    QStringList out;
    const ProjectionOptions &o = r.options;
    for (const LimitMove &m : a.moves) {
        QStringList parts;
        if (m.deadlineHours && o.deadlineHours)
            parts.append(
                QStringLiteral("raise the deadline from %1 to %2")
                    .arg(formatHours(*o.deadlineHours), formatHours(hoursLimitShown(*m.deadlineHours))));
        if (m.budgetUsd && o.budgetUsd)
            parts.append(QStringLiteral("raise the budget from %1 USD to %2 USD")
                             .arg(formatUsd(*o.budgetUsd), formatUsd(usdLimitShown(*m.budgetUsd))));
        if (parts.isEmpty())
            continue;
        const ProjectedOffer &p = r.points.at(m.point);
        out.append(QStringLiteral("%1: %2 fits (%3, %4 USD)")
                       .arg(parts.join(QStringLiteral(" and ")), titleOf(m.point), formatHours(p.totalHours),
                            formatUsd(p.costUsd)));
    }
    return out;
}

} // namespace gf

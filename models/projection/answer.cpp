#include "projection/answer.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "projection/frontier.h"
#include "projection/modelconstants.h"
#include "projection/pointexplanation.h"
#include "projection/tableprojection.h"
#include "util/format.h"

#include <QLocale>

#include <cmath>
#include <limits>

namespace gf {

namespace {

template <class Point> bool cheaperPick(const Point &p, const Point &q)
{
    return p.costUsd < q.costUsd || (p.costUsd == q.costUsd && p.totalHours < q.totalHours);
}

template <class Point> bool fasterPick(const Point &p, const Point &q)
{
    return p.totalHours < q.totalHours || (p.totalHours == q.totalHours && p.costUsd < q.costUsd);
}

template <class Point> void consider(const QList<Point> &points, qsizetype i, PicksWithinLimits &out)
{
    const Point &p = points.at(i);
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

/// A limit the user can type that the point fits: hours rounded up to a tenth, USD to the whole dollar.
double roundedUp(double v, double step)
{
    return std::max(step, std::ceil(v / step - 1e-9) * step);
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
    const auto hours = [&r](qsizetype i) { return roundedUp(r.points.at(i).totalHours, kLimitHoursStep); };
    const auto usd = [&r](qsizetype i) { return roundedUp(r.points.at(i).costUsd, kLimitUsdStep); };
    if (byDeadline >= 0)
        moves.append({hours(byDeadline), std::nullopt, byDeadline});
    if (byBudget >= 0)
        moves.append({std::nullopt, usd(byBudget), byBudget});
    if (moves.isEmpty() && byBoth >= 0)
        moves.append({hours(byBoth), usd(byBoth), byBoth});
    return moves;
}

QString ratioText(double ratio)
{
    return QString::number(ratio, 'f', ratio < 10 ? 1 : 0);
}

QString identity(const QString &s)
{
    return s;
}

/// What a tier's speed rests on, in a few plain words.
QString tierPhrase(ProjectionTier tier)
{
    switch (tier) {
    case ProjectionTier::Measured:
        return QStringLiteral("measured on this GPU");
    case ProjectionTier::MeasuredConverted:
        return QStringLiteral("measured on this GPU in another stack, converted");
    case ProjectionTier::Transferred:
        return QStringLiteral("carried over from measured GPUs of its architecture");
    case ProjectionTier::TransferredCrossArch:
        return QStringLiteral("carried over from measured GPUs of other architectures");
    case ProjectionTier::TransferredOtherVendor:
        return QStringLiteral("carried over from NVIDIA measurements to another vendor");
    case ProjectionTier::Roofline:
    case ProjectionTier::None:
        break;
    }
    return QStringLiteral("the datasheet model only, no measurement");
}

} // namespace

QString answerStackText(const ProjectionResults &r, const SingleGpuSpeed *speed)
{
    if (speed && speed->userMeasured)
        return QStringLiteral("your own stack, as you measured it");
    if (r.workload.stack == SoftwareStack::Tuned)
        return QStringLiteral("vendor-tuned stack");
    return QStringLiteral("typical PyTorch stack, %1")
        .arg(r.workload.workloadClass == WorkloadClass::Unknown
                 ? QStringLiteral("workload class unknown")
                 : workloadClassName(r.workload.workloadClass) + QStringLiteral(" class"));
}

QString answerCountText(double n, const QString &unit)
{
    QLocale locale = QLocale::c();
    locale.setNumberOptions({});
    return QStringLiteral("%1 %2").arg(locale.toString(qint64(std::llround(n))), unit);
}

AnswerPointText describeAnswerPoint(const ProjectionResults &r, qsizetype point, const Currency &c)
{
    AnswerPointText t;
    const ProjectedOffer &p = r.points.at(point);
    const Offer &o = r.offers.at(p.offerIndex);
    t.title = pointTitleText(o, p);
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const double gpus = o.gpuCount * p.nodes;
    t.gpu = QStringLiteral("%1 × %2").arg(QString::number(gpus, 'g', 4), m ? m->name : o.gpuRawName);
    if (p.usdPerHour > 0) {
        t.gpu += QStringLiteral(" · %1 %2").arg(formatMoneyPerHour(p.usdPerHour, c), c.perHourUnit());
        if (const auto perGpu = p.usdPerGpuHour(o))
            t.gpu += QStringLiteral(" · %1 %2").arg(formatMoneyPerHour(perGpu, c), c.perGpuHourUnit());
    }
    t.figures = QStringLiteral("%1 · %2").arg(formatHours(p.totalHours), formatMoneyWithUnit(p.costUsd, c));
    t.likely = QStringLiteral("likely %1 – %2; %3 – %4")
                   .arg(formatHours(p.totalHoursLow), formatHours(p.totalHoursHigh),
                        formatMoney(p.costUsdLow, c), formatMoneyWithUnit(p.costUsdHigh, c));
    const SingleGpuSpeed *speed = r.speedOf(o);
    const double low = std::exp(-double(p.speedLogP90)), high = std::exp(-double(p.speedLogP10));
    // Rule I (PROJECTION.md 3.18): an unmeasured custom workload shaped by its class's reference preset rests
    // on that preset's projections, not on the datasheet model alone.
    const QString phrase =
        speed && !speed->referencePreset.isEmpty() && p.tier == ProjectionTier::Roofline
            ? QStringLiteral("the %1 preset's speeds scaled to this workload's FLOPs, no measurement of it")
                  .arg(speed->referencePreset)
            : tierPhrase(p.tier);
    t.evidence = QStringLiteral("Speed: %1 (%2 evidence), %3; the true speed is likely %4× – %5× the figure")
                     .arg(phrase, projectionTierName(p.tier), answerStackText(r, speed),
                          QString::number(low, 'f', 2), QString::number(high, 'f', 2));
    if (speed && speed->batchChangeFrom > 0)
        t.evidence += QStringLiteral("; wider since your figure was measured at batch %1 (rule AD)")
                          .arg(speed->batchChangeFrom);
    if (speed && speed->vendorLogLevel != 0)
        t.evidence += QStringLiteral("; scaled x%1 by this GPU's own MLPerf Training figures (rule AG)")
                          .arg(QString::number(std::exp(speed->vendorLogLevel), 'f', 2));
    const bool inputCapped = hasFlag(p.flags, ProjectionFlag::CpuBound);
    if (inputCapped)
        t.evidence += QStringLiteral("; the input pipeline caps it, at a judged CPU cost per sample");
    QStringList detail{projectionTierDescription(p.tier)};
    if (speed && !speed->basis.isEmpty())
        detail.append(speed->basis);
    detail.append(QStringLiteral("The likely range is the 10th to 90th percentile of this evidence tier's "
                                 "held-out errors (PROJECTION.md)."));
    if (inputCapped)
        detail.append(
            QStringLiteral(
                "The input pipeline (vCPUs / the workload's CPU seconds per sample) caps this run. That cost "
                "is judged, not measured for this workload: on two hosts (Lambda's TensorFlow runs, in "
                "sample) most measured data pipelines ran at %1 of such a figure, and where it caps the run "
                "the range above is the pipeline's.")
                .arg(inputPipelineRangeText()));
    t.evidenceDetail = detail.join(u'\n');
    const PointExplanation why =
        explainPoint(o, p, r.workload, r.options, r.calibration, GpuSpecTable::builtin(), c);
    t.flagSentences = why.flags;
    for (const QString &f : why.flags)
        t.flagNames.append(f.section(u':', 0, 0));
    t.explanation = why.all();
    return t;
}

QString pointPricingText(const Offer &o, const ProjectedOffer &p, ShownText shown)
{
    if (p.mode == PriceMode::Spot)
        return o.spotLabel.isEmpty() ? QStringLiteral("spot") : (shown ? shown : identity)(o.spotLabel);
    return QStringLiteral("on-demand");
}

QString pointTitleText(const Offer &o, const ProjectedOffer &p, ShownText shown)
{
    const ShownText show = shown ? shown : identity;
    QString s = QStringLiteral("%1 %2").arg(providerDisplayName(o.provider), show(o.instanceType));
    if (p.nodes > 1)
        s += QStringLiteral(" ×%1").arg(p.nodes);
    s += QStringLiteral(" in %1, %2").arg(show(locationText(o)), pointPricingText(o, p, shown));
    return s;
}

PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points, const QList<qsizetype> &candidates)
{
    PicksWithinLimits out;
    for (qsizetype i : candidates)
        consider(points, i, out);
    return out;
}

PicksWithinLimits picksWithinLimits(const QList<CompactPoint> &points, const QList<qsizetype> &candidates)
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
                      const std::function<QString(qsizetype)> &titleOf, const Currency &c)
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
        s = QStringLiteral("%1 would finish sooner (%2 instead of %3) but costs %4× as much (%5 instead of "
                           "%6); %7, the time it saves is not worth its price.")
                .arg(titleOf(a.rival), formatHours(q.totalHours), formatHours(p.totalHours),
                     ratioText(p.costUsd > 0 ? q.costUsd / p.costUsd : 0), formatMoneyWithUnit(q.costUsd, c),
                     formatMoneyWithUnit(p.costUsd, c), balance);
    } else {
        s = QStringLiteral("%1 would cost less (%2 instead of %3) but takes %4× as long (%5 instead of "
                           "%6); %7, the money it saves is not worth the wait.")
                .arg(titleOf(a.rival), formatMoneyWithUnit(q.costUsd, c), formatMoneyWithUnit(p.costUsd, c),
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
            parts.append(QStringLiteral("raise the deadline from %1 to %2")
                             .arg(formatHours(*o.deadlineHours), formatHours(*m.deadlineHours)));
        if (m.budgetUsd && o.budgetUsd)
            parts.append(QStringLiteral("raise the budget from %1 USD to %2 USD")
                             .arg(formatUsd(*o.budgetUsd), formatUsd(*m.budgetUsd)));
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

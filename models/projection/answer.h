#pragma once

#include "domain/currency.h"
#include "projection/norecommendation.h"
#include "projection/projectionresults.h"

#include <QList>
#include <QString>

#include <optional>

namespace gf {

struct CompactPoint;

/// The cheapest and the fastest feasible point (within the deadline and budget) among candidates, -1 when
/// none is feasible. Ties: the cheapest prefers the faster, the fastest the cheaper, then the earlier index.
struct PicksWithinLimits
{
    qsizetype cheapest = -1;
    qsizetype fastest = -1;
};
PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points, const QList<qsizetype> &candidates);
/// The same over compact points (projection/tableprojection).
PicksWithinLimits picksWithinLimits(const QList<CompactPoint> &points, const QList<qsizetype> &candidates);
/// The same over every point.
PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points);

/// Suggested limits are rounded up to these steps: values a user types, which the point still fits.
inline constexpr double kLimitHoursStep = 0.1;
inline constexpr double kLimitUsdStep = 1.0;

/// How far the limits have to move for an offer to fit when none does: the new deadline and/or budget and
/// the point that would then fit. A move changes only the limits it names.
struct LimitMove
{
    /// The deadline it needs, rounded up to kLimitHoursStep (set when the deadline must move).
    std::optional<double> deadlineHours;
    /// The budget it needs, rounded up to kLimitUsdStep (set when the budget must move).
    std::optional<double> budgetUsd;
    qsizetype point = -1; ///< the point that fits once the limits move
};

/// The answer to "where should I train this?" for one projection: the recommended point, the cheapest
/// and the fastest within the limits, the recommended point's nearest rival on the frontier, and, when
/// nothing is recommended, why and which limit to move by how much. Indexes are into results.points.
struct Answer
{
    qsizetype recommended = -1;
    qsizetype cheapest = -1;
    qsizetype fastest = -1;
    /// The feasible frontier point with the next best score after the recommended one (-1 when it is the
    /// only feasible frontier point).
    qsizetype rival = -1;
    /// The rival's and the recommended point's likely time ranges overlap.
    bool rivalWithinRange = false;
    NoRecommendation none; ///< facts when nothing is recommended (empty otherwise)
    /// When limits leave out every otherwise eligible point: the smallest single moves (deadline alone,
    /// budget alone) and, when neither alone is enough, a move of both. Empty otherwise.
    QList<LimitMove> moves;

    bool hasRecommendation() const { return recommended >= 0; }
};

Answer answerOf(const ProjectionResults &results);

/// How a document shows a provider's or user's string (the reports cut long ones); the identity by default.
using ShownText = QString (*)(const QString &);
/// "spot" (or the provider's own spot label) or "on-demand".
QString pointPricingText(const Offer &offer, const ProjectedOffer &point, ShownText shown = nullptr);
/// "AWS p4d.24xlarge ×2 in us-east-1 (us-east-1a), spot": provider, instance, nodes, location, pricing.
QString pointTitleText(const Offer &offer, const ProjectedOffer &point, ShownText shown = nullptr);

/// The texts the Answer page and `gpufrontier-cli answer` show for one point (plain text, USD).
struct AnswerPointText
{
    QString title;    ///< pointTitleText
    QString gpu;      ///< "8 × H100 SXM 80GB · 98.32 USD/h · 12.29 USD/GPU-h"
    QString figures;  ///< "2.90 h · 12.32 USD"
    QString likely;   ///< "likely 2.02 h – 3.87 h; 8.55 – 16.41 USD"
    QString evidence; ///< "Speed: carried over from … (transferred evidence), typical PyTorch stack; …"
    QString evidenceDetail;    ///< the tier's description and the speed's basis, one per line
    QStringList flagNames;     ///< "stale-price", …
    QStringList flagSentences; ///< "stale-price: …" per flag
    QStringList explanation;   ///< explainPoint: every number's source, then the flags
};
/// Prices and costs in `currency` (stored USD converted at its rate).
AnswerPointText describeAnswerPoint(const ProjectionResults &results, qsizetype point,
                                    const Currency &currency = usdCurrency());
/// "typical PyTorch stack, transformer class" (or ", workload class unknown"), "vendor-tuned stack", or "your
/// own stack, as you measured it" when the speed is the user's own measurement (speed may be null).
QString answerStackText(const ProjectionResults &results, const SingleGpuSpeed *speed);
/// "1,281,167 images": a count with thousands separators and its unit.
QString answerCountText(double count, const QString &unit);

/// One plain sentence: why the recommended point was picked over its rival ("X would finish 1.4 h sooner
/// but costs 1.8× as much; …"). Empty without a rival. `titleOf` names a point.
QString answerWhyText(const ProjectionResults &results, const Answer &answer,
                      const std::function<QString(qsizetype)> &titleOf,
                      const Currency &currency = usdCurrency());
/// One sentence per limit move: "raise the deadline from 6 h to 8.3 h (X fits)". `titleOf` names a point. In
/// USD: the budget is entered in USD (the workload panel, --budget).
QStringList limitMoveTexts(const ProjectionResults &results, const Answer &answer,
                           const std::function<QString(qsizetype)> &titleOf);

} // namespace gf

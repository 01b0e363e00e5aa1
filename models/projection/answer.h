#pragma once

#include "projection/norecommendation.h"
#include "projection/projectionresults.h"

#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// The cheapest and the fastest feasible point (within the deadline and budget) among candidates, -1 when
/// none is feasible. Ties: the cheapest prefers the faster, the fastest the cheaper, then the earlier index.
struct PicksWithinLimits
{
    qsizetype cheapest = -1;
    qsizetype fastest = -1;
};
PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points, const QList<qsizetype> &candidates);
/// The same over every point.
PicksWithinLimits picksWithinLimits(const QList<ProjectedOffer> &points);

/// How far the limits have to move for an offer to fit when none does: the new deadline and/or budget and
/// the point that would then fit. A move changes only the limits it names.
struct LimitMove
{
    std::optional<double> deadlineHours; ///< the deadline it needs (set when the deadline must move)
    std::optional<double> budgetUsd;     ///< the budget it needs (set when the budget must move)
    qsizetype point = -1;                ///< the point that fits once the limits move
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

/// One plain sentence: why the recommended point was picked over its rival ("X would finish 1.4 h sooner
/// but costs 1.8× as much; …"). Empty without a rival. `titleOf` names a point.
QString answerWhyText(const ProjectionResults &results, const Answer &answer,
                      const std::function<QString(qsizetype)> &titleOf);
/// One sentence per limit move: "raise the deadline from 6 h to 8.3 h (X fits)". `titleOf` names a point.
QStringList limitMoveTexts(const ProjectionResults &results, const Answer &answer,
                           const std::function<QString(qsizetype)> &titleOf);

} // namespace gf

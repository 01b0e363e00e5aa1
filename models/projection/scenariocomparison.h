#pragma once

#include "projection/answer.h"
#include "projection/catalogprojection.h"
#include "projection/scenario.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gf {

/// The request that projects a scenario over a catalog: its workload (resolved by the caller), its
/// options and filter, with the catalog's calibration and imported measurements and `now`.
ProjectionRequest scenarioRequest(const Scenario &scenario, const Workload &workload,
                                  const Calibration &calibration, const ThroughputMeasurements &measurements,
                                  const QDateTime &now);

/// One answer of a scenario: which pick, the offer, its time and cost with their likely ranges.
struct ScenarioPick
{
    QString role;         ///< "recommended", "cheapest within limits", "fastest within limits"
    qsizetype point = -1; ///< into results.points; -1: none
    QString offer;        ///< describeAnswerPoint's title: "AWS p4d.24xlarge ×2 in us-east-1 (…), spot"
    QString gpu;          ///< describeAnswerPoint's GPU line: "8 × H100 SXM 80GB · 98.32 USD/h · …"
    double hours = 0;
    double hoursLow = 0;
    double hoursHigh = 0;
    double costUsd = 0;
    double costUsdLow = 0;
    double costUsdHigh = 0;
};

/// One scenario's side of a comparison: its label, the projection and the Answer (answerOf) read into
/// picks.
struct ScenarioOutcome
{
    QString label; ///< the scenario's name, else its file's name, else "current settings"
    Scenario scenario;
    ProjectionResults results; ///< over the catalog
    Answer answer;
    QList<ScenarioPick> picks; ///< recommended, cheapest, fastest (point -1 where none)
    QString noneText;          ///< when nothing fits: which limit to move (limitMoveTexts), one per line
    QString whyText;           ///< why the recommended point beat its nearest rival (answerWhyText)
    /// The frontier's points (eligible, on the frontier), fastest first: indexes into results.points.
    QList<qsizetype> frontier;
};

/// Projects one scenario over a catalog (projectCatalog) and reads its answer. Pure: runs on any thread.
/// The scenario is expected to resolve (readScenarioFile checks it); an error when it does not.
Result<ScenarioOutcome> projectScenario(const QList<Offer> &catalog, const Scenario &scenario,
                                        const QString &label, const Calibration &calibration,
                                        const ThroughputMeasurements &measurements, const QDateTime &now);

/// A point's offer as one line (pointTitleText, as the Answer page names it).
QString pointOfferText(const ProjectionResults &results, qsizetype point);

/// The comparison as JSON (the CLI's compare-scenarios --format json): per side its label, counts
/// (points, projected, frontier, feasible), picks, what to move when nothing fits; and the differing
/// settings.
QJsonObject comparisonToJson(const ScenarioOutcome &a, const ScenarioOutcome &b);

} // namespace gf

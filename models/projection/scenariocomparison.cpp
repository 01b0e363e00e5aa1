#include "scenariocomparison.h"

#include <QJsonArray>

#include <algorithm>

namespace gf {

ProjectionRequest scenarioRequest(const Scenario &scenario, const Workload &workload,
                                  const Calibration &calibration, const ThroughputMeasurements &measurements,
                                  const QDateTime &now)
{
    ProjectionRequest request;
    request.filter = scenario.filter;
    request.workload = workload;
    request.options = scenario.options;
    request.options.now = now;
    request.calibration = calibration;
    request.measurements = measurements;
    return request;
}

QString pointOfferText(const ProjectionResults &results, qsizetype point)
{
    if (point < 0 || point >= results.points.size())
        return QString();
    const ProjectedOffer &pt = results.points.at(point);
    return pointTitleText(results.offers.at(pt.offerIndex), pt);
}

namespace {

ScenarioPick pickOf(const ProjectionResults &r, const QString &role, qsizetype point)
{
    ScenarioPick p;
    p.role = role;
    p.point = point;
    if (point < 0)
        return p;
    const ProjectedOffer &pt = r.points.at(point);
    const AnswerPointText text = describeAnswerPoint(r, point); // the Answer page's words
    p.offer = text.title;
    p.gpu = text.gpu;
    p.hours = pt.totalHours;
    p.hoursLow = pt.totalHoursLow;
    p.hoursHigh = pt.totalHoursHigh;
    p.costUsd = pt.costUsd;
    p.costUsdLow = pt.costUsdLow;
    p.costUsdHigh = pt.costUsdHigh;
    return p;
}

QJsonObject pickJson(const ScenarioPick &p)
{
    QJsonObject o;
    o.insert(u"role", p.role);
    if (p.point < 0) {
        o.insert(u"offer", QJsonValue::Null);
        return o;
    }
    o.insert(u"offer", p.offer);
    o.insert(u"gpus", p.gpu);
    o.insert(u"hours", p.hours);
    o.insert(u"hours_low", p.hoursLow);
    o.insert(u"hours_high", p.hoursHigh);
    o.insert(u"cost_usd", p.costUsd);
    o.insert(u"cost_usd_low", p.costUsdLow);
    o.insert(u"cost_usd_high", p.costUsdHigh);
    return o;
}

QJsonObject sideJson(const ScenarioOutcome &s)
{
    QJsonObject o;
    o.insert(u"label", s.label);
    o.insert(u"workload", s.results.workload.id);
    o.insert(u"points", s.results.points.size());
    o.insert(u"projected", s.results.projectedCount);
    o.insert(u"frontier", s.results.frontierCount);
    o.insert(u"feasible", s.results.feasibleCount);
    QJsonArray picks;
    for (const ScenarioPick &p : s.picks)
        picks.append(pickJson(p));
    o.insert(u"answers", picks);
    if (!s.noneText.isEmpty())
        o.insert(u"nothing_fits", s.noneText);
    if (!s.whyText.isEmpty())
        o.insert(u"why_recommended", s.whyText);
    return o;
}

} // namespace

Result<ScenarioOutcome> projectScenario(const QList<Offer> &catalog, const Scenario &scenario,
                                        const QString &label, const Calibration &calibration,
                                        const ThroughputMeasurements &measurements, const QDateTime &now)
{
    auto workload = scenarioWorkload(scenario);
    if (!workload)
        return workload.error().prefixed(QStringLiteral("%1: ").arg(label));
    if (auto v = validateProjectionOptions(scenario.options); !v)
        return v.error().prefixed(QStringLiteral("%1: ").arg(label));
    ScenarioOutcome out;
    out.label = label;
    out.scenario = scenario;
    out.results =
        projectCatalog(catalog, scenarioRequest(scenario, workload.value(), calibration, measurements, now));
    out.answer = answerOf(out.results);
    out.picks = {pickOf(out.results, QStringLiteral("recommended"), out.answer.recommended),
                 pickOf(out.results, QStringLiteral("cheapest within limits"), out.answer.cheapest),
                 pickOf(out.results, QStringLiteral("fastest within limits"), out.answer.fastest)};
    const auto title = [&out](qsizetype p) { return pointOfferText(out.results, p); };
    out.whyText = answerWhyText(out.results, out.answer, title);
    if (!out.answer.hasRecommendation()) {
        QStringList lines;
        if (!out.answer.none.facts.isEmpty())
            lines.append(out.answer.none.facts);
        lines += limitMoveTexts(out.results, out.answer, title);
        out.noneText = lines.join(u'\n');
    }
    for (qsizetype i = 0; i < out.results.points.size(); ++i)
        if (out.results.points.at(i).onFrontier)
            out.frontier.append(i);
    std::sort(out.frontier.begin(), out.frontier.end(), [&out](qsizetype a, qsizetype b) {
        return out.results.points.at(a).totalHours < out.results.points.at(b).totalHours;
    });
    return out;
}

QJsonObject comparisonToJson(const ScenarioOutcome &a, const ScenarioOutcome &b)
{
    QJsonObject root;
    root.insert(u"a", sideJson(a));
    root.insert(u"b", sideJson(b));
    QJsonArray diffs;
    for (const ScenarioDifference &d : scenarioDifferences(a.scenario, b.scenario))
        diffs.append(QJsonObject{
            {QStringLiteral("field"), d.field}, {QStringLiteral("a"), d.a}, {QStringLiteral("b"), d.b}});
    root.insert(u"differences", diffs);
    return root;
}

} // namespace gf

#pragma once

#include "domain/offerfilter.h"
#include "domain/workloadbuilder.h"
#include "projection/offerprojection.h"
#include "util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace gf {

/// Everything that defines one question ("where should I train this?"): the workload as a front end
/// describes it, the limits and the assumptions (ProjectionOptions: deadline and budget are its limits),
/// and the filter that chooses the offers projected. Written and read as a scenario file (README
/// "Scenario files"): the GUI's File > Save scenario / Open scenario, the CLI's --scenario and
/// --save-scenario, and the scenario comparison.
struct Scenario
{
    QString name; ///< free text, shown in the comparison (empty: the file's name)
    WorkloadSpec workload;
    /// Deadline, budget, spot policy, checkpoint/setup/restore minutes, node counts, weight, suspect
    /// prices, per-provider interruption rates and egress. `now`, `measurements` and the model's
    /// internals (overlap, bytes per gradient, stale days, parallel) are not part of a scenario.
    ProjectionOptions options;
    OfferFilter filter;
};

/// The file's "schema" value and the newest "version" this build reads and writes.
inline constexpr auto kScenarioSchema = "gpufrontier-scenario";
inline constexpr int kScenarioVersion = 1;

/// The scenario as its file's JSON object: schema, version, name, workload, limits, assumptions,
/// filter, and (for people and other tools; ignored when read) the workload it resolves to, in the
/// report's shape (workloadToJson), when it resolves.
QJsonObject scenarioToJson(const Scenario &scenario);
/// The file's bytes (indented JSON).
QByteArray scenarioToBytes(const Scenario &scenario);

/// Reads a scenario file's bytes. Every field is checked: the message names the field and the rule
/// ("assumptions.checkpoint_minutes: must be a number from 0 to 525600 (got -5)"); unknown fields are
/// errors (a typo would otherwise be ignored silently); a newer version is refused ("written by a
/// newer GPU Frontier"). The workload must resolve (buildWorkloadSpec) and the options must be valid
/// (validateProjectionOptions).
Result<Scenario> scenarioFromBytes(const QByteArray &bytes);

/// Reads a scenario file; the error names the file.
Result<Scenario> readScenarioFile(const QString &path);
/// Writes a scenario file whole or not at all (OutputFile); the error names the file and the reason.
Status writeScenarioFile(const QString &path, const Scenario &scenario);

/// The workload of a scenario (buildWorkloadSpec).
Result<Workload> scenarioWorkload(const Scenario &scenario);

/// One setting that differs between two scenarios: its field ("limits.deadline_hours") and each
/// scenario's value as text ("" when the scenario does not set it: the default applies).
struct ScenarioDifference
{
    QString field;
    QString a;
    QString b;
};
/// The settings that differ (the name aside), sorted by field. A preset's setting given at the preset's
/// own value counts as not given (the GUI saves every box, a hand-written file only its changes).
QList<ScenarioDifference> scenarioDifferences(const Scenario &a, const Scenario &b);

} // namespace gf

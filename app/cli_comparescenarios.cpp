#include "cli.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "projection/scenariocomparison.h"
#include "util/format.h"

#include <QFileInfo>
#include <QJsonDocument>

namespace gf {

namespace {

CliOptions compareOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    o.addFlag(
        QStringLiteral("no-calibration"),
        QStringLiteral("use the datasheet-only default efficiencies, not the newest readable probe run"));
    addMeasurementOption(o);
    return o;
}

class CompareScenariosCommand final : public CliCommand
{
public:
    CompareScenariosCommand()
        : CliCommand(
              {.name = QStringLiteral("compare-scenarios"),
               .summary = QStringLiteral("Two scenario files' answers and frontiers side by side"),
               .synopsis = QStringLiteral("A.json B.json [OPTIONS]"),
               .description = QStringLiteral(
                   "Projects two scenario files (the GUI's File > Save scenario, or --save-scenario of\n"
                   "frontier, report and plan) over the current catalog and prints, side by side, each\n"
                   "one's recommended offer and the cheapest and the fastest within its limits (time and\n"
                   "cost with their likely range), the size of its frontier, and the settings that\n"
                   "differ. When nothing fits a scenario's limits, it says which limit to move."),
               .positionalArguments = true},
              compareOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

/// "2.9 h (2.4-3.6)" / "12.39 USD (10.20-15.01)".
QString rangeText(double v, double lo, double hi, bool hours)
{
    if (hours)
        return QStringLiteral("%1 (%2-%3)").arg(formatHours(v), formatHours(lo), formatHours(hi));
    return QStringLiteral("%1 USD (%2-%3)").arg(formatUsd(v), formatUsd(lo), formatUsd(hi));
}

QString padded(const QString &s, qsizetype width)
{
    return s.leftJustified(width, u' ');
}

} // namespace

int CompareScenariosCommand::run(CliContext &ctx, const CliArgs &args) const
{
    const auto format = formatFromArgs(ctx, name(), args, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const QStringList files = args.positional();
    if (files.size() != 2)
        return usageError(ctx, QStringLiteral("give two scenario files (got %1)").arg(files.size()));
    QList<Scenario> scenarios;
    for (const QString &file : files) {
        auto s = readScenarioFile(file);
        if (!s)
            return fail(ctx, cliFailure(s.error().message));
        scenarios.append(s.value());
    }
    auto calibration = calibrationFromArgs(ctx, args);
    if (!calibration)
        return fail(ctx, calibration.error());
    auto measurements = measurementsFromArgs(ctx, args);
    if (!measurements)
        return fail(ctx, measurements.error());
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto offers = store->currentOffers();
    if (!offers)
        return fail(ctx, offers.error());
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<ScenarioOutcome> sides;
    for (qsizetype i = 0; i < 2; ++i) {
        const QString label =
            scenarios[i].name.isEmpty() ? QFileInfo(files.at(i)).completeBaseName() : scenarios[i].name;
        auto outcome = projectScenario(offers.value(), scenarios[i], label, calibration.value().calibration,
                                       measurements.value(), now);
        if (!outcome)
            return fail(ctx, cliFailure(outcome.error().message));
        sides.append(std::move(outcome).value());
    }

    if (*format == u"json") {
        ctx.out << QJsonDocument(comparisonToJson(sides[0], sides[1])).toJson(QJsonDocument::Indented);
        return ExitOk;
    }
    // Rows of (label, A, B), the widest A sets the column.
    QList<std::array<QString, 3>> rows;
    rows.append({QStringLiteral("Scenario"), sides[0].label, sides[1].label});
    rows.append({QStringLiteral("Workload"), sides[0].results.workload.name, sides[1].results.workload.name});
    const auto counts = [](const ScenarioOutcome &s) {
        return QStringLiteral("%1 points, %2 on the frontier, %3 feasible")
            .arg(s.results.points.size())
            .arg(s.results.frontierCount)
            .arg(s.results.feasibleCount);
    };
    rows.append({QStringLiteral("Projection"), counts(sides[0]), counts(sides[1])});
    for (qsizetype p = 0; p < sides[0].picks.size(); ++p) {
        std::array<QString, 3> offer{sides[0].picks[p].role, {}, {}}, time{QStringLiteral("  time"), {}, {}},
            cost{QStringLiteral("  cost"), {}, {}};
        for (int s = 0; s < 2; ++s) {
            const ScenarioPick &pick = sides[s].picks[p];
            if (pick.point < 0) {
                offer[s + 1] = QStringLiteral("none within the limits");
                continue;
            }
            offer[s + 1] = pick.offer;
            time[s + 1] = rangeText(pick.hours, pick.hoursLow, pick.hoursHigh, true);
            cost[s + 1] = rangeText(pick.costUsd, pick.costUsdLow, pick.costUsdHigh, false);
        }
        rows.append(offer);
        rows.append(time);
        rows.append(cost);
    }
    for (int s = 0; s < 2; ++s)
        if (!sides[s].noneText.isEmpty())
            rows.append({s == 0 ? QStringLiteral("A: nothing fits") : QStringLiteral("B: nothing fits"),
                         s == 0 ? sides[s].noneText.split(u'\n').join(QStringLiteral("; ")) : QString(),
                         s == 1 ? sides[s].noneText.split(u'\n').join(QStringLiteral("; ")) : QString()});
    const QList<ScenarioDifference> diffs = scenarioDifferences(scenarios[0], scenarios[1]);
    rows.append({QStringLiteral("Settings that differ"), QString::number(diffs.size()), QString()});
    for (const ScenarioDifference &d : diffs)
        rows.append({QStringLiteral("  ") + d.field, d.a.isEmpty() ? QStringLiteral("(default)") : d.a,
                     d.b.isEmpty() ? QStringLiteral("(default)") : d.b});
    qsizetype w0 = 0, w1 = 0;
    for (const auto &r : rows) {
        w0 = std::max(w0, r[0].size());
        w1 = std::max(w1, r[1].size());
    }
    for (const auto &r : rows) {
        QString line =
            padded(r[0], w0) + QStringLiteral("  ") + padded(r[1], w1) + QStringLiteral("  ") + r[2];
        while (line.endsWith(u' '))
            line.chop(1);
        ctx.out << line << '\n';
    }
    return ExitOk;
}

std::unique_ptr<CliCommand> makeCompareScenariosCommand()
{
    return std::make_unique<CompareScenariosCommand>();
}

} // namespace gf

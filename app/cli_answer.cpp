#include "cli.h"
#include "cli_currency.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "projection/answer.h"
#include "projection/pointjson.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

CliOptions answerOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("text (default) or json"));
    addCurrencyOptions(o);
    return o;
}

/// `gpufrontier-cli answer`: the GUI's Answer page on the command line (projection/answer.h).
class AnswerCommand final : public ProjectingCommand
{
public:
    AnswerCommand()
        : ProjectingCommand(
              {.name = QStringLiteral("answer"),
               .summary =
                   QStringLiteral("Where to train: the recommended offer, the cheapest and the fastest "
                                  "within the limits, and why"),
               .synopsis = QStringLiteral("--workload NAME [OPTIONS]"),
               .description = QStringLiteral(
                   "Answers \"where should I train this?\" for the workload and limits: the recommended "
                   "offer\n"
                   "and the cheapest and the fastest within the deadline and budget, each with time, cost,\n"
                   "likely range, USD/h and USD/GPU-h and how sure its speed is (evidence tier and software\n"
                   "stack); why the recommended offer beat its nearest rival on the efficiency frontier; "
                   "and,\n"
                   "when no offer fits, why and by how much to move --deadline and/or --budget. The same\n"
                   "answer as the GUI's Answer page. --format json writes it with the points in the shape\n"
                   "of the JSON report.")},
              answerOptions())
    {
    }

private:
    Result<int> runProjecting(CliContext &ctx, const CliArgs &args) const override;
};

QString moveFlags(const LimitMove &m)
{
    QStringList flags;
    if (m.deadlineHours)
        flags.append(QStringLiteral("--deadline %1").arg(QString::number(*m.deadlineHours, 'f', 1)));
    if (m.budgetUsd)
        flags.append(QStringLiteral("--budget %1").arg(QString::number(*m.budgetUsd, 'f', 0)));
    return flags.join(u' ');
}

void writePointText(CliContext &ctx, const ProjectionResults &r, const QString &role, qsizetype point,
                    const QString &note, const Currency &cur)
{
    if (point < 0) {
        ctx.out << role << ": none\n";
        return;
    }
    const AnswerPointText t = describeAnswerPoint(r, point, cur);
    ctx.out << role << ": " << t.title << '\n';
    if (!note.isEmpty())
        ctx.out << "  " << note << '\n';
    ctx.out << "  " << t.figures << " (" << t.likely << ")\n";
    ctx.out << "  " << t.gpu << '\n';
    ctx.out << "  " << t.evidence << '\n';
    if (!t.flagNames.isEmpty())
        ctx.out << "  flags: " << t.flagNames.join(QStringLiteral(", ")) << '\n';
}

QJsonValue pointJson(const ProjectionResults &r, qsizetype point)
{
    if (point < 0)
        return QJsonValue();
    const ProjectedOffer &p = r.points.at(point);
    QJsonObject o = projectedPointToJson(r.offers.at(p.offerIndex), p, p.recommended, r.options.now);
    const AnswerPointText t = describeAnswerPoint(r, point);
    o.insert(u"title", t.title);
    o.insert(u"evidence", t.evidence);
    return o;
}

Result<int> AnswerCommand::runProjecting(CliContext &ctx, const CliArgs &p) const
{
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("text"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const auto currency = currencyForFormat(p, *format, QStringLiteral("text"));
    if (!currency)
        return currency.error();
    const Currency &cur = currency.value();
    auto projected = projectFromArgs(ctx, p, QDateTime::currentDateTimeUtc());
    if (!projected)
        return projected.error();
    const ProjectionResults &r = projected.value().results;
    const Answer a = answerOf(r);
    const auto title = [&r](qsizetype i) {
        return pointTitleText(r.offers.at(r.points.at(i).offerIndex), r.points.at(i));
    };
    const QString why = answerWhyText(r, a, title, cur);
    const QStringList moves = limitMoveTexts(r, a, title);

    if (*format == u"json") {
        QJsonObject root;
        root.insert(u"workload", workloadToJson(r.workload));
        QJsonObject limits;
        limits.insert(u"deadline_hours",
                      r.options.deadlineHours ? QJsonValue(*r.options.deadlineHours) : QJsonValue());
        limits.insert(u"budget_usd", r.options.budgetUsd ? QJsonValue(*r.options.budgetUsd) : QJsonValue());
        limits.insert(u"weight", r.options.weight);
        root.insert(u"limits", limits);
        QJsonObject counts;
        counts.insert(u"offers", r.offers.size());
        counts.insert(u"projected", r.projectedCount);
        counts.insert(u"on_frontier", r.frontierCount);
        counts.insert(u"feasible", r.feasibleCount);
        root.insert(u"counts", counts);
        root.insert(u"recommended", pointJson(r, a.recommended));
        root.insert(u"cheapest_within_limits", pointJson(r, a.cheapest));
        root.insert(u"fastest_within_limits", pointJson(r, a.fastest));
        root.insert(u"rival", pointJson(r, a.rival));
        root.insert(u"why", why.isEmpty() ? QJsonValue() : QJsonValue(why));
        root.insert(u"nothing_fits", a.none.facts.isEmpty() ? QJsonValue() : QJsonValue(a.none.facts));
        QJsonArray moveArray;
        for (qsizetype i = 0; i < a.moves.size(); ++i) {
            const LimitMove &m = a.moves.at(i);
            QJsonObject j;
            j.insert(u"deadline_hours", m.deadlineHours ? QJsonValue(*m.deadlineHours) : QJsonValue());
            j.insert(u"budget_usd", m.budgetUsd ? QJsonValue(*m.budgetUsd) : QJsonValue());
            j.insert(u"text", moves.value(i));
            j.insert(u"point", pointJson(r, m.point));
            moveArray.append(j);
        }
        root.insert(u"limit_moves", moveArray);
        ctx.out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return ExitOk;
    }

    ctx.out << "Workload: " << workloadSummaryText(r.workload) << '\n';
    ctx.out << calibrationText(projected.value().calibration);
    ctx.out << currencyLine(cur);
    ctx.out << QStringLiteral(
                   "Limits: %1, %2 · %3 offers projected, %4 within the limits, %5 on the frontier\n")
                   .arg(r.options.deadlineHours
                            ? QStringLiteral("deadline %1").arg(formatHours(*r.options.deadlineHours))
                            : QStringLiteral("no deadline"),
                        r.options.budgetUsd
                            ? QStringLiteral("budget %1 USD").arg(formatUsd(*r.options.budgetUsd))
                            : QStringLiteral("no budget"))
                   .arg(r.projectedCount)
                   .arg(r.feasibleCount)
                   .arg(r.frontierCount);
    ctx.out << '\n';
    if (!a.hasRecommendation()) {
        ctx.out << "No offer fits: " << a.none.facts << ".\n";
        for (qsizetype i = 0; i < moves.size(); ++i)
            ctx.out << "  - " << moves.at(i) << " [" << moveFlags(a.moves.at(i)) << "]\n";
        if (a.none.suspectExcluded)
            ctx.out << "  - offers with suspect prices were left out: refresh their catalogs, or pass "
                       "--include-suspect\n";
        return ExitOk; // an answer too: nothing fits, and what to change
    }
    writePointText(ctx, r, QStringLiteral("Recommended"), a.recommended, {}, cur);
    writePointText(ctx, r, QStringLiteral("Cheapest within limits"), a.cheapest,
                   a.cheapest == a.recommended ? QStringLiteral("(the recommended offer)") : QString(), cur);
    writePointText(ctx, r, QStringLiteral("Fastest within limits"), a.fastest,
                   a.fastest == a.recommended ? QStringLiteral("(the recommended offer)") : QString(), cur);
    ctx.out << '\n'
            << "Why: it is on the efficiency frontier (no offer is both faster and cheaper). "
            << (why.isEmpty() ? QStringLiteral("It is the only offer on the frontier within the limits.")
                              : why)
            << '\n';
    ctx.out << "Next: gpufrontier-cli plan (a SkyPilot task), gpufrontier-cli report (HTML, PDF, …) with the "
               "same options.\n";
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeAnswerCommand()
{
    return std::make_unique<AnswerCommand>();
}

} // namespace gf

#include "cli.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/workload.h"
#include "launch/launchplan.h"
#include "launch/offerid.h"
#include "projection/offerprojection.h"
#include "util/format.h"

#include <QDir>
#include <QFileInfo>

#include <cmath>

namespace gf {

namespace {

CliOptions planOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("top"), QStringLiteral("K"),
               QStringLiteral("plan the K best frontier points, the recommended one first (default 1)"));
    o.addRepeatable(
        QStringLiteral("offer"), QStringLiteral("ID"),
        QStringLiteral("plan this offer: provider/instance_type/region[/zone][:spot] (repeatable)"));
    o.addValue(QStringLiteral("run"), QStringLiteral("CMD"),
               QStringLiteral("your training command (runs on every node; envs GF_USER_CMD)"));
    o.addFlag(
        QStringLiteral("probe"),
        QStringLiteral("run gpufrontier-probe (from the .tar.gz package) and the measured-throughput step"));
    o.addFlag(
        QStringLiteral("sweep"),
        QStringLiteral("validation sweep: one task per frontier offer that measures (the probe and a short "
                       "timed run) and stops, + sweep.sh; implies --probe"));
    o.addFlag(QStringLiteral("skypilot-legacy"),
              QStringLiteral("write cloud/region/zone keys instead of infra (SkyPilot before 0.10)"));
    o.addValue(QStringLiteral("package"), QStringLiteral("FILE"),
               QStringLiteral(
                   "GPU Frontier's .tar.gz (cpack -G TGZ) for --probe or --sweep, copied into DIR (default: "
                   "gpufrontier-" GPUFRONTIER_VERSION
                   "-linux-x86_64.tar.gz from DIR or the current folder)"));
    o.addValue(QStringLiteral("margin"), QStringLiteral("X"),
               QStringLiteral("cost ceiling = projected cost x X, at least the slow end of its range "
                              "(default 1.25)"));
    o.addValue(QStringLiteral("disk-gb"), QStringLiteral("GB"),
               QStringLiteral("disk per node (default: from the workload's data set, at least 256)"));
    o.addValue(QStringLiteral("measure-seconds"), QStringLiteral("S"),
               QStringLiteral("length of the measured-throughput step (default 180)"));
    o.add({{QStringLiteral("output"), QStringLiteral("o")},
           QStringLiteral("DIR"),
           QStringLiteral("folder to write the plan into (created when missing)")});
    return o;
}

class PlanCommand final : public ProjectingCommand
{
public:
    PlanCommand()
        : ProjectingCommand(
              {.name = QStringLiteral("plan"),
               .summary = QStringLiteral(
                   "Write SkyPilot launch plans for the chosen offers (and a validation sweep)"),
               .synopsis = QStringLiteral("--workload W [--top K | --offer ID ...] [--run CMD] [--probe] "
                                          "[--nodes N] [--sweep] -o DIR"),
               .description = QStringLiteral(
                   "Writes one SkyPilot task YAML per offer into DIR, pinning exactly that offer (cloud, "
                   "region,\n"
                   "zone where SkyPilot takes it, instance type, accelerators NAME:COUNT, spot or "
                   "on-demand,\n"
                   "nodes, disk), plus README.txt with the sky commands, the cost ceiling of each task and "
                   "how to\n"
                   "bring measurements back ('gpufrontier-cli measure --import').\n"
                   "Offers: --top K takes the K best points of the efficiency frontier for --weight (the\n"
                   "recommended one first); --offer ID names one, as 'gpufrontier-cli plan' prints them:\n"
                   "provider/instance_type/region[/zone][:spot] ('%' '/' ':' ',' inside a part written %25 "
                   "%2F %3A %2C;\n"
                   "without the zone the cheapest zone of the region is taken).\n"
                   "--sweep: every task runs the probe (--sweep implies --probe) and a short timed run of "
                   "--run (or a\n"
                   "synthetic PyTorch step of the preset's shape, gf_measure.py) and stops; sweep.sh "
                   "launches\n"
                   "them in parallel, collects the JSON files and tears the clusters down.")},
              planOptions())
    {
    }

private:
    Result<int> runProjecting(CliContext &ctx, const CliArgs &args) const override;
};

QString modeText(bool spot)
{
    return spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
}

Result<int> PlanCommand::runProjecting(CliContext &ctx, const CliArgs &p) const
{
    const QString dir = p.value(QStringLiteral("output"));
    if (dir.isEmpty())
        return cliUsageError(QStringLiteral("-o DIR is required (the folder to write the plan into)"));
    QString err;
    const auto top = p.number(QStringLiteral("top"), &err, 1, 1000);
    const auto margin = p.number(QStringLiteral("margin"), &err, 1, 100);
    const auto disk = p.number(QStringLiteral("disk-gb"), &err, 1, 65536);
    const auto measureSeconds = p.number(QStringLiteral("measure-seconds"), &err, 10, 86400);
    if (!err.isEmpty())
        return cliUsageError(err);
    if (top && *top != std::floor(*top))
        return cliUsageError(QStringLiteral("--top: must be a whole number"));
    const QStringList offerIds = splitOfferIds(p.rawValues(QStringLiteral("offer")));
    if (top && !offerIds.isEmpty())
        return cliUsageError(QStringLiteral("--top and --offer exclude each other"));
    const QStringList nodeValues = p.values(QStringLiteral("nodes"));
    if (nodeValues.size() > 1)
        return cliUsageError(QStringLiteral("--nodes: a plan takes one node count (got %1)")
                                 .arg(nodeValues.join(QStringLiteral(", "))));

    LaunchOptions lo;
    lo.runCommand = p.value(QStringLiteral("run"));
    lo.probe = p.isSet(QStringLiteral("probe"));
    lo.sweep = p.isSet(QStringLiteral("sweep"));
    lo.legacyKeys = p.isSet(QStringLiteral("skypilot-legacy"));
    if (margin)
        lo.costMargin = *margin;
    if (disk)
        lo.diskGb = static_cast<int>(std::ceil(*disk));
    if (measureSeconds)
        lo.measureSeconds = static_cast<int>(*measureSeconds);
    const QString package = p.value(QStringLiteral("package"));
    if (!package.isEmpty()) {
        if (!lo.measures())
            return cliUsageError(QStringLiteral("--package goes with --probe or --sweep"));
        if (!QFileInfo(package).isFile())
            return cliUsageError(QStringLiteral("--package: %1 is not a file").arg(package));
    }
    if (lo.measures()) {
        auto found = findPackage(package, {dir, QDir::currentPath()});
        if (!found)
            return cliFailure(
                found.error().text() +
                QStringLiteral(". Build it with `cpack -G TGZ` in a release build folder and run plan "
                               "there, or pass --package FILE."));
        lo.packagePath = found.value();
    }

    auto projected = projectFromArgs(ctx, p, QDateTime::currentDateTimeUtc());
    if (!projected)
        return projected.error();
    const CalibrationChoice &choice = projected.value().calibration;
    const ProjectionResults &r = projected.value().results;
    const Workload &workload = r.workload;
    const ProjectionOptions &opt = r.options;
    const QList<Offer> &offers = r.offers;
    const QList<ProjectedOffer> &points = r.points;
    const int nodes = opt.nodeCounts.size() > 1 ? opt.nodeCounts.last() : 1;
    lo.nodes = nodes;

    QList<LaunchCandidate> candidates;
    QStringList notes;
    if (!offerIds.isEmpty()) {
        for (const QString &text : offerIds) {
            auto id = parseOfferId(text);
            if (!id)
                return cliUsageError(QStringLiteral("--offer: ") + id.error().message);
            QList<qsizetype> matches = matchOffers(offers, id.value());
            if (matches.isEmpty())
                return cliFailure(
                    QStringLiteral("no current offer is %1 (see 'gpufrontier-cli offers'; IDs are "
                                   "provider/instance_type/region[/zone][:spot])")
                        .arg(text));
            // Without a zone: the cheapest zone of the region at the asked price.
            qsizetype best = -1;
            for (qsizetype i : std::as_const(matches)) {
                const auto price = id.value().spot ? offers.at(i).spotUsdH : offers.at(i).onDemandUsdH;
                if (!price)
                    continue;
                const auto bestPrice =
                    best < 0 ? std::nullopt
                             : (id.value().spot ? offers.at(best).spotUsdH : offers.at(best).onDemandUsdH);
                if (best < 0 || *price < *bestPrice)
                    best = i;
            }
            if (best < 0)
                return cliFailure(QStringLiteral("%1 has no %2 price").arg(text, modeText(id.value().spot)));
            if (matches.size() > 1)
                notes.append(QStringLiteral("%1: %2 zones match; took %3 (cheapest)")
                                 .arg(text, QString::number(matches.size()),
                                      offerIdText(offers.at(best), id.value().spot)));
            auto c = launchCandidate(offers, points, best, id.value().spot, nodes);
            if (!c) {
                ctx.err << "gpufrontier-cli plan: " << c.error().text() << Qt::endl;
                return ExitFailure;
            }
            candidates.append(c.value());
        }
    } else {
        const int k = top ? static_cast<int>(*top) : 1;
        QSet<QString> offersTaken;
        for (qsizetype i : rankFrontierPoints(points, opt.weight)) {
            const ProjectedOffer &pt = points.at(i);
            if (pt.nodes != nodes)
                continue;
            // One task per distinct SkyPilot launch (two AWS zones of a region are one); a sweep measures an
            // instance type once per region (spot and on-demand, and the zones of a region, run at the same
            // speed).
            const Offer &o = offers.at(pt.offerIndex);
            const bool spot = pt.mode == PriceMode::Spot;
            auto resolved = launchCandidate(offers, points, pt.offerIndex, spot, nodes);
            const LaunchCandidate c = resolved ? resolved.value() : LaunchCandidate{o, spot, pt, {}};
            const bool launchable = resolved && !launchKey(o, false).isEmpty();
            const QString key = !launchable ? QString() : lo.sweep ? offerKey(o) : launchKey(o, c.spot);
            if (launchable && offersTaken.contains(key))
                continue;
            candidates.append(c); // one SkyPilot cannot launch is listed as not planned, not counted
            if (launchable)
                offersTaken.insert(key);
            if (offersTaken.size() >= k)
                break;
        }
        if (candidates.isEmpty())
            return cliFailure(QStringLiteral("no frontier point%1 for this workload and these filters")
                                  .arg(nodes > 1 ? QStringLiteral(" on %1 nodes").arg(nodes) : QString()));
    }

    auto plan = buildLaunchPlan(workload, candidates, lo);
    if (!plan)
        return plan.error();
    auto written = writeLaunchPlan(plan.value(), dir);
    if (!written)
        return written.error();

    ctx.out << "Workload: " << workloadSummaryText(workload) << '\n';
    ctx.out << calibrationText(choice);
    QList<QStringList> rows;
    for (const LaunchTask &t : plan.value().tasks) {
        const QString dash = QStringLiteral("–");
        rows.append({t.fileName, t.offerId,
                     QStringLiteral("%1:%2").arg(t.pin.accelerator, QString::number(t.pin.acceleratorCount)),
                     t.usdPerHour ? formatUsdPerHour(*t.usdPerHour) : dash,
                     t.taskHours ? formatHours(*t.taskHours) : dash, // a sweep task: the measuring run
                     t.taskCostUsd ? formatUsd(*t.taskCostUsd) : dash,
                     t.costCeilingUsd ? formatUsd(*t.costCeilingUsd) : dash, t.launchCommand()});
    }
    ctx.out << renderTable({QStringLiteral("Task"), QStringLiteral("Offer ID"),
                            QStringLiteral("Accelerators"), QStringLiteral("USD/h"),
                            QStringLiteral("Projected"), QStringLiteral("Cost USD"),
                            QStringLiteral("Ceiling USD"), QStringLiteral("Launch (in DIR)")},
                           rows, {false, false, false, true, true, true, true, false});
    for (const QString &n : std::as_const(notes))
        ctx.out << "Note: " << n << '\n';
    for (const QString &s : plan.value().skipped)
        ctx.out << "Not planned: " << s << '\n';
    ctx.out << QStringLiteral("Wrote %1 files into %2 (see README.txt%3).\n")
                   .arg(written.value().size())
                   .arg(QDir::toNativeSeparators(dir),
                        lo.sweep ? QStringLiteral("; bash sweep.sh runs the sweep") : QString());
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makePlanCommand()
{
    return std::make_unique<PlanCommand>();
}

} // namespace gf

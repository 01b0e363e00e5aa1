#include "cli.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/workload.h"
#include "launch/launchplan.h"
#include "launch/offerid.h"
#include "projection/offerprojection.h"
#include "util/format.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cmath>

namespace gf {

namespace {

CliOptions planOptions()
{
    CliOptions o;
    addWorkloadOptions(o);
    addProjectionOptions(o);
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
    o.addValue(
        QStringLiteral("package"), QStringLiteral("FILE"),
        QStringLiteral("GPU Frontier's .tar.gz (cpack -G TGZ) for --probe or --sweep: copied into DIR"));
    o.addValue(QStringLiteral("margin"), QStringLiteral("X"),
               QStringLiteral("cost ceiling = projected cost x X (default 1.25)"));
    o.addValue(QStringLiteral("disk-gb"), QStringLiteral("GB"),
               QStringLiteral("disk per node (default: from the workload's data set, at least 256)"));
    o.addValue(QStringLiteral("measure-seconds"), QStringLiteral("S"),
               QStringLiteral("length of the measured-throughput step (default 180)"));
    o.add({{QStringLiteral("output"), QStringLiteral("o")},
           QStringLiteral("DIR"),
           QStringLiteral("folder to write the plan into (created when missing)")});
    return o;
}

class PlanCommand final : public CliCommand
{
public:
    PlanCommand()
        : CliCommand(
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
                   "provider/instance_type/region[/zone][:spot] ('%' '/' ':' inside a part written %25 %2F "
                   "%3A;\n"
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
    int run(CliContext &ctx, const CliArgs &args) const override;
};

QString modeText(bool spot)
{
    return spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
}

int PlanCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const QString dir = p.value(QStringLiteral("output"));
    if (dir.isEmpty())
        return usageError(ctx, QStringLiteral("-o DIR is required (the folder to write the plan into)"));
    QString err;
    const auto top = p.number(QStringLiteral("top"), &err, 1, 1000);
    const auto margin = p.number(QStringLiteral("margin"), &err, 1, 100);
    const auto disk = p.number(QStringLiteral("disk-gb"), &err, 1, 65536);
    const auto measureSeconds = p.number(QStringLiteral("measure-seconds"), &err, 10, 86400);
    if (!err.isEmpty())
        return usageError(ctx, err);
    if (top && *top != std::floor(*top))
        return usageError(ctx, QStringLiteral("--top: must be a whole number"));
    const QStringList offerIds = splitOfferIds(p.rawValues(QStringLiteral("offer")));
    if (top && !offerIds.isEmpty())
        return usageError(ctx, QStringLiteral("--top and --offer exclude each other"));
    const QStringList nodeValues = p.values(QStringLiteral("nodes"));
    if (nodeValues.size() > 1)
        return usageError(ctx, QStringLiteral("--nodes: a plan takes one node count (got %1)")
                                   .arg(nodeValues.join(QStringLiteral(", "))));

    ProjectionArgs projArgs;
    if (const int rc = projectionArgsFromArgs(ctx, name(), p, &projArgs); rc >= 0)
        return rc;
    ProjectionOptions opt = projArgs.options;
    const int nodes = opt.nodeCounts.size() > 1 ? opt.nodeCounts.last() : 1;
    Workload workload;
    if (const int rc = workloadFromArgs(ctx, name(), p, &workload); rc >= 0)
        return rc;
    if (auto v = validateProjectionOptions(opt); !v)
        return usageError(ctx, v.error().message);

    LaunchOptions lo;
    lo.runCommand = p.value(QStringLiteral("run"));
    lo.probe = p.isSet(QStringLiteral("probe"));
    lo.sweep = p.isSet(QStringLiteral("sweep"));
    lo.legacyKeys = p.isSet(QStringLiteral("skypilot-legacy"));
    lo.nodes = nodes;
    if (margin)
        lo.costMargin = *margin;
    if (disk)
        lo.diskGb = static_cast<int>(std::ceil(*disk));
    if (measureSeconds)
        lo.measureSeconds = static_cast<int>(*measureSeconds);
    const QString package = p.value(QStringLiteral("package"));
    if (!package.isEmpty()) {
        if (!lo.measures())
            return usageError(ctx, QStringLiteral("--package goes with --probe or --sweep"));
        if (!QFileInfo(package).isFile())
            return usageError(ctx, QStringLiteral("--package: %1 is not a file").arg(package));
        lo.packagePath = QStringLiteral("./") + QFileInfo(package).fileName();
    }

    CalibrationChoice choice;
    if (const int rc = calibrationFromArgs(ctx, p, &choice); rc >= 0)
        return rc;
    QList<Offer> offers;
    if (const int rc = currentOffersForProviders(ctx, name(), projArgs.providers, &offers); rc >= 0)
        return rc;
    opt.now = QDateTime::currentDateTimeUtc();
    const QList<ProjectedOffer> points = projectOffers(offers, workload, opt, choice.calibration);

    QList<LaunchCandidate> candidates;
    QStringList notes;
    if (!offerIds.isEmpty()) {
        for (const QString &text : offerIds) {
            auto id = parseOfferId(text);
            if (!id)
                return usageError(ctx, QStringLiteral("--offer: ") + id.error().message);
            QList<qsizetype> matches = matchOffers(offers, id.value());
            if (matches.isEmpty()) {
                ctx.err
                    << "gpufrontier-cli plan: no current offer is " << text
                    << " (see 'gpufrontier-cli offers'; IDs are provider/instance_type/region[/zone][:spot])"
                    << Qt::endl;
                return ExitFailure;
            }
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
            if (best < 0) {
                ctx.err << "gpufrontier-cli plan: " << text << " has no " << modeText(id.value().spot)
                        << " price" << Qt::endl;
                return ExitFailure;
            }
            if (matches.size() > 1)
                notes.append(QStringLiteral("%1: %2 zones match; took %3 (cheapest)")
                                 .arg(text)
                                 .arg(matches.size())
                                 .arg(offerIdText(offers.at(best), id.value().spot)));
            LaunchCandidate c;
            c.offer = offers.at(best);
            c.spot = id.value().spot;
            for (const ProjectedOffer &pt : points)
                if (pt.offerIndex == best && (pt.mode == PriceMode::Spot) == c.spot && pt.nodes == nodes)
                    c.point = pt;
            if (!c.point)
                for (const ProjectedOffer &pt : points)
                    if (pt.offerIndex == best && (pt.mode == PriceMode::Spot) == c.spot && pt.nodes == 1)
                        c.point = pt;
            candidates.append(c);
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
            const bool launchable = !launchKey(o, false).isEmpty();
            const QString key = !launchable ? QString()
                                : lo.sweep  ? offerKey(o)
                                            : launchKey(o, pt.mode == PriceMode::Spot);
            if (launchable && offersTaken.contains(key))
                continue;
            LaunchCandidate c;
            c.offer = offers.at(pt.offerIndex);
            c.spot = pt.mode == PriceMode::Spot;
            c.point = pt;
            candidates.append(c); // one SkyPilot cannot launch is listed as not planned, not counted
            if (launchable)
                offersTaken.insert(key);
            if (offersTaken.size() >= k)
                break;
        }
        if (candidates.isEmpty()) {
            ctx.err << "gpufrontier-cli plan: no frontier point"
                    << (nodes > 1 ? QStringLiteral(" on %1 nodes").arg(nodes) : QString())
                    << " for this workload and these filters" << Qt::endl;
            return ExitFailure;
        }
    }

    auto plan = buildLaunchPlan(workload, candidates, lo);
    if (!plan) {
        ctx.err << "gpufrontier-cli plan: " << plan.error().text() << Qt::endl;
        return ExitFailure;
    }
    auto written = writeLaunchPlan(plan.value(), dir);
    if (!written) {
        ctx.err << "gpufrontier-cli plan: " << written.error().text() << Qt::endl;
        return ExitFailure;
    }
    if (!package.isEmpty()) {
        const QString target = QDir(dir).filePath(QFileInfo(package).fileName());
        if (QFileInfo(target).canonicalFilePath() != QFileInfo(package).canonicalFilePath()) {
            QFile::remove(target);
            if (!QFile::copy(package, target)) {
                ctx.err << "gpufrontier-cli plan: cannot copy " << package << " to " << target << Qt::endl;
                return ExitFailure;
            }
        }
    }

    ctx.out << "Workload: " << workloadSummaryText(workload) << '\n';
    ctx.out << calibrationText(choice);
    QList<QStringList> rows;
    for (const LaunchTask &t : plan.value().tasks) {
        const QString dash = QStringLiteral("–");
        rows.append({t.fileName, t.offerId,
                     QStringLiteral("%1:%2").arg(t.pin.accelerator).arg(t.pin.acceleratorCount),
                     t.usdPerHour ? formatUsdPerHour(*t.usdPerHour) : dash,
                     t.projectedHours ? formatHours(*t.projectedHours) : dash,
                     t.projectedCostUsd ? formatUsd(*t.projectedCostUsd) : dash,
                     t.costCeilingUsd ? formatUsd(*t.costCeilingUsd) : dash,
                     t.spot && !lo.sweep ? QStringLiteral("sky jobs launch -n %1 %2").arg(t.name, t.fileName)
                                         : QStringLiteral("sky launch -c %1 %2").arg(t.name, t.fileName)});
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
    if (lo.measures() && package.isEmpty())
        ctx.out << "Note: the probe ships GPU Frontier's package: copy gpufrontier-" GPUFRONTIER_VERSION
                   "-linux-x86_64.tar.gz (cpack -G TGZ) into "
                << dir << " or pass --package FILE.\n";
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

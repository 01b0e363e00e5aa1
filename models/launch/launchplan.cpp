#include "launch/launchplan.h"
#include "projection/stepfloor.h"

#include "launch/offerid.h"
#include "launch/skypilotrules.h"
#include "launch/yamltext.h"
#include "util/format.h"
#include "util/outputfile.h"
#include "util/resourcefiles.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <algorithm>
#include <cmath>
#include <map>

namespace gf {

namespace {

QString number(double v, int decimals = 2)
{
    return QString::number(v, 'f', decimals);
}

QString remotePath(QStringView file)
{
    return QStringLiteral("~/%1/%2").arg(QString::fromUtf16(kRemotePlanDir), file.toString());
}

/// setup: fixed text. Only which blocks appear depends on the options, never on catalog strings.
QString setupText(const LaunchOptions &o, bool hasUserCommand)
{
    QString s = QStringLiteral("set -euo pipefail\nmkdir -p \"$HOME/%1\"\n")
                    .arg(QString::fromUtf16(kRemoteResultDir));
    if (o.measures())
        s +=
            QStringLiteral(
                "# GPU Frontier's package (file_mounts): the probe is libexec/gpufrontier/gpufrontier-probe\n"
                "mkdir -p \"$HOME/gpufrontier\"\n"
                "tar -xzf \"$HOME/%1/gpufrontier.tar.gz\" -C \"$HOME/gpufrontier\" --strip-components=1\n")
                .arg(QString::fromUtf16(kRemotePlanDir));
    if (o.measures() && !hasUserCommand)
        s +=
            QStringLiteral("# PyTorch for the synthetic measured-throughput step\n"
                           "python3 -c 'import torch' 2>/dev/null || python3 -m pip install --quiet torch\n");
    return s;
}

/// run: fixed text; the user's command and every offer string reach the shell only as quoted variables.
QString runText(const LaunchOptions &o)
{
    QString s = QStringLiteral("set -euo pipefail\nexport GF_RESULT_DIR=\"$HOME/%1\"\n")
                    .arg(QString::fromUtf16(kRemoteResultDir));
    if (o.measures())
        s += QStringLiteral("# Probe and measured-throughput step on the first node: writes "
                            "$GF_RESULT_DIR/$GF_PLAN_TASK.json\n"
                            "if [ \"${SKYPILOT_NODE_RANK:-0}\" = \"0\" ]; then\n"
                            "  python3 \"$HOME/%1/%2\"\n"
                            "fi\n")
                 .arg(QString::fromUtf16(kRemotePlanDir), QString::fromUtf16(kMeasureScriptName));
    if (!o.sweep)
        s += QStringLiteral(
            "# The training run: GF_USER_CMD (envs; `sky launch --env GF_USER_CMD=...` sets it too)\n"
            "if [ -n \"${GF_USER_CMD:-}\" ]; then\n"
            "  bash -c \"$GF_USER_CMD\"\n"
            "else\n"
            "  echo \"GPU Frontier plan: no training command (GF_USER_CMD) was given.\"\n"
            "  nvidia-smi || true\n"
            "fi\n");
    return s;
}

QString slug(const QString &text)
{
    QString out;
    for (QChar c : text.toLower()) {
        if ((c >= u'a' && c <= u'z') || (c >= u'0' && c <= u'9'))
            out += c;
        else if (!out.endsWith(u'-'))
            out += u'-';
    }
    while (out.startsWith(u'-'))
        out.remove(0, 1);
    while (out.endsWith(u'-'))
        out.chop(1);
    return out.left(20);
}

QString packageFileName(const LaunchOptions &o)
{
    return QFileInfo(o.packagePath).fileName();
}

} // namespace

QString LaunchTask::launchCommand() const
{
    return managedJob() ? QStringLiteral("sky jobs launch -n %1 %2").arg(name, fileName)
                        : QStringLiteral("sky launch -c %1 %2").arg(name, fileName);
}

Result<QString> findPackage(const QString &given, const QStringList &searchDirs)
{
    if (!given.isEmpty()) {
        if (!QFileInfo(given).isFile())
            return makeError(QStringLiteral("the package %1 is not a file").arg(given));
        return given;
    }
    const QString name = QString::fromLatin1(kDefaultPackageName);
    QStringList looked;
    for (const QString &d : searchDirs) {
        const QString path = QDir(d).filePath(name);
        if (QFileInfo(path).isFile())
            return path;
        looked.append(QDir::toNativeSeparators(QDir(d).absolutePath()));
    }
    return makeCodedError(
        QStringLiteral("package-missing"),
        QStringLiteral("the probe ships GPU Frontier's package %1 to the cluster, and it is not "
                       "in %2. Nothing was written")
            .arg(name, looked.join(QStringLiteral(" or "))));
}

std::optional<ProjectedOffer> findPoint(const QList<ProjectedOffer> &points, qsizetype offerIndex, bool spot,
                                        int nodes)
{
    std::optional<ProjectedOffer> single;
    for (const ProjectedOffer &pt : points) {
        if (pt.offerIndex != offerIndex || (pt.mode == PriceMode::Spot) != spot)
            continue;
        if (pt.nodes == nodes)
            return pt;
        if (pt.nodes == 1)
            single = pt;
    }
    return single;
}

Result<LaunchCandidate> launchCandidate(const QList<Offer> &offers, const QList<ProjectedOffer> &points,
                                        qsizetype offerIndex, bool spot, int nodes)
{
    LaunchCandidate c;
    c.offer = offers.at(offerIndex);
    c.spot = spot;
    const QString cloud = skypilotCloud(c.offer.provider);
    if (spot && !cloud.isEmpty() && !SkypilotCloudTable::builtin().spotPriced(cloud)) {
        if (!c.offer.onDemandUsdH)
            return makeError(
                QStringLiteral("%1: SkyPilot's %2 catalog has no spot price (it would cost the task at "
                               "zero) and the offer has no on-demand price")
                    .arg(offerIdText(c.offer, true), cloud));
        c.spot = false;
        c.notes.append(
            QStringLiteral("planned on-demand, not as spot offer %1: SkyPilot's %2 catalog has no spot "
                           "price, so it would cost a spot task at zero")
                .arg(offerIdText(c.offer, true), cloud));
    }
    if (c.spot ? !c.offer.spotUsdH : !c.offer.onDemandUsdH)
        return makeError(QStringLiteral("%1 has no %2 price")
                             .arg(offerIdText(c.offer, c.spot),
                                  c.spot ? QStringLiteral("spot") : QStringLiteral("on-demand")));
    c.point = findPoint(points, offerIndex, c.spot, nodes);
    return c;
}

QString launchKey(const Offer &offer, bool spot)
{
    auto pin = skypilotPin(offer);
    if (!pin)
        return {};
    const SkypilotPin &p = pin.value();
    return QStringList{p.cloud,
                       p.region,
                       p.zone,
                       p.instanceType,
                       p.accelerator,
                       QString::number(p.acceleratorCount),
                       spot ? QStringLiteral("spot") : QStringLiteral("on-demand")}
        .join(QChar(0x1f));
}

int diskSizeGb(const Workload &w)
{
    const double staged = std::isfinite(w.stagedGb()) ? std::max(0.0, w.stagedGb()) : 0.0;
    const double need = 2.0 * staged + 64.0;
    const int rounded = static_cast<int>(std::ceil(need / 10.0) * 10.0);
    return std::clamp(rounded, 256, 65536);
}

QString taskName(const Workload &w, int n)
{
    QString s = slug(w.id);
    if (s.isEmpty())
        s = QStringLiteral("job");
    while (s.endsWith(u'-'))
        s.chop(1);
    return QStringLiteral("gf-%1-%2").arg(s, QString::number(n));
}

Result<LaunchPlan> buildLaunchPlan(const Workload &w, const QList<LaunchCandidate> &candidates,
                                   const LaunchOptions &o)
{
    if (o.nodes < 1 || o.nodes > 255)
        return makeError(QStringLiteral("nodes must be between 1 and 255 (got %1)").arg(o.nodes));
    if (!std::isfinite(o.costMargin) || o.costMargin < 1 || o.costMargin > 100)
        return makeError(QStringLiteral("the cost margin must be between 1 and 100"));
    if (o.diskGb && (*o.diskGb < 1 || *o.diskGb > 65536))
        return makeError(QStringLiteral("the disk size must be between 1 and 65536 GB"));
    if (o.measureSeconds < 10 || o.measureSeconds > 86400)
        return makeError(QStringLiteral("the measuring time must be between 10 s and 24 h"));
    if (o.measures() && packageFileName(o).isEmpty())
        return makeCodedError(
            QStringLiteral("package-missing"),
            QStringLiteral("the probe ships GPU Frontier's package %1 to the cluster: no package "
                           "was given")
                .arg(QString::fromLatin1(kDefaultPackageName)));
    LaunchPlan plan;
    plan.workload = w;
    plan.options = o;
    const bool hasUser = !o.runCommand.trimmed().isEmpty();
    const QString setup = setupText(o, hasUser);
    const QString run = runText(o);
    std::map<QString, QString> seen; // launchKey -> task name
    for (const LaunchCandidate &c : candidates) {
        const QString id = offerIdText(c.offer, c.spot);
        auto pin = skypilotPin(c.offer);
        if (!pin) {
            plan.skipped.append(QStringLiteral("%1: %2").arg(id, pin.error().message));
            continue;
        }
        const QString launch = launchKey(c.offer, c.spot);
        if (const auto it = seen.find(launch); it != seen.end()) {
            plan.skipped.append(
                QStringLiteral("%1: the same SkyPilot task as %2%3")
                    .arg(id, it->second,
                         c.notes.isEmpty() ? QString() : QStringLiteral(" (") + c.notes.join(u"; ") + u')'));
            continue;
        }
        if (c.spot && !c.offer.spotUsdH) {
            plan.skipped.append(QStringLiteral("%1: the offer has no spot price").arg(id));
            continue;
        }
        if (c.spot && !SkypilotCloudTable::builtin().spotPriced(pin.value().cloud)) {
            plan.skipped.append(
                QStringLiteral("%1: SkyPilot's %2 catalog has no spot price (it would cost the task "
                               "at zero); plan its on-demand offer")
                    .arg(id, pin.value().cloud));
            continue;
        }
        LaunchTask t;
        t.name = taskName(w, static_cast<int>(plan.tasks.size()) + 1);
        seen.emplace(launch, t.name);
        t.fileName = t.name + QStringLiteral(".yaml");
        t.offerId = id;
        t.offer = c.offer;
        t.spot = c.spot;
        t.nodes = o.nodes;
        t.pin = pin.value();
        t.notes = c.notes + t.pin.notes;
        t.diskGb = o.diskGb.value_or(diskSizeGb(w));
        const std::optional<double> price = c.spot ? c.offer.spotUsdH : c.offer.onDemandUsdH;
        if (price && *price > 0)
            t.usdPerHour = *price * o.nodes;
        if (c.point && c.point->projected) {
            t.projectedHours = c.point->totalHours;
            t.projectedSamplesPerS = c.point->samplesPerS;
            t.taskHours = c.point->totalHours;
            t.hoursCeiling = std::max(c.point->totalHours * o.costMargin, double(c.point->totalHoursHigh));
            if (c.point->costUsd > 0 && !hasFlag(c.point->flags, ProjectionFlag::InvalidPrice)) {
                t.projectedCostUsd = c.point->costUsd;
                t.taskCostUsd = c.point->costUsd;
                t.taskCostHighUsd = std::max(c.point->costUsd, double(c.point->costUsdHigh));
                // The ceiling covers the margin and the slow end of the projection's range.
                t.costCeilingUsd = std::max(c.point->costUsd * o.costMargin, *t.taskCostHighUsd);
            }
            if (c.point->nodes != o.nodes)
                t.notes.append(QStringLiteral("projected for %1 node(s); the task asks for %2")
                                   .arg(c.point->nodes)
                                   .arg(o.nodes));
        } else {
            t.notes.append(QStringLiteral("not projected: no cost ceiling"));
        }
        if (o.sweep && t.usdPerHour) {
            // A sweep task runs the probe, the measuring time and the setup: about measure + 15 min, whatever
            // the training would take.
            const double hours = (o.measureSeconds + 15 * 60) / 3600.0;
            t.taskHours = hours;
            t.taskCostUsd = *t.usdPerHour * hours;
            t.taskCostHighUsd = t.taskCostUsd;
            t.hoursCeiling = hours * o.costMargin;
            t.costCeilingUsd = *t.usdPerHour * hours * o.costMargin;
        } else if (o.sweep) {
            t.taskHours.reset();
            t.taskCostUsd.reset();
            t.taskCostHighUsd.reset();
            t.costCeilingUsd.reset();
        }

        auto env = [&](const char *key, const QString &value) {
            t.envs.append({QString::fromLatin1(key), value});
        };
        env("GF_PLAN_TASK", t.name);
        env("GF_WORKLOAD", w.id);
        env("GF_GPU_ID", c.offer.gpuId);
        env("GF_ACCELERATOR", t.pin.accelerator);
        env("GF_GPUS_PER_NODE", QString::number(t.pin.acceleratorCount));
        env("GF_OFFER_ID", id);
        env("GF_OFFER_KEY", offerKey(c.offer));
        env("GF_PROVIDER", c.offer.provider);
        env("GF_INSTANCE_TYPE", c.offer.instanceType);
        env("GF_REGION", c.offer.region);
        env("GF_ZONE", c.offer.zone);
        env("GF_SPOT", c.spot ? QStringLiteral("1") : QStringLiteral("0"));
        env("GF_BATCH_PER_GPU", QString::number(w.batchPerGpu));
        env("GF_PRECISION", precisionName(w.precision));
        env("GF_FLOPS_PER_SAMPLE", QString::number(w.flopsPerSample, 'g', 10));
        env("GF_PROJECTED_SAMPLES_PER_S",
            t.projectedSamplesPerS ? QString::number(*t.projectedSamplesPerS, 'g', 8) : QString());
        env("GF_MAX_COST_USD", t.costCeilingUsd ? number(*t.costCeilingUsd) : QString());
        env("GF_TASK_COST_USD", t.taskCostUsd ? number(*t.taskCostUsd) : QString());
        env("GF_TASK_COST_HIGH_USD", t.taskCostHighUsd ? number(*t.taskCostHighUsd) : QString());
        env("GF_PROBE", o.measures() ? QStringLiteral("1") : QStringLiteral("0"));
        env("GF_MEASURE_SECONDS", QString::number(o.measureSeconds));
        env("GF_USER_CMD", o.runCommand);

        if (o.measures()) {
            t.fileMounts.append(
                {remotePath(u"gpufrontier.tar.gz"), QStringLiteral("./") + packageFileName(o)});
            t.fileMounts.append({remotePath(kMeasureScriptName),
                                 QStringLiteral("./") + QString::fromUtf16(kMeasureScriptName)});
        }
        t.setup = setup;
        t.run = run;
        if (t.managedJob())
            t.notes.append(
                QStringLiteral("spot: launch it as a managed job (sky jobs launch), which SkyPilot "
                               "restarts after a preemption (job_recovery)"));
        plan.tasks.append(t);
    }
    if (plan.tasks.isEmpty()) {
        QString why =
            plan.skipped.isEmpty() ? QStringLiteral("no offer was given") : plan.skipped.join(u'\n');
        return makeError(QStringLiteral("no offer can be launched through SkyPilot:\n%1").arg(why));
    }
    return plan;
}

QString taskYaml(const LaunchTask &t, const LaunchPlan &plan)
{
    const LaunchOptions &o = plan.options;
    QString y;
    auto comment = [&](const QString &text) { y += QStringLiteral("# ") + yamlCommentText(text) + u'\n'; };
    comment(QStringLiteral("GPU Frontier launch plan: task %1 of workload %2").arg(t.name, plan.workload.id));
    comment(QStringLiteral("Offer %1 (%2, %3)")
                .arg(t.offerId, gpuModelName(t.offer),
                     t.spot ? QStringLiteral("spot") : QStringLiteral("on-demand")));
    if (t.projectedHours)
        comment(QStringLiteral("Projected%1: %2 h, %3 USD")
                    .arg(o.sweep ? QStringLiteral(" training") : QString(), number(*t.projectedHours),
                         t.projectedCostUsd ? number(*t.projectedCostUsd) : QStringLiteral("?")));
    if (t.costCeilingUsd)
        comment(QStringLiteral("This task: about %1 USD (up to %2); cost ceiling %3 USD")
                    .arg(number(*t.taskCostUsd), number(*t.taskCostHighUsd), number(*t.costCeilingUsd)));
    comment(QStringLiteral("Launch: ") + t.launchCommand());
    for (const QString &n : t.notes)
        comment(QStringLiteral("Note: ") + n);
    y += QStringLiteral("name: %1\n").arg(t.name);
    y += QStringLiteral("num_nodes: %1\n").arg(t.nodes);
    y += QStringLiteral("resources:\n");
    const bool slashes = t.pin.region.contains(u'/') || t.pin.zone.contains(u'/');
    if (o.legacyKeys || slashes) {
        y += QStringLiteral("  cloud: %1\n").arg(t.pin.cloud);
        if (!t.pin.region.isEmpty())
            y += QStringLiteral("  region: %1\n").arg(yamlQuoted(t.pin.region));
        if (!t.pin.zone.isEmpty())
            y += QStringLiteral("  zone: %1\n").arg(yamlQuoted(t.pin.zone));
    } else {
        QString infra = t.pin.cloud;
        if (!t.pin.region.isEmpty())
            infra += u'/' + t.pin.region;
        if (!t.pin.zone.isEmpty())
            infra += u'/' + t.pin.zone;
        y += QStringLiteral("  infra: %1\n").arg(yamlQuoted(infra));
    }
    if (!t.pin.instanceType.isEmpty())
        y += QStringLiteral("  instance_type: %1\n").arg(yamlQuoted(t.pin.instanceType));
    y += QStringLiteral("  accelerators: %1\n")
             .arg(yamlQuoted(QStringLiteral("%1:%2").arg(t.pin.accelerator).arg(t.pin.acceleratorCount)));
    y += QStringLiteral("  use_spot: %1\n").arg(t.spot ? QStringLiteral("true") : QStringLiteral("false"));
    y += QStringLiteral("  disk_size: %1\n").arg(t.diskGb);
    if (t.managedJob())
        y += QStringLiteral("  job_recovery: FAILOVER\n");
    y += QStringLiteral("envs:\n");
    for (const auto &[k, v] : t.envs)
        y += QStringLiteral("  %1: %2\n").arg(k, yamlQuoted(v));
    if (!t.fileMounts.isEmpty()) {
        y += QStringLiteral("file_mounts:\n");
        for (const auto &[remote, local] : t.fileMounts)
            y += QStringLiteral("  %1: %2\n").arg(yamlQuoted(remote), yamlQuoted(local));
    }
    y += QStringLiteral("setup: ") + yamlLiteralBlock(t.setup, 2);
    y += QStringLiteral("run: ") + yamlLiteralBlock(t.run, 2);
    return y;
}

QString planReadme(const LaunchPlan &plan)
{
    const LaunchOptions &o = plan.options;
    auto safe = [](const QString &s) { return yamlCommentText(s); };
    QString r;
    r += QStringLiteral("GPU Frontier launch plan%1 for workload %2 (%3)\n")
             .arg(o.sweep ? QStringLiteral(" (validation sweep)") : QString(), safe(plan.workload.id),
                  safe(plan.workload.name));
    r += QString(72, u'=') + u'\n';
    r += QStringLiteral(
        "\nOne SkyPilot task per offer (SkyPilot: https://docs.skypilot.co). Each YAML pins exactly that\n"
        "offer: cloud/region[/zone], instance type, accelerators, spot or on-demand. Run every command "
        "below\n"
        "from this folder (file_mounts name local files relative to it). Spot tasks run as managed jobs\n"
        "(sky jobs launch), which SkyPilot restarts after a preemption (job_recovery: FAILOVER); on-demand\n"
        "tasks as clusters (sky launch).\n");
    const bool hostLeftOpen = std::any_of(plan.tasks.cbegin(), plan.tasks.cend(),
                                          [](const LaunchTask &t) { return t.pin.instanceType.isEmpty(); });
    if (hostLeftOpen)
        r += QStringLiteral(
            "\nHosts SkyPilot cannot pin: SkyPilot attaches each GPU only to certain host types\n"
            "(resources/providers/skypilot_hosts.csv, from SkyPilot's GCP catalog rules; e.g. H100:8 only "
            "to\n"
            "a3-highgpu-8g, not a3-edgegpu-8g). A task marked \"host chosen by SkyPilot\" planned an offer "
            "on a\n"
            "host outside those rules: it pins the accelerators and the region/zone, leaves instance_type "
            "out,\n"
            "and SkyPilot chooses its host for them. Its price and projection are the offer's; the host\n"
            "SkyPilot chooses has the same GPUs and may cost more or less (sky launch shows its price).\n");
    if (o.measures())
        r += QStringLiteral(
                 "\nWith the probe: GPU Frontier's Linux package is in this folder as %1 (file_mounts\n"
                 "ships it; the CUDA probe is in it when CUDA was found at build time).\n")
                 .arg(safe(packageFileName(o)));
    if (!o.runCommand.isEmpty())
        r +=
            QStringLiteral("\nTraining command (envs GF_USER_CMD): %1\n"
                           "Your code travels with `--workdir PATH` added to sky launch / sky jobs launch.\n")
                .arg(safe(o.runCommand));

    r += QStringLiteral("\nTasks\n-----\n");
    for (const LaunchTask &t : plan.tasks) {
        r += QStringLiteral("\n%1  (%2)\n").arg(t.fileName, safe(t.offerId));
        r += QStringLiteral("  %1 x %2 on %3 %4 in %5, %6, %7 node(s), disk %8 GB\n")
                 .arg(t.pin.accelerator, QString::number(t.pin.acceleratorCount), t.pin.cloud,
                      t.pin.instanceType.isEmpty() ? QStringLiteral("(host chosen by SkyPilot)")
                                                   : safe(t.pin.instanceType),
                      safe(locationText(t.pin.region, t.pin.zone)),
                      t.spot ? QStringLiteral("spot") : QStringLiteral("on-demand"), QString::number(t.nodes),
                      QString::number(t.diskGb));
        if (t.usdPerHour)
            r += QStringLiteral("  price %1 USD/h for the job").arg(number(*t.usdPerHour, 4));
        else
            r += QStringLiteral("  price unknown");
        if (t.projectedHours)
            r += QStringLiteral("; projected%1 %2 h, %3 USD")
                     .arg(o.sweep ? QStringLiteral(" training") : QString(), number(*t.projectedHours),
                          t.projectedCostUsd ? number(*t.projectedCostUsd) : QStringLiteral("?"));
        r += u'\n';
        if (t.costCeilingUsd) {
            if (o.sweep)
                r += QStringLiteral("  this task measures only: about %1 h, %2 USD\n")
                         .arg(number(*t.taskHours), number(*t.taskCostUsd));
            else
                r += QStringLiteral("  projected cost range up to %1 USD (the slow end of the projection)\n")
                         .arg(number(*t.taskCostHighUsd));
            r += QStringLiteral("  COST CEILING: %1 USD (%2 x %3%4); stop it by %5 h\n")
                     .arg(number(*t.costCeilingUsd),
                          o.sweep ? QStringLiteral("price x measuring time + 15 min setup")
                                  : QStringLiteral("projected cost"),
                          number(o.costMargin),
                          o.sweep ? QString() : QStringLiteral(", at least the slow end of its range"),
                          t.hoursCeiling ? number(*t.hoursCeiling) : QStringLiteral("?"));
        } else {
            r += QStringLiteral("  COST CEILING: unknown (no projection or price)\n");
        }
        r += QStringLiteral("  launch:   %1\n").arg(t.launchCommand());
        if (t.managedJob()) {
            r += QStringLiteral("  watch:    sky jobs queue; sky jobs logs -n %1\n").arg(t.name);
            r += QStringLiteral("  results:  sky jobs logs -n %1 --no-follow > results/%1.log\n").arg(t.name);
            r += QStringLiteral("  stop:     sky jobs cancel -n %1\n").arg(t.name);
        } else {
            r += QStringLiteral("  results:  mkdir -p results && rsync -a %1:%2/ results/ (or: sky logs %1 > "
                                "results/%1.log)\n")
                     .arg(t.name, QString::fromUtf16(kRemoteResultDir));
            r += QStringLiteral("  tear down: sky down -y %1\n").arg(t.name);
        }
        for (const QString &n : t.notes)
            r += QStringLiteral("  note: %1\n").arg(safe(n));
    }
    if (!plan.skipped.isEmpty()) {
        r += QStringLiteral("\nNot planned\n-----------\n");
        for (const QString &s : plan.skipped)
            r += QStringLiteral("  %1\n").arg(safe(s));
    }
    r += QStringLiteral(
        "\nCost ceilings\n-------------\n"
        "SkyPilot's task format has no price-cap field (no max_hourly_cost), so the ceiling of each task is\n"
        "written here, in its YAML header and as GF_MAX_COST_USD in its envs. Check what is running with\n"
        "`sky status` and `sky cost-report`, and tear down what you no longer need. On-demand clusters keep\n"
        "billing after the run ends until `sky down` (or add `--down` to sky launch to stop on "
        "completion).\n");
    if (o.measures()) {
        r += QStringLiteral(
                 "\nMeasurements\n------------\n"
                 "On the first node, gf_measure.py runs gpufrontier-probe --quick and measures the "
                 "workload's\n"
                 "throughput for %1 s: %2.\n"
                 "It writes ~/%3/<task>.json on the cluster and prints the same document on one line "
                 "starting\n"
                 "with GPUFRONTIER-MEASUREMENT in the job's log. It also records how busy the GPU was "
                 "(the\n"
                 "profiler for the synthetic step, nvidia-smi for your command): under %4 % the host set the "
                 "speed,\n"
                 "and on other NVIDIA GPUs that step stays a floor (PROJECTION.md section 3.22).\n")
                 .arg(o.measureSeconds)
                 .arg(o.runCommand.isEmpty()
                          ? QStringLiteral(
                                "a synthetic PyTorch step of the preset's shape (see gf_measure.py)")
                          : QStringLiteral(
                                "a short timed run of your command, which reports samples/s by writing "
                                "a number to the file $GF_SAMPLES_PER_S_FILE or printing a line "
                                "\"gpufrontier: samples_per_s=N\" (all GPUs of the node)"))
                 .arg(QString::fromUtf16(kRemoteResultDir))
                 .arg(QString::number(kHostBoundBusy * 100, 'f', 0));
    }
    r += QStringLiteral(
        "\nBringing results back\n---------------------\n"
        "  gpufrontier-cli measure --import results/*.json   (a saved job log works too)\n"
        "or in the app: Measurements page, Import... From then on this workload on that GPU is projected\n"
        "from your measurement (marked \"measured\" in the tables, chart and reports).\n");
    if (o.sweep)
        r += QStringLiteral(
            "\nAll at once: bash sweep.sh launches every task in parallel (spot tasks as managed jobs,\n"
            "on-demand tasks as clusters), waits, collects the JSON files and job logs into results/ and\n"
            "tears every cluster down and cancels every job (also on Ctrl-C).\n");
    return r;
}

QString sweepScript(const LaunchPlan &plan)
{
    QString clusters, jobs;
    for (const LaunchTask &t : plan.tasks)
        (t.managedJob() ? jobs : clusters) += u' ' + shellQuoted(t.name);
    QString s =
        QStringLiteral(
            "#!/usr/bin/env bash\n"
            "# GPU Frontier validation sweep (generated): launches every task of this folder in parallel, "
            "waits\n"
            "# for them, collects the measurements into results/ and tears the clusters down.\n"
            "# On-demand tasks run as clusters (sky launch); spot tasks as managed jobs (sky jobs launch), "
            "which\n"
            "# SkyPilot restarts after a preemption (job_recovery) and tears down when they end.\n"
            "# Run it from anywhere: bash sweep.sh. Needs SkyPilot (sky) with the clouds set up (sky "
            "check).\n"
            "set -uo pipefail\n"
            "cd \"$(dirname \"$0\")\" || exit 1\n"
            "clusters=(%1 )\n"
            "jobs=(%2 )\n"
            "result_dir=%3\n"
            "mkdir -p results\n"
            "down_clusters() {\n"
            "  for t in \"${clusters[@]}\"; do sky down -y \"$t\" >\"results/$t.down.log\" 2>&1 & done\n"
            "  wait\n"
            "}\n"
            "cancel_jobs() {\n"
            "  for t in \"${jobs[@]}\"; do sky jobs cancel -y -n \"$t\" >\"results/$t.cancel.log\" 2>&1 & "
            "done\n"
            "  wait\n"
            "}\n"
            "trap 'echo \"interrupted: cancelling the jobs and tearing the clusters down\"; cancel_jobs; "
            "down_clusters; exit 130' INT TERM\n"
            "pids=()\n"
            "names=()\n"
            "for t in \"${clusters[@]}\"; do\n"
            "  echo \"launching $t (cluster)\"\n"
            "  sky launch -y -c \"$t\" \"$t.yaml\" >\"results/$t.log\" 2>&1 &\n"
            "  pids+=(\"$!\")\n"
            "  names+=(\"$t\")\n"
            "done\n"
            "for t in \"${jobs[@]}\"; do\n"
            "  echo \"launching $t (managed spot job)\"\n"
            "  sky jobs launch -y -n \"$t\" \"$t.yaml\" >\"results/$t.log\" 2>&1 &\n"
            "  pids+=(\"$!\")\n"
            "  names+=(\"$t\")\n"
            "done\n"
            "failed=0\n"
            "for i in \"${!names[@]}\"; do\n"
            "  t=${names[$i]}\n"
            "  if wait \"${pids[$i]}\"; then echo \"$t finished\"; else echo \"$t failed: see "
            "results/$t.log\"; failed=1; fi\n"
            "done\n"
            "for t in \"${clusters[@]}\"; do\n"
            "  rsync -a \"$t:$result_dir/$t.json\" \"results/$t.json\" 2>/dev/null \\\n"
            "    || echo \"$t: no JSON file copied; results/$t.log holds the GPUFRONTIER-MEASUREMENT line if "
            "it ran\"\n"
            "done\n"
            "for t in \"${jobs[@]}\"; do\n"
            "  sky jobs logs -n \"$t\" --no-follow >\"results/$t.job.log\" 2>&1 \\\n"
            "    || echo \"$t: no job log; results/$t.log holds the GPUFRONTIER-MEASUREMENT line if it "
            "ran\"\n"
            "done\n"
            "down_clusters\n"
            "echo \"Import the measurements: gpufrontier-cli measure --import results/*.json "
            "results/*.job.log\"\n"
            "exit \"$failed\"\n")
            .arg(clusters, jobs, shellQuoted(QString::fromUtf16(kRemoteResultDir)));
    return s;
}

QByteArray measureScript()
{
    return readResource(QStringLiteral("launch/gf_measure.py"));
}

Result<QStringList> writeLaunchPlan(const LaunchPlan &plan, const QString &dir)
{
    // The plan is written whole or not at all (util/outputfile.h): a full disk leaves no cut file.
    QList<FolderFile> files;
    for (const LaunchTask &t : plan.tasks)
        files.append({t.fileName, taskYaml(t, plan).toUtf8(), false});
    QString packageInPlace; // the package, already in the plan's folder: it stays as it is
    if (plan.options.measures()) {
        // The package travels with the plan: file_mounts names the copy in this folder, written with the
        // plan or not at all.
        const QString package = plan.options.packagePath;
        const QString target = QDir(dir).filePath(packageFileName(plan.options));
        if (QFileInfo::exists(target) &&
            QFileInfo(target).canonicalFilePath() == QFileInfo(package).canonicalFilePath()) {
            packageInPlace = target;
        } else {
            QFile in(package);
            if (!in.open(QIODevice::ReadOnly))
                return makeError(
                    QStringLiteral("cannot read the package %1: %2").arg(package, in.errorString()));
            files.append({packageFileName(plan.options), in.readAll(), false});
        }
        const QByteArray script = measureScript();
        if (script.isEmpty())
            return makeError(QStringLiteral("the measurement script is missing from the application"));
        files.append({QString::fromUtf16(kMeasureScriptName), script, true});
    }
    if (plan.options.sweep)
        files.append({QStringLiteral("sweep.sh"), sweepScript(plan).toUtf8(), true});
    files.append({QStringLiteral("README.txt"), planReadme(plan).toUtf8(), false});
    auto written = writeFolderWhole(dir, files);
    if (written && !packageInPlace.isEmpty())
        written.value().append(packageInPlace);
    return written;
}

QList<qsizetype> rankFrontierPoints(const QList<ProjectedOffer> &points, double weight)
{
    const double w = std::isfinite(weight) ? std::clamp(weight, 0.0, 1.0) : 0.5;
    QList<qsizetype> out;
    for (int pass = 0; pass < 2; ++pass) {
        QList<qsizetype> group;
        double tMin = INFINITY, tMax = -INFINITY, cMin = INFINITY, cMax = -INFINITY;
        for (qsizetype i = 0; i < points.size(); ++i) {
            const ProjectedOffer &p = points.at(i);
            if (!p.onFrontier || p.feasible != (pass == 0))
                continue;
            group.append(i);
            tMin = std::min(tMin, p.totalHours);
            tMax = std::max(tMax, p.totalHours);
            cMin = std::min(cMin, p.costUsd);
            cMax = std::max(cMax, p.costUsd);
        }
        auto score = [&](qsizetype i) {
            const ProjectedOffer &p = points.at(i);
            const double nt = tMax > tMin ? (p.totalHours - tMin) / (tMax - tMin) : 0.0;
            const double nc = cMax > cMin ? (p.costUsd - cMin) / (cMax - cMin) : 0.0;
            return w * nt + (1.0 - w) * nc;
        };
        std::stable_sort(group.begin(), group.end(), [&](qsizetype a, qsizetype b) {
            const ProjectedOffer &pa = points.at(a);
            const ProjectedOffer &pb = points.at(b);
            if (pa.recommended != pb.recommended)
                return pa.recommended;
            const double sa = score(a), sb = score(b);
            if (sa != sb)
                return sa < sb;
            return pa.totalHours < pb.totalHours;
        });
        out += group;
    }
    return out;
}

} // namespace gf

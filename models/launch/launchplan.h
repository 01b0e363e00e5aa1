#pragma once

#include "domain/offer.h"
#include "domain/workload.h"
#include "launch/skypilotnames.h"
#include "projection/offerprojection.h"
#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// Default margin on the projected cost for a task's cost ceiling.
inline constexpr double kDefaultCostMargin = 1.25;
/// Seconds of the measured-throughput step (a short timed run of the user's command, or the synthetic step).
inline constexpr int kDefaultMeasureSeconds = 180;
/// Where the plan's files land on the cluster and where results are written (under $HOME).
inline constexpr char16_t kRemotePlanDir[] = u"gpufrontier-plan";
inline constexpr char16_t kRemoteResultDir[] = u"gpufrontier-results";
/// The measurement script written into a plan folder (resources/launch/gf_measure.py).
inline constexpr char16_t kMeasureScriptName[] = u"gf_measure.py";
/// The name `cpack -G TGZ` gives GPU Frontier's Linux package.
inline constexpr char kDefaultPackageName[] = "gpufrontier-" GPUFRONTIER_VERSION "-linux-x86_64.tar.gz";

/// What the user chose for a plan.
struct LaunchOptions
{
    QString runCommand;      ///< the user's training command; empty = none (the task then says so)
    bool probe = false;      ///< run gpufrontier-probe and the measured-throughput step
    bool sweep = false;      ///< validation sweep: measure only (the probe + a short timed run), then stop
    int nodes = 1;           ///< num_nodes of every task
    bool legacyKeys = false; ///< cloud/region/zone keys instead of infra (SkyPilot < 0.10)
    double costMargin = kDefaultCostMargin;
    std::optional<int> diskGb; ///< override of the disk size from the workload's data
    /// GPU Frontier's .tar.gz (a path here): required when measuring; writeLaunchPlan copies it into the plan
    /// folder and file_mounts names the copy (findPackage finds it).
    QString packagePath;
    int measureSeconds = kDefaultMeasureSeconds;

    /// Whether tasks measure: gf_measure.py runs gpufrontier-probe (the package is shipped) and the
    /// measured-throughput step. Asked for with `probe`, and always in a sweep (a sweep
    /// measures the probe and a short timed run).
    bool measures() const { return probe || sweep; }
};

/// One offer to plan at a price mode, with its projection when there is one.
struct LaunchCandidate
{
    Offer offer;
    bool spot = false;
    std::optional<ProjectedOffer> point; ///< projected point (for the cost ceiling); nodes as in the plan
    QStringList notes;                   ///< what launchCandidate changed (on-demand instead of spot, ...)
};

/// One SkyPilot task: everything its YAML says.
struct LaunchTask
{
    QString name;     ///< cluster / job name: "gf-<workload>-<n>", generated, never catalog text
    QString fileName; ///< name + ".yaml"
    QString offerId;  ///< offerIdText()
    Offer offer;
    bool spot = false;
    int nodes = 1;
    SkypilotPin pin;
    int diskGb = 256;
    std::optional<double> projectedHours;
    std::optional<double> projectedCostUsd;
    std::optional<double> usdPerHour; ///< whole job (price x nodes)
    std::optional<double> projectedSamplesPerS;
    /// What this task is expected to cost: the projected training, or in a sweep the measuring run (price x
    /// (measuring time + 15 min)); and the slow end of the projection's range (the same in a sweep).
    std::optional<double> taskCostUsd;
    std::optional<double> taskCostHighUsd;
    std::optional<double> taskHours;         ///< the same for the time
    std::optional<double> costCeilingUsd;    ///< task cost x margin, never below taskCostHighUsd
    std::optional<double> hoursCeiling;      ///< task hours x margin, never below the slow end of its range
    QList<std::pair<QString, QString>> envs; ///< in order; values are data, written as quoted scalars
    QList<std::pair<QString, QString>> fileMounts; ///< remote path -> local path
    QString setup;                                 ///< generated shell (fixed templates only)
    QString run;                                   ///< generated shell (fixed templates only)
    QStringList notes;

    /// Spot tasks run as SkyPilot managed jobs (`sky jobs launch`), the only launch in which job_recovery
    /// restarts a preempted task; on-demand tasks as clusters (`sky launch`). The one home of this rule.
    bool managedJob() const { return spot; }
    /// "sky jobs launch -n NAME FILE" or "sky launch -c NAME FILE" (run in the plan folder).
    QString launchCommand() const;
};

struct LaunchPlan
{
    Workload workload;
    LaunchOptions options;
    QList<LaunchTask> tasks;
    QStringList skipped; ///< "offer ID: why" for candidates that cannot be launched through SkyPilot
};

/// GB of disk for a workload: twice the staged data (archive + unpacked) plus 64 GB for the image,
/// environment and checkpoints, rounded up to 10 GB, at least SkyPilot's default 256 GB.
int diskSizeGb(const Workload &workload);
/// "gf-<workload>-<n>": lowercase letters, digits and '-', at most 32 characters.
QString taskName(const Workload &workload, int number);

/// What SkyPilot would launch for an offer at a price mode: cloud, region, zone, instance type, accelerators
/// and spot as one string; two offers with the same key give the same task (e.g. two AWS zones of a region,
/// whose zone is not pinned). Empty when SkyPilot cannot launch the offer.
QString launchKey(const Offer &offer, bool spot);

/// GPU Frontier's package for a measuring plan: `given` when set (it must be a file), else
/// kDefaultPackageName in the first of `searchDirs` that has it. The error says where it looked and how to
/// make or name one.
Result<QString> findPackage(const QString &given, const QStringList &searchDirs);

/// The projected point of offer `offerIndex` at a price mode for `nodes` (else for 1 node); none when absent.
std::optional<ProjectedOffer> findPoint(const QList<ProjectedOffer> &points, qsizetype offerIndex, bool spot,
                                        int nodes);

/// The candidate to plan for offers[offerIndex] at a price mode: spot on a cloud whose SkyPilot catalog has
/// no spot price (skypilot_clouds.csv) becomes the offer's on-demand point, with a note; an error when
/// nothing of it can be planned (no price at that mode, spot only).
Result<LaunchCandidate> launchCandidate(const QList<Offer> &offers, const QList<ProjectedOffer> &points,
                                        qsizetype offerIndex, bool spot, int nodes);

/// The tasks for the candidates (in their order; candidates with the same launchKey are planned once, the
/// repeats listed in `skipped`). Offers
/// SkyPilot cannot launch are listed in `skipped`; an error only when no task remains or an option is
/// out of range.
Result<LaunchPlan> buildLaunchPlan(const Workload &workload, const QList<LaunchCandidate> &candidates,
                                   const LaunchOptions &options);

/// The task's YAML (SkyPilot task format; infra or the legacy keys per the plan's options).
QString taskYaml(const LaunchTask &task, const LaunchPlan &plan);
/// README.txt of the plan folder: commands, cost ceilings, how to bring results back.
QString planReadme(const LaunchPlan &plan);
/// sweep.sh: launches every task in parallel, collects the JSON files, tears the clusters down.
QString sweepScript(const LaunchPlan &plan);
/// gf_measure.py: the probe + measured-throughput step run on the cluster.
QByteArray measureScript();

/// Writes the plan into `dir` (created when missing): one YAML per task, README.txt, and with measuring
/// gf_measure.py and a copy of the package, with a sweep sweep.sh, whole or not at all (writeFolderWhole: a
/// temporary folder beside `dir`, every write checked, then moved into place). Returns the files written
/// (full paths).
Result<QStringList> writeLaunchPlan(const LaunchPlan &plan, const QString &dir);

/// Frontier points ranked for "top K": feasible frontier points by the recommendation's score for the
/// weight (the recommended one first), then the infeasible frontier points the same way.
QList<qsizetype> rankFrontierPoints(const QList<ProjectedOffer> &points, double weight);

} // namespace gf

#pragma once

#include "launch/launchplan.h"
#include "projection/catalogprojection.h"

#include <QMetaType>
#include <QStringList>

namespace gf {

/// The offers a launch plan is asked for: points of one projection result, with the line the dialog shows
/// for each ("aws/p5.48xlarge/us-east-1:spot  (recommended)").
struct LaunchPlanRequest
{
    QList<LaunchCandidate> candidates;
    QStringList lines; ///< offer ID, "  (recommended)" appended where it is
};

/// The candidates for `points` (indexes into results.points); none given: the recommended point, when there
/// is one. Empty candidates when there is nothing to plan. `recommendedSuffix` is appended to the recommended
/// point's line (the GUI's translated "  (recommended)").
LaunchPlanRequest launchPlanRequest(const ProjectionResults &results, QList<qsizetype> points,
                                    const QString &recommendedSuffix);

/// Everything a plan is written from: taken on the GUI thread, written on a worker (writeLaunchPlanJob).
struct LaunchPlanJob
{
    Workload workload;
    QList<LaunchCandidate> candidates;
    LaunchOptions options;
    QString directory;       ///< the plan folder
    QStringList packageDirs; ///< where to look for the package when measuring (findPackage)
};

/// What writing a plan came to.
struct LaunchPlanOutcome
{
    enum class Stage
    {
        Written, ///< the plan is in `directory`
        Package, ///< measuring needs the package and none was found: nothing written
        Plan,    ///< no plan could be made (no task left, an option out of range): nothing written
        Write    ///< the files could not be written (nothing left half-written)
    };
    Stage stage = Stage::Written;
    QString error; ///< Stage other than Written: why
    LaunchPlan plan;
    QString directory;
    bool ok() const { return stage == Stage::Written; }
};

/// Finds the package (when measuring), builds the plan and writes it: the slow part of "Launch plan…" (the
/// package is copied), run off the GUI thread.
LaunchPlanOutcome writeLaunchPlanJob(const LaunchPlanJob &job);

} // namespace gf

Q_DECLARE_METATYPE(gf::LaunchPlanOutcome)

#include "viewmodels/launchplanjob.h"

#include "launch/offerid.h"

namespace gf {

LaunchPlanRequest launchPlanRequest(const ProjectionResults &r, QList<qsizetype> points,
                                    const QString &recommendedSuffix)
{
    LaunchPlanRequest out;
    if (points.isEmpty() && r.recommended >= 0)
        points.append(r.recommended);
    for (qsizetype i : std::as_const(points)) {
        const ProjectedOffer &pt = r.points.at(i);
        const bool spot = pt.mode == PriceMode::Spot;
        auto resolved = launchCandidate(r.offers, r.points, pt.offerIndex, spot, pt.nodes);
        const LaunchCandidate c =
            resolved ? resolved.value() : LaunchCandidate{r.offers.at(pt.offerIndex), spot, pt, {}};
        out.candidates.append(c);
        out.lines.append(offerIdText(c.offer, c.spot) + (i == r.recommended ? recommendedSuffix : QString()));
    }
    return out;
}

LaunchPlanOutcome writeLaunchPlanJob(const LaunchPlanJob &job)
{
    LaunchPlanOutcome out;
    out.directory = job.directory;
    LaunchOptions options = job.options;
    if (options.measures()) {
        auto package = findPackage(options.packagePath, job.packageDirs);
        if (!package) {
            out.stage = LaunchPlanOutcome::Stage::Package;
            out.error = package.error().text();
            return out;
        }
        options.packagePath = package.value();
    }
    auto plan = buildLaunchPlan(job.workload, job.candidates, options);
    if (!plan) {
        out.stage = LaunchPlanOutcome::Stage::Plan;
        out.error = plan.error().text();
        return out;
    }
    out.plan = std::move(plan).value();
    if (auto written = writeLaunchPlan(out.plan, job.directory); !written) {
        out.stage = LaunchPlanOutcome::Stage::Write;
        out.error = written.error().text();
    }
    return out;
}

} // namespace gf

#include "projection/catalogprojection.h"

#include "domain/gpuspecs.h"

#include <QElapsedTimer>

namespace gf {

namespace {

/// The offers that pass the filter, and their rows in the catalog.
void selectOffers(const QList<Offer> &catalog, const OfferFilter &filter, ProjectionResults &r)
{
    if (filter.isEmpty()) {
        r.offers = catalog;
        r.catalogIndex.resize(catalog.size());
        for (qsizetype i = 0; i < catalog.size(); ++i)
            r.catalogIndex[i] = i;
        return;
    }
    OfferMatcher matcher(filter);
    for (qsizetype i = 0; i < catalog.size(); ++i) {
        if (matcher.accepts(catalog.at(i))) {
            r.offers.append(catalog.at(i));
            r.catalogIndex.append(i);
        }
    }
}

/// The counts, and per catalog row the point shown in tables (the cheapest eligible single-instance
/// point, else the first), its spot point and whether any of its points is on the frontier.
void indexPoints(qsizetype catalogSize, ProjectionResults &r)
{
    r.recommended = recommendedIndex(r.points);
    r.primaryPoint = QList<qsizetype>(catalogSize, -1);
    r.spotPoint = QList<qsizetype>(catalogSize, -1);
    r.offerOnFrontier = QList<bool>(catalogSize, false);
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        r.frontierCount += p.onFrontier ? 1 : 0;
        r.projectedCount += p.projected ? 1 : 0;
        r.feasibleCount += p.feasible ? 1 : 0;
        if (p.offerIndex < 0 || p.offerIndex >= r.offers.size())
            continue;
        const qsizetype row = r.catalogIndex.at(p.offerIndex);
        if (p.onFrontier)
            r.offerOnFrontier[row] = true;
        if (p.nodes != 1)
            continue;
        if (p.mode == PriceMode::Spot)
            r.spotPoint[row] = i;
        qsizetype &primary = r.primaryPoint[row];
        if (primary < 0) {
            primary = i;
            continue;
        }
        const ProjectedOffer &cur = r.points.at(primary);
        const bool better = (p.eligible() && !cur.eligible()) ||
                            (p.eligible() == cur.eligible() && p.projected && p.costUsd < cur.costUsd);
        if (better)
            primary = i;
    }
}

} // namespace

ProjectionResults projectCatalog(const QList<Offer> &catalog, const ProjectionRequest &request)
{
    QElapsedTimer timer;
    timer.start();
    ProjectionResults r;
    r.jobId = request.jobId;
    r.filter = request.filter;
    r.workload = request.workload;
    r.options = request.options;
    r.options.measurements = request.measurements;
    r.calibration = request.calibration;
    selectOffers(catalog, request.filter, r);
    r.points = projectOffers(r.offers, r.workload, r.options, r.calibration);
    indexPoints(catalog.size(), r);
    r.gpuSpeeds = gpuSpeedsOf(r.workload, r.options, r.calibration);
    r.elapsedMs = timer.elapsed();
    return r;
}

QHash<QString, SingleGpuSpeed> gpuSpeedsOf(const Workload &workload, const ProjectionOptions &options,
                                           const Calibration &calibration)
{
    QHash<QString, SingleGpuSpeed> out;
    const GpuSpecTable &specs = GpuSpecTable::builtin();
    const QList<SingleGpuSpeed> speeds = singleGpuSpeeds(workload, options, calibration, specs);
    for (qsizetype i = 0; i < speeds.size(); ++i)
        out.insert(specs.specs().at(i).id, speeds.at(i));
    return out;
}

ProjectionRequest requestOf(const ProjectionResults &results)
{
    ProjectionRequest request;
    request.filter = results.filter;
    request.workload = results.workload;
    request.options = results.options;
    request.calibration = results.calibration;
    request.measurements = results.options.measurements;
    request.jobId = results.jobId;
    return request;
}

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"
#include "domain/throughputmeasurement.h"
#include "domain/workload.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "projection/projectionresults.h"

#include <QList>

namespace gf {

/// What one projection of a catalog is asked for: which offers (the filter), the training run, the
/// options, the calibration and the user's imported measurements.
struct ProjectionRequest
{
    OfferFilter filter; ///< the offers of the catalog that are projected (empty = all)
    Workload workload;
    /// The options; their `measurements` are replaced by the request's (`measurements` below is the
    /// one place they are given).
    ProjectionOptions options;
    Calibration calibration;
    ThroughputMeasurements measurements; ///< imported user measurements (store/measurementrecord)
    quint64 jobId = 0;                   ///< copied into the results (the GUI drops stale jobs by it)
};

/// The projection's one front door, for the GUI controller, the export dialog, the reports and every
/// CLI command: filters the catalog, projects the offers that pass (projectOffers), and counts what the
/// front ends show (projected points, frontier, feasible, the recommended point, per catalog row the
/// point shown in tables). Pure: runs on any thread; the workload and options are expected valid
/// (validateWorkload / validateProjectionOptions).
ProjectionResults projectCatalog(const QList<Offer> &catalog, const ProjectionRequest &request);

/// Per GPU id: the single-GPU speed of the workload (ProjectionResults::gpuSpeeds, as projectCatalog
/// fills it; options.measurements are the imported measurements).
QHash<QString, SingleGpuSpeed> gpuSpeedsOf(const Workload &workload, const ProjectionOptions &options,
                                           const Calibration &calibration);

/// The request that gave `results` (to project the same run over other offers).
ProjectionRequest requestOf(const ProjectionResults &results);

} // namespace gf

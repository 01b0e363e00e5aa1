#pragma once

#include "domain/offer.h"
#include "domain/offerfilter.h"
#include "domain/workload.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"
#include "projection/speedmodel.h"

#include <QHash>
#include <QList>

#include <memory>

namespace gf {

/// Everything one projection produced (projectCatalog, projection/catalogprojection.h), immutable once
/// published. The counts, the recommendation and the per-row lookups are read here, never recounted.
struct ProjectionResults
{
    quint64 jobId = 0;
    QList<Offer> offers; ///< the offers that passed the filter, indexable by ProjectedOffer::offerIndex
    QList<qsizetype> catalogIndex; ///< parallel to offers: row in the whole catalog
    QList<ProjectedOffer> points;
    qsizetype recommended = -1; ///< index into points
    qsizetype frontierCount = 0;
    qsizetype projectedCount = 0;
    qsizetype feasibleCount = 0;
    Workload workload;
    ProjectionOptions options;
    Calibration calibration;
    qint64 elapsedMs = 0;

    /// Per offer, the point shown in tables: the cheapest eligible one (else the first).
    QList<qsizetype> primaryPoint; ///< per catalog row: the point shown in tables; -1 when none
    QList<qsizetype> spotPoint;    ///< per catalog row: its single-instance spot point; -1 when none
    QList<bool> offerOnFrontier;   ///< per catalog row: any of its points is on the frontier
    OfferFilter filter;
    /// Per GPU id: the single-GPU speed behind the points (tier, range, what it rests on).
    QHash<QString, SingleGpuSpeed> gpuSpeeds;

    /// The number of rows of the catalog the projection was computed over.
    qsizetype catalogSize() const { return primaryPoint.size(); }
    /// The point shown in tables for a catalog row; -1 when none.
    qsizetype pointForRow(qsizetype row) const { return primaryPoint.value(row, -1); }
    /// The single-instance spot point of a catalog row; -1 when none.
    qsizetype spotPointForRow(qsizetype row) const { return spotPoint.value(row, -1); }
    /// Whether any point of a catalog row is on the frontier.
    bool onFrontierAtRow(qsizetype row) const { return offerOnFrontier.value(row, false); }
    /// The catalog row of a point.
    qsizetype catalogRowOf(qsizetype point) const { return catalogIndex.at(points.at(point).offerIndex); }

    /// The single-GPU speed of a point's GPU; nullptr when unknown.
    const SingleGpuSpeed *speedOf(const Offer &offer) const
    {
        auto it = gpuSpeeds.constFind(offer.gpuId);
        return it == gpuSpeeds.constEnd() ? nullptr : &*it;
    }
};
using ProjectionResultsPtr = std::shared_ptr<const ProjectionResults>;

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "domain/offertable.h"
#include "projection/catalogprojection.h"
#include "projection/norecommendation.h"
#include "projection/offerprojection.h"

#include <QList>

#include <memory>
#include <vector>

namespace gf {

/// One point of a TableProjection: what the counts, the frontier, the time sort and the command filters
/// read, in 32 bytes instead of a ProjectedOffer's 112. The rest is projected again when the point is
/// written (TableProjection::point).
struct CompactPoint
{
    double totalHours = 0;
    double costUsd = 0;
    qint32 offerIndex = -1; ///< into the offers that passed the filter (TableProjection::offer)
    quint32 flags = 0;      ///< ProjectionFlag bits
    quint8 nodes = 1;
    PriceMode mode = PriceMode::OnDemand;
    bool projected = false;
    bool onFrontier = false;
    bool feasible = false;
    bool recommended = false;
    bool suspectExcluded = false;

    bool eligible() const { return projected && !suspectExcluded && (flags & kBlockingFlags) == 0; }
};

/// A projected point as a CompactPoint (what a TableProjection keeps of it).
CompactPoint compactPointOf(const ProjectedOffer &p);

/// projectCatalog over an OfferTable, for the CLI over a million offers: the same points in the same
/// order, the same counts, frontier and recommended point as projectCatalog(table.toList(), request),
/// held as CompactPoints (no list of Offers, no list of ProjectedOffers); point(i) gives point i as
/// projectCatalog's results hold it. The GUI's per-row lookups (pointForRow, ...) are not built.
class TableProjection
{
public:
    /// Filters and projects `table`, which must outlive this object.
    TableProjection(const OfferTable &table, const ProjectionRequest &request);
    ~TableProjection();
    TableProjection(const TableProjection &) = delete;
    TableProjection &operator=(const TableProjection &) = delete;

    const Workload &workload() const { return m_request.workload; }
    /// The options, their `measurements` the request's (as ProjectionResults::options).
    const ProjectionOptions &options() const { return m_request.options; }
    const Calibration &calibration() const { return m_request.calibration; }
    const OfferFilter &filter() const { return m_request.filter; }

    /// The offers that passed the filter.
    qsizetype offerCount() const { return m_rows.size(); }
    /// Offer `offerIndex` of those that passed the filter (CompactPoint::offerIndex).
    Offer offer(qint32 offerIndex) const;
    /// The table projected, and the row of offer `offerIndex` in it (for OfferTable::textId).
    const OfferTable &table() const { return m_table; }
    qint32 tableRow(qint32 offerIndex) const { return m_rows.at(offerIndex); }
    const QList<CompactPoint> &points() const { return m_points; }
    /// Point i in full (its offer projected again), as projectCatalog's results hold it; `offer`, when
    /// given, receives its offer. One thread at a time (the projector's buffer).
    ProjectedOffer point(qsizetype i, Offer *offer = nullptr) const;

    /// A hint before point(order[k]) is written in the order `order`: starts loading what point() reads
    /// for the points a few places ahead (points in time order have their offers anywhere in the table).
    void prefetch(const QList<qsizetype> &order, qsizetype k) const;

    qsizetype recommended() const { return m_recommended; } ///< index into points(), -1 when none
    qsizetype projectedCount() const { return m_projectedCount; }
    qsizetype frontierCount() const { return m_frontierCount; }
    qsizetype feasibleCount() const { return m_feasibleCount; }
    /// explainNoRecommendation over these points and offers (from the compact points, nothing projected
    /// again).
    NoRecommendation whyNoRecommendation() const;

private:
    const OfferTable &m_table;
    ProjectionRequest m_request;
    QList<qint32> m_rows; ///< per offer that passed the filter: its table row
    QList<CompactPoint> m_points;
    std::unique_ptr<OfferProjector> m_projector; ///< for point()
    qsizetype m_recommended = -1;
    qsizetype m_projectedCount = 0;
    qsizetype m_frontierCount = 0;
    qsizetype m_feasibleCount = 0;
};

/// Sorts indexes into compact points by fasterThan (stable): sortByTime's order.
void sortByTime(const QList<CompactPoint> &points, QList<qsizetype> &order);

} // namespace gf

#pragma once

#include "domain/offerfilter.h"
#include "projection/projectionresults.h"
#include "viewmodels/groupingmodel.h"

#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace gf {

class OfferTableModel;

/// A catalog of more offers than this is large: typed filters wait for a pause and are matched on a worker,
/// the Offers table is filled after the first answer and on a worker, and sorted on a worker. Smaller ones
/// (the bundled catalog) do all of it at once on the GUI thread.
inline constexpr int kLargeCatalogOffers = 20000;

/// Whether two filters accept the same offers (every field equal).
bool sameFilter(const OfferFilter &a, const OfferFilter &b);

/// The Offers table with one row per (provider, instance type, pricing): the offers of an instance type
/// in its regions and zones become one row that shows the best member (the cheapest eligible projected
/// point, else the lowest price), "in 17 zones" and the price range, and has the offers as children.
/// Pricing = the spot kind and the billing terms, so that the members differ only in where they are.
///
/// The aggregates count only the members the filter (setFilter, the same as the proxy's) accepts; the
/// filtering itself stays with OfferFilterProxy on top of this model. Layered on OfferTableModel: the
/// columns, roles (SortRole, OfferIndexRole) and headers are the table's.
class OfferGroupModel final : public GroupingModel
{
    Q_OBJECT
public:
    explicit OfferGroupModel(QObject *parent = nullptr);
    ~OfferGroupModel() override;

    void setOfferModel(OfferTableModel *model);
    OfferTableModel *offerModel() const { return m_offers; }

    /// The filter whose accepted members the group rows summarise: applied at once (one layout change).
    void setFilter(const OfferFilter &filter);
    /// The same, with the offers matched and the groups summarised on a worker thread from a snapshot of the
    /// offers, the groups and the projection: the GUI thread only adopts the result (one layout change, then
    /// filterApplied). Of several filters set in a row only the newest is applied; an older one still running
    /// stops early. A result computed for other groups or another projection than the model's when it
    /// arrives is computed again from the model's; setFilter in between wins (nothing pending then).
    void setFilterOnWorker(const OfferFilter &filter);
    /// During the layout change of a new filter (only which rows are accepted and the groups' summaries
    /// changed, not any offer's own values).
    bool isApplyingFilter() const { return m_applyingFilter; }
    /// A filter of setFilterOnWorker is not applied yet.
    bool isFilterPending() const { return m_pending; }
    /// The filter applied: the one whose accepted members the rows summarise.
    const OfferFilter &filter() const { return m_filter; }
    /// Offers the filter accepts (all when it is empty).
    int acceptedCount() const { return m_acceptedCount; }
    /// Groups with at least one accepted member: the rows the table shows.
    int acceptedGroupCount() const { return m_acceptedGroups; }
    bool hasAcceptedMember(int group) const
    {
        return group < m_summary.size() && m_summary.at(group).accepted > 0;
    }
    bool isAccepted(int catalogRow) const { return m_accepted.value(catalogRow, false); }

    /// The column the proxy over this model sorts by (-1: unsorted; kOrderUnknown, the default: not said).
    /// When a new projection arrives and that column's top-level values cannot change with it
    /// (orderKeptByProjection), the rows are told with dataChanged around it instead of a layout change:
    /// the proxy keeps its mapping and order instead of mapping and sorting every row again.
    void setOrderColumn(int column) { m_orderColumn = column; }
    int orderColumn() const { return m_orderColumn; }
    static constexpr int kOrderUnknown = -2;
    /// Whether every top-level row's value in `column` (display and sort) is the same under any projection:
    /// the offer's own, a value shared by a group's members, or an aggregate of the accepted members.
    static bool orderKeptByProjection(int column);

    /// A group's summary of its accepted members.
    struct Summary
    {
        int accepted = 0;
        bool zones = true; ///< every accepted member names a zone
        std::optional<double> minOnDemand, maxOnDemand, minSpot, maxSpot;
        int minOnDemandRow = -1, maxOnDemandRow = -1, minSpotRow = -1, maxSpotRow = -1;
        bool onFrontier = false;
    };
    /// What a filter makes of the groups: which offers it accepts and each group's summary and
    /// representative. Pure: computed from a snapshot, on a worker or on the GUI thread alike.
    struct Outcome
    {
        OfferFilter filter;
        QList<bool> accepted;
        int acceptedCount = 0;
        QList<Summary> summary;
        QList<int> rep;
        int acceptedGroups = 0;
        ProjectionResultsPtr projection;
        quint64 grouping = 0; ///< groupingGeneration() of the layout used
    };
    /// What the rows show, as implicitly shared copies that a worker thread may read while the model changes:
    /// the offers, their groups, which are accepted, the groups' summaries and representatives.
    struct State
    {
        QList<Offer> offers;
        QDateTime now;
        ProjectionResultsPtr projection;
        Layout layout;
        QList<bool> accepted;
        QList<Summary> summary;
        QList<int> rep;
        quint64 generation = 0; ///< generation() when taken: the rows show it while it is the same
    };
    State state() const;
    /// What data(index(group, column), OfferTableModel::SortRole) gives, from a state (any thread).
    static QVariant groupSortValue(const State &state, int group, int column);

    /// A catalog made ready to be shown on a worker: its groups, which offers the filter accepts, the groups'
    /// summaries under the projection.
    struct PreparedCatalog
    {
        QList<Offer> offers;
        QDateTime now;
        ProjectionResultsPtr projection; ///< null when it is for another catalog
        Grouping grouping;
        Outcome outcome;
    };
    /// Prepares a catalog (any thread); nullptr when `stop` returned true before the end.
    static std::shared_ptr<PreparedCatalog> prepareCatalog(const QList<Offer> &offers, const QDateTime &now,
                                                           const ProjectionResultsPtr &projection,
                                                           bool grouped, const OfferFilter &filter,
                                                           const std::function<bool()> &stop);
    /// Shows a prepared catalog (the offer model's setOffers: one reset) without grouping, matching or
    /// summarising it again when it was prepared for this model's grouping and filter (else they are done
    /// here, as for any new catalog).
    void setPreparedCatalog(const PreparedCatalog &catalog);
    /// The groups' summaries under another projection, from a state (any thread): what the model computes
    /// when the projection arrives (filter.spotOnly: the filter's).
    static Outcome summariseUnder(const State &state, const ProjectionResultsPtr &projection, bool spotOnly);
    /// Hands the offer model a projection (OfferTableModel::setProjection) whose summaries were computed on a
    /// worker (summariseUnder) from this model's state `generation`: taken as they are when nothing changed
    /// since, else computed here.
    void setPreparedProjection(const ProjectionResultsPtr &projection, const Outcome &summaries,
                               quint64 generation);
    /// The worker the model's jobs run on, one at a time in the order given (a proxy's too).
    QThreadPool *workerPool() { return &m_pool; }

Q_SIGNALS:
    /// A filter of setFilterOnWorker was applied (after the layout change).
    void filterApplied();

protected:
    QString groupKey(int sourceRow) const override;
    size_t groupHash(int sourceRow) const override;
    bool sameGroup(int sourceRow, int otherRow) const override;
    QVariant groupData(int group, int column, int role) const override;
    void updateGroups() override;
    void updateGroupsForSourceData() override;
    void notifyManyRowsChanged() override;

private:
    /// What groupHash and sameGroup compare, of two offers.
    static size_t hashOf(const Offer &o);
    static bool sameGroupOf(const Offer &a, const Offer &b);
    /// Which offers the filter accepts; false when `stop` returned true before the end.
    static bool matchOffers(const QList<Offer> &offers, const OfferFilter &filter, QList<bool> &accepted,
                            int &acceptedCount, const std::function<bool()> &stop);
    /// The groups' summaries and representatives for the accepted offers.
    static void summarise(const QList<Offer> &offers, const Layout &layout, const QList<bool> &accepted,
                          const ProjectionResultsPtr &projection, bool spotOnly, Outcome &out);
    void updateAccepted();
    void updateSummaries();
    void adoptSummaries(const Outcome &out);
    void onFilterComputed(quint64 job, const std::shared_ptr<Outcome> &out);
    QString locationCountText(const Summary &s) const;
    QString priceRangeTooltip(int group, bool spot) const;

    OfferTableModel *m_offers = nullptr;
    OfferFilter m_filter;
    QList<bool> m_accepted;
    QList<Summary> m_summary; ///< per group
    int m_acceptedCount = 0;
    int m_acceptedGroups = 0;
    int m_orderColumn = kOrderUnknown;
    ProjectionResultsPtr m_summarised; ///< the projection the summaries were computed for
    bool m_projectionChanged = false;  ///< the last source data change brought another projection
    bool m_pending = false;            ///< a filter of setFilterOnWorker is computing
    bool m_applyingFilter = false;
    OfferFilter m_pendingFilter;
    const Outcome *m_nextOutcome = nullptr; ///< during setPreparedCatalog: what updateGroups takes
    const Outcome *m_nextSummaries =
        nullptr; ///< during setPreparedProjection: what updateGroupsForSourceData takes
    std::shared_ptr<std::atomic<quint64>> m_filterJob = std::make_shared<std::atomic<quint64>>(0);
    QThreadPool m_pool; ///< one thread: filters are matched one at a time, beside the projection's threads
};

} // namespace gf

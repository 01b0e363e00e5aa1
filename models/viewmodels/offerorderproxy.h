#pragma once

#include "domain/offerfilter.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offertablemodel.h"

#include <QAbstractProxyModel>
#include <QHash>
#include <QList>
#include <QPersistentModelIndex>

#include <atomic>
#include <memory>
#include <vector>

namespace gf {

/// The Offers table's rows over an OfferGroupModel: the groups with an offer the filter accepts, sorted by a
/// column (ties in catalog order, in both directions), each with its accepted offers as children, sorted the
/// same way. Shows what OfferFilterProxy (a QSortFilterProxyModel) shows, row for row, without its cost on
/// 200,000 rows: a filter change or a sort is one pass over plain arrays and one layout change, never a
/// comparison through two models per pair of rows.
///
/// The sort keys of the top-level rows are read once per column and kept while only the filter changes: a
/// filter changes the keys of groups of two or more offers only (their aggregates and best member), which
/// are read again. The filter itself is matched on a worker (setFilterOnWorker, OfferGroupModel). A new
/// projection, a currency or a source reset reads every key again. Persistent indexes (the selection, the
/// current row, expanded groups) follow their rows; a row the filter hides loses them, as in a
/// QSortFilterProxyModel.
class OfferOrderProxy final : public QAbstractProxyModel
{
    Q_OBJECT
public:
    explicit OfferOrderProxy(QObject *parent = nullptr);
    ~OfferOrderProxy() override;

    /// The source must be an OfferGroupModel (anything else shows nothing).
    void setSourceModel(QAbstractItemModel *source) override;

    /// Applies a filter at once (OfferGroupModel::setFilter).
    void setFilter(const OfferFilter &filter);
    /// Matches it on a worker; the rows follow when it is applied (OfferGroupModel::setFilterOnWorker).
    void setFilterOnWorker(const OfferFilter &filter);
    /// The filter the rows show.
    const OfferFilter &filter() const;

    /// Sorts the rows: on a catalog of more than workerAbove() offers the keys are read and the rows ordered
    /// on a worker from a snapshot (OfferGroupModel::state) and the rows follow when it is done
    /// (sortApplied); smaller ones at once. Of several sorts in a row only the newest is applied; one
    /// computed from rows that changed meanwhile (a filter, a projection, a new catalog) is computed again.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    /// The column and direction the rows are in (a sort on a worker: once it is applied).
    int sortColumn() const { return m_column; }
    Qt::SortOrder sortOrder() const { return m_order; }
    /// A sort on a worker is not applied yet.
    bool isSortPending() const { return m_sortPending; }
    void setWorkerAbove(int offers) { m_workerAbove = offers; }
    int workerAbove() const { return m_workerAbove; }

    /// Replaces the catalog with the offers grouped, matched with the filter, summarised under the projection
    /// and ordered on a worker (OfferGroupModel::prepareCatalog): the GUI thread only adopts the result (the
    /// offer model's reset, offersApplied). The newest call wins; dropOffersOnWorker drops a pending one (and
    /// a pending projection: a catalog set at once follows).
    void setOffersOnWorker(const QList<Offer> &offers, const QDateTime &now,
                           const ProjectionResultsPtr &projection);
    void dropOffersOnWorker();
    /// Hands the offer model a projection whose group summaries (and, sorted by a projected column, the
    /// order) were computed on a worker; the rows follow when it is done (projectionApplied). The newest
    /// wins; one computed from rows that changed meanwhile is computed again.
    void setProjectionOnWorker(const ProjectionResultsPtr &projection);
    bool isProjectionPending() const { return m_projectionPending; }
    bool isOffersPending() const { return m_offersPending; }

    /// The sort keys of every group in `column` (as read through the model's SortRole), from a state (any
    /// thread); empty when `stop` returned true.
    static std::vector<OfferFilterProxy::SortKey> keysOf(const OfferGroupModel::State &state, int column,
                                                         const std::function<bool()> &stop = {});
    /// The groups with an accepted offer, in the order of their keys (ties in group order; missing values
    /// last ascending, first descending).
    static QList<int> orderOf(const OfferGroupModel::State &state,
                              const std::vector<OfferFilterProxy::SortKey> &keys, int column,
                              Qt::SortOrder order);

Q_SIGNALS:
    /// A sort on a worker was applied (after the layout change).
    void sortApplied();
    /// A catalog of setOffersOnWorker is shown (after the reset).
    void offersApplied();
    /// A projection of setProjectionOnWorker is shown.
    void projectionApplied();

public:
    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// What a worker computed: the keys and order for a column (and a prepared catalog).
    struct Ordered
    {
        std::vector<OfferFilterProxy::SortKey> keys;
        QList<int> rows;
        int column = -1;
        Qt::SortOrder order = Qt::AscendingOrder;
        quint64 generation = 0; ///< the group model's generation it was computed from (a sort)
        std::shared_ptr<OfferGroupModel::PreparedCatalog> catalog; ///< setOffersOnWorker's
        ProjectionResultsPtr projection;                           ///< setProjectionOnWorker's
        OfferGroupModel::Outcome summaries;                        ///< its summaries
        bool ordered = false; ///< keys and rows computed (else the order stays)
    };
    /// Runs `compute` on the group model's worker (given whether a newer job was asked for since, to stop
    /// early) and hands its result to `done` on this thread; nullptr when the job is stale.
    void runOnWorker(const std::shared_ptr<std::atomic<quint64>> &latest, quint64 job,
                     void (OfferOrderProxy::*done)(quint64, const std::shared_ptr<Ordered> &),
                     const std::function<std::shared_ptr<Ordered>(const std::function<bool()> &)> &compute);
    void onSortComputed(quint64 job, const std::shared_ptr<Ordered> &out);
    void onOffersComputed(quint64 job, const std::shared_ptr<Ordered> &out);
    void onProjectionComputed(quint64 job, const std::shared_ptr<Ordered> &out);
    /// Takes m_preparedOrder when it was computed for the rows now shown and this column and direction.
    bool takePreparedOrder();
    /// Takes a computed order (m_rows, m_rowOfGroup, the keys).
    void adoptOrder(Ordered &&out);
    /// The shown groups in order (m_rows, m_rowOfGroup) from the keys; children are ordered when asked.
    void order();
    void indexRows();
    /// Reads the sort keys of every group (all) or of the groups of two or more offers only.
    void readKeys(bool all);
    /// The shown child rows (member positions) of a group of two or more, in order.
    const QList<int> &children(int group) const;
    static bool before(Qt::SortOrder order, const OfferFilterProxy::SortKey &l, int lRow,
                       const OfferFilterProxy::SortKey &r, int rRow);
    /// Which sort keys a layout change reads again: none (another direction), those of the groups of two or
    /// more (a new filter), all (anything else). Keys never read are read whatever this says.
    enum class Keys
    {
        Keep,
        Groups,
        All
    };
    void beginLayout();
    void endLayout(Keys keys);
    /// The persistent indexes moved to the rows they showed, and layoutChanged.
    void finishLayout();
    void onSourceLayoutAboutToChange();
    void onSourceLayoutChanged();
    void onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                             const QList<int> &roles);

    OfferGroupModel *m_groups = nullptr;
    QList<QMetaObject::Connection> m_connections;
    int m_column = -1;
    Qt::SortOrder m_order = Qt::AscendingOrder;
    QList<int> m_rows;       ///< per shown top-level row: its group
    QList<int> m_rowOfGroup; ///< per group: its shown row, -1 when hidden
    mutable QHash<int, QList<int>> m_children;
    std::vector<OfferFilterProxy::SortKey> m_keys; ///< per group, for m_column
    bool m_keysValid = false;
    bool m_filtering = false; ///< the source's layout change is this proxy's filter being applied
    bool m_inLayout = false;
    QList<QPersistentModelIndex>
        m_layoutSources; ///< during a layout change: what each persistent index showed
    QModelIndexList m_layoutProxies;
    int m_workerAbove = kLargeCatalogOffers;
    bool m_sortPending = false;
    bool m_offersPending = false;
    bool m_projectionPending = false;
    ProjectionResultsPtr m_pendingProjection;
    std::shared_ptr<std::atomic<quint64>> m_projectionJob = std::make_shared<std::atomic<quint64>>(0);
    int m_pendingColumn = -1;
    Qt::SortOrder m_pendingOrder = Qt::AscendingOrder;
    std::shared_ptr<std::atomic<quint64>> m_sortJob = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<std::atomic<quint64>> m_offersJob = std::make_shared<std::atomic<quint64>>(0);
    std::shared_ptr<Ordered> m_preparedOrder; ///< during the reset of setOffersOnWorker's catalog
};

} // namespace gf

#pragma once

#include "domain/offerfilter.h"
#include "viewmodels/offertablemodel.h"

#include <QAbstractProxyModel>
#include <QHash>
#include <QList>
#include <QPersistentModelIndex>

#include <vector>

namespace gf {

class OfferGroupModel;

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

    /// The source must be an OfferGroupModel (anything else shows nothing).
    void setSourceModel(QAbstractItemModel *source) override;

    /// Applies a filter at once (OfferGroupModel::setFilter).
    void setFilter(const OfferFilter &filter);
    /// Matches it on a worker; the rows follow when it is applied (OfferGroupModel::setFilterOnWorker).
    void setFilterOnWorker(const OfferFilter &filter);
    /// The filter the rows show.
    const OfferFilter &filter() const;

    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;
    int sortColumn() const { return m_column; }
    Qt::SortOrder sortOrder() const { return m_order; }

    QModelIndex mapToSource(const QModelIndex &proxyIndex) const override;
    QModelIndex mapFromSource(const QModelIndex &sourceIndex) const override;
    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    /// The shown groups in order (m_rows, m_rowOfGroup) from the keys; children are ordered when asked.
    void order();
    /// Reads the sort keys of every group (all) or of the groups of two or more offers only.
    void readKeys(bool all);
    /// The shown child rows (member positions) of a group of two or more, in order.
    const QList<int> &children(int group) const;
    bool before(const OfferFilterProxy::SortKey &l, int lRow, const OfferFilterProxy::SortKey &r,
                int rRow) const;
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
};

} // namespace gf

#include "viewmodels/offerorderproxy.h"

#include "viewmodels/offergroupmodel.h"

#include <QFutureWatcher>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cmath>

namespace gf {

// Internal ids as in GroupingModel: 0 for a top-level row, group + 1 for a child row.

OfferOrderProxy::OfferOrderProxy(QObject *parent) : QAbstractProxyModel(parent) {}

OfferOrderProxy::~OfferOrderProxy()
{
    m_sortJob->fetch_add(1); // a running job stops early; its result is not delivered (the watcher goes)
    m_offersJob->fetch_add(1);
    m_projectionJob->fetch_add(1);
}

void OfferOrderProxy::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    // Jobs computed from the previous source's rows are not for this one.
    for (const auto &job : {m_sortJob, m_offersJob, m_projectionJob})
        job->fetch_add(1);
    m_sortPending = m_offersPending = m_projectionPending = false;
    m_pendingProjection.reset();
    QAbstractProxyModel::setSourceModel(source);
    m_groups = qobject_cast<OfferGroupModel *>(source);
    if (m_groups) {
        OfferGroupModel *g = m_groups;
        m_connections = {
            connect(g, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); }),
            connect(g, &QAbstractItemModel::modelReset, this,
                    [this] {
                        if (!takePreparedOrder()) { // setOffersOnWorker's, for these rows
                            m_keysValid = false;
                            order();
                        }
                        endResetModel();
                    }),
            connect(g, &QAbstractItemModel::layoutAboutToBeChanged, this,
                    &OfferOrderProxy::onSourceLayoutAboutToChange),
            connect(g, &QAbstractItemModel::layoutChanged, this, &OfferOrderProxy::onSourceLayoutChanged),
            connect(g, &QAbstractItemModel::dataChanged, this, &OfferOrderProxy::onSourceDataChanged),
            connect(g, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged),
        };
        m_groups->setOrderColumn(m_column);
    }
    m_keysValid = false;
    order();
    endResetModel();
}

void OfferOrderProxy::setFilter(const OfferFilter &filter)
{
    if (m_groups)
        m_groups->setFilter(filter);
}

void OfferOrderProxy::setFilterOnWorker(const OfferFilter &filter)
{
    if (m_groups)
        m_groups->setFilterOnWorker(filter);
}

const OfferFilter &OfferOrderProxy::filter() const
{
    static const OfferFilter none;
    return m_groups ? m_groups->filter() : none;
}

void OfferOrderProxy::sort(int column, Qt::SortOrder order)
{
    const quint64 job = m_sortJob->fetch_add(1) + 1; // a sort still computing is older: it is dropped
    if (m_groups && column >= 0 && m_groups->offerModel() &&
        m_groups->offerModel()->rowCount() > m_workerAbove) {
        m_sortPending = true;
        m_pendingColumn = column;
        m_pendingOrder = order;
        const OfferGroupModel::State state = m_groups->state();
        runOnWorker(m_sortJob, job, &OfferOrderProxy::onSortComputed,
                    [=](const std::function<bool()> &stale) -> std::shared_ptr<Ordered> {
                        auto out = std::make_shared<Ordered>();
                        out->keys = keysOf(state, column, stale);
                        if (stale())
                            return nullptr;
                        out->rows = orderOf(state, out->keys, column, order);
                        out->column = column;
                        out->order = order;
                        out->generation = state.generation;
                        return out;
                    });
        return;
    }
    m_sortPending = false;
    if (m_groups)
        m_groups->setOrderColumn(column); // the group model's signals follow the new column
    beginLayout();
    if (column != m_column)
        m_keysValid = false;
    m_column = column;
    m_order = order;
    endLayout(Keys::Keep);
}

void OfferOrderProxy::onSortComputed(quint64 job, const std::shared_ptr<Ordered> &out)
{
    if (job != m_sortJob->load() || !m_sortPending)
        return; // a newer sort was asked for since (its own result follows), or applied at once
    if (!out || out->generation != m_groups->generation()) {
        // The rows changed while it ran (a filter, a projection, a new catalog): again, from what they are
        // now.
        sort(m_pendingColumn, m_pendingOrder);
        return;
    }
    m_sortPending = false;
    m_groups->setOrderColumn(out->column);
    beginLayout();
    adoptOrder(std::move(*out));
    finishLayout();
    Q_EMIT sortApplied();
}

void OfferOrderProxy::adoptOrder(Ordered &&out)
{
    m_column = out.column;
    m_order = out.order;
    m_keys = std::move(out.keys);
    m_keysValid = true;
    m_rows = std::move(out.rows);
    indexRows();
}

void OfferOrderProxy::setOffersOnWorker(const QList<Offer> &offers, const QDateTime &now,
                                        const ProjectionResultsPtr &projection)
{
    const quint64 job = m_offersJob->fetch_add(1) + 1;
    if (!m_groups)
        return;
    m_offersPending = true;
    const int column = m_column;
    const Qt::SortOrder order = m_order;
    const bool grouped = m_groups->isGrouped();
    const OfferFilter filter = m_groups->filter();
    runOnWorker(m_offersJob, job, &OfferOrderProxy::onOffersComputed,
                [=](const std::function<bool()> &stale) -> std::shared_ptr<Ordered> {
                    auto out = std::make_shared<Ordered>();
                    out->catalog =
                        OfferGroupModel::prepareCatalog(offers, now, projection, grouped, filter, stale);
                    if (!out->catalog)
                        return nullptr;
                    out->column = column;
                    out->order = order;
                    OfferGroupModel::State state;
                    state.offers = offers;
                    state.now = now;
                    state.projection = out->catalog->projection;
                    state.layout = out->catalog->grouping.layout;
                    state.accepted = out->catalog->outcome.accepted;
                    state.summary = out->catalog->outcome.summary;
                    state.rep = out->catalog->outcome.rep;
                    if (column >= 0)
                        out->keys = keysOf(state, column, stale);
                    if (stale())
                        return nullptr;
                    out->rows = orderOf(state, out->keys, column, order);
                    return out;
                });
}

void OfferOrderProxy::runOnWorker(
    const std::shared_ptr<std::atomic<quint64>> &latest, quint64 job,
    void (OfferOrderProxy::*done)(quint64, const std::shared_ptr<Ordered> &),
    const std::function<std::shared_ptr<Ordered>(const std::function<bool()> &)> &compute)
{
    auto *watcher = new QFutureWatcher<std::shared_ptr<Ordered>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, done] {
        watcher->deleteLater();
        (this->*done)(job, watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run(m_groups->workerPool(), [latest, job, compute]() -> std::shared_ptr<Ordered> {
            const std::function<bool()> stale = [&latest, job] { return latest->load() != job; };
            if (stale())
                return nullptr;
            std::shared_ptr<Ordered> out = compute(stale);
            return stale() ? nullptr : out; // a newer job was asked for: this one's result is not wanted
        }));
}

void OfferOrderProxy::dropOffersOnWorker()
{
    m_offersJob->fetch_add(1);
    m_offersPending = false;
    m_projectionJob->fetch_add(1);
    m_projectionPending = false;
    m_pendingProjection.reset();
}

void OfferOrderProxy::onOffersComputed(quint64 job, const std::shared_ptr<Ordered> &out)
{
    if (job != m_offersJob->load() || !m_offersPending || !out)
        return; // a newer catalog was given since (or one at once): this one is not shown
    const std::shared_ptr<OfferGroupModel::PreparedCatalog> catalog = out->catalog;
    if (catalog->grouping.grouped != m_groups->isGrouped() ||
        !sameFilter(catalog->outcome.filter, m_groups->filter())) {
        // The grouping or the filter changed while it ran: again, with what they are now.
        setOffersOnWorker(catalog->offers, catalog->now, catalog->projection);
        return;
    }
    m_offersPending = false;
    m_projectionPending = false; // it came with the catalog's own (or the page gives it again)
    m_projectionJob->fetch_add(1);
    m_preparedOrder = out; // the reset's order (modelReset), when the column and direction are still its own
    m_groups->setPreparedCatalog(*catalog);
    m_preparedOrder.reset();
    Q_EMIT offersApplied();
}

void OfferOrderProxy::setProjectionOnWorker(const ProjectionResultsPtr &projection)
{
    const quint64 job = m_projectionJob->fetch_add(1) + 1;
    if (!m_groups || !m_groups->offerModel())
        return;
    m_projectionPending = true;
    m_pendingProjection = projection;
    const OfferGroupModel::State state = m_groups->state();
    const bool spotOnly = m_groups->filter().spotOnly;
    // The order changes with the projection only when sorted by a projected column (as the model tells).
    const int column = m_column;
    const Qt::SortOrder order = m_order;
    const bool reorder = column >= 0 && !OfferGroupModel::orderKeptByProjection(column);
    runOnWorker(m_projectionJob, job, &OfferOrderProxy::onProjectionComputed,
                [=](const std::function<bool()> &stale) -> std::shared_ptr<Ordered> {
                    auto out = std::make_shared<Ordered>();
                    out->projection = projection && projection->catalogSize() == state.offers.size()
                                          ? projection
                                          : nullptr; // for another catalog: the model ignores it
                    out->generation = state.generation;
                    out->summaries = OfferGroupModel::summariseUnder(state, out->projection, spotOnly);
                    if (!reorder || stale())
                        return out;
                    OfferGroupModel::State next = state;
                    next.projection = out->projection;
                    next.summary = out->summaries.summary;
                    next.rep = out->summaries.rep;
                    out->keys = keysOf(next, column, stale);
                    if (stale())
                        return nullptr;
                    out->rows = orderOf(next, out->keys, column, order);
                    out->column = column;
                    out->order = order;
                    out->ordered = true;
                    return out;
                });
}

void OfferOrderProxy::onProjectionComputed(quint64 job, const std::shared_ptr<Ordered> &out)
{
    if (job != m_projectionJob->load() || !m_projectionPending)
        return; // a newer projection was given since: its own result follows
    if (!out || out->generation != m_groups->generation()) {
        // The rows changed while it ran (a filter, a sort column's keys, a new catalog): again, from them.
        setProjectionOnWorker(m_pendingProjection);
        return;
    }
    m_projectionPending = false;
    const ProjectionResultsPtr projection = std::exchange(m_pendingProjection, nullptr);
    if (out->projection != projection) {
        // For another catalog: the model ignores it, as it does at once.
        m_groups->offerModel()->setProjection(projection);
        Q_EMIT projectionApplied();
        return;
    }
    if (out->ordered)
        m_preparedOrder = out; // the layout change's order (the model's projected sort column)
    m_groups->setPreparedProjection(out->projection, out->summaries, out->generation);
    m_preparedOrder.reset();
    Q_EMIT projectionApplied();
}

bool OfferOrderProxy::takePreparedOrder()
{
    const std::shared_ptr<Ordered> prepared = std::exchange(m_preparedOrder, nullptr);
    if (!prepared || prepared->column != m_column || prepared->order != m_order ||
        prepared->keys.size() != static_cast<size_t>(m_column >= 0 ? m_groups->groupCount() : 0) ||
        prepared->rows.size() != m_groups->acceptedGroupCount())
        return false;
    adoptOrder(std::move(*prepared));
    return true;
}

bool OfferOrderProxy::before(Qt::SortOrder order, const OfferFilterProxy::SortKey &l, int lRow,
                             const OfferFilterProxy::SortKey &r, int rRow)
{
    // Equal keys keep the source's order in either direction, as OfferFilterProxy::lessThan.
    const bool less =
        order == Qt::AscendingOrder ? OfferFilterProxy::keyLess(l, r) : OfferFilterProxy::keyLess(r, l);
    if (less)
        return true;
    const bool greater =
        order == Qt::AscendingOrder ? OfferFilterProxy::keyLess(r, l) : OfferFilterProxy::keyLess(l, r);
    return !greater && lRow < rRow;
}

std::vector<OfferFilterProxy::SortKey> OfferOrderProxy::keysOf(const OfferGroupModel::State &state,
                                                               int column, const std::function<bool()> &stop)
{
    const int groups = state.layout.groupCount();
    std::vector<OfferFilterProxy::SortKey> keys(static_cast<size_t>(std::max(groups, 0)));
    for (int g = 0; g < groups; ++g) {
        if (stop && g % 4096 == 0 && stop())
            return {};
        keys[static_cast<size_t>(g)] =
            OfferFilterProxy::sortKeyOf(OfferGroupModel::groupSortValue(state, g, column));
    }
    return keys;
}

void OfferOrderProxy::readKeys(bool all)
{
    const int groups = m_groups ? m_groups->groupCount() : 0;
    if (m_column < 0 || groups == 0) {
        m_keys.clear();
        m_keysValid = true;
        return;
    }
    // A single offer's key is its own whatever the filter; a group's follows its accepted members.
    all = all || !m_keysValid || m_keys.size() != static_cast<size_t>(groups);
    const OfferGroupModel::State state = m_groups->state();
    if (all) {
        m_keys = keysOf(state, m_column);
    } else {
        for (int g = 0; g < groups; ++g)
            if (m_groups->groupSize(g) >= 2 && m_groups->hasAcceptedMember(g))
                m_keys[static_cast<size_t>(g)] =
                    OfferFilterProxy::sortKeyOf(OfferGroupModel::groupSortValue(state, g, m_column));
    }
    m_keysValid = true;
}

QList<int> OfferOrderProxy::orderOf(const OfferGroupModel::State &state,
                                    const std::vector<OfferFilterProxy::SortKey> &keys, int column,
                                    Qt::SortOrder order)
{
    const int groups = state.layout.groupCount();
    QList<int> rows;
    rows.reserve(groups);
    for (int g = 0; g < groups; ++g)
        if (g < state.summary.size() && state.summary.at(g).accepted > 0)
            rows.append(g);
    if (column < 0 || rows.isEmpty())
        return rows;
    const auto key = [&keys](int g) -> const OfferFilterProxy::SortKey & {
        return keys[static_cast<size_t>(g)];
    };
    bool numeric = true;
    for (const int g : std::as_const(rows)) {
        const OfferFilterProxy::SortKey &k = key(g);
        numeric = numeric && (!k.valid || (k.isNumber && !std::isnan(k.number)));
    }
    if (!numeric) {
        std::stable_sort(rows.begin(), rows.end(),
                         [&](int l, int r) { return before(order, key(l), l, key(r), r); });
        return rows;
    }
    // (number, group) pairs: the stable sort by number, faster. Missing values after the numbers in ascending
    // order, before them in descending (they sort as the greatest), in group order.
    const bool ascending = order == Qt::AscendingOrder;
    std::vector<std::pair<double, int>> numbers;
    numbers.reserve(static_cast<size_t>(rows.size()));
    QList<int> missing;
    for (const int g : std::as_const(rows)) {
        const OfferFilterProxy::SortKey &k = key(g);
        if (k.valid)
            numbers.emplace_back(ascending ? k.number : -k.number, g);
        else
            missing.append(g);
    }
    std::sort(numbers.begin(), numbers.end());
    rows.clear();
    if (!ascending)
        rows.append(missing);
    for (const auto &n : numbers)
        rows.append(n.second);
    if (ascending)
        rows.append(missing);
    return rows;
}

void OfferOrderProxy::order()
{
    if (m_column >= 0 && !m_keysValid)
        readKeys(true);
    m_rows = m_groups ? orderOf(m_groups->state(), m_keys, m_column, m_order) : QList<int>();
    indexRows();
}

void OfferOrderProxy::indexRows()
{
    m_children.clear();
    m_rowOfGroup.fill(-1, m_groups ? m_groups->groupCount() : 0);
    for (int row = 0; row < m_rows.size(); ++row)
        m_rowOfGroup[m_rows.at(row)] = row;
}

const QList<int> &OfferOrderProxy::children(int group) const
{
    auto it = m_children.constFind(group);
    if (it != m_children.constEnd())
        return it.value();
    QList<int> rows;
    const QModelIndex parent = m_groups->index(group, 0);
    const std::span<const int> members = m_groups->members(group);
    if (members.size() >= 2)
        for (int pos = 0; pos < static_cast<int>(members.size()); ++pos)
            if (m_groups->isAccepted(members[static_cast<size_t>(pos)]))
                rows.append(pos);
    if (m_column >= 0 && rows.size() > 1) {
        std::vector<OfferFilterProxy::SortKey> keys(members.size());
        for (const int pos : std::as_const(rows))
            keys[static_cast<size_t>(pos)] = OfferFilterProxy::sortKeyOf(
                m_groups->index(pos, m_column, parent).data(OfferTableModel::SortRole));
        std::stable_sort(rows.begin(), rows.end(), [&](int l, int r) {
            return before(m_order, keys[static_cast<size_t>(l)], l, keys[static_cast<size_t>(r)], r);
        });
    }
    return m_children.insert(group, rows).value();
}

void OfferOrderProxy::beginLayout()
{
    m_inLayout = true;
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    m_layoutProxies = persistentIndexList();
    m_layoutSources.clear();
    m_layoutSources.reserve(m_layoutProxies.size());
    for (const QModelIndex &p : std::as_const(m_layoutProxies))
        m_layoutSources.append(QPersistentModelIndex(mapToSource(p)));
}

void OfferOrderProxy::endLayout(Keys keys)
{
    if (m_column >= 0 && (keys != Keys::Keep || !m_keysValid))
        readKeys(keys == Keys::All);
    order();
    finishLayout();
}

void OfferOrderProxy::finishLayout()
{
    QModelIndexList to;
    to.reserve(m_layoutSources.size());
    for (const QPersistentModelIndex &s : std::as_const(m_layoutSources))
        to.append(mapFromSource(s));
    changePersistentIndexList(m_layoutProxies, to);
    m_layoutProxies.clear();
    m_layoutSources.clear();
    m_inLayout = false;
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void OfferOrderProxy::onSourceLayoutAboutToChange()
{
    beginLayout();
}

void OfferOrderProxy::onSourceLayoutChanged()
{
    if (!m_inLayout)
        return;
    // A new filter changes which rows are shown and the aggregates of groups of two or more, not any offer's
    // own values; anything else (a projection sorted by a projected column, a currency) every key, unless
    // a worker computed them (setProjectionOnWorker).
    if (takePreparedOrder()) {
        finishLayout();
        return;
    }
    endLayout(m_groups->isApplyingFilter() ? Keys::Groups : Keys::All);
}

void OfferOrderProxy::onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                          const QList<int> &roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    if (m_column >= topLeft.column() && m_column <= bottomRight.column()) {
        // The sort column's values changed: the order may have (computed on a worker: setProjectionOnWorker).
        beginLayout();
        if (takePreparedOrder()) {
            finishLayout();
            return;
        }
        m_keysValid = false;
        endLayout(Keys::All);
        return;
    }
    const QModelIndex sourceParent = topLeft.parent();
    if (!sourceParent.isValid()) {
        if (bottomRight.row() - topLeft.row() >= 64) {
            if (!m_rows.isEmpty())
                Q_EMIT dataChanged(index(0, topLeft.column()), index(rowCount() - 1, bottomRight.column()),
                                   roles);
            return;
        }
        for (int row = topLeft.row(); row <= bottomRight.row(); ++row) {
            const int shown = row < m_rowOfGroup.size() ? m_rowOfGroup.at(row) : -1;
            if (shown >= 0)
                Q_EMIT dataChanged(index(shown, topLeft.column()), index(shown, bottomRight.column()), roles);
        }
        return;
    }
    const QModelIndex parent = mapFromSource(sourceParent);
    const int rows = parent.isValid() ? rowCount(parent) : 0;
    if (rows > 0)
        Q_EMIT dataChanged(index(0, topLeft.column(), parent), index(rows - 1, bottomRight.column(), parent),
                           roles);
}

QModelIndex OfferOrderProxy::mapToSource(const QModelIndex &proxyIndex) const
{
    if (!m_groups || !proxyIndex.isValid() || proxyIndex.model() != this)
        return {};
    if (proxyIndex.internalId() == 0)
        return proxyIndex.row() < m_rows.size()
                   ? m_groups->index(m_rows.at(proxyIndex.row()), proxyIndex.column())
                   : QModelIndex();
    const int group = static_cast<int>(proxyIndex.internalId() - 1);
    const QList<int> &rows = children(group);
    if (proxyIndex.row() >= rows.size())
        return {};
    return m_groups->index(rows.at(proxyIndex.row()), proxyIndex.column(), m_groups->index(group, 0));
}

QModelIndex OfferOrderProxy::mapFromSource(const QModelIndex &sourceIndex) const
{
    if (!m_groups || !sourceIndex.isValid() || sourceIndex.model() != m_groups)
        return {};
    if (sourceIndex.internalId() == 0) {
        const int shown = m_rowOfGroup.value(sourceIndex.row(), -1);
        return shown >= 0 ? createIndex(shown, sourceIndex.column(), quintptr(0)) : QModelIndex();
    }
    const int group = static_cast<int>(sourceIndex.internalId() - 1);
    if (m_rowOfGroup.value(group, -1) < 0)
        return {};
    const qsizetype row = children(group).indexOf(sourceIndex.row());
    return row >= 0 ? createIndex(static_cast<int>(row), sourceIndex.column(), quintptr(group + 1))
                    : QModelIndex();
}

QModelIndex OfferOrderProxy::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= columnCount())
        return {};
    if (!parent.isValid())
        return row < m_rows.size() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0 ||
        parent.row() >= m_rows.size())
        return {};
    const int group = m_rows.at(parent.row());
    return row < children(group).size() ? createIndex(row, column, quintptr(group + 1)) : QModelIndex();
}

QModelIndex OfferOrderProxy::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    const int group = static_cast<int>(child.internalId() - 1);
    const int shown = m_rowOfGroup.value(group, -1);
    return shown >= 0 ? createIndex(shown, 0, quintptr(0)) : QModelIndex();
}

int OfferOrderProxy::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_rows.size());
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0 ||
        parent.row() >= m_rows.size())
        return 0;
    return static_cast<int>(children(m_rows.at(parent.row())).size());
}

int OfferOrderProxy::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    return m_groups ? m_groups->columnCount() : 0;
}

bool OfferOrderProxy::hasChildren(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return !m_rows.isEmpty();
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0 ||
        parent.row() >= m_rows.size())
        return false;
    const int group = m_rows.at(parent.row());
    return m_groups->groupSize(group) >= 2 && !children(group).isEmpty();
}

QVariant OfferOrderProxy::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_groups && orientation == Qt::Horizontal ? m_groups->headerData(section, orientation, role)
                                                     : QVariant();
}

} // namespace gf

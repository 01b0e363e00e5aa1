#include "viewmodels/offerorderproxy.h"

#include "viewmodels/offergroupmodel.h"

#include <algorithm>
#include <cmath>

namespace gf {

// Internal ids as in GroupingModel: 0 for a top-level row, group + 1 for a child row.

OfferOrderProxy::OfferOrderProxy(QObject *parent) : QAbstractProxyModel(parent) {}

void OfferOrderProxy::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    QAbstractProxyModel::setSourceModel(source);
    m_groups = qobject_cast<OfferGroupModel *>(source);
    if (m_groups) {
        OfferGroupModel *g = m_groups;
        m_connections = {
            connect(g, &QAbstractItemModel::modelAboutToBeReset, this, [this] { beginResetModel(); }),
            connect(g, &QAbstractItemModel::modelReset, this,
                    [this] {
                        m_keysValid = false;
                        order();
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
    if (m_groups)
        m_groups->setOrderColumn(column); // the group model's signals follow the new column
    beginLayout();
    if (column != m_column)
        m_keysValid = false;
    m_column = column;
    m_order = order;
    endLayout(Keys::Keep);
}

bool OfferOrderProxy::before(const OfferFilterProxy::SortKey &l, int lRow, const OfferFilterProxy::SortKey &r,
                             int rRow) const
{
    // Equal keys keep the source's order in either direction, as OfferFilterProxy::lessThan.
    const bool less =
        m_order == Qt::AscendingOrder ? OfferFilterProxy::keyLess(l, r) : OfferFilterProxy::keyLess(r, l);
    if (less)
        return true;
    const bool greater =
        m_order == Qt::AscendingOrder ? OfferFilterProxy::keyLess(r, l) : OfferFilterProxy::keyLess(l, r);
    return !greater && lRow < rRow;
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
    m_keys.resize(static_cast<size_t>(groups));
    const int role = OfferTableModel::SortRole;
    for (int g = 0; g < groups; ++g) {
        if (!all && (m_groups->groupSize(g) < 2 || !m_groups->hasAcceptedMember(g)))
            continue;
        m_keys[static_cast<size_t>(g)] = OfferFilterProxy::sortKeyOf(m_groups->index(g, m_column).data(role));
    }
    m_keysValid = true;
}

void OfferOrderProxy::order()
{
    const int groups = m_groups ? m_groups->groupCount() : 0;
    m_children.clear();
    m_rowOfGroup.fill(-1, groups);
    m_rows.clear();
    m_rows.reserve(groups);
    for (int g = 0; g < groups; ++g)
        if (m_groups->hasAcceptedMember(g))
            m_rows.append(g);
    if (m_column >= 0 && !m_rows.isEmpty()) {
        if (!m_keysValid)
            readKeys(true);
        const auto key = [this](int g) -> const OfferFilterProxy::SortKey & {
            return m_keys[static_cast<size_t>(g)];
        };
        bool numeric = true;
        for (const int g : std::as_const(m_rows)) {
            const OfferFilterProxy::SortKey &k = key(g);
            numeric = numeric && (!k.valid || (k.isNumber && !std::isnan(k.number)));
        }
        if (numeric) {
            // (number, group) pairs: the stable sort by number, faster. Missing values after the numbers in
            // ascending order, before them in descending (they sort as the greatest), in group order.
            const bool ascending = m_order == Qt::AscendingOrder;
            std::vector<std::pair<double, int>> numbers;
            numbers.reserve(static_cast<size_t>(m_rows.size()));
            QList<int> missing;
            for (const int g : std::as_const(m_rows)) {
                const OfferFilterProxy::SortKey &k = key(g);
                if (k.valid)
                    numbers.emplace_back(ascending ? k.number : -k.number, g);
                else
                    missing.append(g);
            }
            std::sort(numbers.begin(), numbers.end());
            m_rows.clear();
            if (!ascending)
                m_rows.append(missing);
            for (const auto &n : numbers)
                m_rows.append(n.second);
            if (ascending)
                m_rows.append(missing);
        } else {
            std::stable_sort(m_rows.begin(), m_rows.end(),
                             [&](int l, int r) { return before(key(l), l, key(r), r); });
        }
    }
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
            return before(keys[static_cast<size_t>(l)], l, keys[static_cast<size_t>(r)], r);
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
    // own values; anything else (a projection sorted by a projected column, a currency) every key.
    endLayout(m_groups->isApplyingFilter() ? Keys::Groups : Keys::All);
}

void OfferOrderProxy::onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                          const QList<int> &roles)
{
    if (!topLeft.isValid() || !bottomRight.isValid())
        return;
    if (m_column >= topLeft.column() && m_column <= bottomRight.column()) {
        // The sort column's values changed: the order may have.
        beginLayout();
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

#include "viewmodels/groupingmodel.h"

#include <QHash>

namespace gf {

// Internal ids: 0 for a top-level row, group + 1 for a member row (its parent's row + 1).

GroupingModel::GroupingModel(QObject *parent) : QAbstractItemModel(parent), m_start{0} {}

GroupingModel::~GroupingModel() = default;

void GroupingModel::setSourceModel(QAbstractItemModel *source)
{
    beginResetModel();
    for (const QMetaObject::Connection &c : std::as_const(m_connections))
        disconnect(c);
    m_connections.clear();
    m_source = source;
    if (m_source) {
        QAbstractItemModel *s = m_source;
        m_connections = {
            connect(s, &QAbstractItemModel::modelAboutToBeReset, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::modelReset, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::layoutAboutToBeChanged, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::layoutChanged, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::rowsAboutToBeInserted, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::rowsInserted, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::rowsAboutToBeRemoved, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::rowsRemoved, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::rowsAboutToBeMoved, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::rowsMoved, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::columnsAboutToBeInserted, this,
                    &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::columnsInserted, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::columnsAboutToBeRemoved, this, &GroupingModel::beginSourceChange),
            connect(s, &QAbstractItemModel::columnsRemoved, this, &GroupingModel::endSourceChange),
            connect(s, &QAbstractItemModel::dataChanged, this, &GroupingModel::onSourceDataChanged),
            connect(s, &QAbstractItemModel::headerDataChanged, this, &QAbstractItemModel::headerDataChanged),
        };
    }
    regroup();
    endResetModel();
}

void GroupingModel::setGrouped(bool grouped)
{
    if (grouped == m_grouped)
        return;
    beginResetModel();
    m_grouped = grouped;
    regroup();
    endResetModel();
}

void GroupingModel::beginSourceChange()
{
    if (m_inChange)
        return;
    m_inChange = true;
    beginResetModel();
}

void GroupingModel::endSourceChange()
{
    if (!m_inChange)
        return;
    regroup();
    m_inChange = false;
    endResetModel();
}

GroupingModel::Grouping GroupingModel::formGroups(int n, bool grouped, const std::function<size_t(int)> &hash,
                                                  const std::function<bool(int, int)> &same)
{
    Grouping out;
    out.grouped = grouped;
    out.groupOf.resize(n);
    out.position.resize(n);
    QList<int> sizes;
    if (grouped) {
        // Groups by hash, each hash's groups chained (equal hashes of different keys are told apart by
        // `same` with the group's first row): no key text built per row.
        QHash<size_t, int> lastGroupOfHash;
        lastGroupOfHash.reserve(n);
        QList<int> firstRow;         // per group
        QList<int> previousSameHash; // per group: the group before it with the same hash, -1
        for (int row = 0; row < n; ++row) {
            const size_t h = hash(row);
            auto it = lastGroupOfHash.find(h);
            int group = it == lastGroupOfHash.end() ? -1 : it.value();
            while (group >= 0 && !same(row, firstRow.at(group)))
                group = previousSameHash.at(group);
            if (group < 0) {
                group = static_cast<int>(sizes.size());
                sizes.append(0);
                firstRow.append(row);
                previousSameHash.append(it == lastGroupOfHash.end() ? -1 : it.value());
                lastGroupOfHash.insert(h, group);
            }
            out.groupOf[row] = group;
            out.position[row] = sizes[group]++;
        }
    } else {
        sizes.fill(1, n);
        for (int row = 0; row < n; ++row) {
            out.groupOf[row] = row;
            out.position[row] = 0;
        }
    }
    const int groups = static_cast<int>(sizes.size());
    QList<qsizetype> &start = out.layout.start;
    start.resize(groups + 1);
    start[0] = 0;
    for (int g = 0; g < groups; ++g)
        start[g + 1] = start[g] + sizes[g];
    out.layout.members.resize(n);
    for (int row = 0; row < n; ++row)
        out.layout.members[start[out.groupOf[row]] + out.position[row]] = row;
    return out;
}

void GroupingModel::regroup()
{
    ++m_generation;
    ++m_groupingGeneration;
    const int n = m_source ? m_source->rowCount() : 0;
    std::optional<Grouping> next = std::move(m_nextGrouping);
    m_nextGrouping.reset();
    if (!next || next->groupOf.size() != n || next->grouped != m_grouped)
        next = formGroups(
            n, m_grouped, [this](int row) { return groupHash(row); },
            [this](int row, int other) { return sameGroup(row, other); });
    m_start = std::move(next->layout.start);
    m_members = std::move(next->layout.members);
    m_groupOf = std::move(next->groupOf);
    m_position = std::move(next->position);
    const int groups = groupCount();
    m_rep.resize(groups);
    for (int g = 0; g < groups; ++g)
        m_rep[g] = m_members[m_start[g]];
    updateGroups();
}

void GroupingModel::updateGroups() {}

std::span<const int> GroupingModel::members(int group) const
{
    return std::span<const int>(m_members.constData() + m_start.at(group),
                                static_cast<size_t>(groupSize(group)));
}

int GroupingModel::groupOfSourceRow(int sourceRow) const
{
    return sourceRow >= 0 && sourceRow < m_groupOf.size() ? m_groupOf.at(sourceRow) : -1;
}

int GroupingModel::sourceRow(const QModelIndex &index) const
{
    if (!index.isValid() || index.model() != this)
        return -1;
    if (index.internalId() == 0)
        return m_rep.value(index.row(), -1);
    const int group = static_cast<int>(index.internalId() - 1);
    return index.row() < groupSize(group) ? m_members.at(m_start.at(group) + index.row()) : -1;
}

QModelIndex GroupingModel::indexOfSourceRow(int sourceRow, int column) const
{
    const int group = groupOfSourceRow(sourceRow);
    if (group < 0 || column < 0 || column >= columnCount())
        return {};
    if (groupSize(group) < 2)
        return createIndex(group, column, quintptr(0));
    return createIndex(m_position.at(sourceRow), column, quintptr(group + 1));
}

bool GroupingModel::isGroupRow(const QModelIndex &index) const
{
    return index.isValid() && index.model() == this && index.internalId() == 0 && groupSize(index.row()) >= 2;
}

QModelIndex GroupingModel::index(int row, int column, const QModelIndex &parent) const
{
    if (row < 0 || column < 0 || column >= columnCount())
        return {};
    if (!parent.isValid())
        return row < groupCount() ? createIndex(row, column, quintptr(0)) : QModelIndex();
    if (parent.model() != this || parent.internalId() != 0 || parent.column() != 0)
        return {};
    const int size = groupSize(parent.row());
    return size >= 2 && row < size ? createIndex(row, column, quintptr(parent.row() + 1)) : QModelIndex();
}

QModelIndex GroupingModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr(0));
}

int GroupingModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return groupCount();
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const int size = groupSize(parent.row());
    return size >= 2 ? size : 0;
}

int GroupingModel::columnCount(const QModelIndex &parent) const
{
    Q_UNUSED(parent)
    const QAbstractItemModel *source = m_source.data();
    return source ? source->columnCount() : 0;
}

bool GroupingModel::hasChildren(const QModelIndex &parent) const
{
    return rowCount(parent) > 0;
}

QVariant GroupingModel::sourceData(int sourceRow, int column, int role) const
{
    const QAbstractItemModel *source = m_source.data();
    return source ? source->index(sourceRow, column).data(role) : QVariant();
}

QVariant GroupingModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.model() != this)
        return {};
    const bool topLevel = index.internalId() == 0;
    const int group = topLevel ? index.row() : static_cast<int>(index.internalId() - 1);
    if (group >= groupCount())
        return {};
    const int size = groupSize(group);
    if (role == IsGroupRole)
        return topLevel && size >= 2;
    if (role == GroupSizeRole)
        return topLevel ? size : 1;
    if (topLevel && size >= 2)
        return groupData(group, index.column(), role);
    const int row = sourceRow(index);
    return row >= 0 ? sourceData(row, index.column(), role) : QVariant();
}

QVariant GroupingModel::groupData(int group, int column, int role) const
{
    return sourceData(m_rep.at(group), column, role);
}

QVariant GroupingModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    return m_source && orientation == Qt::Horizontal ? m_source->headerData(section, orientation, role)
                                                     : QVariant();
}

Qt::ItemFlags GroupingModel::flags(const QModelIndex &index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (index.internalId() != 0)
        f |= Qt::ItemNeverHasChildren;
    return f;
}

void GroupingModel::notifyGroupsChanged()
{
    ++m_generation;
    if (groupCount() == 0)
        return;
    // The rows stay where they are (no index moves), so persistent indexes and expanded groups hold.
    Q_EMIT layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    Q_EMIT layoutChanged({}, QAbstractItemModel::VerticalSortHint);
}

void GroupingModel::notifyRowsChangedExcept(int keptColumn)
{
    ++m_generation;
    const int rows = groupCount();
    const int last = columnCount() - 1;
    if (rows == 0 || last < 0)
        return;
    if (keptColumn < 0 || keptColumn > last) {
        Q_EMIT dataChanged(index(0, 0), index(rows - 1, last));
        return;
    }
    if (keptColumn > 0)
        Q_EMIT dataChanged(index(0, 0), index(rows - 1, keptColumn - 1));
    if (keptColumn < last)
        Q_EMIT dataChanged(index(0, keptColumn + 1), index(rows - 1, last));
}

void GroupingModel::onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                                        const QList<int> &roles)
{
    if (m_inChange || !topLeft.isValid() || !bottomRight.isValid() || topLeft.parent().isValid())
        return;
    ++m_generation;
    updateGroupsForSourceData();
    const int first = topLeft.row();
    const int last = bottomRight.row();
    if (last - first + 1 > 64) { // many rows (a new projection): one signal for all of them
        notifyManyRowsChanged();
        return;
    }
    // A few rows: their top-level rows (a representative or an aggregate may have changed) and, within
    // groups of two or more, their member rows.
    QList<bool> touched(groupCount(), false);
    for (int row = first; row <= last; ++row)
        touched[m_groupOf.at(row)] = true;
    for (int g = 0; g < groupCount(); ++g) {
        if (!touched.at(g))
            continue;
        Q_EMIT dataChanged(index(g, 0), index(g, columnCount() - 1));
        const int size = groupSize(g);
        if (size < 2)
            continue;
        const QModelIndex parent = index(g, 0);
        Q_EMIT dataChanged(index(0, topLeft.column(), parent), index(size - 1, bottomRight.column(), parent),
                           roles);
    }
}

} // namespace gf

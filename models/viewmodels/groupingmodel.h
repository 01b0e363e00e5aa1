#pragma once

#include <QAbstractItemModel>
#include <QList>
#include <QMetaObject>
#include <QPointer>

#include <functional>
#include <optional>
#include <span>

namespace gf {

/// A two-level view of a flat table model. Top-level rows are groups of the source rows that share a
/// key (groupKey): a group of one shows its row as it is; a group of two or more shows one summary
/// row (the representative member's data, columns overridden by groupData) with its members as
/// children. Ungrouped (setGrouped(false)) every source row is a top-level row of its own.
///
/// Grouping runs once per source reset, O(n) with one hash lookup per row. The source's dataChanged
/// is forwarded to the rows that show it (and to every group row: aggregates may change); any other
/// structural change of the source resets this model. Columns, headers and roles pass through.
class GroupingModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    static constexpr int IsGroupRole =
        Qt::UserRole + 40; ///< bool: the row stands for two or more source rows
    static constexpr int GroupSizeRole =
        Qt::UserRole + 41; ///< int: source rows in the row's group (1: single)

    explicit GroupingModel(QObject *parent = nullptr);
    ~GroupingModel() override;

    void setSourceModel(QAbstractItemModel *source);
    QAbstractItemModel *sourceModel() const { return m_source; }

    /// Grouped (default) or one top-level row per source row (reset-style).
    void setGrouped(bool grouped);
    bool isGrouped() const { return m_grouped; }

    int groupCount() const { return static_cast<int>(m_start.size()) - 1; }
    /// The source rows of a group, in source order.
    std::span<const int> members(int group) const;
    int groupSize(int group) const { return static_cast<int>(m_start.at(group + 1) - m_start.at(group)); }
    int groupOfSourceRow(int sourceRow) const;
    /// The member whose data a group row shows.
    int representative(int group) const { return m_rep.at(group); }

    /// The source row an index shows: the member for a child or a single row, the representative for a
    /// group row; -1 for an invalid index.
    int sourceRow(const QModelIndex &index) const;
    /// The index that shows a source row: its child row when its group has two or more members, else its
    /// top-level row.
    QModelIndex indexOfSourceRow(int sourceRow, int column = 0) const;
    /// Whether the index is a top-level row standing for two or more source rows.
    bool isGroupRow(const QModelIndex &index) const;
    /// Changes whenever what any row shows may have changed (before the model says so): a proxy keeps
    /// values read from this model (sort keys) until it changes.
    quint64 generation() const { return m_generation; }

    /// Which source rows form which group, as it is now: implicitly shared copies that a worker thread may
    /// read while this model changes (a regroup changes groupingGeneration()).
    struct Layout
    {
        QList<qsizetype> start; ///< group g's members are members[start[g] .. start[g + 1])
        QList<int> members;
        int groupCount() const { return static_cast<int>(start.size()) - 1; }
        std::span<const int> membersOf(int group) const
        {
            return std::span<const int>(members.constData() + start.at(group),
                                        static_cast<size_t>(start.at(group + 1) - start.at(group)));
        }
    };
    Layout layout() const { return {m_start, m_members}; }
    /// The groups formed from `rows` source rows (regroup's work), as a pure function of its arguments: a
    /// worker thread may form them from a snapshot of the source. `hash` and `same` as groupHash and
    /// sameGroup.
    struct Grouping
    {
        Layout layout;
        QList<int> groupOf;  ///< per source row: its group
        QList<int> position; ///< per source row: its position within its group
        bool grouped = true;
    };
    static Grouping formGroups(int rows, bool grouped, const std::function<size_t(int)> &hash,
                               const std::function<bool(int, int)> &same);

    QModelIndex index(int row, int column, const QModelIndex &parent = {}) const override;
    QModelIndex parent(const QModelIndex &child) const override;
    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    bool hasChildren(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
    Qt::ItemFlags flags(const QModelIndex &index) const override;

protected:
    /// Source rows with equal keys form one group.
    virtual QString groupKey(int sourceRow) const = 0;
    /// The same grouping without building a key per row: a hash of what groupKey holds and whether two rows
    /// are in one group (equal keys). The defaults use groupKey; a model overrides both or neither.
    virtual size_t groupHash(int sourceRow) const { return qHash(groupKey(sourceRow)); }
    virtual bool sameGroup(int sourceRow, int otherRow) const
    {
        return groupKey(sourceRow) == groupKey(otherRow);
    }
    /// What the summary row of a group of two or more shows; the default is its representative's data.
    virtual QVariant groupData(int group, int column, int role) const;
    /// Recomputes aggregates and representatives (setRepresentative): after grouping and whenever the
    /// source's data changed. The default keeps the first member.
    virtual void updateGroups();

    /// The source's data changed (not its rows): recomputes what depends on it. The default is
    /// updateGroups().
    virtual void updateGroupsForSourceData() { updateGroups(); }
    /// Says that many rows' data changed (after updateGroupsForSourceData): the default is
    /// notifyGroupsChanged(); a model that knows which values stayed may say less (notifyRowsChangedExcept).
    virtual void notifyManyRowsChanged() { notifyGroupsChanged(); }
    /// Says that what every top-level row shows may have changed except in `keptColumn` (whose values, and
    /// so a proxy's order by it, are the same) and except which rows a filter accepts: dataChanged around
    /// that column, not a layout change, so that a proxy sorted by it neither maps nor sorts its rows again.
    /// A view repaints what it shows, children included. `keptColumn` -1: every column.
    void notifyRowsChangedExcept(int keptColumn);

    void setRepresentative(int group, int sourceRow) { m_rep[group] = sourceRow; }
    /// The representatives of every group (implicitly shared).
    const QList<int> &representatives() const { return m_rep; }
    /// The groups the next regroup (a source reset) takes instead of forming them, when they are for as many
    /// rows and the same grouping: formed on a worker from the same source rows beforehand.
    void setNextGrouping(Grouping grouping) { m_nextGrouping = std::move(grouping); }
    void dropNextGrouping() { m_nextGrouping.reset(); }
    /// Changes when the groups are formed again (a source reset or another grouping), not on a data change.
    quint64 groupingGeneration() const { return m_groupingGeneration; }
    QVariant sourceData(int sourceRow, int column, int role) const;
    /// Says that what every row shows may have changed (after aggregates changed): one layout change,
    /// so that proxies sort and filter again and views repaint, at the cost of one pass however many
    /// groups there are (a dataChanged per group makes a tree view search its items once per group).
    void notifyGroupsChanged();

private:
    void regroup();
    void beginSourceChange();
    void endSourceChange();
    void onSourceDataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                             const QList<int> &roles);

    QPointer<QAbstractItemModel> m_source;
    QList<QMetaObject::Connection> m_connections;
    bool m_grouped = true;
    bool m_inChange = false;
    QList<qsizetype> m_start; ///< group g's members are m_members[m_start[g] .. m_start[g + 1])
    QList<int> m_members;     ///< source rows ordered by group
    QList<int> m_groupOf;     ///< per source row: its group
    QList<int> m_position;    ///< per source row: its position within its group (child row)
    QList<int> m_rep;         ///< per group: the representative source row
    quint64 m_generation = 0;
    quint64 m_groupingGeneration = 0;
    std::optional<Grouping> m_nextGrouping;
};

} // namespace gf

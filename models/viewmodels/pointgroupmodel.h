#pragma once

#include "viewmodels/groupingmodel.h"

namespace gf {

class PointTableModel;

/// The Frontier table with one row per (provider, instance type, pricing, instance count): frontier
/// points that differ only in where they are (the same instance at the same price in several zones)
/// become one row showing the cheapest member, "in 4 zones" and the price range, with the points as
/// children. Layered on PointTableModel: its columns, roles and headers.
class PointGroupModel final : public GroupingModel
{
    Q_OBJECT
public:
    explicit PointGroupModel(QObject *parent = nullptr);

    void setPointModel(PointTableModel *model);
    PointTableModel *pointModel() const { return m_points; }

protected:
    QString groupKey(int sourceRow) const override;
    QVariant groupData(int group, int column, int role) const override;
    void updateGroups() override;

private:
    PointTableModel *m_points = nullptr;
};

} // namespace gf

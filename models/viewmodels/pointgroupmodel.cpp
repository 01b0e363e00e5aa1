#include "viewmodels/pointgroupmodel.h"

#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/pointtablemodel.h"

namespace gf {

PointGroupModel::PointGroupModel(QObject *parent) : GroupingModel(parent) {}

void PointGroupModel::setPointModel(PointTableModel *model)
{
    m_points = model;
    setSourceModel(model);
}

QString PointGroupModel::groupKey(int sourceRow) const
{
    const ProjectionResultsPtr r = m_points ? m_points->results() : ProjectionResultsPtr();
    const qsizetype pi = m_points ? m_points->pointAt(sourceRow) : -1;
    if (!r || pi < 0)
        return QString::number(sourceRow);
    const ProjectedOffer &p = r->points.at(pi);
    const Offer &o = r->offers.at(p.offerIndex);
    return o.provider + u'\x1f' + o.instanceType + u'\x1f' + QString::number(o.gpuCount) + u'\x1f' +
           (p.mode == PriceMode::Spot ? QStringLiteral("spot") : QStringLiteral("on-demand")) + u'\x1f' +
           QString::number(p.nodes);
}

void PointGroupModel::updateGroups()
{
    const ProjectionResultsPtr r = m_points ? m_points->results() : ProjectionResultsPtr();
    if (!r)
        return;
    for (int g = 0; g < groupCount(); ++g) {
        int best = -1;
        for (const int row : members(g)) {
            const ProjectedOffer &p = r->points.at(m_points->pointAt(row));
            if (m_points->pointAt(row) == r->recommended) {
                best = row; // the recommended point speaks for its group
                break;
            }
            if (best < 0) {
                best = row;
                continue;
            }
            const ProjectedOffer &b = r->points.at(m_points->pointAt(best));
            if (p.costUsd < b.costUsd || (p.costUsd == b.costUsd && p.totalHours < b.totalHours))
                best = row;
        }
        setRepresentative(g, best);
    }
}

QVariant PointGroupModel::groupData(int group, int column, int role) const
{
    const ProjectionResultsPtr r = m_points ? m_points->results() : ProjectionResultsPtr();
    if (!r)
        return GroupingModel::groupData(group, column, role);
    const std::span<const int> rows = members(group);
    bool zones = true;
    double lo = 0, hi = 0;
    bool first = true;
    for (const int row : rows) {
        const ProjectedOffer &p = r->points.at(m_points->pointAt(row));
        const Offer &o = r->offers.at(p.offerIndex);
        zones = zones && !o.zone.isEmpty() && o.zone != o.region;
        lo = first ? p.usdPerHour : std::min(lo, p.usdPerHour);
        hi = first ? p.usdPerHour : std::max(hi, p.usdPerHour);
        first = false;
    }
    const int n = static_cast<int>(rows.size());
    const QString where = zones ? tr("in %1 zones").arg(n) : tr("in %1 regions").arg(n);
    if (column == PointTableModel::Region) {
        if (role == Qt::DisplayRole)
            return where;
        if (role == Qt::ToolTipRole) {
            QStringList places;
            for (const int row : rows)
                places.append(locationText(r->offers.at(r->points.at(m_points->pointAt(row)).offerIndex)));
            // Provider text (regions, zones) is shown, never read as markup or controls.
            return OfferTableModel::plainToolTip(
                tr("On the frontier %1: %2.\nThe row shows the cheapest; expand it to see each.")
                    .arg(where, places.join(QStringLiteral(", "))));
        }
    }
    if (column == PointTableModel::UsdPerHour && role == Qt::DisplayRole && hi > lo)
        return QString(formatMoneyPerHour(lo, DisplayCurrency::instance().current()) + QStringLiteral(" – ") +
                       formatMoneyPerHour(hi, DisplayCurrency::instance().current()));
    return GroupingModel::groupData(group, column, role);
}

} // namespace gf

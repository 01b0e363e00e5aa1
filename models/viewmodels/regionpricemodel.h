#pragma once

#include "domain/regionprices.h"

#include <QAbstractTableModel>

namespace gf {

/// "Where is this GPU cheapest?": one row per (provider, region) with its best on-demand and spot
/// offer, per GPU-hour and per instance (cheapestByRegion). SortRole holds raw numbers.
class RegionPriceModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Provider,
        Region,
        OnDemandPerGpu,
        OnDemandPerInstance,
        OnDemandInstance,
        SpotPerGpu,
        SpotPerInstance,
        SpotInstance,
        Offers,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit RegionPriceModel(QObject *parent = nullptr);

    void setOffers(const QList<Offer> &offers, const QString &gpu);
    const QList<RegionPrice> &rows() const { return m_rows; }
    QString gpu() const { return m_gpu; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QString m_gpu;
    QList<RegionPrice> m_rows;
};

} // namespace gf

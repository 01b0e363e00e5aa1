#include "viewmodels/regionpricemodel.h"

#include "util/format.h"
#include "viewmodels/displaycurrency.h"

namespace gf {

namespace {
QVariant number(const std::optional<double> &v)
{
    return v ? QVariant(*v) : QVariant();
}

QString instanceText(const RegionPrice::Best &b)
{
    if (b.instanceType.isEmpty())
        return QStringLiteral("–");
    return b.zone.isEmpty() ? b.instanceType : QString(b.instanceType + QStringLiteral(" (") + b.zone + u')');
}
} // namespace

RegionPriceModel::RegionPriceModel(QObject *parent) : QAbstractTableModel(parent) {}

void RegionPriceModel::setOffers(const QList<Offer> &offers, const QString &gpu)
{
    beginResetModel();
    m_gpu = gpu;
    m_rows = cheapestByRegion(offers, gpu);
    endResetModel();
}

int RegionPriceModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int RegionPriceModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RegionPriceModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const RegionPrice &r = m_rows.at(index.row());
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(r.provider);
        case Region:
            return r.region;
        case OnDemandPerGpu:
            return formatMoneyPerHour(r.onDemand.usdPerGpuHour, DisplayCurrency::instance().current());
        case OnDemandPerInstance:
            return formatMoneyPerHour(r.onDemand.usdPerHour, DisplayCurrency::instance().current());
        case OnDemandInstance:
            return instanceText(r.onDemand);
        case SpotPerGpu:
            return formatMoneyPerHour(r.spot.usdPerGpuHour, DisplayCurrency::instance().current());
        case SpotPerInstance:
            return formatMoneyPerHour(r.spot.usdPerHour, DisplayCurrency::instance().current());
        case SpotInstance:
            return instanceText(r.spot);
        case Offers:
            return r.offers;
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(r.provider);
        case Region:
            return r.region;
        case OnDemandPerGpu:
            return number(r.onDemand.usdPerGpuHour);
        case OnDemandPerInstance:
            return number(r.onDemand.usdPerHour);
        case OnDemandInstance:
            return r.onDemand.instanceType;
        case SpotPerGpu:
            return number(r.spot.usdPerGpuHour);
        case SpotPerInstance:
            return number(r.spot.usdPerHour);
        case SpotInstance:
            return r.spot.instanceType;
        case Offers:
            return r.offers;
        }
    }
    if (role == Qt::ToolTipRole) {
        const RegionPrice::Best *b = nullptr;
        if (index.column() >= OnDemandPerGpu && index.column() <= OnDemandInstance)
            b = &r.onDemand;
        else if (index.column() >= SpotPerGpu && index.column() <= SpotInstance)
            b = &r.spot;
        if (b && b->usdPerHour)
            return tr("%1 in %2: %3 %6/h for the instance with %4 GPU(s) = %5 %6 per GPU-hour")
                .arg(b->instanceType, b->zone.isEmpty() ? r.region : b->zone,
                     formatMoneyPerHour(b->usdPerHour, DisplayCurrency::instance().current()),
                     formatNumber(b->gpuCount),
                     formatMoneyPerHour(b->usdPerGpuHour, DisplayCurrency::instance().current()),
                     DisplayCurrency::instance().code());
        if (index.column() == Offers)
            return tr("Offers of this GPU in the region: every zone and instance type");
        return {};
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case OnDemandPerGpu:
        case OnDemandPerInstance:
        case SpotPerGpu:
        case SpotPerInstance:
        case Offers:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        default:
            return {};
        }
    }
    return {};
}

QVariant RegionPriceModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Provider:
            return tr("Provider");
        case Region:
            return tr("Region");
        case OnDemandPerGpu:
            return tr("On-demand (%1/GPU-h)").arg(DisplayCurrency::instance().code());
        case OnDemandPerInstance:
            return tr("On-demand (%1/h)").arg(DisplayCurrency::instance().code());
        case OnDemandInstance:
            return tr("On-demand instance");
        case SpotPerGpu:
            return tr("Spot (%1/GPU-h)").arg(DisplayCurrency::instance().code());
        case SpotPerInstance:
            return tr("Spot (%1/h)").arg(DisplayCurrency::instance().code());
        case SpotInstance:
            return tr("Spot instance");
        case Offers:
            return tr("Offers");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case OnDemandPerGpu:
            return tr(
                "Lowest on-demand price per GPU-hour in the region: instance price / GPUs per instance");
        case OnDemandPerInstance:
            return tr("On-demand price of that whole instance, %1 per hour")
                .arg(DisplayCurrency::instance().code());
        case SpotPerGpu:
            return tr("Lowest spot / preemptible / interruptible price per GPU-hour in the region");
        case SpotPerInstance:
            return tr("Spot price of that whole instance, %1 per hour")
                .arg(DisplayCurrency::instance().code());
        default:
            return {};
        }
    }
    return {};
}

} // namespace gf

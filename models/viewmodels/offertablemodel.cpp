#include "viewmodels/offertablemodel.h"

#include "domain/gpucatalog.h"
#include "util/format.h"
#include "viewmodels/pointtablemodel.h"

namespace gf {

namespace {
QVariant sortNumber(const std::optional<double> &v)
{
    return v ? QVariant(*v) : QVariant();
}
} // namespace

OfferTableModel::OfferTableModel(QObject *parent) : QAbstractTableModel(parent) {}

void OfferTableModel::setOffers(QList<Offer> offers, const QDateTime &now)
{
    beginResetModel();
    m_offers = std::move(offers);
    m_now = now;
    m_projection.reset();
    endResetModel();
}

void OfferTableModel::setProjection(ProjectionResultsPtr results)
{
    if (results && results->primaryPoint.size() != m_offers.size())
        return; // computed for another catalog; a newer result follows
    m_projection = std::move(results);
    if (!m_offers.isEmpty())
        Q_EMIT dataChanged(index(0, Hours), index(rowCount() - 1, OnFrontier));
}

const ProjectedOffer *OfferTableModel::pointFor(int row) const
{
    if (!m_projection || row < 0 || row >= m_projection->primaryPoint.size())
        return nullptr;
    const qsizetype i = m_projection->primaryPoint.at(row);
    return i >= 0 ? &m_projection->points.at(i) : nullptr;
}

const Offer *OfferTableModel::offerAt(int row) const
{
    return row >= 0 && row < m_offers.size() ? &m_offers.at(row) : nullptr;
}

int OfferTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_offers.size());
}

int OfferTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant OfferTableModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_offers.size() || index.column() >= ColumnCount)
        return {};
    const Offer &o = m_offers.at(index.row());
    const GpuModel *gpu = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const qint64 ageDays = o.dataDate.isValid() ? o.dataDate.daysTo(m_now.date()) : o.fetchedAt.daysTo(m_now);

    if (role == OfferIndexRole)
        return index.row();
    const ProjectedOffer *point = pointFor(index.row());
    bool onFrontier = false;
    if (m_projection)
        onFrontier = m_projection->offerOnFrontier.value(index.row(), false);

    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(o.provider);
        case Instance:
            return o.instanceType;
        case Region:
            return locationText(o);
        case Gpu:
            return gpu ? gpu->name : QString(o.gpuRawName + QStringLiteral(" (unrecognised)"));
        case GpuCount:
            return formatNumber(o.gpuCount);
        case GpuMemory:
            return formatNumber(o.gpuMemGb);
        case Vcpus:
            return formatNumber(o.vcpus);
        case Ram:
            return formatNumber(o.ramGb);
        case Network:
            return formatNumber(o.networkGbps);
        case Interconnect:
            return o.interconnect.isEmpty() ? QStringLiteral("–") : o.interconnect;
        case OnDemand:
            return formatUsdPerHour(o.onDemandUsdH);
        case Spot:
            return formatUsdPerHour(o.spotUsdH);
        case SpotSavings: {
            const auto s = o.spotSavingsPct();
            return s ? QString::number(*s, 'f', 0) : QStringLiteral("–");
        }
        case Hours:
            return point && point->projected ? formatHours(point->totalHours) : QStringLiteral("–");
        case Cost:
            return point && point->projected && point->costUsd > 0 ? formatUsd(point->costUsd)
                                                                   : QStringLiteral("–");
        case SamplesPerUsd:
            return point && point->samplesPerUsd > 0 ? QString::number(point->samplesPerUsd, 'f', 0)
                                                     : QStringLiteral("–");
        case OnFrontier:
            return onFrontier ? QStringLiteral("★") : QString();
        case Interruption:
            if (!o.interruption.isEmpty())
                return o.interruption;
            if (o.reliability)
                return QStringLiteral("%1% reliable").arg(QString::number(*o.reliability * 100.0, 'f', 1));
            return QStringLiteral("–");
        case PriceAge:
            return formatAgeDays(ageDays);
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(o.provider);
        case Instance:
            return o.instanceType;
        case Region:
            return QString(o.region + u' ' + o.zone);
        case Gpu:
            return gpu ? gpu->name : o.gpuRawName;
        case GpuCount:
            return o.gpuCount;
        case GpuMemory:
            return sortNumber(o.gpuMemGb);
        case Vcpus:
            return sortNumber(o.vcpus);
        case Ram:
            return sortNumber(o.ramGb);
        case Network:
            return sortNumber(o.networkGbps);
        case Interconnect:
            return o.interconnect;
        case OnDemand:
            return sortNumber(o.onDemandUsdH);
        case Spot:
            return sortNumber(o.spotUsdH);
        case SpotSavings:
            return sortNumber(o.spotSavingsPct());
        case Hours:
            return point && point->projected ? QVariant(point->totalHours) : QVariant();
        case Cost:
            return point && point->projected && point->costUsd > 0 ? QVariant(point->costUsd) : QVariant();
        case SamplesPerUsd:
            return point && point->samplesPerUsd > 0 ? QVariant(point->samplesPerUsd) : QVariant();
        case OnFrontier:
            return onFrontier ? 1 : 0;
        case Interruption:
            return o.reliability ? QVariant(*o.reliability) : QVariant(o.interruption);
        case PriceAge:
            return ageDays;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Provider:
        case Instance:
            return QStringLiteral("%1 %2 in %3%4")
                .arg(providerDisplayName(o.provider), o.instanceType, o.region,
                     o.zone.isEmpty() ? QString() : QStringLiteral(" (zone %1)").arg(o.zone));
        case Gpu: {
            QString t = gpu ? QStringLiteral("%1 (%2 GB)\nProvider name: %3")
                                  .arg(gpu->name)
                                  .arg(gpu->memoryGb)
                                  .arg(o.gpuRawName)
                            : QStringLiteral("The provider's GPU name \"%1\" matches no known GPU model; "
                                             "projections cannot use this offer.")
                                  .arg(o.gpuRawName);
            if (o.dlperf)
                t += QStringLiteral("\nDLPerf %1 (vast.ai's deep-learning performance score for this host)")
                         .arg(QString::number(*o.dlperf, 'f', 1));
            return t;
        }
        case Network:
            if (o.uploadGbps)
                return QStringLiteral("Host bandwidth measured by vast.ai: download %1 Gbps, upload %2 Gbps.")
                    .arg(formatNumber(o.networkGbps), formatNumber(o.uploadGbps));
            return QStringLiteral("Network bandwidth of the instance, Gbit/s (provider documentation).");
        case OnDemand:
        case Spot:
            return QStringLiteral(
                       "Price for the whole instance (%1 GPU), USD per hour.\nSource: %2\nPrices dated %3")
                .arg(formatNumber(o.gpuCount), o.source,
                     o.dataDate.isValid() ? o.dataDate.toString(Qt::ISODate)
                                          : o.fetchedAt.toString(Qt::ISODate));
        case SpotSavings:
            return QStringLiteral("How much cheaper the %1 price is than on-demand, in percent.")
                .arg(o.spotLabel.isEmpty() ? QStringLiteral("spot") : o.spotLabel);
        case Interruption:
            return QStringLiteral("AWS: Spot Instance Advisor interruption frequency per month.\n"
                                  "vast.ai: the host's measured reliability.");
        case PriceAge:
            return QStringLiteral("Age of the price data (prices older than 7 days may be stale).");
        case Hours:
        case Cost:
        case SamplesPerUsd:
        case OnFrontier: {
            if (!point)
                return QStringLiteral("No projection for this offer.");
            QString t =
                QStringLiteral("%1 price, %2 instance(s)\nTraining %3 + setup and spot overhead = %4\n"
                               "Billed cost %5 USD at %6 USD/h\n%7 samples per USD")
                    .arg(point->mode == PriceMode::Spot ? QStringLiteral("Spot")
                                                        : QStringLiteral("On-demand"))
                    .arg(point->nodes)
                    .arg(formatHours(point->trainHours), formatHours(point->totalHours),
                         formatUsd(point->costUsd), formatUsdPerHour(point->usdPerHour),
                         QString::number(point->samplesPerUsd, 'f', 0));
            for (const QString &line : uncertaintyLines(*m_projection, *point))
                t += u'\n' + line;
            for (ProjectionFlag f : allProjectionFlags())
                if (hasFlag(point->flags, f))
                    t += QStringLiteral("\n⚠ ") + projectionFlagDescription(f);
            return t;
        }
        default:
            return {};
        }
    }
    if (role == Qt::TextAlignmentRole) {
        switch (index.column()) {
        case GpuCount:
        case GpuMemory:
        case Vcpus:
        case Ram:
        case Network:
        case OnDemand:
        case Spot:
        case SpotSavings:
        case Hours:
        case Cost:
        case SamplesPerUsd:
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        case OnFrontier:
            return QVariant::fromValue(Qt::AlignCenter);
        default:
            return {};
        }
    }
    return {};
}

QVariant OfferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::DisplayRole) {
        switch (section) {
        case Provider:
            return tr("Provider");
        case Instance:
            return tr("Instance");
        case Region:
            return tr("Region (zone)");
        case Gpu:
            return tr("GPU");
        case GpuCount:
            return tr("GPUs");
        case GpuMemory:
            return tr("GPU mem (GB)");
        case Vcpus:
            return tr("vCPUs");
        case Ram:
            return tr("RAM (GB)");
        case Network:
            return tr("Network (Gbps)");
        case Interconnect:
            return tr("Interconnect");
        case OnDemand:
            return tr("On-demand (USD/h)");
        case Spot:
            return tr("Spot (USD/h)");
        case SpotSavings:
            return tr("Spot saving (%)");
        case Interruption:
            return tr("Interruption");
        case Hours:
            return tr("Time (h)");
        case Cost:
            return tr("Run cost (USD)");
        case SamplesPerUsd:
            return tr("Samples/USD");
        case OnFrontier:
            return tr("Frontier");
        case PriceAge:
            return tr("Price age");
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case GpuMemory:
            return tr("Memory per GPU, in GB");
        case OnDemand:
            return tr("On-demand price of the whole instance, USD per hour");
        case Spot:
            return tr("Spot / preemptible / interruptible price of the whole instance, USD per hour");
        case Hours:
            return tr(
                "Projected time of the run, hours: setup + training + expected spot interruption overhead");
        case Cost:
            return tr("Projected cost of the run in USD, with the provider's billing granularity");
        case SamplesPerUsd:
            return tr("Training samples per USD: higher is more cost-efficient");
        case OnFrontier:
            return tr("★ = on the efficiency frontier: no other offer is both faster and cheaper");
        default:
            return {};
        }
    }
    return {};
}

OfferFilterProxy::OfferFilterProxy(QObject *parent) : QSortFilterProxyModel(parent)
{
    setSortRole(OfferTableModel::SortRole);
    setDynamicSortFilter(true);
}

void OfferFilterProxy::setFilter(const OfferFilter &filter)
{
    m_filter = filter;
    invalidateFilter();
}

#define GF_PROXY_SETTER(name, member, type)                                                                  \
    void OfferFilterProxy::name(type v)                                                                      \
    {                                                                                                        \
        if (m_filter.member == v)                                                                            \
            return;                                                                                          \
        m_filter.member = v;                                                                                 \
        invalidateFilter();                                                                                  \
    }
GF_PROXY_SETTER(setProviders, providers, const QStringList &)
GF_PROXY_SETTER(setGpu, gpu, const QString &)
GF_PROXY_SETTER(setMinGpus, minGpus, std::optional<double>)
GF_PROXY_SETTER(setMinGpuMemGb, minGpuMemGb, std::optional<double>)
GF_PROXY_SETTER(setMaxPriceUsdH, maxPriceUsdH, std::optional<double>)
GF_PROXY_SETTER(setSpotOnly, spotOnly, bool)
GF_PROXY_SETTER(setRegion, region, const QString &)
GF_PROXY_SETTER(setText, text, const QString &)
#undef GF_PROXY_SETTER

bool OfferFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (sourceParent.isValid())
        return false;
    const auto *model = qobject_cast<const OfferTableModel *>(sourceModel());
    if (!model)
        return true;
    const Offer *o = model->offerAt(sourceRow);
    return o && m_filter.accepts(*o);
}

bool OfferFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    const QVariant l = left.data(OfferTableModel::SortRole);
    const QVariant r = right.data(OfferTableModel::SortRole);
    // Missing values sort after everything else in ascending order.
    if (!l.isValid() || !r.isValid())
        return l.isValid() && !r.isValid();
    if (l.typeId() == QMetaType::Double || l.typeId() == QMetaType::LongLong || l.typeId() == QMetaType::Int)
        return l.toDouble() < r.toDouble();
    return QString::compare(l.toString(), r.toString(), Qt::CaseInsensitive) < 0;
}

} // namespace gf

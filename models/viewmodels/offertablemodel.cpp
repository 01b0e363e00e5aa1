#include "viewmodels/offertablemodel.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/pointexplanation.h"
#include "util/format.h"
#include "util/printable.h"
#include "viewmodels/offergroupmodel.h"
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
    if (results && results->catalogSize() != m_offers.size())
        return; // computed for another catalog; a newer result follows
    m_projection = std::move(results);
    if (!m_offers.isEmpty())
        Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
}

const ProjectedOffer *OfferTableModel::spotPointFor(int row) const
{
    const qsizetype i = m_projection ? m_projection->spotPointForRow(row) : -1;
    return i >= 0 ? &m_projection->points.at(i) : nullptr;
}

QStringList OfferTableModel::flagNames(int row) const
{
    QStringList out;
    const Offer *o = offerAt(row);
    if (!o)
        return out;
    // The offer's names are the projection flags' names with '-' (spot_at_floor = spot-at-floor).
    for (const QString &n : offerFlagNames(o->flags))
        out.append(QString(n).replace(u'_', u'-'));
    // The catalog's age (stale-price) is the same for a whole snapshot: the Price age column and the
    // status line show it, so it does not crowd every row here.
    if (const ProjectedOffer *p = pointFor(row))
        for (const QString &n : projectionFlagNames(p->flags & ~flagBit(ProjectionFlag::StalePrice)))
            if (!out.contains(n))
                out.append(n);
    return out;
}

const ProjectedOffer *OfferTableModel::pointFor(int row) const
{
    const qsizetype i = m_projection ? m_projection->pointForRow(row) : -1;
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

QString OfferTableModel::plainToolTip(const QString &text)
{
    const QString clean = printableKeepingLines(text);
    if (!clean.contains(u'<') && !clean.contains(u'&'))
        return clean;
    // Qt reads a tooltip starting like markup as rich text: escape the provider's text instead.
    return QStringLiteral("<p style='white-space:pre-wrap'>%1</p>").arg(clean.toHtmlEscaped());
}

QVariant OfferTableModel::data(const QModelIndex &index, int role) const
{
    // Provider strings are shown, never interpreted: no control characters, no markup in tooltips.
    const QVariant v = rawData(index, role);
    if (v.typeId() != QMetaType::QString)
        return v;
    if (role == Qt::DisplayRole)
        return printableText(v.toString());
    if (role == Qt::ToolTipRole)
        return plainToolTip(v.toString());
    return v;
}

QVariant OfferTableModel::rawData(const QModelIndex &index, int role) const
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
        onFrontier = m_projection->onFrontierAtRow(index.row());

    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(o.provider);
        case Instance:
            return o.instanceType;
        case Flags:
            return flagNames(index.row()).join(QStringLiteral(", "));
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
            return point && point->projected ? formatHoursColumn(point->totalHours) : QStringLiteral("–");
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
        case SpotInterruptions: {
            const ProjectedOffer *sp = spotPointFor(index.row());
            return sp && sp->projected ? QString::number(sp->expectedInterruptions, 'f', 2)
                                       : QStringLiteral("–");
        }
        case SpotOverhead: {
            const ProjectedOffer *sp = spotPointFor(index.row());
            return sp && sp->projected ? QString::number(sp->interruptionHours, 'f', 2) : QStringLiteral("–");
        }
        case Setup:
            return point && point->projected ? QString::number(point->setupHours, 'f', 2)
                                             : QStringLiteral("–");
        case PriceAge:
            return formatAgeDays(ageDays);
        }
    }
    if (role == SeverityRole) {
        if (index.column() != Flags)
            return {};
        const ProjectedOffer *sp = spotPointFor(index.row());
        const bool suspect = (o.flags & (kSuspectSpotFlags | kSuspectOnDemandFlags)) != 0 ||
                             (point && (point->flags & kSuspectFlags) != 0) ||
                             (sp && (sp->flags & kSuspectFlags) != 0);
        if (suspect)
            return 2;
        return flagNames(index.row()).isEmpty() ? 0 : 1;
    }
    if (role == SortRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(o.provider);
        case Instance:
            return o.instanceType;
        case Flags:
            return data(index, SeverityRole).toInt() * 100 + static_cast<int>(flagNames(index.row()).size());
        case Region:
            return locationText(o);
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
        case SpotInterruptions: {
            const ProjectedOffer *sp = spotPointFor(index.row());
            return sp && sp->projected ? QVariant(double(sp->expectedInterruptions)) : QVariant();
        }
        case SpotOverhead: {
            const ProjectedOffer *sp = spotPointFor(index.row());
            return sp && sp->projected ? QVariant(sp->interruptionHours) : QVariant();
        }
        case Setup:
            return point && point->projected ? QVariant(double(point->setupHours)) : QVariant();
        case PriceAge:
            return ageDays;
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Provider:
        case Instance:
            return QStringLiteral("%1 %2 in %3")
                .arg(providerDisplayName(o.provider), o.instanceType, locationText(o));
        case Gpu: {
            QString t = gpu ? QStringLiteral("%1 (%2 GB)\nProvider name: %3")
                                  .arg(gpu->name, QString::number(gpu->memoryGb), o.gpuRawName)
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
        case Flags: {
            QStringList lines;
            for (OfferFlag f : allOfferFlags())
                if (hasFlag(o.flags, f))
                    lines.append(QStringLiteral("⚠ ") + offerFlagDescription(o, f));
            if (point)
                for (ProjectionFlag f : allProjectionFlags()) {
                    if (!hasFlag(point->flags, f))
                        continue;
                    const QString name = projectionFlagNames(flagBit(f)).value(0);
                    bool covered = false;
                    for (const QString &n : offerFlagNames(o.flags))
                        covered = covered || QString(n).replace(u'_', u'-') == name;
                    if (!covered && !(f == ProjectionFlag::StaleRow && hasFlag(o.flags, OfferFlag::Stale)))
                        lines.append(QStringLiteral("• %1: %2").arg(name, projectionFlagDescription(f)));
                }
            if (lines.isEmpty())
                return QStringLiteral("No flag: the prices passed every sanity check.");
            if (data(index, SeverityRole).toInt() == 2)
                lines.append(
                    QStringLiteral("\nSuspect prices are shown but not on the frontier nor recommended "
                                   "unless suspect prices are included."));
            return lines.join(u'\n');
        }
        case SpotInterruptions:
        case SpotOverhead: {
            const ProjectedOffer *sp = spotPointFor(index.row());
            if (!sp || !m_projection)
                return QStringLiteral("No spot price, or spot is excluded by the spot policy.");
            return explainSpot(o, *sp, m_projection->options);
        }
        case Setup:
            if (!point || !m_projection)
                return QStringLiteral("No projection for this offer.");
            return explainPoint(o, *point, m_projection->workload, m_projection->options,
                                m_projection->calibration)
                .facts.filter(QStringLiteral("Setup"))
                .join(u'\n');
        case PriceAge:
            return QStringLiteral("Age of the price data (prices older than 7 days may be stale).");
        case Hours:
        case Cost:
        case SamplesPerUsd:
        case OnFrontier: {
            if (!point || !m_projection)
                return QStringLiteral("No projection for this offer.");
            QString t = QStringLiteral("%1 price, %2 instance(s): %3, %4 USD, %5 samples per USD\n")
                            .arg(point->mode == PriceMode::Spot ? QStringLiteral("Spot")
                                                                : QStringLiteral("On-demand"))
                            .arg(point->nodes)
                            .arg(formatHours(point->totalHours), formatUsd(point->costUsd),
                                 QString::number(point->samplesPerUsd, 'f', 0));
            for (const QString &line : uncertaintyLines(*m_projection, *point))
                t += line + u'\n';
            return QString(t + explainPoint(o, *point, m_projection->workload, m_projection->options,
                                            m_projection->calibration)
                                   .all()
                                   .join(u'\n'));
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
        case SpotInterruptions:
        case SpotOverhead:
        case Setup:
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
        case Flags:
            return tr("Flags");
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
        case SpotInterruptions:
            return tr("Spot interruptions");
        case SpotOverhead:
            return tr("Spot overhead (h)");
        case Setup:
            return tr("Setup (h)");
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
        case Flags:
            return tr("Price sanity and projection flags; ⚠ = a suspect price: shown, but not recommended "
                      "unless \"Include suspect prices\" is ticked");
        case SpotInterruptions:
            return tr("Expected spot interruptions during the whole run (spot price), from the documented "
                      "interruption rates (resources/SPOT.md) or your rate per provider");
        case SpotOverhead:
            return tr(
                "Hours the expected spot interruptions add: lost work since the last checkpoint + restore");
        case Setup:
            return tr(
                "Hours before training starts: boot + staging the data set over the instance's network");
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
    // Over an OfferGroupModel: a group row is shown when one of its offers is.
    setRecursiveFilteringEnabled(true);
}

void OfferFilterProxy::setFilter(const OfferFilter &filter)
{
    m_filter = filter;
    applyFilter();
}

void OfferFilterProxy::applyFilter()
{
    m_matcher.reset();
    // A grouping model summarises the offers this filter accepts: it learns the filter first.
    if (auto *groups = qobject_cast<OfferGroupModel *>(sourceModel()))
        groups->setFilter(m_filter);
    invalidateFilter();
}

#define GF_PROXY_SETTER(name, member, type)                                                                  \
    void OfferFilterProxy::name(type v)                                                                      \
    {                                                                                                        \
        if (m_filter.member == v)                                                                            \
            return;                                                                                          \
        m_filter.member = v;                                                                                 \
        applyFilter();                                                                                       \
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
    if (const auto *groups = qobject_cast<const OfferGroupModel *>(sourceModel())) {
        // A group row is shown when one of its offers is (recursive filtering); an offer row by the
        // group model's verdict of the same filter (setFilter passed it on).
        const QModelIndex index = groups->index(sourceRow, 0, sourceParent);
        return !groups->isGroupRow(index) && groups->isAccepted(groups->sourceRow(index));
    }
    if (sourceParent.isValid())
        return false;
    const auto *model = qobject_cast<const OfferTableModel *>(sourceModel());
    if (!model)
        return true;
    const Offer *o = model->offerAt(sourceRow);
    if (!m_matcher)
        m_matcher.emplace(m_filter);
    return o && m_matcher->accepts(*o);
}

OfferFilterProxy::SortKey OfferFilterProxy::sortKeyOf(const QVariant &v)
{
    SortKey k;
    k.valid = v.isValid();
    if (!k.valid)
        return k;
    k.isNumber =
        v.typeId() == QMetaType::Double || v.typeId() == QMetaType::LongLong || v.typeId() == QMetaType::Int;
    if (k.isNumber)
        k.number = v.toDouble();
    else
        k.text = v.toString();
    return k;
}

bool OfferFilterProxy::keyLess(const SortKey &l, const SortKey &r)
{
    // Missing values sort after everything else in ascending order.
    if (!l.valid || !r.valid)
        return l.valid && !r.valid;
    if (l.isNumber)
        return l.number < r.number;
    return QString::compare(l.text, r.text, Qt::CaseInsensitive) < 0;
}

const OfferFilterProxy::SortKey &OfferFilterProxy::topLevelKey(int row) const
{
    const auto *groups = static_cast<const GroupingModel *>(sourceModel());
    if (m_keysGeneration != groups->generation() || m_keysColumn != sortColumn() ||
        m_keysRole != sortRole() || m_keys.size() != groups->rowCount()) {
        const int rows = groups->rowCount();
        m_keys.resize(rows);
        for (int r = 0; r < rows; ++r)
            m_keys[r] = sortKeyOf(groups->index(r, sortColumn()).data(sortRole()));
        m_keysGeneration = groups->generation();
        m_keysColumn = sortColumn();
        m_keysRole = sortRole();
    }
    return m_keys.at(row);
}

bool OfferFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    if (qobject_cast<const GroupingModel *>(sourceModel()) && !left.parent().isValid() &&
        !right.parent().isValid() && left.column() == sortColumn())
        return keyLess(topLevelKey(left.row()), topLevelKey(right.row()));
    return keyLess(sortKeyOf(left.data(sortRole())), sortKeyOf(right.data(sortRole())));
}

} // namespace gf

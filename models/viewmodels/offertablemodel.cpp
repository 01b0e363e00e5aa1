#include "viewmodels/offertablemodel.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "projection/pointexplanation.h"
#include "util/format.h"
#include "util/printable.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/pointtablemodel.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace gf {

namespace {
QVariant sortNumber(const std::optional<double> &v)
{
    return v ? QVariant(*v) : QVariant();
}
} // namespace

OfferTableModel::OfferTableModel(QObject *parent) : QAbstractTableModel(parent)
{
    // Another display currency or rate: every price and the headers' units redraw.
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, [this] {
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        if (!m_offers.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void OfferTableModel::setOffers(QList<Offer> offers, const QDateTime &now, ProjectionResultsPtr projection)
{
    beginResetModel();
    m_offers = std::move(offers);
    m_now = now;
    m_projection.reset();
    if (projection && projection->catalogSize() == m_offers.size())
        m_projection = std::move(projection);
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

namespace {
/// The flag names of an offer and its shown point (OfferTableModel::flagNames).
QStringList flagNamesOf(const Offer &o, const ProjectedOffer *point)
{
    QStringList out;
    // The offer's names are the projection flags' names with '-' (spot_at_floor = spot-at-floor).
    for (const QString &n : offerFlagNames(o.flags))
        out.append(QString(n).replace(u'_', u'-'));
    // The catalog's age (stale-price) is the same for a whole snapshot: the Price age column and the
    // status line show it, so it does not crowd every row here.
    if (point)
        for (const QString &n : projectionFlagNames(point->flags & ~flagBit(ProjectionFlag::StalePrice)))
            if (!out.contains(n))
                out.append(n);
    return out;
}
} // namespace

QStringList OfferTableModel::flagNames(int row) const
{
    const Offer *o = offerAt(row);
    return o ? flagNamesOf(*o, pointFor(row)) : QStringList();
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

namespace {

using C = OfferTableModel;

/// What the roles of one offer row read: the offer, its projection and the model's time, nothing of the model
/// itself (a worker thread reads sort values from a snapshot: OfferTableModel::sortValueOf).
struct OfferRow
{
    int row;
    const Offer &o;
    const GpuModel *gpu;
    qint64 ageDays;
    const ProjectionResults *projection;
    const ProjectedOffer *point;
    bool onFrontier;
    OfferRow(const Offer &offer, int r, const ProjectionResults *p, const QDateTime &now)
        : row(r), o(offer), gpu(gpuModelOf(offer.gpuId)),
          ageDays(offer.dataDate.isValid() ? offer.dataDate.daysTo(now.date()) : offer.fetchedAt.daysTo(now)),
          projection(p), point(pointAt(p, p ? p->pointForRow(r) : -1)), onFrontier(p && p->onFrontierAtRow(r))
    {
    }
    const ProjectedOffer *spotPoint() const
    {
        return pointAt(projection, projection ? projection->spotPointForRow(row) : -1);
    }
    QStringList flagNames() const { return flagNamesOf(o, point); }

private:
    static const ProjectedOffer *pointAt(const ProjectionResults *p, qsizetype i)
    {
        return i >= 0 ? &p->points.at(i) : nullptr;
    }
};

QVariant displayText(const OfferRow &r, int column)
{
    const Offer &o = r.o;
    const Currency &cur = DisplayCurrency::instance().current();
    const ProjectedOffer *point = r.point;
    switch (column) {
    case C::Provider:
        return providerDisplayName(o.provider);
    case C::Instance:
        return o.instanceType;
    case C::Flags:
        return r.flagNames().join(QStringLiteral(", "));
    case C::Region:
        return locationText(o);
    case C::Gpu:
        return r.gpu ? r.gpu->name : QString(o.gpuRawName + kUnrecognisedGpuSuffix);
    case C::GpuCount:
        return formatNumber(o.gpuCount);
    case C::GpuMemory:
        return formatNumber(o.gpuMemGb);
    case C::Vcpus:
        return formatNumber(o.vcpus);
    case C::Ram:
        return formatNumber(o.ramGb);
    case C::Network:
        return formatNumber(o.networkGbps);
    case C::Interconnect:
        return o.interconnect.isEmpty() ? QStringLiteral("–") : o.interconnect;
    case C::OnDemand:
        return formatMoneyPerHour(o.onDemandUsdH, cur);
    case C::Spot:
        return formatMoneyPerHour(o.spotUsdH, cur);
    case C::PerGpuHour:
        return formatMoneyPerHour(o.usdPerGpuHour(), cur);
    case C::SpotSavings: {
        const auto s = o.spotSavingsPct();
        return s ? QString::number(*s, 'f', 0) : QStringLiteral("–");
    }
    case C::Hours:
        return point && point->projected ? formatHoursColumn(point->totalHours) : QStringLiteral("–");
    case C::Cost:
        return point && point->projected && point->costUsd > 0 ? formatMoney(point->costUsd, cur)
                                                               : QStringLiteral("–");
    case C::SamplesPerUsd:
        return point && point->samplesPerUsd > 0
                   ? QString::number(point->samplesPerUsd / cur.unitsPerUsd, 'f', 0)
                   : QStringLiteral("–");
    case C::OnFrontier:
        return r.onFrontier ? QStringLiteral("★") : QString();
    case C::Interruption:
        if (!o.interruption.isEmpty())
            return o.interruption;
        if (o.reliability)
            return QStringLiteral("%1% reliable").arg(QString::number(*o.reliability * 100.0, 'f', 1));
        return QStringLiteral("–");
    case C::SpotInterruptions: {
        const ProjectedOffer *sp = r.spotPoint();
        return sp && sp->projected ? QString::number(sp->expectedInterruptions, 'f', 2) : QStringLiteral("–");
    }
    case C::SpotOverhead: {
        const ProjectedOffer *sp = r.spotPoint();
        return sp && sp->projected ? QString::number(sp->interruptionHours, 'f', 2) : QStringLiteral("–");
    }
    case C::Setup:
        return point && point->projected ? QString::number(point->setupHours, 'f', 2) : QStringLiteral("–");
    case C::PriceAge:
        return formatAgeDays(r.ageDays);
    }
    return {};
}

/// The Flags column's severity: 0 = no flag, 1 = informational flags only, 2 = a suspect price.
int severity(const OfferRow &r)
{
    const ProjectedOffer *sp = r.spotPoint();
    const bool suspect = (r.o.flags & (kSuspectSpotFlags | kSuspectOnDemandFlags)) != 0 ||
                         (r.point && (r.point->flags & kSuspectFlags) != 0) ||
                         (sp && (sp->flags & kSuspectFlags) != 0);
    if (suspect)
        return 2;
    return r.flagNames().isEmpty() ? 0 : 1;
}

QVariant sortValue(const OfferRow &r, int column)
{
    const Offer &o = r.o;
    const ProjectedOffer *point = r.point;
    switch (column) {
    // Sorted as shown (displayText's, without the display currency: a worker thread reads these).
    case C::Provider:
        return providerDisplayName(o.provider);
    case C::Instance:
        return o.instanceType;
    case C::Region:
        return locationText(o);
    case C::Flags:
        return severity(r) * 100 + static_cast<int>(r.flagNames().size());
    case C::Gpu:
        return r.gpu ? r.gpu->name : o.gpuRawName;
    case C::GpuCount:
        return o.gpuCount;
    case C::GpuMemory:
        return sortNumber(o.gpuMemGb);
    case C::Vcpus:
        return sortNumber(o.vcpus);
    case C::Ram:
        return sortNumber(o.ramGb);
    case C::Network:
        return sortNumber(o.networkGbps);
    case C::Interconnect:
        return o.interconnect;
    case C::OnDemand:
        return sortNumber(o.onDemandUsdH);
    case C::Spot:
        return sortNumber(o.spotUsdH);
    case C::PerGpuHour:
        return sortNumber(o.usdPerGpuHour());
    case C::SpotSavings:
        return sortNumber(o.spotSavingsPct());
    case C::Hours:
        return point && point->projected ? QVariant(point->totalHours) : QVariant();
    case C::Cost:
        return point && point->projected && point->costUsd > 0 ? QVariant(point->costUsd) : QVariant();
    case C::SamplesPerUsd:
        return point && point->samplesPerUsd > 0 ? QVariant(point->samplesPerUsd) : QVariant();
    case C::OnFrontier:
        return r.onFrontier ? 1 : 0;
    case C::Interruption:
        return o.reliability ? QVariant(*o.reliability) : QVariant(o.interruption);
    case C::SpotInterruptions: {
        const ProjectedOffer *sp = r.spotPoint();
        return sp && sp->projected ? QVariant(double(sp->expectedInterruptions)) : QVariant();
    }
    case C::SpotOverhead: {
        const ProjectedOffer *sp = r.spotPoint();
        return sp && sp->projected ? QVariant(sp->interruptionHours) : QVariant();
    }
    case C::Setup:
        return point && point->projected ? QVariant(double(point->setupHours)) : QVariant();
    case C::PriceAge:
        return r.ageDays;
    }
    return {};
}

QString gpuToolTip(const OfferRow &r)
{
    const Offer &o = r.o;
    QString t = r.gpu ? QStringLiteral("%1 (%2 GB)\nProvider name: %3")
                            .arg(r.gpu->name, QString::number(r.gpu->memoryGb), o.gpuRawName)
                      : QStringLiteral("The provider's GPU name \"%1\" matches no known GPU model; "
                                       "projections cannot use this offer.")
                            .arg(o.gpuRawName);
    if (o.dlperf)
        t += QStringLiteral("\nDLPerf %1 (vast.ai's deep-learning performance score for this host)")
                 .arg(QString::number(*o.dlperf, 'f', 1));
    return t;
}

/// Every flag of the row, described: the offer's, then its point's that the offer's do not cover.
QString flagsToolTip(const OfferRow &r)
{
    const Offer &o = r.o;
    QStringList lines;
    for (OfferFlag f : allOfferFlags())
        if (hasFlag(o.flags, f))
            lines.append(QStringLiteral("⚠ ") + offerFlagDescription(o, f));
    if (r.point)
        for (ProjectionFlag f : allProjectionFlags()) {
            if (!hasFlag(r.point->flags, f))
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
    if (severity(r) == 2)
        lines.append(QStringLiteral("\nSuspect prices are shown but not on the frontier nor recommended "
                                    "unless suspect prices are included."));
    return lines.join(u'\n');
}

/// The projected point explained: price mode, time, cost, its range and how it was computed.
QString pointToolTip(const OfferRow &r, const ProjectionResults *projection)
{
    const ProjectedOffer *point = r.point;
    if (!point || !projection)
        return QStringLiteral("No projection for this offer.");
    const Currency &cur = DisplayCurrency::instance().current();
    QString t =
        QStringLiteral("%1 price, %2 instance(s): %3, %4, %5 samples per %6\n")
            .arg(point->mode == PriceMode::Spot ? QStringLiteral("Spot") : QStringLiteral("On-demand"))
            .arg(point->nodes)
            .arg(formatHours(point->totalHours), formatMoneyWithUnit(point->costUsd, cur),
                 QString::number(point->samplesPerUsd / cur.unitsPerUsd, 'f', 0), cur.code);
    if (!cur.isUsd())
        t += cur.rateText() + u'\n';
    for (const QString &line : uncertaintyLines(*projection, *point))
        t += line + u'\n';
    return QString(t + explainPoint(r.o, *point, projection->workload, projection->options,
                                    projection->calibration, GpuSpecTable::builtin(), cur)
                           .all()
                           .join(u'\n'));
}

QVariant toolTip(const OfferRow &r, int column, const ProjectionResults *projection)
{
    const Offer &o = r.o;
    switch (column) {
    case C::Provider:
    case C::Instance:
        return QStringLiteral("%1 %2 in %3")
            .arg(providerDisplayName(o.provider), o.instanceType, locationText(o));
    case C::Gpu:
        return gpuToolTip(r);
    case C::Network:
        if (o.uploadGbps)
            return QStringLiteral("Host bandwidth measured by vast.ai: download %1 Gbps, upload %2 Gbps.")
                .arg(formatNumber(o.networkGbps), formatNumber(o.uploadGbps));
        return QStringLiteral("Network bandwidth of the instance, Gbit/s (provider documentation).");
    case C::OnDemand:
    case C::Spot:
    case C::PerGpuHour: {
        const Currency &cur = DisplayCurrency::instance().current();
        QString t =
            column == C::PerGpuHour
                ? QStringLiteral("Price per GPU-hour: the %1 price per hour (%2 %3/h) divided by its %4 "
                                 "GPU(s).")
                      .arg(o.onDemandUsdH ? QStringLiteral("on-demand") : QStringLiteral("spot"),
                           formatMoneyPerHour(o.onDemandUsdH ? o.onDemandUsdH : o.spotUsdH, cur), cur.code,
                           formatNumber(o.gpuCount))
                : QStringLiteral("Price for the whole instance (%1 GPU), %2 per hour.")
                      .arg(formatNumber(o.gpuCount), cur.code);
        if (!cur.isUsd())
            t += u'\n' + cur.rateText() +
                 QStringLiteral(" (stored: %1 USD/h)")
                     .arg(formatUsdPerHour(column == C::Spot       ? o.spotUsdH
                                           : column == C::OnDemand ? o.onDemandUsdH
                                                                   : o.usdPerGpuHour()));
        return QStringLiteral("%1\nSource: %2\nPrices dated %3")
            .arg(t, o.source,
                 o.dataDate.isValid() ? o.dataDate.toString(Qt::ISODate) : o.fetchedAt.toString(Qt::ISODate));
    }
    case C::SpotSavings:
        return QStringLiteral("How much cheaper the %1 price is than on-demand, in percent.")
            .arg(o.spotLabel.isEmpty() ? QStringLiteral("spot") : o.spotLabel);
    case C::Interruption:
        return QStringLiteral("AWS: Spot Instance Advisor interruption frequency per month.\n"
                              "vast.ai: the host's measured reliability.");
    case C::Flags:
        return flagsToolTip(r);
    case C::SpotInterruptions:
    case C::SpotOverhead: {
        const ProjectedOffer *sp = r.spotPoint();
        if (!sp || !projection)
            return QStringLiteral("No spot price, or spot is excluded by the spot policy.");
        return explainSpot(o, *sp, projection->options);
    }
    case C::Setup:
        if (!r.point || !projection)
            return QStringLiteral("No projection for this offer.");
        return explainPoint(o, *r.point, projection->workload, projection->options, projection->calibration)
            .facts.filter(QStringLiteral("Setup"))
            .join(u'\n');
    case C::PriceAge:
        return QStringLiteral("Age of the price data (prices older than 7 days may be stale).");
    case C::Hours:
    case C::Cost:
    case C::SamplesPerUsd:
    case C::OnFrontier:
        return pointToolTip(r, projection);
    default:
        return {};
    }
}

QVariant alignment(int column)
{
    switch (column) {
    case C::GpuCount:
    case C::GpuMemory:
    case C::Vcpus:
    case C::Ram:
    case C::Network:
    case C::OnDemand:
    case C::Spot:
    case C::PerGpuHour:
    case C::SpotSavings:
    case C::Hours:
    case C::Cost:
    case C::SamplesPerUsd:
    case C::SpotInterruptions:
    case C::SpotOverhead:
    case C::Setup:
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case C::OnFrontier:
        return QVariant::fromValue(Qt::AlignCenter);
    default:
        return {};
    }
}

} // namespace

QVariant OfferTableModel::rawData(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_offers.size() || index.column() >= ColumnCount)
        return {};
    if (role == OfferIndexRole)
        return index.row();
    const OfferRow row(m_offers.at(index.row()), index.row(), m_projection.get(), m_now);
    switch (role) {
    case Qt::DisplayRole:
        return displayText(row, index.column());
    case SeverityRole:
        return index.column() == Flags ? QVariant(severity(row)) : QVariant();
    case SortRole:
        return sortValue(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column(), m_projection.get());
    case Qt::TextAlignmentRole:
        return alignment(index.column());
    default:
        return {};
    }
}

QVariant OfferTableModel::sortValueOf(const Offer &offer, int row, const ProjectionResults *projection,
                                      const QDateTime &now, int column)
{
    return sortValue(OfferRow(offer, row, projection, now), column);
}

QVariant OfferTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const DisplayCurrency &money = DisplayCurrency::instance();
    const QString code = money.code();
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
            return tr("On-demand (%1/h)").arg(code);
        case Spot:
            return tr("Spot (%1/h)").arg(code);
        case PerGpuHour:
            return tr("%1/GPU-h").arg(code);
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
            return tr("Run cost (%1)").arg(code);
        case SamplesPerUsd:
            return tr("Samples/%1").arg(code);
        case OnFrontier:
            return tr("Frontier");
        case PriceAge:
            return tr("Price age");
        }
    }
    if (role == Qt::ToolTipRole) {
        const QString rate = u'\n' + money.rateToolTip();
        switch (section) {
        case GpuMemory:
            return tr("Memory per GPU, in GB");
        case OnDemand:
            return QString(tr("On-demand price of the whole instance, %1 per hour").arg(code) + rate);
        case Spot:
            return QString(
                tr("Spot / preemptible / interruptible price of the whole instance, %1 per hour").arg(code) +
                rate);
        case PerGpuHour:
            return QString(
                tr("Price per GPU-hour, %1: the offer's price per hour (on-demand, else spot) divided by "
                   "its "
                   "GPUs. Compares offers with different GPU counts.")
                    .arg(code) +
                rate);
        case Hours:
            return tr(
                "Projected time of the run, hours: setup + training + expected spot interruption overhead");
        case Cost:
            return QString(
                tr("Projected cost of the run in %1, with the provider's billing granularity").arg(code) +
                rate);
        case SamplesPerUsd:
            return QString(tr("Training samples per %1: higher is more cost-efficient").arg(code) + rate);
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
    m_sortRoleSeen = OfferTableModel::SortRole;
    setSortRole(OfferTableModel::SortRole);
    connect(this, &QSortFilterProxyModel::sortRoleChanged, this, [this](int role) { m_sortRoleSeen = role; });
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
    // A grouping model summarises the offers this filter accepts: it learns the filter first. Its layout
    // change makes this proxy map every row again (filter, then one sort) while keeping the selection and
    // the expanded groups: invalidateFilter() on top would compare the old rows with the new and move them
    // one interval at a time, each move re-indexing every row (seconds for 200,000 rows).
    if (m_groups)
        m_groups->setFilter(m_filter);
    else
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

void OfferFilterProxy::setSourceModel(QAbstractItemModel *source)
{
    // Read once, not per row and per comparison: a sort of 200,000 rows compares millions of times.
    m_groups = qobject_cast<OfferGroupModel *>(source);
    m_grouping = qobject_cast<GroupingModel *>(source);
    QSortFilterProxyModel::setSourceModel(source);
    if (m_groups)
        m_groups->setOrderColumn(sortColumn());
}

void OfferFilterProxy::sort(int column, Qt::SortOrder order)
{
    // Before sorting: the group model's signals during the sort already follow the new column.
    if (m_groups)
        m_groups->setOrderColumn(column);
    m_order = order;
    QSortFilterProxyModel::sort(column, order);
}

bool OfferFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex &sourceParent) const
{
    if (const OfferGroupModel *groups = m_groups) {
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

bool OfferFilterProxy::ranksValid(int column) const
{
    return m_keysColumn == column && m_keysGeneration == m_grouping->generation() &&
           m_rank.size() == m_grouping->groupCount();
}

const QList<int> &OfferFilterProxy::topLevelRanks(int column) const
{
    const GroupingModel *groups = m_grouping;
    if (ranksValid(column) && m_keysRole == sortRole())
        return m_rank;
    const int rows = groups->groupCount();
    const int role = sortRole();
    // The keys are read once and ranked: each row's rank is its place in keyLess's order, rows with equal
    // keys share one. The proxy's own sort then compares two ints per comparison instead of two keys
    // fetched through two models. Numbers (every price, time and cost column) are sorted as plain pairs;
    // missing values sort after them in row order (keyLess: missing last).
    // Rows the filter hides are never compared: their keys are not read (rank: after every other).
    std::vector<SortKey> keys(static_cast<size_t>(rows));
    std::vector<bool> shown(static_cast<size_t>(rows), true);
    bool numeric = true;
    for (int r = 0; r < rows; ++r) {
        if (m_groups && !m_groups->hasAcceptedMember(r)) {
            shown[static_cast<size_t>(r)] = false;
            continue;
        }
        keys[static_cast<size_t>(r)] = sortKeyOf(groups->index(r, column).data(role));
        // A NaN has no place in an order: such keys take keyLess's path as before (no std::sort over them).
        const SortKey &k = keys[static_cast<size_t>(r)];
        numeric = numeric && (!k.valid || (k.isNumber && !std::isnan(k.number)));
    }
    m_rank.resize(rows);
    int rank = 0;
    if (numeric) {
        // (number, row) pairs: sorting them by both is the stable sort by number, and faster.
        std::vector<std::pair<double, int>> numbers;
        numbers.reserve(keys.size());
        for (int r = 0; r < rows; ++r)
            if (keys[static_cast<size_t>(r)].valid)
                numbers.emplace_back(keys[static_cast<size_t>(r)].number, r);
        std::sort(numbers.begin(), numbers.end());
        for (size_t i = 0; i < numbers.size(); ++i) {
            if (i > 0 && numbers[i - 1].first < numbers[i].first)
                ++rank;
            m_rank[numbers[i].second] = rank;
        }
        const int missing = numbers.empty() ? 0 : rank + 1;
        for (int r = 0; r < rows; ++r)
            if (!keys[static_cast<size_t>(r)].valid)
                m_rank[r] = shown[static_cast<size_t>(r)] ? missing : missing + 1;
    } else {
        std::vector<int> order(static_cast<size_t>(rows));
        std::iota(order.begin(), order.end(), 0);
        std::stable_sort(order.begin(), order.end(), [&keys](int l, int r) {
            return keyLess(keys[static_cast<size_t>(l)], keys[static_cast<size_t>(r)]);
        });
        for (size_t i = 0; i < order.size(); ++i) {
            if (i > 0 &&
                keyLess(keys[static_cast<size_t>(order[i - 1])], keys[static_cast<size_t>(order[i])]))
                ++rank;
            m_rank[order[i]] = rank;
        }
    }
    m_keysGeneration = groups->generation();
    m_keysColumn = column;
    m_keysRole = role;
    return m_rank;
}

bool OfferFilterProxy::lessThan(const QModelIndex &left, const QModelIndex &right) const
{
    // Equal keys keep the source's order, in either direction (the proxy sorts descending by
    // lessThan(right, left)): the order is the same whatever order the rows had before this sort (a
    // stable sort of the current order would keep the previous column's order among ties), so a proxy that
    // keeps its order over a new projection shows what sorting afresh would.
    const bool tieBefore =
        m_order == Qt::AscendingOrder ? left.row() < right.row() : left.row() > right.row();
    // A top-level row of a grouping model has internal id 0 (GroupingModel's indexes). The ranks are checked
    // with a few inline reads per comparison (millions per sort); the role only changes with setSortRole.
    if (m_grouping && left.internalId() == 0 && right.internalId() == 0) {
        const QList<int> &ranks =
            ranksValid(left.column()) && m_keysRole == m_sortRoleSeen ? m_rank : topLevelRanks(left.column());
        const int l = ranks.at(left.row());
        const int r = ranks.at(right.row());
        return l < r || (l == r && tieBefore);
    }
    const SortKey l = sortKeyOf(left.data(sortRole()));
    const SortKey r = sortKeyOf(right.data(sortRole()));
    return keyLess(l, r) || (!keyLess(r, l) && tieBefore);
}

} // namespace gf

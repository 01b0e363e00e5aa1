#include "viewmodels/pointtablemodel.h"

#include "domain/gpucatalog.h"
#include "projection/pointexplanation.h"
#include "util/format.h"
#include "util/printable.h"
#include "viewmodels/displaycurrency.h"

#include <algorithm>

namespace gf {

namespace {
QString gpuLabel(const Offer &o, int nodes)
{
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    const QString name = m ? m->name : o.gpuRawName;
    QString s = QStringLiteral("%1 × %2").arg(formatNumber(o.gpuCount), name);
    if (nodes > 1)
        s = QStringLiteral("%1 instances × (%2)").arg(nodes).arg(s);
    return s;
}
} // namespace

PointTableModel::PointTableModel(QObject *parent) : QAbstractTableModel(parent)
{
    // Another display currency or rate: the prices and the headers' units redraw.
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, [this] {
        Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
        if (rowCount() > 0)
            Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1));
    });
}

void PointTableModel::setPoints(ProjectionResultsPtr results, QList<qsizetype> pointIndices)
{
    beginResetModel();
    m_results = std::move(results);
    m_rows = m_results ? std::move(pointIndices) : QList<qsizetype>{};
    endResetModel();
}

void PointTableModel::showFrontier(ProjectionResultsPtr results)
{
    QList<qsizetype> rows;
    if (results) {
        for (qsizetype i = 0; i < results->points.size(); ++i)
            if (results->points.at(i).onFrontier)
                rows.append(i);
        sortByTime(results->points, rows);
    }
    setPoints(std::move(results), rows);
}

int PointTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int PointTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PointTableModel::data(const QModelIndex &index, int role) const
{
    // Provider strings are shown, never interpreted: no control characters, no markup in tooltips.
    const QVariant v = rawData(index, role);
    if (v.typeId() != QMetaType::QString)
        return v;
    if (role == Qt::DisplayRole)
        return printableText(v.toString());
    if (role == Qt::ToolTipRole) // rich text whose provider strings are escaped (describePoint)
        return printableKeepingLines(v.toString());
    return v;
}

QVariant PointTableModel::rawData(const QModelIndex &index, int role) const
{
    if (!index.isValid() || !m_results || index.row() >= m_rows.size())
        return {};
    const qsizetype pi = m_rows.at(index.row());
    const ProjectedOffer &p = m_results->points.at(pi);
    const Offer &o = m_results->offers.at(p.offerIndex);
    if (role == PointIndexRole)
        return QVariant::fromValue(pi);
    const bool recommended = pi == m_results->recommended;
    const Currency &cur = DisplayCurrency::instance().current();
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Provider:
            return providerDisplayName(o.provider);
        case Instance:
            return recommended ? o.instanceType + QStringLiteral("  ◎ recommended") : o.instanceType;
        case Region:
            return locationText(o);
        case Gpu:
            return gpuLabel(o, p.nodes);
        case Pricing:
            return p.mode == PriceMode::Spot ? (o.spotLabel.isEmpty() ? tr("spot") : o.spotLabel)
                                             : tr("on-demand");
        case UsdPerHour:
            return formatMoneyPerHour(p.usdPerHour, cur);
        case PerGpuHour:
            return formatMoneyPerHour(p.usdPerGpuHour(o), cur);
        case Hours:
            return formatHoursColumn(p.totalHours);
        case Cost:
            return formatMoney(p.costUsd, cur);
        case SamplesPerUsd:
            return QString::number(p.samplesPerUsd / cur.unitsPerUsd, 'f', 0);
        case Interruptions:
            return p.mode == PriceMode::Spot ? QString::number(p.expectedInterruptions, 'f', 2)
                                             : QStringLiteral("–");
        case Overhead:
            return p.mode == PriceMode::Spot ? QString::number(p.interruptionHours, 'f', 2)
                                             : QStringLiteral("–");
        case Notes:
            return projectionFlagNames(p.flags).join(QStringLiteral(", "));
        }
    }
    if (role == SortRole) {
        switch (index.column()) {
        case UsdPerHour:
            return p.usdPerHour;
        case PerGpuHour: {
            const auto v = p.usdPerGpuHour(o);
            return v ? QVariant(*v) : QVariant();
        }
        case Hours:
            return p.totalHours;
        case Cost:
            return p.costUsd;
        case SamplesPerUsd:
            return p.samplesPerUsd;
        case Interruptions:
            return double(p.expectedInterruptions);
        case Overhead:
            return p.interruptionHours;
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::ToolTipRole)
        return describePoint(*m_results, pi);
    if (role == Qt::TextAlignmentRole && index.column() >= UsdPerHour && index.column() <= Overhead)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    return {};
}

QVariant PointTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    const QString code = DisplayCurrency::instance().code();
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case UsdPerHour:
            return QString(tr("Price of the whole job per hour (instance price × instances), %1").arg(code) +
                           u'\n' + DisplayCurrency::instance().rateToolTip());
        case PerGpuHour:
            return QString(tr("Price per GPU-hour, %1: the point's price per hour divided by its GPUs "
                              "(all instances)")
                               .arg(code) +
                           u'\n' + DisplayCurrency::instance().rateToolTip());
        case Cost:
        case SamplesPerUsd:
            return DisplayCurrency::instance().rateToolTip();
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Provider:
        return tr("Provider");
    case Instance:
        return tr("Instance");
    case Region:
        return tr("Region");
    case Gpu:
        return tr("GPUs");
    case Pricing:
        return tr("Pricing");
    case UsdPerHour:
        return tr("Price (%1/h)").arg(code);
    case PerGpuHour:
        return tr("%1/GPU-h").arg(code);
    case Hours:
        return tr("Time");
    case Cost:
        return tr("Cost (%1)").arg(code);
    case SamplesPerUsd:
        return tr("Samples/%1").arg(code);
    case Interruptions:
        return tr("Interruptions");
    case Overhead:
        return tr("Spot overhead (h)");
    case Notes:
        return tr("Flags");
    }
    return {};
}

QStringList uncertaintyLines(const ProjectionResults &r, const ProjectedOffer &p)
{
    if (!p.projected)
        return {};
    QStringList lines;
    QString range = QStringLiteral("Likely range (10th–90th percentile): %1 – %2")
                        .arg(formatHours(p.totalHoursLow), formatHours(p.totalHoursHigh));
    if (p.costUsd > 0 && !hasFlag(p.flags, ProjectionFlag::InvalidPrice))
        range += QStringLiteral(", %1 – %2")
                     .arg(formatMoney(p.costUsdLow, DisplayCurrency::instance().current()),
                          formatMoneyWithUnit(p.costUsdHigh, DisplayCurrency::instance().current()));
    lines.append(range);
    lines.append(
        QStringLiteral("Speed: %1 — %2").arg(projectionTierName(p.tier), projectionTierDescription(p.tier)));
    if (p.offerIndex >= 0 && p.offerIndex < r.offers.size())
        if (const SingleGpuSpeed *s = r.speedOf(r.offers.at(p.offerIndex)); s && s->ok && !s->basis.isEmpty())
            lines.append(QStringLiteral("Based on: %1").arg(s->basis));
    return lines;
}

QString describePoint(const ProjectionResults &r, qsizetype point, PointDescription detail)
{
    if (point < 0 || point >= r.points.size())
        return {};
    const ProjectedOffer &p = r.points.at(point);
    const Offer &o = r.offers.at(p.offerIndex);
    const Currency &cur = DisplayCurrency::instance().current();
    QString t = QStringLiteral("<b>%1 %2</b> (%3)<br>%4<br>%5 price %6 %7/h")
                    .arg(providerDisplayName(o.provider).toHtmlEscaped(), o.instanceType.toHtmlEscaped(),
                         locationText(o).toHtmlEscaped(), gpuLabel(o, p.nodes).toHtmlEscaped(),
                         p.mode == PriceMode::Spot ? QStringLiteral("Spot") : QStringLiteral("On-demand"),
                         formatMoneyPerHour(p.usdPerHour, cur), cur.code);
    if (const auto perGpu = p.usdPerGpuHour(o))
        t += QStringLiteral(" (%1 %2/GPU-h)").arg(formatMoneyPerHour(perGpu, cur), cur.code);
    if (p.projected) {
        t += QStringLiteral(
                 "<br>Time %1 (setup %2, training %3, spot overhead %4)<br>Cost %5 %7 · %6 samples/%7")
                 .arg(formatHours(p.totalHours), formatHours(p.setupHours), formatHours(p.trainHours),
                      formatHours(p.interruptionHours), formatMoney(p.costUsd, cur),
                      QString::number(p.samplesPerUsd / cur.unitsPerUsd, 'f', 0), cur.code);
        if (!cur.isUsd())
            t += QStringLiteral("<br>") + cur.rateText().toHtmlEscaped();
        if (p.mode == PriceMode::Spot)
            t += QStringLiteral("<br>%1 expected interruptions")
                     .arg(QString::number(p.expectedInterruptions, 'f', 2));
        for (const QString &line : uncertaintyLines(r, p))
            t += QStringLiteral("<br>") + line.toHtmlEscaped();
    }
    if (p.onFrontier)
        t += QStringLiteral("<br>★ on the efficiency frontier");
    if (point == r.recommended)
        t += QStringLiteral("<br>◎ recommended for the chosen cost/time weight");
    const PointExplanation e =
        explainPoint(o, p, r.workload, r.options, r.calibration, GpuSpecTable::builtin(), cur);
    if (detail == PointDescription::Brief) {
        QStringList names;
        for (const QString &line : e.flags)
            names.append(line.section(u':', 0, 0));
        if (!names.isEmpty())
            t += QStringLiteral("<br>⚠ ") + names.join(QStringLiteral(" · ")).toHtmlEscaped();
        t += QStringLiteral("<br><small>Click to select it; the table below explains every number.</small>");
        return printableText(t);
    }
    t += QStringLiteral("<hr><small>");
    for (const QString &line : e.facts)
        t += line.toHtmlEscaped() + QStringLiteral("<br>");
    for (const QString &line : e.flags)
        t += QStringLiteral("⚠ ") + line.toHtmlEscaped() + QStringLiteral("<br>");
    t += QStringLiteral("</small>");
    return printableText(t);
}

} // namespace gf

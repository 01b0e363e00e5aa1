#include "frontierpage.h"

#include "domain/offerfiltertext.h"
#include "domain/provider.h"
#include "elidedlabel.h"
#include "frontierchart.h"
#include "projection/norecommendation.h"
#include "uistyle.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/pointgroupmodel.h"
#include "viewmodels/pointtablemodel.h"

#include <QCheckBox>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

FrontierPage::FrontierPage(QWidget *parent) : QWidget(parent)
{
    m_chart = new FrontierChart(this);
    m_chart->setObjectName(QStringLiteral("frontierChart"));
    m_chart->setTooltipProvider([this](int id) {
        return m_results ? describePoint(*m_results, id, PointDescription::Brief) : QString();
    });
    // Another display currency or rate: the chart's costs, its axis and the summary follow.
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this,
            [this] { setResults(m_requested); });

    m_logX = new QCheckBox(tr("Log time axis"), this);
    m_logX->setObjectName(QStringLiteral("logX"));
    m_logX->setChecked(true);
    m_logY = new QCheckBox(tr("Log cost axis"), this);
    m_logY->setObjectName(QStringLiteral("logY"));
    m_logY->setChecked(true);
    m_uncertainty = new QCheckBox(tr("Likely range"), this);
    m_uncertainty->setObjectName(QStringLiteral("showUncertainty"));
    m_uncertainty->setChecked(true);
    m_uncertainty->setToolTip(
        tr("Shade the frontier's likely range: each frontier point's time and cost between the 10th and "
           "90th percentile of its projection tier's validation error (measured, transferred or roofline)"));
    auto *reset = new QPushButton(tr("Reset zoom"), this);
    reset->setObjectName(QStringLiteral("resetZoom"));
    reset->setToolTip(
        tr("Drag a rectangle to zoom in, use the mouse wheel, or press Esc in the chart to reset"));
    m_summary = new ElidedLabel(this);
    m_summary->setObjectName(QStringLiteral("frontierSummary"));
    connect(m_logX, &QCheckBox::toggled, m_chart, &FrontierChart::setLogX);
    connect(m_logY, &QCheckBox::toggled, m_chart, &FrontierChart::setLogY);
    connect(m_uncertainty, &QCheckBox::toggled, m_chart, &FrontierChart::setShowUncertainty);
    connect(reset, &QPushButton::clicked, m_chart, &FrontierChart::resetZoom);
    connect(m_chart, &FrontierChart::pointClicked, this, &FrontierPage::pointActivated);

    auto *controls = new QHBoxLayout;
    controls->addWidget(m_logX);
    controls->addWidget(m_logY);
    controls->addWidget(m_uncertainty);
    controls->addWidget(reset);
    controls->addSpacing(12);
    controls->addWidget(m_summary, 1);

    m_model = new PointTableModel(this);
    m_groups = new PointGroupModel(this);
    m_groups->setPointModel(m_model);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_groups);
    m_proxy->setSortRole(PointTableModel::SortRole);
    m_table = new QTreeView(this);
    m_table->setObjectName(QStringLiteral("frontierTable"));
    m_table->setModel(m_proxy);
    m_table->setUniformRowHeights(true);
    m_table->setAllColumnsShowFocus(true);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(PointTableModel::Hours, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->header()->setStretchLastSection(true);
    m_table->setAlternatingRowColors(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex &current) {
                if (!current.isValid())
                    return;
                const qsizetype point = current.data(PointTableModel::PointIndexRole).value<qsizetype>();
                m_chart->setSelectedIds({static_cast<int>(point)});
                if (m_results && point >= 0)
                    Q_EMIT catalogRowActivated(static_cast<int>(m_results->catalogRowOf(point)));
            });

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(QStringLiteral("frontierSplitter"));
    splitter->addWidget(m_chart);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({3000, 1000}); // the chart's legend lists every provider: give it the room first

    m_filterNotice = new QLabel(this);
    m_filterNotice->setObjectName(QStringLiteral("frontierFilterNotice"));
    m_filterNotice->setWordWrap(true);
    m_filterNotice->setTextFormat(Qt::PlainText);
    m_filterNotice->setVisible(false);
    setErrorStyle(m_filterNotice, true);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(controls);
    layout->addWidget(m_filterNotice);
    layout->addWidget(splitter, 1);
}

QString FrontierPage::filterNoticeText() const
{
    return m_filterNotice->isVisibleTo(this) ? m_filterNotice->text() : QString();
}

QString FrontierPage::filterNotice(const OfferFilter &f, qsizetype offers)
{
    if (f.isEmpty())
        return {};
    return tr("Filtered on the Offers page (%1): the chart, the frontier and the recommendation use only "
              "the %n matching offer(s). Reset the filters there (Ctrl+Shift+R) to see the whole market.",
              nullptr, static_cast<int>(offers))
        .arg(describeFilter(f));
}

namespace {
/// The chart's points of a projection (costs in `cur`), prepared for FrontierChart::setPrepared; reads only
/// the (immutable) results: any thread.
PreparedChartPoints prepareChart(const ProjectionResults *results, const Currency &cur,
                                 const QStringList &providers, qsizetype seriesCount)
{
    if (!results)
        return FrontierChart::prepare({}, std::nullopt, std::nullopt, std::nullopt, seriesCount);
    QHash<QString, int> providerIndex; // per point a hash lookup, not a search of every provider's name
    for (qsizetype i = 0; i < providers.size(); ++i)
        if (!providerIndex.contains(providers.at(i)))
            providerIndex.insert(providers.at(i), static_cast<int>(i));
    QList<ChartPoint> points;
    points.reserve(results->points.size());
    for (qsizetype i = 0; i < results->points.size(); ++i) {
        const ProjectedOffer &p = results->points.at(i);
        if (!p.projected || !(p.costUsd > 0))
            continue;
        ChartPoint c;
        c.hours = p.totalHours;
        c.costUsd = cur.fromUsd(p.costUsd);
        c.provider = providerIndex.value(results->offers.at(p.offerIndex).provider, -1);
        c.spot = p.mode == PriceMode::Spot;
        c.onFrontier = p.onFrontier;
        c.feasible = p.feasible;
        c.id = static_cast<int>(i);
        c.hoursLow = p.totalHoursLow;
        c.hoursHigh = p.totalHoursHigh;
        c.costLow = cur.fromUsd(p.costUsdLow);
        c.costHigh = cur.fromUsd(p.costUsdHigh);
        points.append(c);
    }
    std::optional<int> recommended;
    if (results->recommended >= 0)
        recommended = static_cast<int>(results->recommended);
    // The chart plots costs in the display currency (its axis says which); the points' ids stay the same.
    const std::optional<double> budget = results->options.budgetUsd;
    return FrontierChart::prepare(std::move(points), results->options.deadlineHours,
                                  budget ? std::optional<double>(cur.fromUsd(*budget)) : std::nullopt,
                                  recommended, seriesCount);
}
} // namespace

void FrontierPage::setResults(ProjectionResultsPtr results)
{
    m_requested = results;
    const quint64 job = ++m_job;
    const Currency cur = DisplayCurrency::instance().current();
    const QStringList providers = knownProviders();
    const qsizetype series = m_chart->seriesCount();
    if (!results || results->points.size() <= m_prepareOnWorkerAbove) {
        showResults(results, cur.code, prepareChart(results.get(), cur, providers, series));
        return;
    }
    // Hundreds of thousands of points: prepared on a worker, so that the GUI thread does not stop.
    ++m_preparing;
    auto *watcher = new QFutureWatcher<PreparedChartPoints>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, results, code = cur.code] {
        watcher->deleteLater();
        --m_preparing;
        if (job != m_job)
            return; // a newer setResults came
        showResults(results, code, watcher->result());
        highlightCatalogRows(m_highlightRows); // showing new points cleared the highlight
    });
    watcher->setFuture(QtConcurrent::run(
        [results, cur, providers, series] { return prepareChart(results.get(), cur, providers, series); }));
}

void FrontierPage::showResults(ProjectionResultsPtr results, const QString &costUnit,
                               PreparedChartPoints chart)
{
    m_results = std::move(results);
    m_chart->setCostUnit(costUnit);
    m_chart->setPrepared(std::move(chart));
    m_model->showFrontier(m_results);
    for (int c = 0; c < PointTableModel::ColumnCount; ++c)
        m_table->resizeColumnToContents(c);
    m_summary->setText(summary());
    const QString notice = m_results ? filterNotice(m_results->filter, m_results->offers.size()) : QString();
    m_filterNotice->setText(notice);
    m_filterNotice->setVisible(!notice.isEmpty());
}

QString FrontierPage::summary() const
{
    if (!m_results)
        return tr("No projection yet.");
    QString s = tr("%1 points · %2 on the frontier").arg(m_chart->pointCount()).arg(m_results->frontierCount);
    if (m_chart->pointCount() > FrontierChart::kThinAbove)
        s += tr(" (points that overlap at this zoom share a marker; zoom in for detail)");
    if (m_results->recommended >= 0) {
        const ProjectedOffer &p = m_results->points.at(m_results->recommended);
        const Offer &o = m_results->offers.at(p.offerIndex);
        s += tr(" · recommended: %1 %2 (%3), %4, %5")
                 .arg(providerDisplayName(o.provider), o.instanceType,
                      p.mode == PriceMode::Spot ? tr("spot") : tr("on-demand"), formatHours(p.totalHours),
                      formatMoneyWithUnit(p.costUsd, DisplayCurrency::instance().current()));
        const ProjectionResults &r = *m_results;
        const QList<qsizetype> close = indistinguishableFrom(r.points, r.recommended, [&r](qsizetype i) {
            return r.offers.at(r.points.at(i).offerIndex).gpuId;
        });
        if (!close.isEmpty())
            s += tr(" · indistinguishable within the likely range from %n other frontier offer(s)", nullptr,
                    int(close.size()));
    } else {
        const NoRecommendation why =
            explainNoRecommendation(m_results->offers, m_results->points, m_results->options);
        s += tr(" · nothing recommended: %1").arg(why.facts);
        if (why.suspectExcluded) {
            QStringList names;
            for (const QString &p : why.staleProviders)
                names.append(providerDisplayName(p));
            s += names.isEmpty() ? tr(": tick Include suspect prices to consider them")
                                 : tr(": refresh %1 on the Catalogs page, or tick Include suspect prices")
                                       .arg(names.join(tr(", ")));
        }
    }
    s += tr(" · %1").arg(m_results->calibration.source);
    return s;
}

void FrontierPage::pointActivated(int point)
{
    if (!m_results || point < 0 || point >= m_results->points.size())
        return;
    const int row = m_model->rowOfPoint(point);
    if (row >= 0) {
        const QModelIndex idx = m_proxy->mapFromSource(m_groups->indexOfSourceRow(row));
        if (idx.parent().isValid())
            m_table->expand(idx.parent());
        const QSignalBlocker blocker(m_table->selectionModel());
        m_table->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                            QItemSelectionModel::Rows);
        m_table->scrollTo(idx);
    } else {
        m_table->clearSelection();
    }
    Q_EMIT catalogRowActivated(static_cast<int>(m_results->catalogRowOf(point)));
}

void FrontierPage::setGrouped(bool grouped)
{
    m_groups->setGrouped(grouped);
    m_table->setRootIsDecorated(grouped);
}

void FrontierPage::highlightCatalogRows(const QList<int> &rows)
{
    m_highlightRows = rows;
    if (!m_results)
        return;
    QList<int> ids;
    for (int row : rows) {
        if (const qsizetype p = m_results->pointForRow(row); p >= 0)
            ids.append(static_cast<int>(p));
    }
    m_chart->setSelectedIds(ids);
}

void FrontierPage::saveState() const
{
    QSettings s;
    s.setValue(QStringLiteral("frontier/logX"), m_logX->isChecked());
    s.setValue(QStringLiteral("frontier/logY"), m_logY->isChecked());
    s.setValue(QStringLiteral("frontier/showUncertainty"), m_uncertainty->isChecked());
}

void FrontierPage::restoreState()
{
    QSettings s;
    m_logX->setChecked(s.value(QStringLiteral("frontier/logX"), true).toBool());
    m_logY->setChecked(s.value(QStringLiteral("frontier/logY"), true).toBool());
    m_uncertainty->setChecked(s.value(QStringLiteral("frontier/showUncertainty"), true).toBool());
}

QList<qsizetype> FrontierPage::selectedPoints() const
{
    QList<qsizetype> out;
    auto *proxy = qobject_cast<QSortFilterProxyModel *>(m_table->model());
    if (!proxy || !m_table->selectionModel())
        return out;
    // A group row stands for its representative (the best member); a child row for itself.
    for (const QModelIndex &idx : m_table->selectionModel()->selectedRows()) {
        const int row = m_groups->sourceRow(proxy->mapToSource(idx));
        const qsizetype p = row < 0 ? -1 : m_model->pointAt(row);
        if (p >= 0)
            out.append(p);
    }
    return out;
}

} // namespace gf

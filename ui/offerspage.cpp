#include "offerspage.h"

#include "cheapestdialog.h"
#include "domain/gpucatalog.h"
#include "flagdelegate.h"
#include "util/format.h"
#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offerorderproxy.h"
#include "viewmodels/offertablemodel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSet>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>

namespace gf {

namespace {
/// The Offers table's view. A change of the data of many rows at once (a new projection over 200,000 rows)
/// repaints what is shown: QTreeView would look up every changed row's place and rectangle, one by one, to
/// repaint the few on screen. The rows' heights are uniform and a change of data adds or removes no child.
class OffersTreeView final : public QTreeView
{
public:
    using QTreeView::QTreeView;
    static constexpr int kManyRows = 1000;

protected:
    void dataChanged(const QModelIndex &topLeft, const QModelIndex &bottomRight,
                     const QList<int> &roles) override
    {
        if (uniformRowHeights() && topLeft.isValid() && bottomRight.isValid() &&
            bottomRight.row() - topLeft.row() >= kManyRows) {
            viewport()->update();
            return;
        }
        QTreeView::dataChanged(topLeft, bottomRight, roles);
    }
};
} // namespace

OffersPage::OffersPage(QWidget *parent) : QWidget(parent)
{
    m_model = new OfferTableModel(this);
    m_groups = new OfferGroupModel(this);
    m_groups->setOfferModel(m_model);
    m_proxy = new OfferOrderProxy(this);
    m_proxy->setSourceModel(m_groups);

    auto *filters = new QGroupBox(tr("Filters"), this);
    auto *form = new QFormLayout(filters);
    m_grouped = new QCheckBox(tr("One row per instance type"), filters);
    m_grouped->setObjectName(QStringLiteral("groupOffers"));
    m_grouped->setChecked(true);
    m_grouped->setToolTip(tr("On: the offers of an instance type in its regions and zones share one row with "
                             "the best price, the number of locations and the price range; expand it to see "
                             "each location.\nOff: one row per offer."));
    form->addRow(m_grouped);
    // One box per provider, one per line (full names), in a list that scrolls past seven lines: with 14
    // providers the whole column would not fit a laptop screen.
    auto *providerList = new QWidget;
    auto *providers = new QVBoxLayout(providerList);
    providers->setContentsMargins(0, 0, 0, 0);
    providers->setSpacing(2);
    for (const QString &p : knownProviders()) {
        auto *box = new QCheckBox(providerDisplayName(p), providerList);
        box->setObjectName(QStringLiteral("provider_") + p);
        box->setProperty("provider", p);
        box->setChecked(true);
        providers->addWidget(box);
        m_providerBoxes.append(box);
        connect(box, &QCheckBox::toggled, this, &OffersPage::applyFilters);
    }
    auto *providerScroll = new QScrollArea(filters);
    providerScroll->setObjectName(QStringLiteral("providerList"));
    providerScroll->setWidget(providerList);
    providerScroll->setWidgetResizable(true);
    providerScroll->setFrameShape(QFrame::NoFrame);
    providerScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    providerScroll->setMinimumWidth(providerList->sizeHint().width() +
                                    providerScroll->verticalScrollBar()->sizeHint().width());
    const int visibleLines = 7;
    if (!m_providerBoxes.isEmpty())
        providerScroll->setFixedHeight(
            std::min(providerList->sizeHint().height(),
                     visibleLines * (m_providerBoxes.first()->sizeHint().height() + providers->spacing())));
    form->addRow(tr("Providers"), providerScroll);

    m_gpu = new QLineEdit(filters);
    m_gpu->setObjectName(QStringLiteral("gpuFilter"));
    m_gpu->setPlaceholderText(tr("e.g. A100, H100, RTX 4090"));
    m_gpu->setToolTip(tr("GPU model: matches the canonical name and the provider's own name"));
    m_gpu->setClearButtonEnabled(true);
    form->addRow(tr("&GPU"), m_gpu);

    m_minGpus = new QSpinBox(filters);
    m_minGpus->setObjectName(QStringLiteral("minGpus"));
    m_minGpus->setRange(0, 64);
    m_minGpus->setSpecialValueText(tr("any"));
    m_minGpus->setToolTip(tr("At least this many GPUs per instance"));
    form->addRow(tr("Min GPUs"), m_minGpus);

    m_minMem = new QDoubleSpinBox(filters);
    m_minMem->setObjectName(QStringLiteral("minGpuMem"));
    m_minMem->setRange(0, 512);
    m_minMem->setDecimals(0);
    m_minMem->setSuffix(tr(" GB"));
    m_minMem->setSpecialValueText(tr("any"));
    m_minMem->setToolTip(tr("At least this much memory per GPU, in GB"));
    form->addRow(tr("Min GPU memory"), m_minMem);

    m_maxPrice = new QDoubleSpinBox(filters);
    m_maxPrice->setObjectName(QStringLiteral("maxPrice"));
    m_maxPrice->setRange(0, 1000);
    m_maxPrice->setDecimals(2);
    m_maxPrice->setSingleStep(0.5);
    m_maxPrice->setSuffix(tr(" USD/h"));
    m_maxPrice->setSpecialValueText(tr("any"));
    m_maxPrice->setToolTip(
        tr("At most this price per hour for the whole instance (the spot price when \"Spot only\" is on)"));
    form->addRow(tr("Max price"), m_maxPrice);

    m_spot = new QCheckBox(tr("Spot only"), filters);
    m_spot->setObjectName(QStringLiteral("spotOnly"));
    m_spot->setToolTip(tr("Only offers with a spot / preemptible / interruptible price"));
    form->addRow(QString(), m_spot);

    m_region = new QLineEdit(filters);
    m_region->setObjectName(QStringLiteral("regionFilter"));
    m_region->setPlaceholderText(tr("e.g. us-east, europe"));
    m_region->setClearButtonEnabled(true);
    form->addRow(tr("&Region"), m_region);

    m_search = new QLineEdit(filters);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setPlaceholderText(tr("Search (Ctrl+F)"));
    m_search->setClearButtonEnabled(true);
    form->addRow(tr("Search"), m_search);

    auto *reset = new QPushButton(tr("Reset filters"), filters);
    reset->setObjectName(QStringLiteral("resetFilters"));
    form->addRow(QString(), reset);
    connect(reset, &QPushButton::clicked, this, &OffersPage::resetFilters);

    m_typingTimer.setSingleShot(true);
    m_typingTimer.setInterval(kTypingDelayMs);
    // The pause in typing: the offers are matched and the groups summarised on a worker (a large catalog),
    // the table follows when that is done. Every other control filters at once.
    connect(&m_typingTimer, &QTimer::timeout, this, [this] { applyFiltersOn(true); });
    connect(m_groups, &OfferGroupModel::filterApplied, this, &OffersPage::onWorkerFilterApplied);
    connect(m_proxy, &OfferOrderProxy::offersApplied, this, &OffersPage::onOffersShown);
    for (QLineEdit *e : {m_gpu, m_region, m_search}) {
        connect(e, &QLineEdit::textChanged, this, &OffersPage::onFilterTyped);
        connect(e, &QLineEdit::returnPressed, this, [this] {
            if (m_typingTimer.isActive())
                applyFilters(); // Enter: now, without waiting for the pause
        });
    }
    connect(m_minGpus, &QSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_minMem, &QDoubleSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_maxPrice, &QDoubleSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_spot, &QCheckBox::toggled, this, &OffersPage::applyFilters);

    // A tree: a group row expands to its offers. Uniform row heights keep 100,000 rows fast.
    m_view = new OffersTreeView(this);
    m_view->setObjectName(QStringLiteral("offersTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(OfferTableModel::Flags, new FlagDelegate(m_view));
    m_view->setUniformRowHeights(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OfferTableModel::OnDemand, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->header()->setStretchLastSection(false);
    m_view->header()->setSectionsMovable(true);
    {
        // Prices first: GPU memory moves after the price, time and cost columns, so that a
        // small screen shows what an offer costs without scrolling (the user can drag it back).
        QHeaderView *h = m_view->header();
        h->moveSection(h->visualIndex(OfferTableModel::GpuMemory),
                       h->visualIndex(OfferTableModel::SpotSavings));
    }
    m_view->header()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setColumnHidden(OfferTableModel::Network, true);
    m_view->setColumnHidden(OfferTableModel::Setup, true);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &OffersPage::showRowMenu);
    connect(m_grouped, &QCheckBox::toggled, this, &OffersPage::setGrouped);
    connect(m_view->header(), &QHeaderView::customContextMenuRequested, this, [this](const QPoint &pos) {
        QMenu menu(this);
        for (int c = 0; c < m_model->columnCount(); ++c) {
            QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
            a->setCheckable(true);
            a->setChecked(!m_view->isColumnHidden(c));
            connect(a, &QAction::toggled, this, [this, c](bool on) { m_view->setColumnHidden(c, !on); });
        }
        menu.exec(m_view->header()->mapToGlobal(pos));
    });
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { Q_EMIT selectionChanged(selectedRows()); });
    m_view->setSelectionMode(QAbstractItemView::ExtendedSelection);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &OffersPage::updateSummary);
    connect(m_proxy, &QAbstractItemModel::rowsRemoved, this, &OffersPage::updateSummary);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, &OffersPage::updateSummary);
    connect(m_proxy, &QAbstractItemModel::layoutChanged, this, &OffersPage::updateSummary);

    filters->setMaximumWidth(300);
    // A splitter, so that the filter panel can be narrowed or collapsed (drag its edge) on small
    // screens; the table keeps the rest.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    m_splitter = splitter;
    splitter->setObjectName(QStringLiteral("offersSplitter"));
    splitter->addWidget(filters);
    splitter->addWidget(m_view);
    splitter->setCollapsible(0, true);
    splitter->setCollapsible(1, false);
    splitter->setStretchFactor(1, 1);
    auto *layout = new QHBoxLayout(this);
    layout->addWidget(splitter);
}

OffersPage::~OffersPage() = default;

void OffersPage::setOffers(QList<Offer> offers, const QList<Snapshot> &snapshots,
                           ProjectionResultsPtr projection)
{
    m_snapshots = snapshots;
    m_pendingProjection.reset();
    if (offers.size() > m_largeAbove) {
        // Grouped, matched, summarised and ordered on a worker; the GUI thread only adopts the result.
        m_proxy->setOffersOnWorker(offers, QDateTime::currentDateTimeUtc(), projection);
        return;
    }
    m_proxy->dropOffersOnWorker();
    m_model->setOffers(std::move(offers));
    m_pendingProjection = std::move(projection); // after the columns are sized, as it comes later
    onOffersShown();
}

void OffersPage::setProjection(ProjectionResultsPtr results)
{
    if (m_proxy->isOffersPending()) {
        m_pendingProjection = std::move(results); // the catalog it is for is not in the model yet
        return;
    }
    if (m_model->rowCount() > m_largeAbove)
        m_proxy->setProjectionOnWorker(results); // the groups' summaries (and a projected order) on a worker
    else
        m_model->setProjection(std::move(results));
}

bool OffersPage::isOffersPending() const
{
    return m_proxy->isOffersPending();
}

void OffersPage::onOffersShown()
{
    // The widths follow the rows at the top (what is seen): on a large catalog the first 200 rows of each
    // column, not 1,000 (Qt's default; each row's text laid out), which stopped the GUI thread longer.
    m_view->header()->setResizeContentsPrecision(m_model->rowCount() > m_largeAbove ? 200 : 1000);
    for (int c = 0; c < m_model->columnCount(); ++c) {
        if (m_view->isColumnHidden(c)) // a hidden column reports width 0: keep its own for when it is shown
            continue;
        m_view->resizeColumnToContents(c);
        m_view->setColumnWidth(c, std::min(m_view->columnWidth(c), 150)); // longer names elide; tooltips tell
    }
    // The flags arrive with the projection, after this sizing: room for an icon and one flag name.
    m_view->setColumnWidth(OfferTableModel::Flags,
                           std::max(m_view->columnWidth(OfferTableModel::Flags), 170));
    // A projection given with the catalog or that came while it was on a worker (the model keeps it only when
    // it is for these offers).
    if (const ProjectionResultsPtr newer = std::exchange(m_pendingProjection, nullptr);
        newer && newer != m_model->projection())
        setProjection(newer);
    updateSummary();
    Q_EMIT selectionChanged(selectedRows()); // a reset cleared the selection
    Q_EMIT offersShown();
}

bool OffersPage::isGrouped() const
{
    return m_groups->isGrouped();
}

void OffersPage::setGrouped(bool grouped)
{
    if (grouped == m_groups->isGrouped())
        return;
    const QSignalBlocker blocker(m_grouped);
    m_grouped->setChecked(grouped);
    const QList<int> selected = selectedRows();
    m_groups->setGrouped(grouped);
    m_view->setRootIsDecorated(grouped);
    // Keep the selected offers selected: in a group that is collapsed, its row stands for them.
    QItemSelection selection;
    for (int row : selected) {
        QModelIndex idx = m_proxy->mapFromSource(m_groups->indexOfSourceRow(row));
        if (idx.parent().isValid() && !m_view->isExpanded(idx.parent()))
            idx = idx.parent();
        if (idx.isValid())
            selection.select(idx, idx);
    }
    m_view->selectionModel()->select(selection,
                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    updateSummary();
    Q_EMIT groupedChanged(grouped);
    Q_EMIT selectionChanged(selectedRows());
}

int OffersPage::catalogRowOf(const QModelIndex &proxyIndex) const
{
    return m_groups->sourceRow(m_proxy->mapToSource(proxyIndex));
}

void OffersPage::showRowMenu(const QPoint &pos)
{
    const QModelIndex idx = m_view->indexAt(pos);
    const Offer *o = m_model->offerAt(catalogRowOf(idx));
    QMenu menu(this);
    if (o) {
        const QString gpu = o->gpuId.isEmpty() ? o->gpuRawName : o->gpuId;
        QAction *cheapest = menu.addAction(tr("Where is %1 cheapest?").arg(gpuModelName(*o)));
        cheapest->setObjectName(QStringLiteral("whereCheapestAction"));
        connect(cheapest, &QAction::triggered, this, [this, gpu] { showCheapest(gpu); });
        for (QAction *a : std::as_const(m_rowActions))
            menu.addAction(a);
    }
    if (isGrouped()) {
        if (!menu.isEmpty())
            menu.addSeparator();
        menu.addAction(tr("Expand all"), m_view, &QTreeView::expandAll);
        menu.addAction(tr("Collapse all"), m_view, &QTreeView::collapseAll);
    }
    if (!menu.isEmpty())
        menu.exec(m_view->viewport()->mapToGlobal(pos));
}

CheapestDialog *OffersPage::showCheapest(const QString &gpu)
{
    if (!m_cheapest) {
        m_cheapest = new CheapestDialog(this);
        m_cheapest->setObjectName(QStringLiteral("cheapestDialog"));
    }
    m_cheapest->setOffers(m_model->offers(), gpu);
    m_cheapest->show(); // not modal: it can stay open beside the table
    m_cheapest->raise();
    m_cheapest->activateWindow();
    return m_cheapest;
}

void OffersPage::setFilter(const OfferFilter &f)
{
    const QSignalBlocker b1(m_gpu), b2(m_minGpus), b3(m_minMem), b4(m_maxPrice), b5(m_spot), b6(m_region),
        b7(m_search);
    for (QCheckBox *b : std::as_const(m_providerBoxes)) {
        const QSignalBlocker blocker(b);
        b->setChecked(f.providers.isEmpty() || f.providers.contains(b->property("provider").toString()));
    }
    m_gpu->setText(f.gpu);
    m_minGpus->setValue(qRound(f.minGpus.value_or(0)));
    m_minMem->setValue(f.minGpuMemGb.value_or(0));
    m_maxPrice->setValue(f.maxPriceUsdH.value_or(0));
    m_spot->setChecked(f.spotOnly);
    m_region->setText(f.region);
    m_search->setText(f.text);
    applyFilters();
}

OfferFilter OffersPage::filter() const
{
    OfferFilter f;
    for (QCheckBox *b : std::as_const(m_providerBoxes))
        if (b->isChecked())
            f.providers.append(b->property("provider").toString());
    if (f.providers.size() == m_providerBoxes.size())
        f.providers.clear();
    else if (f.providers.isEmpty())
        f.providers.append(QStringLiteral("none"));
    f.gpu = m_gpu->text().trimmed();
    if (m_minGpus->value() > 0)
        f.minGpus = m_minGpus->value();
    if (m_minMem->value() > 0)
        f.minGpuMemGb = m_minMem->value();
    if (m_maxPrice->value() > 0)
        f.maxPriceUsdH = m_maxPrice->value();
    f.spotOnly = m_spot->isChecked();
    f.region = m_region->text().trimmed();
    f.text = m_search->text().trimmed();
    return f;
}

bool OffersPage::isFilterPending() const
{
    return m_typingTimer.isActive() || m_groups->isFilterPending();
}

void OffersPage::setTypingDelay(int delayMs, int aboveOffers)
{
    m_typingTimer.setInterval(delayMs);
    setLargeCatalogAbove(aboveOffers);
}

void OffersPage::setLargeCatalogAbove(int offers)
{
    m_largeAbove = offers;
    m_proxy->setWorkerAbove(offers);
}

void OffersPage::onFilterTyped()
{
    if (m_model->rowCount() > m_largeAbove)
        m_typingTimer.start(); // (again): the filter follows when the typing pauses
    else
        applyFilters();
}

void OffersPage::applyFiltersOn(bool onWorker)
{
    m_typingTimer.stop();
    const OfferFilter f = filter();
    if (onWorker && m_model->rowCount() > m_largeAbove) {
        if (!m_groups->isFilterPending() && sameFilter(f, m_proxy->filter()))
            return; // a key that changed nothing (a space at the end): the table and the projection have it

        // filterChanged (a projection of the filtered offers) follows once the table has it, as it does
        // below: the projection neither competes with the matching for the processor nor arrives before it.
        m_workerFilter = f;
        m_proxy->setFilterOnWorker(f);
        return;
    }
    m_proxy->setFilter(f);
    updateSummary();
    Q_EMIT filterChanged(f);
}

void OffersPage::onWorkerFilterApplied()
{
    updateSummary();
    Q_EMIT filterChanged(m_workerFilter);
}

QList<int> OffersPage::selectedRows() const
{
    // A group row stands for its best offer (the one whose numbers it shows).
    QList<int> rows;
    QSet<int> seen;
    const QModelIndexList selected = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &i : selected) {
        const int row = catalogRowOf(i);
        if (row >= 0 && !seen.contains(row)) {
            seen.insert(row);
            rows.append(row);
        }
    }
    return rows;
}

void OffersPage::selectCatalogRow(int row)
{
    selectCatalogRows({row});
}

void OffersPage::selectCatalogRows(const QList<int> &rows)
{
    QList<QModelIndex> sources;
    for (int row : rows)
        if (const QModelIndex source = m_groups->indexOfSourceRow(row); source.isValid())
            sources.append(source);
    if (sources.isEmpty())
        return;
    for (const QModelIndex &source : std::as_const(sources))
        if (!m_proxy->mapFromSource(source).isValid()) {
            resetFilters();
            break;
        }
    QItemSelection selection;
    for (const QModelIndex &source : std::as_const(sources)) {
        const QModelIndex idx = m_proxy->mapFromSource(source);
        if (!idx.isValid())
            continue;
        if (idx.parent().isValid())
            m_view->expand(idx.parent());
        selection.select(idx, idx);
    }
    const QModelIndex first = m_proxy->mapFromSource(sources.first());
    m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    m_view->selectionModel()->select(selection,
                                     QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(first, QAbstractItemView::PositionAtCenter);
}

void OffersPage::updateSummary()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    qint64 oldest = -1;
    QDate oldestDate;
    for (const Snapshot &s : std::as_const(m_snapshots)) {
        if (!s.current)
            continue;
        const qint64 age = s.ageDays(now);
        if (age > oldest) {
            oldest = age;
            oldestDate = s.dataDate.isValid() ? s.dataDate : s.fetchedAt.date();
        }
    }
    QString text = tr("Showing %1 of %2 offers").arg(m_groups->acceptedCount()).arg(m_model->rowCount());
    if (isGrouped())
        text += tr(" in %1 rows (one per instance type)").arg(m_groups->acceptedGroupCount());
    if (oldest >= 0) {
        text += tr(" · oldest prices from %1 (%2 old)")
                    .arg(oldestDate.toString(Qt::ISODate), formatAgeDays(oldest));
        if (oldest > 7)
            text += tr(" · refresh recommended");
    }
    if (text != m_summary) {
        m_summary = text;
        Q_EMIT summaryChanged(m_summary);
    }
}

void OffersPage::resetFilters()
{
    const QSignalBlocker b1(m_gpu), b2(m_minGpus), b3(m_minMem), b4(m_maxPrice), b5(m_spot), b6(m_region),
        b7(m_search);
    for (QCheckBox *b : std::as_const(m_providerBoxes)) {
        const QSignalBlocker blocker(b);
        b->setChecked(true);
    }
    m_gpu->clear();
    m_minGpus->setValue(0);
    m_minMem->setValue(0);
    m_maxPrice->setValue(0);
    m_spot->setChecked(false);
    m_region->clear();
    m_search->clear();
    applyFilters();
}

void OffersPage::focusSearch()
{
    m_search->setFocus();
    m_search->selectAll();
}

void OffersPage::saveState() const
{
    QSettings s;
    s.beginGroup(QStringLiteral("offers"));
    QStringList unchecked;
    for (QCheckBox *b : m_providerBoxes)
        if (!b->isChecked())
            unchecked.append(b->property("provider").toString());
    s.setValue(QStringLiteral("hiddenProviders"), unchecked);
    s.setValue(QStringLiteral("gpu"), m_gpu->text());
    s.setValue(QStringLiteral("minGpus"), m_minGpus->value());
    s.setValue(QStringLiteral("minGpuMem"), m_minMem->value());
    s.setValue(QStringLiteral("maxPrice"), m_maxPrice->value());
    s.setValue(QStringLiteral("spotOnly"), m_spot->isChecked());
    s.setValue(QStringLiteral("region"), m_region->text());
    s.setValue(QStringLiteral("headerV3"), m_view->header()->saveState());
    s.setValue(QStringLiteral("grouped"), isGrouped());
    s.setValue(QStringLiteral("splitter"), m_splitter->saveState());
    s.endGroup();
}

void OffersPage::restoreState()
{
    QSettings s;
    s.beginGroup(QStringLiteral("offers"));
    const QStringList unchecked = s.value(QStringLiteral("hiddenProviders")).toStringList();
    for (QCheckBox *b : std::as_const(m_providerBoxes))
        b->setChecked(!unchecked.contains(b->property("provider").toString()));
    m_gpu->setText(s.value(QStringLiteral("gpu")).toString());
    m_minGpus->setValue(s.value(QStringLiteral("minGpus"), 0).toInt());
    m_minMem->setValue(s.value(QStringLiteral("minGpuMem"), 0.0).toDouble());
    m_maxPrice->setValue(s.value(QStringLiteral("maxPrice"), 0.0).toDouble());
    m_spot->setChecked(s.value(QStringLiteral("spotOnly"), false).toBool());
    m_region->setText(s.value(QStringLiteral("region")).toString());
    // headerV3: the Flags, spot-risk and price-per-GPU-hour columns came in; an older layout would misplace
    // them.
    const QByteArray header = s.value(QStringLiteral("headerV3")).toByteArray();
    if (!header.isEmpty())
        m_view->header()->restoreState(header);
    setGrouped(s.value(QStringLiteral("grouped"), true).toBool());
    m_splitter->restoreState(s.value(QStringLiteral("splitter")).toByteArray());
    s.endGroup();
    applyFilters();
}

} // namespace gf

#include "offerspage.h"

#include "flagdelegate.h"
#include "util/format.h"
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
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace gf {

OffersPage::OffersPage(QWidget *parent) : QWidget(parent)
{
    m_model = new OfferTableModel(this);
    m_proxy = new OfferFilterProxy(this);
    m_proxy->setSourceModel(m_model);

    auto *filters = new QGroupBox(tr("Filters"), this);
    auto *form = new QFormLayout(filters);
    auto *providers = new QVBoxLayout;
    for (const QString &p : knownProviders()) {
        auto *box = new QCheckBox(providerDisplayName(p), filters);
        box->setObjectName(QStringLiteral("provider_") + p);
        box->setProperty("provider", p);
        box->setChecked(true);
        providers->addWidget(box);
        m_providerBoxes.append(box);
        connect(box, &QCheckBox::toggled, this, &OffersPage::applyFilters);
    }
    form->addRow(tr("Providers"), providers);

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

    for (QLineEdit *e : {m_gpu, m_region, m_search})
        connect(e, &QLineEdit::textChanged, this, &OffersPage::applyFilters);
    connect(m_minGpus, &QSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_minMem, &QDoubleSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_maxPrice, &QDoubleSpinBox::valueChanged, this, &OffersPage::applyFilters);
    connect(m_spot, &QCheckBox::toggled, this, &OffersPage::applyFilters);

    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("offersTable"));
    m_view->setModel(m_proxy);
    m_view->setItemDelegateForColumn(OfferTableModel::Flags, new FlagDelegate(m_view));
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OfferTableModel::OnDemand, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    m_view->horizontalHeader()->setSectionsMovable(true);
    {
        // Prices first: GPU memory moves after the price, time and cost columns, so that a
        // small screen shows what an offer costs without scrolling (the user can drag it back).
        QHeaderView *h = m_view->horizontalHeader();
        h->moveSection(h->visualIndex(OfferTableModel::GpuMemory),
                       h->visualIndex(OfferTableModel::SpotSavings));
    }
    m_view->horizontalHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setColumnHidden(OfferTableModel::Network, true);
    m_view->setColumnHidden(OfferTableModel::Setup, true);
    connect(m_view->horizontalHeader(), &QHeaderView::customContextMenuRequested, this,
            [this](const QPoint &pos) {
                QMenu menu(this);
                for (int c = 0; c < m_model->columnCount(); ++c) {
                    QAction *a = menu.addAction(m_model->headerData(c, Qt::Horizontal).toString());
                    a->setCheckable(true);
                    a->setChecked(!m_view->isColumnHidden(c));
                    connect(a, &QAction::toggled, this,
                            [this, c](bool on) { m_view->setColumnHidden(c, !on); });
                }
                menu.exec(m_view->horizontalHeader()->mapToGlobal(pos));
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

void OffersPage::setOffers(QList<Offer> offers, const QList<Snapshot> &snapshots)
{
    m_snapshots = snapshots;
    m_model->setOffers(std::move(offers));
    m_view->resizeColumnsToContents();
    for (int c = 0; c < m_model->columnCount(); ++c)
        if (!m_view->isColumnHidden(c)) // a hidden column reports width 0: keep its own for when it is shown
            m_view->setColumnWidth(
                c, std::min(m_view->columnWidth(c), 150)); // longer names elide; tooltips tell
    // The flags arrive with the projection, after this sizing: room for an icon and one flag name.
    m_view->setColumnWidth(OfferTableModel::Flags,
                           std::max(m_view->columnWidth(OfferTableModel::Flags), 170));
    updateSummary();
}

void OffersPage::applyFilters()
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
    m_proxy->setFilter(f);
    updateSummary();
    Q_EMIT filterChanged(f);
}

QList<int> OffersPage::selectedRows() const
{
    QList<int> rows;
    const QModelIndexList selected = m_view->selectionModel()->selectedRows();
    for (const QModelIndex &i : selected)
        rows.append(m_proxy->mapToSource(i).row());
    return rows;
}

void OffersPage::selectCatalogRow(int row)
{
    QModelIndex source = m_model->index(row, 0);
    if (!source.isValid())
        return;
    QModelIndex idx = m_proxy->mapFromSource(source);
    if (!idx.isValid()) {
        resetFilters();
        idx = m_proxy->mapFromSource(source);
    }
    m_view->selectionModel()->setCurrentIndex(idx, QItemSelectionModel::ClearAndSelect |
                                                       QItemSelectionModel::Rows);
    m_view->scrollTo(idx, QAbstractItemView::PositionAtCenter);
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
    QString text = tr("Showing %1 of %2 offers").arg(m_proxy->rowCount()).arg(m_model->rowCount());
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
    s.setValue(QStringLiteral("headerV2"), m_view->horizontalHeader()->saveState());
    if (const auto *splitter = findChild<QSplitter *>(QStringLiteral("offersSplitter")))
        s.setValue(QStringLiteral("splitter"), splitter->saveState());
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
    // headerV2: the Flags and spot-risk columns came in; an older layout would misplace them.
    const QByteArray header = s.value(QStringLiteral("headerV2")).toByteArray();
    if (!header.isEmpty())
        m_view->horizontalHeader()->restoreState(header);
    if (auto *splitter = findChild<QSplitter *>(QStringLiteral("offersSplitter")))
        splitter->restoreState(s.value(QStringLiteral("splitter")).toByteArray());
    s.endGroup();
    applyFilters();
}

} // namespace gf

#include "changesdialog.h"

#include "uistyle.h"

#include "domain/provider.h"
#include "util/format.h"
#include "viewmodels/catalogservice.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace gf {

namespace {

enum Column
{
    OfferColumn,
    LocationColumn,
    GpuColumn,
    OnDemandColumn,
    SpotColumn,
    ChangeColumn,
    ColumnCount
};

/// The sort key of the Change column: the signed relative change (new and gone offers sort apart).
constexpr int kSortRole = Qt::UserRole + 1;

QString price(const std::optional<double> &usdH)
{
    return usdH ? formatUsdPerHour(usdH) : QStringLiteral("–");
}

QString percent(double change)
{
    return QStringLiteral("%1%2 %").arg(change < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                        QString::number(std::abs(change) * 100.0, 'f', 1));
}

class ChangeItem final : public QTreeWidgetItem
{
public:
    using QTreeWidgetItem::QTreeWidgetItem;
    bool operator<(const QTreeWidgetItem &other) const override
    {
        const int c = treeWidget() ? treeWidget()->sortColumn() : 0;
        const QVariant a = data(c, kSortRole), b = other.data(c, kSortRole);
        if (a.isValid() && b.isValid())
            return a.toDouble() < b.toDouble();
        return QTreeWidgetItem::operator<(other);
    }
};

QTreeWidgetItem *offerItem(QTreeWidgetItem *parent, const Offer &o)
{
    auto *item = new ChangeItem(parent);
    item->setText(OfferColumn, o.instanceType);
    item->setText(LocationColumn, locationText(o));
    item->setText(GpuColumn, QStringLiteral("%1 × %2").arg(formatNumber(o.gpuCount), gpuModelName(o)));
    return item;
}

} // namespace

ChangesDialog::ChangesDialog(CatalogService *catalog, const QString &provider, QWidget *parent)
    : QDialog(parent), m_catalog(catalog)
{
    setObjectName(QStringLiteral("changesDialog"));
    setWindowTitle(tr("What changed since the last refresh"));
    m_provider = new QComboBox(this);
    m_provider->setObjectName(QStringLiteral("changesProvider"));
    m_provider->addItem(tr("All providers"), QString());
    for (const QString &p : knownProviders())
        m_provider->addItem(providerDisplayName(p), p);
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(provider)));
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("changesStatus"));
    m_status->setWordWrap(true);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("changesTree"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("Provider / offer"), tr("Region/zone"), tr("GPUs"), tr("On-demand USD/h"),
                             tr("Spot USD/h"), tr("Change")});
    m_tree->headerItem()->setToolTip(OnDemandColumn,
                                     tr("Price per hour of the whole instance: before → after"));
    m_tree->headerItem()->setToolTip(ChangeColumn,
                                     tr("Relative change of the on-demand price (else the spot price)"));
    m_tree->setUniformRowHeights(true);
    m_tree->setSortingEnabled(false);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("&Provider:"), this));
    top->addWidget(m_provider);
    top->addStretch(1);
    static_cast<QLabel *>(top->itemAt(0)->widget())->setBuddy(m_provider);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *box = new QVBoxLayout(this);
    box->addLayout(top);
    box->addWidget(m_status);
    box->addWidget(m_tree, 1);
    box->addWidget(buttons);
    resize(960, 600);

    connect(m_provider, &QComboBox::currentIndexChanged, this, &ChangesDialog::reload);
    connect(m_catalog, &CatalogService::changesLoaded, this,
            [this](quint64 request, const QList<SnapshotChanges> &changes) {
                if (request == m_request)
                    display(changes);
            });
    connect(m_catalog, &CatalogService::failed, this, [this](quint64 request, const QString &message) {
        if (request != m_request)
            return;
        m_status->setText(tr("Cannot compare the snapshots: %1").arg(message));
        setErrorStyle(m_status);
        Q_EMIT loaded();
    });
    reload();
}

QString ChangesDialog::statusText() const
{
    return m_status->text();
}

void ChangesDialog::reload()
{
    m_status->setText(tr("Reading the snapshots …"));
    setErrorStyle(m_status, false);
    const QString provider = m_provider->currentData().toString();
    m_request = m_catalog->loadChanges(provider.isEmpty() ? QStringList() : QStringList{provider});
}

void ChangesDialog::display(const QList<SnapshotChanges> &changes)
{
    m_tree->clear();
    int comparable = 0;
    for (const SnapshotChanges &c : changes) {
        auto *top = new QTreeWidgetItem(m_tree);
        QString summary = changesSummaryText(c);
        if (c.comparable())
            summary =
                tr("%1 (prices of %2 against %3)")
                    .arg(summary,
                         (c.current.dataDate.isValid() ? c.current.dataDate : c.current.fetchedAt.date())
                             .toString(Qt::ISODate),
                         (c.previous.dataDate.isValid() ? c.previous.dataDate : c.previous.fetchedAt.date())
                             .toString(Qt::ISODate));
        if (c.unchangedSince.isValid())
            summary += tr("; the newest refresh (%1 UTC) found them unchanged")
                           .arg(c.unchangedSince.toString(QStringLiteral("yyyy-MM-dd HH:mm")));
        top->setText(OfferColumn, QStringLiteral("%1: %2").arg(providerDisplayName(c.provider), summary));
        top->setToolTip(OfferColumn, top->text(OfferColumn));
        top->setFirstColumnSpanned(true);
        QFont bold = top->font(OfferColumn);
        bold.setBold(true);
        top->setFont(OfferColumn, bold);
        if (!c.comparable())
            continue;
        ++comparable;
        for (const PriceChange &pc : c.changed) {
            QTreeWidgetItem *item = offerItem(top, pc.after);
            item->setText(OnDemandColumn, QStringLiteral("%1 → %2").arg(price(pc.before.onDemandUsdH),
                                                                        price(pc.after.onDemandUsdH)));
            item->setText(SpotColumn,
                          QStringLiteral("%1 → %2").arg(price(pc.before.spotUsdH), price(pc.after.spotUsdH)));
            const auto change =
                pc.onDemandChange() && *pc.onDemandChange() != 0 ? pc.onDemandChange() : pc.spotChange();
            item->setText(ChangeColumn, change ? percent(*change) : tr("price added or dropped"));
            item->setData(ChangeColumn, kSortRole, change.value_or(0));
        }
        for (const auto &[list, label] :
             {std::pair{&c.added, tr("new")}, std::pair{&c.removed, tr("gone")}}) {
            for (const Offer &o : *list) {
                QTreeWidgetItem *item = offerItem(top, o);
                item->setText(OnDemandColumn, price(o.onDemandUsdH));
                item->setText(SpotColumn, price(o.spotUsdH));
                item->setText(ChangeColumn, label);
            }
        }
        top->setExpanded(changes.size() == 1);
    }
    if (changes.isEmpty())
        m_status->setText(tr("No catalog snapshots yet."));
    else if (comparable == 0)
        m_status->setText(
            tr("Every catalog has a single snapshot: refresh (or import) one to see what changes."));
    else
        m_status->setText(
            tr("Each provider's current snapshot against the one before it; expand a provider for "
               "its offers."));
    Q_EMIT loaded();
}

} // namespace gf

#include "cheapestdialog.h"

#include "domain/gpucatalog.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/regionpricemodel.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace gf {

CheapestDialog::CheapestDialog(QWidget *parent) : QDialog(parent)
{
    m_model = new RegionPriceModel(this);
    auto *proxy = new QSortFilterProxyModel(this);
    proxy->setSourceModel(m_model);
    proxy->setSortRole(RegionPriceModel::SortRole);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("cheapestSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_view = new QTableView(this);
    m_view->setObjectName(QStringLiteral("cheapestTable"));
    m_view->setModel(proxy);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(RegionPriceModel::OnDemandPerGpu, Qt::AscendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    auto *note = new QLabel(tr("Per GPU-hour = the instance's price / its GPUs. Spot prices can be "
                               "interrupted. Click a header to sort."),
                            this);
    note->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::hide);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_summary);
    layout->addWidget(m_view, 1);
    layout->addWidget(note);
    layout->addWidget(buttons);
    resize(900, 460);
}

void CheapestDialog::setOffers(const QList<Offer> &offers, const QString &gpu)
{
    const GpuModel *model = GpuCatalog::builtin().model(gpu);
    m_gpuName = model ? model->name : gpu;
    setWindowTitle(tr("Where is %1 cheapest?").arg(m_gpuName));
    m_model->setOffers(offers, gpu);
    m_view->resizeColumnsToContents();
    m_summary->setText(summary());
}

QString CheapestDialog::summary() const
{
    const QList<RegionPrice> &rows = m_model->rows();
    if (rows.isEmpty())
        return tr("No offer in the catalog rents %1.").arg(m_gpuName);
    const RegionPrice *od = nullptr;
    const RegionPrice *spot = nullptr;
    for (const RegionPrice &r : rows) {
        if (r.onDemand.usdPerGpuHour && (!od || *r.onDemand.usdPerGpuHour < *od->onDemand.usdPerGpuHour))
            od = &r;
        if (r.spot.usdPerGpuHour && (!spot || *r.spot.usdPerGpuHour < *spot->spot.usdPerGpuHour))
            spot = &r;
    }
    QString text = tr("%1 in %2 regions of %3 provider(s).")
                       .arg(m_gpuName, QString::number(rows.size()), QString::number([&rows] {
                                QStringList p;
                                for (const RegionPrice &r : rows)
                                    if (!p.contains(r.provider))
                                        p.append(r.provider);
                                return p.size();
                            }()));
    const Currency &cur = DisplayCurrency::instance().current();
    if (od)
        text += tr(" Cheapest on-demand: %1 %5 per GPU-hour, %2 %3 in %4.")
                    .arg(formatMoneyPerHour(od->onDemand.usdPerGpuHour, cur),
                         providerDisplayName(od->provider), od->onDemand.instanceType, od->region, cur.code);
    if (spot)
        text +=
            tr(" Cheapest spot: %1 %5 per GPU-hour, %2 %3 in %4.")
                .arg(formatMoneyPerHour(spot->spot.usdPerGpuHour, cur), providerDisplayName(spot->provider),
                     spot->spot.instanceType, spot->region, cur.code);
    if (!cur.isUsd())
        text += u' ' + cur.rateText() + u'.';
    return text;
}

} // namespace gf

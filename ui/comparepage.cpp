#include "comparepage.h"

#include "domain/gpucatalog.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {
enum class Better
{
    Lower,
    Higher,
    None
};

struct Row
{
    QString label;
    Better better = Better::None;
    std::function<std::optional<double>(const Offer &, const ProjectedOffer *)> number;
    std::function<QString(const Offer &, const ProjectedOffer *)> text;
    std::function<QString(double)> format;
    bool onlyWhenKnown = false; ///< left out when no compared offer has a value (provider-specific rows)
};
} // namespace

ComparePage::ComparePage(QWidget *parent) : QWidget(parent)
{
    m_hint =
        new QLabel(tr("Select 2 to %1 offers in the Offers table (Ctrl+click) to compare them side by side. "
                      "Differences are to the best offer in each row.")
                       .arg(kMaxOffers),
                   this);
    m_hint->setWordWrap(true);
    m_table = new QTableWidget(this);
    m_table->setObjectName(QStringLiteral("compareTable"));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_hint);
    layout->addWidget(m_table, 1);
}

int ComparePage::comparedCount() const
{
    return m_table->columnCount();
}

void ComparePage::setOffers(const QList<Offer> &offers, const QList<int> &rows, ProjectionResultsPtr results)
{
    QList<int> use = rows;
    if (use.size() > kMaxOffers)
        use.resize(kMaxOffers);
    if (use.size() < 2) {
        m_table->clear();
        m_table->setRowCount(0);
        m_table->setColumnCount(0);
        m_hint->setText(
            tr("Select 2 to %1 offers in the Offers table (Ctrl+click) to compare them side by side.")
                .arg(kMaxOffers));
        return;
    }
    m_hint->setText(
        rows.size() > kMaxOffers
            ? tr("Comparing the first %1 of %2 selected offers.").arg(kMaxOffers).arg(rows.size())
            : tr("Comparing %1 offers. In brackets: the difference to the best in the row.").arg(use.size()));

    // Prices in the display currency (linear: the bracketed differences convert the same way).
    const Currency cur = DisplayCurrency::instance().current();
    auto usd = [cur](double v) { return formatMoneyPerHour(v, cur); };
    QList<Row> table{
        {tr("Provider"), Better::None, nullptr,
         [](const Offer &o, const ProjectedOffer *) { return providerDisplayName(o.provider); }, nullptr},
        {tr("Region"), Better::None, nullptr,
         [](const Offer &o, const ProjectedOffer *) { return locationText(o); }, nullptr},
        {tr("GPU"), Better::None, nullptr,
         [](const Offer &o, const ProjectedOffer *) {
             const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
             return m ? m->name : o.gpuRawName + tr(" (unrecognised)");
         },
         nullptr},
        {tr("GPUs"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) -> std::optional<double> { return o.gpuCount; }, nullptr,
         [](double v) { return formatNumber(v); }},
        {tr("GPU memory (GB)"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) { return o.gpuMemGb; }, nullptr,
         [](double v) { return formatNumber(v); }},
        {tr("vCPUs"), Better::Higher, [](const Offer &o, const ProjectedOffer *) { return o.vcpus; }, nullptr,
         [](double v) { return formatNumber(v); }},
        {tr("RAM (GB)"), Better::Higher, [](const Offer &o, const ProjectedOffer *) { return o.ramGb; },
         nullptr, [](double v) { return formatNumber(v); }},
        {tr("Network (Gbps)"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) { return o.networkGbps; }, nullptr,
         [](double v) { return formatNumber(v); }},
        {tr("Upload (Gbps)"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) { return o.uploadGbps; }, nullptr,
         [](double v) { return formatNumber(v); }, true},
        {tr("DLPerf (vast.ai)"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) { return o.dlperf; }, nullptr,
         [](double v) { return QString::number(v, 'f', 1); }, true},
        {tr("Interconnect"), Better::None, nullptr,
         [](const Offer &o, const ProjectedOffer *) {
             return o.interconnect.isEmpty() ? QStringLiteral("–") : o.interconnect;
         },
         nullptr},
        {tr("On-demand (%1/h)").arg(cur.code), Better::Lower,
         [](const Offer &o, const ProjectedOffer *) { return o.onDemandUsdH; }, nullptr, usd},
        {tr("Spot (%1/h)").arg(cur.code), Better::Lower,
         [](const Offer &o, const ProjectedOffer *) { return o.spotUsdH; }, nullptr, usd},
        {tr("Price per GPU-hour (%1)").arg(cur.code), Better::Lower,
         [](const Offer &o, const ProjectedOffer *) { return o.usdPerGpuHour(); }, nullptr, usd},
        {tr("Spot saving (%)"), Better::Higher,
         [](const Offer &o, const ProjectedOffer *) { return o.spotSavingsPct(); }, nullptr,
         [](double v) { return QString::number(v, 'f', 0); }},
        {tr("Spot risk"), Better::None, nullptr,
         [](const Offer &o, const ProjectedOffer *) {
             if (!o.interruption.isEmpty())
                 return tr("%1 interruptions/month (AWS advisor)").arg(o.interruption);
             if (o.reliability)
                 return tr("%1% host reliability").arg(QString::number(*o.reliability * 100, 'f', 1));
             return o.spotUsdH ? tr("provider default rate") : QStringLiteral("–");
         },
         nullptr},
        {tr("Priced as"), Better::None, nullptr,
         [](const Offer &, const ProjectedOffer *p) {
             return p ? (p->mode == PriceMode::Spot ? tr("spot") : tr("on-demand")) : QStringLiteral("–");
         },
         nullptr},
        {tr("Projected time (h)"), Better::Lower,
         [](const Offer &, const ProjectedOffer *p) -> std::optional<double> {
             return p && p->projected ? std::optional<double>(p->totalHours) : std::nullopt;
         },
         nullptr, [](double v) { return QString::number(v, 'f', 2); }},
        {tr("Run cost (%1)").arg(cur.code), Better::Lower,
         [](const Offer &, const ProjectedOffer *p) -> std::optional<double> {
             return p && p->projected && p->costUsd > 0 ? std::optional<double>(p->costUsd) : std::nullopt;
         },
         nullptr, [cur](double v) { return formatMoney(v, cur); }},
        {tr("Samples per %1").arg(cur.code), Better::Higher,
         [](const Offer &, const ProjectedOffer *p) -> std::optional<double> {
             return p && p->samplesPerUsd > 0 ? std::optional<double>(p->samplesPerUsd) : std::nullopt;
         },
         nullptr, [cur](double v) { return QString::number(v / cur.unitsPerUsd, 'f', 0); }},
        {tr("On frontier"), Better::None, nullptr,
         [](const Offer &, const ProjectedOffer *p) {
             return p ? (p->onFrontier ? tr("yes ★") : tr("no")) : QStringLiteral("–");
         },
         nullptr},
        {tr("Flags"), Better::None, nullptr,
         [](const Offer &, const ProjectedOffer *p) {
             return p ? projectionFlagNames(p->flags).join(QStringLiteral(", ")) : QString();
         },
         nullptr},
    };

    table.removeIf([&](const Row &def) {
        return def.onlyWhenKnown && std::none_of(use.begin(), use.end(), [&](int row) {
                   return def.number(offers.at(row), nullptr).has_value();
               });
    });

    m_table->clear();
    m_table->setColumnCount(static_cast<int>(use.size()));
    m_table->setRowCount(static_cast<int>(table.size()));
    QStringList headers;
    QList<const ProjectedOffer *> points;
    for (int row : use) {
        const Offer &o = offers.at(row);
        headers.append(o.instanceType);
        const ProjectedOffer *p = nullptr;
        if (const qsizetype i = results ? results->pointForRow(row) : -1; i >= 0)
            p = &results->points.at(i);
        points.append(p);
    }
    m_table->setHorizontalHeaderLabels(headers);
    QStringList labels;
    for (int r = 0; r < table.size(); ++r) {
        const Row &def = table.at(r);
        labels.append(def.label);
        std::optional<double> best;
        QList<std::optional<double>> values;
        for (int c = 0; c < use.size(); ++c) {
            const auto v = def.number ? def.number(offers.at(use.at(c)), points.at(c)) : std::nullopt;
            values.append(v);
            if (v && def.better != Better::None &&
                (!best || (def.better == Better::Lower ? *v < *best : *v > *best)))
                best = v;
        }
        for (int c = 0; c < use.size(); ++c) {
            QString text;
            auto *item = new QTableWidgetItem;
            if (def.number) {
                const auto v = values.at(c);
                text = v ? def.format(*v) : QStringLiteral("–");
                if (v && best && def.better != Better::None) {
                    const double diff = *v - *best;
                    if (std::abs(diff) < 1e-12) {
                        QFont f = item->font();
                        f.setBold(true);
                        item->setFont(f);
                        item->setToolTip(tr("Best in this row"));
                    } else {
                        const double pct = *best != 0 ? 100.0 * diff / std::abs(*best) : 0;
                        text +=
                            QStringLiteral("  (%1%2, %3%4%)")
                                .arg(diff > 0 ? QStringLiteral("+") : QString(), def.format(diff),
                                     pct > 0 ? QStringLiteral("+") : QString(), QString::number(pct, 'f', 0));
                    }
                }
                item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
            } else {
                text = def.text(offers.at(use.at(c)), points.at(c));
            }
            item->setText(text);
            m_table->setItem(r, c, item);
        }
    }
    m_table->setVerticalHeaderLabels(labels);
}

} // namespace gf

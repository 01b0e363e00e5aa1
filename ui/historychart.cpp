#include "historychart.h"
#include "uistyle.h"

#include <QChart>
#include <QChartView>
#include <QDateTimeAxis>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QMap>
#include <QResizeEvent>
#include <QScatterSeries>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>

namespace gf {

HistoryChart::HistoryChart(QWidget *parent) : QWidget(parent)
{
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
    m_onDemand = new QLineSeries;
    m_onDemand->setName(tr("On-demand"));
    m_spot = new QLineSeries;
    m_spot->setName(tr("Spot / interruptible"));
    m_onDemandDots = new QScatterSeries;
    m_spotDots = new QScatterSeries;
    for (QScatterSeries *s : {m_onDemandDots, m_spotDots})
        s->setMarkerSize(7);
    for (auto *s : {static_cast<QXYSeries *>(m_onDemand), static_cast<QXYSeries *>(m_onDemandDots),
                    static_cast<QXYSeries *>(m_spot), static_cast<QXYSeries *>(m_spotDots)})
        m_chart->addSeries(s);
    m_axisX = new QDateTimeAxis;
    m_axisX->setFormat(QStringLiteral("yyyy-MM-dd"));
    m_axisX->setTitleText(tr("Snapshot fetched (UTC)"));
    m_axisY = new QValueAxis;
    m_axisY->setTitleText(tr("USD/h, whole instance"));
    m_axisY->setLabelFormat(QStringLiteral("%.2f"));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    for (QAbstractSeries *s : m_chart->series()) {
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    // The dot series only mark the snapshots; the legend shows the lines.
    for (QLegendMarker *m :
         m_chart->legend()->markers(m_onDemandDots) + m_chart->legend()->markers(m_spotDots))
        m->setVisible(false);
    m_view = new QChartView(m_chart, this);
    m_view->setRenderHint(QPainter::Antialiasing, true);
    m_view->setMinimumHeight(220);
    m_empty = new QLabel(this);
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setWordWrap(true);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view);
    layout->addWidget(m_empty);
    applyTheme();
    clear(tr("Choose an instance type to see its price history."));
}

void HistoryChart::applyTheme()
{
    // The theme colours the plot, axes and legend for the palette; the dots take their line's colour.
    m_chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    m_onDemandDots->setColor(m_onDemand->color());
    m_spotDots->setColor(m_spot->color());
    for (QScatterSeries *s : {m_onDemandDots, m_spotDots})
        s->setBorderColor(s->color());
    for (QLegendMarker *m :
         m_chart->legend()->markers(m_onDemandDots) + m_chart->legend()->markers(m_spotDots))
        m->setVisible(false);
}

void HistoryChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange &&
        m_chart->theme() != (isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight))
        applyTheme();
}

HistoryChart::~HistoryChart() = default;

QList<HistoryPoint> HistoryChart::pointsFrom(const QList<Offer> &rows)
{
    QMap<qint64, HistoryPoint> bySnapshot;
    for (const Offer &o : rows) {
        HistoryPoint &p = bySnapshot[o.snapshotId];
        p.snapshotId = o.snapshotId;
        p.when = o.fetchedAt;
        if (o.onDemandUsdH && (!p.onDemand || *o.onDemandUsdH < *p.onDemand))
            p.onDemand = o.onDemandUsdH;
        if (o.spotUsdH && (!p.spot || *o.spotUsdH < *p.spot))
            p.spot = o.spotUsdH;
    }
    QList<HistoryPoint> out = bySnapshot.values();
    std::sort(out.begin(), out.end(), [](const HistoryPoint &a, const HistoryPoint &b) {
        return a.when != b.when ? a.when < b.when : a.snapshotId < b.snapshotId;
    });
    return out;
}

void HistoryChart::clear(const QString &message)
{
    for (QXYSeries *s : {static_cast<QXYSeries *>(m_onDemand), static_cast<QXYSeries *>(m_spot),
                         static_cast<QXYSeries *>(m_onDemandDots), static_cast<QXYSeries *>(m_spotDots)})
        s->clear();
    m_chart->setTitle(QString());
    m_view->setVisible(false);
    m_empty->setText(message);
    m_empty->setVisible(true);
}

void HistoryChart::setHistory(const QString &title, const QList<HistoryPoint> &points)
{
    if (points.isEmpty()) {
        clear(tr("No stored price for %1.").arg(title));
        return;
    }
    QList<QPointF> od, spot;
    double lo = 1e300, hi = 0;
    QDateTime first = points.first().when, last = points.last().when;
    for (const HistoryPoint &p : points) {
        const double x = static_cast<double>(p.when.toMSecsSinceEpoch());
        if (p.onDemand) {
            od.append({x, *p.onDemand});
            lo = std::min(lo, *p.onDemand);
            hi = std::max(hi, *p.onDemand);
        }
        if (p.spot) {
            spot.append({x, *p.spot});
            lo = std::min(lo, *p.spot);
            hi = std::max(hi, *p.spot);
        }
    }
    m_onDemand->replace(od);
    m_onDemandDots->replace(od);
    m_spot->replace(spot);
    m_spotDots->replace(spot);
    if (first == last) { // one snapshot: show a day around it
        first = first.addSecs(-12 * 3600);
        last = last.addSecs(12 * 3600);
    }
    m_axisX->setRange(first, last);
    m_axisX->setFormat(first.daysTo(last) > 2 ? QStringLiteral("yyyy-MM-dd") : QStringLiteral("MM-dd HH:mm"));
    const double pad = std::max(0.01, (hi - lo) * 0.1);
    m_axisY->setRange(std::max(0.0, lo - pad), hi + pad);
    m_chart->setTitle(points.size() == 1
                          ? tr("%1 — 1 snapshot").arg(title)
                          : tr("%1 — %2 snapshots").arg(title, QString::number(points.size())));
    m_chart->setToolTip(tr("Each point is the cheapest zone or region of that snapshot, in USD per hour "
                           "for the whole instance."));
    m_empty->setVisible(false);
    m_view->setVisible(true);
}

void HistoryChart::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    // About one date label per 120 px, so that labels are never elided.
    m_axisX->setTickCount(std::clamp(width() / 120, 2, 8));
}

int HistoryChart::onDemandPointCount() const
{
    return static_cast<int>(m_onDemand->count());
}

int HistoryChart::spotPointCount() const
{
    return static_cast<int>(m_spot->count());
}

} // namespace gf

#include "frontierchart.h"
#include "uistyle.h"

#include "domain/offer.h"

#include <QApplication>
#include <QAreaSeries>
#include <QChart>
#include <QChartView>
#include <QFont>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPalette>
#include <QRubberBand>
#include <QScatterSeries>
#include <QScreen>
#include <QStyle>
#include <QToolTip>
#include <QVBoxLayout>
#include <QValueAxis>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <vector>

namespace gf {

/// Rubber-band zoom, wheel zoom, right click or Escape resets. Hover and click on points are hit-tested
/// here, on the view's own mouse events: QChartView's rubber band takes every left press in the plot
/// (so the series' clicked signal never came), and the OpenGL series used for large point sets have no
/// per-marker hover items. A left press and release within the drag distance is a click, not a zoom.
class ZoomableChartView final : public QChartView
{
public:
    explicit ZoomableChartView(QChart *chart, QWidget *parent) : QChartView(chart, parent)
    {
        setRubberBand(QChartView::RectangleRubberBand);
        setRenderHint(QPainter::Antialiasing, true);
        setMouseTracking(true);
        viewport()->setMouseTracking(true); // hover without a button held
    }
    std::function<void(const QPoint &)> onHover;
    std::function<void(const QPoint &)> onClick;
    std::function<void()> onLeave;

protected:
    void wheelEvent(QWheelEvent *event) override
    {
        const double steps = event->angleDelta().y() / 120.0;
        if (steps != 0)
            chart()->zoom(std::pow(1.25, steps));
        event->accept();
    }
    void keyPressEvent(QKeyEvent *event) override
    {
        if (event->key() == Qt::Key_Escape || event->key() == Qt::Key_0)
            chart()->zoomReset();
        else if (event->key() == Qt::Key_Plus || event->key() == Qt::Key_Equal)
            chart()->zoomIn();
        else if (event->key() == Qt::Key_Minus)
            chart()->zoomOut();
        else
            QChartView::keyPressEvent(event);
    }
    void mousePressEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::LeftButton)
            m_leftPress = event->position().toPoint();
        QChartView::mousePressEvent(event);
    }
    void mouseMoveEvent(QMouseEvent *event) override
    {
        if (event->buttons() == Qt::NoButton && onHover)
            onHover(event->position().toPoint());
        QChartView::mouseMoveEvent(event);
    }
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::LeftButton && m_leftPress) {
            const QPoint press = *m_leftPress;
            m_leftPress.reset();
            if ((event->position().toPoint() - press).manhattanLength() < QApplication::startDragDistance()) {
                // A click: no zoom into a rectangle of a pixel or two.
                for (QRubberBand *band : findChildren<QRubberBand *>())
                    band->hide();
                if (onClick)
                    onClick(event->position().toPoint());
                event->accept();
                return;
            }
        }
        QChartView::mouseReleaseEvent(event);
    }
    void leaveEvent(QEvent *event) override
    {
        if (onLeave)
            onLeave();
        QChartView::leaveEvent(event);
    }

private:
    std::optional<QPoint> m_leftPress;
};

namespace {

// The plot background of ChartThemeDark (the lighter end of its gradient) and ChartThemeLight.
QColor plotBackground(bool dark)
{
    return dark ? QColor(0x2e, 0x30, 0x3a) : QColor(Qt::white);
}

// The provider's colour; on the dark theme lightened where it would not stand out from the plot
// (Paperspace's purple, vast.ai's pink): at least 3:1, as the points and the legend need.
QColor providerColor(int provider, bool dark)
{
    const QList<ProviderInfo> &list = providers();
    const QColor c = QColor::fromRgb(provider >= 0 && provider < list.size() ? list.at(provider).colourRgb
                                                                             : kOtherProviderColourRgb);
    return dark ? readableOn(c, plotBackground(true)) : c;
}

// Dominated points are faded with alpha, which the OpenGL series ignore: there they get the same
// look as an opaque blend of the provider colour into the plot background (that of ChartThemeLight /
// ChartThemeDark, whose brushes are gradients).
QColor dominatedColor(int provider, bool openGl, bool dark)
{
    QColor c = providerColor(provider, dark);
    if (!openGl) {
        c.setAlpha(70);
        return c;
    }
    const QColor background = plotBackground(dark);
    const double a = 70.0 / 255.0;
    return QColor::fromRgbF(float(a * c.redF() + (1 - a) * background.redF()),
                            float(a * c.greenF() + (1 - a) * background.greenF()),
                            float(a * c.blueF() + (1 - a) * background.blueF()));
}

/// An axis's current range (zoomed or not) and whether it is logarithmic; `known` is false for an axis of
/// another kind (none is made).
struct AxisRange
{
    double lo = 0;
    double hi = 1;
    bool log = false;
    bool known = false;
};

AxisRange axisRange(QAbstractAxis *a)
{
    if (auto *v = qobject_cast<QValueAxis *>(a))
        return {v->min(), v->max(), false, true};
    if (auto *l = qobject_cast<QLogValueAxis *>(a))
        return {l->min(), l->max(), true, true};
    return {};
}

} // namespace

// A log axis labels only the powers of its base: a view inside one decade (a zoom to 3-5 h) showed no
// label at all. The base shrinks to 10^(1/k) for the smallest k of a few that puts at least three ticks
// inside the range (k = 1, base 10, where the range spans enough decades), and the labels get the
// decimals that tell neighbouring ticks apart.
void fitLogTicks(QLogValueAxis *axis)
{
    const double lo = axis->min(), hi = axis->max();
    if (!(lo > 0 && hi > lo) || !std::isfinite(hi))
        return;
    int k = 1;
    for (int candidate : {1, 2, 3, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000}) {
        k = candidate;
        const double first = std::ceil(k * std::log10(lo) - 1e-9);
        const double last = std::floor(k * std::log10(hi) + 1e-9);
        if (last - first + 1 >= 3)
            break;
    }
    const double base = k == 1 ? 10.0 : std::pow(10.0, 1.0 / k);
    QString format = QStringLiteral("%g");
    if (k > 1) {
        const double step = lo * (base - 1); // the smallest gap between two ticks in range
        const int decimals = std::clamp(static_cast<int>(std::ceil(-std::log10(step))), 0, 9);
        format = QStringLiteral("%.%1f").arg(decimals);
    }
    if (axis->base() != base)
        axis->setBase(base);
    axis->setMinorTickCount(k == 1 ? 8 : 0); // 2..9 between decades; none between the finer ticks
    if (axis->labelFormat() != format)
        axis->setLabelFormat(format);
}

FrontierChart::FrontierChart(QWidget *parent) : QWidget(parent)
{
    m_chart = new QChart;
    m_chart->setAnimationOptions(QChart::NoAnimation);
    m_chart->setTheme(isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    // On the right, one entry a line: each gets the width of its whole label (at the bottom they shared
    // the chart's width and were cut, "Within deadlin…"); with 14 providers and the guides, a smaller
    // font keeps the column within the chart's height.
    m_chart->legend()->setAlignment(Qt::AlignRight);
    if (knownProviders().size() > 6) {
        QFont small = m_chart->legend()->font();
        small.setPointSizeF(small.pointSizeF() * 0.85);
        m_chart->legend()->setFont(small);
    }
    m_chart->setTitle(tr("Cost of the run vs training time — lower left is better"));
    m_view = new ZoomableChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("frontierChartView"));
    m_view->onHover = [this](const QPoint &pos) { onHovered(pos); };
    m_view->onClick = [this](const QPoint &pos) { onClicked(pos); };
    m_view->onLeave = [this] { hideHoverTip(); };
    // The hover tip: a tooltip-coloured label over the plot; mouse events pass through it to the view.
    m_hoverTip = new QLabel(m_view->viewport());
    m_hoverTip->setObjectName(QStringLiteral("frontierHoverTip"));
    m_hoverTip->setAttribute(Qt::WA_TransparentForMouseEvents);
    m_hoverTip->setTextFormat(Qt::RichText);
    m_hoverTip->setWordWrap(true);
    m_hoverTip->setFrameShape(QFrame::Box);
    m_hoverTip->setMargin(6);
    m_hoverTip->setAutoFillBackground(true);
    m_hoverTip->setBackgroundRole(QPalette::ToolTipBase);
    m_hoverTip->setForegroundRole(QPalette::ToolTipText);
    m_hoverTip->setFont(QToolTip::font());
    m_hoverTip->hide();
    connect(m_chart, &QChart::plotAreaChanged, this, &FrontierChart::scheduleDraw); // a resize

    const QStringList providers = knownProviders();
    m_providerVisible = QList<bool>(providers.size(), true);

    // Feasible region first so that it is drawn below the points.
    m_feasibleUpper = new QLineSeries(this);
    m_feasibleLower = new QLineSeries(this);
    m_feasible = new QAreaSeries(m_feasibleUpper, m_feasibleLower);
    m_feasible->setName(tr("Within deadline and budget"));
    QColor feasibleColor(0x2e, 0xcc, 0x71);
    feasibleColor.setAlpha(40);
    m_feasible->setBrush(feasibleColor);
    m_feasible->setPen(Qt::NoPen);
    m_chart->addSeries(m_feasible);

    for (int p = 0; p < providers.size(); ++p) {
        for (int spot = 0; spot < 2; ++spot) {
            for (int dominated = 0; dominated < 2; ++dominated) {
                auto *s = new QScatterSeries(this);
                s->setName(providerDisplayName(providers.at(p)) + (spot ? tr(" spot") : QString()));
                s->setMarkerShape(spot ? QScatterSeries::MarkerShapeRectangle
                                       : QScatterSeries::MarkerShapeCircle);
                s->setMarkerSize(dominated ? 6.0 : 9.0);
                QColor c = providerColor(p, false); // applyColours sets the palette's colours
                if (dominated)
                    c.setAlpha(70);
                s->setColor(c);
                s->setBorderColor(dominated ? Qt::transparent : c.darker(140));
                m_chart->addSeries(s);
                m_series.append({s, {}, p, {}, {}});
            }
        }
    }

    // The frontier's likely range below the frontier line.
    m_bandUpper = new QLineSeries(this);
    m_bandLower = new QLineSeries(this);
    m_band = new QAreaSeries(m_bandUpper, m_bandLower);
    m_band->setName(tr("Frontier likely range (p10–p90)"));
    QColor bandColor = isDarkPalette(palette()) ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22);
    bandColor.setAlpha(28);
    m_band->setBrush(bandColor);
    m_band->setPen(Qt::NoPen);
    m_chart->addSeries(m_band);

    m_frontier = new QLineSeries(this);
    m_frontier->setName(tr("Efficiency frontier"));
    QPen fp(isDarkPalette(palette()) ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
    fp.setWidthF(2.0);
    m_frontier->setPen(fp);
    m_chart->addSeries(m_frontier);

    m_deadline = new QLineSeries(this);
    m_deadline->setName(tr("Deadline"));
    QPen dp(errorColor(palette()));
    dp.setStyle(Qt::DashLine);
    dp.setWidthF(1.5);
    m_deadline->setPen(dp);
    m_chart->addSeries(m_deadline);
    m_budget = new QLineSeries(this);
    m_budget->setName(tr("Budget"));
    QPen bp(QColor(0x27, 0xae, 0x60));
    bp.setStyle(Qt::DashLine);
    bp.setWidthF(1.5);
    m_budget->setPen(bp);
    m_chart->addSeries(m_budget);

    m_recommended = new QScatterSeries(this);
    m_recommended->setName(tr("Recommended"));
    m_recommended->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_recommended->setMarkerSize(20.0);
    m_recommended->setColor(Qt::transparent);
    QPen rp(QColor(0xf1, 0xc4, 0x0f));
    rp.setWidthF(3.0);
    m_recommended->setPen(rp);
    m_chart->addSeries(m_recommended);

    m_selected = new QScatterSeries(this);
    m_selected->setName(tr("Selected"));
    m_selected->setMarkerShape(QScatterSeries::MarkerShapeCircle);
    m_selected->setMarkerSize(16.0);
    m_selected->setColor(Qt::transparent);
    QPen sp(isDarkPalette(palette()) ? Qt::white : Qt::black);
    sp.setWidthF(2.0);
    m_selected->setPen(sp);
    m_chart->addSeries(m_selected);

    // Legend: one entry per provider (toggles it) plus the guides; the rest is hidden.
    const auto markers = m_chart->legend()->markers();
    for (QLegendMarker *marker : markers) {
        QAbstractSeries *series = marker->series();
        int provider = -1;
        bool firstOfProvider = false;
        for (qsizetype i = 0; i < m_series.size(); ++i) {
            if (m_series.at(i).series == series) {
                provider = m_series.at(i).provider;
                firstOfProvider = (i % 4) == 0;
            }
        }
        if (provider >= 0) {
            marker->setVisible(firstOfProvider);
            if (firstOfProvider) {
                marker->setLabel(providerDisplayName(providers.at(provider)));
                connect(marker, &QLegendMarker::clicked, this,
                        [this, provider] { setProviderVisible(provider, !providerVisible(provider)); });
            }
        } else if (series == m_feasible || series == m_selected || series == m_band) {
            marker->setVisible(false);
        }
    }

    m_emptyLabel = new QLabel(tr("No offer can be projected with the current workload and filters."), this);
    m_emptyLabel->setAlignment(Qt::AlignCenter);
    m_emptyLabel->hide();

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_emptyLabel);
    applyColours(); // palette-aware guide colours (a lighter red deadline on a dark palette)
    rebuildAxes();
}

FrontierChart::~FrontierChart() = default;

void FrontierChart::setShowUncertainty(bool on)
{
    m_showUncertainty = on;
    m_band->setVisible(on && m_bandUpper->count() > 0);
}

int FrontierChart::uncertaintyBandPointCount() const
{
    return m_band->isVisible() ? static_cast<int>(m_bandUpper->count()) : 0;
}

void FrontierChart::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange || !m_chart)
        return;
    const QChart::ChartTheme theme =
        isDarkPalette(palette()) ? QChart::ChartThemeDark : QChart::ChartThemeLight;
    if (m_chart->theme() == theme)
        return;
    m_chart->setTheme(theme); // resets every series' colours, the axes and the legend
    applyColours();
    applyGridColours();
}

void FrontierChart::applyColours()
{
    const bool dark = isDarkPalette(palette());
    QColor feasibleColor(0x2e, 0xcc, 0x71);
    feasibleColor.setAlpha(40);
    m_feasible->setBrush(feasibleColor);
    m_feasible->setPen(Qt::NoPen);
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        QScatterSeries *s = m_series[i].series;
        const bool dominated = i % 2 == 1;
        const QColor c = dominated ? dominatedColor(m_series[i].provider, s->useOpenGL(), dark)
                                   : providerColor(m_series[i].provider, dark);
        s->setColor(c);
        s->setBorderColor(dominated ? QColor(Qt::transparent) : c.darker(140));
    }
    QPen fp(dark ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22));
    fp.setWidthF(2.0);
    m_frontier->setPen(fp);
    QPen dp(errorColor(palette()));
    dp.setStyle(Qt::DashLine);
    dp.setWidthF(1.5);
    m_deadline->setPen(dp);
    QPen bp(dark ? QColor(0x58, 0xd6, 0x8d) : QColor(0x27, 0xae, 0x60));
    bp.setStyle(Qt::DashLine);
    bp.setWidthF(1.5);
    m_budget->setPen(bp);
    m_recommended->setColor(Qt::transparent);
    QPen rp(QColor(0xf1, 0xc4, 0x0f));
    rp.setWidthF(3.0);
    m_recommended->setPen(rp);
    m_selected->setColor(Qt::transparent);
    QPen sp(dark ? Qt::white : Qt::black);
    sp.setWidthF(2.0);
    m_selected->setPen(sp);
    QColor bandColor = dark ? QColor(0xee, 0xee, 0xee) : QColor(0x22, 0x22, 0x22);
    bandColor.setAlpha(28);
    m_band->setBrush(bandColor);
    m_band->setPen(Qt::NoPen);
    // The legend: one entry per provider (faded while hidden) plus the guides.
    const auto markers = m_chart->legend()->markers();
    for (QLegendMarker *marker : markers) {
        QAbstractSeries *series = marker->series();
        for (qsizetype i = 0; i < m_series.size(); ++i) {
            if (m_series.at(i).series != series)
                continue;
            marker->setVisible(i % 4 == 0);
            if (i % 4 == 0 && !providerVisible(m_series.at(i).provider)) {
                QColor c = marker->labelBrush().color();
                c.setAlphaF(0.4);
                marker->setLabelBrush(c);
            }
        }
        if (series == m_feasible || series == m_selected || series == m_band)
            marker->setVisible(false);
        // The recommended series is a ring (a transparent fill): its legend square shows the ring's
        // colour, not the fill (which left a dark square on the dark theme).
        if (series == m_recommended) {
            marker->setBrush(rp.color());
            marker->setPen(QPen(dark ? rp.color() : rp.color().darker(150)));
        }
    }
}

QChart *FrontierChart::chart() const
{
    return m_chart;
}

void FrontierChart::setPoints(const QList<ChartPoint> &points, std::optional<double> deadlineHours,
                              std::optional<double> budgetUsd, std::optional<int> recommendedId)
{
    setPrepared(prepare(points, deadlineHours, budgetUsd, recommendedId, m_series.size()));
}

PreparedChartPoints FrontierChart::prepare(QList<ChartPoint> points, std::optional<double> deadlineHours,
                                           std::optional<double> budgetUsd, std::optional<int> recommendedId,
                                           qsizetype seriesCount)
{
    PreparedChartPoints r;
    r.points = std::move(points);
    r.deadlineHours = deadlineHours;
    r.budgetUsd = budgetUsd;
    r.all.resize(seriesCount);
    r.allIds.resize(seriesCount);
    r.byId.reserve(r.points.size());
    double minX = INFINITY, maxX = 0, minY = INFINITY, maxY = 0;
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ChartPoint &p = r.points.at(i);
        if (!(p.hours > 0) || !(p.costUsd > 0) || !std::isfinite(p.hours) || !std::isfinite(p.costUsd))
            continue; // log axes need positive values; such points do not exist in a valid projection
        r.byId.insert(p.id, i);
        const qsizetype series = qsizetype(p.provider) * 4 + (p.spot ? 2 : 0) + (p.onFrontier ? 0 : 1);
        if (p.provider < 0 || series >= seriesCount)
            continue;
        r.all[series].append(QPointF(p.hours, p.costUsd));
        r.allIds[series].append(p.id);
        if (p.onFrontier) {
            r.frontier.append(QPointF(p.hours, p.costUsd));
            if (p.hoursLow > 0 && p.hoursHigh > 0 && p.costLow > 0 && p.costHigh > 0) {
                r.bandUpper.append(QPointF(p.hoursHigh, p.costHigh));
                r.bandLower.append(QPointF(p.hoursLow, p.costLow));
            }
        }
        minX = std::min(minX, p.hours);
        maxX = std::max(maxX, p.hours);
        minY = std::min(minY, p.costUsd);
        maxY = std::max(maxY, p.costUsd);
    }
    std::sort(r.frontier.begin(), r.frontier.end(), [](const QPointF &a, const QPointF &b) {
        return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
    });
    auto byX = [](const QPointF &a, const QPointF &b) { return a.x() < b.x(); };
    std::sort(r.bandUpper.begin(), r.bandUpper.end(), byX);
    std::sort(r.bandLower.begin(), r.bandLower.end(), byX);
    if (recommendedId) {
        if (auto it = r.byId.constFind(*recommendedId); it != r.byId.constEnd())
            r.recommended = QPointF(r.points.at(*it).hours, r.points.at(*it).costUsd);
    }
    if (minX == INFINITY) {
        minX = 0.1;
        maxX = 10;
        minY = 1;
        maxY = 100;
    }
    if (deadlineHours && *deadlineHours > 0) {
        minX = std::min(minX, *deadlineHours);
        maxX = std::max(maxX, *deadlineHours);
    }
    if (budgetUsd && *budgetUsd > 0) {
        minY = std::min(minY, *budgetUsd);
        maxY = std::max(maxY, *budgetUsd);
    }
    r.minX = minX;
    r.maxX = maxX;
    r.minY = minY;
    r.maxY = maxY;
    return r;
}

void FrontierChart::setPrepared(PreparedChartPoints prepared)
{
    m_points = std::move(prepared.points);
    m_byId = std::move(prepared.byId);
    m_deadline_h = prepared.deadlineHours;
    m_budget_usd = prepared.budgetUsd;
    ++m_pointsGeneration;
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        m_series[i].all = i < prepared.all.size() ? std::move(prepared.all[i]) : QList<QPointF>();
        m_series[i].allIds = i < prepared.allIds.size() ? std::move(prepared.allIds[i]) : QList<int>();
    }
    m_frontier->replace(prepared.frontier);
    m_bandUpper->replace(prepared.bandUpper);
    m_bandLower->replace(prepared.bandLower);
    m_band->setVisible(m_showUncertainty && prepared.bandUpper.size() > 0);
    QList<QPointF> rec;
    if (prepared.recommended)
        rec.append(*prepared.recommended);
    m_recommended->replace(rec);
    m_minX = prepared.minX;
    m_maxX = prepared.maxX;
    m_minY = prepared.minY;
    m_maxY = prepared.maxY;
    m_emptyLabel->setVisible(m_byId.isEmpty());
    setSelectedIds({});
    // Antialiasing costs more than it gives with tens of thousands of markers.
    m_view->setRenderHint(QPainter::Antialiasing, m_byId.size() < 10000);
    applyRanges();
    drawSeries(); // now, for the ranges just set (a zoom or resize later draws again)
}

void FrontierChart::scheduleDraw()
{
    hideHoverTip(); // the points move (zoom, resize, new points): the tip would point at nothing
    if (m_drawScheduled)
        return;
    m_drawScheduled = true;
    QMetaObject::invokeMethod(
        this,
        [this] {
            m_drawScheduled = false;
            drawSeries();
        },
        Qt::QueuedConnection);
}

void FrontierChart::drawSeries()
{
    int total = 0;
    for (const SeriesInfo &s : std::as_const(m_series))
        total += static_cast<int>(s.all.size());
    const bool thin = total > kThinAbove;
    // The plot in pixels and the axes' current ranges (zoomed or not): a point's cell of kCell x kCell
    // pixels. Points outside the view are not drawn while thinning (they could not be seen).
    constexpr double kCell = 3.0;
    const QRectF plot = m_chart->plotArea();
    const double width = plot.width() > 10 ? plot.width() : 800;
    const double height = plot.height() > 10 ? plot.height() : 500;
    const AxisRange x = axisRange(m_axisX);
    const AxisRange y = axisRange(m_axisY);
    // What decides the drawing: the points, and while thinning the view and its size. The same again (a
    // range signal after setPoints drew, a resize that kept the plot) draws nothing.
    DrawnView view;
    view.points = m_pointsGeneration;
    view.thin = thin;
    if (thin)
        view.view = {x.lo, x.hi, double(x.log), y.lo, y.hi, double(y.log), width, height};
    if (m_drawn && *m_drawn == view)
        return;
    m_drawn = view;
    auto scale = [](double v, double lo, double hi, bool log) {
        if (log)
            return v > 0 && lo > 0 && hi > lo ? (std::log(v) - std::log(lo)) / (std::log(hi) - std::log(lo))
                                              : -1.0;
        return hi > lo ? (v - lo) / (hi - lo) : -1.0;
    };
    const int cols = static_cast<int>(width / kCell) + 1;
    const int rows = static_cast<int>(height / kCell) + 1;
    std::vector<quint32> stamp(thin ? static_cast<std::size_t>(cols) * static_cast<std::size_t>(rows) : 0, 0);
    quint32 generation = 0;

    const bool useGl = total > 20000 && QGuiApplication::platformName() != u"offscreen" &&
                       QGuiApplication::platformName() != u"minimal";
    for (qsizetype i = 0; i < m_series.size(); ++i) {
        SeriesInfo &info = m_series[i];
        const bool dominated = i % 2 == 1; // efficient points (the frontier) are always drawn
        QList<QPointF> drawn;
        if (!thin || !dominated) {
            drawn = info.all;
            info.ids = info.allIds;
        } else {
            ++generation;
            info.ids.clear();
            for (qsizetype k = 0; k < info.all.size(); ++k) {
                const QPointF &pt = info.all.at(k);
                const double fx = scale(pt.x(), x.lo, x.hi, x.log);
                const double fy = scale(pt.y(), y.lo, y.hi, y.log);
                if (fx < 0 || fx > 1 || fy < 0 || fy > 1)
                    continue;
                const std::size_t cell =
                    static_cast<std::size_t>(fy * (rows - 1)) * static_cast<std::size_t>(cols) +
                    static_cast<std::size_t>(fx * (cols - 1));
                if (stamp[cell] == generation)
                    continue;
                stamp[cell] = generation;
                drawn.append(pt);
                info.ids.append(info.allIds.at(k));
            }
        }
        QScatterSeries *s = info.series;
        if (s->useOpenGL() != useGl && dominated)
            s->setColor(dominatedColor(info.provider, useGl, isDarkPalette(palette())));
        s->setUseOpenGL(useGl);
        s->replace(drawn);
    }
}

void FrontierChart::applyRanges()
{
    if (auto *lx = qobject_cast<QLogValueAxis *>(m_axisX); lx && m_logX) {
        lx->setRange(std::pow(10.0, std::floor(std::log10(m_minX * 0.9))),
                     std::pow(10.0, std::ceil(std::log10(m_maxX * 1.1))));
    } else if (auto *vx = qobject_cast<QValueAxis *>(m_axisX); vx && !m_logX) {
        vx->setRange(0, m_maxX * 1.05);
        vx->applyNiceNumbers();
    } else {
        rebuildAxes();
        return;
    }
    if (auto *ly = qobject_cast<QLogValueAxis *>(m_axisY); ly && m_logY) {
        ly->setRange(std::pow(10.0, std::floor(std::log10(m_minY * 0.9))),
                     std::pow(10.0, std::ceil(std::log10(m_maxY * 1.1))));
    } else if (auto *vy = qobject_cast<QValueAxis *>(m_axisY); vy && !m_logY) {
        vy->setRange(0, m_maxY * 1.05);
        vy->applyNiceNumbers();
    } else {
        rebuildAxes();
        return;
    }
    m_chart->zoomReset();
    updateGuides();
}

void FrontierChart::updateGuides()
{
    const AxisRange ax = axisRange(m_axisX);
    const AxisRange ay = axisRange(m_axisY);
    const double x0 = ax.known ? ax.lo : m_minX, x1 = ax.known ? ax.hi : m_maxX;
    const double y0 = ay.known ? ay.lo : m_minY, y1 = ay.known ? ay.hi : m_maxY;
    QList<QPointF> d, b, upper, lower;
    if (m_deadline_h)
        d = {QPointF(*m_deadline_h, y0), QPointF(*m_deadline_h, y1)};
    if (m_budget_usd)
        b = {QPointF(x0, *m_budget_usd), QPointF(x1, *m_budget_usd)};
    if (m_deadline_h || m_budget_usd) {
        const double right = m_deadline_h ? *m_deadline_h : x1;
        const double top = m_budget_usd ? *m_budget_usd : y1;
        upper = {QPointF(x0, top), QPointF(right, top)};
        lower = {QPointF(x0, y0), QPointF(right, y0)};
    }
    m_deadline->replace(d);
    m_budget->replace(b);
    m_feasibleUpper->replace(upper);
    m_feasibleLower->replace(lower);
    m_deadline->setVisible(m_deadline_h.has_value());
    m_budget->setVisible(m_budget_usd.has_value());
    m_feasible->setVisible(m_deadline_h || m_budget_usd);
}

void FrontierChart::setCostUnit(const QString &code)
{
    m_costUnit = code;
    if (m_axisY)
        m_axisY->setTitleText(tr("Run cost (%1)").arg(m_costUnit));
}

void FrontierChart::rebuildAxes()
{
    const auto series = m_chart->series();
    for (QAbstractAxis *a : m_chart->axes())
        m_chart->removeAxis(a);
    delete m_axisX;
    delete m_axisY;
    auto make = [](bool log, double lo, double hi, const QString &title,
                   const QString &format) -> QAbstractAxis * {
        if (log) {
            auto *a = new QLogValueAxis;
            a->setBase(10);
            a->setMin(std::pow(10.0, std::floor(std::log10(lo * 0.9))));
            a->setMax(std::pow(10.0, std::ceil(std::log10(hi * 1.1))));
            a->setLabelFormat(format);
            a->setMinorTickCount(8);
            a->setTitleText(title);
            return a;
        }
        auto *a = new QValueAxis;
        a->setRange(0, hi * 1.05);
        a->setLabelFormat(format);
        a->applyNiceNumbers();
        a->setTitleText(title);
        return a;
    };
    m_axisX = make(m_logX, m_minX, m_maxX, tr("Training time (hours, incl. setup and spot overhead)"),
                   QStringLiteral("%g"));
    m_axisY = make(m_logY, m_minY, m_maxY, tr("Run cost (%1)").arg(m_costUnit), QStringLiteral("%g"));
    m_chart->addAxis(m_axisX, Qt::AlignBottom);
    m_chart->addAxis(m_axisY, Qt::AlignLeft);
    // A zoom, a pan or a reset changes the ranges: the thinned series are drawn again for the new view.
    for (QAbstractAxis *a : {m_axisX, m_axisY}) {
        if (auto *v = qobject_cast<QValueAxis *>(a))
            connect(v, &QValueAxis::rangeChanged, this, &FrontierChart::scheduleDraw);
        else if (auto *l = qobject_cast<QLogValueAxis *>(a)) {
            connect(l, &QLogValueAxis::rangeChanged, this, &FrontierChart::scheduleDraw);
            connect(l, &QLogValueAxis::rangeChanged, l, [l] { fitLogTicks(l); });
            fitLogTicks(l);
        }
    }
    for (QAbstractSeries *s : series) {
        s->attachAxis(m_axisX);
        s->attachAxis(m_axisY);
    }
    applyGridColours();
    updateGuides();
    scheduleDraw();
}

void FrontierChart::applyGridColours()
{
    if (!isDarkPalette(palette()))
        return; // ChartThemeLight's own grid: faint minor lines already
    for (QAbstractAxis *a : {m_axisX, m_axisY}) {
        if (!a)
            continue;
        QPen minor = a->minorGridLinePen();
        minor.setColor(QColor(0x45, 0x48, 0x52)); // about 1.4:1 on the plot: visible, behind the points
        a->setMinorGridLinePen(minor);
    }
}

void FrontierChart::setLogX(bool on)
{
    if (m_logX == on)
        return;
    m_logX = on;
    rebuildAxes();
    Q_EMIT logAxesChanged(m_logX, m_logY);
}

void FrontierChart::setLogY(bool on)
{
    if (m_logY == on)
        return;
    m_logY = on;
    rebuildAxes();
    Q_EMIT logAxesChanged(m_logX, m_logY);
}

void FrontierChart::resetZoom()
{
    m_chart->zoomReset();
}

void FrontierChart::setProviderVisible(int provider, bool visible)
{
    if (provider < 0 || provider >= m_providerVisible.size())
        return;
    m_providerVisible[provider] = visible;
    for (SeriesInfo &s : m_series) {
        if (s.provider != provider)
            continue;
        s.series->setVisible(visible);
    }
    // Keep the provider's legend entry visible (faded when off) so it can be toggled back.
    for (QLegendMarker *marker : m_chart->legend()->markers()) {
        for (qsizetype i = 0; i < m_series.size(); i += 4) {
            if (marker->series() == m_series.at(i).series && m_series.at(i).provider == provider) {
                marker->setVisible(true);
                QColor c = marker->labelBrush().color();
                c.setAlphaF(visible ? 1.0 : 0.4);
                marker->setLabelBrush(c);
            }
        }
    }
}

bool FrontierChart::providerVisible(int provider) const
{
    return m_providerVisible.value(provider, false);
}

int FrontierChart::pointCount() const
{
    int n = 0;
    for (const SeriesInfo &s : m_series)
        n += static_cast<int>(s.all.size());
    return n;
}

int FrontierChart::drawnPointCount() const
{
    int n = 0;
    for (const SeriesInfo &s : m_series)
        n += s.series->count();
    return n;
}

int FrontierChart::frontierPointCount() const
{
    return m_frontier->count();
}

int FrontierChart::selectedCount() const
{
    return m_selected->count();
}

QImage FrontierChart::grabImage()
{
    return m_view->grab().toImage();
}

void FrontierChart::setSelectedIds(const QList<int> &ids)
{
    QList<QPointF> pts;
    for (int id : ids) {
        if (auto it = m_byId.constFind(id); it != m_byId.constEnd())
            pts.append(QPointF(m_points.at(*it).hours, m_points.at(*it).costUsd));
    }
    m_selected->replace(pts);
}

int FrontierChart::pointAt(const QPoint &viewportPos) const
{
    // The marker under the cursor: the nearest drawn point within its marker's radius plus a little.
    const QPointF pos = m_chart->mapFromScene(m_view->mapToScene(viewportPos));
    constexpr double kSlack = 3.0;
    if (!m_chart->plotArea().adjusted(-kSlack, -kSlack, kSlack, kSlack).contains(pos))
        return -1;
    int best = -1;
    double bestD = INFINITY;
    for (const SeriesInfo &s : m_series) {
        if (!s.series->isVisible())
            continue;
        const double radius = s.series->markerSize() / 2 + kSlack;
        const QList<QPointF> pts = s.series->points();
        for (qsizetype i = 0; i < pts.size() && i < s.ids.size(); ++i) {
            const QPointF at = m_chart->mapToPosition(pts.at(i), s.series);
            const double d = std::hypot(at.x() - pos.x(), at.y() - pos.y());
            if (d <= radius && d < bestD) {
                bestD = d;
                best = s.ids.at(i);
            }
        }
    }
    return best;
}

QPoint FrontierChart::hoverTipPosition(const QPoint &cursor, const QSize &tip, const QRect &area)
{
    constexpr int kGap = 16; // clear of the cursor's arrow
    int x = cursor.x() + kGap;
    if (x + tip.width() > area.right() && cursor.x() - kGap - tip.width() >= area.left())
        x = cursor.x() - kGap - tip.width();
    int y = cursor.y() + kGap;
    if (y + tip.height() > area.bottom() && cursor.y() - kGap - tip.height() >= area.top())
        y = cursor.y() - kGap - tip.height();
    // Too big for either side: inside the view all the same (beside the cursor horizontally if it can).
    x = std::clamp(x, area.left(), std::max(area.left(), area.right() - tip.width()));
    y = std::clamp(y, area.top(), std::max(area.top(), area.bottom() - tip.height()));
    return {x, y};
}

void FrontierChart::hideHoverTip()
{
    m_hoverTip->hide();
    m_hoverId = -1;
}

void FrontierChart::onHovered(const QPoint &viewportPos)
{
    const int id = pointAt(viewportPos);
    if (id < 0 || !m_tooltip) {
        hideHoverTip();
        return;
    }
    // Shown while the cursor is on the marker, beside the cursor and inside the view.
    if (id != m_hoverId || !m_hoverTip->isVisible()) {
        m_hoverId = id;
        m_hoverTip->setText(m_tooltip(id));
        m_hoverTip->setMaximumWidth(std::max(200, std::min(460, m_view->viewport()->width() - 8)));
        m_hoverTip->adjustSize();
    }
    m_hoverTip->move(hoverTipPosition(viewportPos, m_hoverTip->size(), m_view->viewport()->rect()));
    m_hoverTip->show();
    m_hoverTip->raise();
}

void FrontierChart::onClicked(const QPoint &viewportPos)
{
    const int id = pointAt(viewportPos);
    if (id >= 0) {
        setSelectedIds({id});
        Q_EMIT pointClicked(id);
    }
}

} // namespace gf

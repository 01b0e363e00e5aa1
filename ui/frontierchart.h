#pragma once

#include <QHash>
#include <QImage>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <array>
#include <functional>
#include <optional>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QAreaSeries;
class QChart;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QXYSeries;
QT_END_NAMESPACE

class QLabel;
class QToolButton;

namespace gf {

class ZoomableChartView;

/// Fits a log axis's ticks and labels to its range: at least three labelled ticks at every zoom (also
/// the scenario comparison's chart).
void fitLogTicks(QLogValueAxis *axis);

/// One point of the cost-versus-time chart.
struct ChartPoint
{
    double hours = 0;   ///< x: projected time of the run
    double costUsd = 0; ///< y: cost of the run, in the chart's cost unit (setCostUnit; USD by default)
    int provider = 0;   ///< index into knownProviders()
    bool spot = false;  ///< marker: circle = on-demand, square = spot
    bool onFrontier = false;
    bool feasible = true; ///< within deadline and budget
    int id = 0;           ///< caller's point id, reported back by signals
    /// Likely range (10th-90th percentile of the projection's tier); 0 = none. Drawn as a band around
    /// the frontier when the uncertainty is shown.
    double hoursLow = 0;
    double hoursHigh = 0;
    double costLow = 0;
    double costHigh = 0;
};

/// What FrontierChart::setPoints derives from its points before it touches a series: plain data, so that a
/// large set (hundreds of thousands of points) is prepared off the GUI thread (FrontierChart::prepare) and
/// then shown at once (FrontierChart::setPrepared).
struct PreparedChartPoints
{
    QList<ChartPoint> points;
    QHash<int, qsizetype> byId; ///< point id -> index into points
    QList<QList<QPointF>> all;  ///< per series: every point of the series
    QList<QList<int>> allIds;   ///< parallel to all
    QList<QPointF> frontier, bandUpper, bandLower;
    std::optional<QPointF> recommended;
    double minX = 0.1, maxX = 10, minY = 1, maxY = 100;
    std::optional<double> deadlineHours, budgetUsd;
};

/// The efficiency-frontier chart: every offer as a point, the Pareto frontier as a line, deadline and
/// budget as lines around the feasible region. The only place that knows Qt Charts for this view.
class FrontierChart final : public QWidget
{
    Q_OBJECT
public:
    explicit FrontierChart(QWidget *parent = nullptr);
    ~FrontierChart() override;

    void setPoints(const QList<ChartPoint> &points, std::optional<double> deadlineHours,
                   std::optional<double> budgetUsd, std::optional<int> recommendedId);
    /// setPoints in two halves: prepare() reads nothing of a chart (any thread), setPrepared() shows the
    /// result (GUI thread). `seriesCount` is the chart's (seriesCount()).
    static PreparedChartPoints prepare(QList<ChartPoint> points, std::optional<double> deadlineHours,
                                       std::optional<double> budgetUsd, std::optional<int> recommendedId,
                                       qsizetype seriesCount);
    void setPrepared(PreparedChartPoints prepared);
    qsizetype seriesCount() const { return m_series.size(); }
    /// The currency of the costs given to setPoints: the cost axis's title, "Run cost (EUR)".
    void setCostUnit(const QString &code);
    QString costUnit() const { return m_costUnit; }
    /// Text shown when hovering a point (by id).
    void setTooltipProvider(std::function<QString(int id)> provider) { m_tooltip = std::move(provider); }
    void setSelectedIds(const QList<int> &ids);
    /// The chart as shown (its view, without the surrounding controls), for the PNG export.
    QImage grabImage();
    void setLogX(bool on);
    void setLogY(bool on);
    bool logX() const { return m_logX; }
    bool logY() const { return m_logY; }
    void resetZoom();
    void setProviderVisible(int provider, bool visible);
    bool providerVisible(int provider) const;
    /// The band of the frontier points' likely range (fast/cheap end to slow/expensive end).
    void setShowUncertainty(bool on);
    bool showUncertainty() const { return m_showUncertainty; }
    int uncertaintyBandPointCount() const; ///< points of the band's upper edge (tests)

    // Introspection for tests and the status line.
    int pointCount() const; ///< points in all offer series (before thinning)
    /// Markers drawn: above kThinAbove points, the points that fall in the same few pixels of one series
    /// at the current zoom share one marker (the frontier, the recommended and the selected points are
    /// always drawn exactly); the chart re-thins when the zoom, the axes or its size change.
    int drawnPointCount() const;
    static constexpr int kThinAbove = 4000;
    int frontierPointCount() const; ///< points of the frontier line
    int selectedCount() const;
    QChart *chart() const;
    /// The point whose marker is under a position of the chart view's viewport (what hover and click
    /// pick), or -1.
    int pointAt(const QPoint &viewportPos) const;
    /// The hover tip: a label over the chart (not a QToolTip window, which under a real X server either never
    /// reached the screen from the chart view or lay under the pointer and hid itself).
    QLabel *hoverTip() const { return m_hoverTip; }
    /// Where the hover tip of size `tip` goes for the cursor at `cursor` in a view of `area`: below right of
    /// the cursor, else on whichever side has room, inside the view and off the cursor where it fits.
    static QPoint hoverTipPosition(const QPoint &cursor, const QSize &tip, const QRect &area);
    void hideHoverTip();

Q_SIGNALS:
    void pointClicked(int id);
    void logAxesChanged(bool logX, bool logY);

protected:
    /// A palette change (View > Colours) switches the chart theme and re-applies the chart's colours.
    void changeEvent(QEvent *event) override;

private:
    /// The chart's own colours on top of its theme: provider colours, guides, legend.
    void applyColours();
    /// The axes' grid on top of the theme: on the dark theme the minor lines of the log axes are dimmed
    /// (its default draws them nearly as bright as the major lines, a busy plot behind the points).
    void applyGridColours();
    struct SeriesInfo
    {
        QScatterSeries *series = nullptr;
        QList<int> ids; ///< parallel to the series' drawn points
        int provider = 0;
        QList<QPointF> all; ///< every point of the series
        QList<int> allIds;  ///< parallel to all
    };
    /// Hands each series the points to draw at the current zoom (all of them, or one per few pixels).
    void drawSeries();
    void scheduleDraw();
    void rebuildAxes();
    void applyRanges();
    void updateGuides();
    void onHovered(const QPoint &viewportPos);
    void onClicked(const QPoint &viewportPos);

    ZoomableChartView *m_view = nullptr;
    QLabel *m_hoverTip = nullptr;
    int m_hoverId = -1;
    QChart *m_chart = nullptr;
    QList<SeriesInfo> m_series; ///< provider x mode x (efficient, dominated)
    QLineSeries *m_frontier = nullptr;
    QLineSeries *m_deadline = nullptr;
    QLineSeries *m_budget = nullptr;
    QAreaSeries *m_feasible = nullptr;
    QLineSeries *m_feasibleUpper = nullptr;
    QLineSeries *m_feasibleLower = nullptr;
    QAreaSeries *m_band = nullptr;
    QLineSeries *m_bandUpper = nullptr;
    QLineSeries *m_bandLower = nullptr;
    bool m_showUncertainty = true;
    QScatterSeries *m_recommended = nullptr;
    QScatterSeries *m_selected = nullptr;
    QAbstractAxis *m_axisX = nullptr;
    QAbstractAxis *m_axisY = nullptr;
    QLabel *m_emptyLabel = nullptr;
    bool m_logX = true;
    bool m_logY = true;
    double m_minX = 0.1, m_maxX = 1, m_minY = 0.1, m_maxY = 1;
    std::optional<double> m_deadline_h;
    std::optional<double> m_budget_usd;
    QString m_costUnit = QStringLiteral("USD");
    QList<ChartPoint> m_points;
    QHash<int, qsizetype> m_byId;
    std::function<QString(int)> m_tooltip;
    QList<bool> m_providerVisible;
    bool m_drawScheduled = false;
    /// What the series were last drawn for (drawSeries): points generation and, while thinning, the view.
    struct DrawnView
    {
        quint64 points = 0;
        bool thin = false;
        std::array<double, 8> view{}; ///< x range, log x, y range, log y, plot width and height
        bool operator==(const DrawnView &) const = default;
    };
    quint64 m_pointsGeneration = 0;
    std::optional<DrawnView> m_drawn;
};

} // namespace gf

#pragma once

#include "report/vectorcanvas.h"

#include <QList>
#include <QRectF>
#include <QString>

#include <functional>
#include <optional>

namespace gf {

struct CompactPoint;
struct Currency;
struct ProjectionOptions;
struct ProjectionResults;

/// One point of the report's cost-versus-time chart.
struct ReportChartPoint
{
    double hours = 0;   ///< x: projected time of the run (h)
    double costUsd = 0; ///< y: cost of the run, in ReportChartData::currencyCode (USD unless converted)
    int provider = -1;  ///< index into knownProviders(), -1 = other
    bool spot = false;  ///< square marker; on-demand = circle
    bool onFrontier = false;
    bool feasible = false;
    bool highlighted = false; ///< in the user's selection
    bool recommended = false;
};

/// What the report chart draws: every eligible point, the frontier, deadline and budget.
struct ReportChartData
{
    QList<ReportChartPoint> points;
    std::optional<double> deadlineHours;
    std::optional<double> budgetUsd; ///< in currencyCode, as the points' costs
    QString title;
    QString currencyCode = QStringLiteral("USD"); ///< the unit of the cost axis
    QString currencySymbol = QStringLiteral("$"); ///< its tick labels' prefix
};

/// Chart data of a projection: eligible points (projected, priced, memory fits) with a positive time and
/// cost. `highlight` are point indices drawn with a ring (a selection).
/// `currency`: the costs and the budget converted from USD (nullptr = USD).
ReportChartData reportChartData(const ProjectionResults &results, const QList<qsizetype> &highlight = {},
                                const Currency *currency = nullptr);

/// The same over compact points (projection/tableprojection): `recommended` is the recommended point,
/// `providerOf(offerIndex)` the index of the point's provider in knownProviders() (-1 = other).
ReportChartData reportChartData(const QList<CompactPoint> &points, qsizetype recommended,
                                const std::function<int(qint32)> &providerOf,
                                const ProjectionOptions &options, const QList<qsizetype> &highlight,
                                const Currency *currency);

/// Colour of a provider (same palette as the GUI chart); -1 = grey.
Rgb providerRgb(int provider);

/// Draws the chart (log-log axes, points by provider and price mode, frontier line, feasible region,
/// recommended point, legend) into `area`.
void drawFrontierChart(VectorCanvas &canvas, const ReportChartData &data, const QRectF &area);

/// The chart as an <svg> element (standalone adds the XML declaration).
QString frontierChartSvg(const ReportChartData &data, double width, double height, bool standalone);
/// The same text written piece by piece to `write` (an element at a time), never held whole: for charts of
/// a million points.
void writeFrontierChartSvg(const ReportChartData &data, double width, double height, bool standalone,
                           const std::function<void(const QString &)> &write);

} // namespace gf

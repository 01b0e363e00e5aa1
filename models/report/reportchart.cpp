#include "report/reportchart.h"

#include "domain/currency.h"
#include "domain/offer.h"
#include "projection/projectionresults.h"
#include "projection/tableprojection.h"
#include "report/svgcanvas.h"

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

constexpr Rgb kWhite{255, 255, 255};
constexpr Rgb kInk = Rgb::fromHex(0x222222);
constexpr Rgb kMuted = Rgb::fromHex(0x555555);
constexpr Rgb kGridMajor = Rgb::fromHex(0xdddddd);
constexpr Rgb kGridMinor = Rgb::fromHex(0xf0f0f0);
constexpr Rgb kFrame = Rgb::fromHex(0xb0b0b0);
constexpr Rgb kFeasible = Rgb::fromHex(0xeaf7ee);
constexpr Rgb kDeadline = Rgb::fromHex(0xc0392b);
constexpr Rgb kBudget = Rgb::fromHex(0x1e8449);
constexpr Rgb kRecommended = Rgb::fromHex(0xd4a106);

struct LogAxis
{
    double lo = 0; ///< log10 of the range
    double hi = 1;
    double from = 0; ///< pixel range
    double to = 1;
    double map(double v) const { return from + (std::log10(v) - lo) / (hi - lo) * (to - from); }
    bool contains(double v) const
    {
        const double l = std::log10(v);
        return l >= lo - 1e-9 && l <= hi + 1e-9;
    }
};

/// Log range covering the values whose log10 lie in [lo, hi] (lo > hi: none), padded; guides within 10x
/// of the data are included.
std::pair<double, double> logRange(double lo, double hi, std::optional<double> guide)
{
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    if (guide && *guide > 0) {
        const double g = std::log10(*guide);
        if (g >= lo - 1 && g <= hi + 1) {
            lo = std::min(lo, g);
            hi = std::max(hi, g);
        }
    }
    double span = hi - lo;
    if (span < 0.3) {
        const double mid = (lo + hi) / 2;
        lo = mid - 0.15;
        hi = mid + 0.15;
        span = 0.3;
    }
    return {lo - span * 0.06, hi + span * 0.06};
}

QString trimNumber(double v)
{
    QString s = QString::number(v, 'f', v < 1 ? 2 : (v < 10 ? 1 : 0));
    if (s.contains(u'.')) {
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(u'.'))
            s.chop(1);
    }
    return s;
}

QString hoursLabel(double h)
{
    if (h < 1)
        return trimNumber(h * 60) + QStringLiteral(" min");
    if (h >= 1000)
        return trimNumber(h / 1000) + QStringLiteral("k h");
    return trimNumber(h) + QStringLiteral(" h");
}

/// A tick label: "$1.5k", "€20", "¥3M".
QString moneyLabel(double amount, const QString &symbol)
{
    if (amount >= 1e6)
        return symbol + trimNumber(amount / 1e6) + u'M';
    if (amount >= 1e3)
        return symbol + trimNumber(amount / 1e3) + u'k';
    return symbol + trimNumber(amount);
}

struct Tick
{
    double value = 0;
    bool major = false;
    bool labelled = false;
};

QList<Tick> logTicks(double lo, double hi, double pixels)
{
    QList<Tick> ticks;
    // 2 and 5 get labels when a decade is long enough for three labels.
    const bool labelMinor = hi - lo < 2.2 || pixels / (hi - lo) >= 110;
    for (int k = static_cast<int>(std::floor(lo)) - 1; k <= static_cast<int>(std::ceil(hi)); ++k) {
        for (int m : {1, 2, 5}) {
            const double v = m * std::pow(10.0, k);
            const double l = std::log10(v);
            if (l < lo || l > hi)
                continue;
            ticks.append({v, m == 1, m == 1 || labelMinor});
        }
    }
    return ticks;
}

void drawMarker(VectorCanvas &c, QPointF p, bool spot, double r, std::optional<Rgb> fill,
                std::optional<Pen> stroke)
{
    if (spot)
        c.rect(QRectF(p.x() - r * 0.9, p.y() - r * 0.9, r * 1.8, r * 1.8), fill, stroke);
    else
        c.circle(p, r, fill, stroke);
}

struct LegendItem
{
    enum Kind
    {
        Marker,
        Line,
        Ring,
        Dashed
    } kind = Marker;
    QString label;
    Rgb color;
    bool square = false;
};

} // namespace

Rgb providerRgb(int provider)
{
    const QList<ProviderInfo> &list = providers();
    if (provider < 0 || provider >= list.size())
        return Rgb::fromHex(kOtherProviderColourRgb);
    return Rgb::fromHex(list.at(provider).colourRgb);
}

ReportChartData reportChartData(const ProjectionResults &r, const QList<qsizetype> &highlight,
                                const Currency *currency)
{
    QList<CompactPoint> points;
    points.reserve(r.points.size());
    for (const ProjectedOffer &p : r.points)
        points.append(compactPointOf(p));
    const QStringList providers = knownProviders();
    return reportChartData(
        points, r.recommended,
        [&](qint32 offer) { return static_cast<int>(providers.indexOf(r.offers.at(offer).provider)); },
        r.options, highlight, currency);
}

ReportChartData reportChartData(const QList<CompactPoint> &points, qsizetype recommended,
                                const std::function<int(qint32)> &providerOf,
                                const ProjectionOptions &options, const QList<qsizetype> &highlight,
                                const Currency *currency)
{
    const Currency &cur = currency ? *currency : usdCurrency();
    ReportChartData d;
    d.deadlineHours = options.deadlineHours;
    if (options.budgetUsd)
        d.budgetUsd = cur.fromUsd(*options.budgetUsd);
    d.currencyCode = cur.code;
    d.currencySymbol = cur.symbol;
    QList<qsizetype> highlighted = highlight; // sorted, for a binary search per point
    std::sort(highlighted.begin(), highlighted.end());
    for (qsizetype i = 0; i < points.size(); ++i) {
        const CompactPoint &p = points.at(i);
        if (!p.eligible() || !(p.totalHours > 0) || !(p.costUsd > 0) || !std::isfinite(p.totalHours) ||
            !std::isfinite(p.costUsd))
            continue;
        ReportChartPoint cp;
        cp.hours = p.totalHours;
        cp.costUsd = cur.fromUsd(p.costUsd);
        cp.provider = providerOf(p.offerIndex);
        cp.spot = p.mode == PriceMode::Spot;
        cp.onFrontier = p.onFrontier;
        cp.feasible = p.feasible;
        cp.recommended = i == recommended;
        cp.highlighted = std::binary_search(highlighted.cbegin(), highlighted.cend(), i);
        d.points.append(cp);
    }
    return d;
}

void drawFrontierChart(VectorCanvas &c, const ReportChartData &d, const QRectF &area)
{
    c.rect(area, kWhite, std::nullopt);
    double top = area.top() + 8;
    if (!d.title.isEmpty()) {
        c.text(QPointF(area.left() + 4, area.top() + 15), d.title, 11, true, kInk);
        top = area.top() + 28;
    }

    // Legend items (providers present, markers, lines), laid out in rows at the bottom.
    QList<LegendItem> legend;
    const QStringList providers = knownProviders();
    QList<bool> present(providers.size() + 1, false);
    bool anySpot = false, anyOnDemand = false, anyRecommended = false, anyFrontier = false;
    for (const ReportChartPoint &p : d.points) {
        present[p.provider < 0 ? providers.size() : p.provider] = true;
        (p.spot ? anySpot : anyOnDemand) = true;
        anyRecommended |= p.recommended;
        anyFrontier |= p.onFrontier;
    }
    for (qsizetype i = 0; i < providers.size(); ++i)
        if (present.at(i))
            legend.append({LegendItem::Marker, providerDisplayName(providers.at(i)),
                           providerRgb(static_cast<int>(i)), false});
    if (present.last())
        legend.append({LegendItem::Marker, QStringLiteral("other"), providerRgb(-1), false});
    if (anyOnDemand)
        legend.append({LegendItem::Marker, QStringLiteral("on-demand"), kMuted, false});
    if (anySpot)
        legend.append({LegendItem::Marker, QStringLiteral("spot"), kMuted, true});
    if (anyFrontier)
        legend.append({LegendItem::Line, QStringLiteral("efficiency frontier"), kInk, false});
    if (anyRecommended)
        legend.append({LegendItem::Ring, QStringLiteral("recommended"), kRecommended, false});
    if (d.deadlineHours)
        legend.append({LegendItem::Dashed, QStringLiteral("deadline"), kDeadline, false});
    if (d.budgetUsd)
        legend.append({LegendItem::Dashed, QStringLiteral("budget"), kBudget, true});
    const double legendFont = 8.5;
    const double legendWidth = area.width() - 16;
    QList<QList<qsizetype>> legendRows(1);
    double x = 0;
    for (qsizetype i = 0; i < legend.size(); ++i) {
        const double w = 18 + c.textWidth(legend.at(i).label, legendFont, false) + 14;
        if (x + w > legendWidth && !legendRows.last().isEmpty()) {
            legendRows.append(QList<qsizetype>());
            x = 0;
        }
        legendRows.last().append(i);
        x += w;
    }
    const double legendHeight = legend.isEmpty() ? 0 : 15.0 * static_cast<double>(legendRows.size()) + 4;

    const QRectF plot(area.left() + 62, top, area.width() - 62 - 16, area.bottom() - 40 - legendHeight - top);
    if (plot.width() < 40 || plot.height() < 40)
        return;

    double xmin = 1e300, xmax = -1e300, ymin = 1e300, ymax = -1e300; // log10 of the points' ranges
    for (const ReportChartPoint &p : d.points) {
        xmin = std::min(xmin, std::log10(p.hours));
        xmax = std::max(xmax, std::log10(p.hours));
        ymin = std::min(ymin, std::log10(p.costUsd));
        ymax = std::max(ymax, std::log10(p.costUsd));
    }
    const auto [xlo, xhi] = logRange(xmin, xmax, d.deadlineHours);
    const auto [ylo, yhi] = logRange(ymin, ymax, d.budgetUsd);
    const LogAxis ax{xlo, xhi, plot.left(), plot.right()};
    const LogAxis ay{ylo, yhi, plot.bottom(), plot.top()};

    // Feasible region and grid.
    c.rect(plot, kWhite, std::nullopt);
    if (!d.points.isEmpty() && (d.deadlineHours || d.budgetUsd)) {
        const double fx =
            d.deadlineHours ? std::clamp(ax.map(*d.deadlineHours), plot.left(), plot.right()) : plot.right();
        const double fy =
            d.budgetUsd ? std::clamp(ay.map(*d.budgetUsd), plot.top(), plot.bottom()) : plot.top();
        if (fx > plot.left() && fy < plot.bottom())
            c.rect(QRectF(QPointF(plot.left(), fy), QPointF(fx, plot.bottom())), kFeasible, std::nullopt);
    }
    const QList<Tick> xticks = logTicks(xlo, xhi, plot.width());
    const QList<Tick> yticks = logTicks(ylo, yhi, plot.height());
    for (const Tick &t : xticks) {
        const double px = ax.map(t.value);
        c.line(QPointF(px, plot.top()), QPointF(px, plot.bottom()),
               Pen{t.major ? kGridMajor : kGridMinor, 0.6, 0});
        if (t.labelled && !d.points.isEmpty())
            c.text(QPointF(px, plot.bottom() + 12), hoursLabel(t.value), 8, false, kMuted,
                   TextAnchor::Middle);
    }
    for (const Tick &t : yticks) {
        const double py = ay.map(t.value);
        c.line(QPointF(plot.left(), py), QPointF(plot.right(), py),
               Pen{t.major ? kGridMajor : kGridMinor, 0.6, 0});
        if (t.labelled && !d.points.isEmpty())
            c.text(QPointF(plot.left() - 5, py + 3), moneyLabel(t.value, d.currencySymbol), 8, false, kMuted,
                   TextAnchor::End);
    }
    c.rect(plot, std::nullopt, Pen{kFrame, 0.8, 0});
    c.text(QPointF(plot.center().x(), plot.bottom() + 27),
           QStringLiteral("Time of the run (h, incl. setup and expected spot overhead), log scale"), 9, false,
           kInk, TextAnchor::Middle);
    c.text(QPointF(area.left() + 14, plot.center().y()),
           QStringLiteral("Cost of the run (%1), log scale").arg(d.currencyCode), 9, false, kInk,
           TextAnchor::Middle, 90);

    if (d.points.isEmpty()) {
        c.text(plot.center(), QStringLiteral("No projected offer to plot"), 11, false, kMuted,
               TextAnchor::Middle);
    } else {
        c.beginClip(plot.adjusted(-6, -6, 6, 6));
        // Dominated points first (lighter), then the frontier on top.
        for (const ReportChartPoint &p : d.points) {
            if (p.onFrontier)
                continue;
            const Rgb col = providerRgb(p.provider).mixed(kWhite, p.feasible ? 0.45 : 0.65);
            drawMarker(c, QPointF(ax.map(p.hours), ay.map(p.costUsd)), p.spot, 2.3, col, std::nullopt);
        }
        QList<const ReportChartPoint *> frontier;
        for (const ReportChartPoint &p : d.points)
            if (p.onFrontier)
                frontier.append(&p);
        std::sort(frontier.begin(), frontier.end(), [](const ReportChartPoint *a, const ReportChartPoint *b) {
            return a->hours < b->hours || (a->hours == b->hours && a->costUsd < b->costUsd);
        });
        QList<QPointF> line;
        for (const ReportChartPoint *p : std::as_const(frontier))
            line.append(QPointF(ax.map(p->hours), ay.map(p->costUsd)));
        c.polyline(line, Pen{kInk, 1.3, 0});
        for (const ReportChartPoint *p : std::as_const(frontier))
            drawMarker(c, QPointF(ax.map(p->hours), ay.map(p->costUsd)), p->spot, 3.6,
                       providerRgb(p->provider), Pen{kInk, 0.7, 0});
        for (const ReportChartPoint &p : d.points)
            if (p.highlighted)
                c.circle(QPointF(ax.map(p.hours), ay.map(p.costUsd)), 6, std::nullopt, Pen{kInk, 1.1, 0});
        c.endClip();

        // Guides.
        if (d.deadlineHours && ax.contains(*d.deadlineHours)) {
            const double px = ax.map(*d.deadlineHours);
            c.line(QPointF(px, plot.top()), QPointF(px, plot.bottom()), Pen{kDeadline, 1.1, 4});
            const QString label = QStringLiteral("deadline %1").arg(hoursLabel(*d.deadlineHours));
            const bool left = px + 4 + c.textWidth(label, 8, false) > plot.right();
            c.text(QPointF(left ? px - 4 : px + 4, plot.top() + 11), label, 8, false, kDeadline,
                   left ? TextAnchor::End : TextAnchor::Start);
        }
        if (d.budgetUsd && ay.contains(*d.budgetUsd)) {
            const double py = ay.map(*d.budgetUsd);
            c.line(QPointF(plot.left(), py), QPointF(plot.right(), py), Pen{kBudget, 1.1, 4});
            c.text(QPointF(plot.right() - 4, py - 4),
                   QStringLiteral("budget %1").arg(moneyLabel(*d.budgetUsd, d.currencySymbol)), 8, false,
                   kBudget, TextAnchor::End);
        }
        for (const ReportChartPoint &p : d.points) {
            if (!p.recommended)
                continue;
            const QPointF at(ax.map(p.hours), ay.map(p.costUsd));
            c.circle(at, 8, std::nullopt, Pen{kRecommended, 2.2, 0});
            const QString label = QStringLiteral("recommended");
            const double w = c.textWidth(label, 8.5, true);
            const bool left = at.x() + 11 + w > plot.right();
            const QPointF textAt(left ? at.x() - 11 : at.x() + 11, at.y() - 7);
            const double bx = left ? textAt.x() - w - 2 : textAt.x() - 2;
            c.rect(QRectF(bx, textAt.y() - 8.5, w + 4, 11), kWhite, std::nullopt);
            c.text(textAt, label, 8.5, true, Rgb::fromHex(0x7a5c00),
                   left ? TextAnchor::End : TextAnchor::Start);
        }
    }

    // Legend.
    double ly = plot.bottom() + 40 + 11;
    for (const QList<qsizetype> &row : std::as_const(legendRows)) {
        double lx = area.left() + 8;
        for (qsizetype i : row) {
            const LegendItem &it = legend.at(i);
            const QPointF icon(lx + 7, ly - 3);
            switch (it.kind) {
            case LegendItem::Marker:
                drawMarker(c, icon, it.square, 3.6, it.color, std::nullopt);
                break;
            case LegendItem::Line:
                c.line(QPointF(lx, ly - 3), QPointF(lx + 14, ly - 3), Pen{it.color, 1.3, 0});
                break;
            case LegendItem::Ring:
                c.circle(icon, 5, std::nullopt, Pen{it.color, 2, 0});
                break;
            case LegendItem::Dashed:
                if (it.square)
                    c.line(QPointF(lx, ly - 3), QPointF(lx + 14, ly - 3), Pen{it.color, 1.1, 3});
                else
                    c.line(QPointF(lx + 7, ly - 9), QPointF(lx + 7, ly + 3), Pen{it.color, 1.1, 3});
                break;
            }
            c.text(QPointF(lx + 18, ly), it.label, legendFont, false, kInk);
            lx += 18 + c.textWidth(it.label, legendFont, false) + 14;
        }
        ly += 15;
    }
}

namespace {

/// The chart's accessible title and description.
void describeChart(SvgCanvas &canvas, const ReportChartData &data)
{
    canvas.setTitle(data.title.isEmpty() ? QStringLiteral("Cost of the run versus time, efficiency frontier")
                                         : data.title);
    qsizetype frontier = 0;
    for (const ReportChartPoint &p : data.points)
        frontier += p.onFrontier ? 1 : 0;
    canvas.setDescription(
        QStringLiteral("%1 projected offers; %2 on the efficiency frontier (no other offer is both "
                       "faster and cheaper).")
            .arg(data.points.size())
            .arg(frontier));
}

} // namespace

QString frontierChartSvg(const ReportChartData &data, double width, double height, bool standalone)
{
    SvgCanvas canvas(width, height);
    describeChart(canvas, data);
    drawFrontierChart(canvas, data, QRectF(0, 0, width, height));
    return canvas.toSvg(standalone);
}

void writeFrontierChartSvg(const ReportChartData &data, double width, double height, bool standalone,
                           const std::function<void(const QString &)> &write)
{
    // The clip paths come before the body: found by a first pass that draws nothing.
    SvgCanvas defs(width, height);
    describeChart(defs, data);
    defs.setSkipBody(true);
    drawFrontierChart(defs, data, QRectF(0, 0, width, height));
    write(defs.head(standalone));
    SvgCanvas canvas(width, height);
    canvas.setBodySink(write);
    drawFrontierChart(canvas, data, QRectF(0, 0, width, height));
    write(QStringLiteral("</svg>\n"));
}

} // namespace gf

#include "report/reportdata.h"
#include "report/svgcanvas.h"
#include "util/bufferedoutput.h"
#include "util/format.h"

#include <functional>

namespace gf::report {

namespace {

QString e(const QString &s)
{
    return xmlEscape(s);
}

const char *const kCss = R"CSS(
:root{--ink:#1f2328;--muted:#59636e;--line:#d8dee4;--bg:#f6f8fa;--accent:#0b5cad}
*{box-sizing:border-box}
body{margin:0;font:14px/1.5 -apple-system,"Segoe UI",Helvetica,Arial,"Liberation Sans",sans-serif;color:var(--ink);background:#fff}
main{max-width:1120px;margin:0 auto;padding:28px 28px 48px}
header{border-bottom:3px solid var(--accent);padding-bottom:12px;margin-bottom:8px}
h1{font-size:26px;line-height:1.2;margin:0 0 6px}
h2{font-size:19px;margin:34px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
h3{font-size:15px;margin:18px 0 6px}
.meta{color:var(--muted);font-size:13px;margin:0}
.argument{font-size:15px;margin:16px 0 4px}
.cards{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:12px;margin:14px 0 6px}
.card{border:1px solid var(--line);border-radius:8px;padding:12px 14px;background:var(--bg)}
.card.rec{border:2px solid #d4a106;background:#fffbea}
.card .label{font-size:11.5px;text-transform:uppercase;letter-spacing:.06em;color:var(--muted);font-weight:600}
.card .what{font-weight:600;margin-top:4px;overflow-wrap:anywhere}
.card .figs{font-size:21px;font-weight:700;margin:6px 0 2px;white-space:nowrap}
.card .sub{color:var(--muted);font-size:12.5px}
.card.none .what{color:var(--muted);font-weight:400}
ul.warnings{list-style:none;padding:0;margin:0}
ul.warnings>li{background:#fff8c5;border-left:4px solid #d4a72c;padding:8px 12px;margin:6px 0;border-radius:4px}
ul.warnings>li>ul{margin:4px 0 0 18px;padding:0;font-size:12.5px;color:#4d3b00}
.ok{background:#dafbe1;border-left:4px solid #1a7f37;padding:8px 12px;border-radius:4px}
figure{margin:0;border:1px solid var(--line);border-radius:8px;padding:8px}
figure svg{width:100%;height:auto;display:block}
figcaption{color:var(--muted);font-size:12.5px;margin:6px 4px 0}
.scroll{overflow-x:auto}
table{border-collapse:collapse;width:100%;font-size:12.5px;margin:6px 0}
th,td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;vertical-align:top}
thead th{background:var(--bg);font-weight:600;border-bottom:2px solid var(--line);vertical-align:bottom}
td:first-child{min-width:7.5em}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
th.num{text-align:right}
tr.rec td{background:#fffbea}
table.kv th{width:210px;font-weight:600;color:var(--muted);background:none}
.tag{display:inline-block;font-size:11px;line-height:16px;padding:0 6px;border-radius:8px;background:#eaeef2;margin:1px 3px 1px 0;white-space:nowrap}
.tag.rec{background:#ffe58a}.tag.front{background:#d8e8ff}
.no{color:#a40e26}
.muted{color:var(--muted)}
pre{font:12px/1.45 ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:var(--bg);padding:10px 12px;border-radius:6px;white-space:pre-wrap;overflow-wrap:anywhere}
footer{margin-top:36px;color:var(--muted);font-size:12px;border-top:1px solid var(--line);padding-top:10px}
@media print{main{max-width:none;padding:0}h2{break-after:avoid}tr,figure,.card,ul.warnings>li{break-inside:avoid}.scroll{overflow:visible}}
)CSS";

QString tableHead(const QStringList &header, const QList<bool> &numeric)
{
    QString s = QStringLiteral("<div class=\"scroll\"><table>\n<thead><tr>");
    for (qsizetype c = 0; c < header.size(); ++c)
        s += (numeric.value(c) ? QStringLiteral("<th class=\"num\">") : QStringLiteral("<th>")) +
             e(header.at(c)) + QStringLiteral("</th>");
    s += QStringLiteral("</tr></thead>\n<tbody>\n");
    return s;
}

void appendTableRow(QString &s, const QStringList &row, const QList<bool> &numeric, const QString &cls)
{
    s += cls.isEmpty() ? QStringLiteral("<tr>") : QStringLiteral("<tr class=\"%1\">").arg(cls);
    for (qsizetype c = 0; c < row.size(); ++c)
        s += (numeric.value(c) ? QStringLiteral("<td class=\"num\">") : QStringLiteral("<td>")) + row.at(c) +
             QStringLiteral("</td>");
    s += QStringLiteral("</tr>\n");
}

const QString kTableTail = QStringLiteral("</tbody></table></div>\n");

QString table(const QStringList &header, const QList<QStringList> &rows, const QList<bool> &numeric = {},
              const QList<QString> &rowClasses = {})
{
    QString s = tableHead(header, numeric);
    for (qsizetype r = 0; r < rows.size(); ++r)
        appendTableRow(s, rows.at(r), numeric, rowClasses.value(r));
    s += kTableTail;
    return s;
}

QString keyValueTable(const QList<std::pair<QString, QString>> &rows)
{
    QString s = QStringLiteral("<table class=\"kv\"><tbody>\n");
    for (const auto &[k, v] : rows)
        s += QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(e(k), e(v));
    s += QStringLiteral("</tbody></table>\n");
    return s;
}

/// Point table: cells escaped; the notes column as tags. Appended to `h` row by row; `written()` is called
/// after each row (the caller writes out what `h` holds when it is large).
void pointTable(const Data &d, const QList<qsizetype> &points, QString &h,
                const std::function<void()> &written)
{
    h += tableHead(pointHeader(d), pointNumeric());
    const QList<bool> numeric = pointNumeric();
    for (qsizetype i : points) {
        QStringList cells = pointCells(d, i);
        // Notes as tags.
        QStringList tags;
        const QStringList notes = cells.last().split(QStringLiteral(", "), Qt::SkipEmptyParts);
        for (QString &c : cells)
            c = e(c);
        for (const QString &n : notes) {
            const QString cls = n == u"recommended" ? QStringLiteral("tag rec")
                                : n == u"frontier"  ? QStringLiteral("tag front")
                                                    : QStringLiteral("tag");
            tags.append(QStringLiteral("<span class=\"%1\">%2</span>").arg(cls, e(n)));
        }
        cells.last() = tags.join(QString());
        static const qsizetype feasible = pointHeader().indexOf(QStringLiteral("Feasible"));
        if (cells.at(feasible) == u"no")
            cells[feasible] = QStringLiteral("<span class=\"no\">no</span>");
        appendTableRow(h, cells, numeric, i == d.recommended ? QStringLiteral("rec") : QString());
        written();
    }
    h += kTableTail;
}

QString card(const Data &d, const QString &label, qsizetype point, bool recommended)
{
    if (point < 0)
        return QStringLiteral("<div class=\"card none\"><div class=\"label\">%1</div><div "
                              "class=\"what\">none within the "
                              "deadline and budget</div></div>\n")
            .arg(e(label));
    Offer o;
    const ProjectedOffer p = d.point(point, &o);
    QString what = providerDisplayName(o.provider) + u' ' + shown(o.instanceType);
    if (p.nodes > 1)
        what += QStringLiteral(" ×%1").arg(p.nodes);
    return inCurrency(d, QStringLiteral("<div class=\"card%1\"><div class=\"label\">%2</div><div "
                                        "class=\"what\">%3</div><div class=\"figs\">%4 · %5 USD</div><div "
                                        "class=\"sub\">%6 · %7 · %8<br>%9 USD/h · %10 samples/USD<br>likely "
                                        "%11 (%12)</div></div>\n"))
        .arg(recommended ? QStringLiteral(" rec") : QString(), e(label), e(what),
             e(formatHours(p.totalHours)), e(money(d, p.costUsd)), e(shownLocation(o)),
             e(gpuText(o, p.nodes)), e(pricingText(o, p)), e(moneyPerHour(d, p.usdPerHour)),
             samplesPerMoney(d, p), e(rangeText(d, p)), e(projectionTierName(p.tier)));
}

} // namespace

void renderHtml(const Data &d, BufferedOutput &out)
{
    const ProjectionResults &r = *d.r;
    // Written out in pieces (the chart of a million points and the table of every offer are never held
    // whole); each piece ends with an element, as the whole document would have been cut.
    QString h;
    auto flush = [&] {
        appendPrintable(out, h);
        h.clear();
    };
    auto flushIfLarge = [&] {
        if (h.size() >= 32 * 1024)
            flush();
    };
    h += QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                        "<meta name=\"generator\" content=\"%1\">\n<title>%2</title>\n<style>")
             .arg(e(d.generator), e(shown(d.title)));
    h += QString::fromLatin1(kCss);
    h += QStringLiteral("</style>\n</head>\n<body>\n<main>\n<header>\n<h1>%1</h1>\n").arg(e(shown(d.title)));
    h += QStringLiteral(
             "<p class=\"meta\">Generated %1 UTC by %2 · workload %3 · %4 offers, %5 projected, %6 on the "
             "frontier, %7 within deadline and budget</p>\n</header>\n")
             .arg(e(d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm"))), e(d.generator),
                  e(shown(r.workload.name)), QString::number(d.offerCount()), QString::number(d.projected),
                  QString::number(d.frontier.size()), QString::number(d.feasible));
    if (!d.currency.isUsd())
        h.insert(h.lastIndexOf(QStringLiteral("</header>")),
                 QStringLiteral("<p class=\"meta\">%1</p>\n").arg(e(currencyNote(d))));

    h += QStringLiteral("<section>\n<p class=\"argument\">%1</p>\n<div class=\"cards\">\n")
             .arg(e(argumentText(d)));
    h += card(d, QStringLiteral("Recommended"), d.recommended, true);
    h += card(d, QStringLiteral("Cheapest within limits"), d.cheapest, false);
    h += card(d, QStringLiteral("Fastest within limits"), d.fastest, false);
    h += QStringLiteral("</div>\n");
    if (!d.recommendedExplanation.isEmpty()) {
        h += QStringLiteral("<h3>Where the recommended offer's numbers come from</h3>\n<ul class=\"why\">\n");
        for (const QString &line : d.recommendedExplanation)
            h += QStringLiteral("<li>%1</li>\n").arg(e(line));
        h += QStringLiteral("</ul>\n");
    }
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Warnings</h2>\n");
    if (d.warnings.isEmpty()) {
        h += QStringLiteral(
            "<p class=\"ok\">No warnings: prices are recent, every GPU is recognised and no assumption "
            "dominates the result.</p>\n");
    } else {
        h += QStringLiteral("<ul class=\"warnings\">\n");
        for (const Warning &w : d.warnings) {
            h += QStringLiteral("<li>%1").arg(e(w.message));
            if (!w.items.isEmpty()) {
                h += QStringLiteral("<ul>");
                for (const QString &it : w.items)
                    h += QStringLiteral("<li>%1</li>").arg(e(it));
                h += QStringLiteral("</ul>");
            }
            h += QStringLiteral("</li>\n");
        }
        h += QStringLiteral("</ul>\n");
    }
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Efficiency frontier</h2>\n<figure>\n");
    flush();
    writeFrontierChartSvg(d.chart, 820, 470, false,
                          [&out](const QString &piece) { appendPrintable(out, piece); });
    h +=
        QStringLiteral(
            "<figcaption>Every projected offer as a point: time of the run against its cost, both on log "
            "scales; circles are on-demand prices, squares spot prices, colours the providers. Offers on the "
            "black line are on the efficiency frontier: no other offer is both faster and cheaper.%1"
            "</figcaption>\n</figure>\n</section>\n")
            .arg(r.options.deadlineHours || r.options.budgetUsd
                     ? QStringLiteral(" The green area is within the deadline and budget.")
                     : QString());

    h += QStringLiteral("<section>\n<h2>Frontier table</h2>\n<p class=\"muted\">The %1 offers on the "
                        "efficiency frontier, "
                        "fastest first.</p>\n")
             .arg(d.frontier.size());
    pointTable(d, d.frontier, h, flushIfLarge);
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Spot versus on-demand</h2>\n");
    if (d.spotSavings.isEmpty()) {
        h += QStringLiteral("<p class=\"muted\">No GPU model in these offers has a spot price.</p>\n");
    } else {
        h += QStringLiteral(
            "<p class=\"muted\">Per GPU model: the discount of spot prices on the same offers, and the "
            "cheapest run on each kind of capacity (spot runs include the expected interruption "
            "overhead).</p>\n");
        QList<QStringList> rows = spotRows(d);
        for (QStringList &row : rows)
            for (QString &c : row)
                c = e(c);
        h += table(spotHeader(d), rows, {false, true, true, true, true, false, false, true});
    }
    h += QStringLiteral("</section>\n");

    h += QStringLiteral(
        "<section>\n<h2>Single-GPU spot instances versus one multi-GPU on-demand instance</h2>\n");
    if (d.multiNode.isEmpty()) {
        h += QStringLiteral(
            "<p class=\"muted\">The catalog has no GPU model with both single-GPU spot offers and "
            "multi-GPU on-demand offers, so this comparison is not possible.</p>\n");
    } else {
        h += QStringLiteral(
            "<p class=\"muted\">K single-GPU spot instances training together over the network "
            "(data-parallel, gradient exchange over the instances' network) against the cheapest K-GPU "
            "on-demand instance of the same GPU model.</p>\n");
        QList<QStringList> rows = multiNodeRows(d);
        for (QStringList &row : rows)
            for (QString &c : row)
                c = e(c);
        h += table(multiNodeHeader(d), rows, {false, true, false, true, true, false, true, true, true, true});
    }
    h += QStringLiteral("</section>\n");

    if (d.input->offerSet != ReportOfferSet::Frontier) {
        h += QStringLiteral(
                 "<section>\n<h2>Offers in this report</h2>\n<p class=\"muted\">%1, fastest first (%2 "
                 "points: on-demand and spot prices and job sizes are separate points).</p>\n")
                 .arg(e(d.offerSetText), QString::number(d.rows.size()));
        pointTable(d, d.rows, h, flushIfLarge);
        h += QStringLiteral("</section>\n");
    }

    h += QStringLiteral("<section>\n<h2>Workload and assumptions</h2>\n<h3>Workload</h3>\n");
    h += keyValueTable(workloadRows(d));
    h += QStringLiteral("<h3>Assumptions</h3>\n");
    h += keyValueTable(assumptionRows(d));
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Catalog snapshots</h2>\n");
    if (d.snapshots.isEmpty()) {
        h += QStringLiteral("<p class=\"muted\">No snapshot information was given.</p>\n");
    } else {
        QList<QStringList> rows = snapshotRows(d);
        for (QStringList &row : rows)
            for (QString &c : row)
                c = e(c);
        h += table(snapshotHeader(), rows, {false, false, false, false, false, true, true, true});
        const QStringList notes = snapshotNotes(d);
        if (!notes.isEmpty()) {
            h += QStringLiteral("<ul class=\"notes\">\n");
            for (const QString &n : notes)
                h += QStringLiteral("<li>%1</li>\n").arg(e(n));
            h += QStringLiteral("</ul>\n");
        }
    }
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Calibration</h2>\n");
    h += keyValueTable(calibrationRows(d));
    h += QStringLiteral("</section>\n");

    h += QStringLiteral("<section>\n<h2>Reproduce</h2>\n<pre>%1</pre>\n</section>\n")
             .arg(e(reproduceCommand(d, ReportFormat::Html)));
    h += QStringLiteral(
             "<footer>%1 · generated %2 · projection model: models/projection/PROJECTION.md · prices are the "
             "providers' public list prices at the dates above; check them before you commit.</footer>\n")
             .arg(e(d.generator), e(d.now.toString(Qt::ISODate)));
    h += QStringLiteral("</main>\n</body>\n</html>\n");
    flush();
}

} // namespace gf::report

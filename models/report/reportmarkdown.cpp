#include "report/reportdata.h"
#include "util/format.h"

#include <algorithm>
#include <cmath>

namespace gf::report {

namespace {

/// Escapes text for Markdown (GitHub flavoured, tables included): HTML is neutralised with entities and
/// Markdown syntax characters with backslashes, so a provider string can never become markup.
QString md(const QString &s)
{
    QString out;
    out.reserve(s.size() + 8);
    for (QChar c : s) {
        switch (c.unicode()) {
        case u'&':
            out += QStringLiteral("&amp;");
            break;
        case u'<':
            out += QStringLiteral("&lt;");
            break;
        case u'>':
            out += QStringLiteral("&gt;");
            break;
        case u'\\':
        case u'`':
        case u'*':
        case u'_':
        case u'[':
        case u']':
        case u'|':
        case u'#':
        case u'~':
            out += u'\\';
            out += c;
            break;
        case u'\n':
        case u'\r':
        case u'\t':
            out += u' ';
            break;
        default:
            out += c;
        }
    }
    return out;
}

/// A fenced code block holding `text` as it is: the fence is longer than any run of backticks in it,
/// so no line of the text (a title with "```" in it) can close the block early.
QString codeBlock(const QString &info, const QString &text)
{
    qsizetype longest = 0;
    qsizetype run = 0;
    for (QChar c : text) {
        run = c == u'`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    const QString fence(std::max<qsizetype>(3, longest + 1), u'`');
    return fence + info + u'\n' + text + u'\n' + fence + u'\n';
}

QString table(const QStringList &header, const QList<QStringList> &rows, const QList<bool> &numeric = {})
{
    QString s = QStringLiteral("|");
    for (const QString &h : header)
        s += u' ' + md(h) + QStringLiteral(" |");
    s += QStringLiteral("\n|");
    for (qsizetype c = 0; c < header.size(); ++c)
        s += numeric.value(c) ? QStringLiteral(" ---: |") : QStringLiteral(" --- |");
    s += u'\n';
    for (const QStringList &row : rows) {
        s += u'|';
        for (const QString &cell : row)
            s += u' ' + md(cell) + QStringLiteral(" |");
        s += u'\n';
    }
    return s;
}

QString keyValue(const QList<std::pair<QString, QString>> &rows)
{
    QList<QStringList> cells;
    for (const auto &[k, v] : rows)
        cells.append({k, v});
    return table({QStringLiteral("Item"), QStringLiteral("Value")}, cells);
}

/// A small ASCII scatter plot (log-log) for plain-text readers: '*' frontier, '.' other, '@' recommended.
QString asciiChart(const ReportChartData &c)
{
    constexpr int W = 64;
    constexpr int H = 16;
    if (c.points.isEmpty())
        return QStringLiteral("(no projected offer to plot)\n");
    double xlo = 1e300, xhi = -1e300, ylo = 1e300, yhi = -1e300;
    for (const ReportChartPoint &p : c.points) {
        xlo = std::min(xlo, std::log10(p.hours));
        xhi = std::max(xhi, std::log10(p.hours));
        ylo = std::min(ylo, std::log10(p.costUsd));
        yhi = std::max(yhi, std::log10(p.costUsd));
    }
    if (xhi - xlo < 1e-9)
        xhi = xlo + 1;
    if (yhi - ylo < 1e-9)
        yhi = ylo + 1;
    QList<QString> grid(H, QString(W, u' '));
    auto put = [&](const ReportChartPoint &p, QChar ch) {
        const int x = std::clamp(
            static_cast<int>(std::lround((std::log10(p.hours) - xlo) / (xhi - xlo) * (W - 1))), 0, W - 1);
        const int y = std::clamp(
            static_cast<int>(std::lround((std::log10(p.costUsd) - ylo) / (yhi - ylo) * (H - 1))), 0, H - 1);
        QChar &cell = grid[H - 1 - y][x];
        if (ch == u'@' || (ch == u'*' && cell != u'@') || cell == u' ')
            cell = ch;
    };
    for (const ReportChartPoint &p : c.points)
        if (!p.onFrontier)
            put(p, u'.');
    for (const ReportChartPoint &p : c.points)
        if (p.onFrontier)
            put(p, u'*');
    for (const ReportChartPoint &p : c.points)
        if (p.recommended)
            put(p, u'@');
    // The chart's costs are in the report's currency already (reportChartData).
    const QString top = formatUsd(std::pow(10.0, yhi)) + u' ' + c.currencyCode;
    const QString bottom = formatUsd(std::pow(10.0, ylo)) + u' ' + c.currencyCode;
    const qsizetype lw = std::max(top.size(), bottom.size());
    QString s;
    for (int row = 0; row < H; ++row) {
        const QString label = row == 0 ? top : (row == H - 1 ? bottom : QString());
        s += label.rightJustified(lw) + QStringLiteral(" |") + grid.at(row) + u'\n';
    }
    s += QString(lw + 1, u' ') + u'+' + QString(W, u'-') + u'\n';
    const QString left = formatHours(std::pow(10.0, xlo));
    const QString right = formatHours(std::pow(10.0, xhi));
    s += QString(lw + 2, u' ') + left +
         QString(std::max<qsizetype>(1, W - left.size() - right.size()), u' ') + right + u'\n';
    s += QString(lw + 2, u' ') +
         QStringLiteral("time of the run (log) ->   cost (log) ^   * frontier  . other  @ recommended\n");
    return s;
}

} // namespace

QByteArray renderMarkdown(const Data &d)
{
    const ProjectionResults &r = *d.r;
    QString s;
    s += QStringLiteral("# %1\n\n").arg(md(shown(d.title)));
    s += QStringLiteral(
             "_Generated %1 UTC by %2 · workload %3 · %4 offers, %5 projected, %6 on the frontier, %7 within "
             "deadline and budget._\n\n")
             .arg(d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm")), md(d.generator),
                  md(shown(r.workload.name)), QString::number(d.offerCount()), QString::number(d.projected),
                  QString::number(d.frontier.size()), QString::number(d.feasible));
    if (!d.currency.isUsd())
        s += QStringLiteral("_%1_\n\n").arg(md(currencyNote(d)));
    s += QStringLiteral("## Summary\n\n%1\n\n").arg(md(argumentText(d)));
    s += QStringLiteral("- **Recommended:** %1\n").arg(md(headlineText(d, d.recommended)));
    s += QStringLiteral("- **Cheapest within limits:** %1\n").arg(md(headlineText(d, d.cheapest)));
    s += QStringLiteral("- **Fastest within limits:** %1\n\n").arg(md(headlineText(d, d.fastest)));
    if (!d.recommendedExplanation.isEmpty()) {
        s += QStringLiteral("### Where the recommended offer's numbers come from\n\n");
        for (const QString &line : d.recommendedExplanation)
            s += QStringLiteral("- %1\n").arg(md(line));
        s += u'\n';
    }

    s += QStringLiteral("## Warnings\n\n");
    if (d.warnings.isEmpty())
        s += QStringLiteral(
            "No warnings: prices are recent, every GPU is recognised and no assumption dominates the "
            "result.\n\n");
    for (const Warning &w : d.warnings) {
        s += QStringLiteral("- ⚠ %1\n").arg(md(w.message));
        for (const QString &it : w.items)
            s += QStringLiteral("  - %1\n").arg(md(it));
    }
    if (!d.warnings.isEmpty())
        s += u'\n';

    s += QStringLiteral("## Efficiency frontier\n\n");
    s += QStringLiteral("```text\n") + asciiChart(d.chart) + QStringLiteral("```\n\n");
    s += QStringLiteral(
             "The %1 offers on the efficiency frontier (no other offer is both faster and cheaper), fastest "
             "first:\n\n")
             .arg(d.frontier.size());
    QList<QStringList> rows;
    for (qsizetype i : d.frontier)
        rows.append(pointCells(d, i));
    s += table(pointHeader(d), rows, pointNumeric()) + u'\n';

    s += QStringLiteral("## Spot versus on-demand\n\n");
    if (d.spotSavings.isEmpty())
        s += QStringLiteral("No GPU model in these offers has a spot price.\n\n");
    else
        s += table(spotHeader(d), spotRows(d), {false, true, true, true, true, false, false, true}) + u'\n';

    s += QStringLiteral("## Single-GPU spot instances versus one multi-GPU on-demand instance\n\n");
    if (d.multiNode.isEmpty())
        s += QStringLiteral(
            "The catalog has no GPU model with both single-GPU spot offers and multi-GPU on-demand "
            "offers, so this comparison is not possible.\n\n");
    else
        s += table(multiNodeHeader(d), multiNodeRows(d),
                   {false, true, false, true, true, false, true, true, true, true}) +
             u'\n';

    if (d.input->offerSet != ReportOfferSet::Frontier) {
        s += QStringLiteral("## Offers in this report\n\n%1, fastest first (%2 points).\n\n")
                 .arg(md(d.offerSetText), QString::number(d.rows.size()));
        rows.clear();
        for (qsizetype i : d.rows)
            rows.append(pointCells(d, i));
        s += table(pointHeader(d), rows, pointNumeric()) + u'\n';
    }

    s += QStringLiteral("## Workload and assumptions\n\n") + keyValue(workloadRows(d)) + u'\n' +
         keyValue(assumptionRows(d)) + u'\n';
    s += QStringLiteral("## Catalog snapshots\n\n");
    if (d.snapshots.isEmpty())
        s += QStringLiteral("No snapshot information was given.\n\n");
    else
        s += table(snapshotHeader(), snapshotRows(d), {false, false, false, false, false, true, true, true}) +
             u'\n';
    for (const QString &n : snapshotNotes(d))
        s += QStringLiteral("- %1\n").arg(md(n));
    if (!snapshotNotes(d).isEmpty())
        s += u'\n';
    s += QStringLiteral("## Calibration\n\n") + keyValue(calibrationRows(d)) + u'\n';
    s += QStringLiteral("## Reproduce\n\n") +
         codeBlock(QStringLiteral("sh"), reproduceCommand(d, ReportFormat::Markdown));
    return s.toUtf8();
}

} // namespace gf::report

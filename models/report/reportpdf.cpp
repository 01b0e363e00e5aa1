#include "report/paintercanvas.h"
#include "report/reportdata.h"
#include "util/bufferedoutput.h"
#include "util/format.h"

#include <QGuiApplication>
#include <QIODevice>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>

#include <algorithm>
#include <cmath>

namespace gf::report {

namespace {

constexpr Rgb kInk = Rgb::fromHex(0x1f2328);
constexpr Rgb kMuted = Rgb::fromHex(0x59636e);
constexpr Rgb kLine = Rgb::fromHex(0xd8dee4);
constexpr Rgb kHeaderBg = Rgb::fromHex(0xeef1f4);
constexpr Rgb kStripe = Rgb::fromHex(0xf7f8fa);
constexpr Rgb kAccent = Rgb::fromHex(0x0b5cad);
constexpr Rgb kRecBg = Rgb::fromHex(0xfff4c2);
constexpr Rgb kRecLine = Rgb::fromHex(0xd4a106);
constexpr Rgb kWarnBg = Rgb::fromHex(0xfff8c5);
constexpr Rgb kWarnBar = Rgb::fromHex(0xd4a72c);
constexpr Rgb kOkBg = Rgb::fromHex(0xdafbe1);
constexpr Rgb kOkBar = Rgb::fromHex(0x1a7f37);
constexpr Rgb kCardBg = Rgb::fromHex(0xf6f8fa);

constexpr double kPageWidth = 595.276; ///< A4, points
constexpr double kPageHeight = 841.890;
constexpr double kMargin = 42;
constexpr double kTop = 46;
constexpr double kBottom = 52; ///< room for the footer
constexpr double kBody = 9.5;
constexpr double kTableFont = 7.4;

/// What the footer of every page shows.
struct Footer
{
    QString title;
    QString time;
    int pages = 0; ///< 0 = not known yet (the layout pass)
};

/// Flowing layout over A4 pages: a cursor that starts a new page when the next block does not fit.
/// Pages are painted through `canvas`; a canvas without a painter lays out and counts pages only.
class Flow
{
public:
    Flow(PainterCanvas &canvas, QPdfWriter &writer, Footer footer)
        : m_c(canvas), m_writer(writer), m_footer(std::move(footer))
    {
        drawFooter();
    }

    double left() const { return kMargin; }
    double width() const { return kPageWidth - 2 * kMargin; }
    double y() const { return m_y; }
    void skip(double h) { m_y += h; }
    PainterCanvas &canvas() { return m_c; }
    double room() const { return kPageHeight - kBottom - m_y; }
    int pages() const { return m_page; }

    void newPage()
    {
        if (m_c.painter())
            m_writer.newPage();
        ++m_page;
        m_y = kTop;
        drawFooter();
    }
    void ensure(double h)
    {
        if (m_y + h > kPageHeight - kBottom && m_y > kTop + 1)
            newPage();
    }

    QStringList wrap(const QString &s, bool bold, double size, double w) const
    {
        return m_c.wrap(s, size, bold, w);
    }
    double textWidth(const QString &s, bool bold, double size) const { return m_c.textWidth(s, size, bold); }

    void text(double x, double baseline, const QString &s, bool bold, double size, Rgb c)
    {
        m_c.text(QPointF(x, baseline), s, size, bold, c);
    }

    void rect(double x, double y, double w, double h, Rgb fill) { m_c.rect(QRectF(x, y, w, h), fill, {}); }

    void hline(double x1, double x2, double y, Rgb c, double w)
    {
        m_c.line(QPointF(x1, y), QPointF(x2, y), Pen{c, w, 0});
    }

    void heading(const QString &s)
    {
        ensure(60); // keep a heading with at least a few lines of what follows
        m_y += 14;
        text(left(), m_y + 12, s, true, 13, kInk);
        m_y += 17;
        hline(left(), left() + width(), m_y, kLine, 0.8);
        m_y += 8;
    }

    void subheading(const QString &s)
    {
        ensure(40);
        m_y += 4;
        text(left(), m_y + 9, s, true, 10, kInk);
        m_y += 15;
    }

    /// Wrapped text; returns the height used.
    void paragraph(const QString &s, double size = kBody, bool bold = false, Rgb colour = kInk,
                   double indent = 0)
    {
        const double lh = size * 1.38;
        const QStringList lines = wrap(s, bold, size, width() - indent);
        for (const QString &line : lines) {
            ensure(lh);
            text(left() + indent, m_y + size, line, bold, size, colour);
            m_y += lh;
        }
        m_y += size * 0.45;
    }

    /// A shaded box with a coloured bar holding a message and optional sub-items.
    void callout(const QString &message, const QStringList &items, Rgb bg, Rgb bar)
    {
        const double size = 8.8;
        const double small = 7.8;
        const double inner = width() - 16;
        const QStringList lines = wrap(message, false, size, inner);
        QList<QStringList> itemLines;
        double h = 8 + lines.size() * size * 1.35;
        for (const QString &it : items) {
            itemLines.append(wrap(it, false, small, inner - 12));
            h += itemLines.last().size() * small * 1.35;
        }
        h += 5;
        if (h > room() && h < kPageHeight - kTop - kBottom)
            newPage();
        rect(left(), m_y, width(), h, bg);
        rect(left(), m_y, 3, h, bar);
        double y = m_y + 5;
        for (const QString &line : lines) {
            text(left() + 10, y + size, line, false, size, kInk);
            y += size * 1.35;
        }
        for (const QStringList &il : std::as_const(itemLines)) {
            bool first = true;
            for (const QString &line : il) {
                if (first)
                    text(left() + 12, y + small, QStringLiteral("•"), false, small, kMuted);
                text(left() + 20, y + small, line, false, small, Rgb::fromHex(0x4d3b00));
                y += small * 1.35;
                first = false;
            }
        }
        m_y += h + 5;
    }

    /// A table with wrapped cells, a repeated header row on every page, stripes and highlighted rows.
    /// `whole`: text columns kept at their natural width (identifiers that should not wrap).
    void table(const QStringList &header, const QList<QStringList> &rows, const QList<bool> &numeric,
               const QList<bool> &highlight = {}, const QList<bool> &whole = {}, double size = kTableFont)
    {
        const qsizetype n = header.size();
        const double pad = 3;
        QList<double> natural(n, 0), minimum(n, 0);
        for (qsizetype c = 0; c < n; ++c) {
            for (const QString &word : header.at(c).split(u' '))
                minimum[c] = std::max(minimum.at(c), textWidth(word, true, size));
            // Headers of number columns wrap at spaces; text columns try to keep theirs on one line.
            natural[c] = numeric.value(c) ? minimum.at(c) : textWidth(header.at(c), true, size);
        }
        for (const QStringList &r : rows) {
            for (qsizetype c = 0; c < n && c < r.size(); ++c) {
                for (const QString &line : r.at(c).split(u'\n'))
                    natural[c] = std::max(natural.at(c), textWidth(line, false, size));
                // Words are split only after separators ("interruption-", "Standard_").
                for (const QString &word : QString(r.at(c)).replace(u'\n', u' ').split(u' ')) {
                    qsizetype start = 0;
                    for (qsizetype k = 0; k <= word.size(); ++k) {
                        if (k == word.size() || QStringView(u"-_/.,:").contains(word.at(k))) {
                            const QString piece = word.mid(start, k - start + 1);
                            minimum[c] =
                                std::max(minimum.at(c), std::min(95.0, textWidth(piece, false, size)));
                            start = k + 1;
                        }
                    }
                }
            }
        }
        // Numbers keep their natural width; text columns share the rest (water-filling).
        QList<double> w(n, 0);
        double fixed = 0;
        for (qsizetype c = 0; c < n; ++c) {
            natural[c] += 2 * pad;
            minimum[c] += 2 * pad;
            if (numeric.value(c) || whole.value(c)) {
                w[c] = std::min(natural.at(c), 150.0);
                fixed += w.at(c);
            }
        }
        const double avail = width() - fixed;
        double minSum = 0;
        for (qsizetype c = 0; c < n; ++c)
            if (!numeric.value(c) && !whole.value(c))
                minSum += minimum.at(c);
        if (minSum > avail) // too many columns: shrink the minimums alike (long words get cut)
            for (qsizetype c = 0; c < n; ++c)
                minimum[c] *= avail / minSum;
        double lo = 0, hi = avail;
        for (int it = 0; it < 50; ++it) {
            const double cap = (lo + hi) / 2;
            double sum = 0;
            for (qsizetype c = 0; c < n; ++c)
                if (!numeric.value(c) && !whole.value(c))
                    sum += std::max(minimum.at(c), std::min(natural.at(c), cap));
            (sum > avail ? hi : lo) = cap;
        }
        double total = fixed;
        for (qsizetype c = 0; c < n; ++c) {
            if (!numeric.value(c) && !whole.value(c)) {
                w[c] = std::max(minimum.at(c), std::min(natural.at(c), lo));
                total += w.at(c);
            }
        }
        // Leftover width goes to the last text column.
        if (total < width()) {
            for (qsizetype c = n - 1; c >= 0; --c) {
                if (!numeric.value(c) && !whole.value(c)) {
                    w[c] += width() - total;
                    break;
                }
            }
        }
        const double lh = size * 1.3;
        auto wrapRow = [&](const QStringList &cells, bool bold) {
            QList<QStringList> lines;
            int maxLines = 1;
            for (qsizetype c = 0; c < n; ++c) {
                lines.append(wrap(cells.value(c), bold, size, w.at(c) - 2 * pad));
                maxLines = std::max(maxLines, static_cast<int>(lines.last().size()));
            }
            return std::make_pair(lines, maxLines);
        };
        const auto headerWrap = wrapRow(header, true);
        const QList<QStringList> &headerLines = headerWrap.first;
        const int headerCount = headerWrap.second;
        const double headerH = headerCount * lh + 2 * pad;
        auto drawRow = [&](const QList<QStringList> &lines, double h, bool bold, std::optional<Rgb> bg) {
            if (bg)
                rect(left(), m_y, width(), h, *bg);
            double x = left();
            for (qsizetype c = 0; c < n; ++c) {
                double ly = m_y + pad + size;
                for (const QString &line : lines.at(c)) {
                    double tx = x + pad;
                    if (numeric.value(c))
                        tx = x + w.at(c) - pad - textWidth(line, bold, size);
                    text(tx, ly, line, bold, size, kInk);
                    ly += lh;
                }
                x += w.at(c);
            }
            m_y += h;
            hline(left(), left() + width(), m_y, kLine, 0.4);
        };
        auto drawHeader = [&] { drawRow(headerLines, headerH, true, kHeaderBg); };
        ensure(headerH + lh * 3);
        drawHeader();
        for (qsizetype r = 0; r < rows.size(); ++r) {
            const auto [lines, count] = wrapRow(rows.at(r), false);
            const double h = count * lh + 2 * pad;
            if (m_y + h > kPageHeight - kBottom) {
                newPage();
                drawHeader();
            }
            std::optional<Rgb> bg;
            if (highlight.value(r))
                bg = kRecBg;
            else if (r % 2 == 1)
                bg = kStripe;
            drawRow(lines, h, false, bg);
        }
        m_y += 8;
    }

    void keyValue(const QList<std::pair<QString, QString>> &rows)
    {
        const double size = 8.6;
        const double labelW = 132;
        const double lh = size * 1.35;
        for (const auto &[k, v] : rows) {
            const QStringList lines = wrap(v, false, size, width() - labelW);
            const double h = lines.size() * lh + 4;
            ensure(h);
            text(left(), m_y + size + 1, k, true, size, kMuted);
            double y = m_y + size + 1;
            for (const QString &line : lines) {
                text(left() + labelW, y, line, false, size, kInk);
                y += lh;
            }
            m_y += h;
            hline(left(), left() + width(), m_y - 1.5, Rgb::fromHex(0xeceff2), 0.4);
        }
        m_y += 6;
    }

private:
    void drawFooter()
    {
        if (!m_c.painter())
            return;
        const double y = kPageHeight - 30;
        hline(kMargin, kPageWidth - kMargin, y - 10, kLine, 0.5);
        text(kMargin, y, m_c.elide(m_footer.title, 7.5, false, 330), false, 7.5, kMuted);
        const QString right =
            QStringLiteral("%1 · page %2 of %3").arg(m_footer.time).arg(m_page).arg(m_footer.pages);
        text(kPageWidth - kMargin - textWidth(right, false, 7.5), y, right, false, 7.5, kMuted);
    }

    PainterCanvas &m_c;
    QPdfWriter &m_writer;
    Footer m_footer;
    int m_page = 1;
    double m_y = kTop;
};

void cards(Flow &f, const Data &d)
{
    struct Card
    {
        QString label;
        qsizetype point;
        bool rec;
    };
    const QList<Card> list{{QStringLiteral("RECOMMENDED"), d.recommended, true},
                           {QStringLiteral("CHEAPEST WITHIN LIMITS"), d.cheapest, false},
                           {QStringLiteral("FASTEST WITHIN LIMITS"), d.fastest, false}};
    const double gap = 8;
    const double cw = (f.width() - 2 * gap) / 3;
    const double inner = cw - 14;
    struct Lines
    {
        QStringList what, sub;
        QString figs;
    };
    QList<Lines> all;
    double h = 0;
    for (const Card &c : list) {
        Lines l;
        if (c.point < 0) {
            l.what = f.wrap(QStringLiteral("none within the deadline and budget"), false, 8.5, inner);
        } else {
            Offer o;
            const ProjectedOffer p = d.point(c.point, &o);
            QString what = providerDisplayName(o.provider) + u' ' + shown(o.instanceType);
            if (p.nodes > 1)
                what += QStringLiteral(" ×%1").arg(p.nodes);
            l.what = f.wrap(what, true, 9, inner);
            l.figs = inCurrency(d, QStringLiteral("%1 · %2 USD"))
                         .arg(formatHours(p.totalHours), money(d, p.costUsd));
            l.sub = f.wrap(
                QStringLiteral("%1 · %2 · %3").arg(shownLocation(o), gpuText(o, p.nodes), pricingText(o, p)),
                false, 7.5, inner);
            l.sub += f.wrap(inCurrency(d, QStringLiteral("%1 USD/h · %2 samples/USD"))
                                .arg(moneyPerHour(d, p.usdPerHour), samplesPerMoney(d, p)),
                            false, 7.5, inner);
        }
        const double ch = 8 + 9 + l.what.size() * 11.5 + (l.figs.isEmpty() ? 0 : 17) + l.sub.size() * 9.6 + 6;
        h = std::max(h, ch);
        all.append(l);
    }
    f.ensure(h + 6);
    for (qsizetype i = 0; i < list.size(); ++i) {
        const double x = f.left() + static_cast<double>(i) * (cw + gap);
        const double y0 = f.y();
        f.canvas().rect(QRectF(x, y0, cw, h), list.at(i).rec ? kRecBg : kCardBg,
                        Pen{list.at(i).rec ? kRecLine : kLine, list.at(i).rec ? 1.4 : 0.6, 0});
        double y = y0 + 8 + 7;
        f.text(x + 7, y, list.at(i).label, true, 7, kMuted);
        y += 4;
        for (const QString &line : all.at(i).what) {
            y += 11.5;
            f.text(x + 7, y - 2, line, !all.at(i).figs.isEmpty(), all.at(i).figs.isEmpty() ? 8.5 : 9,
                   all.at(i).figs.isEmpty() ? kMuted : kInk);
        }
        if (!all.at(i).figs.isEmpty()) {
            y += 17;
            f.text(x + 7, y - 3, all.at(i).figs, true, 13, kInk);
        }
        for (const QString &line : all.at(i).sub) {
            y += 9.6;
            f.text(x + 7, y, line, false, 7.5, kMuted);
        }
    }
    f.skip(h + 10);
}

/// The point table of the PDF: fewer, denser columns than the other formats so that A4 portrait stays
/// readable. "Offer" holds the instance on its first line and provider · region below it.
void pointTable(Flow &f, const Data &d, const QList<qsizetype> &points)
{
    const QStringList header{QStringLiteral("Offer"),
                             QStringLiteral("GPUs"),
                             QStringLiteral("Pricing"),
                             inCurrency(d, QStringLiteral("USD/h (per GPU)")),
                             QStringLiteral("Time"),
                             inCurrency(d, QStringLiteral("Cost (USD)")),
                             inCurrency(d, QStringLiteral("Samples/USD")),
                             QStringLiteral("Spot risk"),
                             QStringLiteral("Notes")};
    // The cells of the other formats, read by their column names (pointHeader): a column added there
    // cannot shift what this table shows.
    const QStringList names = pointHeader();
    auto cell = [&names](const QStringList &cells, QStringView name) {
        const qsizetype at = names.indexOf(name);
        Q_ASSERT(at >= 0);
        return at >= 0 && at < cells.size() ? cells.at(at) : QString();
    };
    QList<QStringList> rows;
    QList<bool> highlight;
    for (qsizetype i : points) {
        const QStringList c = pointCells(d, i);
        QString notes = cell(c, u"Notes");
        if (cell(c, u"Feasible") != u"yes")
            notes = notes.isEmpty() ? QStringLiteral("outside limits")
                                    : QStringLiteral("outside limits, ") + notes;
        const QString interruptions = cell(c, u"Interruptions");
        const QString risk = interruptions == QStringLiteral("–")
                                 ? interruptions
                                 : interruptions + u'\n' + cell(c, u"Spot overhead");
        rows.append(
            {cell(c, u"Instance") + u'\n' + cell(c, u"Provider") + QStringLiteral(" · ") + cell(c, u"Region"),
             cell(c, u"GPUs"), cell(c, u"Pricing"),
             cell(c, u"USD/h") + QStringLiteral("\n(") + cell(c, u"USD/GPU-h") + u')', cell(c, u"Time"),
             cell(c, u"Cost (USD)"), cell(c, u"Samples/USD"), risk, notes});
        highlight.append(i == d.recommended);
    }
    f.table(header, rows, {false, false, false, true, true, true, true, true, false}, highlight,
            {true, false, true, false, false, false, false, true, false});
}

/// The whole document, page after page.
void layout(Flow &f, const Data &d)
{
    const ProjectionResults &r = *d.r;

    // Title block.
    const QStringList titleLines = f.wrap(shown(d.title), true, 19, f.width());
    for (const QString &line : titleLines) {
        f.text(f.left(), f.y() + 18, line, true, 19, kInk);
        f.skip(23);
    }
    f.paragraph(QStringLiteral(
                    "Generated %1 UTC by %2 · workload %3 · %4 offers, %5 projected, %6 on the frontier, %7 "
                    "within deadline and budget")
                    .arg(d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm")), d.generator,
                         shown(r.workload.name), QString::number(d.offerCount()),
                         QString::number(d.projected), QString::number(d.frontier.size()),
                         QString::number(d.feasible)),
                8.5, false, kMuted);
    if (!d.currency.isUsd())
        f.paragraph(currencyNote(d), 8.5, false, kMuted);
    f.rect(f.left(), f.y(), f.width(), 2.2, kAccent);
    f.skip(12);
    f.paragraph(argumentText(d), 10);
    f.skip(2);
    cards(f, d);
    if (!d.recommendedExplanation.isEmpty()) {
        f.heading(QStringLiteral("Where the recommended offer's numbers come from"));
        for (const QString &line : d.recommendedExplanation)
            f.paragraph(QStringLiteral("• ") + line, 8.5);
    }

    f.heading(QStringLiteral("Warnings"));
    if (d.warnings.isEmpty())
        f.callout(
            QStringLiteral(
                "No warnings: prices are recent, every GPU is recognised and no assumption dominates the "
                "result."),
            {}, kOkBg, kOkBar);
    for (const Warning &w : d.warnings)
        f.callout(w.message, w.items, kWarnBg, kWarnBar);

    // The chart, vector, full width.
    const double chartH = 360;
    f.ensure(chartH + 60);
    f.heading(QStringLiteral("Efficiency frontier"));
    {
        drawFrontierChart(f.canvas(), d.chart, QRectF(f.left(), f.y(), f.width(), chartH));
        f.skip(chartH + 6);
    }
    f.paragraph(QStringLiteral(
                    "Every projected offer as a point: time of the run against its cost, both on log scales; "
                    "circles are on-demand prices, squares spot prices, colours the providers. Offers on the "
                    "black line are on the efficiency frontier: no other offer is both faster and cheaper.%1")
                    .arg(r.options.deadlineHours || r.options.budgetUsd
                             ? QStringLiteral(" The green area is within the deadline and budget.")
                             : QString()),
                7.8, false, kMuted);

    f.heading(QStringLiteral("Frontier table"));
    f.paragraph(
        QStringLiteral("The %1 offers on the efficiency frontier, fastest first.").arg(d.frontier.size()),
        8.5, false, kMuted);
    pointTable(f, d, d.frontier);

    f.heading(QStringLiteral("Spot versus on-demand"));
    if (d.spotSavings.isEmpty()) {
        f.paragraph(QStringLiteral("No GPU model in these offers has a spot price."), 8.5, false, kMuted);
    } else {
        f.paragraph(
            QStringLiteral(
                "Per GPU model: the discount of spot prices on the same offers, and the cheapest run on "
                "each kind of capacity (spot runs include the expected interruption overhead)."),
            8.5, false, kMuted);
        f.table(spotHeader(d), spotRows(d), {false, true, true, true, true, false, false, true});
    }

    f.heading(QStringLiteral("Single-GPU spot instances versus one multi-GPU on-demand instance"));
    if (d.multiNode.isEmpty()) {
        f.paragraph(
            QStringLiteral(
                "The catalog has no GPU model with both single-GPU spot offers and multi-GPU on-demand "
                "offers, so this comparison is not possible."),
            8.5, false, kMuted);
    } else {
        f.paragraph(QStringLiteral(
                        "K single-GPU spot instances training together over the network against the cheapest "
                        "K-GPU on-demand instance of the same GPU model."),
                    8.5, false, kMuted);
        f.table(multiNodeHeader(d), multiNodeRows(d),
                {false, true, false, true, true, false, true, true, true, true});
    }

    if (d.input->offerSet != ReportOfferSet::Frontier) {
        f.heading(QStringLiteral("Offers in this report"));
        f.paragraph(QStringLiteral("%1, fastest first (%2 points).")
                        .arg(d.offerSetText, QString::number(d.rows.size())),
                    8.5, false, kMuted);
        pointTable(f, d, d.rows);
    }

    f.heading(QStringLiteral("Workload and assumptions"));
    f.subheading(QStringLiteral("Workload"));
    f.keyValue(workloadRows(d));
    f.subheading(QStringLiteral("Assumptions"));
    f.keyValue(assumptionRows(d));

    f.heading(QStringLiteral("Catalog snapshots"));
    if (d.snapshots.isEmpty())
        f.paragraph(QStringLiteral("No snapshot information was given."), 8.5, false, kMuted);
    else
        f.table(snapshotHeader(), snapshotRows(d), {false, false, false, false, false, true, true, true});
    for (const QString &note : snapshotNotes(d))
        f.paragraph(note, 8.5);

    f.heading(QStringLiteral("Calibration"));
    f.keyValue(calibrationRows(d));

    f.heading(QStringLiteral("Reproduce"));
    f.paragraph(reproduceCommand(d, ReportFormat::Pdf), 8, false, kInk);
}

/// Sets the creation date the PDF engine wrote (the current time) to `when`, in place and with the
/// same length so that the cross-reference offsets stay right. Left alone when the field is not found.
/// `complete`: `pdf` is the whole file (else a beginning of it, which may end inside the field: then
/// nothing is set and false returned, to be called again with more).
bool pinCreationDate(QByteArray &pdf, const QDateTime &when, bool complete)
{
    static constexpr QByteArrayView key = "/CreationDate (";
    const qsizetype at = pdf.indexOf(key);
    if (at < 0 || at > 4096)
        return complete || pdf.size() >= 4096 + key.size();
    const qsizetype start = at + key.size();
    const qsizetype end = pdf.indexOf(')', start);
    if (end < 0)
        return complete;
    QByteArray date = "D:" + when.toUTC().toString(QStringLiteral("yyyyMMddHHmmss")).toLatin1();
    const qsizetype length = end - start;
    if (length == date.size() + 1)
        date += 'Z';
    else if (length == date.size() + 7)
        date += "+00'00'";
    else
        return true;
    pdf.replace(start, length, date);
    return true;
}

/// The PDF writer's device: the file goes straight to the report's output (a PDF with a chart of a
/// million points is never held whole), its creation date pinned in the first bytes.
class PdfOutputDevice final : public QIODevice
{
public:
    PdfOutputDevice(BufferedOutput &out, const QDateTime &when) : m_out(out), m_when(when)
    {
        open(QIODevice::WriteOnly);
    }
    bool isSequential() const override { return true; }
    /// Writes what is still held (a file shorter than the creation date's place).
    void finish()
    {
        if (!m_pinned) {
            pinCreationDate(m_head, m_when, true);
            m_out.append(m_head);
            m_head.clear();
            m_pinned = true;
        }
    }

protected:
    qint64 readData(char *, qint64) override { return -1; }
    qint64 writeData(const char *data, qint64 size) override
    {
        if (m_pinned) {
            m_out.append(data, size);
        } else {
            m_head.append(data, size);
            if (pinCreationDate(m_head, m_when, false)) {
                m_out.append(m_head);
                m_head.clear();
                m_pinned = true;
            }
        }
        return m_out.ok() ? size : -1;
    }

private:
    BufferedOutput &m_out;
    QDateTime m_when;
    QByteArray m_head; ///< the beginning, until the creation date is pinned
    bool m_pinned = false;
};

} // namespace

Status renderPdf(const Data &d, BufferedOutput &out)
{
    // Text is set with Qt Gui's fonts, which need a QGuiApplication (the CLI starts an offscreen one).
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return makeCodedError(QStringLiteral("pdf-needs-gui"),
                              QStringLiteral("A PDF report needs Qt Gui's fonts, and this program did not "
                                             "start a QGuiApplication."));
    PdfOutputDevice device(out, d.now);
    QPdfWriter writer(&device);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(0, 0, 0, 0)));
    writer.setTitle(d.title);
    writer.setCreator(d.generator);

    Footer footer{shown(d.title), d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm")), 0};
    {
        // Layout pass: the page count for the footers.
        PainterCanvas measure(writer, nullptr);
        Flow f(measure, writer, footer);
        layout(f, d);
        footer.pages = f.pages();
    }
    QPainter painter;
    if (!painter.begin(&writer))
        return makeError(QStringLiteral("Cannot start the PDF document."));
    PainterCanvas canvas(writer, &painter);
    {
        Flow f(canvas, writer, footer);
        layout(f, d);
    }
    painter.end();
    device.finish();
    return Ok{};
}

} // namespace gf::report

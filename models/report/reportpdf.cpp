#include "report/pdfwriter.h"
#include "report/reportdata.h"
#include "util/format.h"

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

constexpr double kMargin = 42;
constexpr double kTop = 46;
constexpr double kBottom = 52; ///< room for the footer
constexpr double kBody = 9.5;
constexpr double kTableFont = 7.4;

/// Flowing layout over A4 pages: a cursor that starts a new page when the next block does not fit.
class Flow
{
public:
    explicit Flow(PdfDocument &doc) : m_doc(doc) { newPage(); }

    double left() const { return kMargin; }
    double width() const { return kA4WidthPt - 2 * kMargin; }
    double y() const { return m_y; }
    void skip(double h) { m_y += h; }
    PdfPage &page() { return *m_page; }
    double room() const { return kA4HeightPt - kBottom - m_y; }

    void newPage()
    {
        m_page = &m_doc.addPage();
        m_y = kTop;
    }
    void ensure(double h)
    {
        if (m_y + h > kA4HeightPt - kBottom && m_y > kTop + 1)
            newPage();
    }

    void text(double x, double baseline, const QString &s, PdfFont f, double size, Rgb c)
    {
        m_page->text(x, baseline, s, f, size, c);
    }

    void rect(double x, double y, double w, double h, Rgb fill)
    {
        m_page->setFillColor(fill);
        m_page->addRect(x, y, w, h);
        m_page->fill();
    }

    void hline(double x1, double x2, double y, Rgb c, double w)
    {
        m_page->setStrokeColor(c);
        m_page->setLineWidth(w);
        m_page->setDash(0);
        m_page->moveTo(x1, y);
        m_page->lineTo(x2, y);
        m_page->stroke();
    }

    void heading(const QString &s)
    {
        ensure(60); // keep a heading with at least a few lines of what follows
        m_y += 14;
        text(left(), m_y + 12, s, PdfFont::HelveticaBold, 13, kInk);
        m_y += 17;
        hline(left(), left() + width(), m_y, kLine, 0.8);
        m_y += 8;
    }

    void subheading(const QString &s)
    {
        ensure(40);
        m_y += 4;
        text(left(), m_y + 9, s, PdfFont::HelveticaBold, 10, kInk);
        m_y += 15;
    }

    /// Wrapped text; returns the height used.
    void paragraph(const QString &s, double size = kBody, PdfFont font = PdfFont::Helvetica,
                   Rgb colour = kInk, double indent = 0)
    {
        const double lh = size * 1.38;
        const QStringList lines = pdfWrap(s, font, size, width() - indent);
        for (const QString &line : lines) {
            ensure(lh);
            text(left() + indent, m_y + size, line, font, size, colour);
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
        const QStringList lines = pdfWrap(message, PdfFont::Helvetica, size, inner);
        QList<QStringList> itemLines;
        double h = 8 + lines.size() * size * 1.35;
        for (const QString &it : items) {
            itemLines.append(pdfWrap(it, PdfFont::Helvetica, small, inner - 12));
            h += itemLines.last().size() * small * 1.35;
        }
        h += 5;
        if (h > room() && h < kA4HeightPt - kTop - kBottom)
            newPage();
        rect(left(), m_y, width(), h, bg);
        rect(left(), m_y, 3, h, bar);
        double y = m_y + 5;
        for (const QString &line : lines) {
            text(left() + 10, y + size, line, PdfFont::Helvetica, size, kInk);
            y += size * 1.35;
        }
        for (const QStringList &il : std::as_const(itemLines)) {
            bool first = true;
            for (const QString &line : il) {
                if (first)
                    text(left() + 12, y + small, QStringLiteral("•"), PdfFont::Helvetica, small, kMuted);
                text(left() + 20, y + small, line, PdfFont::Helvetica, small, Rgb::fromHex(0x4d3b00));
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
                minimum[c] = std::max(minimum.at(c), pdfTextWidth(word, PdfFont::HelveticaBold, size));
            // Headers of number columns wrap at spaces; text columns try to keep theirs on one line.
            natural[c] =
                numeric.value(c) ? minimum.at(c) : pdfTextWidth(header.at(c), PdfFont::HelveticaBold, size);
        }
        for (const QStringList &r : rows) {
            for (qsizetype c = 0; c < n && c < r.size(); ++c) {
                for (const QString &line : r.at(c).split(u'\n'))
                    natural[c] = std::max(natural.at(c), pdfTextWidth(line, PdfFont::Helvetica, size));
                // Words are split only after separators ("interruption-", "Standard_").
                for (const QString &word : QString(r.at(c)).replace(u'\n', u' ').split(u' ')) {
                    qsizetype start = 0;
                    for (qsizetype k = 0; k <= word.size(); ++k) {
                        if (k == word.size() || QStringView(u"-_/.,:").contains(word.at(k))) {
                            const QString piece = word.mid(start, k - start + 1);
                            minimum[c] = std::max(
                                minimum.at(c), std::min(95.0, pdfTextWidth(piece, PdfFont::Helvetica, size)));
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
        auto wrapRow = [&](const QStringList &cells, PdfFont font) {
            QList<QStringList> lines;
            int maxLines = 1;
            for (qsizetype c = 0; c < n; ++c) {
                lines.append(pdfWrap(cells.value(c), font, size, w.at(c) - 2 * pad));
                maxLines = std::max(maxLines, static_cast<int>(lines.last().size()));
            }
            return std::make_pair(lines, maxLines);
        };
        const auto headerWrap = wrapRow(header, PdfFont::HelveticaBold);
        const QList<QStringList> &headerLines = headerWrap.first;
        const int headerCount = headerWrap.second;
        const double headerH = headerCount * lh + 2 * pad;
        auto drawRow = [&](const QList<QStringList> &lines, double h, PdfFont font, std::optional<Rgb> bg) {
            if (bg)
                rect(left(), m_y, width(), h, *bg);
            double x = left();
            for (qsizetype c = 0; c < n; ++c) {
                double ly = m_y + pad + size;
                for (const QString &line : lines.at(c)) {
                    double tx = x + pad;
                    if (numeric.value(c))
                        tx = x + w.at(c) - pad - pdfTextWidth(line, font, size);
                    text(tx, ly, line, font, size, kInk);
                    ly += lh;
                }
                x += w.at(c);
            }
            m_y += h;
            hline(left(), left() + width(), m_y, kLine, 0.4);
        };
        auto drawHeader = [&] { drawRow(headerLines, headerH, PdfFont::HelveticaBold, kHeaderBg); };
        ensure(headerH + lh * 3);
        drawHeader();
        for (qsizetype r = 0; r < rows.size(); ++r) {
            const auto [lines, count] = wrapRow(rows.at(r), PdfFont::Helvetica);
            const double h = count * lh + 2 * pad;
            if (m_y + h > kA4HeightPt - kBottom) {
                newPage();
                drawHeader();
            }
            std::optional<Rgb> bg;
            if (highlight.value(r))
                bg = kRecBg;
            else if (r % 2 == 1)
                bg = kStripe;
            drawRow(lines, h, PdfFont::Helvetica, bg);
        }
        m_y += 8;
    }

    void keyValue(const QList<std::pair<QString, QString>> &rows)
    {
        const double size = 8.6;
        const double labelW = 132;
        const double lh = size * 1.35;
        for (const auto &[k, v] : rows) {
            const QStringList lines = pdfWrap(v, PdfFont::Helvetica, size, width() - labelW);
            const double h = lines.size() * lh + 4;
            ensure(h);
            text(left(), m_y + size + 1, k, PdfFont::HelveticaBold, size, kMuted);
            double y = m_y + size + 1;
            for (const QString &line : lines) {
                text(left() + labelW, y, line, PdfFont::Helvetica, size, kInk);
                y += lh;
            }
            m_y += h;
            hline(left(), left() + width(), m_y - 1.5, Rgb::fromHex(0xeceff2), 0.4);
        }
        m_y += 6;
    }

private:
    PdfDocument &m_doc;
    PdfPage *m_page = nullptr;
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
            l.what = pdfWrap(QStringLiteral("none within the deadline and budget"), PdfFont::Helvetica, 8.5,
                             inner);
        } else {
            const ProjectedOffer &p = d.r->points.at(c.point);
            const Offer &o = d.r->offers.at(p.offerIndex);
            QString what = providerDisplayName(o.provider) + u' ' + o.instanceType;
            if (p.nodes > 1)
                what += QStringLiteral(" ×%1").arg(p.nodes);
            l.what = pdfWrap(what, PdfFont::HelveticaBold, 9, inner);
            l.figs = QStringLiteral("%1 · %2 USD").arg(formatHours(p.totalHours), formatUsd(p.costUsd));
            l.sub = pdfWrap(
                QStringLiteral("%1 · %2 · %3").arg(locationText(o), gpuText(o, p.nodes), pricingText(o, p)),
                PdfFont::Helvetica, 7.5, inner);
            l.sub +=
                pdfWrap(QStringLiteral("%1 USD/h · %2 samples/USD")
                            .arg(formatUsdPerHour(p.usdPerHour), QString::number(p.samplesPerUsd, 'f', 0)),
                        PdfFont::Helvetica, 7.5, inner);
        }
        const double ch = 8 + 9 + l.what.size() * 11.5 + (l.figs.isEmpty() ? 0 : 17) + l.sub.size() * 9.6 + 6;
        h = std::max(h, ch);
        all.append(l);
    }
    f.ensure(h + 6);
    for (qsizetype i = 0; i < list.size(); ++i) {
        const double x = f.left() + static_cast<double>(i) * (cw + gap);
        const double y0 = f.y();
        PdfPage &pg = f.page();
        pg.setFillColor(list.at(i).rec ? kRecBg : kCardBg);
        pg.setStrokeColor(list.at(i).rec ? kRecLine : kLine);
        pg.setLineWidth(list.at(i).rec ? 1.4 : 0.6);
        pg.setDash(0);
        pg.addRect(x, y0, cw, h);
        pg.fillAndStroke();
        double y = y0 + 8 + 7;
        f.text(x + 7, y, list.at(i).label, PdfFont::HelveticaBold, 7, kMuted);
        y += 4;
        for (const QString &line : all.at(i).what) {
            y += 11.5;
            f.text(x + 7, y - 2, line, all.at(i).figs.isEmpty() ? PdfFont::Helvetica : PdfFont::HelveticaBold,
                   all.at(i).figs.isEmpty() ? 8.5 : 9, all.at(i).figs.isEmpty() ? kMuted : kInk);
        }
        if (!all.at(i).figs.isEmpty()) {
            y += 17;
            f.text(x + 7, y - 3, all.at(i).figs, PdfFont::HelveticaBold, 13, kInk);
        }
        for (const QString &line : all.at(i).sub) {
            y += 9.6;
            f.text(x + 7, y, line, PdfFont::Helvetica, 7.5, kMuted);
        }
    }
    f.skip(h + 10);
}

/// The point table of the PDF: fewer, denser columns than the other formats so that A4 portrait stays
/// readable. "Offer" holds the instance on its first line and provider · region below it.
void pointTable(Flow &f, const Data &d, const QList<qsizetype> &points)
{
    const QStringList header{
        QStringLiteral("Offer"),       QStringLiteral("GPUs"),      QStringLiteral("Pricing"),
        QStringLiteral("USD/h"),       QStringLiteral("Time"),      QStringLiteral("Cost (USD)"),
        QStringLiteral("Samples/USD"), QStringLiteral("Spot risk"), QStringLiteral("Notes")};
    QList<QStringList> rows;
    QList<bool> highlight;
    for (qsizetype i : points) {
        // Provider, Instance, Region, GPUs, Pricing, USD/h, Time, Cost, S/USD, Interruptions, Spot overhead,
        // Feasible, Notes
        const QStringList c = pointCells(d, i);
        QString notes = c.at(12);
        if (c.at(11) != u"yes")
            notes = notes.isEmpty() ? QStringLiteral("outside limits")
                                    : QStringLiteral("outside limits, ") + notes;
        const QString risk = c.at(9) == QStringLiteral("–") ? c.at(9) : c.at(9) + u'\n' + c.at(10);
        rows.append({c.at(1) + u'\n' + c.at(0) + QStringLiteral(" · ") + c.at(2), c.at(3), c.at(4), c.at(5),
                     c.at(6), c.at(7), c.at(8), risk, notes});
        highlight.append(i == d.recommended);
    }
    f.table(header, rows, {false, false, false, true, true, true, true, true, false}, highlight,
            {true, false, true, false, false, false, false, true, false});
}

} // namespace

QByteArray renderPdf(const Data &d)
{
    const ProjectionResults &r = *d.r;
    PdfDocument doc;
    doc.setTitle(d.title);
    doc.setCreator(d.generator);
    doc.setCreationDate(d.now);
    Flow f(doc);

    // Title block.
    const QStringList titleLines = pdfWrap(d.title, PdfFont::HelveticaBold, 19, f.width());
    for (const QString &line : titleLines) {
        f.text(f.left(), f.y() + 18, line, PdfFont::HelveticaBold, 19, kInk);
        f.skip(23);
    }
    f.paragraph(QStringLiteral(
                    "Generated %1 UTC by %2 · workload %3 · %4 offers, %5 projected, %6 on the frontier, %7 "
                    "within deadline and budget")
                    .arg(d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm")), d.generator, r.workload.name)
                    .arg(r.offers.size())
                    .arg(d.projected)
                    .arg(d.frontier.size())
                    .arg(d.feasible),
                8.5, PdfFont::Helvetica, kMuted);
    f.page().setFillColor(kAccent);
    f.page().addRect(f.left(), f.y(), f.width(), 2.2);
    f.page().fill();
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
        PdfCanvas canvas(f.page());
        drawFrontierChart(canvas, d.chart, QRectF(f.left(), f.y(), f.width(), chartH));
        f.skip(chartH + 6);
    }
    f.paragraph(QStringLiteral(
                    "Every projected offer as a point: time of the run against its cost, both on log scales; "
                    "circles are on-demand prices, squares spot prices, colours the providers. Offers on the "
                    "black line are on the efficiency frontier: no other offer is both faster and cheaper.%1")
                    .arg(r.options.deadlineHours || r.options.budgetUsd
                             ? QStringLiteral(" The green area is within the deadline and budget.")
                             : QString()),
                7.8, PdfFont::Helvetica, kMuted);

    f.heading(QStringLiteral("Frontier table"));
    f.paragraph(
        QStringLiteral("The %1 offers on the efficiency frontier, fastest first.").arg(d.frontier.size()),
        8.5, PdfFont::Helvetica, kMuted);
    pointTable(f, d, d.frontier);

    f.heading(QStringLiteral("Spot versus on-demand"));
    if (d.spotSavings.isEmpty()) {
        f.paragraph(QStringLiteral("No GPU model in these offers has a spot price."), 8.5, PdfFont::Helvetica,
                    kMuted);
    } else {
        f.paragraph(
            QStringLiteral(
                "Per GPU model: the discount of spot prices on the same offers, and the cheapest run on "
                "each kind of capacity (spot runs include the expected interruption overhead)."),
            8.5, PdfFont::Helvetica, kMuted);
        f.table(spotHeader(), spotRows(d), {false, true, true, true, true, false, false, true});
    }

    f.heading(QStringLiteral("Single-GPU spot instances versus one multi-GPU on-demand instance"));
    if (d.multiNode.isEmpty()) {
        f.paragraph(
            QStringLiteral(
                "The catalog has no GPU model with both single-GPU spot offers and multi-GPU on-demand "
                "offers, so this comparison is not possible."),
            8.5, PdfFont::Helvetica, kMuted);
    } else {
        f.paragraph(QStringLiteral(
                        "K single-GPU spot instances training together over the network against the cheapest "
                        "K-GPU on-demand instance of the same GPU model."),
                    8.5, PdfFont::Helvetica, kMuted);
        f.table(multiNodeHeader(), multiNodeRows(d),
                {false, true, false, true, true, false, true, true, true, true});
    }

    if (d.input->offerSet != ReportOfferSet::Frontier) {
        f.heading(QStringLiteral("Offers in this report"));
        f.paragraph(QStringLiteral("%1, fastest first (%2 points).").arg(d.offerSetText).arg(d.rows.size()),
                    8.5, PdfFont::Helvetica, kMuted);
        pointTable(f, d, d.rows);
    }

    f.heading(QStringLiteral("Workload and assumptions"));
    f.subheading(QStringLiteral("Workload"));
    f.keyValue(workloadRows(d));
    f.subheading(QStringLiteral("Assumptions"));
    f.keyValue(assumptionRows(d));

    f.heading(QStringLiteral("Catalog snapshots"));
    if (d.snapshots.isEmpty())
        f.paragraph(QStringLiteral("No snapshot information was given."), 8.5, PdfFont::Helvetica, kMuted);
    else
        f.table(snapshotHeader(), snapshotRows(d), {false, false, false, false, false, true, true, true});
    for (const QString &note : snapshotNotes(d))
        f.paragraph(note, 8.5);

    f.heading(QStringLiteral("Calibration"));
    f.keyValue(calibrationRows(d));

    f.heading(QStringLiteral("Reproduce"));
    f.paragraph(reproduceCommand(d, ReportFormat::Pdf), 8, PdfFont::Helvetica, kInk);

    // Footers, now that the page count is known.
    const qsizetype pages = doc.pageCount();
    for (qsizetype i = 0; i < pages; ++i) {
        PdfPage &pg = doc.page(i);
        const double y = kA4HeightPt - 30;
        pg.setStrokeColor(kLine);
        pg.setLineWidth(0.5);
        pg.setDash(0);
        pg.moveTo(kMargin, y - 10);
        pg.lineTo(kA4WidthPt - kMargin, y - 10);
        pg.stroke();
        const QString left = pdfElide(d.title, PdfFont::Helvetica, 7.5, 330);
        pg.text(kMargin, y, left, PdfFont::Helvetica, 7.5, kMuted);
        const QString right = QStringLiteral("%1 · page %2 of %3")
                                  .arg(d.now.toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                                  .arg(i + 1)
                                  .arg(pages);
        pg.text(kA4WidthPt - kMargin - pdfTextWidth(right, PdfFont::Helvetica, 7.5), y, right,
                PdfFont::Helvetica, 7.5, kMuted);
    }
    return doc.toPdf();
}

} // namespace gf::report

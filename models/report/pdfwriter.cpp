#include "report/pdfwriter.h"

#include <QtMath>

#include <array>
#include <cmath>

namespace gf {

namespace {

// Widths from the Adobe font metrics of Helvetica and Helvetica-Bold (identical to the metric-compatible
// URW Nimbus Sans AFM files), indexed by WinAnsiEncoding code - 32.
// clang-format off
/// kHelveticaWidths: WinAnsiEncoding codes 32..255, 1/1000 em (AFM WX; 0 = undefined code).
constexpr std::array<quint16, 224> kHelveticaWidths{
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584, 0,
    556, 0, 222, 556, 333, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 222, 222, 333, 333, 350, 556, 1000, 333, 1000, 500, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 260, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 556, 537, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    667, 667, 667, 667, 667, 667, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 500, 556, 556, 556, 556, 278, 278, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 584, 611, 556, 556, 556, 556, 500, 556, 500,
};
/// kHelveticaBoldWidths: WinAnsiEncoding codes 32..255, 1/1000 em (AFM WX; 0 = undefined code).
constexpr std::array<quint16, 224> kHelveticaBoldWidths{
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611,
    975, 722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 333, 278, 333, 584, 556,
    333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611,
    611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584, 0,
    556, 0, 278, 556, 500, 1000, 556, 556, 333, 1000, 667, 333, 1000, 0, 611, 0,
    0, 278, 278, 500, 500, 350, 556, 1000, 333, 1000, 556, 333, 944, 0, 500, 667,
    278, 333, 556, 556, 556, 556, 280, 556, 333, 737, 370, 556, 584, 333, 737, 333,
    400, 584, 333, 333, 333, 611, 556, 278, 333, 333, 365, 556, 834, 834, 834, 611,
    722, 722, 722, 722, 722, 722, 1000, 722, 667, 667, 667, 667, 278, 278, 278, 278,
    722, 722, 778, 778, 778, 778, 778, 584, 778, 722, 722, 722, 722, 667, 667, 611,
    556, 556, 556, 556, 556, 556, 889, 556, 556, 556, 556, 556, 278, 278, 278, 278,
    611, 611, 611, 611, 611, 611, 611, 584, 611, 611, 611, 611, 611, 556, 611, 556,
};
// clang-format on

/// cp1252 code points 0x80..0x9f (0 = unused code).
constexpr std::array<char16_t, 32> kCp1252High{
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178};

/// Appends the WinAnsi bytes of one UTF-16 code unit (surrogates handled by the caller).
void appendWinAnsi(QByteArray &out, char16_t c)
{
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) {
        out.append(static_cast<char>(c));
        return;
    }
    for (std::size_t i = 0; i < kCp1252High.size(); ++i) {
        if (kCp1252High[i] != 0 && kCp1252High[i] == c) {
            out.append(static_cast<char>(0x80 + i));
            return;
        }
    }
    switch (c) {
    case u'\t':
    case u'\n':
    case u'\r':
        out.append(' ');
        return;
    case 0x2264: // ≤
        out.append("<=");
        return;
    case 0x2265: // ≥
        out.append(">=");
        return;
    case 0x2192: // →
        out.append("->");
        return;
    case 0x2190: // ←
        out.append("<-");
        return;
    case 0x221E: // ∞
        out.append("inf");
        return;
    case 0x2248: // ≈
        out.append('~');
        return;
    case 0x2605: // ★
        out.append('*');
        return;
    case 0x25CE: // ◎
        out.append("(o)");
        return;
    case 0x26A0: // ⚠
        out.append('!');
        return;
    case 0x2713: // ✓
        out.append('v');
        return;
    case 0x2212: // minus
    case 0x2010:
    case 0x2011:
        out.append('-');
        return;
    case 0x2009: // thin space
    case 0x202F:
        out.append(' ');
        return;
    default:
        out.append('?');
    }
}

double widthOfCode(unsigned char code, PdfFont font)
{
    if (code < 32)
        return 0;
    const auto &table = font == PdfFont::HelveticaBold ? kHelveticaBoldWidths : kHelveticaWidths;
    const quint16 w = table[static_cast<std::size_t>(code - 32)];
    return w == 0 ? 556 : w; // undefined codes never come out of toWinAnsi; be safe
}

QByteArray num(double v, int decimals = 2)
{
    return vectorNumber(v, decimals);
}

QByteArray colour(Rgb c)
{
    return num(c.r / 255.0, 3) + ' ' + num(c.g / 255.0, 3) + ' ' + num(c.b / 255.0, 3);
}

/// A PDF literal string: ( ) \ escaped, bytes outside printable ASCII as octal.
QByteArray literal(const QByteArray &bytes)
{
    QByteArray out;
    out.reserve(bytes.size() + 2);
    out.append('(');
    for (char ch : bytes) {
        const auto u = static_cast<unsigned char>(ch);
        if (ch == '(' || ch == ')' || ch == '\\') {
            out.append('\\');
            out.append(ch);
        } else if (u < 32 || u > 126) {
            out.append('\\');
            out.append(static_cast<char>('0' + ((u >> 6) & 7)));
            out.append(static_cast<char>('0' + ((u >> 3) & 7)));
            out.append(static_cast<char>('0' + (u & 7)));
        } else {
            out.append(ch);
        }
    }
    out.append(')');
    return out;
}

/// A PDF text string (document information): UTF-16BE with a byte order mark, hex.
QByteArray textString(const QString &s)
{
    QByteArray utf16;
    utf16.append('\xfe');
    utf16.append('\xff');
    for (QChar c : s) {
        utf16.append(static_cast<char>(c.unicode() >> 8));
        utf16.append(static_cast<char>(c.unicode() & 0xff));
    }
    return '<' + utf16.toHex().toUpper() + '>';
}

} // namespace

QByteArray toWinAnsi(QStringView text)
{
    QByteArray out;
    out.reserve(text.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (c.isHighSurrogate()) {
            out.append('?');
            if (i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
                ++i;
            continue;
        }
        if (c.isLowSurrogate()) {
            out.append('?');
            continue;
        }
        appendWinAnsi(out, c.unicode());
    }
    return out;
}

double pdfTextWidth(QStringView text, PdfFont font, double size)
{
    const QByteArray bytes = toWinAnsi(text);
    double w = 0;
    for (char ch : bytes)
        w += widthOfCode(static_cast<unsigned char>(ch), font);
    return w * size / 1000.0;
}

double helveticaTextWidth(QStringView text, bool bold, double size)
{
    return pdfTextWidth(text, bold ? PdfFont::HelveticaBold : PdfFont::Helvetica, size);
}

QString pdfElide(const QString &text, PdfFont font, double size, double width)
{
    if (pdfTextWidth(text, font, size) <= width)
        return text;
    const QString ellipsis = QStringLiteral("…");
    const double ew = pdfTextWidth(ellipsis, font, size);
    QString cut = text;
    while (!cut.isEmpty() && pdfTextWidth(cut, font, size) + ew > width)
        cut.chop(1);
    return cut.trimmed() + ellipsis;
}

QStringList pdfWrap(const QString &text, PdfFont font, double size, double width)
{
    QStringList lines;
    const QStringList paragraphs = text.split(u'\n');
    for (const QString &para : paragraphs) {
        QString line;
        const QStringList words = para.split(u' ', Qt::SkipEmptyParts);
        for (QString word : words) {
            QString candidate = line.isEmpty() ? word : line + u' ' + word;
            if (pdfTextWidth(candidate, font, size) <= width + 0.01) {
                line = candidate;
                continue;
            }
            if (!line.isEmpty())
                lines.append(line);
            // A word wider than the line is cut into pieces.
            while (pdfTextWidth(word, font, size) > width + 0.01 && word.size() > 1) {
                qsizetype n = word.size() - 1;
                while (n > 1 && pdfTextWidth(word.left(n), font, size) > width + 0.01)
                    --n;
                // Prefer a break after a natural separator ("interruption-|assumed", "Standard_|NC6").
                for (qsizetype k = n - 1; k > 0; --k) {
                    if (QStringView(u"-_/.,:").contains(word.at(k - 1))) {
                        n = k;
                        break;
                    }
                }
                lines.append(word.left(n));
                word = word.mid(n);
            }
            line = word;
        }
        lines.append(line);
    }
    return lines;
}

// ------------------------------------------------------------------------------------------------
// PdfPage
// ------------------------------------------------------------------------------------------------

QByteArray PdfPage::pt(double x, double y) const
{
    return num(x) + ' ' + num(m_height - y);
}

void PdfPage::setFillColor(Rgb c)
{
    m_content += colour(c) + " rg\n";
}

void PdfPage::setStrokeColor(Rgb c)
{
    m_content += colour(c) + " RG\n";
}

void PdfPage::setLineWidth(double w)
{
    m_content += num(w) + " w\n";
}

void PdfPage::setDash(double dash)
{
    if (dash <= 0)
        m_content += "[] 0 d\n";
    else
        m_content += '[' + num(dash) + ' ' + num(dash) + "] 0 d\n";
}

void PdfPage::moveTo(double x, double y)
{
    m_content += pt(x, y) + " m\n";
}

void PdfPage::lineTo(double x, double y)
{
    m_content += pt(x, y) + " l\n";
}

void PdfPage::curveTo(double x1, double y1, double x2, double y2, double x3, double y3)
{
    m_content += pt(x1, y1) + ' ' + pt(x2, y2) + ' ' + pt(x3, y3) + " c\n";
}

void PdfPage::closePath()
{
    m_content += "h\n";
}

void PdfPage::addRect(double x, double y, double w, double h)
{
    // PDF rectangles grow upwards from their lower-left corner.
    m_content += pt(x, y + h) + ' ' + num(w) + ' ' + num(h) + " re\n";
}

void PdfPage::addCircle(double cx, double cy, double r)
{
    const double k = 0.5522847498 * r;
    moveTo(cx + r, cy);
    curveTo(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    curveTo(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    curveTo(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    curveTo(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    closePath();
}

void PdfPage::stroke()
{
    m_content += "S\n";
}

void PdfPage::fill()
{
    m_content += "f\n";
}

void PdfPage::fillAndStroke()
{
    m_content += "B\n";
}

void PdfPage::save()
{
    m_content += "q\n";
}

void PdfPage::restore()
{
    m_content += "Q\n";
}

void PdfPage::clipRect(double x, double y, double w, double h)
{
    addRect(x, y, w, h);
    m_content += "W n\n";
}

void PdfPage::text(double x, double y, QStringView s, PdfFont font, double size, Rgb color, double rotateDeg)
{
    if (s.isEmpty())
        return;
    m_content +=
        "BT\n/" + QByteArray(font == PdfFont::HelveticaBold ? "F2" : "F1") + ' ' + num(size) + " Tf\n";
    m_content += colour(color) + " rg\n";
    if (rotateDeg == 0) {
        m_content += "1 0 0 1 " + pt(x, y) + " Tm\n";
    } else {
        const double a = qDegreesToRadians(rotateDeg);
        const double c = std::cos(a);
        const double sn = std::sin(a);
        m_content +=
            num(c, 4) + ' ' + num(sn, 4) + ' ' + num(-sn, 4) + ' ' + num(c, 4) + ' ' + pt(x, y) + " Tm\n";
    }
    m_content += literal(toWinAnsi(s)) + " Tj\nET\n";
}

// ------------------------------------------------------------------------------------------------
// PdfDocument
// ------------------------------------------------------------------------------------------------

PdfDocument::PdfDocument(double pageWidth, double pageHeight)
    : m_pageWidth(pageWidth), m_pageHeight(pageHeight)
{
}

PdfDocument::~PdfDocument() = default;

PdfPage &PdfDocument::addPage()
{
    m_pages.push_back(std::make_unique<PdfPage>(m_pageWidth, m_pageHeight));
    return *m_pages.back();
}

QByteArray PdfDocument::toPdf() const
{
    // Object numbers: 1 catalog, 2 page tree, 3 Helvetica, 4 Helvetica-Bold, 5 info,
    // then per page i: 6 + 2i page, 7 + 2i content stream.
    const qsizetype pages = m_pages.size();
    const qsizetype objectCount = 5 + 2 * pages;
    QList<qsizetype> offsets(objectCount + 1, 0);
    QByteArray out;
    out += "%PDF-1.4\n%\xe2\xe3\xcf\xd3\n";
    auto begin = [&](qsizetype n) {
        offsets[n] = out.size();
        out += QByteArray::number(n) + " 0 obj\n";
    };
    auto end = [&] { out += "endobj\n"; };

    begin(1);
    out += "<< /Type /Catalog /Pages 2 0 R >>\n";
    end();
    begin(2);
    out += "<< /Type /Pages /Kids [";
    for (qsizetype i = 0; i < pages; ++i)
        out += (i ? " " : "") + QByteArray::number(6 + 2 * i) + " 0 R";
    out += "] /Count " + QByteArray::number(pages) + " >>\n";
    end();
    begin(3);
    out += "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>\n";
    end();
    begin(4);
    out += "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>\n";
    end();
    begin(5);
    out += "<< /Producer " + textString(m_creator.isEmpty() ? QStringLiteral("GPU Frontier") : m_creator);
    if (!m_title.isEmpty())
        out += " /Title " + textString(m_title);
    if (!m_creator.isEmpty())
        out += " /Creator " + textString(m_creator);
    if (m_created.isValid())
        out +=
            " /CreationDate (D:" + m_created.toUTC().toString(QStringLiteral("yyyyMMddHHmmss")).toLatin1() +
            "Z)";
    out += " >>\n";
    end();
    const QByteArray mediaBox = "[0 0 " + num(m_pageWidth) + ' ' + num(m_pageHeight) + ']';
    for (qsizetype i = 0; i < pages; ++i) {
        begin(6 + 2 * i);
        out += "<< /Type /Page /Parent 2 0 R /MediaBox " + mediaBox +
               " /Resources << /Font << /F1 3 0 R /F2 4 0 R >> /ProcSet [/PDF /Text] >> /Contents " +
               QByteArray::number(7 + 2 * i) + " 0 R >>\n";
        end();
        begin(7 + 2 * i);
        QByteArray data = m_pages[static_cast<std::size_t>(i)]->content();
        QByteArray filter;
        if (m_compress) {
            // qCompress = 4-byte big-endian length + a zlib stream, which is what FlateDecode reads.
            data = qCompress(data, 9).mid(4);
            filter = " /Filter /FlateDecode";
        }
        out += "<< /Length " + QByteArray::number(data.size()) + filter + " >>\nstream\n";
        out += data;
        out += "\nendstream\n";
        end();
    }
    const qsizetype xref = out.size();
    out += "xref\n0 " + QByteArray::number(objectCount + 1) + "\n0000000000 65535 f \n";
    for (qsizetype n = 1; n <= objectCount; ++n)
        out += QByteArray::number(offsets.at(n)).rightJustified(10, '0') + " 00000 n \n";
    out += "trailer\n<< /Size " + QByteArray::number(objectCount + 1) +
           " /Root 1 0 R /Info 5 0 R >>\nstartxref\n" + QByteArray::number(xref) + "\n%%EOF\n";
    return out;
}

// ------------------------------------------------------------------------------------------------
// PdfCanvas
// ------------------------------------------------------------------------------------------------

void PdfCanvas::applyPen(const Pen &pen)
{
    m_page.setStrokeColor(pen.color);
    m_page.setLineWidth(pen.width);
    m_page.setDash(pen.dash);
}

void PdfCanvas::line(QPointF a, QPointF b, const Pen &pen)
{
    applyPen(pen);
    m_page.moveTo(a.x(), a.y());
    m_page.lineTo(b.x(), b.y());
    m_page.stroke();
}

void PdfCanvas::polyline(const QList<QPointF> &points, const Pen &pen)
{
    if (points.size() < 2)
        return;
    applyPen(pen);
    m_page.moveTo(points.first().x(), points.first().y());
    for (qsizetype i = 1; i < points.size(); ++i)
        m_page.lineTo(points.at(i).x(), points.at(i).y());
    m_page.stroke();
}

void PdfCanvas::paint(bool fill, bool stroke)
{
    if (fill && stroke)
        m_page.fillAndStroke();
    else if (fill)
        m_page.fill();
    else if (stroke)
        m_page.stroke();
}

void PdfCanvas::rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (fill)
        m_page.setFillColor(*fill);
    if (stroke)
        applyPen(*stroke);
    m_page.addRect(r.x(), r.y(), r.width(), r.height());
    paint(fill.has_value(), stroke.has_value());
}

void PdfCanvas::circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (fill)
        m_page.setFillColor(*fill);
    if (stroke)
        applyPen(*stroke);
    m_page.addCircle(centre.x(), centre.y(), radius);
    paint(fill.has_value(), stroke.has_value());
}

void PdfCanvas::text(QPointF at, const QString &s, double size, bool bold, Rgb color, TextAnchor anchor,
                     double rotateDeg)
{
    const PdfFont font = bold ? PdfFont::HelveticaBold : PdfFont::Helvetica;
    double shift = 0;
    if (anchor != TextAnchor::Start) {
        const double w = pdfTextWidth(s, font, size);
        shift = anchor == TextAnchor::Middle ? w / 2 : w;
    }
    // Shift along the text direction (y down: a counter-clockwise rotation goes up the page).
    const double a = qDegreesToRadians(rotateDeg);
    const double x = at.x() - shift * std::cos(a);
    const double y = at.y() + shift * std::sin(a);
    m_page.text(x, y, s, font, size, color, rotateDeg);
}

void PdfCanvas::beginClip(const QRectF &r)
{
    m_page.save();
    m_page.clipRect(r.x(), r.y(), r.width(), r.height());
}

void PdfCanvas::endClip()
{
    m_page.restore();
}

} // namespace gf

#include "report/svgcanvas.h"

#include <array>

namespace gf {

namespace {
QString n(double v)
{
    return QString::fromLatin1(vectorNumber(v, 2));
}

// Widths from the Adobe font metrics of Helvetica and Helvetica-Bold (identical to the metric-compatible
// URW Nimbus Sans AFM files), indexed by WinAnsiEncoding (cp1252) code - 32.
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

bool eastAsianWide(char32_t c)
{
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) || (c >= 0xAC00 && c <= 0xD7A3) ||
           (c >= 0xF900 && c <= 0xFAFF) || (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
           (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1FAFF) || (c >= 0x20000 && c <= 0x3FFFD);
}

/// Width of one character in 1/1000 em.
int charWidth(char32_t c, bool bold)
{
    const auto &table = bold ? kHelveticaBoldWidths : kHelveticaWidths;
    int code = -1;
    if ((c >= 0x20 && c <= 0x7e) || (c >= 0xa0 && c <= 0xff)) {
        code = static_cast<int>(c);
    } else {
        for (std::size_t i = 0; i < kCp1252High.size(); ++i)
            if (kCp1252High[i] != 0 && kCp1252High[i] == c)
                code = static_cast<int>(0x80 + i);
    }
    if (code >= 32 && table[static_cast<std::size_t>(code - 32)] != 0)
        return table[static_cast<std::size_t>(code - 32)];
    if (c < 0x20)
        return 0;
    return eastAsianWide(c) ? 1000 : 556;
}
} // namespace

double helveticaTextWidth(QStringView text, bool bold, double size)
{
    double w = 0;
    for (qsizetype i = 0; i < text.size(); ++i) {
        char32_t c = text.at(i).unicode();
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate()) {
            c = QChar::surrogateToUcs4(text.at(i), text.at(i + 1));
            ++i;
        }
        w += charWidth(c, bold);
    }
    return w * size / 1000.0;
}

QString xmlEscape(QStringView text)
{
    QString out;
    out.reserve(text.size() + 8);
    for (QChar c : text) {
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
        case u'"':
            out += QStringLiteral("&quot;");
            break;
        case u'\'':
            out += QStringLiteral("&#39;");
            break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (c.unicode() < 0x20 && c != u'\n' && c != u'\t' && c != u'\r')
                out += u'?';
            else
                out += c;
        }
    }
    return out;
}

SvgCanvas::SvgCanvas(double width, double height) : m_width(width), m_height(height) {}

QString SvgCanvas::penAttributes(const Pen &pen) const
{
    QString s = QStringLiteral(" stroke=\"%1\" stroke-width=\"%2\"").arg(pen.color.hexName(), n(pen.width));
    if (pen.dash > 0)
        s += QStringLiteral(" stroke-dasharray=\"%1 %1\"").arg(n(pen.dash));
    return s;
}

void SvgCanvas::line(QPointF a, QPointF b, const Pen &pen)
{
    if (m_skipBody)
        return;
    addBody(QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\"%5/>\n")
                .arg(n(a.x()), n(a.y()), n(b.x()), n(b.y()), penAttributes(pen)));
}

void SvgCanvas::polyline(const QList<QPointF> &points, const Pen &pen)
{
    if (points.size() < 2 || m_skipBody)
        return;
    QString pts;
    for (const QPointF &p : points)
        pts += (pts.isEmpty() ? QString() : QStringLiteral(" ")) + n(p.x()) + u',' + n(p.y());
    addBody(QStringLiteral("<polyline points=\"%1\" fill=\"none\"%2 stroke-linejoin=\"round\"/>\n")
                .arg(pts, penAttributes(pen)));
}

void SvgCanvas::rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (m_skipBody)
        return;
    addBody(QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"%6/>\n")
                .arg(n(r.x()), n(r.y()), n(r.width()), n(r.height()),
                     fill ? fill->hexName() : QStringLiteral("none"),
                     stroke ? penAttributes(*stroke) : QString()));
}

void SvgCanvas::circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (m_skipBody)
        return;
    addBody(QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\" fill=\"%4\"%5/>\n")
                .arg(n(centre.x()), n(centre.y()), n(radius), fill ? fill->hexName() : QStringLiteral("none"),
                     stroke ? penAttributes(*stroke) : QString()));
}

void SvgCanvas::text(QPointF at, const QString &text, double size, bool bold, Rgb color, TextAnchor anchor,
                     double rotateDeg)
{
    if (m_skipBody)
        return;
    QString attrs = QStringLiteral(" x=\"%1\" y=\"%2\" font-size=\"%3\" fill=\"%4\"")
                        .arg(n(at.x()), n(at.y()), n(size), color.hexName());
    if (bold)
        attrs += QStringLiteral(" font-weight=\"bold\"");
    if (anchor == TextAnchor::Middle)
        attrs += QStringLiteral(" text-anchor=\"middle\"");
    else if (anchor == TextAnchor::End)
        attrs += QStringLiteral(" text-anchor=\"end\"");
    if (rotateDeg != 0) // SVG rotates clockwise (y down)
        attrs += QStringLiteral(" transform=\"rotate(%1 %2 %3)\"").arg(n(-rotateDeg), n(at.x()), n(at.y()));
    addBody(QStringLiteral("<text%1>%2</text>\n").arg(attrs, xmlEscape(text)));
}

void SvgCanvas::beginClip(const QRectF &r)
{
    ++m_clipCount;
    const QString id = QStringLiteral("gf-clip-%1").arg(m_clipCount);
    m_defs += QStringLiteral(
                  "<clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath>\n")
                  .arg(id, n(r.x()), n(r.y()), n(r.width()), n(r.height()));
    addBody(QStringLiteral("<g clip-path=\"url(#%1)\">\n").arg(id));
}

void SvgCanvas::endClip()
{
    addBody(QStringLiteral("</g>\n"));
}

void SvgCanvas::addBody(const QString &element)
{
    if (m_skipBody)
        return;
    if (m_sink)
        m_sink(element);
    else
        m_body += element;
}

QString SvgCanvas::head(bool standalone) const
{
    QString s;
    if (standalone)
        s += QStringLiteral("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    s += QStringLiteral(
             "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%1\" height=\"%2\" "
             "viewBox=\"0 0 %1 %2\" font-family=\"Helvetica, Arial, 'Liberation Sans', sans-serif\" "
             "role=\"img\">\n")
             .arg(n(m_width), n(m_height));
    if (!m_title.isEmpty())
        s += QStringLiteral("<title>%1</title>\n").arg(xmlEscape(m_title));
    if (!m_desc.isEmpty())
        s += QStringLiteral("<desc>%1</desc>\n").arg(xmlEscape(m_desc));
    if (!m_defs.isEmpty())
        s += QStringLiteral("<defs>\n") + m_defs + QStringLiteral("</defs>\n");
    return s;
}

QString SvgCanvas::toSvg(bool standalone) const
{
    return head(standalone) + m_body + QStringLiteral("</svg>\n");
}

} // namespace gf

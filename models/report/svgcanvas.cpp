#include "report/svgcanvas.h"

namespace gf {

namespace {
QString n(double v)
{
    return QString::fromLatin1(vectorNumber(v, 2));
}
} // namespace

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
    m_body += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%4\"%5/>\n")
                  .arg(n(a.x()), n(a.y()), n(b.x()), n(b.y()), penAttributes(pen));
}

void SvgCanvas::polyline(const QList<QPointF> &points, const Pen &pen)
{
    if (points.size() < 2)
        return;
    QString pts;
    for (const QPointF &p : points)
        pts += (pts.isEmpty() ? QString() : QStringLiteral(" ")) + n(p.x()) + u',' + n(p.y());
    m_body += QStringLiteral("<polyline points=\"%1\" fill=\"none\"%2 stroke-linejoin=\"round\"/>\n")
                  .arg(pts, penAttributes(pen));
}

void SvgCanvas::rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    m_body += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"%5\"%6/>\n")
                  .arg(n(r.x()), n(r.y()), n(r.width()), n(r.height()),
                       fill ? fill->hexName() : QStringLiteral("none"),
                       stroke ? penAttributes(*stroke) : QString());
}

void SvgCanvas::circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    m_body +=
        QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"%3\" fill=\"%4\"%5/>\n")
            .arg(n(centre.x()), n(centre.y()), n(radius), fill ? fill->hexName() : QStringLiteral("none"),
                 stroke ? penAttributes(*stroke) : QString());
}

void SvgCanvas::text(QPointF at, const QString &text, double size, bool bold, Rgb color, TextAnchor anchor,
                     double rotateDeg)
{
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
    m_body += QStringLiteral("<text%1>%2</text>\n").arg(attrs, xmlEscape(text));
}

void SvgCanvas::beginClip(const QRectF &r)
{
    ++m_clipCount;
    const QString id = QStringLiteral("gf-clip-%1").arg(m_clipCount);
    m_defs += QStringLiteral(
                  "<clipPath id=\"%1\"><rect x=\"%2\" y=\"%3\" width=\"%4\" height=\"%5\"/></clipPath>\n")
                  .arg(id, n(r.x()), n(r.y()), n(r.width()), n(r.height()));
    m_body += QStringLiteral("<g clip-path=\"url(#%1)\">\n").arg(id);
}

void SvgCanvas::endClip()
{
    m_body += QStringLiteral("</g>\n");
}

QString SvgCanvas::toSvg(bool standalone) const
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
    s += m_body;
    s += QStringLiteral("</svg>\n");
    return s;
}

} // namespace gf

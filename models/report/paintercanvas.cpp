#include "report/paintercanvas.h"

#include <QColor>
#include <QPaintDevice>
#include <QPainter>
#include <QPen>
#include <QPolygonF>

namespace gf {

namespace {

QColor qcolor(Rgb c)
{
    return QColor(c.r, c.g, c.b);
}

} // namespace

QFont reportFont(double sizePt, bool bold)
{
    QFont f;
    f.setFamilies({QStringLiteral("Liberation Sans"), QStringLiteral("Helvetica"), QStringLiteral("Arial"),
                   QStringLiteral("DejaVu Sans")});
    f.setStyleHint(QFont::SansSerif);
    f.setPointSizeF(sizePt);
    f.setBold(bold);
    // Widths add up (no kerning, no ligatures where the script needs no shaping): a line measures what
    // its characters measure, and every glyph maps back to its character for text extraction.
    f.setKerning(false);
    f.setStyleStrategy(QFont::PreferNoShaping);
    f.setHintingPreference(QFont::PreferNoHinting);
    return f;
}

PainterCanvas::PainterCanvas(const QPaintDevice &device, QPainter *painter)
    : m_device(device), m_painter(painter), m_scale(device.logicalDpiX() / 72.0)
{
}

const QFont &PainterCanvas::font(double size, bool bold) const
{
    const auto key = std::make_pair(size, bold);
    auto it = m_fonts.find(key);
    if (it == m_fonts.end())
        it = m_fonts.emplace(key, reportFont(size, bold)).first;
    return it->second;
}

const QFontMetricsF &PainterCanvas::metrics(double size, bool bold) const
{
    const auto key = std::make_pair(size, bold);
    auto it = m_metrics.find(key);
    if (it == m_metrics.end())
        it = m_metrics.emplace(key, QFontMetricsF(font(size, bold), &m_device)).first;
    return it->second;
}

void PainterCanvas::measureUnits(QStringView text, const QFontMetricsF &fm, QList<qsizetype> &ends,
                                 QList<double> &sums) const
{
    const qsizetype n = text.size();
    double sum = 0;
    qsizetype i = 0;
    while (i < n) {
        qsizetype j = i + 1;
        if (text.at(i).isHighSurrogate() && j < n && text.at(j).isLowSurrogate()) {
            ++j;
            sum += fm.horizontalAdvance(text.sliced(i, 2).toString());
        } else {
            sum += fm.horizontalAdvance(text.at(i));
        }
        // Combining marks stay with their base character (and add no width).
        while (j < n) {
            char32_t cp = text.at(j).unicode();
            qsizetype len = 1;
            if (text.at(j).isHighSurrogate() && j + 1 < n && text.at(j + 1).isLowSurrogate()) {
                cp = QChar::surrogateToUcs4(text.at(j), text.at(j + 1));
                len = 2;
            }
            if (!QChar::isMark(cp))
                break;
            j += len;
        }
        ends.append(j);
        sums.append(sum);
        i = j;
    }
}

double PainterCanvas::textWidth(const QString &s, double size, bool bold) const
{
    return metrics(size, bold).horizontalAdvance(s) / m_scale;
}

QStringList PainterCanvas::wrap(const QString &text, double size, bool bold, double width) const
{
    const QFontMetricsF &fm = metrics(size, bold);
    const double limit = (width + 0.01) * m_scale;
    const double space = fm.horizontalAdvance(u' ');
    static constexpr QStringView separators = u"-_/.,:";
    QStringList lines;
    QList<qsizetype> ends;
    QList<double> sums;
    for (QStringView para : QStringView(text).split(u'\n')) {
        QString line;
        double lineWidth = 0;
        const qsizetype n = para.size();
        qsizetype i = 0;
        while (i < n) {
            while (i < n && para.at(i) == u' ')
                ++i;
            if (i == n)
                break;
            qsizetype e = i;
            while (e < n && para.at(e) != u' ')
                ++e;
            const QStringView word = para.sliced(i, e - i);
            i = e;
            ends.clear();
            sums.clear();
            measureUnits(word, fm, ends, sums);
            const qsizetype units = ends.size();
            auto offset = [&](qsizetype unit) { return unit == 0 ? qsizetype(0) : ends.at(unit - 1); };
            auto widthTo = [&](qsizetype unit) { return unit == 0 ? 0.0 : sums.at(unit - 1); };
            const double wordWidth = widthTo(units);
            if (line.isEmpty() ? wordWidth <= limit : lineWidth + space + wordWidth <= limit) {
                if (!line.isEmpty()) {
                    line += u' ';
                    lineWidth += space;
                }
                line += word;
                lineWidth += wordWidth;
                continue;
            }
            if (!line.isEmpty())
                lines.append(line);
            // A word wider than the line is cut into pieces, preferably after a natural separator
            // ("interruption-|assumed", "Standard_|NC6"). Every unit is looked at a bounded number of
            // times: linear in the length of the word.
            qsizetype first = 0;
            while (widthTo(units) - widthTo(first) > limit && units - first > 1) {
                qsizetype cut = first + 1;
                while (cut < units && widthTo(cut + 1) - widthTo(first) <= limit)
                    ++cut;
                for (qsizetype k = cut - 1; k > first; --k) {
                    if (separators.contains(word.at(offset(k) - 1))) {
                        cut = k;
                        break;
                    }
                }
                lines.append(word.sliced(offset(first), offset(cut) - offset(first)).toString());
                first = cut;
            }
            line = word.sliced(offset(first)).toString();
            lineWidth = widthTo(units) - widthTo(first);
        }
        lines.append(line);
    }
    return lines;
}

QString PainterCanvas::elide(const QString &text, double size, bool bold, double width) const
{
    const QFontMetricsF &fm = metrics(size, bold);
    QList<qsizetype> ends;
    QList<double> sums;
    measureUnits(text, fm, ends, sums);
    const double limit = width * m_scale;
    if (sums.isEmpty() || sums.last() <= limit)
        return text;
    const QString ellipsis = QStringLiteral("…");
    const double room = limit - fm.horizontalAdvance(ellipsis);
    qsizetype keep = 0;
    while (keep < ends.size() && sums.at(keep) <= room)
        ++keep;
    return text.left(keep == 0 ? 0 : ends.at(keep - 1)).trimmed() + ellipsis;
}

void PainterCanvas::applyPen(const Pen &pen) const
{
    QPen p(qcolor(pen.color), pen.width * m_scale);
    p.setCapStyle(Qt::FlatCap);
    p.setJoinStyle(Qt::MiterJoin);
    if (pen.dash > 0 && pen.width > 0) // a dash pattern is given in pen widths
        p.setDashPattern({pen.dash / pen.width, pen.dash / pen.width});
    m_painter->setPen(p);
}

void PainterCanvas::line(QPointF a, QPointF b, const Pen &pen)
{
    if (!m_painter)
        return;
    applyPen(pen);
    m_painter->drawLine(a * m_scale, b * m_scale);
}

void PainterCanvas::polyline(const QList<QPointF> &points, const Pen &pen)
{
    if (!m_painter || points.size() < 2)
        return;
    applyPen(pen);
    QPolygonF poly;
    poly.reserve(points.size());
    for (const QPointF &p : points)
        poly.append(p * m_scale);
    m_painter->drawPolyline(poly);
}

void PainterCanvas::rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (!m_painter)
        return;
    const QRectF d(r.topLeft() * m_scale, r.size() * m_scale);
    if (fill)
        m_painter->fillRect(d, qcolor(*fill));
    if (stroke) {
        applyPen(*stroke);
        m_painter->setBrush(Qt::NoBrush);
        m_painter->drawRect(d);
    }
}

void PainterCanvas::circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke)
{
    if (!m_painter)
        return;
    if (stroke)
        applyPen(*stroke);
    else
        m_painter->setPen(Qt::NoPen);
    m_painter->setBrush(fill ? QBrush(qcolor(*fill)) : QBrush(Qt::NoBrush));
    m_painter->drawEllipse(centre * m_scale, radius * m_scale, radius * m_scale);
}

void PainterCanvas::text(QPointF at, const QString &s, double size, bool bold, Rgb color, TextAnchor anchor,
                         double rotateDeg)
{
    if (!m_painter || s.isEmpty())
        return;
    double shift = 0;
    if (anchor != TextAnchor::Start) {
        const double w = textWidth(s, size, bold);
        shift = anchor == TextAnchor::Middle ? w / 2 : w;
    }
    m_painter->setFont(font(size, bold));
    m_painter->setPen(qcolor(color));
    if (rotateDeg == 0) {
        m_painter->drawText(QPointF((at.x() - shift) * m_scale, at.y() * m_scale), s);
        return;
    }
    // Rotated counter-clockwise around `at` (y down: negative angles in Qt's clockwise convention).
    m_painter->save();
    m_painter->translate(at * m_scale);
    m_painter->rotate(-rotateDeg);
    m_painter->drawText(QPointF(-shift * m_scale, 0), s);
    m_painter->restore();
}

void PainterCanvas::beginClip(const QRectF &r)
{
    if (!m_painter)
        return;
    m_painter->save();
    m_painter->setClipRect(QRectF(r.topLeft() * m_scale, r.size() * m_scale));
}

void PainterCanvas::endClip()
{
    if (m_painter)
        m_painter->restore();
}

} // namespace gf

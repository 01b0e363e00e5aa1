#pragma once

#include "report/vectorcanvas.h"

#include <QFont>
#include <QFontMetricsF>
#include <QString>
#include <QStringList>

#include <map>
#include <utility>

class QPainter;
class QPaintDevice;

namespace gf {

/// The typeface of the PDF report at `sizePt` points: Liberation Sans (the metrics of Helvetica and
/// Arial), else Helvetica, Arial or DejaVu Sans. Characters the face lacks (CJK, emoji, ...) come from
/// the fallback fonts fontconfig names; the PDF embeds (a subset of) every font used.
QFont reportFont(double sizePt, bool bold);

/// The VectorCanvas interface on a QPainter (a QPdfWriter page in the PDF report). Coordinates are
/// points with the origin at the top left (y down), converted to the device's units (its resolution /
/// 72); text is measured with the device's font metrics. Without a painter (a layout pass that only
/// counts pages) everything is measured and nothing is drawn.
///
/// Measuring, wrapping and eliding take time linear in the length of the text, whatever it is.
class PainterCanvas final : public VectorCanvas
{
public:
    PainterCanvas(const QPaintDevice &device, QPainter *painter);

    QPainter *painter() const { return m_painter; }

    void line(QPointF a, QPointF b, const Pen &pen) override;
    void polyline(const QList<QPointF> &points, const Pen &pen) override;
    void rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void text(QPointF at, const QString &text, double size, bool bold, Rgb color,
              TextAnchor anchor = TextAnchor::Start, double rotateDeg = 0) override;
    void beginClip(const QRectF &r) override;
    void endClip() override;
    double textWidth(const QString &s, double size, bool bold) const override;

    /// Splits text into lines no wider than `width` points: at newlines and spaces; a word longer than
    /// a line is cut, after a separator ("-_/.,:") where one is on that line.
    QStringList wrap(const QString &text, double size, bool bold, double width) const;
    /// The longest prefix of `text` that fits `width` points, with "…" appended when cut.
    QString elide(const QString &text, double size, bool bold, double width) const;

private:
    const QFont &font(double size, bool bold) const;
    const QFontMetricsF &metrics(double size, bool bold) const;
    /// Widths (device units) at the end of each break position of `text`: ends[i] is the offset just
    /// after the i-th unit that may not be split (a code point with its combining marks), sums[i] the
    /// width of text.left(ends[i]).
    void measureUnits(QStringView text, const QFontMetricsF &fm, QList<qsizetype> &ends,
                      QList<double> &sums) const;
    void applyPen(const Pen &pen) const;

    const QPaintDevice &m_device;
    QPainter *m_painter;
    double m_scale; ///< device units per point
    mutable std::map<std::pair<double, bool>, QFont> m_fonts;
    mutable std::map<std::pair<double, bool>, QFontMetricsF> m_metrics;
};

} // namespace gf

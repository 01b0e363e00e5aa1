#pragma once

#include "report/vectorcanvas.h"

#include <QString>

#include <functional>

namespace gf {

/// Escapes text for XML/HTML content and attribute values (& < > " ').
QString xmlEscape(QStringView text);

/// Estimated width in points of text set in Helvetica or Arial, which the SVG names as its font (a
/// browser measures the real text; the chart's layout needs an estimate without fonts): Adobe AFM
/// widths of Helvetica and Helvetica-Bold for Latin-1, 1 em for East Asian wide characters, the
/// width of a digit for anything else.
double helveticaTextWidth(QStringView text, bool bold, double size);

/// The VectorCanvas interface written as an SVG 1.1 document (string building, every text escaped).
class SvgCanvas final : public VectorCanvas
{
public:
    SvgCanvas(double width, double height);

    void line(QPointF a, QPointF b, const Pen &pen) override;
    void polyline(const QList<QPointF> &points, const Pen &pen) override;
    void rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void text(QPointF at, const QString &text, double size, bool bold, Rgb color,
              TextAnchor anchor = TextAnchor::Start, double rotateDeg = 0) override;
    void beginClip(const QRectF &r) override;
    void endClip() override;
    double textWidth(const QString &s, double size, bool bold) const override
    {
        return helveticaTextWidth(s, bold, size);
    }

    /// Accessible title and description (<title>, <desc>).
    void setTitle(const QString &title) { m_title = title; }
    void setDescription(const QString &desc) { m_desc = desc; }
    /// The complete <svg> element. `standalone` adds the XML declaration (for a .svg file).
    QString toSvg(bool standalone) const;

    /// Drawing a large picture without holding it: the body's elements (what toSvg writes between
    /// head() and "</svg>\n") go to `sink` one by one as they are drawn, none is kept.
    void setBodySink(std::function<void(const QString &)> sink) { m_sink = std::move(sink); }
    /// Draws nothing into the body (a first pass that only finds the clip paths head() lists).
    void setSkipBody(bool skip) { m_skipBody = skip; }
    /// What toSvg writes before the body: the XML declaration when `standalone`, the <svg> start tag,
    /// title, description and the clip paths drawn so far.
    QString head(bool standalone) const;

private:
    QString penAttributes(const Pen &pen) const;
    void addBody(const QString &element);
    double m_width;
    double m_height;
    QString m_title;
    QString m_desc;
    QString m_defs;
    QString m_body;
    int m_clipCount = 0;
    std::function<void(const QString &)> m_sink;
    bool m_skipBody = false;
};

} // namespace gf

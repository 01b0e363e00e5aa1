#pragma once

#include <QList>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringView>

#include <optional>

namespace gf {

/// A colour without QtGui (the SVG writer and the chart need no Qt Gui).
struct Rgb
{
    quint8 r = 0;
    quint8 g = 0;
    quint8 b = 0;

    static constexpr Rgb fromHex(quint32 hex)
    {
        return Rgb{static_cast<quint8>((hex >> 16) & 0xff), static_cast<quint8>((hex >> 8) & 0xff),
                   static_cast<quint8>(hex & 0xff)};
    }
    /// Mixes towards `other`: t = 0 gives this colour, 1 gives `other` (print-friendly "transparency").
    Rgb mixed(Rgb other, double t) const;
    /// "#rrggbb"
    QString hexName() const;
    friend bool operator==(const Rgb &, const Rgb &) = default;
};

struct Pen
{
    Rgb color;
    double width = 1.0;
    double dash = 0; ///< dash and gap length; 0 = solid
};

enum class TextAnchor : quint8
{
    Start,
    Middle,
    End
};

/// A minimal vector drawing surface. Coordinates in points (1/72 in), origin top left, y down.
/// The chart is drawn once against this interface and written as SVG (svgcanvas.h) or painted into a
/// PDF page (paintercanvas.h).
class VectorCanvas
{
public:
    virtual ~VectorCanvas() = default;

    virtual void line(QPointF a, QPointF b, const Pen &pen) = 0;
    virtual void polyline(const QList<QPointF> &points, const Pen &pen) = 0;
    virtual void rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke) = 0;
    virtual void circle(QPointF centre, double radius, std::optional<Rgb> fill,
                        std::optional<Pen> stroke) = 0;
    /// Text on a baseline at `at`; rotated counter-clockwise by `rotateDeg` around `at`.
    virtual void text(QPointF at, const QString &text, double size, bool bold, Rgb color,
                      TextAnchor anchor = TextAnchor::Start, double rotateDeg = 0) = 0;
    /// Begins / ends a group whose drawing is clipped to `r` (no nesting needed).
    virtual void beginClip(const QRectF &r) = 0;
    virtual void endClip() = 0;

    /// Width of text in points as this surface sets it.
    virtual double textWidth(const QString &s, double size, bool bold) const = 0;
};

/// Fixed-point number text for vector output: at most `decimals` decimals, trailing zeros removed,
/// never "-0" (deterministic across runs and locales).
QByteArray vectorNumber(double v, int decimals = 2);

} // namespace gf

#include "uistyle.h"

#include <QApplication>
#include <QWidget>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {
constexpr const char *kErrorProperty = "gfErrorStyle";
}

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
}

double contrastRatio(const QColor &a, const QColor &b)
{
    auto luminance = [](const QColor &c) {
        auto channel = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
    };
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QColor readableOn(const QColor &colour, const QColor &background, double minRatio)
{
    const bool darkBackground = background.lightness() < 128;
    QColor c = colour.toHsl();
    const int alpha = colour.alpha();
    c.setAlpha(255);
    // Lightness in steps: at most 255 of them, and black or white always gets there.
    for (int i = 0; i < 256 && contrastRatio(c, background) < minRatio; ++i) {
        const int l = c.lightness() + (darkBackground ? 1 : -1);
        if (l < 0 || l > 255)
            break;
        c.setHsl(c.hslHue(), c.hslSaturation(), l);
    }
    c = c.toRgb();
    c.setAlpha(alpha);
    return c;
}

QColor errorColor(const QPalette &palette)
{
    return isDarkPalette(palette) ? QColor(0xff, 0x7b, 0x6b) : QColor(0xc0, 0x39, 0x2b);
}

QString errorStyleSheet(const QPalette &palette)
{
    return QStringLiteral("color: %1;").arg(errorColor(palette).name());
}

void setErrorStyle(QWidget *widget, bool error)
{
    if (!widget)
        return;
    widget->setProperty(kErrorProperty, error);
    // The application palette: a style sheet on the widget itself would colour its own palette.
    widget->setStyleSheet(error ? errorStyleSheet(QApplication::palette(widget)) : QString());
}

void refreshErrorStyles()
{
    const QWidgetList widgets = QApplication::allWidgets();
    for (QWidget *w : widgets)
        if (w->property(kErrorProperty).toBool())
            w->setStyleSheet(errorStyleSheet(QApplication::palette(w)));
}

} // namespace gf

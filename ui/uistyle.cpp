#include "uistyle.h"

#include <QApplication>
#include <QWidget>

namespace gf {

namespace {
constexpr const char *kErrorProperty = "gfErrorStyle";
}

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightness() < 128;
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

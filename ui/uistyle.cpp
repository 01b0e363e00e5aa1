#include "uistyle.h"

namespace gf {

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

} // namespace gf

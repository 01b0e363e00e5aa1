#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

namespace gf {

/// The one colour of error text, readable on the palette's window colour (a lighter red on dark
/// palettes).
QColor errorColor(const QPalette &palette);

/// "color: #xxxxxx;" for a label showing an error on this palette.
QString errorStyleSheet(const QPalette &palette);

/// Whether the palette is a dark one (light text on a dark window).
bool isDarkPalette(const QPalette &palette);

} // namespace gf

#pragma once

#include <QColor>
#include <QPalette>
#include <QString>

class QWidget;

namespace gf {

/// The one colour of error text, readable on the palette's window colour (a lighter red on dark
/// palettes).
QColor errorColor(const QPalette &palette);

/// "color: #xxxxxx;" for a label showing an error on this palette.
QString errorStyleSheet(const QPalette &palette);

/// Shows a widget's text in the error colour (or, with error false, in the normal one). The colour
/// follows a later change of the application palette (refreshErrorStyles).
void setErrorStyle(QWidget *widget, bool error = true);
/// Recomputes the error colour of every widget marked by setErrorStyle (after the palette changed).
void refreshErrorStyles();

/// Whether the palette is a dark one (light text on a dark window).
bool isDarkPalette(const QPalette &palette);

} // namespace gf

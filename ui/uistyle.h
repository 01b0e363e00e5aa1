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

/// WCAG 2 contrast ratio of two opaque colours (1 .. 21).
double contrastRatio(const QColor &a, const QColor &b);
/// `colour`, lightened on a dark background or darkened on a light one (hue kept) until it has at least
/// `minRatio` contrast with `background` (3:1: the WCAG rule for graphics); unchanged when it has.
QColor readableOn(const QColor &colour, const QColor &background, double minRatio = 3.0);

} // namespace gf

#pragma once

#include <QPalette>
#include <QString>

#include <optional>

namespace gf {

/// The colour scheme of the window (View > Colours), remembered in QSettings "view/theme".
enum class Theme
{
    System, ///< the desktop's style and palette as the application started with them
    Light,  ///< Fusion with a light palette
    Dark    ///< Fusion with a dark palette
};

QString themeName(Theme theme); ///< "system", "light", "dark"
std::optional<Theme> themeFromName(const QString &name);

/// Fusion's dark palette: every role set, links a light blue, disabled text dimmed.
QPalette darkPalette();
/// Fusion's light palette.
QPalette lightPalette();

/// Applies a theme to the running application (style and palette); widgets that cache colours
/// (charts, error texts) follow through their PaletteChange events and refreshErrorStyles().
void applyTheme(Theme theme);
/// The theme applied last (System before any).
Theme currentTheme();

Theme savedTheme();
void saveTheme(Theme theme);

} // namespace gf

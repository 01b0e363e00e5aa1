#include "apptheme.h"

#include "uistyle.h"

#include <QApplication>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace gf {

namespace {
struct SystemLook
{
    bool captured = false;
    QString style;
    QPalette palette;
};

SystemLook &systemLook()
{
    static SystemLook look;
    return look;
}

Theme &current()
{
    static Theme theme = Theme::System;
    return theme;
}
} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::System:
        return QStringLiteral("system");
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    }
    return {};
}

std::optional<Theme> themeFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"system")
        return Theme::System;
    if (n == u"light")
        return Theme::Light;
    if (n == u"dark")
        return Theme::Dark;
    return std::nullopt;
}

QPalette darkPalette()
{
    const QColor window(0x2b, 0x2d, 0x33);
    const QColor base(0x1f, 0x21, 0x26);
    const QColor alternate(0x28, 0x2a, 0x30);
    const QColor text(0xe8, 0xe8, 0xe8);
    const QColor disabled(0x80, 0x80, 0x80);
    const QColor highlight(0x35, 0x72, 0xc8); // white text on it: 4.8:1
    QPalette p;
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, alternate);
    p.setColor(QPalette::ToolTipBase, QColor(0x38, 0x3b, 0x42));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x38, 0x3f));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x55));
    p.setColor(QPalette::Midlight, QColor(0x3e, 0x41, 0x48));
    p.setColor(QPalette::Mid, QColor(0x25, 0x27, 0x2c));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1d));
    p.setColor(QPalette::Shadow, QColor(0x0c, 0x0c, 0x0e));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xb8, 0x9c, 0xff));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, QColor(0x45, 0x48, 0x50));
    p.setColor(QPalette::Disabled, QPalette::HighlightedText, disabled);
    return p;
}

QPalette lightPalette()
{
    QStyle *fusion = QStyleFactory::create(QStringLiteral("Fusion"));
    QPalette p = fusion ? fusion->standardPalette() : QPalette();
    delete fusion;
    return p;
}

void applyTheme(Theme theme)
{
    SystemLook &look = systemLook();
    if (!look.captured) {
        look.captured = true;
        look.style = QApplication::style() ? QApplication::style()->name() : QString();
        look.palette = QApplication::palette();
    }
    current() = theme;
    switch (theme) {
    case Theme::System:
        if (!look.style.isEmpty())
            QApplication::setStyle(look.style);
        QApplication::setPalette(look.palette);
        break;
    case Theme::Light:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(lightPalette());
        break;
    case Theme::Dark:
        QApplication::setStyle(QStringLiteral("Fusion"));
        QApplication::setPalette(darkPalette());
        break;
    }
    refreshErrorStyles();
}

Theme currentTheme()
{
    return current();
}

Theme savedTheme()
{
    return themeFromName(QSettings().value(QStringLiteral("view/theme")).toString()).value_or(Theme::System);
}

void saveTheme(Theme theme)
{
    QSettings().setValue(QStringLiteral("view/theme"), themeName(theme));
}

} // namespace gf

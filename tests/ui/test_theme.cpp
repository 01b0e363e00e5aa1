#include "apptheme.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "mainwindow.h"
#include "testsupport.h"
#include "uistyle.h"

#include <QAbstractAxis>
#include <QAction>
#include <QApplication>
#include <QChart>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QScatterSeries>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStyle>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;

namespace {
// WCAG 2 contrast ratio of two opaque colours (1 .. 21).
double contrast(const QColor &a, const QColor &b)
{
    auto lum = [](const QColor &c) {
        auto ch = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
        return 0.2126 * ch(c.redF()) + 0.7152 * ch(c.greenF()) + 0.0722 * ch(c.blueF());
    };
    const double la = lum(a), lb = lum(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}
} // namespace

class TestTheme final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-theme-test"));
        QSettings().clear();
    }

    void names()
    {
        for (Theme t : {Theme::System, Theme::Light, Theme::Dark})
            QCOMPARE(themeFromName(themeName(t)), std::optional<Theme>(t));
        QCOMPARE(themeFromName(QStringLiteral(" Dark ")), std::optional<Theme>(Theme::Dark));
        QVERIFY(!themeFromName(QStringLiteral("solarized")));
    }

    // Every text colour of the dark palette reads on its background (WCAG AA: 4.5:1), the error
    // colour and links included.
    void darkPaletteIsReadable()
    {
        const QPalette p = darkPalette();
        QVERIFY(isDarkPalette(p));
        const QList<std::pair<QPalette::ColorRole, QPalette::ColorRole>> pairs = {
            {QPalette::WindowText, QPalette::Window},
            {QPalette::Text, QPalette::Base},
            {QPalette::Text, QPalette::AlternateBase},
            {QPalette::ButtonText, QPalette::Button},
            {QPalette::ToolTipText, QPalette::ToolTipBase},
            {QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::Link, QPalette::Base},
            {QPalette::LinkVisited, QPalette::Base},
            {QPalette::Link, QPalette::Window},
        };
        for (const auto &[fg, bg] : pairs)
            QVERIFY2(
                contrast(p.color(fg), p.color(bg)) >= 4.5,
                qPrintable(
                    QStringLiteral("%1 on %2: %3").arg(fg).arg(bg).arg(contrast(p.color(fg), p.color(bg)))));
        QVERIFY(contrast(errorColor(p), p.color(QPalette::Window)) >= 4.5);
        QVERIFY(contrast(errorColor(p), p.color(QPalette::Base)) >= 4.5);
        QVERIFY(contrast(p.color(QPalette::PlaceholderText), p.color(QPalette::Base)) >= 3.0);
        const QPalette light = lightPalette();
        QVERIFY(!isDarkPalette(light));
        QVERIFY(contrast(errorColor(light), light.color(QPalette::Window)) >= 4.5);
    }

    // Every colour of the Frontier chart reads on the dark theme's plot background: the
    // provider points and every legend square (the Recommended one showed its transparent fill, a dark
    // square on the dark plot), at the 3:1 that graphics need.
    void chartColoursReadOnTheDarkTheme()
    {
        FrontierChart chart;
        chart.setPalette(darkPalette());
        QApplication::processEvents();
        QCOMPARE(chart.chart()->theme(), QChart::ChartThemeDark);
        const QColor plot(0x2e, 0x30, 0x3a); // the lighter end of ChartThemeDark's background
        QCOMPARE(readableOn(QColor(0x8e, 0x44, 0xad), plot).hslHue(), QColor(0x8e, 0x44, 0xad).hslHue());
        int checked = 0;
        bool sawRecommended = false;
        for (QLegendMarker *marker : chart.chart()->legend()->markers()) {
            if (!marker->isVisible())
                continue;
            const QColor fill = marker->brush().color();
            const QString what = marker->label() + QStringLiteral(": ") + fill.name(QColor::HexArgb);
            QVERIFY2(fill.alpha() >= 200, qPrintable(what));
            QVERIFY2(contrastRatio(fill, plot) >= 3.0,
                     qPrintable(what + QStringLiteral(" %1").arg(contrastRatio(fill, plot))));
            ++checked;
            sawRecommended = sawRecommended || marker->label() == QStringLiteral("Recommended");
        }
        QVERIFY(sawRecommended);
        QVERIFY2(checked >= 7, qPrintable(QString::number(checked))); // five providers, frontier, recommended
        for (QAbstractSeries *series : chart.chart()->series()) {
            auto *scatter = qobject_cast<QScatterSeries *>(series);
            if (!scatter || scatter->color().alpha() < 255 || scatter->color().alpha() == 0)
                continue; // faded (dominated) points and the rings
            QVERIFY2(contrastRatio(scatter->color(), plot) >= 3.0,
                     qPrintable(scatter->name() + QStringLiteral(": ") + scatter->color().name()));
        }
        // The log axes' minor grid stays behind the points: dimmer than the major grid.
        for (QAbstractAxis *axis : chart.chart()->axes()) {
            const double minor = contrastRatio(axis->minorGridLinePen().color(), plot);
            const double major = contrastRatio(axis->gridLinePen().color(), plot);
            QVERIFY2(minor < major && minor <= 1.6,
                     qPrintable(QStringLiteral("%1 vs %2").arg(minor).arg(major)));
        }
        // The light theme keeps the providers' own colours.
        chart.setPalette(lightPalette());
        QApplication::processEvents();
        QCOMPARE(chart.chart()->theme(), QChart::ChartThemeLight);
        bool sawPaperspace = false;
        for (QAbstractSeries *series : chart.chart()->series())
            if (auto *scatter = qobject_cast<QScatterSeries *>(series);
                scatter && scatter->name() == QStringLiteral("Paperspace") &&
                scatter->color().alpha() == 255) {
                QCOMPARE(scatter->color(), QColor(0x8e, 0x44, 0xad));
                sawPaperspace = true;
            }
        QVERIFY(sawPaperspace);
    }

    // View > Colours > Dark: Fusion, the dark palette, the charts' dark theme, the error texts in the
    // lighter red; remembered; System puts the start-up look back.
    void switchingFromTheViewMenu()
    {
        const QString startStyle = QApplication::style()->name();
        const QColor startWindow = QApplication::palette().color(QPalette::Window);
        TempDb db;
        MainWindow w(db.path());
        QSignalSpy loaded(&w, &MainWindow::catalogLoaded);
        w.show();
        QVERIFY(loaded.wait(30000));
        auto *dark = w.findChild<QAction *>(QStringLiteral("theme_dark"));
        auto *light = w.findChild<QAction *>(QStringLiteral("theme_light"));
        auto *system = w.findChild<QAction *>(QStringLiteral("theme_system"));
        QVERIFY(dark && light && system);
        QVERIFY(system->isChecked());

        // An error label shown before the switch follows it.
        auto *error = new QLabel(QStringLiteral("broken"), &w);
        setErrorStyle(error);
        dark->trigger();
        QApplication::processEvents();
        QCOMPARE(currentTheme(), Theme::Dark);
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QVERIFY(isDarkPalette(QApplication::palette()));
        QVERIFY(isDarkPalette(w.palette()));
        QCOMPARE(w.frontierPage()->chart()->chart()->theme(), QChart::ChartThemeDark);
        QVERIFY2(error->styleSheet().contains(errorColor(darkPalette()).name()),
                 qPrintable(error->styleSheet()));
        QCOMPARE(savedTheme(), Theme::Dark);
        QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(), QStringLiteral("dark"));

        light->trigger();
        QApplication::processEvents();
        QVERIFY(!isDarkPalette(QApplication::palette()));
        QCOMPARE(w.frontierPage()->chart()->chart()->theme(), QChart::ChartThemeLight);
        QVERIFY(error->styleSheet().contains(errorColor(lightPalette()).name()));
        QCOMPARE(savedTheme(), Theme::Light);

        system->trigger();
        QApplication::processEvents();
        QCOMPARE(QApplication::style()->name(), startStyle);
        QCOMPARE(QApplication::palette().color(QPalette::Window), startWindow);
        QCOMPARE(savedTheme(), Theme::System);
    }
};

QTEST_MAIN(TestTheme)
#include "test_theme.moc"

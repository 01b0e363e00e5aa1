#include "apptheme.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "store/catalogstore.h"
#include "viewmodels/offertablemodel.h"

#include <QTabWidget>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <cstdio>

namespace {

struct GuiOptions
{
    QCommandLineOption db{QStringList{QStringLiteral("db")},
                          QStringLiteral("Catalog database (default: $GPUFRONTIER_DB, else %1).")
                              .arg(gf::CatalogStore::defaultPath()),
                          QStringLiteral("PATH")};
    QCommandLineOption screenshot{QStringList{QStringLiteral("screenshot")},
                                  QStringLiteral("Load, save a screenshot of the window to FILE and quit."),
                                  QStringLiteral("FILE")};
    QCommandLineOption tab{QStringList{QStringLiteral("tab")}, QStringLiteral("Open on page N (0 = Offers)."),
                           QStringLiteral("N")};
    QCommandLineOption quitAfterLoad{QStringList{QStringLiteral("quit-after-load")},
                                     QStringLiteral("Quit once the catalog is loaded (start-up check).")};
    QCommandLineOption theme{QStringList{QStringLiteral("theme")},
                             QStringLiteral("Colours for this run: system, light or dark (default: the one "
                                            "chosen in View > Colours)."),
                             QStringLiteral("NAME")};

    void addTo(QCommandLineParser &parser) const
    {
        parser.setApplicationDescription(
            QStringLiteral("GPU Frontier: where to train a model. Compares cloud "
                           "GPU offers (AWS, Google Cloud, Azure, Paperspace, "
                           "vast.ai) by cost and training time."));
        // "-db x" as "--db x" (Qt's own options are single-dash words too), not "-d -b x".
        parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOptions({db, screenshot, tab, quitAfterLoad, theme});
    }
};

void setApplicationInfo()
{
    // Static setters: valid before any application object exists.
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier"));
    QCoreApplication::setApplicationName(QStringLiteral("gpufrontier"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUFRONTIER_VERSION));
}

// Options that QGuiApplication itself takes (and removes) from the command line.
bool isQtGuiOption(const QString &name)
{
    static const QStringList names{QStringLiteral("platform"),
                                   QStringLiteral("platformpluginpath"),
                                   QStringLiteral("platformtheme"),
                                   QStringLiteral("plugin"),
                                   QStringLiteral("qwindowgeometry"),
                                   QStringLiteral("qwindowicon"),
                                   QStringLiteral("qwindowtitle"),
                                   QStringLiteral("reverse"),
                                   QStringLiteral("session"),
                                   QStringLiteral("style"),
                                   QStringLiteral("stylesheet"),
                                   QStringLiteral("widgetcount"),
                                   QStringLiteral("display"),
                                   QStringLiteral("geometry"),
                                   QStringLiteral("title"),
                                   QStringLiteral("name"),
                                   QStringLiteral("icon"),
                                   QStringLiteral("qmljsdebugger"),
                                   QStringLiteral("nograb"),
                                   QStringLiteral("dograb"),
                                   QStringLiteral("visual"),
                                   QStringLiteral("ncols"),
                                   QStringLiteral("cmap"),
                                   QStringLiteral("fn"),
                                   QStringLiteral("font"),
                                   QStringLiteral("bg"),
                                   QStringLiteral("background"),
                                   QStringLiteral("fg"),
                                   QStringLiteral("foreground"),
                                   QStringLiteral("btn"),
                                   QStringLiteral("button"),
                                   QStringLiteral("im"),
                                   QStringLiteral("inputstyle"),
                                   QStringLiteral("testability")};
    return names.contains(name);
}

// Qt's own options that are flags (every other Qt option takes a value: "-style fusion", "-style=fusion").
bool isQtGuiFlag(const QString &name)
{
    return name == u"reverse" || name == u"widgetcount" || name == u"nograb" || name == u"dograb" ||
           name == u"testability";
}

// The command line without the options QApplication takes (and removes) itself, with their values.
QStringList withoutQtGuiOptions(const QStringList &args)
{
    QStringList out;
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (i > 0 && a.startsWith(u'-') && a != u"--") {
            QString name = a.mid(a.startsWith(QStringLiteral("--")) ? 2 : 1);
            const qsizetype eq = name.indexOf(u'=');
            const bool inlineValue = eq >= 0;
            if (inlineValue)
                name.truncate(eq);
            if (isQtGuiOption(name)) {
                if (!inlineValue && !isQtGuiFlag(name))
                    ++i; // its value
                continue;
            }
        }
        out.append(a);
    }
    return out;
}

// --help, --version and usage errors are answered before a QApplication exists, so they work
// without a display (a QApplication aborts when it cannot connect to one), also next to Qt's own
// options ("gpufrontier -platform offscreen --version"). Returns the exit status when the command
// line has been answered, -1 when the GUI should start.
int answerWithoutDisplay(int argc, char **argv)
{
    QStringList args;
    for (int i = 0; i < argc; ++i)
        args << QString::fromLocal8Bit(argv[i]);
    QCommandLineParser parser;
    const GuiOptions options;
    options.addTo(parser);
    if (!parser.parse(withoutQtGuiOptions(args))) {
        std::fprintf(stderr, "gpufrontier: %s\nTry 'gpufrontier --help'.\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (!parser.isSet(QStringLiteral("help")) && !parser.isSet(QStringLiteral("version"))) {
        if (parser.positionalArguments().isEmpty())
            return -1;
        std::fprintf(stderr, "gpufrontier: unexpected argument \"%s\"\nTry 'gpufrontier --help'.\n",
                     qPrintable(parser.positionalArguments().first()));
        return 2;
    }
    QCoreApplication core(argc, argv);
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    parser.showVersion();
}

} // namespace

int main(int argc, char **argv)
{
    setApplicationInfo();
    if (const int rc = answerWithoutDisplay(argc, argv); rc >= 0)
        return rc;

    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Frontier"));
    QApplication::setDesktopFileName(QStringLiteral("io.github.gpufrontier.GpuFrontier"));

    QCommandLineParser parser;
    const GuiOptions options;
    options.addTo(parser);
    const QCommandLineOption &dbOption = options.db;
    const QCommandLineOption &screenshotOption = options.screenshot;
    const QCommandLineOption &tabOption = options.tab;
    const QCommandLineOption &quitOption = options.quitAfterLoad;
    if (!parser.parse(QApplication::arguments())) {
        std::fprintf(stderr, "gpufrontier: %s\nTry 'gpufrontier --help'.\n", qPrintable(parser.errorText()));
        return 2;
    }
    if (parser.isSet(QStringLiteral("help")))
        parser.showHelp(0);
    if (parser.isSet(QStringLiteral("version")))
        parser.showVersion();
    if (!parser.positionalArguments().isEmpty()) {
        std::fprintf(stderr, "gpufrontier: unexpected argument \"%s\"\nTry 'gpufrontier --help'.\n",
                     qPrintable(parser.positionalArguments().first()));
        return 2;
    }

    std::optional<gf::Theme> theme = gf::savedTheme();
    if (parser.isSet(options.theme)) {
        theme = gf::themeFromName(parser.value(options.theme));
        if (!theme) {
            std::fprintf(stderr, "gpufrontier: --theme: \"%s\" is not system, light or dark\n",
                         qPrintable(parser.value(options.theme)));
            return 2;
        }
    }
    if (*theme != gf::Theme::System)
        gf::applyTheme(*theme);

    QElapsedTimer startup;
    startup.start();
    const QString db = parser.isSet(dbOption) ? parser.value(dbOption) : gf::CatalogStore::defaultPath();
    gf::MainWindow window(db);
    if (parser.isSet(tabOption))
        window.tabs()->setCurrentIndex(parser.value(tabOption).toInt());
    const QString shot = parser.value(screenshotOption);
    if (!shot.isEmpty())
        window.resize(1440, 860); // the same size on every screen (offscreen's is 800 x 600)
    window.show();

    const bool quitAfterLoad = parser.isSet(quitOption);
    int rc = 0;
    QObject::connect(&window, &gf::MainWindow::loadFailed, &window, [&](const QString &message) {
        std::fprintf(stderr, "gpufrontier: %s\n", qPrintable(message));
        if (quitAfterLoad || !shot.isEmpty()) {
            rc = 1;
            QTimer::singleShot(0, &app, &QApplication::quit);
        }
    });
    QObject::connect(&window, &gf::MainWindow::catalogLoaded, &window, [&] {
        if (quitAfterLoad)
            std::fprintf(stdout, "loaded %lld offers; window ready after %lld ms\n",
                         static_cast<long long>(window.offersPage()->model()->rowCount()),
                         static_cast<long long>(startup.elapsed()));
        if (!shot.isEmpty()) {
            // With the projection's time and cost columns: after its first result (at most 60 s).
            auto take = [&] {
                if (!window.grab().save(shot)) {
                    std::fprintf(stderr, "gpufrontier: cannot write the screenshot %s\n", qPrintable(shot));
                    rc = 1;
                }
                QApplication::quit();
            };
            QObject::connect(&window, &gf::MainWindow::projectionUpdated, &window, [take, &window] {
                if (!window.projection()->isBusy()) // the latest request's result, not a superseded one
                    QTimer::singleShot(300, &window, take);
            });
            QTimer::singleShot(60000, &window, take);
        } else if (quitAfterLoad) {
            QTimer::singleShot(0, &app, &QApplication::quit);
        }
    });
    const int exec = QApplication::exec();
    return rc ? rc : exec;
}

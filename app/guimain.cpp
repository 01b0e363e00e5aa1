#include "catalogstore.h"
#include "mainwindow.h"
#include "offerspage.h"
#include "offertablemodel.h"

#include <QTabWidget>

#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("GPU Frontier"));
    QApplication::setApplicationName(QStringLiteral("gpufrontier"));
    QApplication::setApplicationDisplayName(QStringLiteral("GPU Frontier"));
    QApplication::setApplicationVersion(QStringLiteral(GPUFRONTIER_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.gpufrontier.GpuFrontier"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("GPU Frontier: where to train a model. Compares cloud "
                                                    "GPU offers (AWS, Google Cloud, Azure, Paperspace, "
                                                    "vast.ai) by cost and training time."));
    parser.addHelpOption();
    parser.addVersionOption();
    const QCommandLineOption dbOption(QStringList{QStringLiteral("db")},
                                      QStringLiteral("Catalog database (default: $GPUFRONTIER_DB, else %1).")
                                          .arg(gf::CatalogStore::defaultPath()),
                                      QStringLiteral("PATH"));
    parser.addOption(dbOption);
    const QCommandLineOption screenshotOption(
        QStringList{QStringLiteral("screenshot")},
        QStringLiteral("Load, save a screenshot of the window to FILE and quit."), QStringLiteral("FILE"));
    parser.addOption(screenshotOption);
    const QCommandLineOption tabOption(QStringList{QStringLiteral("tab")},
                                       QStringLiteral("Open on page N (0 = Offers)."), QStringLiteral("N"));
    parser.addOption(tabOption);
    const QCommandLineOption quitOption(QStringList{QStringLiteral("quit-after-load")},
                                        QStringLiteral("Quit once the catalog is loaded (start-up check)."));
    parser.addOption(quitOption);
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

    QElapsedTimer startup;
    startup.start();
    const QString db = parser.isSet(dbOption) ? parser.value(dbOption) : gf::CatalogStore::defaultPath();
    gf::MainWindow window(db);
    if (parser.isSet(tabOption))
        window.tabs()->setCurrentIndex(parser.value(tabOption).toInt());
    window.show();

    const QString shot = parser.value(screenshotOption);
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
            QTimer::singleShot(300, &window, [&] {
                if (!window.grab().save(shot)) {
                    std::fprintf(stderr, "gpufrontier: cannot write the screenshot %s\n", qPrintable(shot));
                    rc = 1;
                }
                QApplication::quit();
            });
        } else if (quitAfterLoad) {
            QTimer::singleShot(0, &app, &QApplication::quit);
        }
    });
    const int exec = QApplication::exec();
    return rc ? rc : exec;
}

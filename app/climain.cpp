#include "cli.h"

#include <QCoreApplication>
#include <QGuiApplication>
#include <QTextStream>

#include <cstdio>
#include <memory>

int main(int argc, char **argv)
{
    QStringList args;
    for (int i = 1; i < argc; ++i)
        args.append(QString::fromLocal8Bit(argv[i]));
    // Every command runs in a QCoreApplication, except a PDF report: its text is set with Qt Gui's fonts,
    // which need a QGuiApplication. That one runs on the offscreen platform, so no display is needed; the
    // user's arguments are not shown to it (it would take Qt's own options out of them).
    std::unique_ptr<QCoreApplication> app;
    static char platformFlag[] = "-platform";
    static char platformName[] = "offscreen";
    static int guiArgc = 3;
    static char *guiArgv[] = {argv[0], platformFlag, platformName, nullptr};
    if (gf::cliNeedsGui(args)) {
        // Without a desktop session (cron, ssh, CI) Qt Gui warns at start-up that XDG_RUNTIME_DIR is not
        // set; nothing here uses that folder, so the warning is not passed on.
        static QtMessageHandler previous = nullptr;
        previous =
            qInstallMessageHandler([](QtMsgType type, const QMessageLogContext &context, const QString &msg) {
                if (previous && !msg.startsWith(QStringLiteral("QStandardPaths: XDG_RUNTIME_DIR not set")))
                    previous(type, context, msg);
            });
        app = std::make_unique<QGuiApplication>(guiArgc, guiArgv);
        qInstallMessageHandler(previous);
    } else {
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier"));
    QCoreApplication::setApplicationName(QStringLiteral("gpufrontier"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUFRONTIER_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int rc = gf::runCli(args, out, err);
    out.flush();
    err.flush();
    return rc;
}

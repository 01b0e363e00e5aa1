#include "cli.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("GPU Frontier"));
    QCoreApplication::setApplicationName(QStringLiteral("gpufrontier"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GPUFRONTIER_VERSION));
    QTextStream out(stdout);
    QTextStream err(stderr);
    QStringList args = QCoreApplication::arguments();
    args.removeFirst();
    const int rc = gf::runCli(args, out, err);
    out.flush();
    err.flush();
    return rc;
}

#pragma once

#include "cli.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

namespace gf::test {

/// What one in-process run of gpufrontier-cli returned and printed.
struct CliRun
{
    int rc = -1;
    QString out;
    QString err;
};

/// Runs `gpufrontier-cli --db DB ARGS...` in this process (runCli), capturing stdout and stderr.
inline CliRun cli(const QString &db, QStringList args)
{
    CliRun r;
    QTextStream out(&r.out);
    QTextStream err(&r.err);
    args.prepend(db);
    args.prepend(QStringLiteral("--db"));
    r.rc = runCli(args, out, err);
    out.flush();
    err.flush();
    return r;
}

} // namespace gf::test

#pragma once

#include "catalogstore.h"

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <memory>

namespace gf {

/// Exit codes of gpufrontier-cli.
enum CliExit : int {
    ExitOk = 0,
    ExitFailure = 1, ///< the command could not do its work (database, import, I/O)
    ExitUsage = 2,   ///< unknown command or flag, bad number
};

/// State shared by the commands of one invocation.
class CliContext
{
public:
    CliContext(QTextStream &outStream, QTextStream &errStream, QString dbPath)
        : out(outStream), err(errStream), m_dbPath(std::move(dbPath))
    {
    }

    QTextStream &out;
    QTextStream &err;

    /// Opens (and on first use fills with the bundled snapshot) the database; prints the error itself.
    CatalogStore *store();
    QString dbPath() const { return m_dbPath; }

private:
    QString m_dbPath;
    std::unique_ptr<CatalogStore> m_store;
};

struct CliCommand
{
    QString name;
    QString summary;
    std::function<int(CliContext &, const QStringList &)> run;
};

/// Runs gpufrontier-cli with its arguments (without the program name).
int runCli(const QStringList &args, QTextStream &out, QTextStream &err);

/// Commands, one file each (cli_*.cpp).
int cliOffers(CliContext &ctx, const QStringList &args);
int cliCatalogs(CliContext &ctx, const QStringList &args);
int cliImport(CliContext &ctx, const QStringList &args);

/// Helpers shared by the commands.
QString renderTable(const QStringList &header, const QList<QStringList> &rows, const QList<bool> &rightAligned = {});
int usageError(CliContext &ctx, const QString &command, const QString &message);

} // namespace gf

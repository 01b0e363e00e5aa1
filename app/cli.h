#pragma once

#include "store/catalogstore.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <memory>

namespace gf {

class ArgParser;
struct Calibration;
struct Workload;

/// Exit codes of gpufrontier-cli.
enum CliExit : int
{
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

/// Whether these arguments (without the program name) run a command that needs a QGuiApplication: only
/// `report` writing a PDF, whose text is set with Qt Gui's fonts. main() then starts an offscreen one
/// (no display needed) instead of the QCoreApplication every other command runs in.
bool cliNeedsGui(const QStringList &args);
bool reportNeedsGui(const QStringList &args); ///< cli_report.cpp: the arguments after "report"

/// Commands, one file each (cli_*.cpp).
int cliOffers(CliContext &ctx, const QStringList &args);
int cliCatalogs(CliContext &ctx, const QStringList &args);
int cliImport(CliContext &ctx, const QStringList &args);
int cliRefresh(CliContext &ctx, const QStringList &args);   ///< cli_refresh.cpp
int cliHistory(CliContext &ctx, const QStringList &args);   ///< cli_history.cpp
int cliGpus(CliContext &ctx, const QStringList &args);      ///< cli_gpus.cpp
int cliWorkloads(CliContext &ctx, const QStringList &args); ///< cli_gpus.cpp
int cliFrontier(CliContext &ctx, const QStringList &args);  ///< cli_frontier.cpp
int cliProbe(CliContext &ctx, const QStringList &args);     ///< cli_probe.cpp
int cliReport(CliContext &ctx, const QStringList &args);    ///< cli_report.cpp

/// Helpers shared by the commands.
QString renderTable(const QStringList &header, const QList<QStringList> &rows,
                    const QList<bool> &rightAligned = {});
int usageError(CliContext &ctx, const QString &command, const QString &message);

/// Workload and calibration options shared by `gpus` and `frontier` (cli_frontier.cpp).
/// addWorkloadOptions declares --workload, --samples, --epochs, the custom-workload options and
/// --no-calibration; workloadFromArgs returns -1 and fills *out, or prints the problem and returns an exit
/// code.
void addWorkloadOptions(ArgParser &parser);
int workloadFromArgs(CliContext &ctx, const QString &command, const ArgParser &parser, Workload *out);
/// The newest probe run of the database (defaults when none, unreadable or --no-calibration).
/// Returns -1 and fills *out, or an exit code when the database cannot be opened.
int calibrationFromArgs(CliContext &ctx, const ArgParser &parser, Calibration *out);
/// One line describing the workload (cli_frontier.cpp). The JSON shapes are models/ workloadToJson and
/// calibrationToJson, shared with the JSON report.
QString workloadSummaryText(const Workload &workload);

} // namespace gf

#pragma once

#include "store/catalogstore.h"

#include <QHash>
#include <QJsonDocument>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gf {

class BufferedOutput;
class CliArgs;
struct Currency;
struct GpuModel;
class TableProjection;

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
    /// --db PATH after the command name; before the database is opened.
    void setDbPath(const QString &path) { m_dbPath = path; }

private:
    QString m_dbPath;
    std::unique_ptr<CatalogStore> m_store;
};

/// Whether these arguments (without the program name) run a command that needs a QGuiApplication: only
/// `report` writing a PDF (by --format pdf, or by the suffix of -o/--output without --format), whose text
/// is set with Qt Gui's fonts. main() then starts an offscreen one (no display needed) instead of the
/// QCoreApplication every other command runs in.
bool cliNeedsGui(const QStringList &args);

/// Runs gpufrontier-cli with its arguments (without the program name). The commands are the
/// CliCommand classes of cli_*.cpp (clicommand.h).
int runCli(const QStringList &args, QTextStream &out, QTextStream &err);

/// Flushes a command's standard output: nullopt when everything it printed was written, else why not
/// (a full disk, a closed pipe). runCli checks it after every command (exit 1 when it failed).
std::optional<QString> outputFailure(QTextStream &out);

/// Helpers shared by the commands.
/// A JSON document as the commands print it (indented), with every control or bidi formatting
/// character escaped (\uXXXX) so that a provider's text cannot act on the terminal.
QString jsonText(const QJsonDocument &doc);
QString renderTable(const QStringList &header, const QList<QStringList> &rows,
                    const QList<bool> &rightAligned = {});
/// The same table written row by row: `row(r)` gives the cells of row r and is called twice per row (the
/// widths, then the text), so that a table of a million rows is never held in memory.
void writeTable(BufferedOutput &out, const QStringList &header, qsizetype rowCount,
                const std::function<QStringList(qsizetype)> &row, const QList<bool> &rightAligned = {});
/// The cells of one table row, written into one buffer that is reused from row to row (no list, no
/// string per cell): for rows made by the million.
class TableRow
{
public:
    void clear()
    {
        m_chars.clear();
        m_ends.clear();
    }
    qsizetype size() const { return m_ends.size(); }
    QStringView cell(qsizetype i) const
    {
        const qsizetype start = i ? m_ends.at(i - 1) : 0;
        return QStringView(m_chars).sliced(start, m_ends.at(i) - start);
    }
    /// A cell of one text.
    TableRow &add(QStringView text) { return append(text).endCell(); }
    TableRow &add(QLatin1StringView text) { return append(text).endCell(); }
    /// A cell written piece by piece: append(...) then endCell().
    TableRow &append(QStringView text)
    {
        m_chars.append(text);
        return *this;
    }
    TableRow &append(QLatin1StringView text)
    {
        m_chars.append(text);
        return *this;
    }
    TableRow &append(QChar c)
    {
        m_chars.append(c);
        return *this;
    }
    TableRow &endCell()
    {
        m_ends.append(m_chars.size());
        return *this;
    }

private:
    QString m_chars;
    QList<qsizetype> m_ends; ///< cell i is m_chars[m_ends[i - 1], m_ends[i])
};
/// writeTable with the cells of row r written by `row(r, cells)` into `cells` (cleared before each
/// call), also called twice per row: the same text, without a string per cell.
void writeTableRows(BufferedOutput &out, const QStringList &header, qsizetype rowCount,
                    const std::function<void(qsizetype, TableRow &)> &row,
                    const QList<bool> &rightAligned = {});
/// The cells of `frontier --format table`'s row r: point order[r] of a projection, its money in
/// `currency` (all three must outlive this object). The first call projects every shown point again
/// (TableProjection::point), in the order of the points (their offers' order in the table, not the rows'
/// random one), and keeps the three figures that a compact point lacks (24 bytes a row); the rows
/// (writeTableRows makes each twice) read them and the offer's texts only. The texts that rows share are
/// made once.
class FrontierTableRows
{
public:
    FrontierTableRows(const TableProjection &projection, const QList<qsizetype> &order,
                      const Currency &currency);
    ~FrontierTableRows();
    FrontierTableRows(const FrontierTableRows &) = delete;
    FrontierTableRows &operator=(const FrontierTableRows &) = delete;
    void cells(qsizetype r, TableRow &cells);

private:
    struct Figures
    {
        double usdPerHour = 0;
        double samplesPerS = 0;
        double samplesPerUsd = 0;
    };
    const TableProjection &m_projection;
    const QList<qsizetype> &m_order;
    const Currency &m_currency;
    void project();

    std::vector<Figures> m_figures;               ///< per row
    QHash<quint32, QString> m_providerNames;      ///< by provider text id
    QHash<quint64, QString> m_locations;          ///< by region and zone text ids (a bounded number)
    QHash<quint32, const GpuModel *> m_gpuModels; ///< by GPU id text id
    QHash<quint32, QString> m_flagNames;          ///< by projection flags
};
/// Streams a command's output: `write` writes it in chunks to the command's standard output. Returns
/// ExitOk, or ExitFailure after saying why the output could not be written (a closed pipe, a full disk).
int writeStreamed(CliContext &ctx, const QString &command,
                  const std::function<void(BufferedOutput &)> &write);
/// Prints "gpufrontier-cli COMMAND: message" and the hint to COMMAND --help; returns ExitUsage.
int usageError(CliContext &ctx, const QString &command, const QString &message);
/// The --format value: the first of `allowed` when not given; nullopt (after printing the usage
/// error) when not one of them.
std::optional<QString> formatFromArgs(CliContext &ctx, const QString &command, const CliArgs &args,
                                      const QStringList &allowed);

/// Prints the usage error for the first of `providers` that is not a known provider ("--provider:
/// unknown provider ..."); true when they are all known.
bool checkProviders(CliContext &ctx, const QString &command, const QStringList &providers);

} // namespace gf

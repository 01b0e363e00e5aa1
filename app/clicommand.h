#pragma once

#include "util/result.h"

#include <QCommandLineParser>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace gf {

class CliContext;

/// One option of a command (or of gpufrontier-cli itself).
struct CliOption
{
    QStringList names;       ///< the long name first ("output"), then aliases ("o"); written "--output", "-o"
    QString valueName;       ///< empty: a flag without value
    QString help;            ///< one line for COMMAND --help
    bool repeatable = false; ///< a value option that may be given several times (values() joins them)
    bool hidden = false;     ///< accepted but not listed by --help
};

/// The options a command declares, in the order --help lists them.
class CliOptions
{
public:
    void addFlag(const QString &name, const QString &help) { add({{name}, {}, help}); }
    void addValue(const QString &name, const QString &valueName, const QString &help)
    {
        add({{name}, valueName, help});
    }
    /// A value option that may be repeated; each value may also be a comma-separated list.
    void addRepeatable(const QString &name, const QString &valueName, const QString &help)
    {
        add({{name}, valueName, help, true});
    }
    void add(const CliOption &option) { m_options.append(option); }

    const QList<CliOption> &list() const { return m_options; }
    /// The option with this name or alias, else nullptr.
    const CliOption *find(QStringView name) const;

private:
    QList<CliOption> m_options;
};

/// The parsed arguments of one command: Qt's QCommandLineParser, plus what it does not check or say
/// the way gpufrontier-cli does (errors name the flag as "--name", a non-repeatable value option given
/// twice is an error, numbers are range-checked, comma-separated values).
class CliArgs
{
public:
    enum class Positional : quint8
    {
        Mixed,     ///< options may follow positional arguments
        EndOptions ///< everything from the first positional argument on is positional (a command name)
    };

    explicit CliArgs(CliOptions options, Positional positional = Positional::Mixed);
    CliArgs(const CliArgs &) = delete;
    CliArgs &operator=(const CliArgs &) = delete;

    /// Parses `args` (without the program and command names). The error message names the flag:
    /// "unknown option --foo", "option --gpu needs a value (NAME)", "option --gpu given twice".
    Status parse(const QStringList &args);

    bool isSet(const QString &name) const { return m_parser.isSet(name); }
    /// The value of a value option (the last one given), empty when not given.
    QString value(const QString &name) const { return m_parser.value(name); }
    /// Every value of a repeatable option as given (no comma splitting).
    QStringList rawValues(const QString &name) const { return m_parser.values(name); }
    /// Every value of a repeatable option, comma-separated lists split and trimmed.
    QStringList values(const QString &name) const;
    QStringList positional() const { return m_parser.positionalArguments(); }
    /// The arguments parse() was given, and the options they were parsed against (to parse them again
    /// with more in front: a scenario's settings).
    const QStringList &arguments() const { return m_arguments; }
    const CliOptions &options() const { return m_options; }
    /// A number option: nullopt when not given; when given but not a finite number in [min, max],
    /// nullopt and *error says so ("--weight: 1.5 is out of range (0 to 1)"). Nullopt without reading
    /// when *error is set already: read several options, then check *error once for the first problem.
    std::optional<double> number(const QString &name, QString *error, double min, double max) const;

    /// The option lines of --help (Qt's layout: names, <VALUE>, wrapped description), no heading.
    QString optionsHelp() const;

private:
    /// The first problem in argument order, in gpufrontier-cli's words (QCommandLineParser has its own).
    QString diagnose(const QStringList &args) const;

    CliOptions m_options;
    QCommandLineParser m_parser;
    QStringList m_arguments;
};

/// A command's failure as an Error (Result<T> all the way to CliCommand::fail): the code says how it is
/// printed and which exit code it gives.
/// A usage error: "gpufrontier-cli NAME: message" and the hint to NAME --help, exit 2.
Error cliUsageError(const QString &message);
/// The command could not do its work: "gpufrontier-cli NAME: message", exit 1.
Error cliFailure(const QString &message);
/// Exit 1, already said (CliContext::store() prints why the database cannot be opened).
Error cliReported();

/// One gpufrontier-cli command (as KeePassXC's cli/Command): its name and help texts, the options it
/// declares, and what it does. The base parses the arguments, answers --help (usage line,
/// description, options) and reports usage errors (exit 2), so that a command only runs.
class CliCommand
{
public:
    /// The texts of a command. The usage line is "Usage: gpufrontier-cli NAME SYNOPSIS".
    struct Text
    {
        QString name;
        QString summary; ///< one line in gpufrontier-cli --help
        QString synopsis = QStringLiteral("[OPTIONS]");
        QString description;              ///< COMMAND --help, between the usage line and the options
        bool positionalArguments = false; ///< false: a positional argument is a usage error
    };

    virtual ~CliCommand() = default;
    CliCommand(const CliCommand &) = delete;
    CliCommand &operator=(const CliCommand &) = delete;

    QString name() const { return m_text.name; }
    QString summary() const { return m_text.summary; }
    /// What COMMAND --help prints.
    QString helpText() const;
    /// Runs the command with the arguments that follow its name; returns the exit code (CliExit).
    int execute(CliContext &ctx, const QStringList &args) const;

protected:
    CliCommand(Text text, CliOptions options);

    virtual int run(CliContext &ctx, const CliArgs &args) const = 0;
    /// Prints "gpufrontier-cli NAME: message" and the hint to --help; returns ExitUsage.
    int usageError(CliContext &ctx, const QString &message) const;
    /// Prints an error made by cliUsageError, cliFailure or cliReported; returns its exit code.
    int fail(CliContext &ctx, const Error &error) const;

private:
    CliOptions allOptions() const; ///< the command's, then --help and the hidden --db

    Text m_text;
    CliOptions m_options;
};

/// The commands, one class each in cli_<name>.cpp, in the order gpufrontier-cli --help lists them.
const std::vector<std::unique_ptr<CliCommand>> &cliCommands();
std::unique_ptr<CliCommand> makeOffersCommand();
std::unique_ptr<CliCommand> makeCatalogsCommand();
std::unique_ptr<CliCommand> makeImportCommand();
std::unique_ptr<CliCommand> makeRefreshCommand();
std::unique_ptr<CliCommand> makeHistoryCommand();
std::unique_ptr<CliCommand> makeChangesCommand();
std::unique_ptr<CliCommand> makeWorkloadsCommand();
std::unique_ptr<CliCommand> makeGpusCommand();
std::unique_ptr<CliCommand> makeValidateCommand();
std::unique_ptr<CliCommand> makeFrontierCommand();
std::unique_ptr<CliCommand> makeAnswerCommand();
std::unique_ptr<CliCommand> makeProbeCommand();
std::unique_ptr<CliCommand> makeReportCommand();
std::unique_ptr<CliCommand> makePlanCommand();
std::unique_ptr<CliCommand> makeMeasureCommand();
std::unique_ptr<CliCommand> makeCompareScenariosCommand();
std::unique_ptr<CliCommand> makeCurrenciesCommand();

} // namespace gf

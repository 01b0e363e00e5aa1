#include "clicommand.h"

#include "cli.h"

#include <algorithm>
#include <cmath>

namespace gf {

// ------------------------------------------------------------------------------------------------
// CliOptions
// ------------------------------------------------------------------------------------------------

const CliOption *CliOptions::find(QStringView name) const
{
    for (const CliOption &o : m_options)
        for (const QString &n : o.names)
            if (n == name)
                return &o;
    return nullptr;
}

// ------------------------------------------------------------------------------------------------
// CliArgs
// ------------------------------------------------------------------------------------------------

CliArgs::CliArgs(CliOptions options, Positional positional) : m_options(std::move(options))
{
    // "-o FILE" and "--output FILE" alike; "-abc" is the option "abc", never "-a -b -c".
    m_parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    m_parser.setOptionsAfterPositionalArgumentsMode(positional == Positional::EndOptions
                                                        ? QCommandLineParser::ParseAsPositionalArguments
                                                        : QCommandLineParser::ParseAsOptions);
    for (const CliOption &o : m_options.list()) {
        // --help lists "-o, --output <FILE>": the one-letter aliases first.
        QStringList names = o.names;
        std::stable_sort(names.begin(), names.end(),
                         [](const QString &a, const QString &b) { return a.size() == 1 && b.size() > 1; });
        QCommandLineOption option(names, o.help, o.valueName);
        if (o.hidden)
            option.setFlags(QCommandLineOption::HiddenFromHelp);
        m_parser.addOption(option);
    }
}

Status CliArgs::parse(const QStringList &args)
{
    m_arguments = args;
    // QCommandLineParser takes the program name first.
    if (!m_parser.parse(QStringList{QStringLiteral("gpufrontier-cli")} + args)) {
        const QString message = diagnose(args);
        return makeError(message.isEmpty() ? m_parser.errorText() : message);
    }
    // QCommandLineParser keeps every value of an option given twice; only some options may repeat.
    for (const CliOption &o : m_options.list())
        if (!o.valueName.isEmpty() && !o.repeatable && m_parser.values(o.names.first()).size() > 1)
            return makeError(QStringLiteral("option --%1 given twice").arg(o.names.first()));
    return Ok{};
}

QString CliArgs::diagnose(const QStringList &args) const
{
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (a == u"--")
            break;
        if (!a.startsWith(u'-') || a.size() == 1)
            continue;
        const bool isLong = a.startsWith(QStringLiteral("--"));
        const qsizetype eq = a.indexOf(u'=');
        const QString spelled = eq < 0 ? a : a.left(eq);
        const CliOption *o = m_options.find(QStringView(spelled).mid(isLong ? 2 : 1));
        if (!o) {
            if (!isLong && (a.at(1).isDigit() || a.at(1) == u'.'))
                return QStringLiteral("unexpected argument \"%1\"").arg(a); // a negative number
            return QStringLiteral("unknown option %1").arg(spelled);
        }
        const QString name = o->names.first();
        if (o->valueName.isEmpty()) {
            if (eq >= 0)
                return QStringLiteral("option --%1 takes no value").arg(name);
            continue;
        }
        if (eq < 0 && ++i >= args.size())
            return QStringLiteral("option --%1 needs a value (%2)").arg(name, o->valueName);
    }
    return {};
}

QStringList CliArgs::values(const QString &name) const
{
    QStringList out;
    for (const QString &v : m_parser.values(name))
        for (const QString &part : v.split(u',', Qt::SkipEmptyParts))
            out.append(part.trimmed());
    return out;
}

std::optional<double> CliArgs::number(const QString &name, QString *error, double min, double max) const
{
    if (!error->isEmpty() || !isSet(name))
        return std::nullopt;
    bool ok = false;
    const QString text = value(name).trimmed();
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        *error = QStringLiteral("--%1: \"%2\" is not a number").arg(name, text);
        return std::nullopt;
    }
    if (v < min || v > max) {
        *error = QStringLiteral("--%1: %2 is out of range (%3 to %4)")
                     .arg(name, text, QString::number(min), QString::number(max));
        return std::nullopt;
    }
    return v;
}

QString CliArgs::optionsHelp() const
{
    // Qt's help starts with a usage line naming the program as QCoreApplication saw it and an
    // "Options:" heading: the callers write their own.
    const QString text = m_parser.helpText();
    const qsizetype blank = text.indexOf(QStringLiteral("\n\n"));
    const qsizetype heading = blank < 0 ? -1 : text.indexOf(u'\n', blank + 2);
    return heading < 0 ? QString() : text.mid(heading + 1);
}

// ------------------------------------------------------------------------------------------------
// CliCommand
// ------------------------------------------------------------------------------------------------

CliCommand::CliCommand(Text text, CliOptions options) : m_text(std::move(text)), m_options(std::move(options))
{
}

CliOptions CliCommand::allOptions() const
{
    CliOptions all = m_options;
    all.add({{QStringLiteral("help"), QStringLiteral("h")}, {}, QStringLiteral("show this help")});
    // --db PATH is a global option, also accepted after the command.
    all.add(
        {{QStringLiteral("db")}, QStringLiteral("PATH"), QStringLiteral("catalog database"), false, true});
    return all;
}

QString CliCommand::helpText() const
{
    const CliArgs args(allOptions());
    return QStringLiteral("Usage: gpufrontier-cli %1 %2\n\n%3\n\nOptions:\n")
               .arg(m_text.name, m_text.synopsis, m_text.description) +
           args.optionsHelp();
}

int CliCommand::usageError(CliContext &ctx, const QString &message) const
{
    return gf::usageError(ctx, m_text.name, message);
}

namespace {
const QString kUsageCode = QStringLiteral("cli-usage");
const QString kReportedCode = QStringLiteral("cli-reported");
} // namespace

Error cliUsageError(const QString &message)
{
    return makeCodedError(kUsageCode, message);
}

Error cliFailure(const QString &message)
{
    return makeError(message);
}

Error cliReported()
{
    return makeCodedError(kReportedCode, {});
}

int CliCommand::fail(CliContext &ctx, const Error &error) const
{
    if (error.code == kUsageCode)
        return usageError(ctx, error.message);
    if (error.code != kReportedCode)
        ctx.err << "gpufrontier-cli " << m_text.name << ": " << error.text() << Qt::endl;
    return ExitFailure;
}

int CliCommand::execute(CliContext &ctx, const QStringList &argList) const
{
    CliArgs args(allOptions());
    if (auto parsed = args.parse(argList); !parsed)
        return usageError(ctx, parsed.error().message);
    if (args.isSet(QStringLiteral("help"))) {
        ctx.out << helpText();
        return ExitOk;
    }
    if (!m_text.positionalArguments && !args.positional().isEmpty())
        return usageError(ctx, QStringLiteral("unexpected argument \"%1\"").arg(args.positional().first()));
    if (const QString db = args.value(QStringLiteral("db")); !db.isEmpty())
        ctx.setDbPath(db);
    return run(ctx, args);
}

} // namespace gf

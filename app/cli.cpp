#include "cli.h"

#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "refresh/bundledsnapshot.h"
#include "util/bufferedoutput.h"
#include "util/printable.h"

#include <string>

namespace gf {

namespace {

/// The options of gpufrontier-cli itself, before the command name.
CliOptions globalOptions()
{
    CliOptions o;
    o.add({{QStringLiteral("db")},
           QStringLiteral("PATH"),
           QStringLiteral("catalog database (default: $GPUFRONTIER_DB, else %1)")
               .arg(CatalogStore::defaultPath()),
           true});
    o.add({{QStringLiteral("help"), QStringLiteral("h")},
           {},
           QStringLiteral("show this help; COMMAND --help shows the command's options")});
    o.addFlag(QStringLiteral("version"), QStringLiteral("show the version"));
    return o;
}

QString mainHelp()
{
    QString s = QStringLiteral(
        "Usage: gpufrontier-cli [--db PATH] COMMAND [OPTIONS]\n\n"
        "GPU Frontier tells you where to train a model: which cloud GPU offer, on-demand or spot,\n"
        "is cheap enough and finishes soon enough.\n\n"
        "Commands:\n");
    for (const auto &c : cliCommands())
        s += QStringLiteral("  %1 %2\n").arg(c->name().leftJustified(10), c->summary());
    s += QStringLiteral("\nGlobal options:\n") + CliArgs(globalOptions()).optionsHelp() +
         QStringLiteral("\nExit status: 0 success, 1 the command failed, 2 usage error.\n");
    return s;
}

} // namespace

const std::vector<std::unique_ptr<CliCommand>> &cliCommands()
{
    static const std::vector<std::unique_ptr<CliCommand>> list = [] {
        std::vector<std::unique_ptr<CliCommand>> v;
        v.push_back(makeOffersCommand());
        v.push_back(makeCatalogsCommand());
        v.push_back(makeImportCommand());
        v.push_back(makeRefreshCommand());
        v.push_back(makeHistoryCommand());
        v.push_back(makeChangesCommand());
        v.push_back(makeWorkloadsCommand());
        v.push_back(makeGpusCommand());
        v.push_back(makeAnswerCommand());
        v.push_back(makeFrontierCommand());
        v.push_back(makeProbeCommand());
        v.push_back(makeReportCommand());
        v.push_back(makeValidateCommand());
        v.push_back(makePlanCommand());
        v.push_back(makeCompareScenariosCommand());
        v.push_back(makeMeasureCommand());
        v.push_back(makeCurrenciesCommand());
        return v;
    }();
    return list;
}

CatalogStore *CliContext::store()
{
    if (m_store)
        return m_store.get();
    if (CatalogStore::isWriteProtected(m_dbPath)) {
        // Reading needs no write access: open it read-only and say so; a write says why it cannot.
        auto readOnly = CatalogStore::openReadOnly(m_dbPath);
        if (!readOnly) {
            err << "gpufrontier-cli: " << readOnly.error().text() << Qt::endl;
            return nullptr;
        }
        err << "note: " << m_dbPath
            << " is read-only (no write access to it or its folder): opened for reading only; import, "
               "refresh and probe --store cannot write to it"
            << Qt::endl;
        m_store = std::move(readOnly).value();
        return m_store.get();
    }
    auto opened = CatalogStore::open(m_dbPath);
    if (!opened) {
        err << "gpufrontier-cli: " << opened.error().text() << Qt::endl;
        return nullptr;
    }
    auto bundled = importBundledIfEmpty(*opened.value(), GpuCatalog::builtin());
    if (!bundled) {
        err << "gpufrontier-cli: cannot import the bundled catalog: " << bundled.error().text() << Qt::endl;
        return nullptr;
    }
    m_store = std::move(opened).value();
    return m_store.get();
}

int usageError(CliContext &ctx, const QString &command, const QString &message)
{
    ctx.err << "gpufrontier-cli " << command << ": " << message << Qt::endl
            << "Try 'gpufrontier-cli " << command << " --help'." << Qt::endl;
    return ExitUsage;
}

std::optional<QString> formatFromArgs(CliContext &ctx, const QString &command, const CliArgs &args,
                                      const QStringList &allowed)
{
    const QString format =
        args.isSet(QStringLiteral("format")) ? args.value(QStringLiteral("format")) : allowed.first();
    if (allowed.contains(format))
        return format;
    usageError(
        ctx, command,
        QStringLiteral("--format: \"%1\" is not one of %2").arg(format, allowed.join(QStringLiteral(", "))));
    return std::nullopt;
}

bool checkProviders(CliContext &ctx, const QString &command, const QStringList &providers)
{
    for (const QString &p : providers) {
        if (!knownProviders().contains(p)) {
            usageError(ctx, command,
                       QStringLiteral("--provider: unknown provider \"%1\" (known: %2)")
                           .arg(p, knownProviders().join(QStringLiteral(", "))));
            return false;
        }
    }
    return true;
}

QString jsonText(const QJsonDocument &doc)
{
    return QString::fromUtf8(escapeJsonUnprintable(doc.toJson(QJsonDocument::Indented)));
}

namespace {

/// The UTF-8 of one table line: cells padded to the widths, two spaces apart, no trailing blanks; with
/// `printable`, each character of isUnprintableChar as printableText makes it (one character for one, so
/// a cell's width is its length).
void appendTableLine(std::string &s, const TableRow &cells, const QList<qsizetype> &widths,
                     const QList<bool> &rightAligned, bool printable)
{
    for (qsizetype i = 0; i < cells.size(); ++i) {
        const bool right = i < rightAligned.size() && rightAligned.at(i);
        const qsizetype width = i < widths.size() ? widths.at(i) : 0;
        const QStringView cell = cells.cell(i);
        if (i)
            s.append(2, ' ');
        const auto pad = static_cast<std::size_t>(std::max<qsizetype>(0, width - cell.size()));
        if (right)
            s.append(pad, ' ');
        bool ascii = true; // printable ASCII, most of every catalog's text
        for (const QChar c : cell)
            ascii = ascii && c.unicode() >= 0x20 && c.unicode() < 0x7F;
        if (ascii) {
            for (const QChar c : cell)
                s.push_back(static_cast<char>(c.unicode()));
        } else {
            QString text = cell.toString();
            if (printable)
                text = printableText(text);
            const QByteArray utf8 = text.toUtf8();
            s.append(utf8.constData(), static_cast<std::size_t>(utf8.size()));
        }
        if (!right)
            s.append(pad, ' ');
    }
    while (!s.empty() && s.back() == ' ')
        s.pop_back();
    s.push_back('\n');
}

} // namespace

void writeTableRows(BufferedOutput &out, const QStringList &header, qsizetype rowCount,
                    const std::function<void(qsizetype, TableRow &)> &row, const QList<bool> &rightAligned)
{
    // A provider's text never reaches the terminal raw: no escape sequence, no line break in a cell.
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths.append(h.size());
    TableRow cells;
    for (qsizetype r = 0; r < rowCount; ++r) {
        cells.clear();
        row(r, cells);
        for (qsizetype i = 0; i < cells.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], cells.cell(i).size());
    }
    std::string line;
    TableRow head;
    for (const QString &h : header)
        head.add(h);
    appendTableLine(line, head, widths, rightAligned, false);
    TableRow rule;
    for (qsizetype w : std::as_const(widths))
        rule.add(QString(w, u'-'));
    appendTableLine(line, rule, widths, rightAligned, false);
    out.append(line.data(), static_cast<qsizetype>(line.size()));
    for (qsizetype r = 0; r < rowCount; ++r) {
        cells.clear();
        row(r, cells);
        line.clear();
        appendTableLine(line, cells, widths, rightAligned, true);
        out.append(line.data(), static_cast<qsizetype>(line.size()));
    }
}

void writeTable(BufferedOutput &out, const QStringList &header, qsizetype rowCount,
                const std::function<QStringList(qsizetype)> &row, const QList<bool> &rightAligned)
{
    writeTableRows(
        out, header, rowCount,
        [&](qsizetype r, TableRow &cells) {
            for (const QString &c : row(r))
                cells.add(c);
        },
        rightAligned);
}

QString renderTable(const QStringList &header, const QList<QStringList> &rows,
                    const QList<bool> &rightAligned)
{
    QByteArray bytes;
    {
        ByteArraySink sink(bytes);
        BufferedOutput out(sink);
        writeTable(
            out, header, rows.size(), [&](qsizetype r) { return rows.at(r); }, rightAligned);
    }
    return QString::fromUtf8(bytes);
}

int writeStreamed(CliContext &ctx, const QString &command, const std::function<void(BufferedOutput &)> &write)
{
    TextStreamSink sink(ctx.out);
    BufferedOutput out(sink);
    write(out);
    if (!out.flush()) {
        ctx.err << "gpufrontier-cli " << command << ": cannot write the output: " << out.errorString()
                << Qt::endl;
        return ExitFailure;
    }
    return ExitOk;
}

bool cliNeedsGui(const QStringList &args)
{
    // The command is the first argument that is not a global option (--db takes a value).
    qsizetype i = 0;
    while (i < args.size() && args.at(i).startsWith(u'-'))
        i += args.at(i) == u"--db" ? 2 : 1;
    if (i >= args.size() || args.at(i) != u"report")
        return false;
    QString format;
    QString output;
    for (++i; i < args.size(); ++i) {
        const QString &a = args.at(i);
        const QString next = i + 1 < args.size() ? args.at(i + 1) : QString();
        if (a == u"--help" || a == u"-h")
            return false; // help is plain text
        if (a == u"--format")
            format = next;
        else if (a.startsWith(QStringLiteral("--format=")))
            format = a.mid(9);
        else if (a == u"-o" || a == u"--output")
            output = next;
        else if (a.startsWith(QStringLiteral("--output=")))
            output = a.mid(9);
    }
    if (!format.isEmpty())
        return format.compare(QStringLiteral("pdf"), Qt::CaseInsensitive) == 0;
    return output.endsWith(QStringLiteral(".pdf"), Qt::CaseInsensitive);
}

namespace {

int dispatch(const QStringList &argsIn, QTextStream &out, QTextStream &err)
{
    // Global options come before the command; everything from the command name on is the command's.
    CliArgs global(globalOptions(), CliArgs::Positional::EndOptions);
    if (auto parsed = global.parse(argsIn); !parsed) {
        err << "gpufrontier-cli: " << parsed.error().message << Qt::endl
            << "Try 'gpufrontier-cli --help'." << Qt::endl;
        return ExitUsage;
    }
    if (global.isSet(QStringLiteral("help"))) {
        out << mainHelp();
        return ExitOk;
    }
    if (global.isSet(QStringLiteral("version"))) {
        out << "gpufrontier-cli " << GPUFRONTIER_VERSION << Qt::endl;
        return ExitOk;
    }
    QStringList args = global.positional();
    if (args.isEmpty()) {
        err << mainHelp();
        return ExitUsage;
    }
    const QString name = args.takeFirst();
    if (name == u"help") {
        out << mainHelp();
        return ExitOk;
    }
    QString dbPath = global.value(QStringLiteral("db"));
    if (dbPath.isEmpty())
        dbPath = CatalogStore::defaultPath();
    for (const auto &c : cliCommands()) {
        if (c->name() == name) {
            CliContext ctx(out, err, dbPath);
            return c->execute(ctx, args);
        }
    }
    err << "gpufrontier-cli: unknown command \"" << name << "\"" << Qt::endl
        << "Try 'gpufrontier-cli --help'." << Qt::endl;
    return ExitUsage;
}

} // namespace

int runCli(const QStringList &args, QTextStream &out, QTextStream &err)
{
    // The one output path of every command: what it printed is flushed here, and a write that failed (a
    // full disk, a closed pipe) makes the command fail, whatever it returned.
    const int rc = dispatch(args, out, err);
    if (const auto failure = outputFailure(out); failure && rc == ExitOk) {
        err << "gpufrontier-cli: cannot write the output: " << *failure << Qt::endl;
        return ExitFailure;
    }
    return rc;
}

std::optional<QString> outputFailure(QTextStream &out)
{
    out.flush();
    if (out.status() == QTextStream::Ok)
        return std::nullopt;
    QIODevice *device = out.device();
    const QString why = device ? device->errorString() : QString();
    return why.isEmpty() ? QStringLiteral("the output could not be written") : why;
}

} // namespace gf

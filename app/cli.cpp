#include "cli.h"
#include "refresh/bundledsnapshot.h"

#include "domain/gpucatalog.h"

#include <QCoreApplication>

namespace gf {

namespace {

const QList<CliCommand> &commands()
{
    static const QList<CliCommand> list = {
        {QStringLiteral("offers"),
         QStringLiteral("List the offers of the current catalogs, filtered and sorted"), cliOffers},
        {QStringLiteral("catalogs"),
         QStringLiteral("List the catalog snapshots with source, age and row count"), cliCatalogs},
        {QStringLiteral("import"),
         QStringLiteral(
             "Import price files (GPU Frontier/SkyPilot CSV or a provider's own format) as a snapshot"),
         cliImport},
        {QStringLiteral("refresh"),
         QStringLiteral("Refresh the catalogs from the providers' live price sources"), cliRefresh},
        {QStringLiteral("history"), QStringLiteral("Price history of one instance type across snapshots"),
         cliHistory},
        {QStringLiteral("workloads"), QStringLiteral("List the training workload presets"), cliWorkloads},
        {QStringLiteral("gpus"),
         QStringLiteral("Projected samples/s of a workload on every GPU model (one GPU)"), cliGpus},
        {QStringLiteral("frontier"),
         QStringLiteral("Time and cost of a training run on every offer, with the efficiency frontier"),
         cliFrontier},
        {QStringLiteral("probe"),
         QStringLiteral("Run the GPU/CPU probe benchmark, import a probe result, list stored runs"),
         cliProbe},
        {QStringLiteral("report"),
         QStringLiteral("Write a comparison report: HTML, PDF, CSV, JSON or Markdown"), cliReport},
    };
    return list;
}

QString mainHelp()
{
    QString s = QStringLiteral(
        "Usage: gpufrontier-cli [--db PATH] COMMAND [OPTIONS]\n\n"
        "GPU Frontier tells you where to train a model: which cloud GPU offer, on-demand or spot,\n"
        "is cheap enough and finishes soon enough.\n\n"
        "Commands:\n");
    for (const CliCommand &c : commands())
        s += QStringLiteral("  %1 %2\n").arg(c.name.leftJustified(10), c.summary);
    s += QStringLiteral("\nGlobal options:\n"
                        "  --db PATH    catalog database (default: $GPUFRONTIER_DB, else %1)\n"
                        "  --help       show this help; COMMAND --help shows the command's options\n"
                        "  --version    show the version\n\n"
                        "Exit status: 0 success, 1 the command failed, 2 usage error.\n")
             .arg(CatalogStore::defaultPath());
    return s;
}

} // namespace

CatalogStore *CliContext::store()
{
    if (m_store)
        return m_store.get();
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

QString renderTable(const QStringList &header, const QList<QStringList> &rows,
                    const QList<bool> &rightAligned)
{
    QList<qsizetype> widths;
    for (const QString &h : header)
        widths.append(h.size());
    for (const QStringList &r : rows)
        for (qsizetype i = 0; i < r.size() && i < widths.size(); ++i)
            widths[i] = std::max(widths[i], r.at(i).size());
    auto line = [&](const QStringList &cells) -> QString {
        QString s;
        for (qsizetype i = 0; i < cells.size(); ++i) {
            const bool right = i < rightAligned.size() && rightAligned.at(i);
            const QString c =
                right ? cells.at(i).rightJustified(widths.at(i)) : cells.at(i).leftJustified(widths.at(i));
            s += (i ? QStringLiteral("  ") : QString()) + c;
        }
        while (s.endsWith(u' '))
            s.chop(1);
        return s + u'\n';
    };
    QString out = line(header);
    QStringList rule;
    for (qsizetype w : widths)
        rule.append(QString(w, u'-'));
    out += line(rule);
    for (const QStringList &r : rows)
        out += line(r);
    return out;
}

bool cliNeedsGui(const QStringList &argsIn)
{
    // The command is the first argument after the global options (--db takes a value).
    QStringList args = argsIn;
    while (!args.isEmpty() && args.first().startsWith(QStringLiteral("--"))) {
        if (args.takeFirst() == u"--db" && !args.isEmpty())
            args.removeFirst();
    }
    if (args.isEmpty() || args.first() != u"report")
        return false;
    args.removeFirst();
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"--db" && i + 1 < args.size()) {
            args.remove(i, 2);
            break;
        }
        if (args.at(i).startsWith(QStringLiteral("--db="))) {
            args.remove(i);
            break;
        }
    }
    return reportNeedsGui(args);
}

int runCli(const QStringList &argsIn, QTextStream &out, QTextStream &err)
{
    QStringList args = argsIn;
    QString dbPath;
    // Global options come before the command.
    while (!args.isEmpty() && args.first().startsWith(QStringLiteral("--"))) {
        const QString a = args.takeFirst();
        if (a == u"--help" || a == u"-h") {
            out << mainHelp();
            return ExitOk;
        }
        if (a == u"--version") {
            out << "gpufrontier-cli " << GPUFRONTIER_VERSION << Qt::endl;
            return ExitOk;
        }
        if (a == u"--db" || a.startsWith(QStringLiteral("--db="))) {
            if (a == u"--db") {
                if (args.isEmpty()) {
                    err << "gpufrontier-cli: option --db needs a value (PATH)" << Qt::endl;
                    return ExitUsage;
                }
                dbPath = args.takeFirst();
            } else {
                dbPath = a.mid(5);
            }
            continue;
        }
        err << "gpufrontier-cli: unknown option " << a << Qt::endl
            << "Try 'gpufrontier-cli --help'." << Qt::endl;
        return ExitUsage;
    }
    if (args.isEmpty()) {
        err << mainHelp();
        return ExitUsage;
    }
    const QString name = args.takeFirst();
    // --db is also accepted after the command.
    for (qsizetype i = 0; i < args.size(); ++i) {
        if (args.at(i) == u"--db" && i + 1 < args.size()) {
            dbPath = args.at(i + 1);
            args.remove(i, 2);
            break;
        }
        if (args.at(i).startsWith(QStringLiteral("--db="))) {
            dbPath = args.at(i).mid(5);
            args.remove(i);
            break;
        }
    }
    if (dbPath.isEmpty())
        dbPath = CatalogStore::defaultPath();
    if (name == u"help") {
        out << mainHelp();
        return ExitOk;
    }
    for (const CliCommand &c : commands()) {
        if (c.name == name) {
            CliContext ctx(out, err, dbPath);
            return c.run(ctx, args);
        }
    }
    err << "gpufrontier-cli: unknown command \"" << name << "\"" << Qt::endl
        << "Try 'gpufrontier-cli --help'." << Qt::endl;
    return ExitUsage;
}

} // namespace gf

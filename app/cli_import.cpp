#include "argparser.h"
#include "cli.h"
#include "gpucatalog.h"
#include "snapshotfile.h"

#include <QFile>
#include <QFileInfo>

namespace gf {

int cliImport(CliContext &ctx, const QStringList &args)
{
    const QString cmd = QStringLiteral("import");
    ArgParser p;
    p.addValue(QStringLiteral("file"), QStringLiteral("FILE"), QStringLiteral("the catalog file to import"));
    p.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral("the provider the file must belong to (checked against the file)"));
    p.addFlag(QStringLiteral("help"), QStringLiteral("show this help"));
    if (const QString e = p.parse(args); !e.isEmpty())
        return usageError(ctx, cmd, e);
    if (p.isSet(QStringLiteral("help"))) {
        ctx.out << "Usage: gpufrontier-cli import --file FILE [--provider P]\n\nImport a GPU Frontier catalog CSV "
                   "(format: resources/catalog/FORMAT.md) as a new snapshot.\nThe import is one transaction: on any "
                   "error nothing changes and the previous snapshot stays current.\n\nOptions:\n"
                << p.helpText();
        return ExitOk;
    }
    const QString path = p.value(QStringLiteral("file"));
    if (path.isEmpty())
        return usageError(ctx, cmd, QStringLiteral("--file FILE is required"));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        ctx.err << "gpufrontier-cli import: cannot read " << path << ": " << f.errorString() << Qt::endl;
        return ExitFailure;
    }
    const QByteArray payload = f.readAll();
    const QString origin = QFileInfo(path).fileName();
    auto parsed = parseSnapshotCsv(QString::fromUtf8(payload), origin);
    if (!parsed) {
        ctx.err << "gpufrontier-cli import: " << parsed.error().text() << Qt::endl;
        return ExitFailure;
    }
    const QString provider = p.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && parsed.value().provider != provider) {
        ctx.err << "gpufrontier-cli import: " << origin << " holds " << parsed.value().provider << " prices, not "
                << provider << Qt::endl;
        return ExitFailure;
    }
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto r = store->importSnapshot(std::move(parsed).value(), SourceKind::File, origin, payload, GpuCatalog::builtin());
    if (!r) {
        ctx.err << "gpufrontier-cli import: " << r.error().text() << Qt::endl
                << "Nothing was imported; the previous snapshot stays current." << Qt::endl;
        return ExitFailure;
    }
    const ImportOutcome &o = r.value();
    if (o.unchanged) {
        ctx.out << origin << ": unchanged (same content as the current snapshot " << o.snapshotId << ")" << Qt::endl;
        return ExitOk;
    }
    ctx.out << origin << ": imported " << o.rows << " offers as snapshot " << o.snapshotId;
    if (o.unrecognised)
        ctx.out << " (" << o.unrecognised << " with an unrecognised GPU)";
    ctx.out << Qt::endl;
    for (const QString &w : o.warnings)
        ctx.err << "warning: " << w << Qt::endl;
    return ExitOk;
}

} // namespace gf

#include "cli.h"
#include "clicommand.h"
#include "cliprogress.h"
#include "providers/providerimport.h"
#include "providers/snapshotfile.h"
#include "refresh/catalogrefresher.h"
#include "util/printable.h"

#include <QFile>
#include <QFileInfo>

namespace gf {

namespace {

CliOptions importOptions()
{
    CliOptions o;
    o.addRepeatable(QStringLiteral("file"), QStringLiteral("FILE"),
                    QStringLiteral("a file to import; repeat for several files of one provider"));
    o.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral(
                   "the provider the files belong to (checked against them; required for SkyPilot CSVs)"));
    o.addValue(QStringLiteral("min-rows"), QStringLiteral("N"),
               QStringLiteral("reject a catalog with fewer offers (default 1)"));
    o.addFlag(QStringLiteral("quiet"), QStringLiteral("no progress on stderr"));
    return o;
}

class ImportCommand final : public CliCommand
{
public:
    ImportCommand()
        : CliCommand(
              {.name = QStringLiteral("import"),
               .summary = QStringLiteral(
                   "Import price files (GPU Frontier/SkyPilot CSV or a provider's own format) as a snapshot"),
               .synopsis = QStringLiteral("[--provider P] --file FILE [--file FILE ...]"),
               .description = QStringLiteral(
                   "Imports price files as a new snapshot of one provider, for air-gapped use: the same "
                   "parsers and\n"
                   "checks as 'refresh'. The import is one transaction: on any error nothing changes and the "
                   "previous\n"
                   "snapshot stays current. Formats (detected from the content):\n"
                   "  any provider  GPU Frontier catalog CSV (resources/catalog/FORMAT.md); SkyPilot vms.csv "
                   "(--provider needed)\n"
                   "  aws           EC2 price list offer files (JSON or CSV, any size: streamed), "
                   "spot.js/spot.json,\n"
                   "                spot-advisor-data.json (spot files alone update the current AWS "
                   "snapshot)\n"
                   "  azure         Retail Prices API pages (JSON)\n"
                   "  gcp           Cloud Billing Catalog SKU pages (JSON)\n"
                   "  vastai        offer search answer (JSON)\n"
                   "  paperspace    the curated table (GPU Frontier or SkyPilot CSV)"),
               .positionalArguments = true},
              importOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int ImportCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const QStringList files = p.values(QStringLiteral("file")) + p.positional();
    if (files.isEmpty())
        return usageError(ctx, QStringLiteral("--file FILE is required"));
    QString provider = p.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && !checkProviders(ctx, name(), {provider}))
        return ExitUsage;
    QString err;
    const auto minRows = p.number(QStringLiteral("min-rows"), &err, 1, 1e6);
    if (!err.isEmpty())
        return usageError(ctx, err);
    for (const QString &path : files) {
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            ctx.err << "gpufrontier-cli import: cannot read " << path << ": " << f.errorString() << Qt::endl;
            return ExitFailure;
        }
    }
    if (provider.isEmpty()) {
        // The provider comes from the file: a GPU Frontier CSV names it, a provider format implies it.
        QFile f(files.first());
        f.open(QIODevice::ReadOnly);
        const QByteArray head = f.read(64 * 1024);
        const ProviderFormat format = detectProviderFormat(head);
        provider = providerOfFormat(format);
        if (format == ProviderFormat::GpuFrontierCsv) {
            // Only as far as the provider's name: the import itself streams the file once more.
            f.seek(0);
            auto named = snapshotCsvProvider(f, QFileInfo(files.first()).fileName(), InputLimits{});
            if (!named) {
                ctx.err << "gpufrontier-cli import: " << printableKeepingLines(named.error().text())
                        << Qt::endl
                        << "Nothing was imported; the previous snapshot stays current." << Qt::endl;
                return ExitFailure;
            }
            provider = named.value();
        } else if (format == ProviderFormat::SkypilotCsv) {
            return usageError(
                ctx, QStringLiteral("%1 is a SkyPilot catalog: say which provider it is with --provider")
                         .arg(files.first()));
        }
        if (provider.isEmpty() || !knownProviders().contains(provider)) {
            ctx.err << "gpufrontier-cli import: " << QFileInfo(files.first()).fileName()
                    << ": unknown format or provider; pass --provider P" << Qt::endl;
            return ExitFailure;
        }
    }
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    RefreshOptions options;
    options.minRows = minRows ? static_cast<int>(*minRows) : 1;
    CatalogRefresher importer(*store, options);
    CliProgress progress(ctx.err, p.isSet(QStringLiteral("quiet")));
    importer.setProgress([&](int permille, const QString &message) { progress.update(permille, message); });
    const RefreshOutcome o = importer.importFiles(provider, files);
    progress.clear();
    const QString origin = o.origin.isEmpty() ? QFileInfo(files.first()).fileName() : o.origin;
    switch (o.status) {
    case RefreshStatus::Imported:
        ctx.out << origin << ": imported " << o.rows << " offers as snapshot " << o.snapshotId;
        if (o.unrecognised)
            ctx.out << " (" << o.unrecognised << " with an unrecognised GPU)";
        ctx.out << Qt::endl;
        break;
    case RefreshStatus::Unchanged:
        ctx.out << origin << ": unchanged (same content as the current snapshot " << o.snapshotId << ")"
                << Qt::endl;
        break;
    case RefreshStatus::Failed:
    case RefreshStatus::Cancelled:
        ctx.err << "gpufrontier-cli import: " << printableKeepingLines(o.message) << Qt::endl;
        return ExitFailure;
    }
    for (const QString &w : o.warnings)
        ctx.err << "warning: " << printableKeepingLines(w) << Qt::endl;
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeImportCommand()
{
    return std::make_unique<ImportCommand>();
}

} // namespace gf

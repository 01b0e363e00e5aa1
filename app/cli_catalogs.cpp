#include "cli.h"
#include "clicommand.h"
#include "domain/offerjson.h"
#include "domain/pricesanity.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gf {

namespace {

CliOptions catalogsOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral("only this provider's snapshots"));
    o.addFlag(QStringLiteral("current"), QStringLiteral("only the current snapshot of each provider"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    return o;
}

class CatalogsCommand final : public CliCommand
{
public:
    CatalogsCommand()
        : CliCommand({.name = QStringLiteral("catalogs"),
                      .summary = QStringLiteral("List the catalog snapshots with source, age and row count"),
                      .description = QStringLiteral(
                          "List the catalog snapshots (price history), newest first per provider.\n"
                          "The current snapshot of a provider is its newest good one.")},
                     catalogsOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int CatalogsCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const QString provider = p.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && !checkProviders(ctx, name(), {provider}))
        return ExitUsage;
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;

    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto snaps = store->snapshots(provider);
    if (!snaps) {
        ctx.err << "gpufrontier-cli catalogs: " << snaps.error().text() << Qt::endl;
        return ExitFailure;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<Snapshot> list;
    for (const Snapshot &s : snaps.value())
        if (!p.isSet(QStringLiteral("current")) || s.current)
            list.append(s);
    if (*format == u"json") {
        QJsonArray arr;
        for (const Snapshot &s : std::as_const(list))
            arr.append(snapshotToJson(s, now));
        ctx.out << jsonText(QJsonDocument(arr));
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const Snapshot &s : std::as_const(list)) {
        const qint64 age = s.ageDays(now);
        rows.append(
            {QString::number(s.id), providerDisplayName(s.provider), sourceKindName(s.kind), s.origin,
             s.dataDate.isValid() ? s.dataDate.toString(Qt::ISODate) : QStringLiteral("–"),
             s.fetchedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC"),
             formatAgeDays(age) + (age > PriceSanityRules{}.maxPriceAgeDays ? QStringLiteral(" (stale)")
                                   : age > 7 ? QStringLiteral(" (refresh advised)")
                                             : QString()),
             QString::number(s.rowCount), QString::number(s.unrecognisedCount),
             s.current ? QStringLiteral("yes") : QString()});
    }
    ctx.out << renderTable({QStringLiteral("ID"), QStringLiteral("Provider"), QStringLiteral("Source"),
                            QStringLiteral("Origin"), QStringLiteral("Prices dated"),
                            QStringLiteral("Imported"), QStringLiteral("Age"), QStringLiteral("Offers"),
                            QStringLiteral("Unrecognised GPUs"), QStringLiteral("Current")},
                           rows, {true, false, false, false, false, false, false, true, true, false});
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeCatalogsCommand()
{
    return std::make_unique<CatalogsCommand>();
}

} // namespace gf

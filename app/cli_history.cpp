#include "cli.h"
#include "cli_currency.h"
#include "clicommand.h"
#include "domain/offerjson.h"
#include "domain/provider.h"
#include "util/format.h"
#include "util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

CliOptions historyOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral("the provider (%1)").arg(knownProviders().join(QStringLiteral(", "))));
    o.addValue(QStringLiteral("instance"), QStringLiteral("I"),
               QStringLiteral("the instance type, e.g. p4d.24xlarge"));
    o.addValue(QStringLiteral("region"), QStringLiteral("R"), QStringLiteral("only this region"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    addCurrencyOptions(o);
    return o;
}

class HistoryCommand final : public CliCommand
{
public:
    HistoryCommand()
        : CliCommand(
              {.name = QStringLiteral("history"),
               .summary = QStringLiteral("Price history of one instance type across snapshots"),
               .synopsis = QStringLiteral("--provider P --instance I [--region R] [--format table|json]"),
               .description = QStringLiteral(
                   "Every stored price of one instance type, oldest snapshot first: on-demand and spot per "
                   "region\n"
                   "and zone, with when each snapshot was fetched and the date of its prices. Prices are USD "
                   "per\n"
                   "hour for the whole instance (--currency: converted, at the rate it names), and per "
                   "GPU-hour.")},
              historyOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int HistoryCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const QString provider = p.value(QStringLiteral("provider"));
    const QString instance = p.value(QStringLiteral("instance")).trimmed();
    const QString region = p.value(QStringLiteral("region")).trimmed();
    if (provider.isEmpty() || instance.isEmpty())
        return usageError(ctx, QStringLiteral("--provider P and --instance I are required"));
    if (!checkProviders(ctx, name(), {provider}))
        return ExitUsage;
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const auto currency = currencyForFormat(p, *format, QStringLiteral("table"));
    if (!currency)
        return fail(ctx, currency.error());
    const Currency &cur = currency.value();

    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto hist = store->history(provider, instance, region);
    if (!hist) {
        ctx.err << "gpufrontier-cli history: " << hist.error().text() << Qt::endl;
        return ExitFailure;
    }
    const QList<Offer> &rows = hist.value();
    if (*format == u"json") {
        QJsonArray arr;
        for (const Offer &o : rows) {
            arr.append(QJsonObject{{QStringLiteral("snapshot_id"), o.snapshotId},
                                   {QStringLiteral("fetched_at"), o.fetchedAt.toUTC().toString(Qt::ISODate)},
                                   {QStringLiteral("data_date"),
                                    o.dataDate.isValid() ? QJsonValue(o.dataDate.toString(Qt::ISODate))
                                                         : QJsonValue(QJsonValue::Null)},
                                   {QStringLiteral("provider"), o.provider},
                                   {QStringLiteral("instance_type"), o.instanceType},
                                   {QStringLiteral("region"), o.region},
                                   {QStringLiteral("zone"), o.zone},
                                   {QStringLiteral("ondemand_usd_h"), jsonNumberOrNull(o.onDemandUsdH)},
                                   {QStringLiteral("spot_usd_h"), jsonNumberOrNull(o.spotUsdH)},
                                   {QStringLiteral("spot_label"), o.spotLabel},
                                   {QStringLiteral("interruption"), o.interruption},
                                   {QStringLiteral("source"), o.source}});
        }
        ctx.out << jsonText(QJsonDocument(arr));
        return ExitOk;
    }
    if (rows.isEmpty()) {
        ctx.err << "gpufrontier-cli history: no stored price for " << providerDisplayName(provider) << ' '
                << printableText(instance)
                << (region.isEmpty() ? QString() : QStringLiteral(" in ") + printableText(region))
                << Qt::endl;
        return ExitFailure;
    }
    QList<QStringList> table;
    for (const Offer &o : rows) {
        table.append({QString::number(o.snapshotId),
                      o.fetchedAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                      o.dataDate.isValid() ? o.dataDate.toString(Qt::ISODate) : QStringLiteral("–"), o.region,
                      o.zone.isEmpty() ? QStringLiteral("–") : o.zone,
                      formatMoneyPerHour(o.onDemandUsdH, cur), formatMoneyPerHour(o.spotUsdH, cur),
                      formatMoneyPerHour(o.usdPerGpuHour(), cur), o.spotLabel, o.interruption});
    }
    ctx.out << currencyLine(cur) << providerDisplayName(provider) << ' ' << printableText(instance) << ": "
            << rows.size() << " prices (" << cur.perHourUnit() << ", whole instance)\n"
            << renderTable({QStringLiteral("Snapshot"), QStringLiteral("Fetched (UTC)"),
                            QStringLiteral("Prices dated"), QStringLiteral("Region"), QStringLiteral("Zone"),
                            QStringLiteral("On-demand"), QStringLiteral("Spot"), cur.perGpuHourUnit(),
                            QStringLiteral("Spot kind"), QStringLiteral("Interruption")},
                           table, {true, false, false, false, false, true, true, true, false, false});
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeHistoryCommand()
{
    return std::make_unique<HistoryCommand>();
}

} // namespace gf

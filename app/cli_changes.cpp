#include "cli.h"
#include "clicommand.h"
#include "domain/offerjson.h"
#include "domain/provider.h"
#include "domain/snapshotchanges.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace gf {

namespace {

CliOptions changesOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("provider"), QStringLiteral("P"), QStringLiteral("only this provider"));
    o.addValue(
        QStringLiteral("limit"), QStringLiteral("N"),
        QStringLiteral("list at most N changed, new and gone offers per provider (default 10; 0 = all)"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    return o;
}

/// `gpufrontier-cli changes`: what changed since the last refresh (store/snapshotchangesread.cpp).
class ChangesCommand final : public CliCommand
{
public:
    ChangesCommand()
        : CliCommand(
              {.name = QStringLiteral("changes"),
               .summary = QStringLiteral("What changed in each catalog since the previous snapshot"),
               .description = QStringLiteral(
                   "Compares each provider's current snapshot with the one before it: the offers that\n"
                   "appeared, the offers that went, and the offers whose on-demand or spot price changed\n"
                   "(largest change first). An offer is the same in both when its instance type, region,\n"
                   "zone, GPU and GPU count are. A refresh that found the prices unchanged is named.")},
              changesOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

QString priceText(const std::optional<double> &usdH)
{
    return usdH ? formatUsdPerHour(usdH) : QStringLiteral("–");
}

QString changeText(const std::optional<double> &before, const std::optional<double> &after,
                   const std::optional<double> &change)
{
    if (!before && !after)
        return QStringLiteral("–");
    QString s = QStringLiteral("%1 → %2").arg(priceText(before), priceText(after));
    if (change && *change != 0)
        s += QStringLiteral(" (%1%2 %)")
                 .arg(*change < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                      QString::number(std::abs(*change) * 100.0, 'f', 1));
    return s;
}

QString snapshotText(const Snapshot &s)
{
    return QStringLiteral("snapshot %1, prices of %2")
        .arg(s.id)
        .arg((s.dataDate.isValid() ? s.dataDate : s.fetchedAt.date()).toString(Qt::ISODate));
}

QJsonObject priceJson(const Offer &o)
{
    QJsonObject j;
    j.insert(u"on_demand_usd_per_h", jsonNumberOrNull(o.onDemandUsdH));
    j.insert(u"spot_usd_per_h", jsonNumberOrNull(o.spotUsdH));
    return j;
}

QJsonObject offerIdJson(const Offer &o)
{
    QJsonObject j;
    j.insert(u"instance_type", o.instanceType);
    j.insert(u"region", o.region);
    j.insert(u"zone", o.zone);
    j.insert(u"gpu", jsonStringOrNull(o.gpuId));
    j.insert(u"gpu_name", gpuModelName(o));
    j.insert(u"gpu_count", o.gpuCount);
    return j;
}

QJsonObject changesJson(const SnapshotChanges &c, qsizetype limit, const QDateTime &now)
{
    QJsonObject j;
    j.insert(u"provider", c.provider);
    j.insert(u"current_snapshot", snapshotToJson(c.current, now));
    j.insert(u"previous_snapshot",
             c.comparable() ? QJsonValue(snapshotToJson(c.previous, now)) : QJsonValue());
    j.insert(u"unchanged_since",
             c.unchangedSince.isValid() ? QJsonValue(c.unchangedSince.toString(Qt::ISODate)) : QJsonValue());
    j.insert(u"summary", changesSummaryText(c));
    QJsonObject counts;
    counts.insert(u"added", c.added.size());
    counts.insert(u"removed", c.removed.size());
    counts.insert(u"changed", c.changed.size());
    counts.insert(u"cheaper", c.cheaper());
    counts.insert(u"dearer", c.dearer());
    counts.insert(u"unchanged", c.unchangedCount);
    j.insert(u"counts", counts);
    const auto offers = [limit](const QList<Offer> &list) {
        QJsonArray a;
        for (qsizetype i = 0; i < list.size() && (limit == 0 || i < limit); ++i) {
            QJsonObject o = offerIdJson(list.at(i));
            const QJsonObject prices = priceJson(list.at(i));
            for (auto it = prices.begin(); it != prices.end(); ++it)
                o.insert(it.key(), it.value());
            a.append(o);
        }
        return a;
    };
    j.insert(u"added", offers(c.added));
    j.insert(u"removed", offers(c.removed));
    QJsonArray changed;
    for (qsizetype i = 0; i < c.changed.size() && (limit == 0 || i < limit); ++i) {
        const PriceChange &pc = c.changed.at(i);
        QJsonObject o = offerIdJson(pc.after);
        o.insert(u"before", priceJson(pc.before));
        o.insert(u"after", priceJson(pc.after));
        o.insert(u"on_demand_change", jsonNumberOrNull(pc.onDemandChange()));
        o.insert(u"spot_change", jsonNumberOrNull(pc.spotChange()));
        changed.append(o);
    }
    j.insert(u"changed", changed);
    return j;
}

void writeChangesText(CliContext &ctx, const SnapshotChanges &c, qsizetype limit)
{
    ctx.out << providerDisplayName(c.provider) << ": ";
    if (!c.comparable()) {
        ctx.out << changesSummaryText(c) << " (" << snapshotText(c.current) << ")\n";
        return;
    }
    ctx.out << snapshotText(c.current) << " against " << snapshotText(c.previous) << '\n';
    ctx.out << "  " << changesSummaryText(c) << '\n';
    if (c.unchangedSince.isValid())
        ctx.out << "  the newest refresh (" << c.unchangedSince.toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                << " UTC) found these prices unchanged\n";
    const auto shown = [limit](qsizetype n) { return limit == 0 ? n : std::min(n, limit); };
    if (!c.changed.isEmpty()) {
        QList<QStringList> rows;
        for (qsizetype i = 0; i < shown(c.changed.size()); ++i) {
            const PriceChange &pc = c.changed.at(i);
            rows.append({pc.after.instanceType, locationText(pc.after), gpuModelName(pc.after),
                         formatNumber(pc.after.gpuCount),
                         changeText(pc.before.onDemandUsdH, pc.after.onDemandUsdH, pc.onDemandChange()),
                         changeText(pc.before.spotUsdH, pc.after.spotUsdH, pc.spotChange())});
        }
        QString table = renderTable({QStringLiteral("Instance"), QStringLiteral("Region/zone"),
                                     QStringLiteral("GPU"), QStringLiteral("GPUs"),
                                     QStringLiteral("On-demand USD/h"), QStringLiteral("Spot USD/h")},
                                    rows, {false, false, false, true, false, false});
        table.replace(u'\n', QStringLiteral("\n  "));
        ctx.out << "  " << table.trimmed() << '\n';
        if (rows.size() < c.changed.size())
            ctx.out << "  (" << rows.size() << " of " << c.changed.size()
                    << " price changes; --limit 0 for all)\n";
    }
    for (const auto &[label, list] :
         {std::pair{QStringLiteral("New"), &c.added}, std::pair{QStringLiteral("Gone"), &c.removed}}) {
        if (list->isEmpty())
            continue;
        QStringList names;
        for (qsizetype i = 0; i < shown(list->size()); ++i)
            names.append(QStringLiteral("%1 in %2 (%3 USD/h)")
                             .arg(list->at(i).instanceType, locationText(list->at(i)),
                                  priceText(list->at(i).onDemandUsdH ? list->at(i).onDemandUsdH
                                                                     : list->at(i).spotUsdH)));
        ctx.out << "  " << label << ": " << names.join(QStringLiteral("; "));
        if (names.size() < list->size())
            ctx.out << "; and " << list->size() - names.size() << " more";
        ctx.out << '\n';
    }
}

int ChangesCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const QString provider = p.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && !checkProviders(ctx, name(), {provider}))
        return ExitUsage;
    QString err;
    const auto limit = p.number(QStringLiteral("limit"), &err, 0, 1e9);
    if (!err.isEmpty())
        return usageError(ctx, err);
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto changes = store->latestChanges(provider);
    if (!changes) {
        ctx.err << "gpufrontier-cli changes: " << changes.error().text() << Qt::endl;
        return ExitFailure;
    }
    const qsizetype n = limit ? static_cast<qsizetype>(*limit) : 10;
    if (*format == u"json") {
        QJsonArray arr;
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (const SnapshotChanges &c : changes.value())
            arr.append(changesJson(c, n, now));
        ctx.out << jsonText(QJsonDocument(arr));
        return ExitOk;
    }
    if (changes.value().isEmpty())
        ctx.out << "No catalog snapshots yet.\n";
    for (const SnapshotChanges &c : changes.value())
        writeChangesText(ctx, c, n);
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeChangesCommand()
{
    return std::make_unique<ChangesCommand>();
}

} // namespace gf

#include "argparser.h"
#include "cli.h"
#include "domain/offerjson.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gf {

int cliCatalogs(CliContext &ctx, const QStringList &args)
{
    const QString cmd = QStringLiteral("catalogs");
    ArgParser p;
    p.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral("only this provider's snapshots"));
    p.addFlag(QStringLiteral("current"), QStringLiteral("only the current snapshot of each provider"));
    p.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    p.addFlag(QStringLiteral("help"), QStringLiteral("show this help"));
    if (const QString e = p.parse(args); !e.isEmpty())
        return usageError(ctx, cmd, e);
    if (p.isSet(QStringLiteral("help"))) {
        ctx.out
            << "Usage: gpufrontier-cli catalogs [OPTIONS]\n\nList the catalog snapshots (price history), "
               "newest "
               "first per provider.\nThe current snapshot of a provider is its newest good one.\n\nOptions:\n"
            << p.helpText();
        return ExitOk;
    }
    if (!p.positional().isEmpty())
        return usageError(ctx, cmd, QStringLiteral("unexpected argument \"%1\"").arg(p.positional().first()));
    const QString provider = p.value(QStringLiteral("provider"));
    if (!provider.isEmpty() && !knownProviders().contains(provider))
        return usageError(ctx, cmd, QStringLiteral("--provider: unknown provider \"%1\"").arg(provider));
    const QString format =
        p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")) : QStringLiteral("table");
    if (format != u"table" && format != u"json")
        return usageError(ctx, cmd, QStringLiteral("--format: \"%1\" is not one of table, json").arg(format));

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
    if (format == u"json") {
        QJsonArray arr;
        for (const Snapshot &s : std::as_const(list))
            arr.append(snapshotToJson(s, now));
        ctx.out << QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const Snapshot &s : std::as_const(list)) {
        const qint64 age = s.ageDays(now);
        rows.append({QString::number(s.id), providerDisplayName(s.provider), sourceKindName(s.kind), s.origin,
                     s.dataDate.isValid() ? s.dataDate.toString(Qt::ISODate) : QStringLiteral("–"),
                     s.fetchedAt.toString(QStringLiteral("yyyy-MM-dd HH:mm")) + QStringLiteral(" UTC"),
                     formatAgeDays(age) + (age > 7 ? QStringLiteral(" (stale)") : QString()),
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

} // namespace gf

#include "argparser.h"
#include "cli.h"
#include "domain/gpucatalog.h"
#include "domain/offerfilter.h"
#include "domain/offerjson.h"
#include "util/csv.h"
#include "util/format.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace gf {

int cliOffers(CliContext &ctx, const QStringList &args)
{
    const QString cmd = QStringLiteral("offers");
    ArgParser p;
    p.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral(
                   "only these providers (aws, gcp, azure, paperspace, vastai); repeat or comma-separate"),
               true);
    p.addValue(QStringLiteral("gpu"), QStringLiteral("NAME"),
               QStringLiteral("GPU model, e.g. A100, h100-80gb-sxm, \"RTX 4090\""));
    p.addValue(QStringLiteral("min-gpus"), QStringLiteral("N"),
               QStringLiteral("at least N GPUs per instance"));
    p.addValue(QStringLiteral("min-gpu-mem"), QStringLiteral("GB"),
               QStringLiteral("at least this much memory per GPU, GB"));
    p.addValue(QStringLiteral("max-price"), QStringLiteral("USD/h"),
               QStringLiteral("at most this price per hour for the instance (spot price with --spot)"));
    p.addFlag(
        QStringLiteral("spot"),
        QStringLiteral("only offers with a spot/preemptible/interruptible price; prices shown are spot"));
    p.addValue(QStringLiteral("region"), QStringLiteral("TEXT"),
               QStringLiteral("region or zone contains TEXT, e.g. us-east"));
    p.addValue(QStringLiteral("search"), QStringLiteral("TEXT"),
               QStringLiteral("free text over provider, instance, region, GPU"));
    p.addValue(
        QStringLiteral("sort"), QStringLiteral("KEY"),
        QStringLiteral("sort by %1 (default price)").arg(offerSortKeyNames().join(QStringLiteral(", "))));
    p.addFlag(QStringLiteral("desc"), QStringLiteral("sort in descending order"));
    p.addValue(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("show at most N offers"));
    p.addValue(QStringLiteral("format"), QStringLiteral("FMT"),
               QStringLiteral("table (default), csv or json"));
    p.addFlag(QStringLiteral("help"), QStringLiteral("show this help"));
    if (const QString e = p.parse(args); !e.isEmpty())
        return usageError(ctx, cmd, e);
    if (p.isSet(QStringLiteral("help"))) {
        ctx.out << "Usage: gpufrontier-cli offers [OPTIONS]\n\nList the offers of the current catalog "
                   "snapshot of every "
                   "provider.\nPrices are for the whole instance in USD per hour.\n\nOptions:\n"
                << p.helpText();
        return ExitOk;
    }
    if (!p.positional().isEmpty())
        return usageError(ctx, cmd, QStringLiteral("unexpected argument \"%1\"").arg(p.positional().first()));

    OfferFilter f;
    QString err;
    f.providers = p.values(QStringLiteral("provider"));
    for (const QString &prov : std::as_const(f.providers))
        if (!knownProviders().contains(prov))
            return usageError(ctx, cmd,
                              QStringLiteral("--provider: unknown provider \"%1\" (known: %2)")
                                  .arg(prov, knownProviders().join(QStringLiteral(", "))));
    f.gpu = p.value(QStringLiteral("gpu"));
    f.minGpus = p.number(QStringLiteral("min-gpus"), &err, 0, 1024);
    if (err.isEmpty())
        f.minGpuMemGb = p.number(QStringLiteral("min-gpu-mem"), &err, 0, 1e6);
    if (err.isEmpty())
        f.maxPriceUsdH = p.number(QStringLiteral("max-price"), &err, 0, 1e6);
    const auto limit = err.isEmpty() ? p.number(QStringLiteral("limit"), &err, 1, 1e9) : std::nullopt;
    if (!err.isEmpty())
        return usageError(ctx, cmd, err);
    f.spotOnly = p.isSet(QStringLiteral("spot"));
    f.region = p.value(QStringLiteral("region"));
    f.text = p.value(QStringLiteral("search"));
    const QString sortName =
        p.isSet(QStringLiteral("sort")) ? p.value(QStringLiteral("sort")) : QStringLiteral("price");
    const auto sortKey = offerSortKeyFromName(sortName);
    if (!sortKey)
        return usageError(ctx, cmd,
                          QStringLiteral("--sort: unknown key \"%1\" (known: %2)")
                              .arg(sortName, offerSortKeyNames().join(QStringLiteral(", "))));
    const QString format =
        p.isSet(QStringLiteral("format")) ? p.value(QStringLiteral("format")) : QStringLiteral("table");
    if (format != u"table" && format != u"csv" && format != u"json")
        return usageError(ctx, cmd,
                          QStringLiteral("--format: \"%1\" is not one of table, csv, json").arg(format));

    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto all = store->currentOffers();
    if (!all) {
        ctx.err << "gpufrontier-cli offers: " << all.error().text() << Qt::endl;
        return ExitFailure;
    }
    QList<Offer> offers;
    for (const Offer &o : all.value())
        if (f.accepts(o))
            offers.append(o);
    sortOffers(offers, *sortKey, p.isSet(QStringLiteral("desc")), f.spotOnly);
    const qsizetype total = offers.size();
    if (limit && offers.size() > *limit)
        offers.resize(static_cast<qsizetype>(*limit));

    if (format == u"json") {
        QJsonArray arr;
        for (const Offer &o : std::as_const(offers))
            arr.append(offerToJson(o));
        ctx.out << QString::fromUtf8(QJsonDocument(arr).toJson(QJsonDocument::Indented));
        return ExitOk;
    }
    if (format == u"csv") {
        const QStringList cols{QStringLiteral("provider"),
                               QStringLiteral("instance_type"),
                               QStringLiteral("region"),
                               QStringLiteral("zone"),
                               QStringLiteral("gpu"),
                               QStringLiteral("gpu_provider_name"),
                               QStringLiteral("gpu_count"),
                               QStringLiteral("gpu_mem_gb"),
                               QStringLiteral("vcpus"),
                               QStringLiteral("ram_gb"),
                               QStringLiteral("network_gbps"),
                               QStringLiteral("interconnect"),
                               QStringLiteral("ondemand_usd_h"),
                               QStringLiteral("spot_usd_h"),
                               QStringLiteral("spot_label"),
                               QStringLiteral("interruption"),
                               QStringLiteral("reliability"),
                               QStringLiteral("data_date"),
                               QStringLiteral("upload_gbps"),
                               QStringLiteral("dlperf")};
        ctx.out << cols.join(u',') << '\n';
        auto n = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 10) : QString(); };
        for (const Offer &o : std::as_const(offers)) {
            const QStringList cells{csvQuoteSafe(o.provider),
                                    csvQuoteSafe(o.instanceType),
                                    csvQuoteSafe(o.region),
                                    csvQuoteSafe(o.zone),
                                    csvQuoteSafe(o.gpuId),
                                    csvQuoteSafe(o.gpuRawName),
                                    QString::number(o.gpuCount, 'g', 10),
                                    n(o.gpuMemGb),
                                    n(o.vcpus),
                                    n(o.ramGb),
                                    n(o.networkGbps),
                                    csvQuoteSafe(o.interconnect),
                                    n(o.onDemandUsdH),
                                    n(o.spotUsdH),
                                    csvQuoteSafe(o.spotLabel),
                                    csvQuoteSafe(o.interruption),
                                    n(o.reliability),
                                    o.dataDate.toString(Qt::ISODate),
                                    n(o.uploadGbps),
                                    n(o.dlperf)};
            ctx.out << cells.join(u',') << '\n';
        }
        return ExitOk;
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QList<QStringList> rows;
    for (const Offer &o : std::as_const(offers)) {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        rows.append(
            {providerDisplayName(o.provider), o.instanceType, locationText(o),
             m ? m->name : o.gpuRawName + QStringLiteral(" (unrecognised)"), formatNumber(o.gpuCount),
             formatNumber(o.gpuMemGb), formatNumber(o.vcpus), formatUsdPerHour(o.onDemandUsdH),
             formatUsdPerHour(o.spotUsdH),
             formatAgeDays(o.dataDate.isValid() ? o.dataDate.daysTo(now.date()) : o.fetchedAt.daysTo(now))});
    }
    ctx.out << renderTable(
        {QStringLiteral("Provider"), QStringLiteral("Instance"), QStringLiteral("Region/zone"),
         QStringLiteral("GPU"), QStringLiteral("GPUs"), QStringLiteral("GB/GPU"), QStringLiteral("vCPUs"),
         QStringLiteral("On-demand USD/h"), QStringLiteral("Spot USD/h"), QStringLiteral("Price age")},
        rows, {false, false, false, false, true, true, true, true, true, false});
    ctx.out << QStringLiteral("%1 of %2 matching offers shown.\n").arg(offers.size()).arg(total);
    return ExitOk;
}

} // namespace gf

#include "cli.h"
#include "cli_currency.h"
#include "clicommand.h"
#include "domain/offercsv.h"
#include "domain/offerfilter.h"
#include "domain/offerjson.h"
#include "domain/pricesanity.h"
#include "domain/provider.h"
#include "util/bufferedoutput.h"
#include "util/format.h"
#include "util/jsonwriter.h"

namespace gf {

namespace {

/// The columns of `offers --format csv`.
const QList<OfferCsvColumn> &csvColumns()
{
    using enum OfferField;
    const OfferCsvColumn gpu(QStringLiteral("gpu"), GpuId);
    static const QList<OfferCsvColumn> columns{
        Provider,  InstanceType, Region,      Zone,        gpu,          GpuProviderName, GpuCount,
        GpuMemGb,  Vcpus,        RamGb,       NetworkGbps, Interconnect, OnDemandUsdH,    SpotUsdH,
        SpotLabel, Interruption, Reliability, DataDate,    UploadGbps,   Dlperf};
    return columns;
}

CliOptions offersOptions()
{
    CliOptions o;
    o.addRepeatable(QStringLiteral("provider"), QStringLiteral("P"),
                    QStringLiteral("only these providers (%1); repeat or comma-separate")
                        .arg(knownProviders().join(QStringLiteral(", "))));
    o.addValue(QStringLiteral("gpu"), QStringLiteral("NAME"),
               QStringLiteral("GPU model, e.g. A100, h100-80gb-sxm, \"RTX 4090\""));
    o.addValue(QStringLiteral("min-gpus"), QStringLiteral("N"),
               QStringLiteral("at least N GPUs per instance"));
    o.addValue(QStringLiteral("min-gpu-mem"), QStringLiteral("GB"),
               QStringLiteral("at least this much memory per GPU, GB"));
    o.addValue(QStringLiteral("max-price"), QStringLiteral("USD/h"),
               QStringLiteral("at most this price per hour for the instance (spot price with --spot)"));
    o.addFlag(
        QStringLiteral("spot"),
        QStringLiteral("only offers with a spot/preemptible/interruptible price; prices shown are spot"));
    o.addValue(QStringLiteral("region"), QStringLiteral("TEXT"),
               QStringLiteral("region or zone contains TEXT, e.g. us-east"));
    o.addValue(QStringLiteral("search"), QStringLiteral("TEXT"),
               QStringLiteral("free text over provider, instance, region, GPU"));
    o.addValue(
        QStringLiteral("sort"), QStringLiteral("KEY"),
        QStringLiteral("sort by %1 (default price)").arg(offerSortKeyNames().join(QStringLiteral(", "))));
    o.addFlag(QStringLiteral("desc"), QStringLiteral("sort in descending order"));
    o.addValue(QStringLiteral("limit"), QStringLiteral("N"), QStringLiteral("show at most N offers"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"),
               QStringLiteral("table (default), csv or json"));
    addCurrencyOptions(o);
    return o;
}

class OffersCommand final : public CliCommand
{
public:
    OffersCommand()
        : CliCommand(
              {.name = QStringLiteral("offers"),
               .summary = QStringLiteral("List the offers of the current catalogs, filtered and sorted"),
               .description = QStringLiteral(
                   "List the offers of the current catalog snapshot of every provider.\n"
                   "Prices are for the whole instance in USD per hour (--currency: in that\n"
                   "currency, converted at the rate the table names; csv and json keep USD).")},
              offersOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int OffersCommand::run(CliContext &ctx, const CliArgs &p) const
{
    OfferFilter f;
    QString err;
    f.providers = p.values(QStringLiteral("provider"));
    if (!checkProviders(ctx, name(), f.providers))
        return ExitUsage;
    f.gpu = p.value(QStringLiteral("gpu"));
    f.minGpus = p.number(QStringLiteral("min-gpus"), &err, 0, 1024);
    f.minGpuMemGb = p.number(QStringLiteral("min-gpu-mem"), &err, 0, 1e6);
    f.maxPriceUsdH = p.number(QStringLiteral("max-price"), &err, 0, 1e6);
    const auto limit = p.number(QStringLiteral("limit"), &err, 1, 1e9);
    if (!err.isEmpty())
        return usageError(ctx, err);
    f.spotOnly = p.isSet(QStringLiteral("spot"));
    f.region = p.value(QStringLiteral("region"));
    f.text = p.value(QStringLiteral("search"));
    const QString sortName =
        p.isSet(QStringLiteral("sort")) ? p.value(QStringLiteral("sort")) : QStringLiteral("price");
    const auto sortKey = offerSortKeyFromName(sortName);
    if (!sortKey)
        return usageError(ctx, QStringLiteral("--sort: unknown key \"%1\" (known: %2)")
                                   .arg(sortName, offerSortKeyNames().join(QStringLiteral(", "))));
    const auto format = formatFromArgs(
        ctx, name(), p, {QStringLiteral("table"), QStringLiteral("csv"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const auto currency = currencyForFormat(p, *format, QStringLiteral("table"));
    if (!currency)
        return fail(ctx, currency.error());
    const Currency &cur = currency.value();

    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    // The offers held compactly (a million in well under 400 MB); each is made whole when read.
    auto all = store->currentOfferTable();
    if (!all) {
        ctx.err << "gpufrontier-cli offers: " << all.error().text() << Qt::endl;
        return ExitFailure;
    }
    const OfferTable &offers = all.value();
    // Positions into the loaded offers: filtering and sorting never copy an offer.
    QList<qsizetype> order;
    order.reserve(offers.size());
    OfferMatcher matcher(f);
    const bool filtered = !f.isEmpty();
    for (qsizetype i = 0; i < offers.size(); ++i)
        if (!filtered || matcher.accepts(offers.view(i)))
            order.append(i);
    sortOffers(offers, order, *sortKey, p.isSet(QStringLiteral("desc")), f.spotOnly);
    const qsizetype total = order.size();
    if (limit && order.size() > *limit)
        order.resize(static_cast<qsizetype>(*limit));

    if (*format == u"json") {
        return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
            JsonWriter w(out);
            w.beginArray();
            for (qsizetype i : std::as_const(order))
                writeOfferJson(w, offers.view(i));
            w.endArray();
        });
    }
    if (*format == u"csv") {
        return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
            out.appendText(QString(offerCsvHeader(csvColumns()).join(u',') + u'\n'));
            for (qsizetype i : std::as_const(order))
                out.appendText(QString(offerCsvCells(offers.view(i), csvColumns()).join(u',') + u'\n'));
        });
    }
    const QDateTime now = QDateTime::currentDateTimeUtc();
    return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
        out.appendText(currencyLine(cur));
        writeTable(
            out,
            {QStringLiteral("Provider"), QStringLiteral("Instance"), QStringLiteral("Region/zone"),
             QStringLiteral("GPU"), QStringLiteral("GPUs"), QStringLiteral("GB/GPU"), QStringLiteral("vCPUs"),
             QStringLiteral("On-demand ") + cur.perHourUnit(), QStringLiteral("Spot ") + cur.perHourUnit(),
             cur.perGpuHourUnit(), QStringLiteral("Price age"), QStringLiteral("Flags")},
            order.size(),
            [&](qsizetype r) {
                const Offer o = offers.view(order.at(r));
                return QStringList{providerDisplayName(o.provider), o.instanceType, locationText(o),
                                   gpuModelName(o), formatNumber(o.gpuCount), formatNumber(o.gpuMemGb),
                                   formatNumber(o.vcpus), formatMoneyPerHour(o.onDemandUsdH, cur),
                                   formatMoneyPerHour(o.spotUsdH, cur),
                                   // per GPU-hour: the on-demand price, else the spot price
                                   formatMoneyPerHour(o.usdPerGpuHour(), cur),
                                   formatAgeDays(priceAgeDays(o, now)), offerFlagNames(o.flags).join(u' ')};
            },
            {false, false, false, false, true, true, true, true, true, true, false, false});
        out.appendText(QStringLiteral("%1 of %2 matching offers shown.\n").arg(order.size()).arg(total));
    });
}

} // namespace

std::unique_ptr<CliCommand> makeOffersCommand()
{
    return std::make_unique<OffersCommand>();
}

} // namespace gf

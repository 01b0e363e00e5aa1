#include "cli_projectionargs.h"

#include "argparser.h"
#include "cli.h"
#include "probe/probejson.h"

namespace gf {

void addProjectionOptions(ArgParser &p)
{
    p.addValue(QStringLiteral("deadline"), QStringLiteral("HOURS"),
               QStringLiteral("feasible: done within this many hours"));
    p.addValue(QStringLiteral("budget"), QStringLiteral("USD"),
               QStringLiteral("feasible: the run costs at most this"));
    p.addFlag(QStringLiteral("spot"), QStringLiteral("spot/preemptible/interruptible prices only"));
    p.addFlag(QStringLiteral("on-demand"),
              QStringLiteral("on-demand prices only (default: both, as separate points)"));
    p.addValue(QStringLiteral("checkpoint-minutes"), QStringLiteral("M"),
               QStringLiteral("checkpoint interval; an interruption loses half of it (default 30)"));
    p.addValue(QStringLiteral("setup-minutes"), QStringLiteral("M"),
               QStringLiteral("boot, image pull, data staging, billed once (default 10)"));
    p.addValue(QStringLiteral("restore-minutes"), QStringLiteral("M"),
               QStringLiteral("per spot interruption: new instance + checkpoint load (default 10)"));
    p.addValue(QStringLiteral("nodes"), QStringLiteral("LIST"),
               QStringLiteral("also run on K single-GPU instances over the network, e.g. 2,4,8"));
    p.addValue(QStringLiteral("weight"), QStringLiteral("W"),
               QStringLiteral("recommended point: 0 = cheapest ... 1 = fastest (default 0.5)"));
    p.addValue(QStringLiteral("provider"), QStringLiteral("P"),
               QStringLiteral(
                   "only these providers (aws, gcp, azure, paperspace, vastai); repeat or comma-separate"),
               true);
}

int projectionArgsFromParser(CliContext &ctx, const QString &cmd, const ArgParser &p, ProjectionArgs *out)
{
    ProjectionOptions opt;
    QString err;
    auto num = [&](const char *name, double lo, double hi) -> std::optional<double> {
        if (!err.isEmpty())
            return std::nullopt;
        return p.number(QLatin1StringView(name), &err, lo, hi);
    };
    opt.deadlineHours = num("deadline", 1e-6, 1e7);
    opt.budgetUsd = num("budget", 1e-6, 1e12);
    const auto ckpt = num("checkpoint-minutes", 0, 525600);
    const auto setup = num("setup-minutes", 0, 525600);
    const auto restore = num("restore-minutes", 0, 525600);
    const auto weight = num("weight", 0, 1);
    if (!err.isEmpty())
        return usageError(ctx, cmd, err);
    if (ckpt)
        opt.checkpointMinutes = *ckpt;
    if (setup)
        opt.setupMinutes = *setup;
    if (restore)
        opt.restoreMinutes = *restore;
    if (weight)
        opt.weight = *weight;
    if (p.isSet(QStringLiteral("spot")) && p.isSet(QStringLiteral("on-demand")))
        return usageError(ctx, cmd, QStringLiteral("--spot and --on-demand exclude each other"));
    opt.spotPolicy = p.isSet(QStringLiteral("spot"))        ? SpotPolicy::SpotOnly
                     : p.isSet(QStringLiteral("on-demand")) ? SpotPolicy::OnDemandOnly
                                                            : SpotPolicy::SpotAllowed;
    opt.nodeCounts = {1};
    for (const QString &k : p.values(QStringLiteral("nodes"))) {
        bool ok = false;
        const int v = k.toInt(&ok);
        if (!ok || v < 1 || v > 255)
            return usageError(ctx, cmd,
                              QStringLiteral("--nodes: \"%1\" is not a whole number from 1 to 255").arg(k));
        opt.nodeCounts.append(v);
    }
    const QStringList providers = p.values(QStringLiteral("provider"));
    for (const QString &prov : providers)
        if (!knownProviders().contains(prov))
            return usageError(ctx, cmd,
                              QStringLiteral("--provider: unknown provider \"%1\" (known: %2)")
                                  .arg(prov, knownProviders().join(QStringLiteral(", "))));
    out->options = opt;
    out->providers = providers;
    return -1;
}

int currentOffersForProviders(CliContext &ctx, const QString &cmd, const QStringList &providers,
                              QList<Offer> *out)
{
    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;
    auto all = store->currentOffers();
    if (!all) {
        ctx.err << "gpufrontier-cli " << cmd << ": " << all.error().text() << Qt::endl;
        return ExitFailure;
    }
    out->clear();
    for (const Offer &o : all.value())
        if (providers.isEmpty() || providers.contains(o.provider))
            out->append(o);
    return -1;
}

std::optional<StoredProbe> newestProbeRun(const CatalogStore &store)
{
    auto runs = store.probeRuns();
    if (!runs)
        return std::nullopt;
    const ProbeRunRecord *newest = nullptr;
    for (const ProbeRunRecord &r : runs.value())
        if (!newest || r.createdAt > newest->createdAt ||
            (r.createdAt == newest->createdAt && r.id > newest->id))
            newest = &r;
    if (!newest)
        return std::nullopt;
    auto parsed = parseProbeJson(newest->json);
    if (!parsed)
        return std::nullopt;
    return StoredProbe{newest->id, parsed.value()};
}

} // namespace gf

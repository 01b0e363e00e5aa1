#include "cli.h"
#include "clicommand.h"
#include "cliprogress.h"
#include "domain/provider.h"
#include "refresh/catalogrefresher.h"
#include "refresh/pricesource.h"
#include "refresh/refreshsettings.h"

#include <QFile>
#include <QSettings>

#include <csignal>

namespace gf {

namespace {

/// What the user can do from the command line about a refresh outcome of this code.
QString refreshAdvice(const QString &code)
{
    if (code == u"gcp-api-key")
        return QStringLiteral("Pass --api-key-file FILE or set GPUFRONTIER_GCP_API_KEY (or enter the key on "
                              "the GUI's Catalogs page, which keeps it in the desktop keychain); the current "
                              "GCP prices are kept.");
    if (code == u"download-time-limit")
        return QStringLiteral("On a slow link, allow more time per download with --max-time SECONDS "
                              "(default %1).")
            .arg(RefreshSettings::kDefaultMaxTimeS);
    if (code == u"tls-untrusted")
        return QStringLiteral("Behind a proxy that inspects TLS, give its CA certificate as a PEM file with "
                              "--ca-bundle FILE or GPUFRONTIER_CA_BUNDLE.");
    if (code == u"ca-bundle-unreadable")
        return QStringLiteral("Fix or clear the CA bundle (--ca-bundle, GPUFRONTIER_CA_BUNDLE or the GUI "
                              "setting).");
    if (code == u"no-public-api")
        return QStringLiteral(
            "Import a newer table with: gpufrontier-cli import --provider paperspace --file "
            "FILE");
    return {};
}

/// The first line of a key file, trimmed; an error message when it cannot be used.
QString readKeyFile(const QString &path, QString *key)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return QStringLiteral("--api-key-file: cannot read \"%1\": %2").arg(path, f.errorString());
    const QByteArray head = f.read(64 * 1024);
    *key = QString::fromUtf8(head.left(head.indexOf('\n') < 0 ? head.size() : head.indexOf('\n'))).trimmed();
    if (key->isEmpty())
        return QStringLiteral("--api-key-file: \"%1\" holds no key on its first line").arg(path);
    return {};
}

std::atomic_bool s_interrupted{false};

extern "C" void onInterrupt(int)
{
    s_interrupted.store(true);
}

/// The providers with a keyless API of their own and SkyPilot's catalog.
QStringList directSourceProviders()
{
    QStringList out;
    for (const ProviderInfo &p : providers())
        if (!p.directSource.isEmpty())
            out.append(p.id);
    return out;
}

CliOptions refreshOptions()
{
    CliOptions o;
    o.addRepeatable(QStringLiteral("provider"), QStringLiteral("P"),
                    QStringLiteral("refresh only these providers (%1); repeat or comma-separate")
                        .arg(knownProviders().join(QStringLiteral(", "))));
    o.addValue(
        QStringLiteral("url"), QStringLiteral("URL"),
        QStringLiteral(
            "base URL replacing the provider's endpoints (mirror, proxy); needs exactly one --provider"));
    o.addValue(
        QStringLiteral("source"), QStringLiteral("S"),
        QStringLiteral("live source of the providers that have two (%1): direct (their own keyless API, "
                       "the default) or skypilot (SkyPilot's hosted catalog); default: the Catalogs "
                       "page's setting, else direct")
            .arg(directSourceProviders().join(QStringLiteral(", "))));
    o.addValue(QStringLiteral("api-key-file"), QStringLiteral("FILE"),
               QStringLiteral("read the GCP Cloud Billing Catalog API key from the first line of FILE "
                              "(default: $GPUFRONTIER_GCP_API_KEY, else the key stored from the GUI's "
                              "Catalogs page: the desktop keychain or its 0600 fallback file)"));
    o.addValue(QStringLiteral("api-key"), QStringLiteral("KEY"),
               QStringLiteral("GCP API key on the command line: other users can read it (ps); prefer "
                              "--api-key-file or $GPUFRONTIER_GCP_API_KEY"));
    o.addRepeatable(
        QStringLiteral("region"), QStringLiteral("R"),
        QStringLiteral(
            "AWS regions to download (default: the setting, else every region); repeat or comma-separate"));
    o.addValue(QStringLiteral("ca-bundle"), QStringLiteral("FILE"),
               QStringLiteral("PEM file of the CAs to trust instead of the system's (default: "
                              "$GPUFRONTIER_CA_BUNDLE, else the GUI setting)"));
    o.addValue(QStringLiteral("timeout"), QStringLiteral("S"),
               QStringLiteral("stall timeout: abort a transfer after S seconds without data (default 60)"));
    o.addValue(QStringLiteral("max-time"), QStringLiteral("S"),
               QStringLiteral("time limit of one download, retries included: give up after S seconds "
                              "(default: the setting, else %1)")
                   .arg(RefreshSettings::kDefaultMaxTimeS));
    o.addValue(QStringLiteral("retries"), QStringLiteral("N"),
               QStringLiteral("retries after a timeout, 429 or 5xx (default 3)"));
    o.addValue(QStringLiteral("min-rows"), QStringLiteral("N"),
               QStringLiteral("reject a catalog with fewer offers (default 5)"));
    o.addFlag(QStringLiteral("full"), QStringLiteral("download everything again (no conditional requests)"));
    o.addFlag(QStringLiteral("quiet"), QStringLiteral("no progress on stderr"));
    return o;
}

class RefreshCommand final : public CliCommand
{
public:
    RefreshCommand()
        : CliCommand(
              {.name = QStringLiteral("refresh"),
               .summary = QStringLiteral("Refresh the catalogs from the providers' live price sources"),
               .synopsis = QStringLiteral("[--provider P ...] [--source direct|skypilot] [--url URL] "
                                          "[--api-key-file FILE] [OPTIONS]"),
               .description = QStringLiteral(
                   "Downloads the providers' public price sources, checks them and imports each provider's "
                   "prices as a\n"
                   "new snapshot in one transaction. On any error the previous snapshot stays current.\n"
                   "  aws        EC2 price list (region index + per-region offer files, streamed), spot "
                   "price "
                   "feed,\n"
                   "             Spot Instance Advisor\n"
                   "  azure      Retail Prices API (GPU VM sizes, paged)\n"
                   "  gcp        Cloud Billing Catalog SKUs (needs an API key)\n"
                   "  vastai     offer search (every rentable offer)\n"
                   "  paperspace no public price API: the curated table (import a newer one with 'import')\n"
                   "  runpod     GraphQL API (gpuTypes: per-GPU prices, lowestPrice for 1-8 GPUs), keyless\n"
                   "  oci        Oracle's price list (cloud estimator shapes.json + products.json), "
                   "keyless;\n"
                   "             preemptible = 50 % of pay-as-you-go (derived)\n"
                   "  the others SkyPilot's hosted catalog (keyless): catalogs/v9/<cloud>/vms.csv, else v8, "
                   "v7\n"
                   "--source skypilot reads runpod and oci from SkyPilot's catalog instead (also a setting "
                   "on "
                   "the\n"
                   "Catalogs page).\n"
                   "Unchanged sources (HTTP 304 or the same prices) create no new snapshot. Proxies come "
                   "from\n"
                   "http_proxy/https_proxy/no_proxy. TLS is always verified; GPUFRONTIER_CA_BUNDLE names a "
                   "PEM\n"
                   "file of CAs to trust instead of the system's. Progress goes to stderr. API keys and URL\n"
                   "passwords are never printed or stored in the refresh log; a key given with --api-key is\n"
                   "visible to other users of this machine (ps), a key file or the environment is not.")},
              refreshOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int RefreshCommand::run(CliContext &ctx, const CliArgs &p) const
{
    QStringList providers = p.values(QStringLiteral("provider"));
    const bool explicitProviders = !providers.isEmpty();
    if (!checkProviders(ctx, name(), providers))
        return ExitUsage;
    if (providers.isEmpty())
        providers = knownProviders();
    providers.removeDuplicates();
    const QString url = p.value(QStringLiteral("url")).trimmed();
    if (!url.isEmpty()) {
        if (providers.size() != 1)
            return usageError(
                ctx,
                QStringLiteral("--url needs exactly one --provider (each provider has its own endpoints)"));
        if (const QString bad = RefreshSettings::validateBaseUrl(url); !bad.isEmpty())
            return usageError(ctx, QStringLiteral("--url: ") + bad);
    }
    std::optional<SourceChoice> source;
    if (p.isSet(QStringLiteral("source"))) {
        source = sourceChoiceFromName(p.value(QStringLiteral("source")));
        if (!source)
            return usageError(ctx, QStringLiteral("--source: \"%1\" is not a source (direct, skypilot)")
                                       .arg(p.value(QStringLiteral("source"))));
        // A provider named on the command line must have the source asked for; without --provider the
        // choice applies to the providers that have it.
        if (explicitProviders)
            for (const QString &provider : std::as_const(providers))
                if (const QString bad = sourceChoiceError(provider, *source); !bad.isEmpty())
                    return usageError(ctx, QStringLiteral("--source %1: %2")
                                               .arg(p.value(QStringLiteral("source")).trimmed(), bad));
    }
    QString err;
    const auto timeout = p.number(QStringLiteral("timeout"), &err, 1, 3600);
    const auto retries = p.number(QStringLiteral("retries"), &err, 0, 10);
    const auto minRows = p.number(QStringLiteral("min-rows"), &err, 1, 1e6);
    const auto maxTime = p.number(QStringLiteral("max-time"), &err, 0.1, RefreshSettings::kMaxMaxTimeS);
    if (!err.isEmpty())
        return usageError(ctx, err);
    QString apiKey = p.value(QStringLiteral("api-key"));
    if (p.isSet(QStringLiteral("api-key")) && p.isSet(QStringLiteral("api-key-file")))
        return usageError(ctx, QStringLiteral("give either --api-key or --api-key-file, not both"));
    if (p.isSet(QStringLiteral("api-key-file"))) {
        const QString keyFile = p.value(QStringLiteral("api-key-file"));
        if (const QString bad = readKeyFile(keyFile, &apiKey); !bad.isEmpty())
            return usageError(ctx, bad);
        if (QFile::permissions(keyFile) & (QFile::ReadGroup | QFile::ReadOther))
            ctx.err << "warning: " << keyFile << " can be read by other users; chmod 600 it" << Qt::endl;
    } else if (p.isSet(QStringLiteral("api-key"))) {
        ctx.err << "warning: --api-key puts the key on the command line, where other users of this machine "
                   "can read it (ps, /proc); prefer --api-key-file FILE or $GPUFRONTIER_GCP_API_KEY"
                << Qt::endl;
    }

    QSettings settings;
    const QString caBundle = RefreshSettings::resolveCaBundle(p.value(QStringLiteral("ca-bundle")), settings);
    if (const QString bad = RefreshSettings::validateCaBundle(caBundle); !bad.isEmpty()) {
        const QString from = p.isSet(QStringLiteral("ca-bundle")) ? QStringLiteral("--ca-bundle")
                             : !qEnvironmentVariable("GPUFRONTIER_CA_BUNDLE").trimmed().isEmpty()
                                 ? QStringLiteral("$GPUFRONTIER_CA_BUNDLE")
                                 : QStringLiteral("the CA certificates setting of the Catalogs page");
        return usageError(ctx, QStringLiteral("%1 (from %2)").arg(bad, from));
    }
    RefreshSettings::Overrides overrides;
    overrides.caBundle = p.value(QStringLiteral("ca-bundle"));
    overrides.awsRegions = p.values(QStringLiteral("region"));
    overrides.gcpApiKey = apiKey;
    overrides.withGcpApiKey = providers.contains(QStringLiteral("gcp"));
    if (maxTime)
        overrides.maxTimeMs = static_cast<qint64>(*maxTime * 1000.0);
    // Explicit key, then the environment, then the store (the keychain, else its 0600 file). A key an
    // older version kept in plain settings moves into the store first.
    const SecretStore secrets;
    if (overrides.withGcpApiKey) {
        if (const auto migrated = RefreshSettings::migrateGcpApiKey(settings, secrets)) {
            if (*migrated)
                ctx.err << "note: the GCP API key moved from the plain settings file into the "
                        << (migrated->value().location == SecretLocation::Keychain ? "desktop keychain"
                                                                                   : "key file")
                        << Qt::endl;
            else
                ctx.err << "warning: cannot move the GCP API key out of the plain settings file: "
                        << migrated->error().text() << Qt::endl;
        }
    }
    RefreshSettings::ResolvedKey key;
    RefreshOptions base =
        RefreshSettings::refreshOptions(RefreshOptions{}, settings, secrets, overrides, &key);
    if (overrides.withGcpApiKey) {
        if (!key.error.isEmpty())
            ctx.err << "warning: cannot read the stored GCP API key: " << key.error << Qt::endl;
        if (key.source == RefreshSettings::KeySource::Store && !key.stored.warning.isEmpty())
            ctx.err << "note: " << key.stored.warning << Qt::endl;
    }
    if (timeout)
        base.http.lowSpeedTimeS = static_cast<int>(*timeout);
    if (retries)
        base.http.maxAttempts = static_cast<int>(*retries) + 1;
    if (minRows)
        base.minRows = static_cast<int>(*minRows);
    base.conditional = !p.isSet(QStringLiteral("full"));

    CatalogStore *store = ctx.store();
    if (!store)
        return ExitFailure;

    s_interrupted.store(false);
    auto previous = std::signal(SIGINT, onInterrupt);
    CliProgress progress(ctx.err, p.isSet(QStringLiteral("quiet")));
    int failures = 0;
    for (const QString &provider : std::as_const(providers)) {
        if (provider == u"gcp" && base.gcpApiKey.isEmpty() && !explicitProviders) {
            ctx.out << providerDisplayName(provider)
                    << ": skipped: no Cloud Billing API key (--api-key-file, $GPUFRONTIER_GCP_API_KEY or the "
                       "key stored from the GUI's Catalogs page); the current GCP prices are kept"
                    << Qt::endl;
            continue;
        }
        RefreshOptions options = base;
        options.baseUrl = url.isEmpty() ? RefreshSettings::baseUrl(settings, provider) : url;
        options.source =
            source && priceSource(provider, *source) ? *source : RefreshSettings::source(settings, provider);
        CatalogRefresher refresher(*store, options);
        refresher.setCancelFlag(&s_interrupted);
        refresher.setProgress(
            [&](int permille, const QString &message) { progress.update(permille, message); });
        const RefreshOutcome o = refresher.refresh(provider);
        progress.clear();
        const QString advice = refreshAdvice(o.code);
        if (o.ok()) {
            ctx.out << o.message << Qt::endl;
            if (!advice.isEmpty())
                ctx.out << advice << Qt::endl;
        } else {
            ++failures;
            ctx.err << "gpufrontier-cli refresh: " << o.message << Qt::endl;
            if (!advice.isEmpty())
                ctx.err << advice << Qt::endl;
        }
        for (const QString &w : o.warnings)
            ctx.err << "warning: " << providerDisplayName(provider) << ": " << w << Qt::endl;
        if (s_interrupted.load())
            break;
    }
    std::signal(SIGINT, previous);
    return failures ? ExitFailure : ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeRefreshCommand()
{
    return std::make_unique<RefreshCommand>();
}

} // namespace gf

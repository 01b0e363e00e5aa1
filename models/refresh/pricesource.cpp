#include "refresh/pricesource.h"

#include "domain/provider.h"
#include "refresh/awspricesource.h"
#include "refresh/azurepricesource.h"
#include "refresh/gcppricesource.h"
#include "refresh/ocipricesource.h"
#include "refresh/paperspacepricesource.h"
#include "refresh/redact.h"
#include "refresh/runpodpricesource.h"
#include "refresh/skypilotpricesource.h"
#include "refresh/vastpricesource.h"

#include <QUrl>

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

namespace gf {

SourceContext::SourceContext(const RefreshOptions &options, CatalogStore &store, const ProviderTables &tables,
                             const std::atomic_bool *cancel, const RefreshProgress &progress)
    : m_options(options), m_store(store), m_tables(tables), m_cancel(cancel), m_progress(progress),
      m_secrets(refreshSecrets(options))
{
}

void SourceContext::report(int permille, const QString &message) const
{
    if (m_progress)
        m_progress(std::clamp(permille, 0, 1000), redact(message));
}

QString SourceContext::redact(const QString &text) const
{
    return redactSecrets(text, m_secrets);
}

HttpClient SourceContext::http() const
{
    HttpClient client(m_options.http);
    client.setCancelFlag(m_cancel);
    client.setSecrets(m_secrets);
    return client;
}

QString SourceContext::endpoint(const QString &defaultUrl) const
{
    if (m_options.baseUrl.isEmpty())
        return defaultUrl;
    QString base = m_options.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    const QUrl d(defaultUrl);
    return base + d.path(QUrl::FullyEncoded) +
           (d.hasQuery() ? u'?' + d.query(QUrl::FullyEncoded) : QString());
}

QString SourceContext::rebase(const QString &url) const
{
    if (m_options.baseUrl.isEmpty())
        return url;
    QUrl u(url);
    const QUrl b(m_options.baseUrl);
    if (u.isRelative())
        return b.resolved(u).toString();
    u.setScheme(b.scheme());
    u.setHost(b.host());
    u.setPort(b.port());
    return u.toString();
}

Result<SourceContext::Document> SourceContext::document(HttpClient &http, const QString &provider,
                                                        const QString &url, FetchedCatalog &into) const
{
    RefreshState state(m_store);
    std::optional<FetchState> old;
    if (m_options.conditional) {
        auto st = state.fetchState(redact(url)); // stored under the redacted URL (see CatalogRefresher)
        if (st && st.value() && st.value()->cacheKind == u"raw")
            old = st.value();
    }
    HttpRequest req;
    req.url = url;
    if (old) {
        req.ifNoneMatch = old->etag;
        req.ifModifiedSince = old->lastModified;
    }
    auto resp = http.fetch(req);
    ++into.requests;
    if (!resp)
        return resp.error();
    Document doc;
    if (resp.value().notModified) {
        if (!old) { // a 304 we did not ask for: ask again without validators
            req.ifNoneMatch.clear();
            req.ifModifiedSince.clear();
            resp = http.fetch(req);
            ++into.requests;
            if (!resp)
                return resp.error();
        } else {
            doc.body = old->cache;
            doc.notModified = true;
            doc.effectiveUrl = url;
            into.states.append(*old);
            return doc;
        }
    }
    doc.body = resp.value().body;
    doc.effectiveUrl = resp.value().effectiveUrl.isEmpty() ? url : resp.value().effectiveUrl;
    into.bytes += resp.value().bytes;
    if (!resp.value().etag.isEmpty() || !resp.value().lastModified.isEmpty())
        into.states.append({url, provider, resp.value().etag, resp.value().lastModified,
                            QDateTime::currentDateTimeUtc(), QStringLiteral("raw"), doc.body});
    return doc;
}

QString responseOrigin(const HttpResponse &response, const QString &requested, bool withoutQuery)
{
    const QString url = response.effectiveUrl.isEmpty() ? requested : response.effectiveUrl;
    if (!withoutQuery)
        return url;
    return QUrl(url).adjusted(QUrl::RemoveQuery | QUrl::RemoveFragment).toString();
}

QString sourceChoiceName(SourceChoice choice)
{
    switch (choice) {
    case SourceChoice::Default:
        return {};
    case SourceChoice::Direct:
        return QStringLiteral("direct");
    case SourceChoice::Skypilot:
        return QStringLiteral("skypilot");
    }
    return {};
}

std::optional<SourceChoice> sourceChoiceFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n.isEmpty() || n == u"default")
        return SourceChoice::Default;
    if (n == u"direct")
        return SourceChoice::Direct;
    if (n == u"skypilot")
        return SourceChoice::Skypilot;
    return std::nullopt;
}

namespace {

const PriceSource *ownSource(const QString &provider)
{
    static const AwsPriceSource aws;
    static const AzurePriceSource azure;
    static const GcpPriceSource gcp;
    static const VastPriceSource vast;
    static const PaperspacePriceSource paperspace;
    static const RunpodPriceSource runpod;
    static const OciPriceSource oci;
    static const std::array<const PriceSource *, 7> all{&aws,        &azure,  &gcp, &vast,
                                                        &paperspace, &runpod, &oci};
    const auto it =
        std::find_if(all.begin(), all.end(), [&](const PriceSource *s) { return s->provider() == provider; });
    return it != all.end() ? *it : nullptr;
}

const PriceSource *skypilotSource(const QString &provider)
{
    // Every cloud read through SkyPilot's hosted catalog: one source per provider table row.
    static const std::vector<std::unique_ptr<SkypilotPriceSource>> skypilot = [] {
        std::vector<std::unique_ptr<SkypilotPriceSource>> out;
        for (const ProviderInfo *p : skypilotCatalogProviders())
            out.push_back(std::make_unique<SkypilotPriceSource>(*p));
        return out;
    }();
    for (const auto &s : skypilot)
        if (s->provider() == provider)
            return s.get();
    return nullptr;
}

} // namespace

const PriceSource *priceSource(const QString &provider, SourceChoice choice)
{
    switch (choice) {
    case SourceChoice::Default:
        if (const PriceSource *own = ownSource(provider))
            return own;
        return skypilotSource(provider);
    case SourceChoice::Direct:
        return ownSource(provider);
    case SourceChoice::Skypilot:
        return skypilotSource(provider);
    }
    return nullptr;
}

QString sourceChoiceError(const QString &provider, SourceChoice choice)
{
    if (priceSource(provider, choice))
        return {};
    const ProviderInfo *info = providerInfo(provider);
    if (!info)
        return QStringLiteral("Unknown provider \"%1\" (known: %2)")
            .arg(provider, knownProviders().join(QStringLiteral(", ")));
    if (choice == SourceChoice::Direct)
        return QStringLiteral("%1 has no keyless price API of its own; its live source is SkyPilot's hosted "
                              "catalog")
            .arg(info->displayName);
    return QStringLiteral("%1 is not read from SkyPilot's hosted catalog; its live source is its own API")
        .arg(info->displayName);
}

QString megabytesText(qint64 bytes)
{
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', bytes < 10000000 ? 1 : 0);
}

} // namespace gf

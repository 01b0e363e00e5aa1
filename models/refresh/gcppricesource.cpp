#include "refresh/gcppricesource.h"

#include "providers/gcpbilling.h"

#include <QSet>
#include <QUrl>
#include <QUrlQuery>

namespace gf {

namespace {

QString withoutQuery(const QString &url)
{
    QUrl u(url);
    u.setQuery(QString());
    return u.toString();
}

} // namespace

Result<FetchedCatalog> GcpPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("gcp");
    if (ctx.options().gcpApiKey.trimmed().isEmpty())
        return makeCodedError(QStringLiteral("gcp-api-key"),
                              QStringLiteral("Google Cloud: the Cloud Billing Catalog API needs an API key; "
                                             "none was given."));
    HttpClient http = ctx.http();
    const QString base = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/v1/services/6F81-5844-456A/skus"));
    f.origin = base;
    QString token;
    QSet<QString> seen;
    // Each page's SKUs are folded into the offers as the page is read: one price per part, region and kind
    // is held, not every page's SKUs.
    GcpOfferComposer composer(ctx.tables());
    qint64 skus = 0;
    int pages = 0;
    do {
        if (ctx.cancelled())
            return makeError(QStringLiteral("Google Cloud: cancelled"));
        if (++pages > ctx.options().maxPages)
            return makeError(QStringLiteral("Google Cloud: more than %1 pages: stopping (pagination loop?)")
                                 .arg(ctx.options().maxPages));
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("key"),
                           QString::fromLatin1(QUrl::toPercentEncoding(ctx.options().gcpApiKey.trimmed())));
        query.addQueryItem(QStringLiteral("currencyCode"), QStringLiteral("USD"));
        query.addQueryItem(QStringLiteral("pageSize"), QStringLiteral("5000"));
        if (!token.isEmpty())
            query.addQueryItem(QStringLiteral("pageToken"),
                               QString::fromLatin1(QUrl::toPercentEncoding(token)));
        const QString url = base + u'?' + query.toString(QUrl::FullyEncoded);
        ctx.report(std::min(900, pages * 60),
                   QStringLiteral("Google Cloud: SKU page %1, %2 SKUs so far").arg(pages).arg(skus));
        HttpRequest req;
        req.url = url;
        auto resp = http.fetch(req);
        ++f.requests;
        if (!resp)
            return resp.error().prefixed(QStringLiteral("Google Cloud: "));
        f.bytes += resp.value().bytes;
        if (pages == 1)
            f.origin = responseOrigin(resp.value(), url, true);
        auto parsed = parseGcpSkuPage(resp.value().body, withoutQuery(url));
        if (!parsed)
            return parsed.error().prefixed(QStringLiteral("Google Cloud: "));
        for (const GcpSku &sku : std::as_const(parsed.value().skus))
            composer.add(sku);
        skus += parsed.value().skus.size();
        token = parsed.value().nextPageToken;
        if (!token.isEmpty() && seen.contains(token))
            return makeError(
                QStringLiteral("Google Cloud: the same page token came back twice (pagination loop)"));
        seen.insert(token);
    } while (!token.isEmpty());
    f.parts.complete = composer.finish(QString());
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(
        QStringLiteral("GCP Cloud Billing Catalog, %1 SKUs on %2 pages").arg(skus).arg(pages));
    return f;
}

} // namespace gf

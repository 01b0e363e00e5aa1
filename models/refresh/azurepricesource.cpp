#include "refresh/azurepricesource.h"

#include "providers/azureretail.h"

#include <QSet>
#include <QUrl>

namespace gf {

Result<FetchedCatalog> AzurePriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("azure");
    HttpClient http = ctx.http();
    const QString base = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/api/retail/prices"));
    f.origin = base;
    const QStringList filters = azureGpuFilters(ctx.tables(), std::max(1, ctx.options().azureSizesPerQuery));
    // Each page's items are folded into the offers as the page is read: one price per size, region and
    // meter kind is held, not every page's items.
    AzureOfferComposer composer(ctx.tables());
    qint64 meters = 0;
    int pages = 0;
    for (qsizetype fi = 0; fi < filters.size(); ++fi) {
        // As documented: ?$filter=<OData expression>, the expression percent-encoded.
        QString url =
            base + QStringLiteral("?$filter=") + QString::fromLatin1(QUrl::toPercentEncoding(filters.at(fi)));
        QSet<QString> seen;
        int page = 0;
        while (!url.isEmpty()) {
            if (ctx.cancelled())
                return makeError(QStringLiteral("Azure: cancelled"));
            if (++pages > ctx.options().maxPages)
                return makeError(
                    QStringLiteral("Azure: more than %1 pages: stopping (pagination loop?) at %2")
                        .arg(ctx.options().maxPages)
                        .arg(url));
            seen.insert(url);
            ++page;
            ctx.report(static_cast<int>(900 * fi / filters.size()) + std::min(80, page),
                       QStringLiteral("Azure: price page %1 (query %2 of %3), %4 meters so far")
                           .arg(page)
                           .arg(fi + 1)
                           .arg(filters.size())
                           .arg(meters));
            HttpRequest req;
            req.url = url;
            auto resp = http.fetch(req);
            ++f.requests;
            if (!resp)
                return resp.error().prefixed(QStringLiteral("Azure: "));
            f.bytes += resp.value().bytes;
            if (pages == 1)
                f.origin = responseOrigin(resp.value(), url, true);
            auto parsed = parseAzureRetailPage(resp.value().body, url);
            if (!parsed)
                return parsed.error().prefixed(QStringLiteral("Azure: "));
            if (!parsed.value().currency.isEmpty() && parsed.value().currency != u"USD")
                return makeError(
                    QStringLiteral("Azure: %1 bills in %2, not USD").arg(url, parsed.value().currency));
            for (const AzureRetailItem &item : std::as_const(parsed.value().items))
                composer.add(item);
            meters += parsed.value().items.size();
            QString next = parsed.value().nextPageLink;
            if (!next.isEmpty())
                next = ctx.rebase(next);
            if (!next.isEmpty() && seen.contains(next))
                return makeError(
                    QStringLiteral("Azure: the page %1 links back to %2 (pagination loop)").arg(url, next));
            url = next;
        }
    }
    f.parts.complete = composer.finish(QString());
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("Azure Retail Prices API, %1 pages").arg(pages));
    return f;
}

} // namespace gf

#include "refresh/vastpricesource.h"

#include "providers/vastai.h"

#include <QSet>
#include <QThread>

namespace gf {

Result<FetchedCatalog> VastPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("vastai");
    HttpClient http = ctx.http();
    const QString url = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/api/v0/bundles/"));
    f.origin = url;
    const int maxPages = std::max(1, ctx.options().vastMaxPages);
    SnapshotData all;
    VastOfferPage skipped; // the skip counts over every page
    QSet<QString> seen;
    std::optional<double> cursor;
    int pages = 0;
    bool cut = false;
    while (true) {
        ++pages;
        ctx.report(50 + 800 * (pages - 1) / maxPages,
                   pages == 1 ? QStringLiteral("vast.ai: searching offers")
                              : QStringLiteral("vast.ai: offers from %1 USD/h (page %2, %3 offers so far)")
                                    .arg(*cursor)
                                    .arg(pages)
                                    .arg(all.offers.size()));
        http.setProgress([&ctx, pages, maxPages](qint64 received, qint64) {
            ctx.report(50 + 800 * (pages - 1) / maxPages +
                           static_cast<int>(std::min<qint64>(800 / maxPages, received / 20000)),
                       QStringLiteral("vast.ai: offers, %1 MB").arg(megabytesText(received)));
        });
        HttpRequest req;
        req.url = url;
        req.method = "POST";
        req.body = vastSearchQuery(10000, cursor);
        req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        if (!ctx.options().vastApiKey.isEmpty())
            req.headers.append(qMakePair(QByteArray("Authorization"),
                                         QByteArray("Bearer " + ctx.options().vastApiKey.toUtf8())));
        auto resp = http.fetch(req);
        ++f.requests;
        if (!resp)
            return resp.error().prefixed(QStringLiteral("vast.ai: "));
        f.bytes += resp.value().bytes;
        if (pages == 1)
            f.origin = responseOrigin(resp.value(), url); // the final URL after any redirect
        auto parsed = parseVastOfferPage(resp.value().body, url);
        if (!parsed)
            return parsed.error().prefixed(QStringLiteral("vast.ai: "));
        VastOfferPage page = std::move(parsed).value();
        if (pages == 1)
            all = page.data;
        int added = 0;
        for (Offer &o : page.data.offers) {
            if (seen.contains(o.instanceType))
                continue; // the cursor is inclusive: the previous page's last price comes again
            seen.insert(o.instanceType);
            if (pages > 1)
                all.offers.append(std::move(o));
            ++added;
        }
        skipped.malformed += page.malformed;
        if (skipped.firstMalformed.isEmpty())
            skipped.firstMalformed = page.firstMalformed;
        skipped.notRentable += page.notRentable;
        skipped.noPrice += page.noPrice;
        // An answer of exactly the default limit was cut short (provider-sources.md): page on by price.
        cut = page.answered == kVastDefaultLimit;
        if (!cut)
            break;
        if (added == 0 || !page.maxPrice) {
            all.warnings.append(
                QStringLiteral("paging stopped at %1 USD/h: a whole page of %2 offers at that price was seen "
                               "already")
                    .arg(cursor.value_or(0))
                    .arg(kVastDefaultLimit));
            break;
        }
        cursor = page.maxPrice;
        if (pages >= maxPages)
            break;
        if (ctx.cancelled())
            return makeError(QStringLiteral("vast.ai: cancelled"));
        for (int waited = 0; waited < ctx.options().vastPageDelayMs; waited += 100) {
            if (ctx.cancelled())
                return makeError(QStringLiteral("vast.ai: cancelled"));
            QThread::msleep(
                static_cast<unsigned long>(std::min(100, ctx.options().vastPageDelayMs - waited)));
        }
    }
    if (pages > 1 || cut) {
        QString w = QStringLiteral("vast.ai answered exactly %1 offers (its default limit) to a query for "
                                   "10000: paged by price, %2 requests, %3 offers")
                        .arg(kVastDefaultLimit)
                        .arg(pages)
                        .arg(all.offers.size());
        if (cut && pages >= maxPages)
            w += QStringLiteral("; stopped after %1 pages at %2 USD/h: the dearer offers are not in this "
                                "snapshot")
                     .arg(maxPages)
                     .arg(cursor.value_or(0));
        all.warnings.prepend(w);
    }
    all.warnings += vastPageWarnings(skipped);
    f.parts.complete = std::move(all);
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(pages > 1 ? QStringLiteral("vast.ai offer search (%1 pages)").arg(pages)
                                          : QStringLiteral("vast.ai offer search"));
    return f;
}

} // namespace gf

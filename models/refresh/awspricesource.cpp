#include "refresh/awspricesource.h"

#include "providers/awsoffers.h"
#include "providers/awsspot.h"
#include "providers/snapshotfile.h"

#include <QUrl>

namespace gf {

Result<FetchedCatalog> AwsPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("aws");
    HttpClient http = ctx.http();
    RefreshState state(ctx.store());
    const QString indexUrl = ctx.endpoint(
        defaultBaseUrl() + QStringLiteral("/offers/v1.0/aws/AmazonEC2/current/region_index.json"));
    f.origin = indexUrl;
    ctx.report(0, QStringLiteral("AWS: reading the region index"));
    auto index = ctx.document(http, f.parts.provider, indexUrl, f);
    if (!index)
        return index.error().prefixed(QStringLiteral("AWS: "));
    f.origin = index.value().effectiveUrl;
    bool allNotModified = index.value().notModified;
    auto regions = parseAwsRegionIndex(index.value().body, indexUrl);
    if (!regions)
        return regions.error().prefixed(QStringLiteral("AWS: "));
    QList<QPair<QString, QString>> selected;
    if (!ctx.options().awsRegions.isEmpty()) {
        for (const QString &r : ctx.options().awsRegions) {
            auto it = std::find_if(regions.value().regions.cbegin(), regions.value().regions.cend(),
                                   [&](const auto &p) { return p.first == r; });
            if (it == regions.value().regions.cend())
                return makeError(
                    QStringLiteral("AWS: region \"%1\" is not in the region index %2").arg(r, indexUrl));
            selected.append(*it);
        }
    } else {
        for (const auto &p : regions.value().regions)
            if (!p.first.startsWith(QStringLiteral("cn-"))) // the China partition is priced in CNY
                selected.append(p);
    }
    QString version;
    const int n = static_cast<int>(selected.size());
    for (int i = 0; i < n; ++i) {
        if (ctx.cancelled())
            return makeError(QStringLiteral("AWS: cancelled"));
        const QString region = selected.at(i).first;
        const QString url = ctx.rebase(QUrl(indexUrl).resolved(QUrl(selected.at(i).second)).toString());
        std::optional<FetchState> old;
        if (ctx.options().conditional) {
            auto st = state.fetchState(ctx.redact(url)); // stored under the redacted URL
            if (st && st.value() && st.value()->cacheKind == u"offers-csv")
                old = st.value();
        }
        const int from = 20 + 800 * i / std::max(1, n);
        const int span = 800 / std::max(1, n);
        ctx.report(from, QStringLiteral("AWS: %1 offer file (region %2 of %3)")
                             .arg(region, QString::number(i + 1), QString::number(n)));
        http.setProgress([&, from, span, region](qint64 received, qint64 total) {
            const int p =
                total > 0 ? from + static_cast<int>(span * std::min<qint64>(received, total) / total) : from;
            ctx.report(p, total > 0 ? QStringLiteral("AWS: %1 offer file, %2 of %3 MB (region %4 of %5)")
                                          .arg(region, megabytesText(received), megabytesText(total),
                                               QString::number(i + 1), QString::number(n))
                                    : QStringLiteral("AWS: %1 offer file, %2 MB (region %3 of %4)")
                                          .arg(region, megabytesText(received), QString::number(i + 1),
                                               QString::number(n)));
        });
        HttpRequest req;
        req.url = url;
        if (old) {
            req.ifNoneMatch = old->etag;
            req.ifModifiedSince = old->lastModified;
        }
        AwsOfferStream sink(ctx.tables(), url, region);
        auto resp = http.fetch(req, sink);
        ++f.requests;
        http.setProgress({});
        if (!resp)
            return resp.error().prefixed(QStringLiteral("AWS: "));
        if (resp.value().notModified && old) {
            auto cached = parseSnapshotCsv(QString::fromUtf8(old->cache), url);
            if (!cached)
                return makeError(QStringLiteral("AWS: the stored copy of %1 is unreadable: %2")
                                     .arg(url, cached.error().text()));
            f.parts.awsOnDemand += cached.value().offers;
            f.states.append(*old);
            continue;
        }
        if (resp.value().notModified)
            return makeError(
                QStringLiteral("AWS: %1 answered 304 Not Modified to a request without validators").arg(url));
        allNotModified = false;
        auto parsed = sink.finish();
        if (!parsed)
            return parsed.error().prefixed(QStringLiteral("AWS: "));
        f.bytes += resp.value().bytes;
        version = parsed.value().version;
        f.parts.warnings += parsed.value().warnings;
        if (!resp.value().etag.isEmpty() || !resp.value().lastModified.isEmpty())
            f.states.append({url, f.parts.provider, resp.value().etag, resp.value().lastModified,
                             QDateTime::currentDateTimeUtc(), QStringLiteral("offers-csv"),
                             writeSnapshotCsv(parsed.value().offers).toUtf8()});
        f.parts.awsOnDemand += parsed.value().offers;
    }
    f.parts.haveAwsOffers = true;

    ctx.report(840, QStringLiteral("AWS: spot prices"));
    const QString spotUrl = ctx.options().baseUrl.isEmpty()
                                ? QStringLiteral("https://website.spot.ec2.aws.a2z.com/spot.json")
                                : ctx.endpoint(QStringLiteral("https://x/spot.json"));
    auto spot = ctx.document(http, f.parts.provider, spotUrl, f);
    if (!spot)
        return spot.error().prefixed(QStringLiteral("AWS: "));
    auto spotPrices = parseAwsSpotFeed(spot.value().body, spotUrl);
    if (!spotPrices)
        return spotPrices.error().prefixed(QStringLiteral("AWS: "));
    f.parts.warnings += spotPrices.value().warnings;
    f.parts.awsSpot = std::move(spotPrices).value();
    allNotModified = allNotModified && spot.value().notModified;

    ctx.report(900, QStringLiteral("AWS: spot interruption advisor"));
    const QString advisorUrl =
        ctx.options().baseUrl.isEmpty()
            ? QStringLiteral("https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json")
            : ctx.endpoint(QStringLiteral("https://x/spot-advisor-data.json"));
    auto advisor = ctx.document(http, f.parts.provider, advisorUrl, f);
    if (!advisor)
        return advisor.error().prefixed(QStringLiteral("AWS: "));
    auto advice = parseAwsSpotAdvisor(advisor.value().body, advisorUrl);
    if (!advice)
        return advice.error().prefixed(QStringLiteral("AWS: "));
    f.parts.awsAdvisor = std::move(advice).value();
    allNotModified = allNotModified && advisor.value().notModified;

    f.notModified = allNotModified;
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(
        QStringLiteral("AWS price list %1 (%2 regions) + spot feed + spot advisor")
            .arg(version.isEmpty() ? QStringLiteral("(cached)") : version, QString::number(n)));
    return f;
}

} // namespace gf

#include "refresh/vastpricesource.h"

#include "providers/vastai.h"

namespace gf {

Result<FetchedCatalog> VastPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("vastai");
    HttpClient http = ctx.http();
    const QString url = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/api/v0/bundles/"));
    f.origin = url;
    ctx.report(50, QStringLiteral("vast.ai: searching offers"));
    http.setProgress([&ctx](qint64 received, qint64) {
        ctx.report(100 + static_cast<int>(std::min<qint64>(700, received / 20000)),
                   QStringLiteral("vast.ai: offers, %1 MB").arg(megabytesText(received)));
    });
    HttpRequest req;
    req.url = url;
    req.method = "POST";
    req.body = vastSearchQuery();
    req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    if (!ctx.options().vastApiKey.isEmpty())
        req.headers.append(qMakePair(QByteArray("Authorization"),
                                     QByteArray("Bearer " + ctx.options().vastApiKey.toUtf8())));
    auto resp = http.fetch(req);
    ++f.requests;
    if (!resp)
        return resp.error().prefixed(QStringLiteral("vast.ai: "));
    f.bytes += resp.value().bytes;
    f.origin = responseOrigin(resp.value(), url);
    auto parsed = parseVastOffers(resp.value().body, url);
    if (!parsed)
        return parsed.error().prefixed(QStringLiteral("vast.ai: "));
    f.parts.complete = std::move(parsed).value();
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("vast.ai offer search"));
    return f;
}

} // namespace gf

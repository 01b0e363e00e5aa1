#include "refresh/ocipricesource.h"

#include "providers/ocipricelist.h"

namespace gf {

Result<FetchedCatalog> OciPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = provider();
    HttpClient http = ctx.http();
    QByteArray bodies[2];
    QString urls[2];
    const QString files[2] = {QStringLiteral("shapes"), QStringLiteral("products")};
    for (int i = 0; i < 2; ++i) {
        urls[i] = ctx.endpoint(defaultBaseUrl() + dataPath(files[i]));
        ctx.report(100 + 350 * i, QStringLiteral("Oracle Cloud: price list %1.json").arg(files[i]));
        auto doc = ctx.document(http, provider(), urls[i], f);
        if (!doc)
            return doc.error().prefixed(QStringLiteral("Oracle Cloud: "));
        bodies[i] = doc.value().body;
        if (i == 0)
            f.origin = doc.value().effectiveUrl;
        f.notModified = (i == 0 || f.notModified) && doc.value().notModified;
    }
    ctx.report(800, QStringLiteral("Oracle Cloud: reading the price list"));
    auto parsed = parseOciPriceList(bodies[0], bodies[1], urls[0], urls[1]);
    if (!parsed)
        return parsed.error().prefixed(QStringLiteral("Oracle Cloud: "));
    if (parsed.value().data.offers.isEmpty())
        return makeError(QStringLiteral("Oracle Cloud: %1 lists no active GPU shape").arg(urls[0]));
    f.parts.complete = std::move(parsed).value().data;
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("Oracle Cloud price list (shapes.json + products.json)"));
    f.note = QStringLiteral("Oracle Cloud: preemptible prices are derived (%1 % of pay-as-you-go), not read "
                            "from the price list.")
                 .arg(kOciPreemptibleShare * 100);
    return f;
}

} // namespace gf

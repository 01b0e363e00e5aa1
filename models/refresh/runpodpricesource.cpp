#include "refresh/runpodpricesource.h"

#include "providers/runpodgraphql.h"

namespace gf {

Result<FetchedCatalog> RunpodPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = provider();
    HttpClient http = ctx.http();
    const QString url = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/graphql"));
    ctx.report(100, QStringLiteral("RunPod: GPU types and prices (GraphQL)"));
    HttpRequest req;
    req.url = url;
    req.method = "POST";
    req.body = runpodGpuTypesQuery();
    req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    auto resp = http.fetch(req);
    ++f.requests;
    if (!resp)
        return resp.error().prefixed(QStringLiteral("RunPod: "));
    f.bytes += resp.value().bytes;
    f.origin = responseOrigin(resp.value(), url);
    ctx.report(800, QStringLiteral("RunPod: reading %1 MB").arg(megabytesText(resp.value().body.size())));
    auto parsed = parseRunpodGpuTypes(resp.value().body, url);
    if (!parsed)
        return parsed.error().prefixed(QStringLiteral("RunPod: "));
    RunpodAnswer answer = std::move(parsed).value();
    if (answer.data.offers.isEmpty())
        return makeError(
            QStringLiteral("RunPod: %1 lists %2 GPU types but no price for any of them%3")
                .arg(url, QString::number(answer.gpuTypes),
                     answer.data.warnings.isEmpty()
                         ? QString()
                         : QStringLiteral(" (") + answer.data.warnings.join(QStringLiteral("; ")) + u')'));
    f.parts.complete = std::move(answer.data);
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("RunPod GraphQL API gpuTypes"));
    return f;
}

} // namespace gf

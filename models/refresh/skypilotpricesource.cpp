#include "refresh/skypilotpricesource.h"

#include "domain/provider.h"
#include "providers/skypilotcatalog.h"

namespace gf {

QString SkypilotPriceSource::provider() const
{
    return m_provider.id;
}

QString SkypilotPriceSource::catalogPath(const QString &schema, const QString &cloud)
{
    return QStringLiteral("/skypilot-org/skypilot-catalog/master/catalogs/%1/%2/vms.csv").arg(schema, cloud);
}

Result<FetchedCatalog> SkypilotPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = m_provider.id;
    const QString name = m_provider.displayName;
    HttpClient http = ctx.http();
    QStringList missing;
    const QStringList schemas = schemaVersions();
    for (qsizetype i = 0; i < schemas.size(); ++i) {
        const QString url =
            ctx.endpoint(defaultBaseUrl() + catalogPath(schemas.at(i), m_provider.skypilotCatalog));
        ctx.report(100 + 200 * static_cast<int>(i),
                   QStringLiteral("%1: SkyPilot catalog %2").arg(name, schemas.at(i)));
        HttpRequest req;
        req.url = url;
        req.expectJson = false;
        auto resp = http.fetch(req);
        ++f.requests;
        if (!resp) {
            // A cloud that has no folder in a newer schema answers 404 there: try the next older one.
            if (resp.error().message.contains(QStringLiteral("HTTP 404")) && i + 1 < schemas.size()) {
                missing.append(schemas.at(i));
                continue;
            }
            return resp.error().prefixed(name + QStringLiteral(": "));
        }
        const QByteArray body = resp.value().body;
        f.bytes += resp.value().bytes;
        ctx.report(800, QStringLiteral("%1: reading %2 MB").arg(name, megabytesText(body.size())));
        auto parsed = parseSkypilotCsv(QString::fromUtf8(body), m_provider.id, ctx.tables(), url);
        if (!parsed)
            return parsed.error().prefixed(name + QStringLiteral(": "));
        if (parsed.value().offers.isEmpty())
            return makeError(QStringLiteral("%1: %2 has no GPU row with an on-demand price%3")
                                 .arg(name, url,
                                      parsed.value().warnings.isEmpty()
                                          ? QString()
                                          : QStringLiteral(" (") +
                                                parsed.value().warnings.join(QStringLiteral("; ")) + u')'));
        f.origin = url;
        f.parts.complete = std::move(parsed).value();
        f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
        f.parts.descriptions.append(
            QStringLiteral("SkyPilot catalog %1 %2/vms.csv").arg(schemas.at(i), m_provider.skypilotCatalog));
        if (!missing.isEmpty())
            f.note = QStringLiteral("%1: SkyPilot's catalog has no %2 file for it; schema %3 was read.")
                         .arg(name, missing.join(QStringLiteral(", ")), schemas.at(i));
        f.rawPayload = body;
        return f;
    }
    return makeError(QStringLiteral("%1: no SkyPilot catalog file found").arg(name));
}

} // namespace gf

#include "refresh/skypilotpricesource.h"

#include "domain/provider.h"
#include "providers/skypilotcatalog.h"

#include <QBuffer>
#include <QCryptographicHash>

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
        f.bytes += resp.value().bytes;
        f.origin = url;
        if (!missing.isEmpty())
            f.note = QStringLiteral("%1: SkyPilot's catalog has no %2 file for it; schema %3 was read.")
                         .arg(name, missing.join(QStringLiteral(", ")), schemas.at(i));
        // The snapshot's checksum is the file's, known before the import starts: the same file again is
        // "unchanged" without a row written.
        f.payloadSha256 = QCryptographicHash::hash(resp.value().body, QCryptographicHash::Sha256);
        // The rows stream from the downloaded file into the import: the file is held, its offers are not.
        f.streamed = [body = std::move(resp.value().body), provider = m_provider.id, name, url,
                      description = QStringLiteral("SkyPilot catalog %1 %2/vms.csv")
                                        .arg(schemas.at(i), m_provider.skypilotCatalog),
                      tables = &ctx.tables(), context = &ctx](OfferSink &next, QByteArray *sha256,
                                                              FetchedCatalog &self) -> Result<SnapshotData> {
            context->report(800, QStringLiteral("%1: reading %2 MB").arg(name, megabytesText(body.size())));
            CatalogHeadSink sink(next, description, QDateTime::currentDateTimeUtc().date());
            QBuffer buffer;
            buffer.setData(body);
            buffer.open(QIODevice::ReadOnly);
            InputLimits limits;
            limits.maxFileBytes = 0; // downloaded already, within the client's limit
            auto parsed = parseSkypilotCsv(buffer, provider, *tables, url, limits, sink);
            if (!parsed)
                return parsed.error().prefixed(name + QStringLiteral(": "));
            SnapshotData head = std::move(parsed).value();
            if (sink.offers() == 0)
                return makeError(
                    QStringLiteral("%1: %2 has no GPU row with an on-demand price%3")
                        .arg(name, url,
                             head.warnings.isEmpty()
                                 ? QString()
                                 : QStringLiteral(" (") + head.warnings.join(QStringLiteral("; ")) + u')'));
            head.description = description;
            head.dataDate = sink.dataDate();
            if (sha256)
                *sha256 = self.payloadSha256;
            return head;
        };
        return f;
    }
    return makeError(QStringLiteral("%1: no SkyPilot catalog file found").arg(name));
}

} // namespace gf

#include "refresh/paperspacepricesource.h"

#include "providers/skypilotcatalog.h"
#include "providers/snapshotfile.h"
#include "util/resourcefiles.h"

namespace gf {

QDate PaperspacePriceSource::tableDate()
{
    auto parsed = parseSnapshotCsv(readResourceText(QStringLiteral("catalog/paperspace.csv")),
                                   QStringLiteral("bundled:paperspace.csv"));
    return parsed ? parsed.value().dataDate : QDate();
}

Result<FetchedCatalog> PaperspacePriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("paperspace");
    const QDate date = tableDate();
    const qint64 age = date.isValid() ? date.daysTo(QDate::currentDate()) : -1;
    f.note = QStringLiteral("Paperspace has no public price API: the source is a curated table (the one "
                            "shipped with GPU Frontier is dated %1, %2 days old).")
                 .arg(date.toString(Qt::ISODate), QString::number(age));
    f.noteCode = QStringLiteral("no-public-api");
    if (ctx.options().baseUrl.isEmpty()) {
        const QByteArray payload = readResource(QStringLiteral("catalog/paperspace.csv"));
        auto parsed = parseSnapshotCsv(QString::fromUtf8(payload), QStringLiteral("bundled:paperspace.csv"));
        if (!parsed)
            return parsed.error();
        f.parts.complete = std::move(parsed).value();
        f.kind = SourceKind::Bundled;
        f.origin = QStringLiteral("bundled:paperspace.csv");
        f.rawPayload = payload;
        f.recordCheck = false;
        return f;
    }
    HttpClient http = ctx.http();
    const QString url = ctx.endpoint(QStringLiteral("https://x/paperspace.csv"));
    f.origin = url;
    HttpRequest req;
    req.url = url;
    req.expectJson = false;
    auto resp = http.fetch(req);
    ++f.requests;
    if (!resp)
        return resp.error().prefixed(QStringLiteral("Paperspace: "));
    const QByteArray body = resp.value().body;
    f.bytes += resp.value().bytes;
    f.origin = responseOrigin(resp.value(), url);
    const ProviderFormat format = detectProviderFormat(body.left(64 * 1024));
    Result<SnapshotData> parsed = makeError(QString());
    if (format == ProviderFormat::GpuFrontierCsv)
        parsed = parseSnapshotCsv(QString::fromUtf8(body), url);
    else if (format == ProviderFormat::SkypilotCsv)
        parsed = parseSkypilotCsv(QString::fromUtf8(body), f.parts.provider, ctx.tables(), url);
    else
        return makeError(
            QStringLiteral("Paperspace: %1 is neither a GPU Frontier nor a SkyPilot catalog CSV").arg(url));
    if (!parsed)
        return parsed.error().prefixed(QStringLiteral("Paperspace: "));
    if (parsed.value().provider != f.parts.provider)
        return makeError(QStringLiteral("Paperspace: %1 holds %2 prices").arg(url, parsed.value().provider));
    f.parts.complete = std::move(parsed).value();
    f.rawPayload = body;
    return f;
}

} // namespace gf

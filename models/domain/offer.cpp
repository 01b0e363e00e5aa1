#include "domain/offer.h"

#include "domain/gpucatalog.h"

#include <QStringList>

#include <algorithm>

namespace gf {

QString sourceKindName(SourceKind kind)
{
    switch (kind) {
    case SourceKind::Bundled:
        return QStringLiteral("bundled");
    case SourceKind::Live:
        return QStringLiteral("live");
    case SourceKind::File:
        return QStringLiteral("file");
    }
    return {};
}

std::optional<SourceKind> sourceKindFromName(const QString &name)
{
    if (name == u"bundled")
        return SourceKind::Bundled;
    if (name == u"live")
        return SourceKind::Live;
    if (name == u"file")
        return SourceKind::File;
    return std::nullopt;
}

qint64 Snapshot::ageDays(const QDateTime &now) const
{
    if (dataDate.isValid())
        return dataDate.daysTo(now.date());
    return fetchedAt.daysTo(now);
}

QString locationText(const QString &region, const QString &zone)
{
    if (zone.isEmpty() || zone == region)
        return region;
    return region + QStringLiteral(" (") + zone + u')';
}

QString locationText(const Offer &offer)
{
    return locationText(offer.region, offer.zone);
}

const GpuModel *gpuModelOf(const QString &gpuId)
{
    return gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(gpuId);
}

QString gpuModelName(const Offer &o)
{
    if (const GpuModel *m = gpuModelOf(o.gpuId))
        return m->name;
    return o.gpuRawName + kUnrecognisedGpuSuffix;
}

QString priceDateText(const Offer &o)
{
    if (o.dataDate.isValid())
        return o.dataDate.toString(Qt::ISODate);
    if (o.fetchedAt.isValid())
        return o.fetchedAt.toUTC().date().toString(Qt::ISODate);
    return {};
}

qint64 priceAgeDays(const Offer &o, const QDateTime &now)
{
    if (o.dataDate.isValid())
        return std::max<qint64>(0, o.dataDate.daysTo(now.date()));
    if (o.fetchedAt.isValid())
        return o.fetchedAt.daysTo(now);
    return 0;
}

} // namespace gf

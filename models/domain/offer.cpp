#include "domain/offer.h"

#include <QStringList>

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

QString locationText(const Offer &offer)
{
    if (offer.zone.isEmpty() || offer.zone == offer.region)
        return offer.region;
    return offer.region + QStringLiteral(" (") + offer.zone + u')';
}

} // namespace gf

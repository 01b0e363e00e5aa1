#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QList>
#include <QString>

namespace gf {

/// An offer as one word for the command line and for plans: "provider/instance_type/region[/zone][:spot]",
/// e.g. "aws/p4d.24xlarge/us-east-1", "gcp/a2-highgpu-1g/us-central1/us-central1-a:spot",
/// "vastai/1x-H200-32-65536/France%2C FR%2C EU". Inside a part, '%', '/', ':' and ',' are written %25, %2F,
/// %3A and %2C (',' because the CLI splits repeated values at commas), so every catalog string has exactly
/// one ID; a raw ',' still reads as itself. ":spot" asks for the spot price, ":on-demand" (or nothing)
/// for on-demand.
struct OfferId
{
    QString provider;
    QString instanceType;
    QString region;
    QString zone; ///< empty: any zone of the region
    bool spot = false;
};

/// The ID of an offer at a price mode (the zone is included when the offer has one).
QString offerIdText(const Offer &offer, bool spot);
/// The offer's key as measurements store it: "provider/instance_type/region" (no zone, no price mode).
QString offerKey(const Offer &offer);
/// Parses an ID; the error names the part that is missing.
Result<OfferId> parseOfferId(const QString &text);
/// The IDs in the values of a repeatable option (`--offer A,B --offer C`): a comma separates two IDs
/// only where the next one starts, with a known provider and '/' ("aws/..."), so that an ID whose
/// region or instance type holds commas ("vastai/1x-H200-32-65536/Taiwan, TW, AS") is kept whole, as
/// the app prints it. Blanks around a separating comma are dropped; an ID itself is never trimmed.
QStringList splitOfferIds(const QStringList &values);
/// Indexes of the offers an ID names: provider (case-insensitive), instance type, region and, when the
/// ID has one, zone must be equal. Several when the ID leaves the zone open and the offer has zones.
QList<qsizetype> matchOffers(const QList<Offer> &offers, const OfferId &id);

} // namespace gf

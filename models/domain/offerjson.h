#pragma once

#include "domain/offer.h"

#include <QJsonObject>

namespace gf {

/// The documented, stable JSON shape of one offer (README: "Offer JSON").
/// Prices in USD per hour for the whole instance; memory in GB; network in Gbps; missing = null.
QJsonObject offerToJson(const Offer &offer);
QJsonObject snapshotToJson(const Snapshot &snapshot, const QDateTime &now);

} // namespace gf

#pragma once

#include "domain/offer.h"

#include <QJsonObject>
#include <QJsonValue>

namespace gf {

class JsonWriter;

/// The documented, stable JSON shape of one offer (README: "Offer JSON").
/// Prices in USD per hour for the whole instance; memory in GB; network in Gbps; missing = null.
/// Written straight to a streamed document (the only definition of the shape; keys in QJsonObject's order).
void writeOfferJson(JsonWriter &writer, const Offer &offer);
QJsonObject snapshotToJson(const Snapshot &snapshot, const QDateTime &now);

/// The conventions of every JSON output: a missing number or an empty text is null.
QJsonValue jsonNumberOrNull(const std::optional<double> &value);
QJsonValue jsonStringOrNull(const QString &text);

} // namespace gf

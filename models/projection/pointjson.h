#pragma once

#include "domain/offer.h"
#include "projection/offerprojection.h"

#include <QDateTime>
#include <QJsonObject>

namespace gf {

class JsonWriter;

/// Version of the projected-point JSON shape; every point carries it as "schema_version". It changes
/// when a key is added, removed or changes meaning.
/// 2: expected_interruptions and setup_h added.
/// 3: projection_tier, probe_calibrated and the uncertainty range (samples_per_s_low/high, total_h_low/high,
/// cost_usd_low/high) added (projection model v2).
/// 4: price_usd_per_gpu_h added (the point's price per GPU and hour: price_usd_per_h / (gpu_count x nodes)).
inline constexpr int kPointJsonSchemaVersion = 4;

/// The one JSON shape of a projected point, used by `gpufrontier-cli frontier --format json` and the
/// JSON report (README "Projected point JSON", models/report/REPORT.md, resources/report.schema.json
/// "$defs/point"). Keys: schema_version, provider, instance_type, region, zone, gpu, gpu_name,
/// gpu_provider_name, gpu_count, gpu_mem_gb, vcpus, nodes, price_mode, spot_label, price_usd_per_h,
/// price_usd_per_gpu_h,
/// samples_per_s, train_h, interruption_h, expected_interruptions, setup_h, total_h, cost_usd,
/// samples_per_usd, projected, on_frontier, feasible, recommended, flags, price_date, price_age_days (at
/// `now`), source, projection_tier, probe_calibrated, samples_per_s_low, samples_per_s_high, total_h_low,
/// total_h_high, cost_usd_low, cost_usd_high. Units in the names (h, usd, usd_per_h, gb); what is unknown
/// is null (times and tier when not projected, cost when not priced). The ranges are the tier's
/// 10th-90th percentile of the validation error (PROJECTION.md section 3.4).
/// The point written straight to a streamed document (the only definition of the shape; keys in
/// QJsonObject's order).
void writeProjectedPoint(JsonWriter &writer, const Offer &offer, const ProjectedOffer &point,
                         bool recommended, const QDateTime &now);
/// The same point as a QJsonObject (for the few points a report names on their own).
QJsonObject projectedPointToJson(const Offer &offer, const ProjectedOffer &point, bool recommended,
                                 const QDateTime &now);

} // namespace gf

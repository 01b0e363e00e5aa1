#pragma once

#include "domain/offer.h"
#include "projection/offerprojection.h"

#include <QDateTime>
#include <QJsonObject>

namespace gf {

/// Version of the projected-point JSON shape; every point carries it as "schema_version". It changes
/// when a key is added, removed or changes meaning.
inline constexpr int kPointJsonSchemaVersion = 2;

/// The one JSON shape of a projected point, used by `gpufrontier-cli frontier --format json` and the
/// JSON report (README "Projected point JSON", models/report/REPORT.md, resources/report.schema.json
/// "$defs/point"). Keys: schema_version, provider, instance_type, region, zone, gpu, gpu_name,
/// gpu_provider_name, gpu_count, gpu_mem_gb, vcpus, nodes, price_mode, spot_label, price_usd_per_h,
/// samples_per_s, train_h, interruption_h, expected_interruptions, setup_h, total_h, cost_usd,
/// samples_per_usd, projected, on_frontier, feasible, recommended, flags, price_date, price_age_days (at
/// `now`), source. Units in the names (h, usd, usd_per_h, gb); what is unknown is null (times when not
/// projected, cost when not priced). Version 2 added expected_interruptions and setup_h (issue 13).
QJsonObject projectedPointToJson(const Offer &offer, const ProjectedOffer &point, bool recommended,
                                 const QDateTime &now);

} // namespace gf

#pragma once

#include "domain/currency.h"
#include "domain/gpuspecs.h"
#include "domain/offer.h"
#include "domain/workload.h"
#include "projection/offerprojection.h"
#include "projection/projection.h"

#include <QStringList>

namespace gf {

/// Sentences that trace every number of one projected point to its source, for tooltips and reports:
/// the price (its source and date), the speed (GPU spec row and its source, efficiencies, scaling), the
/// input-pipeline cap, setup and data staging, spot interruptions (rate, the table row and its basis,
/// expected count and overhead), egress, and each flag with the offer's own numbers. The price and the cost
/// are in `currency` (egress prices are entered in USD and stay so).
struct PointExplanation
{
    QStringList facts; ///< price, speed, input pipeline, setup, time, spot risk, egress
    QStringList flags; ///< "name: sentence" per flag of the point
    QStringList all() const { return facts + flags; }
};
PointExplanation explainPoint(const Offer &offer, const ProjectedOffer &point, const Workload &workload,
                              const ProjectionOptions &options, const Calibration &calibration,
                              const GpuSpecTable &specs = GpuSpecTable::builtin(),
                              const Currency &currency = usdCurrency());

/// The spot interruption sentence alone (empty for an on-demand point).
QString explainSpot(const Offer &offer, const ProjectedOffer &point, const ProjectionOptions &options);

} // namespace gf

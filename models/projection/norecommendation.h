#pragma once

#include "domain/offer.h"
#include "projection/offerprojection.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace gf {

/// Why a projection recommends nothing, as facts (no GUI or CLI words: each front end adds its own advice).
struct NoRecommendation
{
    QString facts; ///< "no offer matches the filters", "Azure prices from 2024-07, 28 months old", ...
    bool suspectExcluded = false; ///< points were left out for suspect prices (including them could help)
    QStringList staleProviders;   ///< provider ids whose prices are too old, in provider-table order
};

/// Empty facts when a point is recommended. Otherwise the reasons, most decisive first: no offers; nothing
/// projectable; every projectable point excluded for a suspect price (per provider: the age of its prices);
/// the deadline and budget that were set (never a limit that was not set).
NoRecommendation explainNoRecommendation(const QList<Offer> &offers, const QList<ProjectedOffer> &points,
                                         const ProjectionOptions &options);
/// The same over points and offers held in another form (projection/tableprojection): `pointAt(i)` for i
/// in [0, pointCount), `offerAt(ProjectedOffer::offerIndex)`.
NoRecommendation explainNoRecommendation(qsizetype offerCount, qsizetype pointCount,
                                         const std::function<ProjectedOffer(qsizetype)> &pointAt,
                                         const std::function<Offer(qint32)> &offerAt,
                                         const ProjectionOptions &options);

} // namespace gf

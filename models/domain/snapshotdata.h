#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

class GpuCatalog;
class ProviderTables;

/// A provider's catalog as parsed from a file, ready to import (not yet in the database).
struct SnapshotData
{
    QString provider;
    QDate dataDate;      ///< date of the prices ("# snapshot_date:")
    QString description; ///< "# source:" line
    QList<Offer> offers;
    QStringList warnings; ///< non-fatal findings (spot above on-demand, ...)
};

/// Plausibility limits applied before anything is written.
struct ValidationLimits
{
    double maxUsdPerHour = 500.0; ///< the largest 8-GPU instances cost ~100 USD/h
    double maxGpuCount = 64.0;
    int minRows = 1;
    /// The import date (UTC) that price dates are checked against: invalid = today. A snapshot date or a
    /// row's price date later than the day after it (a provider's local date may run a day ahead of UTC)
    /// is refused: prices dated in the future would make every other provider's look old.
    QDate importDate;
};

/// Resolves each offer's GPU variant (resolveOfferGpu: provider table first, else the name with the
/// memory tie-break; it sets gpuId and, from the table, gpuCount and interconnect, and memory when the
/// offer states none), sets the per-offer flags (unrecognised, memory differs, spot above on-demand,
/// spot at the floor, stale row; a parser's gpu-below-spot is kept) and checks types, units and ranges.
/// Every row must pass; the error names the origin, the line/row and what was wrong. `tables` nullptr:
/// the built-in provider tables.
Status validateSnapshot(SnapshotData &data, const GpuCatalog &gpus, const QString &origin,
                        const ValidationLimits &limits = {}, const ProviderTables *tables = nullptr);

} // namespace gf

#pragma once

#include "domain/offer.h"

#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// One offer in both snapshots whose on-demand or spot price changed (or appeared, or went).
struct PriceChange
{
    Offer before;
    Offer after;
    /// after / before - 1 of the on-demand price (nullopt unless both have one), and of the spot price.
    std::optional<double> onDemandChange() const;
    std::optional<double> spotChange() const;
};

/// What changed in one provider's catalog between two snapshots: offers that appeared, offers that went,
/// and offers whose price changed. An offer is the same in both when its instance type, region, zone, GPU
/// name and GPU count are (the k-th of equal offers matches the k-th).
struct SnapshotChanges
{
    QString provider;
    Snapshot previous; ///< id 0 when the provider has a single snapshot (nothing to compare)
    Snapshot current;
    /// The newest refresh found the provider's prices unchanged (no new snapshot): when it ran.
    QDateTime unchangedSince;
    QList<Offer> added;
    QList<Offer> removed;
    QList<PriceChange> changed;
    qsizetype unchangedCount = 0;

    bool comparable() const { return previous.id != 0; }
    bool isEmpty() const { return added.isEmpty() && removed.isEmpty() && changed.isEmpty(); }
    qsizetype cheaper() const; ///< on-demand (else spot) price went down
    qsizetype dearer() const;  ///< on-demand (else spot) price went up
    /// The median relative on-demand (else spot) change of the cheaper and of the dearer offers.
    std::optional<double> medianCheaper() const;
    std::optional<double> medianDearer() const;
};

/// The changes from `before` to `after` (two snapshots of one provider), changed offers sorted by the size
/// of their relative change (largest first).
SnapshotChanges diffOffers(const QList<Offer> &before, const QList<Offer> &after);

/// "12 new offers, 3 gone, 45 cheaper (median −8.0 %), 10 dearer (median +3.1 %), 900 unchanged", or
/// "no change" / "first snapshot, nothing to compare".
QString changesSummaryText(const SnapshotChanges &changes);

} // namespace gf

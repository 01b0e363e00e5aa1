// CatalogStore: the offers of one snapshot, and what changed between each provider's two newest good
// snapshots ("what changed since the last refresh").
#include "store/catalogstore.h"

#include "domain/provider.h"

#include <algorithm>

namespace gf {

Result<QList<Offer>> CatalogStore::snapshotOffers(qint64 snapshotId) const
{
    return queryOffers(QStringLiteral("o.snapshot_id = ? ORDER BY o.id"), {snapshotId});
}

Result<QList<SnapshotChanges>> CatalogStore::latestChanges(const QString &provider) const
{
    auto all = snapshots(provider);
    if (!all)
        return all.error();
    // Per provider, newest first (snapshots() orders so): the two newest good ones, and whether the newest
    // check of all found the prices unchanged.
    QStringList providers;
    QHash<QString, QList<Snapshot>> good;
    QHash<QString, QDateTime> unchangedSince;
    for (const Snapshot &s : all.value()) {
        if (!providers.contains(s.provider))
            providers.append(s.provider);
        if (s.status == u"unchanged") {
            if (good.value(s.provider).isEmpty() && !unchangedSince.contains(s.provider))
                unchangedSince.insert(s.provider, s.fetchedAt);
            continue;
        }
        if (s.status == u"ok" && good[s.provider].size() < 2)
            good[s.provider].append(s);
    }
    const QStringList order = knownProviders();
    std::stable_sort(providers.begin(), providers.end(), [&order](const QString &a, const QString &b) {
        const qsizetype ia = order.indexOf(a), ib = order.indexOf(b);
        return (ia < 0 ? order.size() : ia) < (ib < 0 ? order.size() : ib);
    });
    QList<SnapshotChanges> out;
    for (const QString &p : std::as_const(providers)) {
        const QList<Snapshot> snaps = good.value(p);
        if (snaps.isEmpty())
            continue;
        auto current = snapshotOffers(snaps.at(0).id);
        if (!current)
            return current.error();
        SnapshotChanges c;
        if (snaps.size() > 1) {
            auto previous = snapshotOffers(snaps.at(1).id);
            if (!previous)
                return previous.error();
            c = diffOffers(previous.value(), current.value());
            c.previous = snaps.at(1);
        } else {
            c.unchangedCount = current.value().size();
        }
        c.provider = p;
        c.current = snaps.at(0);
        c.unchangedSince = unchangedSince.value(p);
        out.append(std::move(c));
    }
    return out;
}

} // namespace gf

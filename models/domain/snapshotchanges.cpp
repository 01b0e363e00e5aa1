#include "domain/snapshotchanges.h"

#include <QHash>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

QString offerKey(const Offer &o)
{
    return o.instanceType + QChar(0x1f) + o.region + QChar(0x1f) + o.zone + QChar(0x1f) + o.gpuRawName +
           QChar(0x1f) + QString::number(o.gpuCount, 'g', 10);
}

std::optional<double> relative(const std::optional<double> &before, const std::optional<double> &after)
{
    if (!before || !after || *before <= 0)
        return std::nullopt;
    return *after / *before - 1.0;
}

/// The change that sorts and counts a changed offer: on-demand, else spot.
std::optional<double> leadingChange(const PriceChange &c)
{
    if (const auto d = c.onDemandChange(); d && *d != 0)
        return d;
    return c.spotChange();
}

bool samePrice(const std::optional<double> &a, const std::optional<double> &b)
{
    if (a.has_value() != b.has_value())
        return false;
    return !a || std::abs(*a - *b) <= 1e-9 * std::max(1.0, std::abs(*a));
}

std::optional<double> median(QList<double> v)
{
    if (v.isEmpty())
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const qsizetype n = v.size();
    return n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2.0;
}

QString percent(double change)
{
    return QStringLiteral("%1%2 %").arg(change < 0 ? QStringLiteral("−") : QStringLiteral("+"),
                                        QString::number(std::abs(change) * 100.0, 'f', 1));
}

} // namespace

std::optional<double> PriceChange::onDemandChange() const
{
    return relative(before.onDemandUsdH, after.onDemandUsdH);
}

std::optional<double> PriceChange::spotChange() const
{
    return relative(before.spotUsdH, after.spotUsdH);
}

qsizetype SnapshotChanges::cheaper() const
{
    return std::count_if(changed.cbegin(), changed.cend(), [](const PriceChange &c) {
        const auto d = leadingChange(c);
        return d && *d < 0;
    });
}

qsizetype SnapshotChanges::dearer() const
{
    return std::count_if(changed.cbegin(), changed.cend(), [](const PriceChange &c) {
        const auto d = leadingChange(c);
        return d && *d > 0;
    });
}

std::optional<double> SnapshotChanges::medianCheaper() const
{
    QList<double> v;
    for (const PriceChange &c : changed)
        if (const auto d = leadingChange(c); d && *d < 0)
            v.append(*d);
    return median(v);
}

std::optional<double> SnapshotChanges::medianDearer() const
{
    QList<double> v;
    for (const PriceChange &c : changed)
        if (const auto d = leadingChange(c); d && *d > 0)
            v.append(*d);
    return median(v);
}

SnapshotChanges diffOffers(const QList<Offer> &before, const QList<Offer> &after)
{
    SnapshotChanges out;
    QHash<QString, QList<qsizetype>> previous; // key -> indexes into before, in order
    for (qsizetype i = 0; i < before.size(); ++i)
        previous[offerKey(before.at(i))].append(i);
    QList<bool> matched(before.size(), false);
    for (const Offer &o : after) {
        auto it = previous.find(offerKey(o));
        if (it == previous.end() || it->isEmpty()) {
            out.added.append(o);
            continue;
        }
        const qsizetype i = it->takeFirst();
        matched[i] = true;
        const Offer &b = before.at(i);
        if (samePrice(b.onDemandUsdH, o.onDemandUsdH) && samePrice(b.spotUsdH, o.spotUsdH))
            ++out.unchangedCount;
        else
            out.changed.append({b, o});
    }
    for (qsizetype i = 0; i < before.size(); ++i)
        if (!matched.at(i))
            out.removed.append(before.at(i));
    std::stable_sort(out.changed.begin(), out.changed.end(), [](const PriceChange &a, const PriceChange &b) {
        const auto da = leadingChange(a), db = leadingChange(b);
        return std::abs(da.value_or(0)) > std::abs(db.value_or(0));
    });
    return out;
}

QString changesSummaryText(const SnapshotChanges &c)
{
    if (!c.comparable())
        return QStringLiteral("first snapshot, nothing to compare");
    if (c.isEmpty())
        return QStringLiteral("no change (%1 offers)").arg(c.unchangedCount);
    QStringList parts;
    if (!c.added.isEmpty())
        parts.append(QStringLiteral("%1 new").arg(c.added.size()));
    if (!c.removed.isEmpty())
        parts.append(QStringLiteral("%1 gone").arg(c.removed.size()));
    if (const qsizetype n = c.cheaper())
        parts.append(
            QStringLiteral("%1 cheaper (median %2)").arg(n).arg(percent(c.medianCheaper().value_or(0))));
    if (const qsizetype n = c.dearer())
        parts.append(
            QStringLiteral("%1 dearer (median %2)").arg(n).arg(percent(c.medianDearer().value_or(0))));
    if (const qsizetype other = c.changed.size() - c.cheaper() - c.dearer())
        parts.append(QStringLiteral("%1 with a price added or dropped").arg(other));
    parts.append(QStringLiteral("%1 unchanged").arg(c.unchangedCount));
    return parts.join(QStringLiteral(", "));
}

} // namespace gf

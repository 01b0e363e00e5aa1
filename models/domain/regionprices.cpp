#include "domain/regionprices.h"

#include <QHash>

#include <algorithm>

namespace gf {

std::optional<double> RegionPrice::bestUsdPerGpuHour() const
{
    if (onDemand.usdPerGpuHour && spot.usdPerGpuHour)
        return std::min(*onDemand.usdPerGpuHour, *spot.usdPerGpuHour);
    return onDemand.usdPerGpuHour ? onDemand.usdPerGpuHour : spot.usdPerGpuHour;
}

bool offerHasGpu(const Offer &offer, const QString &gpu)
{
    if (gpu.isEmpty())
        return false;
    return offer.gpuId.isEmpty() ? offer.gpuRawName == gpu : offer.gpuId == gpu;
}

namespace {
void consider(RegionPrice::Best &best, const Offer &o, std::optional<double> price)
{
    if (!price || !(*price > 0))
        return;
    const double perGpu = *price / o.gpuCount;
    if (best.usdPerGpuHour && *best.usdPerGpuHour <= perGpu)
        return;
    best.usdPerGpuHour = perGpu;
    best.usdPerHour = price;
    best.instanceType = o.instanceType;
    best.zone = o.zone;
    best.gpuCount = o.gpuCount;
}

bool before(const std::optional<double> &a, const std::optional<double> &b)
{
    if (a && b)
        return *a < *b;
    return a && !b;
}
} // namespace

QList<RegionPrice> cheapestByRegion(const QList<Offer> &offers, const QString &gpu)
{
    QList<RegionPrice> out;
    QHash<QString, qsizetype> rowOf;
    for (const Offer &o : offers) {
        if (!offerHasGpu(o, gpu) || !(o.gpuCount > 0))
            continue;
        const QString key = o.provider + u'\x1f' + o.region;
        auto it = rowOf.constFind(key);
        if (it == rowOf.constEnd()) {
            it = rowOf.insert(key, out.size());
            RegionPrice r;
            r.provider = o.provider;
            r.region = o.region;
            out.append(r);
        }
        RegionPrice &r = out[it.value()];
        ++r.offers;
        consider(r.onDemand, o, o.onDemandUsdH);
        consider(r.spot, o, o.spotUsdH);
    }
    std::stable_sort(out.begin(), out.end(), [](const RegionPrice &a, const RegionPrice &b) {
        if (before(a.onDemand.usdPerGpuHour, b.onDemand.usdPerGpuHour))
            return true;
        if (before(b.onDemand.usdPerGpuHour, a.onDemand.usdPerGpuHour))
            return false;
        if (before(a.spot.usdPerGpuHour, b.spot.usdPerGpuHour))
            return true;
        if (before(b.spot.usdPerGpuHour, a.spot.usdPerGpuHour))
            return false;
        if (a.provider != b.provider)
            return a.provider < b.provider;
        return a.region < b.region;
    });
    return out;
}

} // namespace gf

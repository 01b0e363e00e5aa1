#include "domain/offerfilter.h"

#include "domain/gpucatalog.h"

#include <algorithm>
#include <vector>

namespace gf {

std::optional<double> effectivePrice(const Offer &o, bool spot)
{
    return spot ? o.spotUsdH : o.onDemandUsdH;
}

bool OfferFilter::isEmpty() const
{
    return providers.isEmpty() && gpu.isEmpty() && !minGpus && !minGpuMemGb && !maxPriceUsdH && !spotOnly &&
           region.isEmpty() && text.isEmpty();
}

bool OfferFilter::accepts(const Offer &o) const
{
    if (!providers.isEmpty() && !providers.contains(o.provider))
        return false;
    if (!gpu.isEmpty()) {
        const QString needle = GpuCatalog::normalise(gpu);
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        const bool hit = GpuCatalog::normalise(o.gpuId).contains(needle) ||
                         GpuCatalog::normalise(o.gpuRawName).contains(needle) ||
                         (m && GpuCatalog::normalise(m->name).contains(needle));
        if (!hit)
            return false;
    }
    if (minGpus && o.gpuCount < *minGpus)
        return false;
    if (minGpuMemGb && (!o.gpuMemGb || *o.gpuMemGb < *minGpuMemGb))
        return false;
    if (spotOnly && !o.spotUsdH)
        return false;
    if (maxPriceUsdH) {
        const auto p = effectivePrice(o, spotOnly);
        if (!p || *p > *maxPriceUsdH)
            return false;
    }
    if (!region.isEmpty() && !o.region.contains(region, Qt::CaseInsensitive) &&
        !o.zone.contains(region, Qt::CaseInsensitive))
        return false;
    if (!text.isEmpty()) {
        const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
        const QStringList hay{o.provider,   providerDisplayName(o.provider), o.instanceType, o.region, o.zone,
                              o.gpuRawName, m ? m->name : QString()};
        const QStringList words = text.split(u' ', Qt::SkipEmptyParts);
        for (const QString &w : words) {
            bool found = false;
            for (const QString &h : hay)
                found = found || h.contains(w, Qt::CaseInsensitive);
            if (!found)
                return false;
        }
    }
    return true;
}

QStringList offerSortKeyNames()
{
    return {QStringLiteral("price"),        QStringLiteral("provider"), QStringLiteral("instance"),
            QStringLiteral("region"),       QStringLiteral("gpu"),      QStringLiteral("gpus"),
            QStringLiteral("gpu-mem"),      QStringLiteral("vcpus"),    QStringLiteral("spot"),
            QStringLiteral("price-per-gpu")};
}

std::optional<OfferSortKey> offerSortKeyFromName(const QString &name)
{
    const int i = static_cast<int>(offerSortKeyNames().indexOf(name));
    if (i < 0)
        return std::nullopt;
    return static_cast<OfferSortKey>(i);
}

void sortOffers(const QList<Offer> &offers, QList<qsizetype> &order, OfferSortKey key, bool descending,
                bool spot)
{
    auto num = [&](const Offer &o) -> std::optional<double> {
        switch (key) {
        case OfferSortKey::Price:
            return effectivePrice(o, spot);
        case OfferSortKey::GpuCount:
            return o.gpuCount;
        case OfferSortKey::GpuMemory:
            return o.gpuMemGb;
        case OfferSortKey::Vcpus:
            return o.vcpus;
        case OfferSortKey::Spot:
            return o.spotUsdH;
        case OfferSortKey::PricePerGpu: {
            const auto p = effectivePrice(o, spot);
            if (!p)
                return std::nullopt;
            return *p / o.gpuCount;
        }
        default:
            return std::nullopt;
        }
    };
    auto text = [&](const Offer &o) -> QString {
        switch (key) {
        case OfferSortKey::Provider:
            return o.provider;
        case OfferSortKey::Instance:
            return o.instanceType;
        case OfferSortKey::Region:
            return o.region + u' ' + o.zone;
        case OfferSortKey::Gpu:
            return o.gpuId.isEmpty() ? o.gpuRawName : o.gpuId;
        default:
            return {};
        }
    };
    const bool numeric = key == OfferSortKey::Price || key == OfferSortKey::GpuCount ||
                         key == OfferSortKey::GpuMemory || key == OfferSortKey::Vcpus ||
                         key == OfferSortKey::Spot || key == OfferSortKey::PricePerGpu;
    // Each offer's key is computed once (not once per comparison), then the positions are sorted.
    if (numeric) {
        std::vector<std::optional<double>> keys(static_cast<std::size_t>(offers.size()));
        for (qsizetype i : std::as_const(order))
            keys[static_cast<std::size_t>(i)] = num(offers.at(i));
        std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
            const auto &x = keys[static_cast<std::size_t>(a)];
            const auto &y = keys[static_cast<std::size_t>(b)];
            if (!x || !y)
                return x.has_value() && !y.has_value(); // missing values last
            return descending ? *x > *y : *x < *y;
        });
        return;
    }
    std::vector<QString> keys(static_cast<std::size_t>(offers.size()));
    for (qsizetype i : std::as_const(order))
        keys[static_cast<std::size_t>(i)] = text(offers.at(i));
    std::stable_sort(order.begin(), order.end(), [&](qsizetype a, qsizetype b) {
        const int c = QString::compare(keys[static_cast<std::size_t>(a)], keys[static_cast<std::size_t>(b)],
                                       Qt::CaseInsensitive);
        return descending ? c > 0 : c < 0;
    });
}

} // namespace gf

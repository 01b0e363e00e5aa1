#pragma once

// An offer for projection tests, header-only (the projection tests link no test library but the fixtures).

#include "domain/offer.h"

#include <optional>

namespace gf::test {

/// `gpus` GPUs of `gpuId` (also its raw name) in "region", 8 vCPUs per GPU.
inline Offer makeOffer(const QString &provider, const QString &type, const QString &gpuId, double gpus,
                       double onDemand, std::optional<double> spot = std::nullopt)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.region = QStringLiteral("region");
    o.gpuId = gpuId;
    o.gpuRawName = gpuId;
    o.gpuCount = gpus;
    o.onDemandUsdH = onDemand;
    o.spotUsdH = spot;
    o.vcpus = 8 * gpus;
    return o;
}

} // namespace gf::test

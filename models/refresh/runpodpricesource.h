#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// RunPod's keyless GraphQL API (POST https://api.runpod.io/graphql): every GPU type's per-GPU prices in
/// Secure and Community Cloud and, per GPU count 1-8, lowestPrice (providers/runpodgraphql). RunPod's
/// default live source; SkyPilot's catalog (SkypilotPriceSource) is the alternative.
class RunpodPriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("runpod"); }
    QString defaultBaseUrl() const override { return QStringLiteral("https://api.runpod.io"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
};

} // namespace gf

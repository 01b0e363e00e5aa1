#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// Google Cloud: the Cloud Billing Catalog API (Compute Engine SKUs, paged; needs an API key).
class GcpPriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("gcp"); }
    QString defaultBaseUrl() const override { return QStringLiteral("https://cloudbilling.googleapis.com"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
};

} // namespace gf

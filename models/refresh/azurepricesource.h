#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// Azure: the Retail Prices API, paged, queried for the GPU VM sizes of the provider table.
class AzurePriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("azure"); }
    QString defaultBaseUrl() const override { return QStringLiteral("https://prices.azure.com"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
};

} // namespace gf

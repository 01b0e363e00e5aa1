#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// AWS: the public bulk price list (region index, one offer file per region), the spot price feed
/// and the Spot Advisor's interruption buckets; offer files are parsed while they stream in.
class AwsPriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("aws"); }
    QString defaultBaseUrl() const override
    {
        return QStringLiteral("https://pricing.us-east-1.amazonaws.com");
    }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
};

} // namespace gf

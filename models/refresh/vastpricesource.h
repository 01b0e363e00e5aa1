#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// vast.ai: the public offer search (one POST answering every listed machine).
class VastPriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("vastai"); }
    QString defaultBaseUrl() const override { return QStringLiteral("https://console.vast.ai"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;
};

} // namespace gf

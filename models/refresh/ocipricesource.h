#pragma once

#include "refresh/pricesource.h"

namespace gf {

/// Oracle Cloud's keyless price list: the cloud cost estimator's shapes.json and products.json
/// (https://www.oracle.com/a/ocom/docs/cloudestimator2/data/), read by providers/ocipricelist. Oracle's
/// default live source; SkyPilot's catalog (SkypilotPriceSource) is the alternative.
class OciPriceSource final : public PriceSource
{
public:
    QString provider() const override { return QStringLiteral("oci"); }
    QString defaultBaseUrl() const override { return QStringLiteral("https://www.oracle.com"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;

    /// The path of one estimator file ("shapes" -> /a/ocom/docs/cloudestimator2/data/shapes.json).
    static QString dataPath(const QString &file)
    {
        return QStringLiteral("/a/ocom/docs/cloudestimator2/data/%1.json").arg(file);
    }
};

} // namespace gf

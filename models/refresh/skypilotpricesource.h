#pragma once

#include "refresh/pricesource.h"

namespace gf {

struct ProviderInfo;

/// A cloud whose live prices are SkyPilot's hosted catalog (skypilot-org/skypilot-catalog, keyless, refreshed
/// by SkyPilot's bots every few hours): catalogs/v9/<cloud>/vms.csv, falling back to the v8 and v7 schema
/// folders when a cloud has no newer one. One class for every such cloud: a new cloud there is a row of the
/// provider table (domain/provider.cpp), not new code. The file is read by header name
/// (providers/skypilotcatalog), so column order and the extra columns of each schema do not matter.
class SkypilotPriceSource final : public PriceSource
{
public:
    explicit SkypilotPriceSource(const ProviderInfo &provider) : m_provider(provider) {}
    QString provider() const override;
    QString defaultBaseUrl() const override { return QStringLiteral("https://raw.githubusercontent.com"); }
    Result<FetchedCatalog> fetch(const SourceContext &ctx) const override;

    /// The schema folders tried, newest first.
    static QStringList schemaVersions()
    {
        return {QStringLiteral("v9"), QStringLiteral("v8"), QStringLiteral("v7")};
    }
    /// The catalog path of a cloud in one schema
    /// ("/skypilot-org/skypilot-catalog/master/catalogs/v9/lambda/vms.csv").
    static QString catalogPath(const QString &schema, const QString &cloud);

private:
    const ProviderInfo &m_provider;
};

} // namespace gf

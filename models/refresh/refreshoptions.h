#pragma once

#include "refresh/httpclient.h"
#include "util/csv.h"

#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

namespace gf {

/// Which live source a refresh reads for a provider that has two (domain/provider.h: directSource and
/// skypilotCatalog, e.g. RunPod and Oracle Cloud).
enum class SourceChoice
{
    Default,  ///< the provider's own keyless API where it has one, else its only source
    Direct,   ///< the provider's own keyless API (an error for a provider without one)
    Skypilot, ///< SkyPilot's hosted catalog (an error for a provider it does not cover)
};

/// "direct", "skypilot"; empty for Default.
QString sourceChoiceName(SourceChoice choice);
/// The choice of a name ("", "default", "direct", "skypilot"); nullopt for anything else.
std::optional<SourceChoice> sourceChoiceFromName(const QString &name);

/// How a refresh runs. Base URLs are overridable (mirrors, proxies, tests).
struct RefreshOptions
{
    /// Replaces the scheme, host and port of every endpoint of the provider; the paths stay
    /// (AWS: <base>/offers/v1.0/aws/AmazonEC2/current/region_index.json, <base>/spot.json,
    /// <base>/spot-advisor-data.json; Azure: <base>/api/retail/prices; GCP: <base>/v1/services/...;
    /// vast.ai: <base>/api/v0/bundles/; Paperspace: <base>/paperspace.csv).
    QString baseUrl;
    QString gcpApiKey;      ///< Cloud Billing Catalog API key (never printed)
    QString vastApiKey;     ///< optional bearer token for vast.ai
    QStringList awsRegions; ///< empty = every region of the index except the China partition (CNY)
    HttpOptions http;
    int minRows = 5;             ///< fewer offers means a truncated or empty answer: rejected
    int maxPages = 2000;         ///< guard against endless pagination
    int azureSizesPerQuery = 12; ///< VM sizes per Retail Prices $filter (keeps URLs short)
    /// vast.ai: pages fetched at most when answers are cut at its default limit (64 offers each, cheapest
    /// first), and the pause between them (the keyless API allows about 10 requests a minute).
    int vastMaxPages = 30;
    int vastPageDelayMs = 6500;
    bool conditional = true;                     ///< send ETag/Last-Modified validators
    SourceChoice source = SourceChoice::Default; ///< which live source (providers with two)
    InputLimits inputLimits;                     ///< bounds on an imported file and on one of its fields
};

/// Progress of a refresh: 0-1000 and a line for the user.
using RefreshProgress = std::function<void(int permille, const QString &message)>;

} // namespace gf

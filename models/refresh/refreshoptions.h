#pragma once

#include "refresh/httpclient.h"
#include "util/csv.h"

#include <QString>
#include <QStringList>

#include <functional>

namespace gf {

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
    bool conditional = true; ///< send ETag/Last-Modified validators
    InputLimits inputLimits; ///< bounds on an imported file and on one of its fields
};

/// Progress of a refresh: 0-1000 and a line for the user.
using RefreshProgress = std::function<void(int permille, const QString &message)>;

} // namespace gf

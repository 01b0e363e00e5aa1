#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// The public EC2 spot price feed (spot.js JSONP or spot.json): Linux spot price per region and
/// instance type, USD per hour.
struct AwsSpotPrices
{
    QHash<QString, double> prices; ///< key: region + '\x1f' + instance type
    int regions = 0;
    int notAvailable = 0; ///< "N/A*" cells
    int malformed = 0; ///< entries skipped: no "sizes", a size without a name or columns, a price of no type
    QString firstMalformed;
    QStringList warnings;

    static QString key(const QString &region, const QString &instanceType)
    {
        return region + u'\x1f' + instanceType;
    }
};

/// Parses spot.js (JSONP: "callback(" ... ")" or ");") or spot.json. Legacy region names of old
/// captures (us-east, apac-sin, ...) are mapped to region codes. A malformed entry (an instanceTypes
/// entry without "sizes", ...) is skipped, counted and warned about; the feed's structure (config,
/// regions) and a feed without any Linux price are errors.
Result<AwsSpotPrices> parseAwsSpotFeed(QByteArrayView data, const QString &origin);

/// The Spot Instance Advisor data: interruption-frequency bucket and savings per region and type (Linux).
struct AwsSpotAdvice
{
    QString bucket;     ///< "<5%", "5-10%", ... ">20%"
    int savingsPct = 0; ///< savings versus on-demand, %
};

struct AwsSpotAdvisor
{
    QHash<QString, AwsSpotAdvice> advice; ///< key as AwsSpotPrices::key
};

Result<AwsSpotAdvisor> parseAwsSpotAdvisor(QByteArrayView data, const QString &origin);

/// Strips a JSONP wrapper ("name(" ... ")" or ");"); returns the input when there is none.
QByteArrayView stripJsonp(QByteArrayView data);

/// Adds spot prices (label "spot") and advisor buckets to AWS offers, matching region and type.
/// Returns how many offers got a spot price.
int applyAwsSpot(QList<Offer> &offers, const AwsSpotPrices *spot, const AwsSpotAdvisor *advisor);

} // namespace gf

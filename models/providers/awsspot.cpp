#include "providers/awsspot.h"

#include "util/jsonstream.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cctype>
#include <cmath>

namespace gf {

namespace {

bool isSpaceByte(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

QString legacyRegion(const QString &r)
{
    static const QHash<QString, QString> map = {
        {QStringLiteral("us-east"), QStringLiteral("us-east-1")},
        {QStringLiteral("us-west"), QStringLiteral("us-west-1")},
        {QStringLiteral("eu-ireland"), QStringLiteral("eu-west-1")},
        {QStringLiteral("apac-sin"), QStringLiteral("ap-southeast-1")},
        {QStringLiteral("apac-syd"), QStringLiteral("ap-southeast-2")},
        {QStringLiteral("apac-tokyo"), QStringLiteral("ap-northeast-1")},
    };
    return map.value(r, r);
}

Result<QJsonObject> parseObject(QByteArrayView data, const QString &origin, const QString &what)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(data.toByteArray(), &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("%1: invalid JSON at byte %2 (%3): not a valid %4")
                             .arg(origin, QString::number(err.offset), err.errorString(), what));
    if (!doc.isObject())
        return makeError(
            QStringLiteral("%1: the document is not a JSON object: not a valid %2").arg(origin, what));
    return doc.object();
}

} // namespace

QByteArrayView stripJsonp(QByteArrayView data)
{
    qsizetype b = 0;
    qsizetype e = data.size();
    while (b < e && isSpaceByte(data[b]))
        ++b;
    while (e > b && isSpaceByte(data[e - 1]))
        --e;
    qsizetype i = b;
    while (i < e && (std::isalnum(static_cast<unsigned char>(data[i])) || data[i] == '_' || data[i] == '$' ||
                     data[i] == '.'))
        ++i;
    if (i == b || i >= e || data[i] != '(')
        return data.sliced(b, e - b);
    // A wrapper: drop "name(" and the closing ")" or ");".
    qsizetype end = e;
    if (end > i && data[end - 1] == ';')
        --end;
    while (end > i && isSpaceByte(data[end - 1]))
        --end;
    if (end <= i + 1 || data[end - 1] != ')')
        return data.sliced(b, e - b); // not a complete wrapper: let the JSON parser say what is wrong
    return data.sliced(i + 1, end - 1 - (i + 1));
}

Result<AwsSpotPrices> parseAwsSpotFeed(QByteArrayView data, const QString &origin)
{
    const QString what = QStringLiteral("AWS spot price feed (spot.js/spot.json)");
    auto root = parseObject(stripJsonp(data), origin, what);
    if (!root)
        return root.error();
    const QJsonValue config = root.value().value(QStringLiteral("config"));
    if (!config.isObject())
        return makeError(QStringLiteral("%1: no \"config\" object: not a valid %2").arg(origin, what));
    const QJsonValue regions = config.toObject().value(QStringLiteral("regions"));
    if (!regions.isArray())
        return makeError(QStringLiteral("%1: config.regions is not an array").arg(origin));
    AwsSpotPrices out;
    const QJsonArray regionList = regions.toArray();
    for (qsizetype ri = 0; ri < regionList.size(); ++ri) {
        const QJsonValue rv = regionList.at(ri);
        if (!rv.isObject())
            return makeError(
                QStringLiteral("%1: config.regions[%2] is not an object").arg(origin, QString::number(ri)));
        const QJsonObject r = rv.toObject();
        if (!r.value(QStringLiteral("region")).isString())
            return makeError(QStringLiteral("%1: config.regions[%2].region is not a string")
                                 .arg(origin, QString::number(ri)));
        const QString region = legacyRegion(r.value(QStringLiteral("region")).toString());
        const QJsonValue types = r.value(QStringLiteral("instanceTypes"));
        if (!types.isArray())
            return makeError(QStringLiteral("%1: config.regions[%2].instanceTypes is not an array")
                                 .arg(origin, QString::number(ri)));
        ++out.regions;
        for (const QJsonValue &tv : types.toArray()) {
            // One broken entry (the live feed has instanceTypes entries without "sizes") is skipped and
            // counted, never fatal for the whole feed.
            const QJsonValue sizes = tv.toObject().value(QStringLiteral("sizes"));
            if (!sizes.isArray()) {
                if (out.malformed++ == 0)
                    out.firstMalformed =
                        QStringLiteral("region %1: an instanceTypes entry (%2) has no \"sizes\" array")
                            .arg(region, tv.toObject().value(QStringLiteral("type")).toString());
                continue;
            }
            for (const QJsonValue &sv : sizes.toArray()) {
                const QJsonObject size = sv.toObject();
                const QString type = size.value(QStringLiteral("size")).toString();
                const QJsonValue columns = size.value(QStringLiteral("valueColumns"));
                if (type.isEmpty() || !columns.isArray()) {
                    if (out.malformed++ == 0)
                        out.firstMalformed =
                            type.isEmpty()
                                ? QStringLiteral("region %1: a size without a \"size\" name").arg(region)
                                : QStringLiteral("region %1, %2: valueColumns is not an array")
                                      .arg(region, type);
                    continue;
                }
                for (const QJsonValue &cv : columns.toArray()) {
                    const QJsonObject col = cv.toObject();
                    if (col.value(QStringLiteral("name")).toString() != u"linux")
                        continue;
                    const QJsonValue usd =
                        col.value(QStringLiteral("prices")).toObject().value(QStringLiteral("USD"));
                    double v = 0;
                    if (usd.isString()) {
                        const QByteArray text = usd.toString().toLatin1();
                        if (!parseDecimal(
                                std::string_view(text.constData(), static_cast<std::size_t>(text.size())),
                                &v)) {
                            ++out.notAvailable; // "N/A*"
                            continue;
                        }
                    } else if (usd.isDouble()) {
                        v = usd.toDouble();
                    } else {
                        if (out.malformed++ == 0)
                            out.firstMalformed =
                                QStringLiteral(
                                    "region %1, %2: the linux price is neither a string nor a number")
                                    .arg(region, type);
                        continue;
                    }
                    if (!(v > 0) || !std::isfinite(v)) {
                        ++out.notAvailable;
                        continue;
                    }
                    out.prices.insert(AwsSpotPrices::key(region, type), v);
                }
            }
        }
    }
    if (out.malformed)
        out.warnings.append(QStringLiteral("%1: %2 malformed spot price entries skipped (first: %3)")
                                .arg(origin, QString::number(out.malformed), out.firstMalformed));
    if (out.prices.isEmpty())
        return makeError(QStringLiteral("%1: the spot price feed holds no Linux price%2")
                             .arg(origin, out.malformed
                                              ? QStringLiteral(" (%1 malformed entries skipped, first: %2)")
                                                    .arg(out.malformed)
                                                    .arg(out.firstMalformed)
                                              : QString()));
    return out;
}

Result<AwsSpotAdvisor> parseAwsSpotAdvisor(QByteArrayView data, const QString &origin)
{
    const QString what = QStringLiteral("AWS Spot Instance Advisor file (spot-advisor-data.json)");
    auto root = parseObject(data, origin, what);
    if (!root)
        return root.error();
    const QJsonValue ranges = root.value().value(QStringLiteral("ranges"));
    const QJsonValue advisor = root.value().value(QStringLiteral("spot_advisor"));
    if (!ranges.isArray() || !advisor.isObject())
        return makeError(QStringLiteral("%1: no \"ranges\" array or \"spot_advisor\" object: not a valid %2")
                             .arg(origin, what));
    QHash<int, QString> labels;
    for (const QJsonValue &rv : ranges.toArray()) {
        const QJsonObject r = rv.toObject();
        if (!r.value(QStringLiteral("index")).isDouble() || !r.value(QStringLiteral("label")).isString())
            return makeError(
                QStringLiteral("%1: a \"ranges\" entry lacks a numeric index or a label").arg(origin));
        labels.insert(r.value(QStringLiteral("index")).toInt(), r.value(QStringLiteral("label")).toString());
    }
    AwsSpotAdvisor out;
    const QJsonObject regions = advisor.toObject();
    for (auto it = regions.begin(); it != regions.end(); ++it) {
        const QJsonObject linuxTypes = it.value().toObject().value(QStringLiteral("Linux")).toObject();
        for (auto t = linuxTypes.begin(); t != linuxTypes.end(); ++t) {
            const QJsonObject e = t.value().toObject();
            const QJsonValue r = e.value(QStringLiteral("r"));
            if (!r.isDouble())
                return makeError(QStringLiteral("%1: spot_advisor.%2.Linux.%3.r is not a number")
                                     .arg(origin, it.key(), t.key()));
            const int index = r.toInt();
            if (!labels.contains(index))
                return makeError(
                    QStringLiteral("%1: spot_advisor.%2.Linux.%3: bucket %4 is not in \"ranges\"")
                        .arg(origin, it.key(), t.key(), QString::number(index)));
            out.advice.insert(AwsSpotPrices::key(it.key(), t.key()),
                              {labels.value(index), e.value(QStringLiteral("s")).toInt()});
        }
    }
    if (out.advice.isEmpty())
        return makeError(QStringLiteral("%1: the advisor file has no Linux entries").arg(origin));
    return out;
}

int applyAwsSpot(QList<Offer> &offers, const AwsSpotPrices *spot, const AwsSpotAdvisor *advisor)
{
    int withSpot = 0;
    for (Offer &o : offers) {
        const QString key = AwsSpotPrices::key(o.region, o.instanceType);
        if (spot) {
            if (auto it = spot->prices.constFind(key); it != spot->prices.constEnd()) {
                o.spotUsdH = *it;
                o.spotLabel = QStringLiteral("spot");
                if (!o.source.contains(QStringLiteral("spot feed")))
                    o.source += QStringLiteral("; AWS spot feed");
            } else if (!o.zone.isEmpty()) {
                // Per-AZ rows (SkyPilot) keep their own spot price; regional rows without one have none.
            } else {
                o.spotUsdH.reset();
                o.spotLabel.clear();
            }
        }
        if (o.spotUsdH)
            ++withSpot;
        if (advisor && o.spotUsdH) {
            if (auto it = advisor->advice.constFind(key); it != advisor->advice.constEnd()) {
                o.interruption = it->bucket;
                if (!o.source.contains(QStringLiteral("spot advisor")))
                    o.source += QStringLiteral("; AWS spot advisor");
            }
        }
    }
    return withSpot;
}

} // namespace gf

#include "projection/pointjson.h"

#include "domain/offerjson.h"

#include <QJsonArray>

namespace gf {

QJsonObject projectedPointToJson(const Offer &o, const ProjectedOffer &p, bool recommended,
                                 const QDateTime &now)
{
    const bool priced = p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
    auto ifProjected = [&](double v) { return p.projected ? QJsonValue(v) : QJsonValue(QJsonValue::Null); };
    auto ifPriced = [&](double v) { return priced ? QJsonValue(v) : QJsonValue(QJsonValue::Null); };
    const bool spot = p.mode == PriceMode::Spot;
    QJsonObject j;
    j.insert(u"schema_version", kPointJsonSchemaVersion);
    j.insert(u"provider", o.provider);
    j.insert(u"instance_type", o.instanceType);
    j.insert(u"region", o.region);
    j.insert(u"zone", jsonStringOrNull(o.zone));
    j.insert(u"gpu", jsonStringOrNull(o.gpuId));
    j.insert(u"gpu_name", o.recognised() ? QJsonValue(gpuModelName(o)) : QJsonValue(QJsonValue::Null));
    j.insert(u"gpu_provider_name", o.gpuRawName);
    j.insert(u"gpu_count", o.gpuCount);
    j.insert(u"gpu_mem_gb", jsonNumberOrNull(o.gpuMemGb));
    j.insert(u"vcpus", jsonNumberOrNull(o.vcpus));
    j.insert(u"nodes", p.nodes);
    j.insert(u"price_mode", spot ? QStringLiteral("spot") : QStringLiteral("on-demand"));
    j.insert(u"spot_label", spot ? jsonStringOrNull(o.spotLabel) : QJsonValue(QJsonValue::Null));
    j.insert(u"price_usd_per_h", p.usdPerHour > 0 ? QJsonValue(p.usdPerHour) : QJsonValue(QJsonValue::Null));
    j.insert(u"samples_per_s", ifProjected(p.samplesPerS));
    j.insert(u"train_h", ifProjected(p.trainHours));
    j.insert(u"interruption_h", ifProjected(p.interruptionHours));
    j.insert(u"expected_interruptions", ifProjected(p.expectedInterruptions));
    j.insert(u"setup_h", ifProjected(p.setupHours));
    j.insert(u"total_h", ifProjected(p.totalHours));
    j.insert(u"cost_usd", ifPriced(p.costUsd));
    j.insert(u"samples_per_usd", ifPriced(p.samplesPerUsd));
    j.insert(u"projected", p.projected);
    j.insert(u"on_frontier", p.onFrontier);
    j.insert(u"feasible", p.feasible);
    j.insert(u"recommended", recommended);
    j.insert(u"flags", QJsonArray::fromStringList(projectionFlagNames(p.flags)));
    j.insert(u"price_date", jsonStringOrNull(priceDateText(o)));
    j.insert(u"price_age_days", priceAgeDays(o, now));
    j.insert(u"source", jsonStringOrNull(o.source));
    j.insert(u"projection_tier",
             p.projected ? QJsonValue(projectionTierName(p.tier)) : QJsonValue(QJsonValue::Null));
    j.insert(u"probe_calibrated", p.projected && p.probeCalibrated);
    j.insert(u"samples_per_s_low", ifProjected(p.samplesPerSLow()));
    j.insert(u"samples_per_s_high", ifProjected(p.samplesPerSHigh()));
    j.insert(u"total_h_low", ifProjected(p.totalHoursLow));
    j.insert(u"total_h_high", ifProjected(p.totalHoursHigh));
    j.insert(u"cost_usd_low", ifPriced(p.costUsdLow));
    j.insert(u"cost_usd_high", ifPriced(p.costUsdHigh));
    return j;
}

} // namespace gf

#include "projection/pointjson.h"

#include "util/jsonwriter.h"

#include <QJsonDocument>

namespace gf {

void writeProjectedPoint(JsonWriter &w, const Offer &o, const ProjectedOffer &p, bool recommended,
                         const QDateTime &now)
{
    const bool priced = p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
    auto ifProjected = [&](double v) {
        if (p.projected)
            w.value(v);
        else
            w.nullValue();
    };
    auto ifPriced = [&](double v) {
        if (priced)
            w.value(v);
        else
            w.nullValue();
    };
    auto key = [&](const char *k) { w.key(QLatin1StringView(k)); };
    const bool spot = p.mode == PriceMode::Spot;
    // Keys in sorted order (QJsonObject's): tests/unit/test_pointjson checks the bytes against QJsonDocument.
    w.beginObject();
    key("cost_usd");
    ifPriced(p.costUsd);
    key("cost_usd_high");
    ifPriced(p.costUsdHigh);
    key("cost_usd_low");
    ifPriced(p.costUsdLow);
    key("expected_interruptions");
    ifProjected(p.expectedInterruptions);
    key("feasible");
    w.value(p.feasible);
    key("flags");
    w.beginArray();
    for (ProjectionFlag f : allProjectionFlags())
        if (hasFlag(p.flags, f))
            w.value(projectionFlagName(f));
    w.endArray();
    key("gpu");
    w.stringOrNull(o.gpuId);
    key("gpu_count");
    w.value(o.gpuCount);
    key("gpu_mem_gb");
    w.numberOrNull(o.gpuMemGb);
    key("gpu_name");
    if (o.recognised())
        w.value(gpuModelName(o));
    else
        w.nullValue();
    key("gpu_provider_name");
    w.value(o.gpuRawName);
    key("instance_type");
    w.value(o.instanceType);
    key("interruption_h");
    ifProjected(p.interruptionHours);
    key("nodes");
    w.value(p.nodes);
    key("on_frontier");
    w.value(p.onFrontier);
    key("price_age_days");
    w.value(priceAgeDays(o, now));
    key("price_date");
    w.stringOrNull(priceDateText(o));
    key("price_mode");
    w.value(spot ? QLatin1StringView("spot") : QLatin1StringView("on-demand"));
    key("price_usd_per_h");
    if (p.usdPerHour > 0)
        w.value(p.usdPerHour);
    else
        w.nullValue();
    key("probe_calibrated");
    w.value(p.projected && p.probeCalibrated);
    key("projected");
    w.value(p.projected);
    key("projection_tier");
    if (p.projected)
        w.value(projectionTierName(p.tier));
    else
        w.nullValue();
    key("provider");
    w.value(o.provider);
    key("recommended");
    w.value(recommended);
    key("region");
    w.value(o.region);
    key("samples_per_s");
    ifProjected(p.samplesPerS);
    key("samples_per_s_high");
    ifProjected(p.samplesPerSHigh());
    key("samples_per_s_low");
    ifProjected(p.samplesPerSLow());
    key("samples_per_usd");
    ifPriced(p.samplesPerUsd);
    key("schema_version");
    w.value(kPointJsonSchemaVersion);
    key("setup_h");
    ifProjected(p.setupHours);
    key("source");
    w.stringOrNull(o.source);
    key("spot_label");
    if (spot)
        w.stringOrNull(o.spotLabel);
    else
        w.nullValue();
    key("total_h");
    ifProjected(p.totalHours);
    key("total_h_high");
    ifProjected(p.totalHoursHigh);
    key("total_h_low");
    ifProjected(p.totalHoursLow);
    key("train_h");
    ifProjected(p.trainHours);
    key("vcpus");
    w.numberOrNull(o.vcpus);
    key("zone");
    w.stringOrNull(o.zone);
    w.endObject();
}

QJsonObject projectedPointToJson(const Offer &o, const ProjectedOffer &p, bool recommended,
                                 const QDateTime &now)
{
    QByteArray bytes;
    {
        ByteArraySink sink(bytes);
        BufferedOutput out(sink);
        JsonWriter w(out);
        writeProjectedPoint(w, o, p, recommended, now);
    }
    return QJsonDocument::fromJson(bytes).object();
}

} // namespace gf

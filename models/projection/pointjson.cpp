#include "projection/pointjson.h"

#include "util/jsonwriter.h"

#include <QJsonDocument>

namespace gf {

void writeProjectedPoint(JsonWriter &w, const Offer &o, const ProjectedOffer &p, bool recommended,
                         const QDateTime &now)
{
    using L = QLatin1StringView;
    const bool priced = p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
    auto ifProjected = [&](double v) { return p.projected ? std::optional<double>(v) : std::nullopt; };
    auto ifPriced = [&](double v) { return priced ? std::optional<double>(v) : std::nullopt; };
    const bool spot = p.mode == PriceMode::Spot;
    // Keys in sorted order (QJsonObject's): test_clioffers checks the bytes against QJsonDocument.
    w.beginObject();
    w.memberOrNull(L("cost_usd"), ifPriced(p.costUsd));
    w.memberOrNull(L("cost_usd_high"), ifPriced(p.costUsdHigh));
    w.memberOrNull(L("cost_usd_low"), ifPriced(p.costUsdLow));
    w.memberOrNull(L("expected_interruptions"), ifProjected(p.expectedInterruptions));
    w.member(L("feasible"), p.feasible);
    w.key(L("flags"));
    w.beginArray();
    for (ProjectionFlag f : allProjectionFlags())
        if (hasFlag(p.flags, f))
            w.value(projectionFlagName(f));
    w.endArray();
    w.memberStringOrNull(L("gpu"), o.gpuId);
    w.member(L("gpu_count"), o.gpuCount);
    w.memberOrNull(L("gpu_mem_gb"), o.gpuMemGb);
    w.memberStringOrNull(L("gpu_name"), o.recognised() ? gpuModelName(o) : QString());
    w.member(L("gpu_provider_name"), o.gpuRawName);
    w.member(L("instance_type"), o.instanceType);
    w.memberOrNull(L("interruption_h"), ifProjected(p.interruptionHours));
    w.member(L("nodes"), p.nodes);
    w.member(L("on_frontier"), p.onFrontier);
    w.member(L("price_age_days"), priceAgeDays(o, now));
    // priceDateText's date, written without a QString per point
    w.memberIsoDateOrNull(L("price_date"), o.dataDate.isValid()    ? o.dataDate
                                           : o.fetchedAt.isValid() ? o.fetchedAt.toUTC().date()
                                                                   : QDate());
    w.member(L("price_mode"), spot ? L("spot") : L("on-demand"));
    w.memberOrNull(L("price_usd_per_gpu_h"), p.usdPerGpuHour(o));
    w.memberOrNull(L("price_usd_per_h"),
                   p.usdPerHour > 0 ? std::optional<double>(p.usdPerHour) : std::nullopt);
    w.member(L("probe_calibrated"), p.projected && p.probeCalibrated);
    w.member(L("projected"), p.projected);
    w.memberStringOrNull(L("projection_tier"), p.projected ? projectionTierName(p.tier) : QString());
    w.member(L("provider"), o.provider);
    w.member(L("recommended"), recommended);
    w.member(L("region"), o.region);
    w.memberOrNull(L("samples_per_s"), ifProjected(p.samplesPerS));
    w.memberOrNull(L("samples_per_s_high"), ifProjected(p.samplesPerSHigh()));
    w.memberOrNull(L("samples_per_s_low"), ifProjected(p.samplesPerSLow()));
    w.memberOrNull(L("samples_per_usd"), ifPriced(p.samplesPerUsd));
    w.member(L("schema_version"), kPointJsonSchemaVersion);
    w.memberOrNull(L("setup_h"), ifProjected(p.setupHours));
    w.memberStringOrNull(L("source"), o.source);
    w.memberStringOrNull(L("spot_label"), spot ? o.spotLabel : QString());
    w.memberOrNull(L("total_h"), ifProjected(p.totalHours));
    w.memberOrNull(L("total_h_high"), ifProjected(p.totalHoursHigh));
    w.memberOrNull(L("total_h_low"), ifProjected(p.totalHoursLow));
    w.memberOrNull(L("train_h"), ifProjected(p.trainHours));
    w.memberOrNull(L("vcpus"), o.vcpus);
    w.memberStringOrNull(L("zone"), o.zone);
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

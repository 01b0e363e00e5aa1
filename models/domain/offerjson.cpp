#include "domain/offerjson.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"

#include "util/jsonwriter.h"

#include <QJsonArray>

namespace gf {

QJsonValue jsonNumberOrNull(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue jsonStringOrNull(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

void writeOfferJson(JsonWriter &w, const Offer &o)
{
    using L = QLatin1StringView;
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    auto flagList = [&](auto text) {
        w.beginArray();
        for (OfferFlag f : allOfferFlags())
            if (hasFlag(o.flags, f))
                w.value(text(f));
        w.endArray();
    };
    // Keys in sorted order (QJsonObject's): test_clioffers checks the bytes against QJsonDocument.
    w.beginObject();
    w.member(L("billing_increment_s"), o.billingIncrementS);
    w.member(L("billing_minimum_s"), o.billingMinimumS);
    w.memberIsoDateOrNull(L("data_date"), o.dataDate);
    w.memberOrNull(L("dlperf"), o.dlperf);
    w.member(L("fetched_at"), o.fetchedAt.toUTC().toString(Qt::ISODate));
    w.key(L("flag_notes"));
    flagList([&](OfferFlag f) { return offerFlagDescription(o, f); });
    w.key(L("flags"));
    flagList([](OfferFlag f) { return offerFlagName(f); });
    w.memberStringOrNull(L("gpu"), o.gpuId);
    w.member(L("gpu_count"), o.gpuCount);
    w.memberOrNull(L("gpu_mem_gb"), o.gpuMemGb);
    w.memberStringOrNull(L("gpu_name"), m ? m->name : QString());
    w.member(L("gpu_provider_name"), o.gpuRawName);
    w.member(L("gpu_recognised"), !o.gpuId.isEmpty());
    w.member(L("instance_type"), o.instanceType);
    w.memberStringOrNull(L("interconnect"), o.interconnect);
    w.memberStringOrNull(L("interruption"), o.interruption);
    w.memberIsoDateOrNull(L("listing_end"), o.listingEnd);
    w.memberOrNull(L("median_usd_per_gpu_h"),
                   o.medianUsdPerGpuH > 0 ? std::optional<double>(o.medianUsdPerGpuH) : std::nullopt);
    w.memberOrNull(L("network_gbps"), o.networkGbps);
    w.memberOrNull(L("ondemand_usd_h"), o.onDemandUsdH);
    w.memberIsoDateOrNull(L("price_date"), o.priceDate);
    w.member(L("provider"), o.provider);
    w.memberOrNull(L("ram_gb"), o.ramGb);
    w.member(L("region"), o.region);
    w.memberOrNull(L("reliability"), o.reliability);
    w.member(L("snapshot_id"), o.snapshotId);
    w.memberStringOrNull(L("source"), o.source);
    w.memberStringOrNull(L("spot_label"), o.spotLabel);
    w.memberOrNull(L("spot_usd_h"), o.spotUsdH);
    w.memberOrNull(L("upload_gbps"), o.uploadGbps);
    w.memberOrNull(L("vcpus"), o.vcpus);
    w.memberStringOrNull(L("zone"), o.zone);
    w.endObject();
}

QJsonObject snapshotToJson(const Snapshot &s, const QDateTime &now)
{
    QJsonObject j;
    j.insert(QStringLiteral("id"), s.id);
    j.insert(QStringLiteral("provider"), s.provider);
    j.insert(QStringLiteral("source_kind"), sourceKindName(s.kind));
    j.insert(QStringLiteral("origin"), s.origin);
    j.insert(QStringLiteral("fetched_at"), s.fetchedAt.toUTC().toString(Qt::ISODate));
    j.insert(QStringLiteral("data_date"), s.dataDate.isValid() ? QJsonValue(s.dataDate.toString(Qt::ISODate))
                                                               : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("age_days"), s.ageDays(now));
    j.insert(QStringLiteral("rows"), s.rowCount);
    j.insert(QStringLiteral("unrecognised_gpus"), s.unrecognisedCount);
    j.insert(QStringLiteral("checksum_sha256"), s.checksum);
    j.insert(QStringLiteral("current"), s.current);
    j.insert(QStringLiteral("status"), s.status);
    j.insert(QStringLiteral("description"), s.note); ///< what the snapshot is built from, what was removed
    return j;
}

} // namespace gf

#include "domain/offerjson.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"

#include "util/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>

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
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    auto key = [&](const char *k) { w.key(QLatin1StringView(k)); };
    auto date = [&](const QDate &d) {
        if (d.isValid())
            w.value(d.toString(Qt::ISODate));
        else
            w.nullValue();
    };
    // Keys in sorted order (QJsonObject's): tests/unit/test_offermodel checks the bytes against
    // QJsonDocument.
    w.beginObject();
    key("billing_increment_s");
    w.value(o.billingIncrementS);
    key("billing_minimum_s");
    w.value(o.billingMinimumS);
    key("data_date");
    date(o.dataDate);
    key("dlperf");
    w.numberOrNull(o.dlperf);
    key("fetched_at");
    w.value(o.fetchedAt.toUTC().toString(Qt::ISODate));
    key("flag_notes");
    w.beginArray();
    for (OfferFlag f : allOfferFlags())
        if (hasFlag(o.flags, f))
            w.value(offerFlagDescription(o, f));
    w.endArray();
    key("flags");
    w.beginArray();
    for (OfferFlag f : allOfferFlags())
        if (hasFlag(o.flags, f))
            w.value(offerFlagName(f));
    w.endArray();
    key("gpu");
    w.stringOrNull(o.gpuId);
    key("gpu_count");
    w.value(o.gpuCount);
    key("gpu_mem_gb");
    w.numberOrNull(o.gpuMemGb);
    key("gpu_name");
    if (m)
        w.value(m->name);
    else
        w.nullValue();
    key("gpu_provider_name");
    w.value(o.gpuRawName);
    key("gpu_recognised");
    w.value(!o.gpuId.isEmpty());
    key("instance_type");
    w.value(o.instanceType);
    key("interconnect");
    w.stringOrNull(o.interconnect);
    key("interruption");
    w.stringOrNull(o.interruption);
    key("listing_end");
    date(o.listingEnd);
    key("median_usd_per_gpu_h");
    if (o.medianUsdPerGpuH > 0)
        w.value(o.medianUsdPerGpuH);
    else
        w.nullValue();
    key("network_gbps");
    w.numberOrNull(o.networkGbps);
    key("ondemand_usd_h");
    w.numberOrNull(o.onDemandUsdH);
    key("price_date");
    date(o.priceDate);
    key("provider");
    w.value(o.provider);
    key("ram_gb");
    w.numberOrNull(o.ramGb);
    key("region");
    w.value(o.region);
    key("reliability");
    w.numberOrNull(o.reliability);
    key("snapshot_id");
    w.value(o.snapshotId);
    key("source");
    w.stringOrNull(o.source);
    key("spot_label");
    w.stringOrNull(o.spotLabel);
    key("spot_usd_h");
    w.numberOrNull(o.spotUsdH);
    key("upload_gbps");
    w.numberOrNull(o.uploadGbps);
    key("vcpus");
    w.numberOrNull(o.vcpus);
    key("zone");
    w.stringOrNull(o.zone);
    w.endObject();
}

QJsonObject offerToJson(const Offer &o)
{
    QByteArray bytes;
    {
        ByteArraySink sink(bytes);
        BufferedOutput out(sink);
        JsonWriter w(out);
        writeOfferJson(w, o);
    }
    return QJsonDocument::fromJson(bytes).object();
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

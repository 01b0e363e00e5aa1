#include "domain/offerjson.h"

#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"

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

QJsonObject offerToJson(const Offer &o)
{
    const GpuModel *m = o.gpuId.isEmpty() ? nullptr : GpuCatalog::builtin().model(o.gpuId);
    QJsonArray notes;
    for (OfferFlag f : allOfferFlags())
        if (hasFlag(o.flags, f))
            notes.append(offerFlagDescription(o, f));
    QJsonObject j;
    j.insert(QStringLiteral("provider"), o.provider);
    j.insert(QStringLiteral("instance_type"), o.instanceType);
    j.insert(QStringLiteral("region"), o.region);
    j.insert(QStringLiteral("zone"), jsonStringOrNull(o.zone));
    j.insert(QStringLiteral("gpu"), jsonStringOrNull(o.gpuId));
    j.insert(QStringLiteral("gpu_name"), m ? QJsonValue(m->name) : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("gpu_provider_name"), o.gpuRawName);
    j.insert(QStringLiteral("gpu_recognised"), !o.gpuId.isEmpty());
    j.insert(QStringLiteral("gpu_count"), o.gpuCount);
    j.insert(QStringLiteral("gpu_mem_gb"), jsonNumberOrNull(o.gpuMemGb));
    j.insert(QStringLiteral("vcpus"), jsonNumberOrNull(o.vcpus));
    j.insert(QStringLiteral("ram_gb"), jsonNumberOrNull(o.ramGb));
    j.insert(QStringLiteral("network_gbps"), jsonNumberOrNull(o.networkGbps));
    j.insert(QStringLiteral("upload_gbps"), jsonNumberOrNull(o.uploadGbps));
    j.insert(QStringLiteral("dlperf"), jsonNumberOrNull(o.dlperf));
    j.insert(QStringLiteral("interconnect"), jsonStringOrNull(o.interconnect));
    j.insert(QStringLiteral("ondemand_usd_h"), jsonNumberOrNull(o.onDemandUsdH));
    j.insert(QStringLiteral("spot_usd_h"), jsonNumberOrNull(o.spotUsdH));
    j.insert(QStringLiteral("spot_label"), jsonStringOrNull(o.spotLabel));
    j.insert(QStringLiteral("interruption"), jsonStringOrNull(o.interruption));
    j.insert(QStringLiteral("reliability"), jsonNumberOrNull(o.reliability));
    j.insert(QStringLiteral("billing_increment_s"), o.billingIncrementS);
    j.insert(QStringLiteral("billing_minimum_s"), o.billingMinimumS);
    j.insert(QStringLiteral("snapshot_id"), o.snapshotId);
    j.insert(QStringLiteral("source"), jsonStringOrNull(o.source));
    j.insert(QStringLiteral("data_date"), o.dataDate.isValid() ? QJsonValue(o.dataDate.toString(Qt::ISODate))
                                                               : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("fetched_at"), o.fetchedAt.toUTC().toString(Qt::ISODate));
    j.insert(QStringLiteral("price_date"), o.priceDate.isValid()
                                               ? QJsonValue(o.priceDate.toString(Qt::ISODate))
                                               : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("listing_end"), o.listingEnd.isValid()
                                                ? QJsonValue(o.listingEnd.toString(Qt::ISODate))
                                                : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("median_usd_per_gpu_h"),
             o.medianUsdPerGpuH > 0 ? QJsonValue(o.medianUsdPerGpuH) : QJsonValue(QJsonValue::Null));
    j.insert(QStringLiteral("flags"), QJsonArray::fromStringList(offerFlagNames(o.flags)));
    j.insert(QStringLiteral("flag_notes"), notes);
    return j;
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

#include "domain/offerjson.h"
#include "projection/pointjson.h"
#include "report/reportdata.h"
#include "util/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf::report {

namespace {

QJsonValue pointOrNull(const Data &d, qsizetype i)
{
    if (i < 0)
        return QJsonValue(QJsonValue::Null);
    Offer o;
    const ProjectedOffer p = d.point(i, &o);
    return projectedPointToJson(o, p, i == d.recommended, d.now);
}

QJsonObject assumptionsJson(const Data &d)
{
    const ProjectionOptions &opt = d.r->options;
    QJsonObject o;
    o.insert(u"spot_policy", spotPolicyName(opt.spotPolicy));
    o.insert(u"setup_minutes", opt.setupMinutes);
    o.insert(u"checkpoint_minutes", opt.checkpointMinutes);
    o.insert(u"restore_minutes", opt.restoreMinutes);
    o.insert(u"deadline_h", jsonNumberOrNull(opt.deadlineHours));
    o.insert(u"budget_usd", jsonNumberOrNull(opt.budgetUsd));
    o.insert(u"weight", opt.weight);
    QJsonArray nodes;
    for (int k : opt.nodeCounts)
        nodes.append(k);
    o.insert(u"node_counts", nodes);
    o.insert(u"overlap", opt.overlap);
    o.insert(u"bytes_per_gradient", opt.bytesPerGradient);
    o.insert(u"stale_days", opt.staleDays);
    o.insert(u"include_suspect", opt.includeSuspect);
    QJsonObject rates, egress;
    for (auto it = opt.interruptionRatePerHour.cbegin(); it != opt.interruptionRatePerHour.cend(); ++it)
        rates.insert(it.key(), it.value());
    for (auto it = opt.egressUsdPerGb.cbegin(); it != opt.egressUsdPerGb.cend(); ++it)
        egress.insert(it.key(), it.value());
    o.insert(u"interruption_rate_per_hour", rates);
    o.insert(u"egress_usd_per_gb", egress);
    o.insert(u"projected_at", opt.now.isValid() ? QJsonValue(opt.now.toUTC().toString(Qt::ISODate))
                                                : QJsonValue(QJsonValue::Null));
    return o;
}

QJsonObject calibrationJson(const Data &d)
{
    QJsonObject o = calibrationToJson(d.r->calibration);
    if (const auto &probe = d.input->probe) {
        QJsonObject p;
        p.insert(u"run_id",
                 d.input->probeRunId > 0 ? QJsonValue(d.input->probeRunId) : QJsonValue(QJsonValue::Null));
        p.insert(u"kind", probe->kind);
        p.insert(u"probe_version", probe->probeVersion);
        p.insert(u"created_at", probe->createdAt.isValid()
                                    ? QJsonValue(probe->createdAt.toUTC().toString(Qt::ISODate))
                                    : QJsonValue(QJsonValue::Null));
        p.insert(u"device_name", probe->deviceName);
        p.insert(u"memory_gb", probe->memoryGb);
        p.insert(u"driver_version", jsonStringOrNull(probe->driverVersion));
        p.insert(u"cuda_version", jsonStringOrNull(probe->cudaVersion));
        p.insert(u"fp32_tflops", jsonNumberOrNull(probe->fp32Tflops));
        p.insert(u"tf32_tflops", jsonNumberOrNull(probe->tf32Tflops));
        p.insert(u"fp16_tflops", jsonNumberOrNull(probe->fp16Tflops));
        p.insert(u"bf16_tflops", jsonNumberOrNull(probe->bf16Tflops));
        p.insert(u"fp8_tflops", jsonNumberOrNull(probe->fp8Tflops));
        p.insert(u"mem_bandwidth_gbs", jsonNumberOrNull(probe->memBandwidthGbs));
        o.insert(u"probe", p);
    } else {
        o.insert(u"probe", QJsonValue(QJsonValue::Null));
    }
    return o;
}

} // namespace

void renderJson(const Data &d, BufferedOutput &out)
{
    const ProjectionResults &r = *d.r;
    QJsonObject root;
    root.insert(u"schema", QStringLiteral("gpufrontier-report"));
    root.insert(u"schema_version", kReportSchemaVersion);
    root.insert(u"generator", d.generator);
    root.insert(u"generated_at", d.now.toString(Qt::ISODate));
    // The currency the documents show prices in; every *_usd* field below stays USD.
    QJsonObject currency;
    currency.insert(u"code", d.currency.code);
    currency.insert(u"units_per_usd", d.currency.unitsPerUsd);
    currency.insert(u"rate_date", d.currency.date.isValid()
                                      ? QJsonValue(d.currency.date.toString(Qt::ISODate))
                                      : QJsonValue(QJsonValue::Null));
    currency.insert(u"rate_source", d.currency.source);
    root.insert(u"currency", currency);
    root.insert(u"title", d.title);
    root.insert(u"offer_set", reportOfferSetName(d.input->offerSet));
    root.insert(u"offer_set_text", d.offerSetText);
    root.insert(u"filter", describeFilter(r.filter));
    root.insert(u"workload", workloadToJson(r.workload));
    root.insert(u"assumptions", assumptionsJson(d));
    root.insert(u"calibration", calibrationJson(d));
    QJsonArray snaps;
    for (const Snapshot &s : d.snapshots)
        snaps.append(snapshotToJson(s, d.now));
    root.insert(u"snapshots", snaps);

    QJsonObject counts;
    counts.insert(u"offers", d.offerCount());
    counts.insert(u"points", d.pointCount());
    counts.insert(u"projected", d.projected);
    counts.insert(u"on_frontier", d.frontier.size());
    counts.insert(u"feasible", d.feasible);
    counts.insert(u"listed", d.rows.size());
    root.insert(u"counts", counts);

    root.insert(u"recommended", pointOrNull(d, d.recommended));
    root.insert(u"recommended_explanation", QJsonArray::fromStringList(d.recommendedExplanation));
    root.insert(u"cheapest", pointOrNull(d, d.cheapest));
    root.insert(u"fastest", pointOrNull(d, d.fastest));
    QJsonArray frontier;
    for (qsizetype i : d.frontier)
        frontier.append(pointOrNull(d, i));
    root.insert(u"frontier", frontier);

    QJsonArray spot;
    for (const SpotSaving &s : d.spotSavings) {
        QJsonObject j;
        j.insert(u"gpu", s.gpuId);
        j.insert(u"gpu_name", s.gpuName);
        j.insert(u"offers", s.offers);
        j.insert(u"offers_with_spot", s.offersWithSpot);
        j.insert(u"median_spot_discount_pct", jsonNumberOrNull(s.medianDiscountPct));
        j.insert(u"best_on_demand_usd_per_gpu_h", jsonNumberOrNull(s.onDemandUsdPerGpuHour));
        j.insert(u"best_spot_usd_per_gpu_h", jsonNumberOrNull(s.spotUsdPerGpuHour));
        j.insert(u"cheapest_on_demand_run", pointOrNull(d, s.onDemandPoint));
        j.insert(u"cheapest_spot_run", pointOrNull(d, s.spotPoint));
        j.insert(u"run_savings_pct", jsonNumberOrNull(s.runSavingsPct));
        spot.append(j);
    }
    root.insert(u"spot_savings", spot);

    QJsonArray multi;
    for (const MultiNodeComparison &m : d.multiNode) {
        QJsonObject j;
        j.insert(u"gpu", m.gpuId);
        j.insert(u"gpu_name", m.gpuName);
        j.insert(u"gpus", m.gpus);
        j.insert(u"spot_single_gpu_instances", projectedPointToJson(m.singleOffer, m.spot, false, d.now));
        j.insert(u"on_demand_multi_gpu_instance",
                 projectedPointToJson(m.multiOffer, m.onDemand, false, d.now));
        j.insert(u"cost_savings_pct", m.costSavingsPct);
        j.insert(u"time_change_pct", m.timeChangePct);
        multi.append(j);
    }
    root.insert(u"multi_node", multi);

    QJsonArray warnings;
    for (const Warning &w : d.warnings) {
        QJsonObject j;
        j.insert(u"code", w.code);
        j.insert(u"message", w.message);
        j.insert(u"items", QJsonArray::fromStringList(w.items));
        warnings.append(j);
    }
    root.insert(u"warnings", warnings);
    // "points" lists every point of the report's offer set: streamed, the rest is small.
    JsonWriter w(out);
    w.writeObjectWith(root, {{QLatin1StringView("points"), [&] {
                                  w.beginArray();
                                  Offer o;
                                  for (qsizetype k = 0; k < d.rows.size(); ++k) {
                                      const qsizetype i = d.rows.at(k);
                                      d.points->prefetch(d.rows, k);
                                      const ProjectedOffer p = d.point(i, &o);
                                      writeProjectedPoint(w, o, p, i == d.recommended, d.now);
                                  }
                                  w.endArray();
                              }}});
}

} // namespace gf::report

#include "domain/snapshotdata.h"

#include "domain/gpucatalog.h"
#include "domain/offergpu.h"
#include "domain/pricesanity.h"
#include "domain/providertables.h"
#include "domain/snapshotchecks.h"

#include <cmath>

namespace gf {

Status validateSnapshot(SnapshotData &data, const GpuCatalog &gpus, const QString &origin,
                        const ValidationLimits &limits, const ProviderTables *tables)
{
    const ProviderTables &shapes = tables ? *tables : ProviderTables::builtin();
    if (!knownProviders().contains(data.provider))
        return makeError(
            QStringLiteral("%1: unknown provider \"%2\"").arg(origin, data.provider),
            QStringLiteral("known providers: %1").arg(knownProviders().join(QStringLiteral(", "))));
    if (data.offers.size() < limits.minRows)
        return tooFewRows(data, origin, limits.minRows);
    const QDate importDate =
        limits.importDate.isValid() ? limits.importDate : QDateTime::currentDateTimeUtc().date();
    const QDate latest = importDate.addDays(1);
    if (data.dataDate.isValid() && data.dataDate > latest)
        return makeError(QStringLiteral("%1 (%2): the prices are dated %3, after the import date %4: a "
                                        "date in the future is refused (it would make every other "
                                        "provider's prices look old); fix the file's snapshot_date")
                             .arg(origin, providerDisplayName(data.provider),
                                  data.dataDate.toString(Qt::ISODate), importDate.toString(Qt::ISODate)));
    normaliseSnapshotText(data);
    dropIdenticalRows(data);
    for (const Status &st : {checkProviderNaming(data, origin), checkUniqueOfferIds(data, origin),
                             checkMinimumPrices(data, origin)})
        if (!st)
            return st;
    int spotAbove = 0, spotFloor = 0, gpuBelowSpot = 0, stale = 0, tooOld = 0, memoryDiffers = 0,
        fromTable = 0, noOnDemand = 0;
    for (Offer &o : data.offers) {
        const qint64 line = o.id;
        auto fail = [&](const QString &what) {
            return makeError(QStringLiteral("%1 (%2): row at line %3, %4: %5")
                                 .arg(origin, providerDisplayName(data.provider), QString::number(line),
                                      o.instanceType.isEmpty() ? QStringLiteral("?") : o.instanceType, what));
        };
        if (o.provider != data.provider)
            return fail(QStringLiteral("provider \"%1\" differs from the file's provider \"%2\"")
                            .arg(o.provider, data.provider));
        if (o.instanceType.isEmpty())
            return fail(QStringLiteral("the instance type is empty"));
        if (o.region.isEmpty())
            return fail(QStringLiteral("the region is empty"));
        if (!(o.gpuCount > 0) || o.gpuCount > limits.maxGpuCount)
            return fail(QStringLiteral("GPU count %1 is out of range (0, %2]")
                            .arg(o.gpuCount)
                            .arg(limits.maxGpuCount));
        if (!o.onDemandUsdH && !o.spotUsdH)
            return fail(QStringLiteral("neither an on-demand nor a spot price"));
        for (const auto &[price, name] : {std::pair{o.onDemandUsdH, QStringLiteral("on-demand price")},
                                          std::pair{o.spotUsdH, QStringLiteral("spot price")}}) {
            if (price && (!(*price > 0) || *price > limits.maxUsdPerHour))
                return fail(QStringLiteral("%1 %2 USD/h is not plausible (expected > 0 and <= %3)")
                                .arg(name, QString::number(*price), QString::number(limits.maxUsdPerHour)));
        }
        if (o.gpuMemGb && (*o.gpuMemGb <= 0 || *o.gpuMemGb > 1024))
            return fail(QStringLiteral("GPU memory %1 GB is out of range").arg(*o.gpuMemGb));
        if (o.vcpus && (*o.vcpus <= 0 || *o.vcpus > 4096))
            return fail(QStringLiteral("vCPU count %1 is out of range").arg(*o.vcpus));
        if (o.ramGb && (*o.ramGb <= 0 || *o.ramGb > 65536))
            return fail(QStringLiteral("RAM %1 GB is out of range").arg(*o.ramGb));
        if (o.uploadGbps && (*o.uploadGbps < 0 || *o.uploadGbps > 10000))
            return fail(QStringLiteral("upload bandwidth %1 Gbps is out of range").arg(*o.uploadGbps));
        if (o.dlperf && (*o.dlperf < 0 || *o.dlperf > 1e6))
            return fail(QStringLiteral("DLPerf %1 is out of range").arg(*o.dlperf));
        for (const QDate &d : {o.priceDate, o.dataDate})
            if (d.isValid() && d > latest)
                return fail(QStringLiteral("its price date %1 is after the import date %2 (a date in the "
                                           "future is refused)")
                                .arg(d.toString(Qt::ISODate), importDate.toString(Qt::ISODate)));
        if (o.reliability && (*o.reliability < 0 || *o.reliability > 1))
            return fail(QStringLiteral("reliability %1 is not within 0..1").arg(*o.reliability));
        if (o.billingIncrementS < 1 || o.billingIncrementS > 86400 || o.billingMinimumS < 0 ||
            o.billingMinimumS > 86400)
            return fail(QStringLiteral("billing increment/minimum out of range"));

        // A parser's facts that validation cannot recompute are kept (GCP: GPU part below its spot part).
        o.flags &= static_cast<int>(OfferFlag::GpuBelowSpot);
        if (o.dataDate.isNull())
            o.dataDate = data.dataDate;
        const OfferGpu g = resolveOfferGpu(o, gpus, shapes);
        if (g.id) {
            o.gpuId = *g.id;
            if (g.viaTable && std::abs(g.gpuCount - o.gpuCount) > 1e-9) {
                ++fromTable;
                o.gpuCount = g.gpuCount;
            }
            o.interconnect = g.interconnect;
            if (!o.gpuMemGb)
                o.gpuMemGb = g.memGb;
            if (g.memoryDiffers) {
                o.flags |= static_cast<int>(OfferFlag::MemoryDiffers);
                ++memoryDiffers;
            }
        } else {
            o.gpuId.clear();
            o.flags |= static_cast<int>(OfferFlag::UnrecognisedGpu);
        }
        const int spot = spotSanityFlags(o);
        o.flags |= spot;
        spotAbove += hasFlag(spot, OfferFlag::SpotAboveOnDemand) ? 1 : 0;
        spotFloor += hasFlag(spot, OfferFlag::SpotAtFloor) ? 1 : 0;
        gpuBelowSpot += hasFlag(o.flags, OfferFlag::GpuBelowSpot) ? 1 : 0;
        if (isStaleRow(o)) {
            o.flags |= static_cast<int>(OfferFlag::Stale);
            ++stale;
        } else if (isPriceTooOld(o)) {
            ++tooOld; // flagged when the catalog is loaded (applyPriceSanity: the age on that day)
        }
        if (o.onDemandUsdH && !shapes.onDemandRestriction(o.provider, o.instanceType).isEmpty()) {
            o.flags |= static_cast<int>(OfferFlag::NoOnDemand);
            ++noOnDemand;
        }
        o.id = 0;
    }
    const PriceSanityRules rules;
    if (fromTable > 0)
        data.warnings.append(
            QStringLiteral("%1 offers had a GPU count that differs from the provider table (table used)")
                .arg(fromTable));
    if (memoryDiffers > 0)
        data.warnings.append(
            QStringLiteral("%1 offers state a GPU memory that no variant of their GPU has (flagged)")
                .arg(memoryDiffers));
    if (spotAbove > 0)
        data.warnings.append(
            QStringLiteral("%1 offers have a spot price not below on-demand (flagged: spot not recommended)")
                .arg(spotAbove));
    if (spotFloor > 0)
        data.warnings.append(
            QStringLiteral("%1 offers have a spot price at AWS's floor (<= %2 % of on-demand; "
                           "flagged: spot not recommended)")
                .arg(spotFloor)
                .arg(rules.spotFloorRatio * 100));
    if (noOnDemand > 0)
        data.warnings.append(
            QStringLiteral(
                "%1 offers list an on-demand price for an instance type that is not sold on demand "
                "(capacity blocks, reservations or spot only; flagged no-on-demand: kept off the "
                "frontier)")
                .arg(noOnDemand));
    if (gpuBelowSpot > 0)
        data.warnings.append(
            QStringLiteral("%1 offers have a GPU on-demand part below its spot part (flagged: "
                           "on-demand not recommended)")
                .arg(gpuBelowSpot));
    if (stale > 0)
        data.warnings.append(
            QStringLiteral("%1 offers have a listing that ended before the snapshot's date (flagged: not "
                           "recommended)")
                .arg(stale));
    if (tooOld > 0)
        data.warnings.append(QStringLiteral("%1 offers have prices more than %2 days old (flagged stale: not "
                                            "recommended until refreshed)")
                                 .arg(tooOld)
                                 .arg(rules.maxPriceAgeDays));
    return Ok{};
}

} // namespace gf

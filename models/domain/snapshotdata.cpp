#include "domain/snapshotdata.h"

#include "domain/gpucatalog.h"
#include "domain/offergpu.h"
#include "domain/pricesanity.h"
#include "domain/providertables.h"
#include "domain/snapshotchecks.h"

#include <cmath>

namespace gf {

Status CollectingSink::begin(const SnapshotData &head)
{
    QList<Offer> offers = std::move(m_data.offers);
    m_data = head;
    m_data.offers = std::move(offers);
    return Ok{};
}

Status CollectingSink::add(Offer &&offer)
{
    m_data.offers.append(std::move(offer));
    return Ok{};
}

Result<SnapshotData> collectOffers(const std::function<Result<SnapshotData>(OfferSink &)> &parse)
{
    SnapshotData data;
    CollectingSink sink(data);
    auto head = parse(sink);
    if (!head)
        return head.error();
    QList<Offer> offers = std::move(data.offers);
    data = std::move(head).value();
    data.offers = std::move(offers);
    return data;
}

Status validateSnapshot(SnapshotData &data, const GpuCatalog &gpus, const QString &origin,
                        const ValidationLimits &limits, const ProviderTables *tables)
{
    SeenRowsInMemory seen;
    SnapshotValidator v(gpus, origin, limits, seen, tables);
    if (auto st = v.begin(data, data.offers.size()); !st)
        return st;
    const qint64 raw = data.offers.size();
    if (auto st = v.add(data.offers); !st)
        return st;
    return v.finish(data, raw);
}

SnapshotValidator::SnapshotValidator(const GpuCatalog &gpus, QString origin, ValidationLimits limits,
                                     SeenRows &seen, const ProviderTables *tables)
    : m_gpus(gpus), m_shapes(tables ? *tables : ProviderTables::builtin()), m_origin(std::move(origin)),
      m_limits(std::move(limits)), m_seen(seen)
{
}

SnapshotValidator::~SnapshotValidator() = default;

Status SnapshotValidator::begin(const SnapshotData &head, std::optional<qsizetype> rows)
{
    m_provider = head.provider;
    m_dataDate = head.dataDate;
    if (!knownProviders().contains(m_provider))
        return makeError(
            QStringLiteral("%1: unknown provider \"%2\"").arg(m_origin, m_provider),
            QStringLiteral("known providers: %1").arg(knownProviders().join(QStringLiteral(", "))));
    if (rows && *rows < m_limits.minRows)
        return tooFewRows(*rows, head.warnings, m_origin, m_limits.minRows);
    m_importDate =
        m_limits.importDate.isValid() ? m_limits.importDate : QDateTime::currentDateTimeUtc().date();
    if (m_dataDate.isValid() && m_dataDate > m_importDate.addDays(1))
        return makeError(QStringLiteral("%1 (%2): the prices are dated %3, after the import date %4: a "
                                        "date in the future is refused (it would make every other "
                                        "provider's prices look old); fix the file's snapshot_date")
                             .arg(m_origin, providerDisplayName(m_provider), m_dataDate.toString(Qt::ISODate),
                                  m_importDate.toString(Qt::ISODate)));
    m_checks = std::make_unique<SnapshotChunkChecks>(m_provider, m_origin, m_seen);
    return Ok{};
}

Status SnapshotValidator::add(QList<Offer> &rows, const std::vector<PreparedRow> *prepared)
{
    if (auto st = m_checks->add(rows, prepared); !st)
        return st;
    const ValidationLimits &limits = m_limits;
    const QDate latest = m_importDate.addDays(1);
    const QDate &importDate = m_importDate;
    // Today's date once per chunk, not per row: QDate::currentDate() reads the time zone (a stat of
    // /etc/localtime) on every call.
    PriceSanityRules ageRules;
    ageRules.today = QDate::currentDate();
    for (Offer &o : rows) {
        const qint64 line = o.id;
        auto fail = [&](const QString &what) {
            return makeError(QStringLiteral("%1 (%2): row at line %3, %4: %5")
                                 .arg(m_origin, providerDisplayName(m_provider), QString::number(line),
                                      o.instanceType.isEmpty() ? QStringLiteral("?") : o.instanceType, what));
        };
        if (o.provider != m_provider)
            return fail(QStringLiteral("provider \"%1\" differs from the file's provider \"%2\"")
                            .arg(o.provider, m_provider));
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
            o.dataDate = m_dataDate;
        const OfferGpu g = resolveOfferGpu(o, m_gpus, m_shapes);
        if (g.id) {
            o.gpuId = *g.id;
            if (g.viaTable && std::abs(g.gpuCount - o.gpuCount) > 1e-9) {
                ++m_fromTable;
                o.gpuCount = g.gpuCount;
            }
            o.interconnect = g.interconnect;
            if (!o.gpuMemGb)
                o.gpuMemGb = g.memGb;
            if (g.memoryDiffers) {
                o.flags |= static_cast<int>(OfferFlag::MemoryDiffers);
                ++m_memoryDiffers;
            }
        } else {
            o.gpuId.clear();
            o.flags |= static_cast<int>(OfferFlag::UnrecognisedGpu);
        }
        const int spot = spotSanityFlags(o);
        o.flags |= spot;
        m_spotAbove += hasFlag(spot, OfferFlag::SpotAboveOnDemand) ? 1 : 0;
        m_spotFloor += hasFlag(spot, OfferFlag::SpotAtFloor) ? 1 : 0;
        m_gpuBelowSpot += hasFlag(o.flags, OfferFlag::GpuBelowSpot) ? 1 : 0;
        if (isStaleRow(o)) {
            o.flags |= static_cast<int>(OfferFlag::Stale);
            ++m_stale;
        } else if (isPriceTooOld(o, ageRules)) {
            ++m_tooOld; // flagged when the catalog is loaded (applyPriceSanity: the age on that day)
        }
        if (o.onDemandUsdH && !m_shapes.onDemandRestriction(o.provider, o.instanceType).isEmpty()) {
            o.flags |= static_cast<int>(OfferFlag::NoOnDemand);
            ++m_noOnDemand;
        }
        o.id = 0;
    }
    return Ok{};
}

Status SnapshotValidator::finish(SnapshotData &meta, qint64 rawRows)
{
    if (rawRows < m_limits.minRows)
        return tooFewRows(rawRows, meta.warnings, m_origin, m_limits.minRows);
    if (auto st = m_checks->finish(meta); !st)
        return st;
    QStringList &warnings = meta.warnings;
    const PriceSanityRules rules;
    if (m_fromTable > 0)
        warnings.append(
            QStringLiteral("%1 offers had a GPU count that differs from the provider table (table used)")
                .arg(m_fromTable));
    if (m_memoryDiffers > 0)
        warnings.append(
            QStringLiteral("%1 offers state a GPU memory that no variant of their GPU has (flagged)")
                .arg(m_memoryDiffers));
    if (m_spotAbove > 0)
        warnings.append(
            QStringLiteral("%1 offers have a spot price not below on-demand (flagged: spot not recommended)")
                .arg(m_spotAbove));
    if (m_spotFloor > 0)
        warnings.append(QStringLiteral("%1 offers have a spot price at AWS's floor (<= %2 % of on-demand; "
                                       "flagged: spot not recommended)")
                            .arg(m_spotFloor)
                            .arg(rules.spotFloorRatio * 100));
    if (m_noOnDemand > 0)
        warnings.append(
            QStringLiteral(
                "%1 offers list an on-demand price for an instance type that is not sold on demand "
                "(capacity blocks, reservations or spot only; flagged no-on-demand: kept off the "
                "frontier)")
                .arg(m_noOnDemand));
    if (m_gpuBelowSpot > 0)
        warnings.append(QStringLiteral("%1 offers have a GPU on-demand part below its spot part (flagged: "
                                       "on-demand not recommended)")
                            .arg(m_gpuBelowSpot));
    if (m_stale > 0)
        warnings.append(
            QStringLiteral("%1 offers have a listing that ended before the snapshot's date (flagged: not "
                           "recommended)")
                .arg(m_stale));
    if (m_tooOld > 0)
        warnings.append(QStringLiteral("%1 offers have prices more than %2 days old (flagged m_stale: not "
                                       "recommended until refreshed)")
                            .arg(m_tooOld)
                            .arg(rules.maxPriceAgeDays));
    return Ok{};
}

} // namespace gf

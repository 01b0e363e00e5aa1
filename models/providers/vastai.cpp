#include "providers/vastai.h"

#include "util/jsondocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

double round2(double v)
{
    return std::round(v * 100) / 100;
}

} // namespace

QByteArray vastSearchQuery(int limit, std::optional<double> minPrice)
{
    QJsonObject q;
    q.insert(QStringLiteral("rentable"), QJsonObject{{QStringLiteral("eq"), true}});
    q.insert(QStringLiteral("rented"), QJsonObject{{QStringLiteral("eq"), false}});
    q.insert(QStringLiteral("type"), QStringLiteral("on-demand"));
    // Cheapest first: an answer cut short keeps the offers that matter most, and its last price is the
    // cursor of the next page (provider-sources.md).
    q.insert(QStringLiteral("order"),
             QJsonArray{QJsonArray{QStringLiteral("dph_total"), QStringLiteral("asc")}});
    if (minPrice)
        q.insert(QStringLiteral("dph_total"), QJsonObject{{QStringLiteral("gte"), *minPrice}});
    q.insert(QStringLiteral("allocated_storage"), 10.0);
    q.insert(QStringLiteral("limit"), limit);
    return QJsonDocument(q).toJson(QJsonDocument::Compact);
}

Result<VastOfferPage> parseVastOfferPage(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonDocument doc = std::move(parsed).value();
    QJsonArray offers;
    QString timestamp;
    if (doc.isArray()) {
        offers = doc.array();
    } else if (doc.isObject() && doc.object().value(QStringLiteral("offers")).isArray()) {
        offers = doc.object().value(QStringLiteral("offers")).toArray();
        timestamp = doc.object().value(QStringLiteral("timestamp")).toString();
    } else {
        return makeError(QStringLiteral("%1: not a vast.ai offer list (no \"offers\" array)").arg(origin));
    }
    VastOfferPage page;
    page.answered = static_cast<int>(offers.size());
    SnapshotData &out = page.data;
    out.provider = QStringLiteral("vastai");
    out.description = QStringLiteral("vast.ai offer search") +
                      (timestamp.isEmpty() ? QString() : QStringLiteral(" at ") + timestamp);
    out.dataDate = QDateTime::fromString(timestamp, Qt::ISODate).date();
    for (qsizetype i = 0; i < offers.size(); ++i) {
        // One malformed offer is skipped and counted; the first one's fault is reported.
        auto malformed = [&](const QString &what) {
            if (page.malformed++ == 0)
                page.firstMalformed = QStringLiteral("offers[%1]%2").arg(i).arg(what);
        };
        if (!offers.at(i).isObject()) {
            malformed(QStringLiteral(" is not an object"));
            continue;
        }
        const QJsonObject o = offers.at(i).toObject();
        // Numbers must be numbers when present: a string here means a changed or broken API.
        auto num = [&](const char *name, std::optional<double> *v) -> bool {
            const QJsonValue x = o.value(QLatin1String(name));
            if (x.isUndefined() || x.isNull())
                return true;
            if (!x.isDouble() || !std::isfinite(x.toDouble()))
                return false;
            *v = x.toDouble();
            return true;
        };
        std::optional<double> id, numGpus, gpuRam, cpuCores, cpuCoresEffective, gpuFrac, cpuRam, inetDown,
            inetUp, dph, minBid, reliability, dlperf, totalHour, endDate, duration;
        const char *bad = nullptr;
        for (const auto &[name, slot] :
             {std::pair{"id", &id}, std::pair{"num_gpus", &numGpus}, std::pair{"gpu_ram", &gpuRam},
              std::pair{"cpu_cores", &cpuCores}, std::pair{"cpu_cores_effective", &cpuCoresEffective},
              std::pair{"cpu_ram", &cpuRam}, std::pair{"inet_down", &inetDown}, std::pair{"inet_up", &inetUp},
              std::pair{"dph_total", &dph}, std::pair{"min_bid", &minBid}, std::pair{"dlperf", &dlperf}}) {
            if (!num(name, slot)) {
                bad = name;
                break;
            }
        }
        // Listing dates and the GPU share: informative only, so a non-number is ignored rather than rejected.
        if (!num("end_date", &endDate))
            endDate.reset();
        if (!num("duration", &duration))
            duration.reset();
        if (!num("gpu_frac", &gpuFrac))
            gpuFrac.reset();
        if (!bad && !num("reliability2", &reliability))
            bad = "reliability2";
        if (!bad && !reliability && !num("reliability", &reliability))
            bad = "reliability";
        if (bad) {
            malformed(QStringLiteral(".%1 is not a number").arg(QLatin1String(bad)));
            continue;
        }
        const QJsonValue gpuName = o.value(QStringLiteral("gpu_name"));
        if (!gpuName.isString() || gpuName.toString().trimmed().isEmpty()) {
            malformed(gpuName.isUndefined() || gpuName.isNull() ? QStringLiteral(" has no gpu_name")
                      : gpuName.isString()                      ? QStringLiteral(".gpu_name is empty")
                                           : QStringLiteral(".gpu_name is not a string"));
            continue;
        }
        if (!id) {
            malformed(QStringLiteral(" has no id"));
            continue;
        }
        if (std::abs(*id) > 9007199254740992.0 || *id != std::floor(*id)) { // 2^53: ids are integers
            malformed(QStringLiteral(".id is not an integer"));
            continue;
        }
        const QJsonValue rentable = o.value(QStringLiteral("rentable"));
        const QJsonValue rented = o.value(QStringLiteral("rented"));
        if ((rentable.isBool() && !rentable.toBool()) || (rented.isBool() && rented.toBool())) {
            ++page.notRentable;
            continue;
        }
        const QJsonValue search = o.value(QStringLiteral("search"));
        if (!dph && search.isObject()) {
            const QJsonValue t = search.toObject().value(QStringLiteral("totalHour"));
            if (t.isDouble())
                totalHour = t.toDouble();
        }
        const std::optional<double> price = dph ? dph : totalHour;
        if (!price || !(*price > 0)) {
            ++page.noPrice;
            continue;
        }
        if (!page.maxPrice || *price > *page.maxPrice)
            page.maxPrice = price;
        Offer x;
        x.provider = out.provider;
        x.instanceType = QString::number(static_cast<qint64>(*id));
        x.region = o.value(QStringLiteral("geolocation")).toString().trimmed();
        if (x.region.isEmpty())
            x.region = QStringLiteral("(location not given)");
        x.gpuRawName = o.value(QStringLiteral("gpu_name")).toString();
        x.gpuCount = numGpus.value_or(0);
        if (gpuRam)
            x.gpuMemGb = round2(*gpuRam / 1024.0);
        // An offer may rent part of a machine: cpu_cores_effective is the offer's share of the host's
        // cpu_cores (vast.ai gives it in proportion to the GPUs rented, gpu_frac), and the offer gets the
        // same share of the host's RAM (cpu_ram is the whole machine's).
        std::optional<double> share;
        if (cpuCoresEffective && *cpuCoresEffective > 0) {
            x.vcpus = cpuCoresEffective;
            if (cpuCores && *cpuCores > 0)
                share = std::min(1.0, *cpuCoresEffective / *cpuCores);
        } else if (cpuCores && *cpuCores > 0 && gpuFrac && *gpuFrac > 0 && *gpuFrac <= 1) {
            x.vcpus = std::round(*cpuCores * *gpuFrac * 10) / 10;
            share = *gpuFrac;
        }
        if (cpuRam && *cpuRam > 0)
            x.ramGb = std::round(*cpuRam * share.value_or(1.0) / 1000.0 * 10) / 10;
        if (inetDown)
            x.networkGbps = round2(*inetDown / 1000.0);
        x.onDemandUsdH = price;
        if (minBid && *minBid > 0) {
            x.spotUsdH = minBid;
            x.spotLabel = QStringLiteral("interruptible");
        }
        x.reliability = reliability;
        if (inetUp && *inetUp >= 0)
            x.uploadGbps = round2(*inetUp / 1000.0); // Mb/s -> Gbit/s
        if (dlperf && *dlperf >= 0)
            x.dlperf = std::round(*dlperf * 100) / 100;
        x.billingIncrementS = 1;
        x.billingMinimumS = 0;
        // The listing's end (epoch seconds): an offer whose listing ended is flagged stale.
        if (endDate && *endDate > 0 && *endDate < 253402300800.0)
            x.listingEnd =
                QDateTime::fromSecsSinceEpoch(static_cast<qint64>(*endDate), QTimeZone::utc()).date();
        // Without a capture timestamp, the CLI's end_date - duration (duration = end_date - now) dates it.
        if (!out.dataDate.isValid() && endDate && duration && *endDate > *duration &&
            *endDate < 253402300800.0)
            out.dataDate =
                QDateTime::fromSecsSinceEpoch(static_cast<qint64>(*endDate - *duration), QTimeZone::utc())
                    .date();
        QStringList note{QStringLiteral("vast.ai offer %1").arg(x.instanceType)};
        if (const QJsonValue m = o.value(QStringLiteral("machine_id"));
            m.isDouble() && std::abs(m.toDouble()) < 9007199254740992.0)
            note.append(QStringLiteral("machine %1").arg(m.toDouble(), 0, 'f', 0));
        if (share && *share < 1.0 && cpuCores)
            note.append(QStringLiteral("%1 of %2 host vCPUs").arg(*x.vcpus).arg(*cpuCores));
        const QString verification = o.value(QStringLiteral("verification")).toString();
        if (!verification.isEmpty())
            note.append(verification);
        x.source = note.join(QStringLiteral(", "));
        out.offers.append(std::move(x));
    }
    // Every offer malformed: not one bad offer but a changed API; importing nothing would hide it.
    if (page.answered > 0 && page.malformed == page.answered)
        return makeError(QStringLiteral("%1: every one of the %2 offers is malformed (first: %3): the "
                                        "vast.ai offer format has changed")
                             .arg(origin, QString::number(page.answered), page.firstMalformed));
    return page;
}

QStringList vastPageWarnings(const VastOfferPage &page)
{
    QStringList w;
    if (page.malformed)
        w.append(QStringLiteral("%1 malformed offers skipped (first: %2)")
                     .arg(page.malformed)
                     .arg(page.firstMalformed));
    if (page.notRentable)
        w.append(QStringLiteral("%1 offers not rentable or already rented skipped").arg(page.notRentable));
    if (page.noPrice)
        w.append(QStringLiteral("%1 offers without an hourly price skipped").arg(page.noPrice));
    return w;
}

Result<SnapshotData> parseVastOffers(QByteArrayView data, const QString &origin)
{
    auto page = parseVastOfferPage(data, origin);
    if (!page)
        return page.error();
    VastOfferPage p = std::move(page).value();
    p.data.warnings = vastPageWarnings(p);
    if (p.answered == kVastDefaultLimit)
        p.data.warnings.append(
            QStringLiteral("the answer holds exactly %1 offers, vast.ai's default limit: it is probably cut "
                           "short (the live refresh pages by price)")
                .arg(kVastDefaultLimit));
    return std::move(p.data);
}

} // namespace gf

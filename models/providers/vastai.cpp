#include "providers/vastai.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <cmath>

namespace gf {

namespace {

double round2(double v)
{
    return std::round(v * 100) / 100;
}

} // namespace

QByteArray vastSearchQuery(int limit)
{
    QJsonObject q;
    q.insert(QStringLiteral("rentable"), QJsonObject{{QStringLiteral("eq"), true}});
    q.insert(QStringLiteral("rented"), QJsonObject{{QStringLiteral("eq"), false}});
    q.insert(QStringLiteral("type"), QStringLiteral("on-demand"));
    q.insert(QStringLiteral("order"),
             QJsonArray{QJsonArray{QStringLiteral("score"), QStringLiteral("desc")}});
    q.insert(QStringLiteral("allocated_storage"), 10.0);
    q.insert(QStringLiteral("limit"), limit);
    return QJsonDocument(q).toJson(QJsonDocument::Compact);
}

Result<SnapshotData> parseVastOffers(QByteArrayView data, const QString &origin)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(data.toByteArray(), &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("%1: invalid JSON at byte %2: %3")
                             .arg(origin)
                             .arg(err.offset)
                             .arg(err.errorString()));
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
    SnapshotData out;
    out.provider = QStringLiteral("vastai");
    out.description = QStringLiteral("vast.ai offer search") +
                      (timestamp.isEmpty() ? QString() : QStringLiteral(" at ") + timestamp);
    out.dataDate = QDateTime::fromString(timestamp, Qt::ISODate).date();
    int notRentable = 0, noPrice = 0;
    for (qsizetype i = 0; i < offers.size(); ++i) {
        if (!offers.at(i).isObject())
            return makeError(QStringLiteral("%1: offers[%2] is not an object").arg(origin).arg(i));
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
        std::optional<double> id, numGpus, gpuRam, cpuCores, cpuRam, inetDown, inetUp, dph, minBid,
            reliability, dlperf, totalHour, endDate, duration;
        const char *bad = nullptr;
        for (const auto &[name, slot] :
             {std::pair{"id", &id}, std::pair{"num_gpus", &numGpus}, std::pair{"gpu_ram", &gpuRam},
              std::pair{"cpu_cores_effective", &cpuCores}, std::pair{"cpu_ram", &cpuRam},
              std::pair{"inet_down", &inetDown}, std::pair{"inet_up", &inetUp}, std::pair{"dph_total", &dph},
              std::pair{"min_bid", &minBid}, std::pair{"dlperf", &dlperf}}) {
            if (!num(name, slot)) {
                bad = name;
                break;
            }
        }
        // Listing dates: informative only, so a non-number is ignored rather than rejected.
        if (!num("end_date", &endDate))
            endDate.reset();
        if (!num("duration", &duration))
            duration.reset();
        if (!bad && !num("reliability2", &reliability))
            bad = "reliability2";
        if (!bad && !reliability && !num("reliability", &reliability))
            bad = "reliability";
        if (bad)
            return makeError(QStringLiteral("%1: offers[%2].%3 is not a number")
                                 .arg(origin)
                                 .arg(i)
                                 .arg(QLatin1String(bad)));
        if (!o.value(QStringLiteral("gpu_name")).isString())
            return makeError(QStringLiteral("%1: offers[%2].gpu_name is not a string").arg(origin).arg(i));
        if (!id)
            return makeError(QStringLiteral("%1: offers[%2] has no id").arg(origin).arg(i));
        if (std::abs(*id) > 9007199254740992.0 || *id != std::floor(*id)) // 2^53: ids are integers
            return makeError(QStringLiteral("%1: offers[%2].id is not an integer").arg(origin).arg(i));
        const QJsonValue rentable = o.value(QStringLiteral("rentable"));
        const QJsonValue rented = o.value(QStringLiteral("rented"));
        if ((rentable.isBool() && !rentable.toBool()) || (rented.isBool() && rented.toBool())) {
            ++notRentable;
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
            ++noPrice;
            continue;
        }
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
        x.vcpus = cpuCores;
        if (cpuRam)
            x.ramGb = std::round(*cpuRam / 1000.0 * 10) / 10;
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
        const QString verification = o.value(QStringLiteral("verification")).toString();
        if (!verification.isEmpty())
            note.append(verification);
        x.source = note.join(QStringLiteral(", "));
        out.offers.append(std::move(x));
    }
    if (notRentable)
        out.warnings.append(
            QStringLiteral("%1 offers not rentable or already rented skipped").arg(notRentable));
    if (noPrice)
        out.warnings.append(QStringLiteral("%1 offers without an hourly price skipped").arg(noPrice));
    return out;
}

} // namespace gf

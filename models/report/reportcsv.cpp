#include "report/reportdata.h"
#include "util/csv.h"

#include <QLocale>

namespace gf::report {

namespace {
QString num(double v)
{
    return QString::number(v, 'f', QLocale::FloatingPointShortest);
}
QString optNum(const std::optional<double> &v)
{
    return v ? num(*v) : QString();
}
QString flag(bool b)
{
    return b ? QStringLiteral("true") : QStringLiteral("false");
}
} // namespace

QByteArray renderCsv(const Data &d)
{
    // RFC 4180: CRLF line ends, one header line; units in the column names; text cells that a spreadsheet
    // would evaluate (= + - @ first) are prefixed with an apostrophe.
    const QStringList header{QStringLiteral("provider"),
                             QStringLiteral("instance_type"),
                             QStringLiteral("region"),
                             QStringLiteral("zone"),
                             QStringLiteral("gpu_id"),
                             QStringLiteral("gpu_name"),
                             QStringLiteral("gpu_provider_name"),
                             QStringLiteral("gpu_count"),
                             QStringLiteral("nodes"),
                             QStringLiteral("gpu_mem_gb"),
                             QStringLiteral("vcpus"),
                             QStringLiteral("price_mode"),
                             QStringLiteral("spot_label"),
                             QStringLiteral("price_usd_per_h"),
                             QStringLiteral("samples_per_s"),
                             QStringLiteral("train_h"),
                             QStringLiteral("interruption_h"),
                             QStringLiteral("total_h"),
                             QStringLiteral("cost_usd"),
                             QStringLiteral("samples_per_usd"),
                             QStringLiteral("on_frontier"),
                             QStringLiteral("feasible"),
                             QStringLiteral("recommended"),
                             QStringLiteral("flags"),
                             QStringLiteral("price_date"),
                             QStringLiteral("price_age_days"),
                             QStringLiteral("source")};
    QString out = header.join(u',') + QStringLiteral("\r\n");
    for (qsizetype i : d.rows) {
        const ProjectedOffer &p = d.r->points.at(i);
        const Offer &o = d.r->offers.at(p.offerIndex);
        const bool priced = p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
        const QStringList cells{csvQuoteSafe(o.provider),
                                csvQuoteSafe(o.instanceType),
                                csvQuoteSafe(o.region),
                                csvQuoteSafe(o.zone),
                                csvQuoteSafe(o.gpuId),
                                csvQuoteSafe(o.recognised() ? gpuModelName(o) : QString()),
                                csvQuoteSafe(o.gpuRawName),
                                num(o.gpuCount),
                                QString::number(p.nodes),
                                optNum(o.gpuMemGb),
                                optNum(o.vcpus),
                                p.mode == PriceMode::Spot ? QStringLiteral("spot")
                                                          : QStringLiteral("on-demand"),
                                csvQuoteSafe(p.mode == PriceMode::Spot ? o.spotLabel : QString()),
                                p.usdPerHour > 0 ? num(p.usdPerHour) : QString(),
                                p.projected ? num(p.samplesPerS) : QString(),
                                p.projected ? num(p.trainHours) : QString(),
                                p.projected ? num(p.interruptionHours) : QString(),
                                p.projected ? num(p.totalHours) : QString(),
                                priced ? num(p.costUsd) : QString(),
                                priced ? num(p.samplesPerUsd) : QString(),
                                flag(p.onFrontier),
                                flag(p.feasible),
                                flag(i == d.recommended),
                                csvQuoteSafe(projectionFlagNames(p.flags).join(u' ')),
                                priceDateText(o),
                                QString::number(priceAgeDays(o, d.now)),
                                csvQuoteSafe(o.source)};
        out += cells.join(u',') + QStringLiteral("\r\n");
    }
    return out.toUtf8();
}

} // namespace gf::report

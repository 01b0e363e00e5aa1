#include "domain/offercsv.h"
#include "report/reportdata.h"
#include "util/bufferedoutput.h"
#include "util/csv.h"
#include "util/printable.h"

#include <functional>

namespace gf::report {

namespace {

/// One row of the CSV: a point of the results.
struct Row
{
    const Offer &offer;
    const ProjectedOffer &point;
    bool recommended;
    const QDateTime &now;
};

struct Column
{
    QString header;
    std::function<QString(const Row &)> cell;
};

Column offerColumn(OfferField field)
{
    return {offerFieldName(field), [field](const Row &r) { return offerCsvCell(r.offer, field); }};
}

/// A projected number: empty when the point has no projection (or, `needsPrice`, no valid price).
Column pointNumber(const QString &header, double ProjectedOffer::*member, bool needsPrice = false)
{
    return {header, [member, needsPrice](const Row &r) {
                const bool known = r.point.projected &&
                                   (!needsPrice || !hasFlag(r.point.flags, ProjectionFlag::InvalidPrice));
                return known ? csvNumber(r.point.*member) : QString();
            }};
}

Column flagColumn(const QString &header, bool (*get)(const Row &))
{
    return {header,
            [get](const Row &r) { return get(r) ? QStringLiteral("true") : QStringLiteral("false"); }};
}

const QList<Column> &columns()
{
    static const QList<Column> list{
        offerColumn(OfferField::Provider),
        offerColumn(OfferField::InstanceType),
        offerColumn(OfferField::Region),
        offerColumn(OfferField::Zone),
        offerColumn(OfferField::GpuId),
        offerColumn(OfferField::GpuName),
        offerColumn(OfferField::GpuProviderName),
        offerColumn(OfferField::GpuCount),
        {QStringLiteral("nodes"), [](const Row &r) { return QString::number(r.point.nodes); }},
        offerColumn(OfferField::GpuMemGb),
        offerColumn(OfferField::Vcpus),
        {QStringLiteral("price_mode"),
         [](const Row &r) {
             return r.point.mode == PriceMode::Spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
         }},
        {QStringLiteral("spot_label"),
         [](const Row &r) {
             return r.point.mode == PriceMode::Spot ? offerCsvCell(r.offer, OfferField::SpotLabel)
                                                    : QString();
         }},
        {QStringLiteral("price_usd_per_h"),
         [](const Row &r) { return r.point.usdPerHour > 0 ? csvNumber(r.point.usdPerHour) : QString(); }},
        {QStringLiteral("price_usd_per_gpu_h"),
         [](const Row &r) {
             const auto v = r.point.usdPerGpuHour(r.offer);
             return v ? csvNumber(*v) : QString();
         }},
        pointNumber(QStringLiteral("samples_per_s"), &ProjectedOffer::samplesPerS),
        pointNumber(QStringLiteral("train_h"), &ProjectedOffer::trainHours),
        pointNumber(QStringLiteral("interruption_h"), &ProjectedOffer::interruptionHours),
        pointNumber(QStringLiteral("total_h"), &ProjectedOffer::totalHours),
        pointNumber(QStringLiteral("cost_usd"), &ProjectedOffer::costUsd, true),
        pointNumber(QStringLiteral("samples_per_usd"), &ProjectedOffer::samplesPerUsd, true),
        flagColumn(QStringLiteral("on_frontier"), [](const Row &r) { return r.point.onFrontier; }),
        flagColumn(QStringLiteral("feasible"), [](const Row &r) { return r.point.feasible; }),
        flagColumn(QStringLiteral("recommended"), [](const Row &r) { return r.recommended; }),
        {QStringLiteral("flags"),
         [](const Row &r) { return csvQuoteSafe(projectionFlagNames(r.point.flags).join(u' ')); }},
        offerColumn(OfferField::PriceDate),
        {QStringLiteral("price_age_days"),
         [](const Row &r) { return QString::number(priceAgeDays(r.offer, r.now)); }},
        offerColumn(OfferField::Source),
        // Model v2: the evidence tier and the 10th-90th percentile range.
        {QStringLiteral("projection_tier"),
         [](const Row &r) { return r.point.projected ? projectionTierName(r.point.tier) : QString(); }},
        {QStringLiteral("samples_per_s_low"),
         [](const Row &r) { return r.point.projected ? csvNumber(r.point.samplesPerSLow()) : QString(); }},
        {QStringLiteral("samples_per_s_high"),
         [](const Row &r) { return r.point.projected ? csvNumber(r.point.samplesPerSHigh()) : QString(); }},
        {QStringLiteral("total_h_low"),
         [](const Row &r) { return r.point.projected ? csvNumber(r.point.totalHoursLow) : QString(); }},
        {QStringLiteral("total_h_high"),
         [](const Row &r) { return r.point.projected ? csvNumber(r.point.totalHoursHigh) : QString(); }},
        {QStringLiteral("cost_usd_low"),
         [](const Row &r) {
             return r.point.projected && !hasFlag(r.point.flags, ProjectionFlag::InvalidPrice)
                        ? csvNumber(r.point.costUsdLow)
                        : QString();
         }},
        {QStringLiteral("cost_usd_high"),
         [](const Row &r) {
             return r.point.projected && !hasFlag(r.point.flags, ProjectionFlag::InvalidPrice)
                        ? csvNumber(r.point.costUsdHigh)
                        : QString();
         }},
    };
    return list;
}

} // namespace

void renderCsv(const Data &d, BufferedOutput &out)
{
    // RFC 4180: CRLF line ends, one header line; units in the column names; the offer's cells are
    // offerCsvCell's (text that a spreadsheet would evaluate gets an apostrophe, shortest numbers).
    // A provider's text never reaches the file raw: control and bidi formatting characters become U+FFFD
    // (line breaks inside quoted cells are kept).
    QStringList header;
    for (const Column &c : columns())
        header.append(c.header);
    // Another currency: the USD columns keep their meaning; the converted prices follow, with the rate and
    // its date in every row ("eur_per_usd", "rate_date", "price_eur_per_h", "price_eur_per_gpu_h",
    // "cost_eur").
    const Currency &cur = d.currency;
    const QString code = cur.code.toLower();
    if (!cur.isUsd())
        header += {code + QStringLiteral("_per_usd"), QStringLiteral("rate_date"),
                   QStringLiteral("price_%1_per_h").arg(code), QStringLiteral("price_%1_per_gpu_h").arg(code),
                   QStringLiteral("cost_%1").arg(code)};
    const auto converted = [&cur](std::optional<double> usd) {
        return usd ? csvNumber(cur.fromUsd(*usd)) : QString();
    };
    out.appendText(QString(header.join(u',') + QStringLiteral("\r\n")));
    QStringList cells;
    Offer offer;
    for (qsizetype k = 0; k < d.rows.size(); ++k) {
        const qsizetype i = d.rows.at(k);
        d.points->prefetch(d.rows, k);
        const ProjectedOffer p = d.point(i, &offer);
        const Row row{offer, p, i == d.recommended, d.now};
        cells.clear();
        for (const Column &c : columns())
            cells.append(c.cell(row));
        if (!cur.isUsd()) {
            const bool pricedPoint = p.projected && !hasFlag(p.flags, ProjectionFlag::InvalidPrice);
            cells += {csvNumber(cur.unitsPerUsd), cur.date.toString(Qt::ISODate),
                      converted(p.usdPerHour > 0 ? std::optional<double>(p.usdPerHour) : std::nullopt),
                      converted(p.usdPerGpuHour(row.offer)),
                      converted(pricedPoint ? std::optional<double>(p.costUsd) : std::nullopt)};
        }
        // The line end kept apart: a line of printable text is then written as it is, not copied and
        // scanned again character by character (printableKeepingLines keeps line breaks).
        out.appendText(printableKeepingLines(cells.join(u',')));
        out.append("\r\n", 2);
    }
}

} // namespace gf::report

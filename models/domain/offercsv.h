#pragma once

#include "domain/offer.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// What an offer contributes to a CSV row. offerCsvCell is the one writer of these cells for every
/// CSV that lists offers: `gpufrontier-cli offers --format csv`, the report CSV (models/report/REPORT.md)
/// and the catalog CSV import format (resources/catalog/FORMAT.md). Each format names its columns.
enum class OfferField : quint8
{
    Provider,
    InstanceType,
    Region,
    Zone,
    GpuId,           ///< canonical GPU id, empty when unrecognised
    GpuName,         ///< canonical GPU name, empty when unrecognised
    GpuProviderName, ///< the GPU name as the provider writes it
    GpuCount,
    GpuMemGb,
    Vcpus,
    RamGb,
    NetworkGbps,
    Interconnect,
    OnDemandUsdH,
    SpotUsdH,
    SpotLabel,
    Interruption,
    Reliability,
    BillingIncrementS,
    BillingMinimumS,
    Source,
    DataDate,  ///< the data date (ISO), empty when unknown
    PriceDate, ///< priceDateText: the data date, else the fetch date
    UploadGbps,
    Dlperf,
    RowPriceDate, ///< the row's own price date (Offer::priceDate, ISO), empty when it has none
    ListingEnd,   ///< marketplace listing end (ISO), empty when none is stated
};

/// The usual column name of a field ("instance_type", "ondemand_usd_h", "gpu_id", "gpu_name", ...).
QString offerFieldName(OfferField field);

/// One column of a CSV format: the offer field it holds, under its usual name or another one.
struct OfferCsvColumn
{
    OfferCsvColumn(OfferField f) : header(offerFieldName(f)), field(f) {} // NOLINT: implicit on purpose
    OfferCsvColumn(QString name, OfferField f) : header(std::move(name)), field(f) {}

    QString header;
    OfferField field;
};

/// How cells are written. The default is the one of the CSV exports (CLI and report): text that a
/// spreadsheet would run as a formula is neutralised (csvQuoteSafe), numbers are the shortest text that
/// reads back to the same double. An import format that must read back unchanged quotes plainly.
struct OfferCsvStyle
{
    bool formulaSafe = true;
    int significantDigits = 0; ///< csvNumber: 0 = shortest round trip
};

QString offerCsvCell(const Offer &offer, OfferField field, const OfferCsvStyle &style = {});
/// The header names of `columns`.
QStringList offerCsvHeader(const QList<OfferCsvColumn> &columns);
/// The cells of `columns` for one offer.
QStringList offerCsvCells(const Offer &offer, const QList<OfferCsvColumn> &columns,
                          const OfferCsvStyle &style = {});

} // namespace gf

#include "providers/snapshotfile.h"

#include "domain/gpucatalog.h"
#include "domain/offercsv.h"
#include "util/csv.h"
#include "util/sharedtexts.h"

#include <QBuffer>

#include <cmath>

namespace gf {

namespace {

/// The catalog CSV columns (resources/catalog/FORMAT.md), in order. gpu_name is the provider's name.
const QList<OfferCsvColumn> &catalogColumns()
{
    using enum OfferField;
    const OfferCsvColumn providerGpuName(QStringLiteral("gpu_name"), GpuProviderName);
    static const QList<OfferCsvColumn> columns{
        Provider, InstanceType, Region,       Zone,         providerGpuName,   GpuCount,
        GpuMemGb, Vcpus,        RamGb,        NetworkGbps,  Interconnect,      OnDemandUsdH,
        SpotUsdH, SpotLabel,    Interruption, Reliability,  BillingIncrementS, BillingMinimumS,
        Source,   UploadGbps,   Dlperf,       RowPriceDate, ListingEnd};
    return columns;
}

} // namespace

QStringList snapshotCsvColumns()
{
    return offerCsvHeader(catalogColumns());
}

QString writeSnapshotCsv(const QList<Offer> &offers)
{
    // An import format: text is quoted only (it must read back unchanged), numbers with 12 digits.
    const OfferCsvStyle style{.formulaSafe = false, .significantDigits = 12};
    QString s = snapshotCsvColumns().join(u',') + u'\n';
    for (const Offer &o : offers)
        s += offerCsvCells(o, catalogColumns(), style).join(u',') + u'\n';
    return s;
}

namespace {

struct RowError
{
    QString text;
};

std::optional<double> optionalNumber(const QString &s, const QString &column, int line, QString *error)
{
    const QString t = s.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        *error = QStringLiteral("line %1: %2 is not a number: \"%3\"").arg(line).arg(column, t.left(40));
        return std::nullopt;
    }
    return v;
}

} // namespace

Result<SnapshotData> parseSnapshotCsv(const QString &text, const QString &origin)
{
    QByteArray bytes = text.toUtf8();
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    InputLimits limits;
    limits.maxFileBytes = 0; // already in memory
    return parseSnapshotCsv(buffer, origin, limits);
}

Result<SnapshotData> parseSnapshotCsv(QIODevice &in, const QString &origin, const InputLimits &limits)
{
    return collectOffers([&](OfferSink &sink) { return parseSnapshotCsv(in, origin, limits, sink); });
}

Result<SnapshotData> parseSnapshotCsv(QIODevice &in, const QString &origin, const InputLimits &limits,
                                      OfferSink &sink)
{
    SnapshotData data;
    bool begun = false;
    std::optional<Error> sinkError;
    const QStringList columns = snapshotCsvColumns();
    QList<int> idx;
    qsizetype headerSize = 0;
    QString error;
    // Optional: a marketplace's rentable flag. Offers that cannot be rented are not imported.
    int cRentable = -1;
    int notRentable = 0;
    SharedTexts texts;
    CsvStream stream(
        [&](const QStringList &comments, const QStringList &header) {
            for (const QString &c : comments) {
                const qsizetype colon = c.indexOf(u':');
                if (colon < 0)
                    continue;
                const QString key = c.left(colon).trimmed();
                const QString value = c.mid(colon + 1).trimmed();
                if (key == u"provider")
                    data.provider = value;
                else if (key == u"snapshot_date")
                    data.dataDate = QDate::fromString(value, Qt::ISODate);
                else if (key == u"source")
                    data.description = value;
            }
            headerSize = header.size();
            for (const QString &col : columns) {
                const int c = static_cast<int>(header.indexOf(col));
                // Optional: source (per-row provenance), the vast.ai metrics added in schema 4, the row's
                // own price date and the listing's end (schema 5).
                if (c < 0 && col != u"source" && col != u"upload_gbps" && col != u"dlperf" &&
                    col != u"price_date" && col != u"end_date") {
                    error =
                        QStringLiteral("%1: not a GPU Frontier catalog file: the column \"%2\" is missing")
                            .arg(origin, col);
                    return false;
                }
                idx.append(c);
            }
            cRentable = static_cast<int>(header.indexOf(QStringLiteral("rentable")));
            return true;
        },
        [&](const QStringList &fields, qint64 line64) {
            const int line = static_cast<int>(line64);
            if (fields.size() != headerSize) {
                error = QStringLiteral("%1: line %2 has %3 fields, the header has %4 (truncated file?)")
                            .arg(origin, QString::number(line), QString::number(fields.size()),
                                 QString::number(headerSize));
                return false;
            }
            auto f = [&](int i) { return idx.at(i) >= 0 ? fields.at(idx.at(i)).trimmed() : QString(); };
            auto shared = [&](int i) { return texts(f(i)); }; // labels repeat across rows: held once
            QString err;
            Offer o;
            o.provider = shared(0);
            o.instanceType = f(1);
            o.region = shared(2);
            o.zone = shared(3);
            o.gpuRawName = shared(4);
            const auto count = optionalNumber(f(5), columns.at(5), line, &err);
            o.gpuCount = count.value_or(0);
            o.gpuMemGb = optionalNumber(f(6), columns.at(6), line, &err);
            o.vcpus = optionalNumber(f(7), columns.at(7), line, &err);
            o.ramGb = optionalNumber(f(8), columns.at(8), line, &err);
            o.networkGbps = optionalNumber(f(9), columns.at(9), line, &err);
            o.interconnect = shared(10);
            o.onDemandUsdH = optionalNumber(f(11), columns.at(11), line, &err);
            o.spotUsdH = optionalNumber(f(12), columns.at(12), line, &err);
            o.spotLabel = shared(13);
            o.interruption = shared(14);
            o.reliability = optionalNumber(f(15), columns.at(15), line, &err);
            const auto inc = optionalNumber(f(16), columns.at(16), line, &err);
            const auto min = optionalNumber(f(17), columns.at(17), line, &err);
            o.billingIncrementS = static_cast<int>(inc.value_or(1));
            o.billingMinimumS = static_cast<int>(min.value_or(60));
            o.source = shared(18);
            o.uploadGbps = optionalNumber(f(19), columns.at(19), line, &err);
            o.dlperf = optionalNumber(f(20), columns.at(20), line, &err);
            for (const auto &[i, date] : {std::pair{21, &o.priceDate}, std::pair{22, &o.listingEnd}}) {
                if (f(i).isEmpty())
                    continue;
                *date = QDate::fromString(f(i), Qt::ISODate);
                if (!date->isValid() && err.isEmpty())
                    err = QStringLiteral("line %1: %2 is not an ISO date (YYYY-MM-DD): \"%3\"")
                              .arg(line)
                              .arg(columns.at(i), f(i).left(40));
            }
            if (!err.isEmpty()) {
                error = QStringLiteral("%1: %2").arg(origin, err);
                return false;
            }
            if (cRentable >= 0) {
                const QString r = fields.at(cRentable).trimmed().toLower();
                if (r == u"false" || r == u"0" || r == u"no") {
                    ++notRentable;
                    return true;
                }
            }
            if (o.gpuCount <= 0 && !count) {
                error = QStringLiteral("%1: line %2: gpu_count is empty").arg(origin, QString::number(line));
                return false;
            }
            if (data.provider.isEmpty())
                data.provider = o.provider;
            if (!begun) {
                begun = true;
                if (auto st = sink.begin(data); !st) {
                    sinkError = st.error();
                    return false;
                }
            }
            // Remember the line for validation messages.
            o.id = line;
            if (auto st = sink.add(std::move(o)); !st) {
                sinkError = st.error();
                return false;
            }
            return true;
        },
        true, limits.maxFieldBytes);
    const Status read = readCsvStream(in, stream, limits, origin);
    if (sinkError)
        return *sinkError;
    if (!read)
        return read.error();
    if (!error.isEmpty())
        return makeError(error);
    if (data.provider.isEmpty())
        return makeError(QStringLiteral("%1: the file names no provider").arg(origin));
    if (notRentable > 0)
        data.warnings.append(
            QStringLiteral("%1 offers marked not rentable were not imported").arg(notRentable));
    return data;
}

Result<QString> snapshotCsvProvider(QIODevice &in, const QString &origin, const InputLimits &limits)
{
    QString provider;
    int providerColumn = -1;
    CsvStream stream(
        [&](const QStringList &comments, const QStringList &header) {
            for (const QString &c : comments)
                if (c.section(u':', 0, 0).trimmed() == u"provider")
                    provider = c.section(u':', 1).trimmed();
            providerColumn = static_cast<int>(header.indexOf(QStringLiteral("provider")));
            return provider.isEmpty() && providerColumn >= 0; // read on to the first row
        },
        [&](const QStringList &fields, qint64) {
            if (providerColumn < fields.size())
                provider = fields.at(providerColumn).trimmed();
            return false;
        },
        true, limits.maxFieldBytes);
    if (auto st = readCsvStream(in, stream, limits, origin); !st)
        return st.error();
    if (provider.isEmpty())
        return makeError(QStringLiteral("%1: the file names no provider").arg(origin));
    return provider;
}

} // namespace gf

#include "snapshotfile.h"

#include "csv.h"
#include "gpucatalog.h"

#include <cmath>

namespace gf {

QStringList snapshotCsvColumns()
{
    return {QStringLiteral("provider"),
            QStringLiteral("instance_type"),
            QStringLiteral("region"),
            QStringLiteral("zone"),
            QStringLiteral("gpu_name"),
            QStringLiteral("gpu_count"),
            QStringLiteral("gpu_mem_gb"),
            QStringLiteral("vcpus"),
            QStringLiteral("ram_gb"),
            QStringLiteral("network_gbps"),
            QStringLiteral("interconnect"),
            QStringLiteral("ondemand_usd_h"),
            QStringLiteral("spot_usd_h"),
            QStringLiteral("spot_label"),
            QStringLiteral("interruption"),
            QStringLiteral("reliability"),
            QStringLiteral("billing_increment_s"),
            QStringLiteral("billing_minimum_s"),
            QStringLiteral("source"),
            QStringLiteral("upload_gbps"),
            QStringLiteral("dlperf")};
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
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(origin, parsed.error().message));
    const CsvDocument &doc = parsed.value();

    SnapshotData data;
    for (const QString &c : doc.comments) {
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

    const QStringList columns = snapshotCsvColumns();
    QList<int> idx;
    for (const QString &col : columns) {
        const int c = doc.column(col);
        // Optional: source (per-row provenance), and the vast.ai metrics added in schema 4.
        if (c < 0 && col != u"source" && col != u"upload_gbps" && col != u"dlperf")
            return makeError(
                QStringLiteral("%1: not a GPU Frontier catalog file: the column \"%2\" is missing")
                    .arg(origin, col));
        idx.append(c);
    }

    for (const CsvRecord &rec : doc.records) {
        if (rec.fields.size() != doc.header.size())
            return makeError(QStringLiteral("%1: line %2 has %3 fields, the header has %4 (truncated file?)")
                                 .arg(origin)
                                 .arg(rec.line)
                                 .arg(rec.fields.size())
                                 .arg(doc.header.size()));
        auto f = [&](int i) { return idx.at(i) >= 0 ? rec.fields.at(idx.at(i)).trimmed() : QString(); };
        QString err;
        Offer o;
        o.provider = f(0);
        o.instanceType = f(1);
        o.region = f(2);
        o.zone = f(3);
        o.gpuRawName = f(4);
        const auto count = optionalNumber(f(5), columns.at(5), rec.line, &err);
        o.gpuCount = count.value_or(0);
        o.gpuMemGb = optionalNumber(f(6), columns.at(6), rec.line, &err);
        o.vcpus = optionalNumber(f(7), columns.at(7), rec.line, &err);
        o.ramGb = optionalNumber(f(8), columns.at(8), rec.line, &err);
        o.networkGbps = optionalNumber(f(9), columns.at(9), rec.line, &err);
        o.interconnect = f(10);
        o.onDemandUsdH = optionalNumber(f(11), columns.at(11), rec.line, &err);
        o.spotUsdH = optionalNumber(f(12), columns.at(12), rec.line, &err);
        o.spotLabel = f(13);
        o.interruption = f(14);
        o.reliability = optionalNumber(f(15), columns.at(15), rec.line, &err);
        const auto inc = optionalNumber(f(16), columns.at(16), rec.line, &err);
        const auto min = optionalNumber(f(17), columns.at(17), rec.line, &err);
        o.billingIncrementS = static_cast<int>(inc.value_or(1));
        o.billingMinimumS = static_cast<int>(min.value_or(60));
        o.source = f(18);
        o.uploadGbps = optionalNumber(f(19), columns.at(19), rec.line, &err);
        o.dlperf = optionalNumber(f(20), columns.at(20), rec.line, &err);
        if (!err.isEmpty())
            return makeError(QStringLiteral("%1: %2").arg(origin, err));
        if (o.gpuCount <= 0 && !count)
            return makeError(QStringLiteral("%1: line %2: gpu_count is empty").arg(origin).arg(rec.line));
        if (data.provider.isEmpty())
            data.provider = o.provider;
        data.offers.append(std::move(o));
        // Remember the line for validation messages.
        data.offers.last().id = rec.line;
    }
    if (data.provider.isEmpty())
        return makeError(QStringLiteral("%1: the file names no provider").arg(origin));
    return data;
}

Status validateSnapshot(SnapshotData &data, const GpuCatalog &gpus, const QString &origin,
                        const ValidationLimits &limits)
{
    if (!knownProviders().contains(data.provider))
        return makeError(
            QStringLiteral("%1: unknown provider \"%2\"").arg(origin, data.provider),
            QStringLiteral("known providers: %1").arg(knownProviders().join(QStringLiteral(", "))));
    if (data.offers.size() < limits.minRows)
        return makeError(
            QStringLiteral("%1: only %2 offers, at least %3 expected (truncated or empty download?)")
                .arg(origin)
                .arg(data.offers.size())
                .arg(limits.minRows));
    int spotAbove = 0;
    for (Offer &o : data.offers) {
        const qint64 line = o.id;
        auto fail = [&](const QString &what) {
            return makeError(QStringLiteral("%1 (%2): row at line %3, %4: %5")
                                 .arg(origin, providerDisplayName(data.provider))
                                 .arg(line)
                                 .arg(o.instanceType.isEmpty() ? QStringLiteral("?") : o.instanceType, what));
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
                                .arg(name)
                                .arg(*price)
                                .arg(limits.maxUsdPerHour));
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
        if (o.reliability && (*o.reliability < 0 || *o.reliability > 1))
            return fail(QStringLiteral("reliability %1 is not within 0..1").arg(*o.reliability));
        if (o.billingIncrementS < 1 || o.billingIncrementS > 86400 || o.billingMinimumS < 0 ||
            o.billingMinimumS > 86400)
            return fail(QStringLiteral("billing increment/minimum out of range"));

        o.flags = 0;
        if (auto id = gpus.resolve(o.provider, o.gpuRawName)) {
            o.gpuId = *id;
        } else {
            o.gpuId.clear();
            o.flags |= static_cast<int>(OfferFlag::UnrecognisedGpu);
        }
        if (o.spotUsdH && o.onDemandUsdH && *o.spotUsdH > *o.onDemandUsdH) {
            o.flags |= static_cast<int>(OfferFlag::SpotAboveOnDemand);
            ++spotAbove;
        }
        o.id = 0;
    }
    if (spotAbove > 0)
        data.warnings.append(
            QStringLiteral("%1 offers have a spot price above on-demand (flagged)").arg(spotAbove));
    return Ok{};
}

} // namespace gf

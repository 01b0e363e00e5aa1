#include "launch/measurementjson.h"

#include "domain/gpucatalog.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

constexpr QLatin1StringView kMarker("GPUFRONTIER-MEASUREMENT ");

/// The measured samples/s per GPU of a document: "samples_per_s_per_gpu", else "samples_per_s" over the GPUs.
/// The error says which field is wrong and how (missing, not a number, zero, beyond any GPU).
Result<double> measuredSpeed(const QJsonObject &o, int gpuCount, const QString &where,
                             const QStringList &notes)
{
    const QString reported = notes.isEmpty()
                                 ? QStringLiteral("no notes")
                                 : QStringLiteral("its notes: ") + notes.join(QStringLiteral("; "));
    const bool perGpuGiven =
        o.contains(u"samples_per_s_per_gpu") && !o.value(u"samples_per_s_per_gpu").isNull();
    const QString field =
        perGpuGiven ? QStringLiteral("samples_per_s_per_gpu") : QStringLiteral("samples_per_s");
    const QJsonValue v = o.value(field);
    if (v.isUndefined() || v.isNull())
        return makeError(QStringLiteral("%1: no measured speed: neither \"samples_per_s_per_gpu\" nor "
                                        "\"samples_per_s\" is given (the run measured nothing; %2). Look at "
                                        "the job's log for why it did not measure.")
                             .arg(where, reported));
    if (!v.isDouble())
        return makeError(
            QStringLiteral("%1: \"%2\" is not a number but %3; a measurement gives samples/s as a "
                           "JSON number")
                .arg(where, field,
                     v.isString() ? QStringLiteral("the text \"%1\"").arg(v.toString().left(40))
                                  : QStringLiteral("a JSON %1")
                                        .arg(v.isBool()    ? QStringLiteral("boolean")
                                             : v.isArray() ? QStringLiteral("array")
                                                           : QStringLiteral("object"))));
    const double value = v.toDouble();
    const double perGpu = perGpuGiven ? value : value / gpuCount;
    if (!(value > 0))
        return makeError(
            QStringLiteral("%1: \"%2\" is %3: the run measured no progress (%4). Look at the job's "
                           "log, fix the run and measure again.")
                .arg(where, field, QString::number(value), reported));
    if (!std::isfinite(perGpu) || perGpu > kMaxMeasuredSamplesPerS)
        return makeError(QStringLiteral("%1: \"%2\" is %3 samples/s per GPU, beyond what any GPU can do (the "
                                        "limit read is %4): a unit or parsing error in the run's output?")
                             .arg(where, field, QString::number(perGpu, 'g', 6),
                                  QString::number(kMaxMeasuredSamplesPerS, 'g', 3)));
    return perGpu;
}

Result<MeasurementDocument> fromObject(const QJsonObject &o, const QString &where, const QString &fileName,
                                       const GpuCatalog &gpus)
{
    if (o.value(u"schema").toString() != u"gpufrontier-measurement")
        return makeError(QStringLiteral("%1: not a GPU Frontier measurement (\"schema\" is not "
                                        "\"gpufrontier-measurement\")")
                             .arg(where));
    const int version = o.value(u"schema_version").toInt(0);
    if (version != 1)
        return makeError(QStringLiteral("%1: schema_version %2 is not supported (1 is)")
                             .arg(where, QString::number(version)));
    MeasurementDocument d;
    ThroughputMeasurement &m = d.measurement;
    m.kind = MeasurementKind::User;
    m.workloadId = o.value(u"workload").toString().trimmed();
    if (m.workloadId.isEmpty())
        return makeError(QStringLiteral("%1: \"workload\" is missing").arg(where));
    m.gpuId = o.value(u"gpu_id").toString().trimmed();
    if (!gpus.model(m.gpuId)) {
        // Without a plan's GF_GPU_ID: the accelerator name, else the name the GPU reports itself
        // (gf_measure.py's device_name, e.g. "NVIDIA H100 80GB HBM3").
        auto resolved = gpus.resolve(QString(), o.value(u"accelerator").toString());
        if (!resolved)
            resolved = gpus.resolve(QString(), o.value(u"device_name").toString());
        if (m.gpuId.isEmpty() && resolved)
            m.gpuId = *resolved;
        else if (m.gpuId.isEmpty())
            return makeError(
                QStringLiteral("%1: no \"gpu_id\", and neither \"accelerator\" (\"%2\") nor "
                               "\"device_name\" (\"%3\") names a known GPU")
                    .arg(where, o.value(u"accelerator").toString(), o.value(u"device_name").toString()));
        else
            return makeError(QStringLiteral("%1: GPU \"%2\" is not a known GPU id").arg(where, m.gpuId));
    }
    d.task = o.value(u"task").toString();
    d.method = o.value(u"method").toString();
    for (const QJsonValue &n : o.value(u"notes").toArray())
        d.notes.append(n.toString());
    m.gpuCount = std::max(1, o.value(u"gpu_count").toInt(1));
    auto speed = measuredSpeed(o, m.gpuCount, where, d.notes);
    if (!speed)
        return speed.error();
    m.samplesPerSPerGpu = speed.value();
    m.batchPerGpu = std::max(0, o.value(u"batch_per_gpu").toInt(0));
    m.precision = o.value(u"precision").toString();
    const QJsonObject offer = o.value(u"offer").toObject();
    m.offerKey = offer.value(u"key").toString();
    // A run outside a launch plan (a user's own command) names no offer: its key is "//", kept as it was
    // (the stored measurements' dedupe key includes it); offerLabel() shows it as none.
    if (m.offerKey.isEmpty() && offer.contains(u"provider"))
        m.offerKey = QStringLiteral("%1/%2/%3")
                         .arg(offer.value(u"provider").toString(), offer.value(u"instance_type").toString(),
                              offer.value(u"region").toString());
    const QString at = o.value(u"measured_at").toString();
    if (!at.isEmpty()) {
        m.measuredAt = QDateTime::fromString(at, Qt::ISODateWithMs);
        if (!m.measuredAt.isValid())
            m.measuredAt = QDateTime::fromString(at, Qt::ISODate);
        if (!m.measuredAt.isValid())
            return makeError(
                QStringLiteral("%1: measured_at \"%2\" is not an ISO date and time").arg(where, at));
        m.measuredAt = m.measuredAt.toUTC();
    }
    const QString offerId = offer.value(u"id").toString(m.offerKey);
    m.source = QStringLiteral("%1 on %2 (%3%4)")
                   .arg(d.method.isEmpty() ? QStringLiteral("measurement") : d.method,
                        offerId.isEmpty() ? QStringLiteral("an unnamed offer") : offerId,
                        d.task.isEmpty() ? QString() : QStringLiteral("task %1, ").arg(d.task),
                        QFileInfo(fileName).fileName());
    if (auto busy = gpuBusyFractionOf(o); busy)
        m.gpuBusyFraction = busy.value();
    else
        return makeError(QStringLiteral("%1: %2").arg(where, busy.error().text()));
    if (auto method = gpuBusyMethodOf(o); method)
        m.gpuBusyMethod = method.value();
    else
        return makeError(QStringLiteral("%1: %2").arg(where, method.error().text()));
    const QJsonValue projected = o.value(u"projected_samples_per_s");
    if (projected.isDouble() && projected.toDouble() > 0)
        d.projectedSamplesPerS = projected.toDouble();
    d.json = QJsonDocument(o).toJson(QJsonDocument::Compact);
    return d;
}

} // namespace

Result<QList<MeasurementDocument>> parseMeasurementFile(const QByteArray &content, const QString &fileName,
                                                        const GpuCatalog &gpus)
{
    QList<MeasurementDocument> out;
    const QByteArray trimmed = content.trimmed();
    auto addObject = [&](const QJsonObject &o, const QString &where) -> Status {
        auto d = fromObject(o, where, fileName, gpus);
        if (!d)
            return d.error();
        out.append(d.value());
        return Ok{};
    };
    if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
        QJsonParseError err;
        const QJsonDocument doc = QJsonDocument::fromJson(trimmed, &err);
        if (doc.isNull())
            return makeError(QStringLiteral("%1: not valid JSON at offset %2: %3")
                                 .arg(fileName, QString::number(err.offset), err.errorString()));
        if (doc.isObject()) {
            if (auto st = addObject(doc.object(), fileName); !st)
                return st.error();
        } else {
            const QJsonArray arr = doc.array();
            for (qsizetype i = 0; i < arr.size(); ++i)
                if (auto st = addObject(arr.at(i).toObject(),
                                        QStringLiteral("%1, entry %2").arg(fileName, QString::number(i + 1)));
                    !st)
                    return st.error();
        }
    } else {
        // A job log: every line holding the marker carries one compact document after it.
        const QList<QByteArray> lines = content.split('\n');
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const qsizetype at = lines.at(i).indexOf(QByteArray(kMarker.data(), kMarker.size()));
            if (at < 0)
                continue;
            const QByteArray json = lines.at(i).mid(at + kMarker.size()).trimmed();
            const QString where = QStringLiteral("%1 line %2").arg(fileName, QString::number(i + 1));
            QJsonParseError err;
            const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
            if (!doc.isObject())
                return makeError(QStringLiteral("%1: the measurement is not a JSON object (%2)")
                                     .arg(where, err.errorString()));
            if (auto st = addObject(doc.object(), where); !st)
                return st.error();
        }
    }
    if (out.isEmpty())
        return makeError(QStringLiteral("%1: no GPU Frontier measurement in it (a JSON document of "
                                        "gf_measure.py, or a log with a GPUFRONTIER-MEASUREMENT line)")
                             .arg(fileName));
    return out;
}

Result<QList<MeasurementDocument>> readMeasurementFile(const QString &path, const GpuCatalog &gpus,
                                                       qint64 maxBytes)
{
    auto tooLarge = [&] {
        return makeError(QStringLiteral("%1 is larger than %2 MB, the limit for a measurement file (a "
                                        "measurement JSON or a job log; keep only the "
                                        "GPUFRONTIER-MEASUREMENT lines of a longer log)")
                             .arg(path, QString::number(std::max<qint64>(1, maxBytes >> 20))));
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    if (!f.isSequential() && f.size() > maxBytes)
        return tooLarge();
    // At most one byte past the limit: a pipe or a file that grows is cut off there.
    const QByteArray content = f.read(maxBytes + 1);
    if (content.size() > maxBytes)
        return tooLarge();
    if (f.error() != QFileDevice::NoError)
        return makeError(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    return parseMeasurementFile(content, QFileInfo(path).fileName(), gpus);
}

} // namespace gf

// CatalogStore's user measurements (table user_measurement, resources/sql/006_user_measurements.sql).
#include "store/catalogstore.h"
#include "store/storetime.h"

#include <QCryptographicHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <cmath>

namespace gf {

namespace {

QString isoOrNull(const QDateTime &t)
{
    return t.isValid() ? store::isoUtc(t) : QString();
}

QVariant nullableText(const QString &s)
{
    return s.isEmpty() ? QVariant(QMetaType(QMetaType::QString)) : QVariant(s);
}

QVariant notNullText(const QString &s)
{
    return s.isNull() ? QVariant(QStringLiteral("")) : QVariant(s);
}

QDateTime parseIso(const QString &s)
{
    return s.isEmpty() ? QDateTime() : store::fromIso(s).toUTC();
}

QString measurementChecksum(const ThroughputMeasurement &m)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    // Not the source: the same document read from its JSON file and from a job log is one measurement.
    QStringList parts{m.workloadId.toLower(),      m.gpuId,    QString::number(m.samplesPerSPerGpu, 'g', 12),
                      QString::number(m.gpuCount), m.offerKey, isoOrNull(m.measuredAt)};
    // Section 3.22: a document that only corrects the busy share is another measurement (absent: the key of
    // the documents before the field).
    if (m.gpuBusyFraction > 0)
        parts.append(QString::number(m.gpuBusyFraction, 'g', 12));
    const QString key = parts.join(QChar(0x1f));
    h.addData(key.toUtf8());
    return QString::fromLatin1(h.result().toHex());
}

} // namespace

Result<UserMeasurementAdded> CatalogStore::addUserMeasurement(const ThroughputMeasurement &m,
                                                              const QString &origin, const QByteArray &json)
{
    if (m.workloadId.trimmed().isEmpty() || m.gpuId.trimmed().isEmpty())
        return makeError(QStringLiteral("Cannot store a measurement without a workload and a GPU"));
    if (!(m.samplesPerSPerGpu > 0) || !std::isfinite(m.samplesPerSPerGpu))
        return makeError(
            QStringLiteral("Cannot store a measurement of %1 samples/s").arg(m.samplesPerSPerGpu));
    if (auto st = checkBeforeWrite(); !st)
        return st.error();
    if (auto future = store::futureDateError(
            QStringLiteral("the measurement of %1 on %2").arg(m.workloadId, m.gpuId), m.measuredAt))
        return *future;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString checksum = measurementChecksum(m);
    QSqlDatabase db = QSqlDatabase::database(m_connection);
    {
        QSqlQuery q(db);
        q.prepare(QStringLiteral("SELECT id FROM user_measurement WHERE checksum = ?"));
        q.addBindValue(checksum);
        if (!q.exec())
            return makeError(QStringLiteral("Cannot read the user measurements"), q.lastError().text());
        if (q.next())
            return UserMeasurementAdded{q.value(0).toLongLong(), true};
    }
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "INSERT INTO user_measurement(workload_id, gpu_id, samples_per_s_per_gpu, gpu_count, batch_per_gpu, "
        "precision, offer_key, source, measured_at, imported_at, origin, checksum, json) "
        "VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
    q.addBindValue(m.workloadId);
    q.addBindValue(m.gpuId);
    q.addBindValue(m.samplesPerSPerGpu);
    q.addBindValue(std::max(1, m.gpuCount));
    q.addBindValue(std::max(0, m.batchPerGpu));
    q.addBindValue(notNullText(m.precision));
    q.addBindValue(notNullText(m.offerKey));
    q.addBindValue(notNullText(m.source));
    q.addBindValue(nullableText(isoOrNull(m.measuredAt)));
    q.addBindValue(isoOrNull(now));
    q.addBindValue(notNullText(origin));
    q.addBindValue(checksum);
    q.addBindValue(QString::fromUtf8(json));
    if (!q.exec())
        return makeError(QStringLiteral("Cannot store the measurement"), q.lastError().text());
    return UserMeasurementAdded{q.lastInsertId().toLongLong(), false};
}

Result<QList<UserMeasurementRecord>> CatalogStore::userMeasurements() const
{
    QSqlQuery q(QSqlDatabase::database(m_connection));
    if (!q.exec(QStringLiteral(
            "SELECT id, workload_id, gpu_id, samples_per_s_per_gpu, gpu_count, batch_per_gpu, precision, "
            "offer_key, source, measured_at, imported_at, origin, json FROM user_measurement "
            "ORDER BY COALESCE(measured_at, imported_at) DESC, id DESC")))
        return makeError(QStringLiteral("Cannot read the user measurements"), q.lastError().text());
    QList<UserMeasurementRecord> out;
    while (q.next()) {
        UserMeasurementRecord r;
        r.id = q.value(0).toLongLong();
        ThroughputMeasurement &m = r.measurement;
        m.kind = MeasurementKind::User;
        m.workloadId = q.value(1).toString();
        m.gpuId = q.value(2).toString();
        m.samplesPerSPerGpu = q.value(3).toDouble();
        m.gpuCount = q.value(4).toInt();
        m.batchPerGpu = q.value(5).toInt();
        m.precision = q.value(6).toString();
        m.offerKey = q.value(7).toString();
        m.source = q.value(8).toString();
        m.measuredAt = parseIso(q.value(9).toString());
        r.importedAt = parseIso(q.value(10).toString());
        // Measured after it was imported (stored before such dates were refused): it counts as measured
        // when imported, so that it does not outrank newer measurements.
        if (m.measuredAt.isValid() && r.importedAt.isValid() &&
            m.measuredAt > r.importedAt.addSecs(store::kClockSkewS))
            m.measuredAt = r.importedAt;
        r.origin = q.value(11).toString();
        r.json = q.value(12).toString().toUtf8();
        // Section 3.22: how busy the GPU was, from the stored document (checked when it was imported).
        const QJsonObject stored = QJsonDocument::fromJson(r.json).object();
        m.gpuBusyFraction = gpuBusyFractionOf(stored).valueOr(0.0);
        m.gpuBusyMethod = gpuBusyMethodOf(stored).valueOr(BusyMethod::Unknown); // rule S4, section 3.27
        out.append(r);
    }
    return out;
}

Status CatalogStore::deleteUserMeasurement(qint64 id)
{
    if (auto st = checkBeforeWrite(); !st)
        return st;
    QSqlQuery q(QSqlDatabase::database(m_connection));
    q.prepare(QStringLiteral("DELETE FROM user_measurement WHERE id = ?"));
    q.addBindValue(id);
    if (!q.exec())
        return makeError(QStringLiteral("Cannot delete measurement %1").arg(id), q.lastError().text());
    if (q.numRowsAffected() < 1)
        return makeError(QStringLiteral("There is no measurement %1").arg(id));
    return Ok{};
}

} // namespace gf

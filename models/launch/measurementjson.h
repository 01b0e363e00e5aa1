#pragma once

#include "domain/throughputmeasurement.h"
#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

class GpuCatalog;

/// One measurement document (schema "gpufrontier-measurement", version 1: what gf_measure.py writes).
struct MeasurementDocument
{
    ThroughputMeasurement measurement; ///< kind User, source and offerKey filled
    QByteArray json;                   ///< the document, compact
    QString task;
    QString method;                             ///< "synthetic", "user-command", ...
    std::optional<double> projectedSamplesPerS; ///< what the plan projected for the whole node/job
    QStringList notes;
};

/// The measurement documents in a file's content: one JSON document, a JSON array of them, or a job log
/// holding lines "... GPUFRONTIER-MEASUREMENT {json}". `fileName` goes into the source text and messages.
/// Every document is checked: schema, workload, a known GPU id, samples/s > 0; the error names the file
/// and the document.
Result<QList<MeasurementDocument>> parseMeasurementFile(const QByteArray &content, const QString &fileName,
                                                        const GpuCatalog &gpus);

/// The highest samples/s per GPU a measurement document may state at all (any workload, any GPU); the
/// projection's own bounds (SpeedModel::implausibility) are far tighter.
inline constexpr double kMaxMeasuredSamplesPerS = 1e9;

/// The largest measurement file read (a measurement JSON or a saved job log). A file is held whole while
/// it is parsed; a longer log can be cut to its GPUFRONTIER-MEASUREMENT lines.
inline constexpr qint64 kMaxMeasurementFileBytes = qint64(64) * 1024 * 1024;

/// Reads the file at `path` and parses it (parseMeasurementFile). A file larger than `maxBytes` is
/// refused before it is read (and a device that grows while read is cut off at the limit): the error
/// names the file and the limit.
Result<QList<MeasurementDocument>> readMeasurementFile(const QString &path, const GpuCatalog &gpus,
                                                       qint64 maxBytes = kMaxMeasurementFileBytes);

} // namespace gf

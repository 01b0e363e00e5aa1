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

} // namespace gf

#pragma once

// A preset in a stack and its single-GPU projection, for the speed-model tests, header-only (they link the
// projection library and the fixtures only).

#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/speedmodel.h"

#include <QTimeZone>

namespace gf::test {

/// The built-in preset `id` in `stack`, at `batch` per GPU where it is given (0: the preset's own).
inline Workload presetIn(const QString &id, SoftwareStack stack, int batch = 0)
{
    for (const Workload &w : builtinWorkloads())
        if (w.id == id) {
            Workload c = batch > 0 ? withBatch(w, batch) : w;
            c.stack = stack;
            return c;
        }
    qFatal("no preset %s", qPrintable(id));
}

/// `w` projected on the built-in GPU `gpu` by `m`, with the user's figures `extra` (datasheet calibration).
inline SingleGpuSpeed projectedSpeed(const SpeedModel &m, const Workload &w, const QString &gpu,
                                     const ThroughputMeasurements &extra = {})
{
    const GpuSpec *s = GpuSpecTable::builtin().spec(gpu);
    if (!s)
        qFatal("no spec %s", qPrintable(gpu));
    return m.project(*s, w, m.anchorsFor(w, extra, GpuSpecTable::builtin()), defaultCalibration());
}

/// A user's own fp16 figure of `workloadId` on `gpu` at `batch` per GPU, measured on 2026-11-01.
inline ThroughputMeasurement userFigureOf(const QString &workloadId, const QString &gpu, double samplesPerS,
                                          int batch)
{
    ThroughputMeasurement m;
    m.workloadId = workloadId;
    m.gpuId = gpu;
    m.samplesPerSPerGpu = samplesPerS;
    m.batchPerGpu = batch;
    m.precision = QStringLiteral("fp16");
    m.kind = MeasurementKind::User;
    m.source = QStringLiteral("test");
    m.measuredAt = QDateTime(QDate(2026, 11, 1), QTime(12, 0), QTimeZone::utc());
    return m;
}

} // namespace gf::test

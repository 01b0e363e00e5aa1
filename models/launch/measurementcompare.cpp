#include "launch/measurementcompare.h"

#include "projection/speedmodel.h"

namespace gf {

QList<MeasurementComparison> compareMeasurements(const ThroughputMeasurements &measurements,
                                                 const QList<Workload> &workloads,
                                                 const Calibration &calibration, const GpuSpecTable &specs)
{
    QList<MeasurementComparison> out;
    out.reserve(measurements.size());
    for (const ThroughputMeasurement &m : measurements) {
        MeasurementComparison c;
        c.measurement = m;
        const Workload *w = findWorkload(workloads, m.workloadId);
        const GpuSpec *spec = specs.spec(m.gpuId);
        if (!w) {
            c.why = QStringLiteral("workload %1 is not a preset").arg(m.workloadId);
        } else if (!spec) {
            c.why = QStringLiteral("GPU %1 has no spec row").arg(m.gpuId);
        } else {
            // The model's own speed (model v2 without the user's measurements).
            const SpeedModel &model = SpeedModel::builtin();
            const SingleGpuSpeed t = model.project(*spec, *w, model.anchorsFor(*w, {}, specs), calibration);
            if (t.ok)
                c.projectedPerGpu = t.samplesPerS;
            else
                c.why = QStringLiteral("no rate for %1 on %2").arg(precisionName(w->precision), m.gpuId);
        }
        out.append(c);
    }
    return out;
}

} // namespace gf

#include "launch/measurementcompare.h"
#include "projection/stepfloor.h"

#include "projection/speedmodel.h"

namespace gf {

QString measurementImplausibility(const ThroughputMeasurement &m, const QList<Workload> &workloads,
                                  const GpuSpecTable &specs)
{
    const Workload *w = findWorkload(workloads, m.workloadId);
    return w ? SpeedModel::builtin().implausibility(m, *w, specs) : QString();
}

Status checkMeasurementsPlausible(const QList<MeasurementDocument> &documents, const QString &fileName,
                                  const QList<Workload> &workloads, const GpuSpecTable &specs)
{
    for (const MeasurementDocument &d : documents)
        if (const QString why = measurementImplausibility(d.measurement, workloads, specs); !why.isEmpty())
            return makeError(QStringLiteral("%1: the measurement of %2 on %3 is refused: %4")
                                 .arg(fileName, d.measurement.workloadId, d.measurement.gpuId, why));
    return Ok{};
}

QString offerLabel(const ThroughputMeasurement &m)
{
    return QString(m.offerKey).remove(QLatin1Char('/')).trimmed().isEmpty() ? QString() : m.offerKey;
}

QString gpuBusyText(const ThroughputMeasurement &m)
{
    if (!(m.gpuBusyFraction > 0))
        return {};
    const QString method = busyMethodName(m.gpuBusyMethod);
    const QString pct = QStringLiteral("%1 %").arg(busyPercentText(m.gpuBusyFraction)) +
                        (method.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(method));
    if (m.gpuBusyFraction < kHostBoundBusy)
        return pct + QStringLiteral(", host-bound");
    return SpeedModel::builtin().busyMayBeHostBound(m) ? pct + QStringLiteral(", maybe host-bound") : pct;
}

QString gpuBusyExplanation(const ThroughputMeasurement &m)
{
    if (!(m.gpuBusyFraction > 0))
        return {};
    const QString pct = busyPercentText(m.gpuBusyFraction);
    const QString by = m.gpuBusyMethod == BusyMethod::Profiler    ? QStringLiteral(" (by the profiler)")
                       : m.gpuBusyMethod == BusyMethod::NvidiaSmi ? QStringLiteral(" (by nvidia-smi)")
                                                                  : QStringLiteral(" (method not stated)");
    if (SpeedModel::builtin().busyMayBeHostBound(m))
        return QStringLiteral(
                   "The GPU was busy %1 % of each step%2, so this figure is carried as GPU-bound. But "
                   "nvidia-smi reads high: on our hosts every reading under %3 % was of a step the "
                   "profiler found host-bound, so the host may have set this speed; the ranges it gives "
                   "faster GPUs reach the floor its step would set (rule S4, PROJECTION.md section "
                   "3.27). A share measured by the profiler settles it: a launch plan's synthetic run of "
                   "a preset measures one.")
            .arg(pct, by, QString::number(kSmiGpuBoundBusy * 100, 'f', 0));
    if (m.gpuBusyFraction >= kHostBoundBusy)
        return QStringLiteral("The GPU was busy %1 % of each step%2: the GPU set this speed.").arg(pct, by);
    return QStringLiteral(
               "The GPU was busy only %1 % of each step%3 (under %2 %): it waited for the host (the CPU "
               "dispatching the kernels, or the input pipeline), which set this speed. A faster GPU would "
               "not shorten that step: carried to other NVIDIA GPUs, only the GPU-busy part scales and this "
               "step "
               "stays a floor (PROJECTION.md section 3.22). A larger batch, CUDA graphs or torch.compile "
               "would lift it. The model's projection here is of a GPU-bound step.")
        .arg(pct, QString::number(kHostBoundBusy * 100, 'f', 0), by);
}

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
        } else if (const QString bad = SpeedModel::builtin().implausibility(m, *w, specs); !bad.isEmpty()) {
            // Stored before such figures were refused: the projection leaves it out.
            c.why = QStringLiteral("quarantined, not used by the projection: ") + bad;
        } else if (!spec) {
            c.why = QStringLiteral("GPU %1 has no spec row").arg(m.gpuId);
        } else {
            // The model's own speed (model v2 without the user's measurements), at the measured batch.
            const Workload at = m.batchPerGpu > 0 ? withBatch(*w, m.batchPerGpu) : *w;
            const SpeedModel &model = SpeedModel::builtin();
            const SingleGpuSpeed t = model.project(*spec, at, model.anchorsFor(at, {}, specs), calibration);
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

#include "workloadbuilder.h"

namespace gf {

namespace {

/// The preset with every override but the measured speed applied.
Result<Workload> applyOverrides(const Workload &preset, const WorkloadOverrides &o)
{
    Workload w = preset;
    if (o.samplesPerEpoch)
        w.samplesPerEpoch = *o.samplesPerEpoch;
    if (o.epochs)
        w.epochs = *o.epochs;
    if (o.flopsPerSample)
        w.flopsPerSample = *o.flopsPerSample;
    if (o.bytesPerSample)
        w.bytesPerSample = *o.bytesPerSample;
    if (o.parameters)
        w.parameters = *o.parameters;
    if (o.memoryGb)
        w.memoryGb = *o.memoryGb;
    if (o.batchPerGpu)
        w = withBatch(w, *o.batchPerGpu);
    if (o.checkpointing) {
        auto switched = withCheckpointing(w, *o.checkpointing);
        if (!switched)
            return makeCodedError(QString::fromLatin1(kWorkloadCheckpointingError), switched.error().message,
                                  switched.error().detail);
        w = switched.value();
    }
    if (o.datasetGb)
        w.datasetGb = *o.datasetGb;
    if (o.minVcpusPerGpu)
        w.minVcpusPerGpu = *o.minVcpusPerGpu;
    if (o.precision)
        w.precision = *o.precision;
    return w;
}

/// The workload measured at `samplesPerS` on one `referenceGpu`: the FLOPs and bytes give the intensity.
Result<Workload> measuredWorkload(const Workload &w, double samplesPerS, const QString &referenceGpu,
                                  const GpuCatalog &gpus, const GpuSpecTable &specs)
{
    CustomWorkloadInput in;
    in.name = w.name;
    in.precision = w.precision;
    in.flopsPerSample = w.flopsPerSample;
    in.bytesPerSample = w.bytesPerSample;
    in.measuredSamplesPerS = samplesPerS;
    in.referenceGpu = referenceGpu;
    in.parameters = w.parameters;
    in.memoryGb = w.memoryGb;
    in.samplesPerEpoch = w.samplesPerEpoch;
    in.epochs = w.epochs;
    in.minVcpusPerGpu = w.minVcpusPerGpu;
    in.batchPerGpu = w.batchPerGpu;
    in.datasetGb = w.datasetGb;
    auto made = makeCustomWorkload(in, gpus, specs);
    if (!made)
        return made.error();
    Workload out = std::move(made).value();
    out.id = w.id;
    return out;
}

} // namespace

Result<Workload> buildWorkload(const Workload &preset, const WorkloadOverrides &overrides,
                               const GpuCatalog &gpus, const GpuSpecTable &specs)
{
    auto applied = applyOverrides(preset, overrides);
    if (!applied)
        return applied.error();
    Workload w = std::move(applied).value();
    if (overrides.measuredSamplesPerS) {
        auto measured =
            measuredWorkload(w, *overrides.measuredSamplesPerS, overrides.referenceGpu, gpus, specs);
        if (!measured)
            return measured.error();
        w = std::move(measured).value();
    } else if (overrides.changesArithmetic()) {
        w.kind = WorkloadKind::CustomFlops;
    }
    if (overrides.stack)
        w.stack = *overrides.stack;
    if (auto v = validateWorkload(w); !v)
        return v.error();
    return w;
}

} // namespace gf

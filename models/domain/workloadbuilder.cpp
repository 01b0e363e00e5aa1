#include "workloadbuilder.h"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"

namespace gf {

namespace {

/// The preset with every override but the measured speed applied.
Result<Workload> applyOverrides(const Workload &preset, const WorkloadOverrides &o)
{
    // The recipe first (PROJECTION.md section 3.23): the batch re-derives the bytes per sample and the
    // checkpointing switch the FLOPs, bytes and memory, so the explicit figures below describe the chosen
    // recipe (the report's reproduce command compares them against presetRecipe()).
    auto recipe = presetRecipe(preset, o.batchPerGpu, o.checkpointing);
    if (!recipe)
        return recipe.error();
    Workload w = std::move(recipe).value();
    if (o.samplesPerEpoch)
        w.samplesPerEpoch = *o.samplesPerEpoch;
    if (o.epochs)
        w.epochs = *o.epochs;
    if (o.flopsPerSample)
        w.flopsPerSample = *o.flopsPerSample;
    if (o.bytesPerSample)
        w.bytesPerSample = *o.bytesPerSample;
    if (o.parameters) {
        w.parameters = *o.parameters;
        if (const auto m = recipeMemoryGb(w); m && !o.memoryGb)
            w.memoryGb = *m; // the memory formula with the typed parameters
    }
    if (o.memoryGb)
        w.memoryGb = *o.memoryGb;
    if (o.datasetGb)
        w.datasetGb = *o.datasetGb;
    if (o.minVcpusPerGpu)
        w.minVcpusPerGpu = *o.minVcpusPerGpu;
    if (o.precision)
        w.precision = *o.precision;
    return w;
}

/// What belongs to a measured speed, given without one: the error saying so.
std::optional<Error> measuredExtrasWithoutSpeed(const WorkloadOverrides &o)
{
    if (o.measuredSamplesPerS)
        return std::nullopt;
    if (o.measuredGpuBusy)
        return makeError(
            QStringLiteral("the GPU busy share belongs to a measured speed (give the speed and its GPU)"));
    if (o.measuredBatchPerGpu)
        return makeError(QStringLiteral(
            "the batch a speed was measured at belongs to a measured speed (give the speed and its GPU)"));
    return std::nullopt;
}

/// The workload measured at `samplesPerS` on one `referenceGpu`: the FLOPs and bytes give the intensity.
Result<Workload> measuredWorkload(const Workload &w, double samplesPerS, const QString &referenceGpu,
                                  std::optional<double> gpuBusy, std::optional<int> measuredBatch,
                                  const GpuCatalog &gpus, const GpuSpecTable &specs)
{
    CustomWorkloadInput in;
    in.name = w.name;
    in.precision = w.precision;
    in.flopsPerSample = w.flopsPerSample;
    in.bytesPerSample = w.bytesPerSample;
    in.measuredSamplesPerS = samplesPerS;
    in.referenceGpu = referenceGpu;
    in.measuredGpuBusy = gpuBusy;
    in.measuredBatchPerGpu = measuredBatch;
    in.parameters = w.parameters;
    in.memoryGb = w.memoryGb;
    in.samplesPerEpoch = w.samplesPerEpoch;
    in.epochs = w.epochs;
    in.minVcpusPerGpu = w.minVcpusPerGpu;
    in.batchPerGpu = w.batchPerGpu;
    in.datasetGb = w.datasetGb;
    in.workloadClass = w.workloadClass;
    auto made = makeCustomWorkload(in, gpus, specs);
    if (!made)
        return made.error();
    Workload out = std::move(made).value();
    out.id = w.id;
    out.gradientCheckpointing = w.gradientCheckpointing; // the recipe the figure was measured with
    return out;
}

} // namespace

Result<Workload> presetRecipe(const Workload &preset, std::optional<int> batchPerGpu,
                              std::optional<bool> checkpointing)
{
    Workload w = batchPerGpu ? withBatch(preset, *batchPerGpu) : preset;
    if (checkpointing) {
        auto switched = withCheckpointing(w, *checkpointing);
        if (!switched)
            return makeCodedError(QString::fromLatin1(kWorkloadCheckpointingError), switched.error().message,
                                  switched.error().detail);
        w = std::move(switched).value();
    }
    return w;
}

Result<Workload> buildWorkload(const Workload &preset, const WorkloadOverrides &overrides,
                               const GpuCatalog &gpus, const GpuSpecTable &specs)
{
    auto applied = applyOverrides(preset, overrides);
    if (!applied)
        return applied.error();
    Workload w = std::move(applied).value();
    if (auto orphan = measuredExtrasWithoutSpeed(overrides))
        return *orphan;
    if (overrides.measuredSamplesPerS) {
        auto measured =
            measuredWorkload(w, *overrides.measuredSamplesPerS, overrides.referenceGpu,
                             overrides.measuredGpuBusy, overrides.measuredBatchPerGpu, gpus, specs);
        if (!measured)
            return measured.error();
        w = std::move(measured).value();
    } else if (overrides.changesArithmetic()) {
        w.kind = WorkloadKind::CustomFlops;
    }
    if (overrides.stack)
        w.stack = *overrides.stack;
    if (overrides.workloadClass)
        w.workloadClass = *overrides.workloadClass;
    if (auto v = validateWorkload(w); !v)
        return v.error();
    return w;
}

Result<Workload> buildWorkloadSpec(const WorkloadSpec &spec)
{
    const WorkloadOverrides &o = spec.overrides;
    if (!spec.preset.isEmpty()) {
        const Workload *preset = findWorkload(builtinWorkloads(), spec.preset);
        if (!preset) {
            QStringList ids;
            for (const Workload &b : builtinWorkloads())
                ids.append(b.id);
            return makeCodedError(QString::fromLatin1(kWorkloadUnknownPresetError),
                                  QStringLiteral("unknown workload \"%1\" (known: %2)")
                                      .arg(spec.preset, ids.join(QStringLiteral(", "))));
        }
        return buildWorkload(*preset, o, GpuCatalog::builtin(), GpuSpecTable::builtin());
    }
    if (o.checkpointing)
        return makeCodedError(QString::fromLatin1(kWorkloadCheckpointingError),
                              QStringLiteral("a custom workload has no checkpointing figures (give its "
                                             "memory and FLOPs per sample for the recipe)"));
    if (!o.samplesPerEpoch)
        return makeError(QStringLiteral("custom workload: samples per epoch are required"));
    CustomWorkloadInput in;
    if (!spec.name.trimmed().isEmpty())
        in.name = spec.name;
    in.precision = o.precision.value_or(Precision::Fp16);
    in.flopsPerSample = o.flopsPerSample;
    in.bytesPerSample = o.bytesPerSample;
    in.measuredSamplesPerS = o.measuredSamplesPerS;
    in.referenceGpu = o.referenceGpu;
    if (auto orphan = measuredExtrasWithoutSpeed(o))
        return *orphan;
    in.measuredGpuBusy = o.measuredGpuBusy;
    in.measuredBatchPerGpu = o.measuredBatchPerGpu;
    in.parameters = o.parameters.value_or(0);
    in.memoryGb = o.memoryGb.value_or(0);
    in.samplesPerEpoch = *o.samplesPerEpoch;
    in.epochs = o.epochs.value_or(1);
    in.minVcpusPerGpu = o.minVcpusPerGpu.value_or(0);
    in.batchPerGpu = o.batchPerGpu.value_or(32);
    in.datasetGb = o.datasetGb.value_or(0);
    in.workloadClass = o.workloadClass.value_or(WorkloadClass::Unknown);
    auto made = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
    if (!made)
        return made.error();
    Workload w = std::move(made).value();
    w.stack = o.stack.value_or(SoftwareStack::Typical);
    return w;
}

} // namespace gf

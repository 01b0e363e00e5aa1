#pragma once

#include "domain/workload.h"
#include "util/result.h"

#include <optional>

namespace gf {

class GpuCatalog;
class GpuSpecTable;

/// What a front end changes on a preset: the CLI's --samples, --precision, --flops-per-sample …, the
/// workload panel's boxes. An unset field keeps the preset's value.
struct WorkloadOverrides
{
    std::optional<double> samplesPerEpoch;
    std::optional<double> epochs;
    std::optional<Precision> precision;
    // The model's arithmetic: any of these makes the workload CustomFlops (the preset's measured
    // benchmarks describe the preset's model, not this one).
    std::optional<double> flopsPerSample;
    std::optional<double> bytesPerSample;
    std::optional<double> parameters;
    std::optional<double> memoryGb;
    // The recipe and the machine around it: the workload stays a preset.
    std::optional<int> batchPerGpu;
    std::optional<bool> checkpointing; ///< where the preset offers it, else an error
    std::optional<double> datasetGb;
    std::optional<double> minVcpusPerGpu;
    std::optional<SoftwareStack> stack; ///< how the user's code runs (projection section 3.6)
    /// What kind of network it is (projection section 3.8); a preset has its own, a custom workload
    /// without one is WorkloadClass::Unknown.
    std::optional<WorkloadClass> workloadClass;
    /// A speed measured on one GPU of referenceGpu: the workload becomes CustomMeasured, the preset's
    /// FLOPs and bytes (after the overrides above) giving the intensity.
    std::optional<double> measuredSamplesPerS;
    QString referenceGpu;
    /// With measuredSamplesPerS: the share of each measured step the GPU was busy, (0, 1] (section 3.22).
    std::optional<double> measuredGpuBusy;
    /// With measuredSamplesPerS: the batch per GPU it was measured at, when not batchPerGpu (section 3.25).
    std::optional<int> measuredBatchPerGpu;

    /// True when the model's arithmetic is changed (flops, bytes, parameters or memory).
    bool changesArithmetic() const { return flopsPerSample || bytesPerSample || parameters || memoryGb; }
};

/// Error::code of buildWorkload when checkpointing cannot be switched for the preset.
inline constexpr auto kWorkloadCheckpointingError = "workload-checkpointing";

/// The preset as its recipe makes it: at the batch (withBatch: the per-step traffic and the memory follow),
/// then with checkpointing switched (withCheckpointing); an error with code kWorkloadCheckpointingError when
/// the preset offers no checkpointing. The baseline of buildWorkload, of the report's reproduce command and
/// of the scenario comparison.
Result<Workload> presetRecipe(const Workload &preset, std::optional<int> batchPerGpu,
                              std::optional<bool> checkpointing);

/// The one rule both front ends build a workload by: the preset's recipe (presetRecipe: batch, then
/// checkpointing), then the other overrides (samples, epochs, arithmetic -- typed figures describe the chosen
/// recipe; typed parameters recompute the memory unless it is typed too -- data set, vCPUs, precision, in
/// that order), then
///  - a measured speed makes it CustomMeasured (makeCustomWorkload, the preset's id kept);
///  - else a change of the model's arithmetic makes it CustomFlops;
///  - else it stays a Preset: a precision change alone keeps the preset's measured benchmarks where the
///    projection can use them at that precision.
/// The result is validated (validateWorkload); a checkpointing switch the preset does not offer fails
/// with code kWorkloadCheckpointingError.
Result<Workload> buildWorkload(const Workload &preset, const WorkloadOverrides &overrides,
                               const GpuCatalog &gpus, const GpuSpecTable &specs);

/// A workload as a front end describes it (the CLI's flags, the workload panel's boxes, a scenario
/// file): a preset and what changes on it, or a custom workload's own fields.
struct WorkloadSpec
{
    QString preset;              ///< a built-in preset's id; empty = a custom workload
    QString name;                ///< a custom workload's name (empty: "custom")
    WorkloadOverrides overrides; ///< preset: the changes; custom: every field given (samples required)
};

/// Error::code of buildWorkloadSpec for a preset id that names no built-in preset.
inline constexpr auto kWorkloadUnknownPresetError = "workload-unknown-preset";

/// The workload of a spec: a preset by buildWorkload (over the built-in presets, GPU catalog and
/// specs), a custom workload by makeCustomWorkload (samples per epoch and either FLOPs per sample or a
/// measured speed required; no checkpointing figures), validated. Errors keep the codes of the two
/// (kWorkloadCheckpointingError, "unknown-gpu") and kWorkloadUnknownPresetError.
Result<Workload> buildWorkloadSpec(const WorkloadSpec &spec);

} // namespace gf

#pragma once

#include "domain/gpuspecs.h"
#include "util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

class GpuCatalog;

/// Where a workload's speed comes from.
enum class WorkloadKind : quint8
{
    Preset,         ///< resources/workloads.json: FLOPs and bytes per sample
    CustomFlops,    ///< the user gives FLOPs (and optionally bytes) per sample
    CustomMeasured, ///< the user measured samples/s on a named GPU model; other GPUs are scaled from it
};

/// Which software runs the workload (PROJECTION.md section 3.6): the user's PyTorch script as most people
/// write it (eager, a standard data loader: the default), or vendor-tuned code such as NVIDIA's
/// DeepLearningExamples, MLPerf submissions or llm.c, which the shipped measurements mostly come from.
enum class SoftwareStack : quint8
{
    Typical,
    Tuned,
};
/// "typical" / "tuned".
QString softwareStackName(SoftwareStack stack);
/// The stack of a name ("typical", "tuned"; case-insensitive), nullopt for anything else.
std::optional<SoftwareStack> softwareStackFromName(QStringView name);

/// What kind of network a workload trains (PROJECTION.md section 3.8): the typical stack's achieved
/// efficiency is fitted per GPU architecture and class. Unknown uses no class factor and a wider range.
enum class WorkloadClass : quint8
{
    Unknown,
    Convolutional,
    Transformer,
    RecurrentSpeech,
    Detection,
};
/// "unknown", "convolutional", "transformer", "recurrent-speech", "detection".
QString workloadClassName(WorkloadClass c);
/// The class of a name (case-insensitive), nullopt for anything else.
std::optional<WorkloadClass> workloadClassFromName(QStringView name);
/// Every class name, unknown last ("convolutional", ..., "unknown").
QStringList workloadClassNames();

/// A training workload: what one run must compute (see resources/GPUS.md for the preset numbers).
struct Workload
{
    QString id;
    QString name;
    Precision precision = Precision::Fp16;
    double flopsPerSample = 0; ///< forward + backward FLOPs per sample (a multiply-add = 2 FLOPs)
    double bytesPerSample = 0; ///< GPU DRAM traffic per sample, bytes (0 = not given: the model
                               ///< assumes its class's traffic, PROJECTION.md sections 3.9 and 3.29)
    double parameters = 0;     ///< trainable parameters (all-reduced in data-parallel training)
    double memoryGb = 0;       ///< GPU memory needed per GPU at batchPerGpu; 0 = unknown (no check)
    double samplesPerEpoch = 0;
    double epochs = 1;         ///< may be fractional
    double minVcpusPerGpu = 0; ///< below this the input pipeline starves the GPU (flagged)
    int batchPerGpu = 32;      ///< micro-batch per GPU: sets the per-step gradient exchange
    QString sampleUnit = QStringLiteral("samples");
    QString notes;

    WorkloadKind kind = WorkloadKind::Preset;
    SoftwareStack stack = SoftwareStack::Typical; ///< how the user's code runs (projection section 3.6)
    WorkloadClass workloadClass = WorkloadClass::Unknown; ///< presets: workloads.json "class"
    double measuredSamplesPerS = 0; ///< CustomMeasured: samples/s the user measured on one GPU
    QString referenceGpuId;         ///< CustomMeasured: canonical id of that GPU
    /// CustomMeasured: the share of each measured step the GPU was busy, (0, 1]; 0 = not given (PROJECTION.md
    /// section 3.22: under 0.8 the host set the speed and the step is a floor on other GPUs).
    double measuredGpuBusy = 0;
    /// CustomMeasured: the batch per GPU the speed was measured at; 0 = batchPerGpu's (PROJECTION.md
    /// section 3.25, rule Y: a host-bound step is a floor at its own batch, b / step at batch b).
    int measuredBatchPerGpu = 0;

    // Memory breakdown (resources/GPUS.md "Memory per GPU"); presets only. memoryGb, flopsPerSample and
    // bytesPerSample always describe the current recipe: change it with withCheckpointing()/withBatch().
    double totalParameters = 0;         ///< every parameter resident on the GPU; 0 = no breakdown
    bool gradientCheckpointing = false; ///< the current recipe's setting
    QString optimizer;                  ///< "adamw", "sgd-momentum"
    double weightBytesPerTrainableParam = 0;
    double weightBytesPerFrozenParam = 0;
    double gradientBytesPerParam = 0;
    double optimizerBytesPerParam = 0;
    std::optional<double> activationBytesPerSample;             ///< without checkpointing
    std::optional<double> activationBytesPerSampleCheckpointed; ///< nullopt: checkpointing not offered
    std::optional<double> recomputeFlopsPerSample;              ///< what checkpointing adds
    std::optional<double> recomputeBytesPerSample;
    double workspaceGb = 0; ///< CUDA context, library workspaces, allocator slack (GiB)

    // Input pipeline and staging
    double cpuCoreSecondsPerSample = 0; ///< vCPU-seconds of input pipeline per sample; 0 = no CPU cap
    double datasetGb = 0;               ///< data set to stage before training, GB (1e9 B)
    double pretrainedWeightsGb = 0;     ///< pretrained checkpoint to stage, GB

    double totalSamples() const { return samplesPerEpoch * epochs; }
    /// GB to stage before training: data set + pretrained weights.
    double stagedGb() const { return datasetGb + pretrainedWeightsGb; }
    /// The breakdown fields are present, so memoryGib() can recompute the memory.
    bool hasMemoryBreakdown() const { return totalParameters > 0 && activationBytesPerSample.has_value(); }
    /// Gradient checkpointing has figures for this workload.
    bool checkpointingOffered() const
    {
        return activationBytesPerSampleCheckpointed.has_value() && recomputeFlopsPerSample.has_value();
    }
};

/// GPUS.md "Memory per GPU": (P_t x (w_t + g + o) + (P_total - P_t) x w_f + batch x A(c)) / 2^30 + workspace,
/// in GiB, with A(c) the activation bytes per sample with or without checkpointing. nullopt without a
/// breakdown (custom workloads) or when checkpointing is asked for but not offered.
std::optional<double> memoryGib(const Workload &w, int batch, bool checkpointing);
/// memoryGib() at the workload's own batch and checkpointing, rounded up to 0.1 GiB (the unit of memory_gb);
/// nullopt without a breakdown.
std::optional<double> recipeMemoryGb(const Workload &w);
/// FLOPs per sample of the recipe with checkpointing on or off (the current recipe +/- the recompute).
double flopsWithCheckpointing(const Workload &w, bool checkpointing);
/// Bytes per sample of the recipe with checkpointing on or off.
double bytesWithCheckpointing(const Workload &w, bool checkpointing);
/// The workload with gradient checkpointing switched: FLOPs, bytes and memory follow. An error when the
/// workload offers no checkpointing figures (ResNet-50, custom workloads).
Result<Workload> withCheckpointing(const Workload &w, bool checkpointing);
/// Per-step traffic per trainable parameter that a workload's bytes_per_sample counts at its batch (weights,
/// gradients, optimizer state): the definition of workloads.json, and model_v2.json's
/// bytes_per_param_per_step.
inline constexpr double kWorkloadBytesPerParamPerStep = 40.0;
/// Reads of the frozen weights per step that bytes_per_sample counts (GPUS.md): forward and backward, plus
/// the recompute under gradient checkpointing (which recompute_bytes_per_sample counts once).
inline int frozenWeightReadsPerStep(bool checkpointing)
{
    return checkpointing ? 3 : 2;
}
/// Bytes of frozen weights one read of them moves: weight_bytes_per_frozen_param x (total - trainable).
double frozenWeightBytes(const Workload &w);
/// The part of a workload's bytes per sample that is paid once per step and spread over the batch:
/// 40 B per trainable parameter plus the frozen weights' reads, at the current recipe's checkpointing.
double perStepBytes(const Workload &w);
/// The workload at another micro-batch per GPU (PROJECTION.md section 3.23, rule U): the per-step traffic
/// (perStepBytes) is spread over the new batch (bytes = activations + per-step / batch, the activations part
/// kept; a workload whose bytes are below the per-step share keeps them; the recompute bytes likewise for
/// their one frozen read), and the memory is recomputed by the formula when the workload has a breakdown
/// (else memoryGb stays as given).
Workload withBatch(const Workload &w, int batchPerGpu);

/// Checks a workload; the message names the field and the rule, e.g.
/// "workload \"x\": flops_per_sample must be a positive number (got -1)".
Status validateWorkload(const Workload &w);

/// The workload as JSON, in the shape of the report's "workload" object (resources/report.schema.json);
/// the CLI's `frontier`, `gpus` and `workloads` use the same shape.
QJsonObject workloadToJson(const Workload &w);

/// Parses resources/workloads.json ({"schema_version":1,"workloads":[...]}); every preset is validated.
Result<QList<Workload>> workloadsFromJson(const QByteArray &json);
/// The presets shipped inside the application.
const QList<Workload> &builtinWorkloads();
/// Finds a workload by id (case-insensitive); nullptr when none matches.
const Workload *findWorkload(const QList<Workload> &list, QStringView id);

/// What a user types to describe a workload that is not a preset.
struct CustomWorkloadInput
{
    QString name = QStringLiteral("custom");
    Precision precision = Precision::Fp16;
    std::optional<double> flopsPerSample;      ///< (b) FLOPs per sample
    std::optional<double> bytesPerSample;      ///< optional with (a) and (b)
    std::optional<double> measuredSamplesPerS; ///< (a) measured samples/s on referenceGpu (one GPU)
    QString referenceGpu;                      ///< (a) GPU id or any alias ("A100", "NVIDIA H100 80GB HBM3")
    std::optional<double> measuredGpuBusy;     ///< (a) share of the step the GPU was busy, (0, 1]
    std::optional<int> measuredBatchPerGpu;    ///< (a) the batch it was measured at (default: batchPerGpu)
    double parameters = 0;
    double memoryGb = 0;
    double samplesPerEpoch = 0;
    double epochs = 1;
    double minVcpusPerGpu = 0;
    int batchPerGpu = 32;
    double datasetGb = 0;               ///< GB to stage before training (0: nothing staged)
    double cpuCoreSecondsPerSample = 0; ///< input pipeline cost (0: no CPU cap)
    WorkloadClass workloadClass = WorkloadClass::Unknown;
};

/// Builds and validates a custom workload. A measured workload needs a reference GPU that
/// resolves to a canonical id with a spec row and a peak rate for the precision.
Result<Workload> makeCustomWorkload(const CustomWorkloadInput &in, const GpuCatalog &gpus,
                                    const GpuSpecTable &specs);

} // namespace gf

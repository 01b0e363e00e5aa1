#include "domain/workload.h"

#include "domain/gpucatalog.h"
#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>
#include <QSet>

#include <algorithm>

#include <cmath>

namespace gf {

QString softwareStackName(SoftwareStack stack)
{
    return stack == SoftwareStack::Tuned ? QStringLiteral("tuned") : QStringLiteral("typical");
}

std::optional<SoftwareStack> softwareStackFromName(QStringView name)
{
    for (SoftwareStack s : {SoftwareStack::Typical, SoftwareStack::Tuned})
        if (name.compare(softwareStackName(s), Qt::CaseInsensitive) == 0)
            return s;
    return std::nullopt;
}

QString workloadClassName(WorkloadClass c)
{
    switch (c) {
    case WorkloadClass::Convolutional:
        return QStringLiteral("convolutional");
    case WorkloadClass::Transformer:
        return QStringLiteral("transformer");
    case WorkloadClass::RecurrentSpeech:
        return QStringLiteral("recurrent-speech");
    case WorkloadClass::Detection:
        return QStringLiteral("detection");
    case WorkloadClass::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

namespace {
/// Every workload class, in the order the names are listed to a user.
constexpr WorkloadClass kWorkloadClasses[] = {WorkloadClass::Convolutional, WorkloadClass::Transformer,
                                              WorkloadClass::RecurrentSpeech, WorkloadClass::Detection,
                                              WorkloadClass::Unknown};
} // namespace

QStringList workloadClassNames()
{
    QStringList out;
    for (WorkloadClass c : kWorkloadClasses)
        out.append(workloadClassName(c));
    return out;
}

std::optional<WorkloadClass> workloadClassFromName(QStringView name)
{
    for (WorkloadClass c : kWorkloadClasses)
        if (name.trimmed().compare(workloadClassName(c), Qt::CaseInsensitive) == 0)
            return c;
    return std::nullopt;
}

namespace {

// Sanity ceilings: far above any real workload, low enough to catch unit mistakes and overflow.
constexpr double kMaxFlopsPerSample = 1e21; // 1 ZFLOP per sample
constexpr double kMaxBytesPerSample = 1e18;
constexpr double kMaxParameters = 1e14;
constexpr double kMaxMemoryGb = 1e6;
constexpr double kMaxSamplesPerEpoch = 1e15;
constexpr double kMaxEpochs = 1e6;
constexpr double kMaxSamplesPerS = 1e12;
constexpr double kMaxVcpusPerGpu = 1024;
constexpr int kMaxBatch = 1 << 24;

QString label(const Workload &w)
{
    return QStringLiteral("workload \"%1\"").arg(w.id.isEmpty() ? w.name : w.id);
}

Error rangeError(const Workload &w, const QString &field, const QString &rule, double v)
{
    return makeError(
        QStringLiteral("%1: %2 must be %3 (got %4)").arg(label(w), field, rule, QString::number(v, 'g', 6)));
}

bool inRange(double v, double lo, double hi, bool loInclusive)
{
    return std::isfinite(v) && (loInclusive ? v >= lo : v > lo) && v <= hi;
}

} // namespace

Status validateWorkload(const Workload &w)
{
    if (w.id.trimmed().isEmpty())
        return makeError(QStringLiteral("workload \"%1\": the id is empty").arg(w.name));
    if (w.name.trimmed().isEmpty())
        return makeError(QStringLiteral("%1: the name is empty").arg(label(w)));
    const QString positive = QStringLiteral("a positive number");
    const QString nonNegative = QStringLiteral("a number >= 0");
    if (w.kind == WorkloadKind::CustomMeasured) {
        if (!inRange(w.measuredSamplesPerS, 0, kMaxSamplesPerS, false))
            return rangeError(w, QStringLiteral("measured samples/s"), positive, w.measuredSamplesPerS);
        if (w.referenceGpuId.isEmpty())
            return makeError(
                QStringLiteral("%1: a measured speed needs the GPU it was measured on").arg(label(w)));
        if (!(w.measuredGpuBusy >= 0 && w.measuredGpuBusy <= 1))
            return rangeError(w, QStringLiteral("GPU busy share of the measurement"),
                              QStringLiteral("a share between 0 and 1 (0: not given)"), w.measuredGpuBusy);
        if (w.measuredBatchPerGpu < 0 || w.measuredBatchPerGpu > kMaxBatch)
            return rangeError(
                w, QStringLiteral("batch per GPU of the measurement"),
                QStringLiteral("a whole number from 1 to %1 (0: the workload's batch)").arg(kMaxBatch),
                w.measuredBatchPerGpu);
        if (!inRange(w.flopsPerSample, 0, kMaxFlopsPerSample, true))
            return rangeError(w, QStringLiteral("flops_per_sample"), nonNegative, w.flopsPerSample);
    } else if (!inRange(w.flopsPerSample, 0, kMaxFlopsPerSample, false)) {
        return rangeError(w, QStringLiteral("flops_per_sample"), positive, w.flopsPerSample);
    }
    if (!inRange(w.bytesPerSample, 0, kMaxBytesPerSample, true))
        return rangeError(w, QStringLiteral("bytes_per_sample"), nonNegative, w.bytesPerSample);
    if (!inRange(w.parameters, 0, kMaxParameters, true))
        return rangeError(w, QStringLiteral("parameters"), nonNegative, w.parameters);
    if (!inRange(w.memoryGb, 0, kMaxMemoryGb, true))
        return rangeError(w, QStringLiteral("memory_gb"), nonNegative, w.memoryGb);
    if (!inRange(w.samplesPerEpoch, 0, kMaxSamplesPerEpoch, false))
        return rangeError(w, QStringLiteral("samples_per_epoch"), positive, w.samplesPerEpoch);
    if (!inRange(w.epochs, 0, kMaxEpochs, false))
        return rangeError(w, QStringLiteral("epochs"), positive, w.epochs);
    if (!inRange(w.minVcpusPerGpu, 0, kMaxVcpusPerGpu, true))
        return rangeError(w, QStringLiteral("min_vcpus_per_gpu"), nonNegative, w.minVcpusPerGpu);
    if (w.batchPerGpu < 1 || w.batchPerGpu > kMaxBatch)
        return rangeError(w, QStringLiteral("batch_per_gpu"), QStringLiteral("a whole number >= 1"),
                          w.batchPerGpu);
    if (w.totalParameters != 0 && !(w.totalParameters >= w.parameters && w.totalParameters <= kMaxParameters))
        return rangeError(w, QStringLiteral("total_parameters"), QStringLiteral(">= parameters"),
                          w.totalParameters);
    for (const auto &[name, v] :
         {std::pair{"weight_bytes_per_trainable_param", w.weightBytesPerTrainableParam},
          std::pair{"weight_bytes_per_frozen_param", w.weightBytesPerFrozenParam},
          std::pair{"gradient_bytes_per_param", w.gradientBytesPerParam},
          std::pair{"optimizer_bytes_per_param", w.optimizerBytesPerParam},
          std::pair{"activation_bytes_per_sample", w.activationBytesPerSample.value_or(0)},
          std::pair{"activation_bytes_per_sample_checkpointed",
                    w.activationBytesPerSampleCheckpointed.value_or(0)},
          std::pair{"recompute_flops_per_sample", w.recomputeFlopsPerSample.value_or(0)},
          std::pair{"recompute_bytes_per_sample", w.recomputeBytesPerSample.value_or(0)}})
        if (!inRange(v, 0, kMaxBytesPerSample, true))
            return rangeError(w, QLatin1StringView(name), nonNegative, v);
    if (!inRange(w.workspaceGb, 0, 64, true))
        return rangeError(w, QStringLiteral("workspace_gb"), QStringLiteral("between 0 and 64"),
                          w.workspaceGb);
    if (!inRange(w.cpuCoreSecondsPerSample, 0, 10, true))
        return rangeError(w, QStringLiteral("cpu_core_seconds_per_sample"),
                          QStringLiteral("between 0 and 10"), w.cpuCoreSecondsPerSample);
    if (!inRange(w.datasetGb, 0, 1e6, true))
        return rangeError(w, QStringLiteral("dataset_gb"), QStringLiteral("between 0 and 1e6"), w.datasetGb);
    if (!inRange(w.pretrainedWeightsGb, 0, 1e6, true))
        return rangeError(w, QStringLiteral("pretrained_weights_gb"), QStringLiteral("between 0 and 1e6"),
                          w.pretrainedWeightsGb);
    return Ok{};
}

Result<QList<Workload>> workloadsFromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("workloads: not valid JSON"), pe.errorString());
    if (!doc.isObject())
        return makeError(QStringLiteral("workloads: the document must be an object"));
    const QJsonObject root = doc.object();
    if (root.value(u"schema_version").toInt(-1) != 1)
        return makeError(QStringLiteral("workloads: unsupported schema_version (expected 1)"));
    if (!root.value(u"workloads").isArray())
        return makeError(QStringLiteral("workloads: \"workloads\" must be an array"));

    QList<Workload> out;
    QSet<QString> ids;
    const QJsonArray arr = root.value(u"workloads").toArray();
    for (qsizetype i = 0; i < arr.size(); ++i) {
        if (!arr.at(i).isObject())
            return makeError(QStringLiteral("workloads: entry %1 is not an object").arg(i + 1));
        const QJsonObject o = arr.at(i).toObject();
        Workload w;
        w.id = o.value(u"id").toString().trimmed();
        w.name = o.value(u"name").toString().trimmed();
        const QString where = QStringLiteral("workloads: entry %1 (%2)").arg(i + 1).arg(w.id);
        QString missing;
        auto number = [&](QStringView key, bool required, double fallback) -> double {
            const QJsonValue v = o.value(key);
            if (v.isUndefined() || v.isNull()) {
                if (required && missing.isEmpty())
                    missing = key.toString();
                return fallback;
            }
            if (!v.isDouble()) {
                if (missing.isEmpty())
                    missing = key.toString() + QStringLiteral(" (not a number)");
                return fallback;
            }
            return v.toDouble();
        };
        const QString prec = o.value(u"precision").toString();
        const auto p = precisionFromName(prec);
        if (!p)
            return makeError(QStringLiteral("%1: unknown precision \"%2\" (known: %3)")
                                 .arg(where, prec, precisionNames().join(QStringLiteral(", "))));
        w.precision = *p;
        if (o.contains(u"class")) {
            const QString cls = o.value(u"class").toString();
            const auto c = workloadClassFromName(cls);
            if (!c)
                return makeError(QStringLiteral("%1: unknown class \"%2\" (known: %3)")
                                     .arg(where, cls, workloadClassNames().join(QStringLiteral(", "))));
            w.workloadClass = *c;
        }
        w.flopsPerSample = number(u"flops_per_sample", true, 0);
        w.bytesPerSample = number(u"bytes_per_sample", true, 0);
        w.parameters = number(u"parameters", true, 0);
        w.memoryGb = number(u"memory_gb", true, 0);
        w.samplesPerEpoch = number(u"samples_per_epoch", true, 0);
        w.epochs = number(u"epochs", true, 0);
        w.minVcpusPerGpu = number(u"min_vcpus_per_gpu", false, 0);
        const double batch = number(u"batch_per_gpu", false, 32);
        if (!missing.isEmpty())
            return makeError(QStringLiteral("%1: missing or bad field %2").arg(where, missing));
        if (!std::isfinite(batch) || batch != std::floor(batch) || batch < 1 || batch > kMaxBatch)
            return makeError(QStringLiteral("%1: batch_per_gpu must be a whole number >= 1").arg(where));
        w.batchPerGpu = static_cast<int>(batch);
        if (o.contains(u"sample_unit"))
            w.sampleUnit = o.value(u"sample_unit").toString();
        w.notes = o.value(u"notes").toString();
        // Memory breakdown, input pipeline and staging (all optional).
        auto optional = [&](QStringView key) -> std::optional<double> {
            const QJsonValue v = o.value(key);
            if (v.isUndefined() || v.isNull())
                return std::nullopt;
            if (!v.isDouble() && missing.isEmpty())
                missing = key.toString() + QStringLiteral(" (not a number)");
            return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
        };
        w.totalParameters = number(u"total_parameters", false, 0);
        w.gradientCheckpointing = o.value(u"gradient_checkpointing").toBool(false);
        w.optimizer = o.value(u"optimizer").toString();
        w.weightBytesPerTrainableParam = number(u"weight_bytes_per_trainable_param", false, 0);
        w.weightBytesPerFrozenParam = number(u"weight_bytes_per_frozen_param", false, 0);
        w.gradientBytesPerParam = number(u"gradient_bytes_per_param", false, 0);
        w.optimizerBytesPerParam = number(u"optimizer_bytes_per_param", false, 0);
        w.activationBytesPerSample = optional(u"activation_bytes_per_sample");
        w.activationBytesPerSampleCheckpointed = optional(u"activation_bytes_per_sample_checkpointed");
        w.recomputeFlopsPerSample = optional(u"recompute_flops_per_sample");
        w.recomputeBytesPerSample = optional(u"recompute_bytes_per_sample");
        w.workspaceGb = number(u"workspace_gb", false, 0);
        w.cpuCoreSecondsPerSample = number(u"cpu_core_seconds_per_sample", false, 0);
        w.datasetGb = number(u"dataset_gb", false, 0);
        w.pretrainedWeightsGb = number(u"pretrained_weights_gb", false, 0);
        if (!missing.isEmpty())
            return makeError(QStringLiteral("%1: missing or bad field %2").arg(where, missing));
        if (w.gradientCheckpointing && !w.checkpointingOffered())
            return makeError(
                QStringLiteral("%1: gradient_checkpointing is true but the checkpointed activation "
                               "and recompute figures are missing")
                    .arg(where));
        if (auto v = validateWorkload(w); !v)
            return makeError(QStringLiteral("workloads: %1").arg(v.error().message));
        if (ids.contains(w.id.toLower()))
            return makeError(QStringLiteral("%1: duplicate id").arg(where));
        ids.insert(w.id.toLower());
        out.append(w);
    }
    return out;
}

const QList<Workload> &builtinWorkloads()
{
    static const QList<Workload> list = [] {
        auto r = workloadsFromJson(readResource(QStringLiteral("workloads.json")));
        if (!r)
            qFatal("The built-in workload presets are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return list;
}

const Workload *findWorkload(const QList<Workload> &list, QStringView id)
{
    const QStringView key = id.trimmed();
    for (const Workload &w : list)
        if (key.compare(w.id, Qt::CaseInsensitive) == 0)
            return &w;
    return nullptr;
}

Result<Workload> makeCustomWorkload(const CustomWorkloadInput &in, const GpuCatalog &gpus,
                                    const GpuSpecTable &specs)
{
    Workload w;
    w.name = in.name.trimmed().isEmpty() ? QStringLiteral("custom") : in.name.trimmed();
    w.id = QStringLiteral("custom");
    w.precision = in.precision;
    w.parameters = in.parameters;
    w.memoryGb = in.memoryGb;
    w.samplesPerEpoch = in.samplesPerEpoch;
    w.epochs = in.epochs;
    w.minVcpusPerGpu = in.minVcpusPerGpu;
    w.batchPerGpu = in.batchPerGpu;
    w.datasetGb = in.datasetGb;
    w.cpuCoreSecondsPerSample = in.cpuCoreSecondsPerSample;
    w.workloadClass = in.workloadClass;
    w.flopsPerSample = in.flopsPerSample.value_or(0);
    w.bytesPerSample = in.bytesPerSample.value_or(0);
    if (in.measuredSamplesPerS) {
        w.kind = WorkloadKind::CustomMeasured;
        w.measuredSamplesPerS = *in.measuredSamplesPerS;
        w.measuredGpuBusy = in.measuredGpuBusy.value_or(0);
        w.measuredBatchPerGpu = in.measuredBatchPerGpu.value_or(0);
        if (in.referenceGpu.trimmed().isEmpty())
            return makeError(
                QStringLiteral("custom workload: a measured speed needs the GPU it was measured on"));
        QString id;
        if (specs.spec(in.referenceGpu.trimmed()))
            id = in.referenceGpu.trimmed();
        else if (auto r = gpus.resolve(QString(), in.referenceGpu))
            id = *r;
        if (id.isEmpty())
            return makeCodedError(
                QStringLiteral("unknown-gpu"),
                QStringLiteral("custom workload: unknown GPU \"%1\" (not a GPU id or name of the GPU table)")
                    .arg(in.referenceGpu));
        const GpuSpec *s = specs.spec(id);
        if (!s)
            return makeError(
                QStringLiteral("custom workload: GPU %1 has no spec row, so nothing can be scaled from it")
                    .arg(id));
        if (!s->effectivePrecision(in.precision))
            return makeError(QStringLiteral("custom workload: GPU %1 has no published %2 rate")
                                 .arg(id, precisionName(in.precision)));
        w.referenceGpuId = id;
    } else if (in.flopsPerSample) {
        w.kind = WorkloadKind::CustomFlops;
    } else {
        return makeError(
            QStringLiteral("custom workload: give either FLOPs per sample or samples/s measured on a GPU"));
    }
    if (auto v = validateWorkload(w); !v)
        return v.error();
    return w;
}

QJsonObject workloadToJson(const Workload &w)
{
    QJsonObject o;
    o.insert(u"id", w.id);
    o.insert(u"name", w.name);
    o.insert(u"kind", w.kind == WorkloadKind::Preset        ? QStringLiteral("preset")
                      : w.kind == WorkloadKind::CustomFlops ? QStringLiteral("custom-flops")
                                                            : QStringLiteral("custom-measured"));
    o.insert(u"precision", precisionName(w.precision));
    o.insert(u"stack", softwareStackName(w.stack));
    o.insert(u"class", workloadClassName(w.workloadClass));
    o.insert(u"flops_per_sample", w.flopsPerSample);
    o.insert(u"bytes_per_sample", w.bytesPerSample);
    o.insert(u"parameters", w.parameters);
    o.insert(u"memory_gb", w.memoryGb);
    o.insert(u"samples_per_epoch", w.samplesPerEpoch);
    o.insert(u"epochs", w.epochs);
    o.insert(u"total_samples", w.totalSamples());
    o.insert(u"sample_unit", w.sampleUnit);
    o.insert(u"batch_per_gpu", w.batchPerGpu);
    o.insert(u"min_vcpus_per_gpu", w.minVcpusPerGpu);
    const bool measured = w.kind == WorkloadKind::CustomMeasured;
    o.insert(u"measured_samples_per_s",
             measured ? QJsonValue(w.measuredSamplesPerS) : QJsonValue(QJsonValue::Null));
    o.insert(u"measured_on", measured && !w.referenceGpuId.isEmpty() ? QJsonValue(w.referenceGpuId)
                                                                     : QJsonValue(QJsonValue::Null));
    o.insert(u"measured_gpu_busy_fraction", measured && w.measuredGpuBusy > 0 ? QJsonValue(w.measuredGpuBusy)
                                                                              : QJsonValue(QJsonValue::Null));
    o.insert(u"measured_batch_per_gpu",
             measured && w.measuredBatchPerGpu > 0 && w.measuredBatchPerGpu != w.batchPerGpu
                 ? QJsonValue(w.measuredBatchPerGpu)
                 : QJsonValue(QJsonValue::Null));
    o.insert(u"gradient_checkpointing", w.gradientCheckpointing);
    o.insert(u"cpu_core_seconds_per_sample", w.cpuCoreSecondsPerSample);
    o.insert(u"dataset_gb", w.datasetGb);
    o.insert(u"pretrained_weights_gb", w.pretrainedWeightsGb);
    return o;
}

std::optional<double> memoryGib(const Workload &w, int batch, bool checkpointing)
{
    if (!w.hasMemoryBreakdown() || batch < 1)
        return std::nullopt;
    const std::optional<double> act =
        checkpointing ? w.activationBytesPerSampleCheckpointed : w.activationBytesPerSample;
    if (!act)
        return std::nullopt;
    const double trainable = w.parameters;
    const double frozen = std::max(0.0, w.totalParameters - w.parameters);
    const double bytes =
        trainable * (w.weightBytesPerTrainableParam + w.gradientBytesPerParam + w.optimizerBytesPerParam) +
        frozen * w.weightBytesPerFrozenParam + batch * *act;
    return bytes / (1024.0 * 1024.0 * 1024.0) + w.workspaceGb;
}

std::optional<double> recipeMemoryGb(const Workload &w)
{
    if (const auto m = memoryGib(w, w.batchPerGpu, w.gradientCheckpointing))
        return std::ceil(*m * 10.0 - 1e-9) / 10.0;
    return std::nullopt;
}

double flopsWithCheckpointing(const Workload &w, bool checkpointing)
{
    const double extra = w.recomputeFlopsPerSample.value_or(0);
    if (checkpointing == w.gradientCheckpointing)
        return w.flopsPerSample;
    return checkpointing ? w.flopsPerSample + extra : std::max(0.0, w.flopsPerSample - extra);
}

double bytesWithCheckpointing(const Workload &w, bool checkpointing)
{
    const double extra = w.recomputeBytesPerSample.value_or(0);
    if (checkpointing == w.gradientCheckpointing)
        return w.bytesPerSample;
    return checkpointing ? w.bytesPerSample + extra : std::max(0.0, w.bytesPerSample - extra);
}

Result<Workload> withCheckpointing(const Workload &w, bool checkpointing)
{
    if (checkpointing == w.gradientCheckpointing)
        return w;
    if (!w.checkpointingOffered())
        return makeError(QStringLiteral("%1: gradient checkpointing is not offered for this workload (no "
                                        "checkpointed activation and recompute figures)")
                             .arg(label(w)));
    Workload out = w;
    out.flopsPerSample = flopsWithCheckpointing(w, checkpointing);
    out.bytesPerSample = bytesWithCheckpointing(w, checkpointing);
    out.gradientCheckpointing = checkpointing;
    if (const auto m = recipeMemoryGb(out))
        out.memoryGb = *m;
    return out;
}

double frozenWeightBytes(const Workload &w)
{
    return std::max(0.0, w.weightBytesPerFrozenParam) * std::max(0.0, w.totalParameters - w.parameters);
}

double perStepBytes(const Workload &w)
{
    return kWorkloadBytesPerParamPerStep * std::max(0.0, w.parameters) +
           frozenWeightReadsPerStep(w.gradientCheckpointing) * frozenWeightBytes(w);
}

Workload withBatch(const Workload &w, int batchPerGpu)
{
    Workload out = w;
    out.batchPerGpu = batchPerGpu;
    if (batchPerGpu == w.batchPerGpu || batchPerGpu <= 0 || w.batchPerGpu <= 0)
        return out;
    // What is paid once per step moves with the batch; what is paid per sample stays.
    const auto rescale = [&](double bytes, double perStep) {
        const double perSample = bytes - perStep / w.batchPerGpu;
        return perSample >= 0 ? perSample + perStep / batchPerGpu : bytes;
    };
    if (const double perStep = perStepBytes(w); w.bytesPerSample > 0 && perStep > 0)
        out.bytesPerSample = rescale(w.bytesPerSample, perStep);
    if (const double frozen = frozenWeightBytes(w); w.recomputeBytesPerSample && frozen > 0)
        out.recomputeBytesPerSample = rescale(*w.recomputeBytesPerSample, frozen);
    if (const auto m = recipeMemoryGb(out))
        out.memoryGb = *m;
    return out;
}

} // namespace gf

#pragma once

#include "domain/workload.h"
#include "projection/modelconstants.h"
#include "util/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <algorithm>
#include <optional>

namespace gf {

/// The conversion from the tuned software stacks most shipped measurements come from to the PyTorch
/// script most users run (PROJECTION.md section 3.6), as fitted by resources/tools/fit_typical_stack.py
/// into resources/benchmarks/typical_stack.json:
///
///     1 / speed_typical = 1 / speed_tuned + F / (R_o x 1e12)
///
/// a per-sample overhead (framework, unfused element-wise kernels, launch gaps, data loading) that does
/// not shrink on a faster GPU, written as the time to run the workload's F FLOPs per sample at a fitted
/// rate R_o (TFLOP/s) of its workload family. It costs a slow GPU little and the newest ones most.
/// What a fit of the typical stack produces: R_o per preset and for custom workloads, and ln eta per GPU
/// architecture and workload class (PROJECTION.md section 3.8), keyed "architecture/class".
struct TypicalStackFit
{
    QHash<QString, double> overheadTflopsByPreset;
    double overheadTflopsCustom = 0;
    QHash<QString, double> classLogFactors;
    /// Bytes per FLOP of a custom workload given without its bytes, by class name (section 3.9).
    QHash<QString, double> defaultBytesPerFlop;
    /// The traffic factor m behind it, by class name ("unknown": the common m; section 3.12).
    QHash<QString, double> trafficFactor;
    /// R_o of a custom workload of a class pooled over that class's presets (rules H3 and M, sections 3.18
    /// and 3.20), by class name; a class without an entry takes overheadTflopsCustom.
    QHash<QString, double> overheadTflopsCustomByClass;
};

/// A fold of a held-out split: the fit made without any measurement of one source or architecture
/// (resources/tools/fit_typical_stack.py --write).
struct TypicalStackFold
{
    QString heldOut; ///< the source id or the architecture
    TypicalStackFit fit;
};

struct TypicalStack
{
    QHash<QString, double> overheadTflopsByPreset; ///< R_o per preset id
    double overheadTflopsCustom = 0;               ///< R_o of a custom workload (all families pooled)
    /// R_o of a custom workload of a class, pooled over that class's presets (rules H3 and M, 3.18, 3.20): by
    /// class name; a class without an entry takes overheadTflopsCustom.
    QHash<QString, double> overheadTflopsCustomByClass;
    LogRange range; ///< held-out spread of the conversion, ln(projected/true)
    /// The same for a custom workload (no rows of its own, the pooled R_o): the leave-one-workload-out
    /// spread of the presets' rows (section 3.10).
    LogRange rangeCustom;
    QString basis; ///< one line: the data the fit rests on
    /// ln eta per "architecture/class": the typical stack's achieved efficiency on GPUs of an
    /// architecture for workloads of a class, relative to the model (section 3.8). Empty: none.
    QHash<QString, double> classLogFactors;
    /// Added (in quadrature) to the range of a workload of unknown class: no factor is applied.
    LogRange unknownClassRange;
    /// The range of a GPU whose architecture has no typical-stack measurement of the workload's class
    /// (of any class, for an unknown class), for a preset or custom workload projected from the shipped
    /// data: the p10/p90 of the leave-one-architecture-out errors of the typical-stack rows. The point's
    /// range is the wider of it and its own on each side (section 3.10).
    LogRange newArchitectureRange;
    /// The same for a user's own figure carried to a GPU of such an architecture: the p10/p90 of the
    /// leave-one-architecture-out errors of the transfer pairs.
    LogRange newArchitectureRangeTransfer;
    /// Rule AD (section 3.30): a user's figure carried to another GPU at a micro-batch this many times larger
    /// or smaller than the figure's own takes batchChangeRangeTransfer as well (the wider on each side): the
    /// p10/p90 of such pairs' leave-one-workload-out errors. 0: no such range (a file written before it).
    double batchChangeMinRatio = 0;
    /// How many times apart two micro-batches are, either way (>= 1); 0 where either is not stated (rule AD
    /// compares it with batchChangeMinRatio).
    static double batchesApart(int a, int b)
    {
        return a > 0 && b > 0 ? std::max(static_cast<double>(a) / b, static_cast<double>(b) / a) : 0.0;
    }
    LogRange batchChangeRangeTransfer;
    /// The leave-one-source-out and leave-one-architecture-out folds (`gpufrontier-cli validate`
    /// projects what each holds out with its fit).
    QList<TypicalStackFold> sourceFolds;
    QList<TypicalStackFold> architectureFolds;
    /// GPU memory traffic per FLOP (bytes) of a custom workload given without its bytes per sample, by
    /// workload class name ("unknown" included): the presets' own bytes per FLOP of the class times the
    /// typical stack's fitted traffic factor (section 3.9); divided by it, the tuned stack's default (rule
    /// AC, section 3.29). Empty: such a workload is compute-bound.
    QHash<QString, double> defaultBytesPerFlop;
    /// The traffic factor m of each class ("typical_traffic_factor", "unknown" = the common m, section
    /// 3.12): defaultBytesPerFlop is the presets' bytes per FLOP times it. Empty: not stated.
    QHash<QString, double> trafficFactor;
    /// Rule I (section 3.18): the preset whose tuned-stack GPU-to-GPU shape a custom workload of a class
    /// takes in the typical stack ("class_reference_preset": {class: preset id}), instead of the roofline
    /// with the class's bytes per FLOP. Empty: every custom workload keeps the roofline.
    QHash<QString, QString> classReferencePreset;

    bool empty() const { return overheadTflopsByPreset.isEmpty() && !(overheadTflopsCustom > 0); }
    /// R_o for a workload: its preset's, else the custom one of its class (pooled over every preset where
    /// the class has none of its own); 0 = no conversion.
    double overheadTflops(const QString &presetId, bool custom,
                          WorkloadClass c = WorkloadClass::Unknown) const;
    /// Whether overheadTflops takes a pooled R_o: a custom workload, or a preset without rows of its own
    /// (held out of a validation fold).
    bool pooledOverhead(const QString &presetId, bool custom) const
    {
        return custom || !overheadTflopsByPreset.contains(presetId);
    }
    /// ln eta of GPUs of `architecture` for workloads of class `c`; nullopt when not fitted (no
    /// measurement of the class on the architecture) or the class is unknown.
    std::optional<double> classLogFactor(const QString &architecture, WorkloadClass c) const;
    /// The architecture has a typical-stack measurement of class `c` (of any class for Unknown).
    bool architectureMeasured(const QString &architecture, WorkloadClass c) const;
    /// The bytes per FLOP a custom workload of class `c` without its own bytes per sample is given; 0: none.
    double defaultBytesPerFlopOf(WorkloadClass c) const
    {
        return defaultBytesPerFlop.value(workloadClassName(c), 0.0);
    }
    /// This conversion with a fold's fitted constants (R_o, class factors, default traffic); ranges kept.
    TypicalStack withFit(const TypicalStackFit &fit) const;
    /// The per-sample overhead of F FLOPs at R_o, seconds.
    static double overheadS(double flopsPerSample, double overheadTflops)
    {
        return flopsPerSample / (overheadTflops * 1e12);
    }
    /// The formula: 1 / (1 / tuned + overhead).
    static double speed(double tunedSamplesPerS, double overheadS)
    {
        return 1.0 / (1.0 / tunedSamplesPerS + overheadS);
    }

    /// Parses typical_stack.json ({"schema_version":1,"overhead_tflops":{preset: R_o},
    /// "overhead_tflops_custom":R_o,"range":{"p10":..,"p90":..},"basis":"..."}, and optionally
    /// "range_custom", "class_factors":{arch:{class: ln eta}}, "unknown_class_range",
    /// "new_architecture_range" and "new_architecture_range_transfer" {"p10","p90"},
    /// "batch_change_range_transfer" {"p10","p90","min_batch_ratio" > 1},
    /// "overhead_tflops_custom_by_class":{class: R_o},
    /// "leave_one_source_out":[{"source", "overhead_tflops", "overhead_tflops_custom", "class_factors"}],
    /// "leave_one_architecture_out":[{"architecture", ...}], "default_bytes_per_flop":{class: bytes per
    /// FLOP}, "typical_traffic_factor":{class: m}, also in each fold; "class_reference_preset":{class: preset
    /// id}, top level only). The error names the key that is wrong.
    static Result<TypicalStack> fromJson(const QByteArray &json);
    /// The conversion shipped inside the application.
    static const TypicalStack &builtin();
};

} // namespace gf

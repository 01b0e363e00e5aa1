#pragma once

#include "projection/modelconstants.h"
#include "util/result.h"

#include <QByteArray>
#include <QHash>
#include <QString>

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
struct TypicalStack
{
    QHash<QString, double> overheadTflopsByPreset; ///< R_o per preset id
    double overheadTflopsCustom = 0;               ///< R_o of a custom workload (all families pooled)
    LogRange range;                                ///< held-out spread of the conversion, ln(projected/true)
    QString basis;                                 ///< one line: the data the fit rests on

    bool empty() const { return overheadTflopsByPreset.isEmpty() && !(overheadTflopsCustom > 0); }
    /// R_o for a workload: its preset's, else the custom one for a custom workload; 0 = no conversion.
    double overheadTflops(const QString &presetId, bool custom) const;
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
    /// "overhead_tflops_custom":R_o,"range":{"p10":..,"p90":..},"basis":"..."}).
    static Result<TypicalStack> fromJson(const QByteArray &json);
    /// The conversion shipped inside the application.
    static const TypicalStack &builtin();
};

} // namespace gf

#pragma once

#include "domain/gpuspecs.h"
#include "projection/speedmodel.h"
#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// One measurement of code run the way most users run it (resources/benchmarks/typical_stack_rows.csv).
struct TypicalStackRow
{
    QString sourceId;
    QString presetId;
    QString gpuId;
    int batchPerGpu = 0;
    double samplesPerS = 0; ///< per GPU, one GPU
    bool use = true;
    QString excludeReason;
};

/// Reads typical_stack_rows.csv; an error names the row and the column that is wrong.
Result<QList<TypicalStackRow>> parseTypicalStackRows(const QString &csvText);
/// The rows shipped inside the application.
const QList<TypicalStackRow> &builtinTypicalStackRows();

/// One row seen by the validation: the tuned-stack projection at its batch and what was measured.
struct TypicalStackObservation
{
    TypicalStackRow row;
    double flopsPerSample = 0;
    double tuned = 0;          ///< samples/s, tuned stack, no user measurement, datasheet calibration
    LogRange tunedRange;       ///< the tier's range of that projection
    double classLogFactor = 0; ///< ln eta of the row's architecture and class, all data (section 3.8)
    double overheadTflops = 0; ///< R_o used (fitted without the row's source)
    double foldLogFactor = 0;  ///< ln eta used (fitted without the row's source)
    double typical = 0;        ///< the held-out typical-stack projection
};

/// Leave one source out (PROJECTION.md section 3.6): R_o refitted without each source, its rows projected.
struct TypicalStackSplit
{
    QString heldOutSource;
    int n = 0;
    double medianBefore = 0, maxBefore = 0; ///< |ln(tuned / measured)|
    double medianAfter = 0, maxAfter = 0;   ///< |ln(typical / measured)|
};

struct TypicalStackValidation
{
    QList<TypicalStackObservation> heldOut; ///< every used row, projected without its source
    QList<TypicalStackSplit> splits;        ///< one per source, then "all"
    LogRange range;                         ///< p10/p90 of the held-out log errors
    double coverageBefore = 0;              ///< share of rows inside the tuned tier range
    double coverageAfter = 0;               ///< inside the tier range combined with `range`
    QStringList excluded;                   ///< "source / preset / gpu: reason"
};

/// R_o (TFLOP/s) minimising sum (ln(typical / measured))^2 over the observations, the tuned speed times
/// the observation's class factor (golden-section search on ln R_o in [ln 10, ln 1e5], as
/// resources/tools/fit_typical_stack.py given the class factors); 0 without observations.
double fitOverheadTflops(const QList<TypicalStackObservation> &obs);

/// The held-out validation of the typical-stack conversion over `rows` with the model's tuned stack: each
/// source's rows projected with the fit made without it (the conversion's sourceFolds; without a fold,
/// R_o is refitted here on the other sources with the all-data class factors).
TypicalStackValidation validateTypicalStack(const SpeedModel &model, const GpuSpecTable &specs,
                                            const QList<TypicalStackRow> &rows);

} // namespace gf

#pragma once

#include "domain/gpuspecs.h"
#include "projection/modelconstants.h"
#include "projection/speedmodel.h"
#include "util/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace gf {

/// One measured figure of a held-out split (model_v2.json "held_out_splits", written by
/// resources/tools/fit_projection.py --write): a workload in one software stack on one GPU, with the shape
/// the fitter gave it. B = activationBytes + kappa x paramsPerSample (the fold's kappa).
struct SplitObservation
{
    QString workload; ///< the source's workload (training_throughput.csv workload_src)
    QString stack;
    QString gpuId;
    QString rowId;
    Precision precision = Precision::Fp16;
    double flops = 0;           ///< per sample
    double activationBytes = 0; ///< per sample
    double paramsPerSample = 0; ///< trainable parameters / batch
    double measured = 0;        ///< per GPU, in the source's unit
};

/// A held-out figure projected from reference figures of its group (same workload, stack and precision).
struct SplitCase
{
    int target = -1; ///< index into HeldOutSplit::observations
    QList<int> references;
};

/// The constants fitted without what the fold holds out, and its cases.
struct SplitFold
{
    QString heldOut; ///< a GPU id, a source id or the time split's cut-off
    ModelConstants constants;
    /// The p10-p90 transferred range of the fold's own training data, where the fitter computed one.
    std::optional<LogRange> range;
    QList<SplitCase> cases;
};

/// Median and max |log error| and the share of held-out figures inside the p10-p90 range.
struct SplitSummary
{
    int n = 0;
    double median = 0;
    double max = 0;
    double coverageShipped = 0;              ///< inside the shipped tier range (what the app shows)
    std::optional<double> coverageFoldRange; ///< inside the fold's own range (folds that have one)
};

/// One split: leave one GPU out, leave one source out or the time split.
struct HeldOutSplit
{
    QString id;    ///< leave_one_gpu_out, leave_one_source_out, time_split
    QString title; ///< one line
    QList<SplitObservation> observations;
    QList<SplitFold> folds;
    SplitSummary toolSummary; ///< fit_projection.py's figures for the same cases (fit_projection_summary)
};

struct HeldOutSplits
{
    QList<HeldOutSplit> splits;

    /// Parses the "held_out_splits" object of a model_v2.json document. The constants of a fold that lacks
    /// one start from `base` (the shipped model's). An error names the split, fold or observation and the
    /// key that is wrong.
    static Result<HeldOutSplits> fromJson(const QByteArray &json, const ModelConstants &base);
    /// The splits shipped inside the application (resources/benchmarks/model_v2.json).
    static const HeldOutSplits &builtin();
};

/// One held-out figure projected by the app's model with its fold's constants.
struct SplitRow
{
    QString heldOut;
    QString workload;
    QString stack;
    QString gpuId;
    ProjectionTier tier = ProjectionTier::None; ///< transferred or transferred-cross-arch
    int references = 0;
    double measured = 0;
    double projected = 0;
    double logError = 0; ///< ln(projected / measured)
    bool insideShipped = false;
    std::optional<bool> insideFoldRange;
};

struct SplitValidation
{
    QString id;
    QString title;
    int folds = 0;
    QList<SplitRow> rows;
    SplitSummary summary;
    SplitSummary toolSummary;
};

/// Every case of every split projected through `model`'s code (SpeedModel::relativeSpeed and the
/// transferred tier's weighted level) with its fold's constants; the coverage is that of the tier ranges
/// of `model` (the shipped ones). An error names a GPU that has no datasheet row or a figure the model
/// cannot project.
Result<QList<SplitValidation>> validateHeldOutSplits(const SpeedModel &model, const GpuSpecTable &specs,
                                                     const HeldOutSplits &splits);

} // namespace gf

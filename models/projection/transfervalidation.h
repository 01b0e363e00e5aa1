#pragma once

#include "domain/gpuspecs.h"
#include "projection/errorsummary.h"
#include "projection/speedmodel.h"
#include "projection/typicalstackvalidation.h"
#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

namespace gf {

/// A workload of the transfer validation (resources/benchmarks/transfer_workloads.csv): what a user would
/// give for it, its FLOPs per sample, and its class (convolutional, transformer, recurrent-speech,
/// detection).
struct TransferWorkload
{
    QString id;
    QString workloadClass;
    QString unit;
    double flopsPerSample = 0;
};

/// One measured 1-GPU figure (resources/benchmarks/transfer_rows.csv).
struct TransferRow
{
    QString sourceId;
    QString workload;
    QString gpuId;
    int batchPerGpu = 0; ///< 0: not stated by the source
    double samplesPerS = 0;
};

/// Rule V (PROJECTION.md section 3.24): a source scored apart. Its pairs are never fitted and stay out of
/// every pooled figure, fold and range (RYU-PT-2025: eager-PyTorch CNN timings at batch 12 without an
/// optimizer step, largely the host's kernel launches); `validate` scores them in their own lines.
bool transferSourceScoredApart(const QString &sourceId);
/// Rule V's split of those pairs, fixed before their figures: "heavy" workloads from ResNet-50's arithmetic
/// up (4 GMAC forward, 24 GFLOPs per sample for training), "light" below.
inline constexpr double kApartHeavyFlopsPerSample = 24e9;

struct TransferData
{
    QList<TransferWorkload> workloads;
    QList<TransferRow> rows;

    /// The rows of the sources scored apart (`apart`) or of the others, and the workloads they measure.
    TransferData scoredApart(bool apart) const;

    /// Parses both files; an error names the file (`workloadsFile`, `rowsFile`), the record and the column
    /// that is wrong, and a row of a workload the first file does not list.
    static Result<TransferData> parse(const QString &workloadsCsv, const QString &rowsCsv,
                                      const QString &workloadsFile = QStringLiteral("transfer_workloads.csv"),
                                      const QString &rowsFile = QStringLiteral("transfer_rows.csv"));
    /// The files shipped inside the application.
    static const TransferData &builtin();
    /// Protocol AB (PROJECTION.md section 3.29): MLPerf Training's other workloads, one workload per group
    /// (round, workload, nodes x GPUs per node: "WORKLOAD@ROUND:NODESxGPUS"), per-GPU figures
    /// (mlperf_extra_workloads.csv, mlperf_extra_rows.csv).
    static const TransferData &mlperfExtra();
};

/// One GPU's figure taken as the user's (`--measured S --measured-on FROM` with the workload's FLOPs) and
/// carried to another GPU of the same workload by the app's projection (typical stack: "your own stack").
struct TransferPair
{
    QString sourceId; ///< the source of the workload's figures (transfer_rows.csv source_id)
    QString workload;
    QString workloadClass;
    QString fromGpu;
    QString toGpu;
    ProjectionTier tier = ProjectionTier::None;
    int fromBatch = 0;    ///< the batch of the user's figure (0: not stated)
    int toBatch = 0;      ///< the batch of the target's own figure (0: not stated)
    double measured = 0;  ///< the target GPU's own figure
    double projected = 0; ///< from the user's figure on fromGpu
    double logError = 0;  ///< ln(projected / measured)
    LogRange range;       ///< the point's range of ln(projected / true)
    bool inside = false;  ///< the measured figure lies in the point's p10-p90 range
};

/// Rule AD (PROJECTION.md section 3.30): both batches stated and `minRatio` or more apart, either way.
bool batchesApart(const TransferPair &p, double minRatio);

using TransferSummary = ErrorSummary;

struct TransferValidation
{
    QString headlineGpu;       ///< the user's GPU of the headline figures
    QList<TransferPair> pairs; ///< every (from, to) pair of every workload
    TransferSummary all;       ///< every pair
    /// The pairs whose two figures share a stated batch: the app projects the user's batch and a source
    /// runs each GPU at its own, which a host-bound step does not survive (PROJECTION.md section 3.24).
    TransferSummary sameBatch;
    /// The pairs of two stated batches at least TypicalStack::batchChangeMinRatio apart, either way: those
    /// whose range rule AD widens (section 3.30). Empty where the stack has no such range.
    TransferSummary batchChange;
    TransferSummary fromHeadline;      ///< the pairs whose user GPU is headlineGpu
    QList<TransferSummary> byWorkload; ///< from headlineGpu, per workload (transfer_workloads.csv order)
    QList<TransferSummary> byClass;    ///< from headlineGpu, per class
    /// Every GPU as the user's, per source (sorted by id): a source never fitted (MLI-TFMR-2024,
    /// LAMBDA-TF-2021) is a held-out test as it stands (PROJECTION.md sections 3.14 and 3.18).
    QList<TransferSummary> bySource;
    /// The same figures carried with the workload's class left out (the unknown class: no class factor,
    /// its own bytes per FLOP and range; PROJECTION.md section 3.16): every pair, and from headlineGpu.
    TransferSummary allClassNotGiven;
    TransferSummary fromHeadlineClassNotGiven;
    /// The same figures given without FLOPs per sample, class given (the workload panel's "Measured speed on
    /// a GPU": the figure is the whole level, carried by the model's ratios; PROJECTION.md section 3.18):
    /// every pair, from headlineGpu, and per source.
    TransferSummary allWithoutFlops;
    TransferSummary fromHeadlineWithoutFlops;
    QList<TransferSummary> bySourceWithoutFlops;
    QStringList skipped; ///< "workload / GPU: why" (a figure the app quarantines, ...)
    /// The sources scored apart (rule V), every GPU as the user's: their pairs, and the summaries of all of
    /// them, the heavy and the light workloads, and each ordered pair of GPUs ("from -> to").
    QList<TransferPair> apartPairs;
    QList<TransferSummary> apart;
};

/// Every figure of `data` in turn as a user's own measurement, every other GPU of its workload projected
/// with it through buildWorkloadSpec, SpeedModel::anchorsFor and SpeedModel::project (datasheet
/// calibration, no stored measurements), against that GPU's own figure. The sources scored apart fill
/// `apartPairs` and `apart` only; the folds below leave them out.
TransferValidation validateUserTransfer(const SpeedModel &model, const GpuSpecTable &specs,
                                        const TransferData &data,
                                        const QString &headlineGpu = QStringLiteral("a100-80gb-sxm4"));

/// Protocol AB (PROJECTION.md section 3.29): each GPU's figure of a group of TransferData::mlperfExtra()
/// taken as a user's in the tuned stack (vendor-tuned code, as MLPerf's) and carried to the group's other
/// GPUs. Scored, never fitted. The summaries: every pair, per target architecture (gpu_arch.csv, in
/// first-seen order), from an Ampere GPU to an Ada, Hopper or Blackwell one, from Hopper to Blackwell, from
/// an NVIDIA GPU to an AMD (CDNA) one, and per MLPerf workload. A group ("WORKLOAD@ROUND:NODESxGPUS") holds
/// systems of one layout.
struct TunedTransferValidation
{
    QList<TransferPair> pairs;
    QList<TransferSummary> lines;
    QStringList skipped;
    /// Rule AG's time split (PROJECTION.md section 3.31; VendorLevels' held-out rounds and levels): the pairs
    /// of the test rounds with another vendor's GPU on either side, projected without any level and with the
    /// levels derived from the earlier rounds alone. Empty where the model's levels have no time split.
    QList<TransferSummary> heldOutLevels;
};
TunedTransferValidation validateTunedTransfer(const SpeedModel &model, const GpuSpecTable &specs,
                                              const TransferData &data);

/// One architecture or source held out of the typical stack's fit (PROJECTION.md sections 3.8 and 3.11:
/// "leave one architecture out", "leave one source out"): the pairs and rows it holds out projected with
/// the fit made without them (TypicalStack::architectureFolds / sourceFolds).
struct HeldOutFold
{
    QString heldOut;              ///< the architecture or the source id
    TransferSummary pairs;        ///< the pairs it holds out (see the two functions below)
    TransferSummary fromHeadline; ///< of them, those from the headline GPU
    TransferSummary rows;         ///< its typical-stack rows (typical_stack_rows.csv)
    /// Rule Z (PROJECTION.md 3.26): its rows' errors relative to their reference rows
    /// (typicalStackReferenceRows), both projected with the fold's fit; no coverage (0: the app's ranges
    /// are absolute).
    TransferSummary rowsRelative;
};

struct FoldValidation
{
    QList<HeldOutFold> folds;
    TransferSummary pairs; ///< every fold pooled
    TransferSummary fromHeadline;
    TransferSummary rows;
    TransferSummary rowsRelative;
};
using ArchitectureFold = HeldOutFold;
using ArchitectureValidation = FoldValidation;

/// Rule Z (PROJECTION.md 3.26): for each of `rows` (indices into it; -1 where none), the same source's row
/// of the same preset on the source's reference GPU: `headlineGpu` where the source has a row of the preset,
/// else the source's GPU with the most rows (ties: the smaller id). A reference row has none itself (a second
/// row of the same GPU is scored against the first). Only rows in use, of a built-in preset and of a GPU with
/// a spec take part, and of them only those `projectable` accepts where it is given (validate: those the
/// model projects; fit_typical_stack.py leaves out a row without a projection before it picks).
QList<int> typicalStackReferenceRows(const QList<TypicalStackRow> &rows, const GpuSpecTable &specs,
                                     const QString &headlineGpu = QStringLiteral("a100-80gb-sxm4"),
                                     const std::function<bool(const TypicalStackRow &)> &projectable = {});

/// Leave one architecture out over the transfer pairs and the typical-stack rows, with the shipped folds
/// of the model's typical stack: a fold's pairs go into its architecture's GPUs from GPUs of other
/// architectures; its rows are of its architecture's GPUs. Empty without folds.
FoldValidation validateLeaveOneArchitectureOut(const SpeedModel &model, const GpuSpecTable &specs,
                                               const TransferData &data, const QList<TypicalStackRow> &rows,
                                               const QString &headlineGpu = QStringLiteral("a100-80gb-sxm4"));

/// Leave one source out over the transfer pairs and the typical-stack rows, with the shipped source folds
/// of the model's typical stack: a fold's pairs are every pair of the workloads whose figures are of its
/// source (transfer_rows.csv source_id), its rows the rows of its source. Empty without folds.
FoldValidation validateLeaveOneSourceOut(const SpeedModel &model, const GpuSpecTable &specs,
                                         const TransferData &data, const QList<TypicalStackRow> &rows,
                                         const QString &headlineGpu = QStringLiteral("a100-80gb-sxm4"));

} // namespace gf

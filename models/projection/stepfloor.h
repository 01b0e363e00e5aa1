#pragma once

#include "domain/throughputmeasurement.h"
#include "projection/errorsummary.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>

namespace gf {

class GpuSpecTable;
class SpeedModel;

/// Rule S3 (PROJECTION.md section 3.22): a user's figure whose GPU was busy less than this share of the step
/// was set by its host (the GPU waited); carried to another GPU, only the GPU-busy part of its step scales
/// and the measured step stays a floor.
inline constexpr double kHostBoundBusy = 0.8;
/// Rule S4 (PROJECTION.md section 3.27): a busy share read by nvidia-smi (or not said how) at or above
/// kHostBoundBusy but below this may still be of a host-bound step. On two H200 hosts every nvidia-smi
/// reading of a step the profiler found host-bound was <= 0.885 (12 of 12), every one of a GPU-bound step >=
/// 0.956 (5 of 5): the midpoint of that gap, in sample (tests/fixtures/probe/h200-busy-2026-11-28,
/// h200-usercmd-2026-11-28).
inline constexpr double kSmiGpuBoundBusy = 0.92;
/// Rule S4: a busy share `busy` measured by `method` lies in the band where nvidia-smi may hide a host-bound
/// step (not the profiler's, from kHostBoundBusy to under kSmiGpuBoundBusy).
/// SpeedModel::busyMayBeHostBound adds the GPU's vendor.
inline bool busyInSmiBand(double busy, BusyMethod method)
{
    return method != BusyMethod::Profiler && busy >= kHostBoundBusy && busy < kSmiGpuBoundBusy;
}
/// A busy share as a percentage for texts: whole percent, or as many decimals (up to 3) as it takes for the
/// number shown to lie on the same side of kHostBoundBusy and kSmiGpuBoundBusy as the share (0.7999 is
/// "79.99", not "80", which would contradict "host-bound").
QString busyPercentText(double busy);
/// Section 3.22: another host's floor of the same step, as a share of the measured host's: 0.54x (the
/// shortest seen, 2026-11-28's second H200 host against the H100 host) to 1 / 0.54 (a slower host; judged
/// symmetric).
inline constexpr double kHostFloorFaster = 0.54;
inline constexpr double kHostFloorSlower = 1.0 / kHostFloorFaster;
/// Section 3.22: the 10th and 90th percentiles of ln(projected / measured speed) when rule S3 carries a
/// host-bound figure to another batch (the 19 pairs of the 2026-11-28 busy sweep;
/// tests/tools/check_busy_sweep.py recomputes them). The measured tier's range widens by them where the
/// figure is of another batch.
inline constexpr double kHostBoundCrossBatchP10 = -0.629;
inline constexpr double kHostBoundCrossBatchP90 = 0.110;

/// One measured eager PyTorch training step of a preset at a micro-batch on one GPU
/// (resources/benchmarks/step_floor_sweep.csv, PROJECTION.md section 3.21).
struct StepFloorPoint
{
    QString sourceId;
    QString presetId;
    QString gpuId;
    QString host;
    /// "sweep", "repeat" (the same host minutes later) or "check" (another host: held out, never in a floor)
    QString run;
    int batch = 0;
    double samplesPerS = 0;
    QString measured; ///< the date

    double stepSeconds() const { return batch / samplesPerS; }
};

/// A preset's per-step floor (rule Q2): at the smallest batches an eager PyTorch step did not shrink with the
/// batch on the host measured (the CPU's dispatch of the step's kernels set it); the floor is the longest of
/// those steps, so that every one of them lies inside a range that reaches it.
struct StepFloor
{
    QString presetId;
    double seconds = 0;         ///< the longest step among the floor points
    double meanSeconds = 0;     ///< their mean (for comparison: a slow end there leaves floor points outside)
    double shortestSeconds = 0; ///< the shortest step of the preset on that GPU and host, any batch, any run
    int points = 0;             ///< the floor points: steps within kFloorTolerance of the smallest batch's
    int smallestBatch = 0;
    QString gpuId;
    QString host;
    QString sourceId;
    QString measured;
};

struct StepFloorData
{
    /// A point belongs to the floor when its step is within this share of the smallest batch's step.
    static constexpr double kFloorTolerance = 0.10;

    QList<StepFloorPoint> points;

    /// Parses step_floor_sweep.csv; an error names the file, the record and what is wrong.
    static Result<StepFloorData> parse(const QString &csvText);
    /// The shipped file (fatal when broken: it is tested).
    static const StepFloorData &builtin();

    /// Rule Q2, per preset: over the sweep and repeat points of the preset on each GPU (one GPU per preset in
    /// the shipped file; a preset measured on several takes the longest floor), those whose step lies within
    /// kFloorTolerance of the smallest batch's sweep step, and the longest of them. "check" points never
    /// count.
    QHash<QString, StepFloor> floors() const;
};

/// The check of `gpufrontier-cli validate` (rule Q2 in sample: the floors come from the sweep and repeat
/// points; rule R held out: the "check" points of another host): every point projected in the typical stack
/// at its own batch on its GPU, with the floors and without them; |ln(projected / measured)| and the coverage
/// of the p10-p90 range. The point does not move with the floor, only the range's slow end.
struct StepFloorValidation
{
    QList<StepFloor> floors; ///< by preset id
    ErrorSummary withFloor;  ///< the sweep and repeat points, label "with the floor"
    ErrorSummary without;    ///< the same, label "without it"
    int flagged = 0;         ///< of them, the points the floor may bind (flag host-bound)
    /// Rule R: the "check" points (another host, held out), with the floors and without them.
    ErrorSummary heldOutWithFloor;
    ErrorSummary heldOutWithout;
    int heldOutFlagged = 0;
};

StepFloorValidation validateStepFloors(const SpeedModel &model, const GpuSpecTable &specs,
                                       const StepFloorData &data);

} // namespace gf

#pragma once

#include "domain/benchmarktable.h"
#include "domain/gpuarch.h"
#include "domain/gpuspecs.h"
#include "domain/throughputmeasurement.h"
#include "domain/workload.h"
#include "projection/modelconstants.h"
#include "projection/projection.h"
#include "projection/stepfloor.h"
#include "projection/typicalstack.h"
#include "projection/vendorlevels.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <limits>
#include <optional>

namespace gf {

/// The model's relative speed of one GPU for one workload shape (model v2, PROJECTION.md section 3.2):
///   R_eff = 1 / (1/R + 1/(eps x tdp x m_p)),  t_c = F / (R_eff x 1e12 x rho_p),  t_m = beta x B / (bw x
///   1e9), r_rel = 1 / (t_c^p + t_m^p)^(1/p).
struct SpeedTerms
{
    bool ok = false;
    double relative = 0;     ///< r_rel, samples/s of the model before any measurement or phi
    double computeS = 0;     ///< t_c per sample
    double memoryS = 0;      ///< t_m per sample
    double rateTflops = 0;   ///< R_eff used (x computeFactor on the probed GPU)
    double bandwidthGbs = 0; ///< bandwidth used (x memoryFactor on the probed GPU)
    /// Probed GPU: this machine's sustained/datasheet GEMM rate and bandwidth over a typical machine's
    /// (Calibration efficiencies over kDefault*Efficiency); 1 when not probed or not measured.
    double computeFactor = 1;
    double memoryFactor = 1;
    Precision precisionUsed = Precision::Fp32;
    bool precisionFallback = false;
    bool probeCalibrated = false; ///< rate or bandwidth came from a probe run of this GPU
};

/// One GPU's measured level of a workload, as the transfer uses it: ln(measured / r_rel(GPU at the
/// measurement's batch and precision)), averaged over the measurements of that GPU.
struct SpeedAnchor
{
    QString gpuId;
    QString arch;
    double logLevel = 0;
    int measurements = 0;
    bool user = false;      ///< from the projection's inputs (the user's own figures), not the shipped table
    bool converted = false; ///< shipped figure converted from another software stack
    bool precisionScaled = false;          ///< measured in another precision class than the workload's
    QString source;                        ///< attribution of the (first) measurement
    double samplesPerS = 0;                ///< the (first) measured figure per GPU
    int batchPerGpu = 0;                   ///< its batch
    Precision precision = Precision::Fp16; ///< its precision
    double relative = 0;                   ///< r_rel of the GPU at that batch and precision
    /// Rule I (PROJECTION.md section 3.18): ln of the class's reference preset's tuned-stack speed on this
    /// GPU scaled to the workload's FLOPs per sample; NaN where the rule does not apply.
    double referenceLog = std::numeric_limits<double>::quiet_NaN();
    /// Section 3.22: the share of the measured step the GPU was busy
    /// (ThroughputMeasurement::gpuBusyFraction); 0 = not measured.
    double gpuBusy = 0;
    /// Rule W-flag (section 3.24): a typed figure without a busy share, more than kImplausibleFactor below
    /// the model's projection for its GPU, whose assumed share (rule W) would not be host-bound (it may be
    /// host-bound; its carried projections say so).
    bool farBelowModel = false;
    /// Rule W (section 3.25): gpuBusy was not given but assumed, kImplausibleFactor x the figure's ratio to
    /// the model on its GPU (a typed figure more than kImplausibleFactor below the model, without a busy
    /// share).
    bool busyAssumed = false;
    /// With busyAssumed: how many times below the model's projection for its GPU the figure is.
    double belowModel = 0;
    /// Rule S4 (section 3.27): gpuBusy was not measured by the profiler (nvidia-smi, typed in, or not said)
    /// and lies in [kHostBoundBusy, kSmiGpuBoundBusy): carried as GPU-bound, but it may be host-bound (its
    /// carried projections' ranges say so).
    bool busyUncertain = false;
    /// Rule S3: the GPU waited for the host for a sizeable share of the step (0 < gpuBusy < kHostBoundBusy).
    bool hostBound() const;
};

/// Rule I (PROJECTION.md section 3.18): the preset whose tuned-stack GPU-to-GPU shape a custom workload of
/// its class takes in the typical stack (as the tuned stack projects it, at the workload's precision), and
/// the preset's shipped anchors.
struct ClassReference
{
    Workload preset;
    QList<SpeedAnchor> shipped;
};

/// The measurements of one workload, split by where they come from.
struct WorkloadAnchors
{
    QList<SpeedAnchor> shipped; ///< resources/benchmarks (presets only)
    QList<SpeedAnchor> user;    ///< the projection's inputs and a measured custom workload's own figure
    std::optional<ClassReference> reference; ///< rule I, for a custom workload in the typical stack
    bool empty() const { return shipped.isEmpty() && user.isEmpty(); }
};

/// The single-GPU speed of a workload on one GPU model, with the evidence behind it.
struct SingleGpuSpeed
{
    bool ok = false;
    double samplesPerS = 0; ///< one whole GPU
    Precision precisionUsed = Precision::Fp32;
    bool precisionFallback = false;
    bool probeCalibrated = false;
    double probeComputeFactor = 1; ///< SpeedTerms::computeFactor of this GPU (probe vs a typical machine)
    double probeMemoryFactor = 1;  ///< SpeedTerms::memoryFactor
    bool computeBound = true;      ///< t_c >= t_m in the model
    /// Rule I (PROJECTION.md section 3.18): the preset whose tuned-stack GPU-to-GPU shape the speed takes
    /// instead of the roofline (then computeBound says nothing about it); empty otherwise.
    QString referencePreset;
    ProjectionTier tier = ProjectionTier::None;
    LogRange range;            ///< of ln(projected / true)
    int anchorGpus = 0;        ///< GPUs measured (transferred tiers)
    int sameArchGpus = 0;      ///< of them, of this GPU's architecture
    bool userMeasured = false; ///< measured tier from the user's measurement (flag `measured`)
    QString basis;             ///< one line: what the speed rests on (source, references, phi)
    /// The software stack the speed is for (Workload::stack), and what the typical stack added: the
    /// per-sample overhead in seconds (0 for the tuned stack, the user's own figure or no conversion) and
    /// the tuned-stack speed before it.
    SoftwareStack stack = SoftwareStack::Tuned;
    double overheadS = 0;
    double tunedSamplesPerS = 0;
    /// Rule Q2 (section 3.21): the preset's per-step floor, seconds, where it may bind at this batch (a step
    /// of the point's speed would be shorter): the range's slow end then reaches at least batch / stepFloorS.
    /// Rule S3 (section 3.22): the step of the user's own host-bound figure (the point is capped there).
    /// 0: none.
    double stepFloorS = 0;
    /// Rule AD (section 3.30): the batch of the user's figure whose distance from the projected batch widened
    /// the range. 0: the rule did not apply.
    int batchChangeFrom = 0;
    /// Rule AG (section 3.31): ln of the level this GPU's own MLPerf figures put on its speed (VendorLevels),
    /// where the point rests on it (not the user's own figure on this GPU). 0: none.
    double vendorLogLevel = 0;

    double samplesPerSLow() const { return samplesPerS * std::exp(-range.p90); }
    double samplesPerSHigh() const { return samplesPerS * std::exp(-range.p10); }
};

/// The factor that converts a figure of one software stack into the preset's reference stack
/// (fit_projection.py conversion_factors): the ratio over GPUs measured in both ("shared-gpu"), else the
/// stacks' levels against the model ("model"); 1 for the reference stack itself ("reference").
struct StackFactor
{
    double factor = 1;
    QString method;
    QStringList sharedGpus;
};

/// A preset's anchors recomputed from its candidates (anchor_candidates.csv), optionally without one GPU:
/// per stack its factor, per GPU the most preferred stack's figure converted to the reference stack.
struct CandidateAnchors
{
    QHash<QString, StackFactor> factors; ///< by stack
    struct Anchor
    {
        AnchorCandidate candidate;
        StackFactor factor;
        double value = 0; ///< candidate.samplesPerS x factor
    };
    QList<Anchor> anchors; ///< sorted by GPU id
};

/// Leave-one-GPU-out validation of one workload preset over the shipped measurements: the held-out GPU
/// projected with the constants fitted without it, from the other GPUs' anchors recomputed without it
/// (stack factors included), against its own figure converted to the reference stack by a factor that
/// does not use it either.
struct ValidationRow
{
    QString workloadId;
    QString gpuId;
    ProjectionTier tier = ProjectionTier::None; ///< of the GPU's shipped anchor (all data)
    bool validated = false;                     ///< false: the row has no figures, `note` says why
    QString note;
    QString stack;           ///< the stack of the GPU's own figure
    StackFactor truthFactor; ///< that stack -> reference stack, computed without the GPU
    int referenceGpus = 0;   ///< the other GPUs' anchors the projection used
    double measured = 0;     ///< the held-out GPU's figure in the reference stack
    double projected = 0;    ///< model v2: transferred from the other GPUs
    double logError = 0;     ///< ln(projected / measured)
    double projectedV1 = 0;  ///< today's model (v1 roofline, default efficiencies), same procedure
    double logErrorV1 = 0;
};

/// Projection model v2: the fitted constants, the GPU architecture table and the shipped measurements.
class SpeedModel
{
public:
    SpeedModel() = default;
    SpeedModel(ModelConstants constants, GpuArchTable arch, BenchmarkTable benchmarks);
    /// The model shipped inside the application (with the shipped typical-stack conversion).
    static const SpeedModel &builtin();

    /// The typical-stack conversion (section 3.6); empty (no conversion) unless set or builtin().
    const TypicalStack &typicalStack() const { return m_typical; }
    SpeedModel withTypicalStack(TypicalStack typical) const
    {
        SpeedModel m = *this;
        m.m_typical = std::move(typical);
        return m;
    }
    /// Rule Q2 (section 3.21): each preset's per-step floor of an eager PyTorch step (StepFloorData::floors);
    /// empty (no floor) unless set or builtin().
    const QHash<QString, StepFloor> &stepFloors() const { return m_stepFloors; }
    SpeedModel withStepFloors(QHash<QString, StepFloor> floors) const
    {
        SpeedModel m = *this;
        m.m_stepFloors = std::move(floors);
        return m;
    }
    /// Rule AG (section 3.31): other vendors' GPUs' levels from their MLPerf figures (VendorLevels); empty
    /// (none) unless set or builtin().
    const VendorLevels &vendorLevels() const { return m_vendorLevels; }
    SpeedModel withVendorLevels(VendorLevels levels) const
    {
        SpeedModel m = *this;
        m.m_vendorLevels = std::move(levels);
        return m;
    }
    /// The typical stack's overhead per sample, seconds, of `w` at F FLOPs per sample; 0 for the tuned
    /// stack or without a conversion.
    double typicalOverheadS(const Workload &w, double flopsPerSample) const;
    /// ln eta of the typical stack for `w`'s class on GPUs of `arch` (section 3.8); 0 for the tuned stack,
    /// an unknown class or an architecture without a factor for the class.
    double typicalClassLogFactor(const Workload &w, const QString &arch) const;
    /// Section 3.7: the bytes per FLOP a custom workload without its own bytes per sample moves in the
    /// typical stack (its class's default); 0 for presets, the tuned stack and given bytes.
    double defaultBytesPerFlop(const Workload &w) const;

    const ModelConstants &constants() const { return m_constants; }
    const GpuArchTable &arch() const { return m_arch; }
    /// Rule S4 (section 3.27): a figure measured on `gpuId` with the busy share `busy` by `method` is carried
    /// as GPU-bound but may be of a host-bound step, so the ranges of faster NVIDIA GPUs reach its floor: the
    /// share lies in [kHostBoundBusy, kSmiGpuBoundBusy), it is not the profiler's, and the GPU is an NVIDIA
    /// one (the evidence is of CUDA hosts). What the texts that name the rule check.
    bool busyMayBeHostBound(const QString &gpuId, double busy, BusyMethod method) const;
    /// The same for a measurement (a typed figure: typedFigure(), whose share is nvidia-smi's).
    bool busyMayBeHostBound(const ThroughputMeasurement &m) const
    {
        return busyMayBeHostBound(m.gpuId, m.gpuBusyFraction, m.gpuBusyMethod);
    }
    const BenchmarkTable &benchmarks() const { return m_benchmarks; }

    /// r_rel of `gpu` for F and B per sample in `precision` (after the GPUS.md fallback). `probe`: when it
    /// probed this GPU, the rate and bandwidth are scaled by the probe's efficiencies over the typical
    /// ones (kDefaultComputeEfficiency, kDefaultMemoryEfficiency): 1 for a typical machine.
    SpeedTerms relativeSpeed(const GpuSpec &gpu, Precision precision, double flops, double bytes,
                             const Calibration *probe = nullptr) const;

    /// The workload's F and B per sample at another batch and precision: B = activations + weight
    /// traffic / batch, activations x2 in TF32/FP32 (x1/2 the other way). A B below the weight traffic
    /// is used as given. A measured custom workload without F and B: F = 100, B = 1 (only ratios matter).
    std::pair<double, double> shapeAt(const Workload &w, int batch, Precision precision) const;

    /// The measurements the projection of `w` uses: the shipped anchors of a preset, `extra` matching
    /// the workload (measurementMatches) and a measured custom workload's own figure. GPUs are looked
    /// up in `specs`, then in the fit-only rows; unknown GPUs and unusable figures are skipped.
    WorkloadAnchors anchorsFor(const Workload &w, const ThroughputMeasurements &extra,
                               const GpuSpecTable &specs) const;

    /// Why a user measurement of `w` cannot be right for its GPU, or an empty string (PROJECTION.md section
    /// 3.3, "Implausible measurements"): it needs more FLOP/s than twice the GPU's highest datasheet rate
    /// in any precision (the workload's FLOPs per sample x samples/s), or it lies more than
    /// kImplausibleFactor times above or below what the model projects for that GPU from the shipped data
    /// alone. anchorsFor quarantines such a measurement: it moves no projection. The text names the bound.
    QString implausibility(const ThroughputMeasurement &m, const Workload &w,
                           const GpuSpecTable &specs) const;
    /// The factor of the projection bound.
    static constexpr double kImplausibleFactor = 10.0;
    /// A custom measured workload's own figure (its measured speed on its reference GPU, at its batch,
    /// precision and busy share) as the measurement the projection and implausibility() take it as.
    static ThroughputMeasurement typedFigure(const Workload &w);
    /// A custom measured workload's typed figure as the workload panel checks it, from one set of anchors:
    /// implausibility()'s text (empty: plausible, or nothing to check it against) and the GPU busy share
    /// rule W (section 3.25) takes for it (0: none taken).
    struct TypedFigureCheck
    {
        QString implausible;
        double assumedBusy = 0;
    };
    TypedFigureCheck checkTypedFigure(const Workload &w, const GpuSpecTable &specs) const;

    /// The single-GPU speed of `w` on `target` (tiers: PROJECTION.md section 3.3).
    SingleGpuSpeed project(const GpuSpec &target, const Workload &w, const WorkloadAnchors &anchors,
                           const Calibration &calibration) const;

    /// Leave-one-GPU-out over the measured GPUs of one preset (ValidationRow): nothing of the held-out
    /// GPU reaches its projection (the constants of its fold, the anchors and stack factors recomputed
    /// from the candidates without it), next to today's model (v1) through the same procedure. Rows in
    /// GPU id order; a GPU whose own figure converts to the reference stack only through the model, or
    /// that has no fold, comes back not validated. Empty when fewer than 2 GPUs were measured.
    QList<ValidationRow> validate(const Workload &preset, const GpuSpecTable &specs) const;

    /// The preset's anchors from the candidates of the benchmark table, without `excludeGpu`; `rel` is
    /// the model's relative speed of a candidate (model-based stack factors only). Empty when the
    /// reference stack has no candidate left.
    CandidateAnchors candidateAnchors(const Workload &preset, const QString &excludeGpu,
                                      const std::function<double(const AnchorCandidate &)> &rel) const;
    /// r_rel of a candidate with these constants (0 when the GPU or its rate is unknown).
    double candidateRelative(const Workload &preset, const AnchorCandidate &c,
                             const GpuSpecTable &specs) const;

    /// The same model with other constants (a validation fold).
    SpeedModel withConstants(const ModelConstants &constants) const
    {
        SpeedModel m = *this;
        m.m_constants = constants;
        return m;
    }

    /// Weighted mean level of `anchors` seen from a GPU of architecture `arch` (skipping `exclude`): the
    /// transferred tier's exp(level) x r_rel(target).
    double level(const QList<SpeedAnchor> &anchors, const QString &arch, const QString &exclude,
                 int *count = nullptr, int *same = nullptr) const;

private:
    SpeedAnchor makeAnchor(const ThroughputMeasurement &m, const Workload &w, const GpuSpec &spec) const;
    /// The shipped data's level (ln(speed / r_rel)) seen from a GPU: its own anchor, else the transfer over
    /// the others, else the roofline's ln(phi).
    double shippedLevel(const QList<SpeedAnchor> &shipped, const QString &gpuId) const;
    /// implausibility() with the workload's shipped anchors (and rule I's reference) already made.
    QString implausibleAgainst(const ThroughputMeasurement &m, const Workload &w, const GpuSpec &spec,
                               const WorkloadAnchors &anchors) const;
    /// The figure of `a` (made from `m`) over what the model projects for its GPU from the shipped data
    /// (rule I's reference where it applies; the typical stack's conversion where `w` is in it): the ratio
    /// implausibleAgainst() holds to kImplausibleFactor either way.
    double modelRatio(const ThroughputMeasurement &m, const Workload &w, const GpuSpec &spec,
                      const WorkloadAnchors &anchors, const SpeedAnchor &a) const;
    /// Rule I (PROJECTION.md section 3.18): the reference preset of `w`'s class when `w` is a custom workload
    /// in the typical stack with FLOPs per sample and no bytes per sample of its own; nullopt otherwise.
    std::optional<ClassReference> classReference(const Workload &w, const GpuSpecTable &specs) const;
    /// ln of the reference preset's tuned-stack speed on `spec` scaled to `w`'s FLOPs per sample; nullopt
    /// without a reference or a projection of the preset there.
    std::optional<double> referenceLog(const Workload &w, const GpuSpec &spec, const WorkloadAnchors &anchors,
                                       const Calibration &calibration) const;
    /// The basis text of the class factor used on `arch` (empty without class factors), widening
    /// `range` for an unknown class and an architecture without a measurement of the class (by the
    /// range of a user's figure carried across when `transferred`).
    QString typicalClassBasis(const Workload &w, const QString &arch, bool transferred,
                              LogRange *range) const;
    /// Rule Q2 (section 3.21): where a preset's typical projection from the shipped data (`fromShippedData`)
    /// on an NVIDIA GPU (`arch`, its architecture row) would run a step faster than the preset's per-step
    /// floor, sets r->stepFloorS, widens r->range's slow end to at least batch / floor and returns the basis
    /// text; empty otherwise.
    QString stepFloorBasis(const Workload &w, const GpuArch *arch, bool fromShippedData,
                           SingleGpuSpeed *r) const;
    /// Rule W-flag (section 3.24): on an NVIDIA GPU other than its own, a user's figure far below the model
    /// (SpeedAnchor::farBelowModel), or one whose nvidia-smi busy share may hide a host-bound step (rule S4,
    /// SpeedAnchor::busyUncertain, section 3.27), widens r->range's slow end to the host floor that figure
    /// would set (rule S3's slowest other host) and returns the basis text; empty otherwise. The point does
    /// not move.
    QString farBelowModelBasis(const Workload &w, const WorkloadAnchors &anchors, const GpuArch *target,
                               SingleGpuSpeed *r) const;
    /// Rule S3 (section 3.22) applies to `a` carried to `target` (its architecture row): a host-bound figure
    /// of an NVIDIA GPU (the evidence is of CUDA hosts) with a batch and a speed, onto an NVIDIA GPU.
    bool hostRuleApplies(const SpeedAnchor &a, const GpuArch *target) const;
    /// Rule S3 (section 3.22): where the user's figures carried to this GPU (or measured on it) were set by
    /// their host (SpeedAnchor::hostBound), the measured step is a floor: sets r->stepFloorS, caps the point
    /// at batch / floor and its range at that floor on other hosts (kHostFloorFaster..kHostFloorSlower), and
    /// returns the basis text; empty otherwise.
    QString userHostFloorBasis(const Workload &w, const WorkloadAnchors &anchors, const QString &targetId,
                               const GpuArch *target, SingleGpuSpeed *r) const;
    /// Rule AD (section 3.30): in the typical stack, where every user figure this GPU's speed rests on (all
    /// of them on another GPU; on its own GPU those of that GPU, amendment AD-1) was measured at a batch
    /// TypicalStack::batchChangeMinRatio times or more from the projected one, either way, widens r->range to
    /// TypicalStack::batchChangeRangeTransfer (the wider on each side) and returns the basis text; empty
    /// otherwise. The point does not move. Applied after every rule that reads the range.
    QString batchChangeBasis(const Workload &w, const WorkloadAnchors &anchors, const QString &targetId,
                             SingleGpuSpeed *r) const;
    const GpuSpec *specOf(const QString &id, const GpuSpecTable &specs) const;
    QString archOf(const QString &id) const;

    ModelConstants m_constants;
    GpuArchTable m_arch;
    BenchmarkTable m_benchmarks;
    TypicalStack m_typical;
    QHash<QString, StepFloor> m_stepFloors;
    VendorLevels m_vendorLevels;
};

/// A measurement belongs to a workload when its workloadId equals the preset id, or for a custom
/// workload its name (case-insensitive).
bool measurementMatches(const ThroughputMeasurement &m, const Workload &w);

/// The newest measurement of kind User for which `matches` holds (positive, finite speed; an unknown
/// date counts as oldest; a later entry wins a tie); nullptr when none. anchorsFor picks each GPU's
/// user measurement with it.
const ThroughputMeasurement *
newestUserMeasurement(const ThroughputMeasurements &measurements,
                      const std::function<bool(const ThroughputMeasurement &)> &matches);

/// The user measurement that sets the single-GPU speed of `workloadId` on `gpuId` (the measured tier):
/// the newest of kind User with that workload id (case-insensitive) and GPU id; nullptr when none.
const ThroughputMeasurement *userMeasurementFor(const ThroughputMeasurements &measurements,
                                                const QString &workloadId, const QString &gpuId);

/// Median and maximum of |log error| over validation rows (v2 and v1).
struct ValidationSummary
{
    int n = 0;
    double median = 0;
    double max = 0;
    double medianV1 = 0;
    double maxV1 = 0;
};
ValidationSummary summarizeValidation(const QList<ValidationRow> &rows);
/// The median (the mean of the middle two for an even count); 0 for none.
double sampleMedian(QList<double> v);

} // namespace gf

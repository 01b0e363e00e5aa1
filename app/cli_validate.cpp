#include "cli.h"
#include "clicommand.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/inputpipelinevalidation.h"
#include "projection/modelconstants.h"
#include "projection/offerprojection.h"
#include "projection/speedmodel.h"
#include "projection/splitvalidation.h"
#include "projection/stepfloor.h"
#include "projection/transfervalidation.h"
#include "projection/typicalstackvalidation.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

CliOptions validateOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("workload"), QStringLiteral("ID"),
               QStringLiteral("one workload preset (default: every preset with at least 2 measured GPUs)"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    o.addValue(QStringLiteral("splits"), QStringLiteral("FILE"),
               QStringLiteral("read the held-out splits from this model_v2.json instead of the shipped one"));
    return o;
}

class ValidateCommand final : public CliCommand
{
public:
    ValidateCommand()
        : CliCommand(
              {.name = QStringLiteral("validate"),
               .summary =
                   QStringLiteral("Leave-one-GPU-out validation of the speed model on the shipped data"),
               .description = QStringLiteral(
                   "For every workload preset with measured training speeds on at least two GPU models\n"
                   "(resources/benchmarks/anchor_candidates.csv), holds out one GPU at a time and projects "
                   "it\n"
                   "as model v2 would without ever having seen it: with the constants fitted without its\n"
                   "measurements (model_v2.json validation_folds), from the other GPUs' anchors and stack\n"
                   "conversion factors recomputed without it. Its own figure, converted to the reference\n"
                   "stack by a factor from other GPUs measured in both stacks, is the truth: measured,\n"
                   "projected, log error = ln(projected / measured); then the median and the maximum of\n"
                   "|log error|. A GPU whose figure converts only through the model is listed, not scored.\n"
                   "The same for today's model (v1: max() roofline with the default efficiencies) through\n"
                   "the same procedure, for comparison.\n"
                   "Then the typical software stack (PROJECTION.md section 3.6): its overhead rate refitted\n"
                   "without each source of typical-stack measurements (typical_stack_rows.csv), which is\n"
                   "also a time split (2020-2022 runs against 2026 runs), the held-out rows projected,\n"
                   "median and max |log error| before (tuned stack) and after, and the coverage of the\n"
                   "p10-p90 range.\n"
                   "Then the held-out splits (PROJECTION.md section 3.4; model_v2.json held_out_splits):\n"
                   "leave one GPU out, leave one source out and the time split (fitted on figures measured\n"
                   "up to 2022, later architectures projected). Each held-out figure is projected by the\n"
                   "app's model with the constants fitted without it, from the other GPUs of its source and\n"
                   "stack; per split the median and max |log error| and the coverage of the shipped p10-p90\n"
                   "range of its tier (and of the fold's own range, where the fitter computed one).\n"
                   "Then a user's own figure carried to other GPUs (section 3.7): each 1-GPU figure of\n"
                   "Lambda's PyTorch suite and of the one-layer transformer benchmarks of\n"
                   "mli/transformers-benchmarks (transfer_rows.csv, section 3.11) as --measured S\n"
                   "--measured-on GPU with the workload's FLOPs, the other GPUs projected; per workload,\n"
                   "class and overall; the eager-PyTorch CNN timings of ryujaehun/pytorch-gpu-benchmark\n"
                   "(batch 12, no optimizer step; section 3.24) are scored apart, in lines of their own;\n"
                   "then the typical stack's leave one architecture out and leave one\n"
                   "source out over those pairs and its rows.\n"
                   "Then the input pipeline (section 3.19): each real-data run of Lambda's TensorFlow suite\n"
                   "(input_pipeline_runs.csv) projected as an offer capped by its pipeline (host threads /\n"
                   "the resnet50 preset's CPU seconds per image, GPU side = the same run on synthetic "
                   "data),\n"
                   "the real figure scored, and the coverage of the pipeline range.\n"
                   "Then MLPerf Training's other workloads (section 3.29, mlperf_extra_rows.csv): each\n"
                   "GPU's per-GPU figure of a round, workload and system layout carried to the group's "
                   "other\n"
                   "GPUs in the tuned stack (--stack tuned with the workload's FLOPs and class).\n"
                   "These sections cover every workload: they are left out with --workload.")},
              validateOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

QString signedNumber(double v)
{
    return (v >= 0 ? QStringLiteral("+") : QString()) + QString::number(v, 'f', 3);
}

QString speedText(double v)
{
    return QString::number(v, 'g', v >= 1000 ? 5 : 4);
}

QJsonObject typicalStackJson(const TypicalStackValidation &v)
{
    QJsonArray splits, rows;
    for (const TypicalStackSplit &s : v.splits)
        splits.append(QJsonObject{{QStringLiteral("held_out"), s.heldOutSource},
                                  {QStringLiteral("n"), s.n},
                                  {QStringLiteral("median_abs_log_error_tuned"), s.medianBefore},
                                  {QStringLiteral("max_abs_log_error_tuned"), s.maxBefore},
                                  {QStringLiteral("median_abs_log_error_typical"), s.medianAfter},
                                  {QStringLiteral("max_abs_log_error_typical"), s.maxAfter}});
    for (const TypicalStackObservation &o : v.heldOut)
        rows.append(QJsonObject{{QStringLiteral("source"), o.row.sourceId},
                                {QStringLiteral("workload"), o.row.presetId},
                                {QStringLiteral("gpu"), o.row.gpuId},
                                {QStringLiteral("batch"), o.row.batchPerGpu},
                                {QStringLiteral("measured"), o.row.samplesPerS},
                                {QStringLiteral("tuned"), o.tuned},
                                {QStringLiteral("overhead_tflops"), o.overheadTflops},
                                {QStringLiteral("typical"), o.typical}});
    return QJsonObject{{QStringLiteral("method"),
                        QStringLiteral("leave one source out of resources/benchmarks/typical_stack_rows.csv: "
                                       "R_o refitted without the source, its rows projected")},
                       {QStringLiteral("splits"), splits},
                       {QStringLiteral("rows"), rows},
                       {QStringLiteral("range_p10"), v.range.p10},
                       {QStringLiteral("range_p90"), v.range.p90},
                       {QStringLiteral("coverage_tuned"), v.coverageBefore},
                       {QStringLiteral("coverage_typical"), v.coverageAfter},
                       {QStringLiteral("excluded"), QJsonArray::fromStringList(v.excluded)}};
}

void printTypicalStack(QTextStream &out, const TypicalStackValidation &v)
{
    out << "\nTypical software stack (PROJECTION.md section 3.6): leave one source out of "
           "typical_stack_rows.csv\n(= a time split: the 2020-2022 runs against the 2026 runs), |log "
           "error|\n";
    QList<QStringList> rows;
    for (const TypicalStackSplit &s : v.splits)
        rows.append({s.heldOutSource, QString::number(s.n), QString::number(s.medianBefore, 'f', 3),
                     QString::number(s.maxBefore, 'f', 3), QString::number(s.medianAfter, 'f', 3),
                     QString::number(s.maxAfter, 'f', 3)});
    out << renderTable({QStringLiteral("Held out"), QStringLiteral("Rows"), QStringLiteral("tuned median"),
                        QStringLiteral("tuned max"), QStringLiteral("typical median"),
                        QStringLiteral("typical max")},
                       rows, {false, true, true, true, true, true});
    out << QStringLiteral(
               "Range of the conversion (p10, p90): %1, %2. Coverage of the p10-p90 range: tuned %3 %, "
               "typical (combined range) %4 %.\n")
               .arg(signedNumber(v.range.p10), signedNumber(v.range.p90),
                    QString::number(100 * v.coverageBefore, 'f', 0),
                    QString::number(100 * v.coverageAfter, 'f', 0));
    for (const QString &e : v.excluded)
        out << "  left out: " << e << '\n';
}

// The CPU seconds per image of the pipeline check: the resnet50 preset's (ImageNet JPEGs, as the suite's).
double pipelineCheckCostPerSample()
{
    for (const Workload &w : builtinWorkloads())
        if (w.id == u"resnet50")
            return w.cpuCoreSecondsPerSample;
    return 0;
}

QString percentText(double share)
{
    return QString::number(100 * share, 'f', 0) + QStringLiteral(" %");
}

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue();
}

QJsonObject splitSummaryJson(const SplitSummary &s)
{
    return QJsonObject{{QStringLiteral("n"), s.n},
                       {QStringLiteral("median_abs_log_error"), s.median},
                       {QStringLiteral("max_abs_log_error"), s.max},
                       {QStringLiteral("coverage_shipped_ranges"), s.coverageShipped},
                       {QStringLiteral("coverage_fold_ranges"), optionalNumber(s.coverageFoldRange)}};
}

QJsonArray splitsJson(const QList<SplitValidation> &splits)
{
    QJsonArray arr;
    for (const SplitValidation &v : splits) {
        QJsonArray rows;
        for (const SplitRow &r : v.rows)
            rows.append(QJsonObject{{QStringLiteral("held_out"), r.heldOut},
                                    {QStringLiteral("workload"), r.workload},
                                    {QStringLiteral("stack"), r.stack},
                                    {QStringLiteral("gpu"), r.gpuId},
                                    {QStringLiteral("tier"), projectionTierName(r.tier)},
                                    {QStringLiteral("reference_gpus"), r.references},
                                    {QStringLiteral("measured"), r.measured},
                                    {QStringLiteral("projected"), r.projected},
                                    {QStringLiteral("log_error"), r.logError},
                                    {QStringLiteral("inside_shipped_range"), r.insideShipped},
                                    {QStringLiteral("inside_fold_range"),
                                     r.insideFoldRange ? QJsonValue(*r.insideFoldRange) : QJsonValue()}});
        QJsonObject o = splitSummaryJson(v.summary);
        o.insert(u"split", v.id);
        o.insert(u"title", v.title);
        o.insert(u"rows", rows);
        o.insert(u"fit_projection_summary", splitSummaryJson(v.toolSummary));
        arr.append(o);
    }
    return arr;
}

void printSplits(QTextStream &out, const QList<SplitValidation> &splits)
{
    out << "\nHeld-out splits (model_v2.json held_out_splits): each figure projected with the constants\n"
           "fitted without it, from the other GPUs of its source and stack; |log error|, and the coverage\n"
           "of the shipped p10-p90 range of its tier (\"fold range\": the fold's own range)\n";
    QList<QStringList> rows;
    for (const SplitValidation &v : splits)
        rows.append(
            {v.id, QString::number(v.summary.n), QString::number(v.folds),
             QString::number(v.summary.median, 'f', 3), QString::number(v.summary.max, 'f', 3),
             percentText(v.summary.coverageShipped),
             v.summary.coverageFoldRange ? percentText(*v.summary.coverageFoldRange) : QStringLiteral("-")});
    out << renderTable({QStringLiteral("Split"), QStringLiteral("Figures"), QStringLiteral("Folds"),
                        QStringLiteral("median |e|"), QStringLiteral("max |e|"), QStringLiteral("coverage"),
                        QStringLiteral("fold range")},
                       rows, {false, true, true, true, true, true, true});
    for (const SplitValidation &v : splits)
        out << "  " << v.id << ": " << v.title << '\n';
    out << "Input-bound offers are not in these figures: the pipeline check below scores them (in sample).\n";
}

QString factorText(double logFactor)
{
    return QString::number(std::exp(logFactor), 'f', 2) + u'x';
}

void printInputPipeline(QTextStream &out, const InputPipelineValidation &v,
                        const InputPipelineValidation &judged)
{
    if (!(v.cpuSecondsPerSample > 0)) {
        out << "\nInput pipeline (PROJECTION.md section 3.19): not checked: the resnet50 preset states no "
               "CPU "
               "seconds per image.\n";
        return;
    }
    out << QStringLiteral("\nInput pipeline (PROJECTION.md section 3.19): %1 real-data runs of Lambda's "
                          "TensorFlow suite\n"
                          "(input_pipeline_runs.csv), each projected as an offer capped by its pipeline: cap "
                          "= host threads /\n"
                          "%2 CPU s per image (the resnet50 preset's), GPU side = the same run on synthetic "
                          "data, range\n"
                          "%3-%4 of the cap. Scored: the runs the cap binds at the range's slow end "
                          "(input-bound offers);\n"
                          "|ln(real / projected)| and the coverage of the range.\n")
               .arg(v.runs)
               .arg(v.cpuSecondsPerSample)
               .arg(factorText(-v.range.p90), factorText(-v.range.p10));
    QList<QStringList> rows;
    for (const InputPipelineSummary &s : QList<InputPipelineSummary>{v.bound, v.flagged} + v.byCpu)
        rows.append({s.label, QString::number(s.n), QString::number(s.median, 'f', 3),
                     QString::number(s.max, 'f', 3), percentText(s.coverage)});
    out << renderTable({QStringLiteral("Host CPU"), QStringLiteral("Runs"), QStringLiteral("median |e|"),
                        QStringLiteral("max |e|"), QStringLiteral("coverage")},
                       rows, {false, true, true, true, true});
    out << QStringLiteral(
               "\"flagged cpu-bound\": the runs whose cap is below the GPU side (the app's "
               "cpu-bound flag), a set\n"
               "that does not move with the range. The range was set from these runs (rule K3: in "
               "sample; two\n"
               "hosts cannot validate each other). The judged range it replaced, %1-%2, holds %3 of "
               "the %4 runs\n"
               "its own slow end binds and %5 of the flagged ones.\n"
               "Runs the cap never binds: %6; real data ran at median %7 of synthetic (10th "
               "percentile %8).\n")
               .arg(factorText(-judged.range.p90), factorText(-judged.range.p10),
                    percentText(judged.bound.coverage))
               .arg(judged.bound.n)
               .arg(percentText(judged.flagged.coverage))
               .arg(v.unbound)
               .arg(factorText(v.unboundMedianLogRatio), factorText(v.unboundP10LogRatio));
    // Rule K4 (section 3.28, rejected): the pooled figure hides how much the data path's cost differs by
    // host.
    for (const UnboundRuns &u : v.unboundByCpu)
        out << QStringLiteral("  %1: %2 runs, median %3 (10th percentile %4)\n")
                   .arg(u.cpu)
                   .arg(u.n)
                   .arg(factorText(u.medianLogRatio), factorText(u.p10LogRatio));
}

void printStepFloor(QTextStream &out, const StepFloorValidation &v)
{
    out << QStringLiteral(
               "\nPer-step floor (PROJECTION.md section 3.21, rule Q2): eager PyTorch steps of the "
               "presets at several\nmicro-batches on one GPU (step_floor_sweep.csv). Floor = the "
               "longest step among those within %1 %\nof the smallest batch's; where the typical "
               "point would run a step faster, the range's slow end\nreaches batch / floor (flag "
               "host-bound). The point does not move.\n")
               .arg(StepFloorData::kFloorTolerance * 100);
    QList<QStringList> rows;
    for (const StepFloor &f : v.floors)
        rows.append({f.presetId, f.gpuId, QString::number(f.smallestBatch), QString::number(f.points),
                     QString::number(f.seconds * 1e3, 'f', 1), QString::number(f.meanSeconds * 1e3, 'f', 1),
                     QString::number(f.shortestSeconds * 1e3, 'f', 1)});
    out << renderTable({QStringLiteral("Preset"), QStringLiteral("GPU"), QStringLiteral("Smallest batch"),
                        QStringLiteral("Floor points"), QStringLiteral("Floor ms"),
                        QStringLiteral("Their mean ms"), QStringLiteral("Shortest step ms")},
                       rows, {false, false, true, true, true, true, true});
    out << QStringLiteral(
               "Every point projected at its own batch on its GPU: the H100 host's sweep and repeat "
               "(in sample:\nthe floors come from them; %1 flagged host-bound) and two other hosts' "
               "H200 points (rules R\nand T, held out; %2 flagged):\n")
               .arg(v.flagged)
               .arg(v.heldOutFlagged);
    QList<QStringList> sums;
    for (const auto &[points, e] :
         {std::pair{"in sample", v.without}, std::pair{"in sample", v.withFloor},
          std::pair{"other hosts", v.heldOutWithout}, std::pair{"other hosts", v.heldOutWithFloor}})
        sums.append({QLatin1String(points), e.label, QString::number(e.n), QString::number(e.median, 'f', 3),
                     QString::number(e.max, 'f', 3), percentText(e.coverage)});
    out << renderTable({QStringLiteral("Points"), QStringLiteral("Range"), QStringLiteral("n"),
                        QStringLiteral("median |e|"), QStringLiteral("max |e|"), QStringLiteral("coverage")},
                       sums, {false, false, true, true, true, true});
    out << "The point is the model's at every batch: at a small batch it stays far above these hosts' "
           "figures\n(the median above), because the floor depends on the host.\n";
}

QJsonObject errorSummaryJson(const ErrorSummary &s)
{
    return QJsonObject{{QStringLiteral("label"), s.label},
                       {QStringLiteral("n"), s.n},
                       {QStringLiteral("median_abs_log_error"), s.median},
                       {QStringLiteral("max_abs_log_error"), s.max},
                       {QStringLiteral("coverage"), s.coverage}};
}

QJsonObject inputPipelineJson(const InputPipelineValidation &v, const InputPipelineValidation &judged)
{
    QJsonArray byCpu;
    for (const InputPipelineSummary &s : v.byCpu)
        byCpu.append(errorSummaryJson(s));
    QJsonArray unboundByCpu;
    for (const UnboundRuns &u : v.unboundByCpu)
        unboundByCpu.append(QJsonObject{{QStringLiteral("cpu"), u.cpu},
                                        {QStringLiteral("n"), u.n},
                                        {QStringLiteral("median_log_real_over_synthetic"), u.medianLogRatio},
                                        {QStringLiteral("p10_log_real_over_synthetic"), u.p10LogRatio}});
    return QJsonObject{
        {QStringLiteral("method"),
         QStringLiteral("each real-data run of resources/benchmarks/input_pipeline_runs.csv (Lambda's "
                        "TensorFlow suite) projected as an offer capped by its input pipeline: cap = host "
                        "threads / cpu_seconds_per_sample, GPU side = the same run on synthetic data; scored "
                        "where the cap binds at the range's slow end. The range was set from these runs "
                        "(rule K3, in sample)")},
        {QStringLiteral("runs"), v.runs},
        {QStringLiteral("cpu_seconds_per_sample"), v.cpuSecondsPerSample},
        {QStringLiteral("range_p10"), v.range.p10},
        {QStringLiteral("range_p90"), v.range.p90},
        {QStringLiteral("input_bound"), errorSummaryJson(v.bound)},
        {QStringLiteral("input_bound_flagged_cpu_bound"), errorSummaryJson(v.flagged)},
        {QStringLiteral("input_bound_by_cpu"), byCpu},
        {QStringLiteral("not_bound"), v.unbound},
        {QStringLiteral("not_bound_median_log_real_over_synthetic"), v.unboundMedianLogRatio},
        {QStringLiteral("not_bound_p10_log_real_over_synthetic"), v.unboundP10LogRatio},
        {QStringLiteral("not_bound_by_cpu"), unboundByCpu},
        {QStringLiteral("judged_range_replaced"),
         QJsonObject{{QStringLiteral("range_p10"), judged.range.p10},
                     {QStringLiteral("range_p90"), judged.range.p90},
                     {QStringLiteral("input_bound"), errorSummaryJson(judged.bound)},
                     {QStringLiteral("input_bound_flagged_cpu_bound"), errorSummaryJson(judged.flagged)}}}};
}

QJsonObject stepFloorJson(const StepFloorValidation &v)
{
    QJsonArray floors;
    for (const StepFloor &f : v.floors)
        floors.append(QJsonObject{{QStringLiteral("preset"), f.presetId},
                                  {QStringLiteral("gpu"), f.gpuId},
                                  {QStringLiteral("host"), f.host},
                                  {QStringLiteral("source"), f.sourceId},
                                  {QStringLiteral("measured"), f.measured},
                                  {QStringLiteral("smallest_batch"), f.smallestBatch},
                                  {QStringLiteral("floor_points"), f.points},
                                  {QStringLiteral("floor_seconds"), f.seconds},
                                  {QStringLiteral("mean_seconds"), f.meanSeconds},
                                  {QStringLiteral("shortest_step_seconds"), f.shortestSeconds}});
    return QJsonObject{
        {QStringLiteral("method"),
         QStringLiteral(
             "rule Q2: each preset's per-step floor from resources/benchmarks/step_floor_sweep.csv "
             "(the longest step within %1 % of the smallest batch's); every sweep point projected "
             "in the typical stack at its own batch with the floors and without them: the sweep and repeat "
             "points in sample, the check points of two other hosts held out (rules R and T)")
             .arg(StepFloorData::kFloorTolerance * 100)},
        {QStringLiteral("floors"), floors},
        {QStringLiteral("flagged_host_bound"), v.flagged},
        {QStringLiteral("with_floor"), errorSummaryJson(v.withFloor)},
        {QStringLiteral("without_floor"), errorSummaryJson(v.without)},
        {QStringLiteral("held_out_other_host"),
         QJsonObject{{QStringLiteral("flagged_host_bound"), v.heldOutFlagged},
                     {QStringLiteral("with_floor"), errorSummaryJson(v.heldOutWithFloor)},
                     {QStringLiteral("without_floor"), errorSummaryJson(v.heldOutWithout)}}}};
}

QJsonArray transferSummariesJson(const QList<TransferSummary> &list)
{
    QJsonArray out;
    for (const TransferSummary &s : list)
        out.append(errorSummaryJson(s));
    return out;
}

QJsonArray pairsJson(const QList<TransferPair> &list)
{
    QJsonArray pairs;
    for (const TransferPair &p : list)
        pairs.append(QJsonObject{{QStringLiteral("workload"), p.workload},
                                 {QStringLiteral("class"), p.workloadClass},
                                 {QStringLiteral("from"), p.fromGpu},
                                 {QStringLiteral("gpu"), p.toGpu},
                                 {QStringLiteral("from_batch"), p.fromBatch},
                                 {QStringLiteral("batch"), p.toBatch},
                                 {QStringLiteral("tier"), projectionTierName(p.tier)},
                                 {QStringLiteral("measured"), p.measured},
                                 {QStringLiteral("projected"), p.projected},
                                 {QStringLiteral("log_error"), p.logError},
                                 {QStringLiteral("range_p10"), p.range.p10},
                                 {QStringLiteral("range_p90"), p.range.p90},
                                 {QStringLiteral("inside_range"), p.inside}});
    return pairs;
}

QJsonObject userTransferJson(const TransferValidation &v)
{
    const QJsonArray pairs = pairsJson(v.pairs);
    return QJsonObject{
        {QStringLiteral("method"),
         QStringLiteral("each figure of resources/benchmarks/transfer_rows.csv (Lambda's PyTorch "
                        "suite, 1 GPU, FP16; mli/transformers-benchmarks' one-layer figures, pure FP16; "
                        "Lambda's TensorFlow CNN suite, 1 GPU, FP16) "
                        "taken as the user's own (--measured S --measured-on "
                        "GPU with the workload's FLOPs from transfer_workloads.csv), the "
                        "workload's other GPUs projected with it; the typical stack's class factors were "
                        "fitted on Lambda's PyTorch pairs (in sample); the mli and TensorFlow pairs are "
                        "scored, never fitted (by_source: every GPU as the user's, per source)")},
        {QStringLiteral("headline_gpu"), v.headlineGpu},
        {QStringLiteral("all"), errorSummaryJson(v.all)},
        {QStringLiteral("same_batch"), errorSummaryJson(v.sameBatch)},
        {QStringLiteral("batch_change"), errorSummaryJson(v.batchChange)},
        {QStringLiteral("from_headline_gpu"), errorSummaryJson(v.fromHeadline)},
        {QStringLiteral("all_class_not_given"), errorSummaryJson(v.allClassNotGiven)},
        {QStringLiteral("from_headline_gpu_class_not_given"), errorSummaryJson(v.fromHeadlineClassNotGiven)},
        {QStringLiteral("by_workload"), transferSummariesJson(v.byWorkload)},
        {QStringLiteral("by_class"), transferSummariesJson(v.byClass)},
        {QStringLiteral("by_source"), transferSummariesJson(v.bySource)},
        {QStringLiteral("all_without_flops"), errorSummaryJson(v.allWithoutFlops)},
        {QStringLiteral("from_headline_gpu_without_flops"), errorSummaryJson(v.fromHeadlineWithoutFlops)},
        {QStringLiteral("by_source_without_flops"), transferSummariesJson(v.bySourceWithoutFlops)},
        {QStringLiteral("pairs"), pairs},
        {QStringLiteral("scored_apart"),
         QJsonObject{
             {QStringLiteral("method"),
              QStringLiteral("rule V (PROJECTION.md 3.24): the eager-PyTorch CNN timings of "
                             "ryujaehun/pytorch-gpu-benchmark (RYU-PT-2025; batch 12, pure FP16, no "
                             "optimizer step) carried the same way; never fitted, in no figure above "
                             "and in no fold; all, heavy (>= 24 GFLOPs per sample) and light workloads, "
                             "and each ordered pair of GPUs")},
             {QStringLiteral("summaries"), transferSummariesJson(v.apart)},
             {QStringLiteral("pairs"), pairsJson(v.apartPairs)}}},
        {QStringLiteral("skipped"), QJsonArray::fromStringList(v.skipped)}};
}

/// Rule Z's summary: no coverage (the app's ranges are absolute, not relative to a reference GPU).
QJsonObject relativeSummaryJson(const ErrorSummary &s)
{
    return QJsonObject{{QStringLiteral("n"), s.n},
                       {QStringLiteral("median_abs_log_error"), s.median},
                       {QStringLiteral("max_abs_log_error"), s.max}};
}

QJsonObject foldsJson(const FoldValidation &v, const QString &key, const QString &method)
{
    QJsonArray folds;
    for (const HeldOutFold &f : v.folds)
        folds.append(
            QJsonObject{{key, f.heldOut},
                        {QStringLiteral("pairs"), errorSummaryJson(f.pairs)},
                        {QStringLiteral("pairs_from_headline_gpu"), errorSummaryJson(f.fromHeadline)},
                        {QStringLiteral("rows"), errorSummaryJson(f.rows)},
                        {QStringLiteral("rows_relative"), relativeSummaryJson(f.rowsRelative)}});
    return QJsonObject{
        {QStringLiteral("method"),
         QString(method +
                 QStringLiteral("; rows_relative (rule Z, PROJECTION.md 3.26): each row's log error minus "
                                "its reference row's (the source's row of the preset on the headline GPU, "
                                "else on the source's GPU with the most rows), both with the fold's fit"))},
        {QStringLiteral("pairs"), errorSummaryJson(v.pairs)},
        {QStringLiteral("pairs_from_headline_gpu"), errorSummaryJson(v.fromHeadline)},
        {QStringLiteral("rows"), errorSummaryJson(v.rows)},
        {QStringLiteral("rows_relative"), relativeSummaryJson(v.rowsRelative)},
        {QStringLiteral("folds"), folds}};
}

QJsonObject architectureJson(const FoldValidation &v)
{
    return foldsJson(
        v, QStringLiteral("architecture"),
        QStringLiteral(
            "typical stack: every measurement of one GPU architecture held out of the joint fit "
            "of R_o and the class factors (typical_stack.json leave_one_architecture_out); the "
            "transfer pairs into its GPUs from other architectures and its typical-stack rows "
            "projected with that fit. Their p10-p90 ranges are the shipped new-architecture ranges, "
            "each from its own kind of these errors: the pairs' for a user's figure carried "
            "across, the rows' for a preset or custom workload (coverage by construction)"));
}

QJsonObject sourcesJson(const FoldValidation &v)
{
    return foldsJson(
        v, QStringLiteral("source"),
        QStringLiteral("typical stack: every figure of one source held out of the joint fit of "
                       "R_o and the class factors (typical_stack.json leave_one_source_out); the "
                       "pairs of its workloads (transfer_rows.csv source_id) and its typical-stack "
                       "rows projected with that fit; coverage of the shipped p10-p90 ranges"));
}

void printFolds(QTextStream &out, const FoldValidation &v)
{
    QList<QStringList> rows;
    const auto number = [](const TransferSummary &s, double x) {
        return s.n ? QString::number(x, 'f', 3) : QStringLiteral("-");
    };
    auto add = [&](const QString &label, const TransferSummary &pairs, const TransferSummary &rowsOf,
                   const TransferSummary &relative) {
        rows.append({label, QString::number(pairs.n), number(pairs, pairs.median), number(pairs, pairs.max),
                     pairs.n ? percentText(pairs.coverage) : QStringLiteral("-"), QString::number(rowsOf.n),
                     number(rowsOf, rowsOf.median), number(rowsOf, rowsOf.max),
                     rowsOf.n ? percentText(rowsOf.coverage) : QStringLiteral("-"),
                     QString::number(relative.n), number(relative, relative.median),
                     number(relative, relative.max)});
    };
    for (const HeldOutFold &f : v.folds)
        add(f.heldOut, f.pairs, f.rows, f.rowsRelative);
    add(QStringLiteral("all"), v.pairs, v.rows, v.rowsRelative);
    out << renderTable({QStringLiteral("Held out"), QStringLiteral("Pairs"), QStringLiteral("median |e|"),
                        QStringLiteral("max |e|"), QStringLiteral("coverage"), QStringLiteral("Rows"),
                        QStringLiteral("median |e|"), QStringLiteral("max |e|"), QStringLiteral("coverage"),
                        QStringLiteral("Relative"), QStringLiteral("median |e|"), QStringLiteral("max |e|")},
                       rows, {false, true, true, true, true, true, true, true, true, true, true, true});
    out << "\"Relative\" (rule Z, PROJECTION.md 3.26): the rows' speed relative to their source's reference\n"
           "GPU (the headline GPU where the source has a row of the preset, else the source's GPU with\n"
           "the most rows), both projected with the fold's fit; no reference row against itself.\n"
           "No coverage: the ranges are of the absolute speed.\n";
}

void printArchitectures(QTextStream &out, const FoldValidation &v)
{
    out << "\nTypical stack, leave one architecture out (PROJECTION.md section 3.8): every measurement of "
           "one\n"
           "architecture held out of the fit of R_o and the class factors; a transferred figure of another\n"
           "architecture carried to its GPUs (pairs) and its typical-stack rows projected. The ranges are\n"
           "those of an architecture without a measurement, each from its own kind of these errors (pairs:\n"
           "a user's figure carried across; rows: a preset or custom workload), so not held out.\n";
    printFolds(out, v);
}

void printSources(QTextStream &out, const FoldValidation &v)
{
    out << "\nTypical stack, leave one source out (PROJECTION.md sections 3.8 and 3.11): every figure of "
           "one\n"
           "source held out of the fit of R_o and the class factors; the figures of its workloads carried\n"
           "across GPUs (pairs) and its typical-stack rows projected with that fit.\n";
    printFolds(out, v);
}

/// The tail the goal for a carried figure speaks of (max |e| <= 0.40): how many pairs err beyond 0.40
/// and 0.60, and the largest errors with their pairs, so that a reader sees what sets the maximum.
void printTail(QTextStream &out, const QList<TransferPair> &pairs, int largest = 6)
{
    if (pairs.isEmpty())
        return;
    QList<const TransferPair *> sorted;
    int over40 = 0, over60 = 0;
    for (const TransferPair &p : pairs) {
        sorted.append(&p);
        over40 += std::abs(p.logError) > 0.40 ? 1 : 0;
        over60 += std::abs(p.logError) > 0.60 ? 1 : 0;
    }
    std::stable_sort(sorted.begin(), sorted.end(), [](const TransferPair *a, const TransferPair *b) {
        return std::abs(a->logError) > std::abs(b->logError);
    });
    const double n = double(pairs.size());
    out << "Tail of \"every GPU as the user's\": |e| > 0.40 in " << over40 << " of " << pairs.size()
        << " pairs (" << QString::number(100.0 * over40 / n, 'f', 1) << " %), > 0.60 in " << over60 << " ("
        << QString::number(100.0 * over60 / n, 'f', 1) << " %). The largest:\n";
    const auto batch = [](int b) { return b > 0 ? QStringLiteral(" b%1").arg(b) : QString(); };
    for (qsizetype i = 0; i < std::min<qsizetype>(largest, sorted.size()); ++i) {
        const TransferPair &p = *sorted.at(i);
        out << "  " << (p.logError >= 0 ? "+" : "") << QString::number(p.logError, 'f', 3) << "  "
            << p.workload << ": " << p.fromGpu << batch(p.fromBatch) << " -> " << p.toGpu << batch(p.toBatch)
            << '\n';
    }
}

QJsonObject tunedTransferJson(const TunedTransferValidation &v)
{
    return QJsonObject{
        {QStringLiteral("method"),
         QStringLiteral(
             "protocol AB (PROJECTION.md section 3.29): each GPU's per-GPU figure of a group (round, "
             "workload, nodes x GPUs per node) of MLPerf Training's other workloads (mlperf_extra_rows.csv) "
             "as a "
             "user's in the tuned stack with the workload's FLOPs and class, the group's other GPUs "
             "projected; scored, never fitted (since rule AG, section 3.31, an AMD GPU's level is its "
             "figures' "
             "here: their pairs are in sample)")},
        {QStringLiteral("lines"), transferSummariesJson(v.lines)},
        {QStringLiteral("vendor_levels_held_out"), transferSummariesJson(v.heldOutLevels)},
        {QStringLiteral("pairs"), pairsJson(v.pairs)},
        {QStringLiteral("skipped"), QJsonArray::fromStringList(v.skipped)}};
}

/// A table of summaries (pairs, median and max |e|, coverage), "-" where a line has no pair.
QString summaryTable(const QList<TransferSummary> &list)
{
    QList<QStringList> rows;
    for (const TransferSummary &s : list)
        rows.append({s.label, QString::number(s.n),
                     s.n ? QString::number(s.median, 'f', 3) : QStringLiteral("-"),
                     s.n ? QString::number(s.max, 'f', 3) : QStringLiteral("-"),
                     s.n ? percentText(s.coverage) : QStringLiteral("-")});
    return renderTable({QStringLiteral("Pairs"), QStringLiteral("n"), QStringLiteral("median |e|"),
                        QStringLiteral("max |e|"), QStringLiteral("coverage")},
                       rows, {false, true, true, true, true});
}

void printTunedTransfer(QTextStream &out, const TunedTransferValidation &v)
{
    out << "\nMLPerf's other workloads, the tuned stack (PROJECTION.md section 3.29, protocol AB):\n"
           "each GPU's per-GPU figure of a round, workload and layout (mlperf_extra_rows.csv:\n"
           "RetinaNet, Mask R-CNN, SSD, RNN-T, UNet3D, BERT pre-training, Llama 2 70B LoRA; rounds\n"
           "2021-2025) taken as a user's (--stack tuned with the workload's FLOPs and class), the\n"
           "group's other GPUs projected. Scored, never fitted; rule AC (a custom workload's traffic\n"
           "in the tuned stack) was written after its first figures, so this is not a blind test of it.\n"
           "Since rule AG (section 3.31) an AMD GPU takes the level of its own figures here\n"
           "(other_vendor_levels.json), so the pairs of an AMD GPU are in sample.\n"
        << summaryTable(v.lines);
    if (!v.heldOutLevels.isEmpty())
        out << "Rule AG held out in time: the pairs of the later rounds with an AMD GPU on either side,\n"
               "without any level and with the levels derived from the earlier rounds alone:\n"
            << summaryTable(v.heldOutLevels);
    for (const QString &why : v.skipped)
        out << "  skipped: " << why << '\n';
}

void printUserTransfer(QTextStream &out, const TransferValidation &v)
{
    out << "\nA user's own figure carried to other GPUs (PROJECTION.md section 3.7): each figure of\n"
           "Lambda's PyTorch suite, mli/transformers-benchmarks (transfer_rows.csv, section 3.11) and\n"
           "Lambda's TensorFlow CNN suite (section 3.18) taken as --measured S --measured-on GPU with the\n"
           "workload's FLOPs (transfer_workloads.csv); the workload's other GPUs projected; |log error| and\n"
           "coverage of the p10-p90 range. The typical stack's class factors (section 3.8) were fitted on\n"
           "Lambda's PyTorch pairs, so those are in sample; the mli and TensorFlow pairs are scored, never\n"
           "fitted (sections 3.14 and 3.18): their \"source\" lines are a held-out test. The held-out\n"
           "splits are in typical_stack_validation.md and below. The \"class not given\" lines carry the\n"
           "same figures with the workload's class left out (--workload-class not given; section 3.16);\n"
           "the \"no FLOPs given\" lines without --flops-per-sample (the workload panel's \"Measured speed\n"
           "on a GPU\"; section 3.18). The \"same batch on both\" line keeps the pairs whose two figures\n"
           "share a stated batch; a pair of two different stated batches is asked as a user would ask it,\n"
           "the figure at its batch (--measured-batch) and the target at its own (--batch; rule Y, section\n"
           "3.25), since a step set by the host is a floor at the batch it was measured at. The \"batches\n"
           "apart\" line keeps the pairs whose range rule AD widens (section 3.30).\n"
           "Per workload and class from "
        << v.headlineGpu << " (\"-\": no figure of that GPU), per source from every GPU:\n";
    QList<QStringList> rows;
    auto add = [&](const TransferSummary &s) {
        if (s.n == 0) {
            rows.append({s.label, QStringLiteral("0"), QStringLiteral("-"), QStringLiteral("-"),
                         QStringLiteral("-")});
            return;
        }
        rows.append({s.label, QString::number(s.n), QString::number(s.median, 'f', 3),
                     QString::number(s.max, 'f', 3), percentText(s.coverage)});
    };
    auto addAll = [&](const QList<TransferSummary> &list, const QString &prefix, const QString &suffix) {
        for (TransferSummary s : list) {
            s.label = prefix + s.label + suffix;
            add(s);
        }
    };
    addAll(v.byWorkload, {}, {});
    addAll(v.byClass, QStringLiteral("class "), {});
    addAll(v.bySource, QStringLiteral("source "), {});
    add(v.fromHeadline);
    add(v.all);
    add(v.sameBatch);
    if (v.batchChange.n > 0)
        add(v.batchChange);
    add(v.fromHeadlineClassNotGiven);
    add(v.allClassNotGiven);
    add(v.fromHeadlineWithoutFlops);
    add(v.allWithoutFlops);
    addAll(v.bySourceWithoutFlops, QStringLiteral("source "), QStringLiteral(", no FLOPs given"));
    out << renderTable({QStringLiteral("Workload"), QStringLiteral("Pairs"), QStringLiteral("median |e|"),
                        QStringLiteral("max |e|"), QStringLiteral("coverage")},
                       rows, {false, true, true, true, true});
    printTail(out, v.pairs);
    if (!v.apart.isEmpty()) {
        out << "\nScored apart (rule V, PROJECTION.md section 3.24): the eager-PyTorch CNN timings of\n"
               "ryujaehun/pytorch-gpu-benchmark (RYU-PT-2025: batch 12, pure FP16, zero_grad + forward +\n"
               "backward without an optimizer step) carried the same way, every GPU as the user's. Never\n"
               "fitted, and in no line above and no fold below: at that batch much of a step is the host's\n"
               "kernel launches, which only a busy share (--measured-busy) tells the app.\n";
        out << summaryTable(v.apart);
    }
    for (const QString &e : v.skipped)
        out << "  left out: " << e << '\n';
}

int ValidateCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const QList<Workload> &presets = builtinWorkloads();
    const SpeedModel &model = SpeedModel::builtin();
    const GpuSpecTable &specs = GpuSpecTable::builtin();
    QList<const Workload *> chosen;
    const QString wanted = p.value(QStringLiteral("workload")).trimmed();
    if (!wanted.isEmpty()) {
        const Workload *w = findWorkload(presets, wanted);
        if (!w) {
            QStringList ids;
            for (const Workload &x : presets)
                ids.append(x.id);
            return usageError(ctx, QStringLiteral("--workload: unknown preset \"%1\" (presets: %2)")
                                       .arg(wanted, ids.join(QStringLiteral(", "))));
        }
        chosen.append(w);
    } else {
        for (const Workload &w : presets)
            chosen.append(&w);
    }

    struct Block
    {
        const Workload *workload;
        QList<ValidationRow> rows;
        ValidationSummary summary;
    };
    QList<Block> blocks;
    for (const Workload *w : std::as_const(chosen)) {
        Block b{w, model.validate(*w, specs), {}};
        b.summary = summarizeValidation(b.rows);
        if (!b.rows.isEmpty() || !wanted.isEmpty())
            blocks.append(b);
    }

    const TypicalStackValidation typical = validateTypicalStack(model, specs, builtinTypicalStackRows());
    Result<HeldOutSplits> splitsFile = HeldOutSplits::builtin();
    if (p.isSet(QStringLiteral("splits"))) {
        const QString path = p.value(QStringLiteral("splits"));
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return usageError(ctx,
                              QStringLiteral("--splits: cannot read %1 (%2)").arg(path, f.errorString()));
        splitsFile = HeldOutSplits::fromJson(f.readAll(), model.constants());
        if (!splitsFile)
            return usageError(ctx, QStringLiteral("--splits: %1: %2").arg(path, splitsFile.error().text()));
    }
    // The held-out splits and the user's figure carried across GPUs cover every workload: printed without
    // --workload only.
    const bool everything = wanted.isEmpty();
    const auto splits = everything ? validateHeldOutSplits(model, specs, splitsFile.value())
                                   : Result<QList<SplitValidation>>(QList<SplitValidation>{});
    if (!splits) {
        ctx.err << "gpufrontier-cli validate: " << splits.error().text() << Qt::endl;
        return ExitFailure;
    }
    const TransferValidation transfer =
        everything ? validateUserTransfer(model, specs, TransferData::builtin()) : TransferValidation{};
    const FoldValidation architectures =
        everything ? validateLeaveOneArchitectureOut(model, specs, TransferData::builtin(),
                                                     builtinTypicalStackRows())
                   : FoldValidation{};
    const FoldValidation sources =
        everything
            ? validateLeaveOneSourceOut(model, specs, TransferData::builtin(), builtinTypicalStackRows())
            : FoldValidation{};
    const auto pipelineWith = [&](LogRange range) {
        return everything
                   ? validateInputPipeline(InputPipelineData::builtin(), pipelineCheckCostPerSample(), range)
                   : InputPipelineValidation{};
    };
    const InputPipelineValidation pipeline = pipelineWith(kInputPipelineRange);
    const InputPipelineValidation pipelineJudged = pipelineWith(kJudgedInputPipelineRange);
    const StepFloorValidation stepFloor =
        everything ? validateStepFloors(model, specs, StepFloorData::builtin()) : StepFloorValidation{};
    const TunedTransferValidation tunedTransfer =
        everything ? validateTunedTransfer(model, specs, TransferData::mlperfExtra())
                   : TunedTransferValidation{};
    if (*format == u"json") {
        QJsonArray arr;
        for (const Block &b : std::as_const(blocks)) {
            QJsonObject o;
            o.insert(u"workload", b.workload->id);
            QJsonArray rows, skipped;
            for (const ValidationRow &r : b.rows) {
                if (!r.validated) {
                    skipped.append(QJsonObject{{QStringLiteral("gpu"), r.gpuId},
                                               {QStringLiteral("tier"), projectionTierName(r.tier)},
                                               {QStringLiteral("stack"), r.stack},
                                               {QStringLiteral("reason"), r.note}});
                    continue;
                }
                rows.append(QJsonObject{{QStringLiteral("gpu"), r.gpuId},
                                        {QStringLiteral("tier"), projectionTierName(r.tier)},
                                        {QStringLiteral("stack"), r.stack},
                                        {QStringLiteral("stack_factor"), r.truthFactor.factor},
                                        {QStringLiteral("stack_factor_method"), r.truthFactor.method},
                                        {QStringLiteral("stack_factor_gpus"),
                                         QJsonArray::fromStringList(r.truthFactor.sharedGpus)},
                                        {QStringLiteral("reference_gpus"), r.referenceGpus},
                                        {QStringLiteral("measured"), r.measured},
                                        {QStringLiteral("projected"), r.projected},
                                        {QStringLiteral("log_error"), r.logError},
                                        {QStringLiteral("projected_v1"), r.projectedV1},
                                        {QStringLiteral("log_error_v1"), r.logErrorV1}});
            }
            o.insert(u"rows", rows);
            o.insert(u"not_validated", skipped);
            o.insert(u"n", b.summary.n);
            o.insert(u"median_abs_log_error", b.summary.n ? QJsonValue(b.summary.median) : QJsonValue());
            o.insert(u"max_abs_log_error", b.summary.n ? QJsonValue(b.summary.max) : QJsonValue());
            o.insert(u"median_abs_log_error_v1", b.summary.n ? QJsonValue(b.summary.medianV1) : QJsonValue());
            o.insert(u"max_abs_log_error_v1", b.summary.n ? QJsonValue(b.summary.maxV1) : QJsonValue());
            arr.append(o);
        }
        QJsonObject root;
        root.insert(QStringLiteral("method"),
                    QStringLiteral("leave-one-GPU-out over resources/benchmarks/anchor_candidates.csv: "
                                   "constants refitted without the held-out GPU (model_v2.json "
                                   "validation_folds), anchors and stack factors recomputed without it"));
        root.insert(QStringLiteral("workloads"), arr);
        root.insert(QStringLiteral("typical_stack"), typicalStackJson(typical));
        if (everything) {
            root.insert(QStringLiteral("held_out_splits"), splitsJson(splits.value()));
            root.insert(QStringLiteral("input_pipeline"), inputPipelineJson(pipeline, pipelineJudged));
            root.insert(QStringLiteral("step_floor"), stepFloorJson(stepFloor));
            root.insert(QStringLiteral("user_transfer"), userTransferJson(transfer));
            root.insert(QStringLiteral("leave_one_architecture_out"), architectureJson(architectures));
            root.insert(QStringLiteral("leave_one_source_out"), sourcesJson(sources));
            root.insert(QStringLiteral("tuned_transfer_mlperf"), tunedTransferJson(tunedTransfer));
        }
        ctx.out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return ExitOk;
    }

    ctx.out
        << "Leave-one-GPU-out validation: each measured GPU projected without any of its own measurements\n"
           "(constants refitted without it, anchors and stack factors recomputed without it) and compared\n"
           "with its own figure in the reference stack. log error = ln(projected / measured).\n";
    QList<QStringList> summary;
    for (const Block &b : std::as_const(blocks)) {
        ctx.out << '\n' << b.workload->id << " (" << b.workload->sampleUnit << "/s per GPU)\n";
        if (b.rows.isEmpty()) {
            ctx.out << "  fewer than 2 measured GPUs: nothing to validate\n";
            continue;
        }
        QList<QStringList> rows;
        QStringList skipped;
        for (const ValidationRow &r : b.rows) {
            if (!r.validated) {
                skipped.append(QStringLiteral("  %1: not validated, %2\n").arg(r.gpuId, r.note));
                continue;
            }
            const QString truth =
                r.truthFactor.method == u"reference"
                    ? r.stack
                    : QStringLiteral("%1 x%2").arg(r.stack, QString::number(r.truthFactor.factor, 'f', 3));
            rows.append({r.gpuId, truth, speedText(r.measured), speedText(r.projected),
                         signedNumber(r.logError), speedText(r.projectedV1), signedNumber(r.logErrorV1)});
        }
        if (b.summary.n > 0) {
            rows.append({QStringLiteral("median |e|"), QString(), QString(), QString(),
                         QString::number(b.summary.median, 'f', 3), QString(),
                         QString::number(b.summary.medianV1, 'f', 3)});
            rows.append({QStringLiteral("max |e|"), QString(), QString(), QString(),
                         QString::number(b.summary.max, 'f', 3), QString(),
                         QString::number(b.summary.maxV1, 'f', 3)});
            ctx.out << renderTable({QStringLiteral("GPU"), QStringLiteral("Measured in (x factor)"),
                                    QStringLiteral("Measured"), QStringLiteral("v2 projected"),
                                    QStringLiteral("v2 log err"), QStringLiteral("v1 projected"),
                                    QStringLiteral("v1 log err")},
                                   rows, {false, false, true, true, true, true, true});
        }
        for (const QString &line : std::as_const(skipped))
            ctx.out << line;
        if (b.summary.n > 0)
            summary.append({b.workload->id, QString::number(b.summary.n),
                            QString::number(b.summary.median, 'f', 3), QString::number(b.summary.max, 'f', 3),
                            QString::number(b.summary.medianV1, 'f', 3),
                            QString::number(b.summary.maxV1, 'f', 3)});
    }
    if (summary.size() > 1) {
        ctx.out << "\nSummary (|log error|)\n";
        ctx.out << renderTable({QStringLiteral("Workload"), QStringLiteral("GPUs"),
                                QStringLiteral("v2 median"), QStringLiteral("v2 max"),
                                QStringLiteral("v1 median"), QStringLiteral("v1 max")},
                               summary, {false, true, true, true, true, true});
    }
    printTypicalStack(ctx.out, typical);
    if (everything) {
        printSplits(ctx.out, splits.value());
        printUserTransfer(ctx.out, transfer);
        printArchitectures(ctx.out, architectures);
        printSources(ctx.out, sources);
        printInputPipeline(ctx.out, pipeline, pipelineJudged);
        printStepFloor(ctx.out, stepFloor);
        printTunedTransfer(ctx.out, tunedTransfer);
    }
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeValidateCommand()
{
    return std::make_unique<ValidateCommand>();
}

} // namespace gf

#pragma once

#include "projection/errorsummary.h"
#include "projection/modelconstants.h"
#include "util/result.h"

#include <QList>
#include <QString>

namespace gf {

/// One real-data run of Lambda's TensorFlow suite beside the synthetic run of the same host, GPUs, precision,
/// network and batch (resources/benchmarks/input_pipeline_runs.csv, PROJECTION.md section 3.19).
struct InputPipelineRun
{
    QString host;        ///< the log's host directory
    QString cpu;         ///< the CPU it names
    int hostThreads = 0; ///< judged from the CPU (the file's header says how)
    QString gpu;
    int gpuCount = 0;
    QString network;
    QString precision;
    bool distortions = false;
    double realPerS = 0;      ///< images/s reading and decoding ImageNet JPEGs on the host
    double syntheticPerS = 0; ///< images/s of the same run on synthetic data: the GPU side, measured
    QString sourcePath;
};

struct InputPipelineData
{
    QList<InputPipelineRun> runs;

    /// Parses input_pipeline_runs.csv; an error names the file, the record and the column that is wrong.
    static Result<InputPipelineData> parse(const QString &csvText);
    /// The shipped file (fatal when broken: it is tested).
    static const InputPipelineData &builtin();
};

/// The check's figures over a set of runs: |ln(real / projected)| and how often the range holds the real
/// figure; the label is "all", "flagged cpu-bound" or the host's CPU.
using InputPipelineSummary = ErrorSummary;

/// The runs of one host CPU whose cap never binds: how much slower real data ran than synthetic data there,
/// the data path's cost when the CPUs keep up (reporting only; PROJECTION.md section 3.28, rule K4).
struct UnboundRuns
{
    QString cpu;
    int n = 0;
    double medianLogRatio = 0; ///< median ln(real / synthetic)
    double p10LogRatio = 0;    ///< its 10th percentile (the sorted list's element n / 10)
};

/// Each real run projected as projectOffers projects an offer capped by its pipeline (capByInputPipeline):
/// GPU side = the synthetic figure, cap = host threads / `cpuSecondsPerSample`, range `range`. Scored: the
/// runs the cap binds at the range's slow end ("input-bound offers"); the others are summarised by how much
/// slower real data ran than synthetic data.
struct InputPipelineValidation
{
    double cpuSecondsPerSample = 0;
    LogRange range;
    int runs = 0;                      ///< all runs of the file
    InputPipelineSummary bound;        ///< the scored runs
    InputPipelineSummary flagged;      ///< of them, those the app flags cpu-bound (cap < synthetic): a set
                                       ///< that does not depend on the range
    QList<InputPipelineSummary> byCpu; ///< the scored runs per host CPU
    int unbound = 0;                   ///< runs whose cap never binds
    double unboundMedianLogRatio = 0;  ///< their median ln(real / synthetic)
    double unboundP10LogRatio = 0;     ///< its 10th percentile
    QList<UnboundRuns> unboundByCpu;   ///< the same per host CPU, in the file's order
};

InputPipelineValidation validateInputPipeline(const InputPipelineData &data, double cpuSecondsPerSample,
                                              LogRange range);

} // namespace gf

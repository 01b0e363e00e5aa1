#pragma once

#include "domain/throughputmeasurement.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// One source of the shipped measured data (a row of resources/benchmarks/sources.csv).
struct BenchmarkSource
{
    QString id;
    QString title;
    QString url;
    QString commit; ///< commit or date the figures were taken from
    QString license;
};

/// One measurement of a workload preset on a GPU as the speed model uses it (a row of
/// resources/benchmarks/anchors.csv): the published per-GPU figure in the preset's reference software
/// stack, converted from another stack when the GPU was measured only there.
struct BenchmarkAnchor
{
    /// kind Benchmark; workloadId = preset id; samplesPerSPerGpu = the figure in the reference stack;
    /// source = one line of attribution (title, row, stack conversion, licence, URL).
    ThroughputMeasurement measurement;
    QString rowId;              ///< "B002": the row of training_throughput.csv
    QString sourceId;           ///< sources.csv id ("DLE-PYT-RN50")
    QString stack;              ///< software stack of the published figure ("mlperf-nvidia")
    QString referenceStack;     ///< the preset's reference stack ("dle-pytorch-21.03")
    double publishedPerGpu = 0; ///< the published per-GPU figure before the conversion
    double stackFactor = 1;     ///< published x factor = measurement.samplesPerSPerGpu
    QString factorMethod;       ///< "reference", "shared-gpu" (GPUs measured in both stacks), "model"
    QStringList factorGpus;     ///< shared-gpu: the GPUs the factor comes from
    bool converted() const { return factorMethod != u"reference"; }
};

/// One mixed-precision measurement of a preset's workload in one of the preset's software stacks (a row
/// of resources/benchmarks/anchor_candidates.csv): what the anchors are chosen from and converted with.
/// The speed model recomputes the anchors from them without a held-out GPU (SpeedModel::validate).
struct AnchorCandidate
{
    QString presetId;
    QString gpuId;
    QString stack;
    int stackRank = 0;      ///< 0 = the preset's reference stack; lower = preferred
    double samplesPerS = 0; ///< per GPU, in the preset's unit, as published in that stack
    int batchPerGpu = 0;
    QString precision; ///< "fp16", "bf16", "fp8"
    int gpuCount = 1;
    QString rowId; ///< the row of training_throughput.csv
};

/// The measured training throughput shipped with the application (resources/benchmarks/, built by
/// resources/tools/build_benchmarks.py and fit_projection.py from public sources; README.md there).
class BenchmarkTable
{
public:
    BenchmarkTable() = default;

    /// Parses anchors.csv, sources.csv and training_throughput.csv (only row_id, source_id,
    /// framework, gpu_src, precision_src and gpu_count of the last are read, for the attribution) and
    /// anchor_candidates.csv (empty: no candidates, nothing to validate).
    static Result<BenchmarkTable> fromCsv(const QString &anchorsCsv, const QString &sourcesCsv,
                                          const QString &throughputCsv, const QString &candidatesCsv = {});
    /// The tables shipped inside the application.
    static const BenchmarkTable &builtin();

    const QList<BenchmarkAnchor> &anchors() const { return m_anchors; }
    /// The anchors as plain measurements (kind Benchmark), in file order.
    ThroughputMeasurements measurements() const;
    /// nullptr when the workload was not measured on that GPU.
    const BenchmarkAnchor *anchor(const QString &workloadId, const QString &gpuId) const;
    const BenchmarkSource *source(const QString &id) const;
    /// Every measurement of every preset in its stacks (anchor_candidates.csv), in file order.
    const QList<AnchorCandidate> &candidates() const { return m_candidates; }
    const QList<BenchmarkSource> &sources() const { return m_sources; }

private:
    QList<BenchmarkAnchor> m_anchors;
    QList<BenchmarkSource> m_sources;
    QList<AnchorCandidate> m_candidates;
    QHash<QString, qsizetype> m_sourceById;
};

} // namespace gf

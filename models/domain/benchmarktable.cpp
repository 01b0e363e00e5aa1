#include "domain/benchmarktable.h"

#include "domain/gpuspecs.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <cmath>

namespace gf {

namespace {

Result<CsvDocument> parseTable(const QString &what, const QString &text, const QStringList &required)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(what, parsed.error().message), parsed.error().detail);
    for (const QString &c : required)
        if (parsed.value().column(c) < 0)
            return makeError(QStringLiteral("%1: the header has no \"%2\" column").arg(what, c));
    return parsed;
}

QString cell(const CsvDocument &doc, const CsvRecord &rec, const QString &name)
{
    const int c = doc.column(name);
    return c >= 0 && c < rec.fields.size() ? rec.fields.at(c).trimmed() : QString();
}

struct PublishedRow
{
    QString sourceId;
    QString framework;
    QString gpuName;
    QString precision;
    QString gpuCount;
};

} // namespace

Result<BenchmarkTable> BenchmarkTable::fromCsv(const QString &anchorsCsv, const QString &sourcesCsv,
                                               const QString &throughputCsv, const QString &candidatesCsv)
{
    BenchmarkTable t;
    const QString sWhat = QStringLiteral("benchmark sources (sources.csv)");
    auto sources = parseTable(sWhat, sourcesCsv,
                              {QStringLiteral("source_id"), QStringLiteral("title"),
                               QStringLiteral("url_or_repo_path"), QStringLiteral("license")});
    if (!sources)
        return sources.error();
    for (const CsvRecord &rec : sources.value().records) {
        const CsvDocument &d = sources.value();
        BenchmarkSource s{cell(d, rec, QStringLiteral("source_id")), cell(d, rec, QStringLiteral("title")),
                          cell(d, rec, QStringLiteral("url_or_repo_path")),
                          cell(d, rec, QStringLiteral("commit_or_date")),
                          cell(d, rec, QStringLiteral("license"))};
        if (s.id.isEmpty())
            return makeError(
                QStringLiteral("%1 line %2: empty source_id").arg(sWhat, QString::number(rec.line)));
        t.m_sourceById.insert(s.id, t.m_sources.size());
        t.m_sources.append(s);
    }

    const QString pWhat = QStringLiteral("measured throughput (training_throughput.csv)");
    auto published =
        parseTable(pWhat, throughputCsv, {QStringLiteral("row_id"), QStringLiteral("source_id")});
    if (!published)
        return published.error();
    QHash<QString, PublishedRow> rows;
    for (const CsvRecord &rec : published.value().records) {
        const CsvDocument &d = published.value();
        const QString id = cell(d, rec, QStringLiteral("row_id"));
        const QString source = cell(d, rec, QStringLiteral("source_id"));
        if (!t.m_sourceById.contains(source))
            return makeError(QStringLiteral("%1 line %2: unknown source_id \"%3\"")
                                 .arg(pWhat, QString::number(rec.line), source));
        rows.insert(
            id, {source, cell(d, rec, QStringLiteral("framework")), cell(d, rec, QStringLiteral("gpu_src")),
                 cell(d, rec, QStringLiteral("precision_src")), cell(d, rec, QStringLiteral("gpu_count"))});
    }

    const QString aWhat = QStringLiteral("benchmark anchors (anchors.csv)");
    const QStringList required{QStringLiteral("preset_id"),
                               QStringLiteral("gpu_id"),
                               QStringLiteral("samples_per_s"),
                               QStringLiteral("stack"),
                               QStringLiteral("stack_factor"),
                               QStringLiteral("factor_method"),
                               QStringLiteral("measured_per_gpu"),
                               QStringLiteral("batch_per_gpu"),
                               QStringLiteral("precision"),
                               QStringLiteral("gpu_count"),
                               QStringLiteral("row_id")};
    auto anchors = parseTable(aWhat, anchorsCsv, required);
    if (!anchors)
        return anchors.error();
    const CsvDocument &d = anchors.value();
    QHash<QString, QString> referenceStack;
    for (const CsvRecord &rec : d.records)
        if (cell(d, rec, QStringLiteral("factor_method")) == u"reference")
            referenceStack.insert(cell(d, rec, QStringLiteral("preset_id")),
                                  cell(d, rec, QStringLiteral("stack")));
    for (const CsvRecord &rec : d.records) {
        auto number = [&](const QString &name, double *out) {
            bool ok = false;
            *out = cell(d, rec, name).toDouble(&ok);
            return ok && std::isfinite(*out) && *out > 0;
        };
        BenchmarkAnchor a;
        ThroughputMeasurement &m = a.measurement;
        m.kind = MeasurementKind::Benchmark;
        m.workloadId = cell(d, rec, QStringLiteral("preset_id"));
        m.gpuId = cell(d, rec, QStringLiteral("gpu_id"));
        double batch = 0, count = 0;
        if (m.workloadId.isEmpty() || m.gpuId.isEmpty() ||
            !number(QStringLiteral("samples_per_s"), &m.samplesPerSPerGpu) ||
            !number(QStringLiteral("batch_per_gpu"), &batch) ||
            !number(QStringLiteral("gpu_count"), &count) ||
            !number(QStringLiteral("stack_factor"), &a.stackFactor) ||
            !number(QStringLiteral("measured_per_gpu"), &a.publishedPerGpu))
            return makeError(QStringLiteral("%1 line %2: an id is empty or a number is not positive")
                                 .arg(aWhat, QString::number(rec.line)));
        m.batchPerGpu = static_cast<int>(batch);
        m.gpuCount = static_cast<int>(count);
        m.precision = cell(d, rec, QStringLiteral("precision"));
        if (!precisionFromName(m.precision))
            return makeError(QStringLiteral("%1 line %2: unknown precision \"%3\"")
                                 .arg(aWhat, QString::number(rec.line), m.precision));
        a.rowId = cell(d, rec, QStringLiteral("row_id"));
        a.stack = cell(d, rec, QStringLiteral("stack"));
        a.factorMethod = cell(d, rec, QStringLiteral("factor_method"));
        a.referenceStack = referenceStack.value(m.workloadId, a.stack);
        const QString gpus = cell(d, rec, QStringLiteral("factor_gpus"));
        a.factorGpus = gpus.isEmpty() ? QStringList{} : gpus.split(u'|');
        const auto row = rows.constFind(a.rowId);
        if (row == rows.constEnd())
            return makeError(QStringLiteral("%1 line %2: row %3 is not in training_throughput.csv")
                                 .arg(aWhat, QString::number(rec.line), a.rowId));
        a.sourceId = row->sourceId;
        const BenchmarkSource &src = t.m_sources.at(t.m_sourceById.value(a.sourceId));
        QString text = QStringLiteral("%1 (row %2: %3, %4, %5 on %6 GPU%7)")
                           .arg(src.title, a.rowId, row->framework, row->precision, row->gpuName,
                                row->gpuCount, row->gpuCount == u"1" ? QString() : QStringLiteral("s"));
        if (a.converted())
            text +=
                QStringLiteral("; %1 x %2 = %3 per GPU in the reference stack %4 (factor from %5)")
                    .arg(QString::number(a.publishedPerGpu, 'g', 4), QString::number(a.stackFactor, 'f', 3),
                         QString::number(m.samplesPerSPerGpu, 'g', 4), a.referenceStack,
                         a.factorMethod == u"shared-gpu"
                             ? QStringLiteral("the GPUs measured in both stacks: ") +
                                   a.factorGpus.join(QStringLiteral(", "))
                             : QStringLiteral("the model: no GPU measured in both stacks"));
        text += QStringLiteral("; %1; %2").arg(src.license, src.url);
        m.source = text;
        t.m_anchors.append(a);
    }

    if (candidatesCsv.trimmed().isEmpty())
        return t;
    const QString cWhat = QStringLiteral("anchor candidates (anchor_candidates.csv)");
    auto cands = parseTable(cWhat, candidatesCsv,
                            {QStringLiteral("preset_id"), QStringLiteral("gpu_id"), QStringLiteral("stack"),
                             QStringLiteral("stack_rank"), QStringLiteral("samples_per_s"),
                             QStringLiteral("batch_per_gpu"), QStringLiteral("precision"),
                             QStringLiteral("gpu_count"), QStringLiteral("row_id")});
    if (!cands)
        return cands.error();
    const CsvDocument &cd = cands.value();
    for (const CsvRecord &rec : cd.records) {
        AnchorCandidate c;
        c.presetId = cell(cd, rec, QStringLiteral("preset_id"));
        c.gpuId = cell(cd, rec, QStringLiteral("gpu_id"));
        c.stack = cell(cd, rec, QStringLiteral("stack"));
        c.precision = cell(cd, rec, QStringLiteral("precision"));
        c.rowId = cell(cd, rec, QStringLiteral("row_id"));
        bool okRank = false, okValue = false, okBatch = false, okCount = false;
        c.stackRank = cell(cd, rec, QStringLiteral("stack_rank")).toInt(&okRank);
        c.samplesPerS = cell(cd, rec, QStringLiteral("samples_per_s")).toDouble(&okValue);
        c.batchPerGpu = cell(cd, rec, QStringLiteral("batch_per_gpu")).toInt(&okBatch);
        c.gpuCount = cell(cd, rec, QStringLiteral("gpu_count")).toInt(&okCount);
        if (c.presetId.isEmpty() || c.gpuId.isEmpty() || c.stack.isEmpty() || !okRank || c.stackRank < 0 ||
            !okValue || !std::isfinite(c.samplesPerS) || !(c.samplesPerS > 0) || !okBatch ||
            c.batchPerGpu <= 0 || !okCount || c.gpuCount <= 0)
            return makeError(QStringLiteral("%1 line %2: an id is empty or a number is not positive")
                                 .arg(cWhat, QString::number(rec.line)));
        if (!precisionFromName(c.precision))
            return makeError(QStringLiteral("%1 line %2: unknown precision \"%3\"")
                                 .arg(cWhat, QString::number(rec.line), c.precision));
        if (!rows.contains(c.rowId))
            return makeError(QStringLiteral("%1 line %2: row %3 is not in training_throughput.csv")
                                 .arg(cWhat, QString::number(rec.line), c.rowId));
        t.m_candidates.append(c);
    }
    return t;
}

const BenchmarkTable &BenchmarkTable::builtin()
{
    static const BenchmarkTable table = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("benchmarks/anchors.csv")),
                         readResourceText(QStringLiteral("benchmarks/sources.csv")),
                         readResourceText(QStringLiteral("benchmarks/training_throughput.csv")),
                         readResourceText(QStringLiteral("benchmarks/anchor_candidates.csv")));
        if (!r)
            qFatal("The built-in benchmark table is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return table;
}

ThroughputMeasurements BenchmarkTable::measurements() const
{
    ThroughputMeasurements out;
    out.reserve(m_anchors.size());
    for (const BenchmarkAnchor &a : m_anchors)
        out.append(a.measurement);
    return out;
}

const BenchmarkAnchor *BenchmarkTable::anchor(const QString &workloadId, const QString &gpuId) const
{
    for (const BenchmarkAnchor &a : m_anchors)
        if (a.measurement.gpuId == gpuId &&
            a.measurement.workloadId.compare(workloadId, Qt::CaseInsensitive) == 0)
            return &a;
    return nullptr;
}

const BenchmarkSource *BenchmarkTable::source(const QString &id) const
{
    auto it = m_sourceById.constFind(id);
    return it == m_sourceById.constEnd() ? nullptr : &m_sources.at(*it);
}

} // namespace gf

#include "projection/typicalstackvalidation.h"

#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace gf {

Result<QList<TypicalStackRow>> parseTypicalStackRows(const QString &csvText)
{
    auto parsed =
        parseCsvWithColumns(csvText, QStringLiteral("typical_stack_rows.csv"),
                            {"source_id", "preset_id", "gpu_id", "batch_per_gpu", "samples_per_s", "use"});
    if (!parsed)
        return parsed.error();
    const CsvDocument &doc = parsed.value();
    QList<TypicalStackRow> out;
    int line = 0;
    for (const CsvRecord &r : doc.records) {
        ++line;
        auto f = [&](const char *name) { return csvField(doc, r, name); };
        TypicalStackRow row;
        row.sourceId = f("source_id");
        row.presetId = f("preset_id");
        row.gpuId = f("gpu_id");
        bool okBatch = false, okSpeed = false;
        row.batchPerGpu = f("batch_per_gpu").toInt(&okBatch);
        row.samplesPerS = f("samples_per_s").toDouble(&okSpeed);
        row.use = f("use") == u"1";
        row.excludeReason = f("exclude_reason");
        if (!okBatch || row.batchPerGpu < 1)
            return makeError(
                QStringLiteral("typical_stack_rows.csv, record %1: batch_per_gpu \"%2\" is not a "
                               "positive whole number")
                    .arg(line)
                    .arg(f("batch_per_gpu")));
        if (!okSpeed || !(row.samplesPerS > 0) || !std::isfinite(row.samplesPerS))
            return makeError(
                QStringLiteral(
                    "typical_stack_rows.csv, record %1: samples_per_s \"%2\" is not a positive number")
                    .arg(line)
                    .arg(f("samples_per_s")));
        out.append(row);
    }
    return out;
}

const QList<TypicalStackRow> &builtinTypicalStackRows()
{
    static const QList<TypicalStackRow> rows = [] {
        auto r = parseTypicalStackRows(readResourceText(QStringLiteral("benchmarks/typical_stack_rows.csv")));
        if (!r)
            qFatal("The built-in typical-stack rows are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return rows;
}

namespace {

double typicalSpeed(double tuned, double flops, double rate)
{
    return TypicalStack::speed(tuned, TypicalStack::overheadS(flops, rate));
}

double percentile(QList<double> xs, double q)
{
    std::sort(xs.begin(), xs.end());
    const double k = (xs.size() - 1) * q;
    const auto i = static_cast<qsizetype>(std::floor(k));
    const qsizetype j = std::min(i + 1, xs.size() - 1);
    return xs.at(i) + (xs.at(j) - xs.at(i)) * (k - static_cast<double>(i));
}

/// R_o per preset and pooled, fitted on `obs`.
std::pair<QHash<QString, double>, double> fitRates(const QList<TypicalStackObservation> &obs)
{
    QHash<QString, QList<TypicalStackObservation>> byPreset;
    for (const TypicalStackObservation &o : obs)
        byPreset[o.row.presetId].append(o);
    QHash<QString, double> rates;
    for (auto it = byPreset.cbegin(); it != byPreset.cend(); ++it)
        rates.insert(it.key(), fitOverheadTflops(it.value()));
    return {rates, fitOverheadTflops(obs)};
}

TypicalStackSplit summarize(const QString &name, const QList<TypicalStackObservation> &obs)
{
    TypicalStackSplit s;
    s.heldOutSource = name;
    s.n = static_cast<int>(obs.size());
    if (obs.isEmpty())
        return s;
    QList<double> before, after;
    for (const TypicalStackObservation &o : obs) {
        before.append(std::abs(std::log(o.tuned / o.row.samplesPerS)));
        after.append(std::abs(std::log(o.typical / o.row.samplesPerS)));
    }
    s.medianBefore = percentile(before, 0.5);
    s.maxBefore = *std::max_element(before.begin(), before.end());
    s.medianAfter = percentile(after, 0.5);
    s.maxAfter = *std::max_element(after.begin(), after.end());
    return s;
}

} // namespace

double fitOverheadTflops(const QList<TypicalStackObservation> &obs)
{
    if (obs.isEmpty())
        return 0;
    auto sse = [&](double x) {
        const double rate = std::exp(x);
        double sum = 0;
        for (const TypicalStackObservation &o : obs) {
            const double e =
                std::log(typicalSpeed(o.tuned * std::exp(o.classLogFactor), o.flopsPerSample, rate) /
                         o.row.samplesPerS);
            sum += e * e;
        }
        return sum;
    };
    double lo = std::log(10.0), hi = std::log(1e5);
    const double g = (std::sqrt(5.0) - 1) / 2;
    double a = hi - g * (hi - lo), b = lo + g * (hi - lo);
    for (int i = 0; i < 200; ++i) {
        if (sse(a) < sse(b))
            hi = b;
        else
            lo = a;
        a = hi - g * (hi - lo);
        b = lo + g * (hi - lo);
    }
    return std::exp((lo + hi) / 2);
}

TypicalStackValidation validateTypicalStack(const SpeedModel &model, const GpuSpecTable &specs,
                                            const QList<TypicalStackRow> &rows)
{
    TypicalStackValidation v;
    QList<TypicalStackObservation> obs;
    QStringList sources;
    for (const TypicalStackRow &r : rows) {
        const QString where = QStringLiteral("%1 / %2 / %3").arg(r.sourceId, r.presetId, r.gpuId);
        if (!r.use) {
            v.excluded.append(QStringLiteral("%1: %2").arg(where, r.excludeReason));
            continue;
        }
        const Workload *preset = findWorkload(builtinWorkloads(), r.presetId);
        const GpuSpec *spec = specs.spec(r.gpuId);
        if (!preset || !spec) {
            v.excluded.append(QStringLiteral("%1: %2").arg(
                where, preset ? QStringLiteral("no spec row for the GPU") : QStringLiteral("not a preset")));
            continue;
        }
        Workload w = withBatch(*preset, r.batchPerGpu);
        w.stack = SoftwareStack::Tuned;
        const SingleGpuSpeed s =
            model.project(*spec, w, model.anchorsFor(w, {}, specs), defaultCalibration());
        if (!s.ok) {
            v.excluded.append(QStringLiteral("%1: no projection").arg(where));
            continue;
        }
        TypicalStackObservation o;
        o.row = r;
        const GpuArch *arch = model.arch().arch(r.gpuId);
        o.classLogFactor = model.typicalStack()
                               .classLogFactor(arch ? arch->arch : QString(), preset->workloadClass)
                               .value_or(0.0);
        o.flopsPerSample = model.shapeAt(w, w.batchPerGpu, w.precision).first;
        o.tuned = s.samplesPerS;
        o.tunedRange = s.range;
        obs.append(o);
        if (!sources.contains(r.sourceId))
            sources.append(r.sourceId);
    }
    std::sort(sources.begin(), sources.end());
    for (const QString &source : std::as_const(sources)) {
        QList<TypicalStackObservation> training, held;
        for (const TypicalStackObservation &o : std::as_const(obs))
            (o.row.sourceId == source ? held : training).append(o);
        const TypicalStack &shipped = model.typicalStack();
        const auto fold = std::find_if(shipped.sourceFolds.begin(), shipped.sourceFolds.end(),
                                       [&](const TypicalStackFold &f) { return f.heldOut == source; });
        const auto [rates, pooled] = fitRates(training);
        const TypicalStack fit =
            fold != shipped.sourceFolds.end() ? shipped.withFit(fold->fit) : TypicalStack{};
        for (TypicalStackObservation &o : held) {
            if (fold != shipped.sourceFolds.end()) {
                const Workload *preset = findWorkload(builtinWorkloads(), o.row.presetId);
                const GpuArch *arch = model.arch().arch(o.row.gpuId);
                o.overheadTflops = fit.overheadTflops(o.row.presetId, false, preset->workloadClass);
                o.foldLogFactor =
                    fit.classLogFactor(arch ? arch->arch : QString(), preset->workloadClass).value_or(0.0);
            } else {
                o.overheadTflops = rates.value(o.row.presetId, pooled);
                o.foldLogFactor = o.classLogFactor;
            }
            const double tuned = o.tuned * std::exp(o.foldLogFactor);
            o.typical =
                o.overheadTflops > 0 ? typicalSpeed(tuned, o.flopsPerSample, o.overheadTflops) : tuned;
        }
        v.splits.append(summarize(source, held));
        v.heldOut.append(held);
    }
    v.splits.append(summarize(QStringLiteral("all"), v.heldOut));
    if (v.heldOut.isEmpty())
        return v;
    QList<double> errors;
    for (const TypicalStackObservation &o : std::as_const(v.heldOut))
        errors.append(std::log(o.typical / o.row.samplesPerS));
    v.range = {percentile(errors, 0.1), percentile(errors, 0.9)};
    int inBefore = 0, inAfter = 0;
    for (const TypicalStackObservation &o : std::as_const(v.heldOut)) {
        const double m = o.row.samplesPerS;
        // speed range = speed x [exp(-p90), exp(-p10)] (SingleGpuSpeed::samplesPerSLow/High)
        inBefore += m >= o.tuned * std::exp(-o.tunedRange.p90) && m <= o.tuned * std::exp(-o.tunedRange.p10);
        const LogRange c = o.tunedRange.combined(v.range);
        inAfter += m >= o.typical * std::exp(-c.p90) && m <= o.typical * std::exp(-c.p10);
    }
    v.coverageBefore = static_cast<double>(inBefore) / static_cast<double>(v.heldOut.size());
    v.coverageAfter = static_cast<double>(inAfter) / static_cast<double>(v.heldOut.size());
    return v;
}

} // namespace gf

#include "projection/inputpipelinevalidation.h"

#include "projection/offerprojection.h"
#include "projection/speedmodel.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace gf {

Result<InputPipelineData> InputPipelineData::parse(const QString &csvText)
{
    const QString file = QStringLiteral("input_pipeline_runs.csv");
    auto parsed =
        parseCsvWithColumns(csvText, file,
                            {"host", "cpu", "host_threads", "gpu_src", "gpu_count", "network", "precision",
                             "distortions", "real_images_per_s", "synthetic_images_per_s", "source_path"},
                            true);
    if (!parsed)
        return parsed.error();
    const CsvDocument &doc = parsed.value();
    InputPipelineData out;
    int line = 0;
    for (const CsvRecord &r : doc.records) {
        ++line;
        auto f = [&](const char *name) { return csvField(doc, r, name); };
        // Counts and rates alike: positive, finite and below 1e9 (threads and GPUs then fit an int).
        auto positive = [&](const char *name, double *value) -> std::optional<Error> {
            bool ok = false;
            *value = f(name).toDouble(&ok);
            if (ok && *value > 0 && *value < 1e9)
                return std::nullopt;
            return makeError(QStringLiteral("%1, record %2: %3 \"%4\" is not a positive number below 1e9")
                                 .arg(file)
                                 .arg(line)
                                 .arg(QLatin1String(name), f(name)));
        };
        InputPipelineRun run;
        run.host = f("host");
        run.cpu = f("cpu");
        run.gpu = f("gpu_src");
        run.network = f("network");
        run.precision = f("precision");
        run.sourcePath = f("source_path");
        const QString distortions = f("distortions");
        if (distortions != u"yes" && distortions != u"no")
            return makeError(QStringLiteral("%1, record %2: distortions \"%3\" is neither yes nor no")
                                 .arg(file)
                                 .arg(line)
                                 .arg(distortions));
        run.distortions = distortions == u"yes";
        double threads = 0, gpus = 0;
        for (auto [name, value] : {std::pair{"host_threads", &threads}, std::pair{"gpu_count", &gpus},
                                   std::pair{"real_images_per_s", &run.realPerS},
                                   std::pair{"synthetic_images_per_s", &run.syntheticPerS}})
            if (auto e = positive(name, value))
                return *e;
        run.hostThreads = int(threads);
        run.gpuCount = int(gpus);
        if (run.hostThreads != threads || run.gpuCount != gpus)
            return makeError(QStringLiteral("%1, record %2: host_threads and gpu_count must be whole numbers")
                                 .arg(file)
                                 .arg(line));
        if (run.host.isEmpty() || run.cpu.isEmpty())
            return makeError(
                QStringLiteral("%1, record %2: host and cpu must not be empty").arg(file).arg(line));
        if (run.gpu.isEmpty() || run.network.isEmpty() || run.precision.isEmpty() || run.sourcePath.isEmpty())
            return makeError(
                QStringLiteral("%1, record %2: gpu_src, network, precision and source_path must not be empty")
                    .arg(file)
                    .arg(line));
        out.runs.append(run);
    }
    return out;
}

const InputPipelineData &InputPipelineData::builtin()
{
    static const InputPipelineData data = [] {
        auto r = parse(readResourceText(QStringLiteral("benchmarks/input_pipeline_runs.csv")));
        if (!r)
            qFatal("The built-in input pipeline runs are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return data;
}

namespace {

struct Scored
{
    const InputPipelineRun *run = nullptr;
    double absLogError = 0;
    bool inside = false;
    bool flagged = false; ///< the app would flag it cpu-bound (cap below the GPU side)
};

// The element n / 10 of the sorted list (non-empty), as the pooled figure has always been taken.
double tenthPercentile(QList<double> values)
{
    std::sort(values.begin(), values.end());
    return values.at(values.size() / 10);
}

InputPipelineSummary summarize(const QString &label, const QList<Scored> &scored,
                               const std::function<bool(const Scored &)> &keep)
{
    QList<double> errors;
    int inside = 0;
    for (const Scored &x : scored)
        if (keep(x)) {
            errors.append(x.absLogError);
            inside += x.inside ? 1 : 0;
        }
    return summarizeErrors(label, errors, inside);
}

} // namespace

InputPipelineValidation validateInputPipeline(const InputPipelineData &data, double cpuSecondsPerSample,
                                              LogRange range)
{
    InputPipelineValidation v;
    v.cpuSecondsPerSample = cpuSecondsPerSample;
    v.range = range;
    v.runs = int(data.runs.size());
    if (!(cpuSecondsPerSample > 0))
        return v;
    QList<Scored> scored;
    QList<double> unboundRatios;
    QStringList unboundCpus;
    QList<QList<double>> unboundRatiosByCpu;
    for (const InputPipelineRun &run : data.runs) {
        const double cap = run.hostThreads / cpuSecondsPerSample;
        // The GPU side is measured (the synthetic figure): no range of its own.
        const PipelineCapped p =
            capByInputPipeline(run.syntheticPerS, run.syntheticPerS, run.syntheticPerS, cap, range);
        if (p.slow < run.syntheticPerS) {
            scored.append({&run, std::abs(std::log(run.realPerS / p.rate)),
                           run.realPerS >= p.slow && run.realPerS <= p.fast, p.cpuBound});
        } else {
            const double ratio = std::log(run.realPerS / run.syntheticPerS);
            unboundRatios.append(ratio);
            qsizetype at = unboundCpus.indexOf(run.cpu);
            if (at < 0) {
                unboundCpus.append(run.cpu);
                unboundRatiosByCpu.append(QList<double>{});
                at = unboundCpus.size() - 1;
            }
            unboundRatiosByCpu[at].append(ratio);
        }
    }
    v.bound = summarize(QStringLiteral("all"), scored, [](const Scored &) { return true; });
    v.flagged =
        summarize(QStringLiteral("flagged cpu-bound"), scored, [](const Scored &s) { return s.flagged; });
    QStringList cpus;
    for (const Scored &s : std::as_const(scored))
        if (!cpus.contains(s.run->cpu))
            cpus.append(s.run->cpu);
    for (const QString &cpu : std::as_const(cpus))
        v.byCpu.append(summarize(cpu, scored, [&](const Scored &s) { return s.run->cpu == cpu; }));
    v.unbound = int(unboundRatios.size());
    if (!unboundRatios.isEmpty()) {
        v.unboundMedianLogRatio = sampleMedian(unboundRatios);
        v.unboundP10LogRatio = tenthPercentile(unboundRatios);
    }
    for (qsizetype i = 0; i < unboundCpus.size(); ++i)
        v.unboundByCpu.append({unboundCpus.at(i), int(unboundRatiosByCpu.at(i).size()),
                               sampleMedian(unboundRatiosByCpu.at(i)),
                               tenthPercentile(unboundRatiosByCpu.at(i))});
    return v;
}

} // namespace gf

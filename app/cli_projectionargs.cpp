#include "cli_projectionargs.h"

#include "cli.h"
#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/offertable.h"
#include "domain/provider.h"
#include "domain/workload.h"
#include "domain/workloadbuilder.h"
#include "projection/scenario.h"
#include "projection/stepfloor.h"
#include "store/catalogstore.h"

#include <cmath>

namespace gf {

void addWorkloadOptions(CliOptions &p)
{
    QStringList ids;
    for (const Workload &w : builtinWorkloads())
        ids.append(w.id);
    p.addValue(QStringLiteral("workload"), QStringLiteral("NAME"),
               QStringLiteral("workload preset: %1 (see 'gpufrontier-cli workloads')")
                   .arg(ids.join(QStringLiteral(", "))));
    p.addValue(QStringLiteral("samples"), QStringLiteral("N"),
               QStringLiteral("samples per epoch (default: the preset's)"));
    p.addValue(QStringLiteral("epochs"), QStringLiteral("E"),
               QStringLiteral("epochs (default: the preset's; may be fractional)"));
    p.addValue(QStringLiteral("flops-per-sample"), QStringLiteral("F"),
               QStringLiteral("custom workload: forward+backward FLOPs per sample"));
    p.addValue(
        QStringLiteral("bytes-per-sample"), QStringLiteral("B"),
        QStringLiteral("custom workload: GPU memory traffic per sample, bytes (default: the typical "
                       "stack assumes its class's bytes per FLOP, or for a convolutional or transformer "
                       "one its reference preset's shape; the tuned stack its class's presets' own bytes "
                       "per FLOP)"));
    p.addValue(QStringLiteral("measured"), QStringLiteral("S"),
               QStringLiteral("custom workload: samples/s you measured on ONE GPU of --measured-on"));
    p.addValue(QStringLiteral("measured-on"), QStringLiteral("GPU"),
               QStringLiteral("GPU model of --measured, e.g. a100-80gb-sxm4, \"RTX 4090\""));
    p.addValue(QStringLiteral("measured-busy"), QStringLiteral("PCT"),
               QStringLiteral(
                   "with --measured: how busy the GPU was during it, percent (nvidia-smi's "
                   "utilization.gpu); under %1 the host set the speed, and on other NVIDIA GPUs that step "
                   "stays a floor (PROJECTION.md section 3.22); %1 to under %2 may still be host-bound "
                   "(nvidia-smi reads high), so faster GPUs' ranges reach that floor (section 3.27)")
                   .arg(QString::number(kHostBoundBusy * 100, 'f', 0),
                        QString::number(kSmiGpuBoundBusy * 100, 'f', 0)));
    p.addValue(QStringLiteral("measured-batch"), QStringLiteral("N"),
               QStringLiteral("with --measured: the micro-batch per GPU it was measured at, when not --batch "
                              "(default: --batch's); a host-bound step at batch N caps batch B at B / step "
                              "(PROJECTION.md section 3.25); 8x or more from --batch, the ranges widen "
                              "(rule AD, section 3.30)"));
    p.addValue(QStringLiteral("precision"), QStringLiteral("P"),
               QStringLiteral("custom workload precision: fp32, tf32, fp16, bf16, fp8 (default fp16)"));
    p.addValue(QStringLiteral("params"), QStringLiteral("N"),
               QStringLiteral("custom workload: trainable parameters (gradient exchange; default 0)"));
    p.addValue(QStringLiteral("memory-gb"), QStringLiteral("GB"),
               QStringLiteral("custom workload: GPU memory needed per GPU (default 0: not checked)"));
    p.addValue(QStringLiteral("batch"), QStringLiteral("N"),
               QStringLiteral("micro-batch per GPU (default: the preset's, else 32); a preset's memory "
                              "traffic per sample and memory per GPU follow it"));
    p.addValue(QStringLiteral("min-vcpus"), QStringLiteral("N"),
               QStringLiteral("vCPUs per GPU the input pipeline needs"));
    p.addValue(QStringLiteral("checkpointing"), QStringLiteral("on|off"),
               QStringLiteral("gradient checkpointing where the preset offers it: less memory per GPU, "
                              "more FLOPs per sample (default: the preset's recipe)"));
    p.addValue(QStringLiteral("dataset-gb"), QStringLiteral("GB"),
               QStringLiteral("data set staged onto each node before training, GB (default: the preset's)"));
    p.addValue(QStringLiteral("stack"), QStringLiteral("typical|tuned"),
               QStringLiteral("software stack: typical = your PyTorch script as most people run it (the "
                              "default); tuned = vendor-optimised code (NVIDIA DeepLearningExamples, MLPerf, "
                              "llm.c), which most shipped measurements come from"));
    p.addValue(
        QStringLiteral("workload-class"), QStringLiteral("CLASS"),
        QStringLiteral("what kind of network it is: convolutional, transformer, recurrent-speech, "
                       "detection or unknown (a custom workload's default: no class factor, a wider "
                       "range); the typical stack's efficiency is fitted per GPU architecture and class, "
                       "and a convolutional or transformer custom workload takes the GPU-to-GPU shape of "
                       "ResNet-50 or BERT-large; in the tuned stack the class only sets the memory traffic "
                       "assumed for FLOPs given without bytes (default: the preset's class)"));
    p.addValue(QStringLiteral("workload-name"), QStringLiteral("TEXT"),
               QStringLiteral("custom workload: its name in the outputs (default \"custom\")"));
    p.addFlag(
        QStringLiteral("no-calibration"),
        QStringLiteral("use the datasheet-only default efficiencies, not the newest readable probe run"));
    p.addValue(QStringLiteral("scenario"), QStringLiteral("FILE"),
               QStringLiteral("read the workload, limits, assumptions and offer filter from a scenario file "
                              "(saved by the GUI's File > Save scenario or --save-scenario); flags given "
                              "here override its settings (--workload replaces its whole workload)"));
}

Result<WorkloadSpec> workloadSpecFromArgs(const CliArgs &p)
{
    QString err;
    const auto samples = p.number(QStringLiteral("samples"), &err, 1, 1e15);
    const auto epochs = p.number(QStringLiteral("epochs"), &err, 1e-6, 1e6);
    const auto flops = p.number(QStringLiteral("flops-per-sample"), &err, 1, 1e21);
    const auto bytes = p.number(QStringLiteral("bytes-per-sample"), &err, 0, 1e18);
    const auto measured = p.number(QStringLiteral("measured"), &err, 1e-9, 1e12);
    const auto measuredBusy = p.number(QStringLiteral("measured-busy"), &err, 1, 100);
    const auto measuredBatch = p.number(QStringLiteral("measured-batch"), &err, 1, 1 << 24);
    const auto params = p.number(QStringLiteral("params"), &err, 0, 1e14);
    const auto memory = p.number(QStringLiteral("memory-gb"), &err, 0, 1e6);
    const auto batch = p.number(QStringLiteral("batch"), &err, 1, 1 << 24);
    const auto minVcpus = p.number(QStringLiteral("min-vcpus"), &err, 0, 1024);
    const auto datasetGb = p.number(QStringLiteral("dataset-gb"), &err, 0, 1e6);
    std::optional<bool> checkpointing;
    if (p.isSet(QStringLiteral("checkpointing"))) {
        const QString v = p.value(QStringLiteral("checkpointing"));
        if (v == u"on")
            checkpointing = true;
        else if (v == u"off")
            checkpointing = false;
        else
            err = QStringLiteral("--checkpointing: \"%1\" is not on or off").arg(v);
    }
    SoftwareStack stack = SoftwareStack::Typical;
    if (p.isSet(QStringLiteral("stack"))) {
        const auto named = softwareStackFromName(p.value(QStringLiteral("stack")));
        if (named)
            stack = *named;
        else
            err = QStringLiteral("--stack: \"%1\" is not typical or tuned")
                      .arg(p.value(QStringLiteral("stack")));
    }
    std::optional<WorkloadClass> workloadClass;
    if (p.isSet(QStringLiteral("workload-class"))) {
        workloadClass = workloadClassFromName(p.value(QStringLiteral("workload-class")));
        if (!workloadClass)
            err = QStringLiteral("--workload-class: \"%1\" is not one of %2")
                      .arg(p.value(QStringLiteral("workload-class")),
                           workloadClassNames().join(QStringLiteral(", ")));
    }
    if (!err.isEmpty())
        return cliUsageError(err);
    if (batch && *batch != std::floor(*batch))
        return cliUsageError(QStringLiteral("--batch: must be a whole number"));
    std::optional<Precision> precision;
    if (p.isSet(QStringLiteral("precision"))) {
        precision = precisionFromName(p.value(QStringLiteral("precision")));
        if (!precision)
            return cliUsageError(
                QStringLiteral("--precision: \"%1\" is not one of %2")
                    .arg(p.value(QStringLiteral("precision")), precisionNames().join(QStringLiteral(", "))));
    }
    if (measured.has_value() != p.isSet(QStringLiteral("measured-on")))
        return cliUsageError(QStringLiteral("--measured and --measured-on go together"));
    if (measuredBusy && !measured)
        return cliUsageError(QStringLiteral("--measured-busy goes with --measured S --measured-on GPU"));
    if (measuredBatch && !measured)
        return cliUsageError(QStringLiteral("--measured-batch goes with --measured S --measured-on GPU"));

    WorkloadSpec spec;
    spec.preset = p.value(QStringLiteral("workload"));
    spec.name = p.value(QStringLiteral("workload-name"));
    if (!spec.preset.isEmpty() && p.isSet(QStringLiteral("workload-name")))
        return cliUsageError(QStringLiteral("--workload-name: only a custom workload takes a name"));
    WorkloadOverrides &o = spec.overrides;
    o.samplesPerEpoch = samples;
    o.epochs = epochs;
    o.precision = precision;
    o.flopsPerSample = flops;
    o.bytesPerSample = bytes;
    o.parameters = params;
    o.memoryGb = memory;
    if (batch)
        o.batchPerGpu = static_cast<int>(*batch);
    o.checkpointing = checkpointing;
    o.datasetGb = datasetGb;
    o.minVcpusPerGpu = minVcpus;
    o.measuredSamplesPerS = measured;
    o.referenceGpu = p.value(QStringLiteral("measured-on"));
    if (measuredBusy)
        o.measuredGpuBusy = *measuredBusy / 100.0;
    if (measuredBatch)
        o.measuredBatchPerGpu = static_cast<int>(*measuredBatch);
    o.stack = stack;
    o.workloadClass = workloadClass;
    if (spec.preset.isEmpty()) {
        if (!flops && !measured)
            return cliUsageError(
                QStringLiteral("--workload NAME is required (or a custom workload: --flops-per-sample F, "
                               "or --measured S --measured-on GPU; with --samples N)"));
        if (!samples)
            return cliUsageError(QStringLiteral("a custom workload needs --samples N (samples per epoch)"));
        if (checkpointing)
            return cliUsageError(
                QStringLiteral("--checkpointing: a custom workload has no checkpointing figures "
                               "(give its --memory-gb and --flops-per-sample for the recipe)"));
    }
    return spec;
}

Result<Workload> workloadFromSpec(const WorkloadSpec &spec)
{
    auto built = buildWorkloadSpec(spec);
    if (built)
        return built;
    const Error &e = built.error();
    if (e.code == QLatin1String(kWorkloadUnknownPresetError))
        return cliUsageError(QStringLiteral("--workload: ") + e.message);
    if (e.code == QLatin1String(kWorkloadCheckpointingError))
        return cliUsageError(QStringLiteral("--checkpointing: ") + e.message);
    if (spec.preset.isEmpty() && e.code == u"unknown-gpu")
        return cliUsageError(e.message + QStringLiteral("; 'gpufrontier-cli gpus' lists the GPU ids"));
    return cliUsageError(e.message);
}

Result<Workload> workloadFromArgs(const CliArgs &p)
{
    auto spec = workloadSpecFromArgs(p);
    if (!spec)
        return spec.error();
    return workloadFromSpec(spec.value());
}

namespace {

QString numberArg(double v)
{
    return QString::number(v, 'g', 17); // parsed back to the same double
}

/// A scenario's settings as command-line arguments, leaving out those the command line gives.
class ScenarioArguments
{
public:
    explicit ScenarioArguments(const CliArgs &given) : m_given(given) {}

    /// Options the command line overrides together: given one, the scenario's others are dropped too.
    void group(const QStringList &names)
    {
        for (const QString &n : names)
            if (given(n)) {
                m_dropped += names;
                return;
            }
    }
    void value(const QString &name, const QString &v)
    {
        if (!dropped(name))
            m_args << QStringLiteral("--") + name << v;
    }
    void number(const QString &name, const std::optional<double> &v)
    {
        if (v)
            value(name, numberArg(*v));
    }
    void flag(const QString &name, bool on)
    {
        if (on && !dropped(name))
            m_args << QStringLiteral("--") + name;
    }
    void perProvider(const QString &name, const QHash<QString, double> &values)
    {
        QStringList keys = values.keys();
        keys.sort();
        for (const QString &k : std::as_const(keys))
            value(name, k + u'=' + numberArg(values.value(k)));
    }
    const QStringList &arguments() const { return m_args; }

private:
    /// The command line gives this option (one the command has).
    bool given(const QString &name) const { return m_given.options().find(name) && m_given.isSet(name); }
    bool dropped(const QString &name) const { return given(name) || m_dropped.contains(name); }

    const CliArgs &m_given;
    QStringList m_dropped;
    QStringList m_args;
};

/// The scenario's settings as flags of the projecting commands (the offer filter but its providers is not
/// a flag of theirs: projectFromArgs reads it from the file).
QStringList scenarioArguments(const Scenario &s, const CliArgs &given)
{
    ScenarioArguments a(given);
    static const QStringList workloadFlags{
        QStringLiteral("workload"),         QStringLiteral("workload-name"),
        QStringLiteral("samples"),          QStringLiteral("epochs"),
        QStringLiteral("precision"),        QStringLiteral("stack"),
        QStringLiteral("workload-class"),   QStringLiteral("flops-per-sample"),
        QStringLiteral("bytes-per-sample"), QStringLiteral("params"),
        QStringLiteral("memory-gb"),        QStringLiteral("batch"),
        QStringLiteral("checkpointing"),    QStringLiteral("dataset-gb"),
        QStringLiteral("min-vcpus"),        QStringLiteral("measured"),
        QStringLiteral("measured-on"),      QStringLiteral("measured-busy"),
        QStringLiteral("measured-batch")};
    if (given.isSet(QStringLiteral("workload")))
        a.group(workloadFlags); // another workload: none of the scenario's workload settings
    a.group({QStringLiteral("measured"), QStringLiteral("measured-on"), QStringLiteral("measured-busy"),
             QStringLiteral("measured-batch")});
    a.group({QStringLiteral("spot"), QStringLiteral("on-demand")});

    const WorkloadSpec &w = s.workload;
    const WorkloadOverrides &o = w.overrides;
    if (!w.preset.isEmpty())
        a.value(QStringLiteral("workload"), w.preset);
    if (!w.name.isEmpty())
        a.value(QStringLiteral("workload-name"), w.name);
    a.number(QStringLiteral("samples"), o.samplesPerEpoch);
    a.number(QStringLiteral("epochs"), o.epochs);
    if (o.precision)
        a.value(QStringLiteral("precision"), precisionName(*o.precision));
    if (o.stack)
        a.value(QStringLiteral("stack"), softwareStackName(*o.stack));
    if (o.workloadClass)
        a.value(QStringLiteral("workload-class"), workloadClassName(*o.workloadClass));
    a.number(QStringLiteral("flops-per-sample"), o.flopsPerSample);
    a.number(QStringLiteral("bytes-per-sample"), o.bytesPerSample);
    a.number(QStringLiteral("params"), o.parameters);
    a.number(QStringLiteral("memory-gb"), o.memoryGb);
    if (o.batchPerGpu)
        a.value(QStringLiteral("batch"), QString::number(*o.batchPerGpu));
    if (o.checkpointing)
        a.value(QStringLiteral("checkpointing"),
                *o.checkpointing ? QStringLiteral("on") : QStringLiteral("off"));
    a.number(QStringLiteral("dataset-gb"), o.datasetGb);
    a.number(QStringLiteral("min-vcpus"), o.minVcpusPerGpu);
    if (o.measuredSamplesPerS) {
        a.number(QStringLiteral("measured"), o.measuredSamplesPerS);
        a.value(QStringLiteral("measured-on"), o.referenceGpu);
        if (o.measuredGpuBusy)
            a.number(QStringLiteral("measured-busy"), *o.measuredGpuBusy * 100.0);
        if (o.measuredBatchPerGpu)
            a.value(QStringLiteral("measured-batch"), QString::number(*o.measuredBatchPerGpu));
    }

    if (!given.options().find(u"deadline"))
        return a.arguments(); // `gpus`: the workload only
    const ProjectionOptions &opt = s.options;
    a.number(QStringLiteral("deadline"), opt.deadlineHours);
    a.number(QStringLiteral("budget"), opt.budgetUsd);
    a.flag(QStringLiteral("spot"), opt.spotPolicy == SpotPolicy::SpotOnly);
    a.flag(QStringLiteral("on-demand"), opt.spotPolicy == SpotPolicy::OnDemandOnly);
    a.value(QStringLiteral("checkpoint-minutes"), numberArg(opt.checkpointMinutes));
    a.value(QStringLiteral("setup-minutes"), numberArg(opt.setupMinutes));
    a.value(QStringLiteral("restore-minutes"), numberArg(opt.restoreMinutes));
    QStringList nodes;
    for (qsizetype i = 1; i < opt.nodeCounts.size(); ++i)
        nodes.append(QString::number(opt.nodeCounts.at(i)));
    if (!nodes.isEmpty())
        a.value(QStringLiteral("nodes"), nodes.join(u','));
    a.value(QStringLiteral("weight"), numberArg(opt.weight));
    a.flag(QStringLiteral("include-suspect"), opt.includeSuspect);
    a.perProvider(QStringLiteral("interruption-rate"), opt.interruptionRatePerHour);
    a.perProvider(QStringLiteral("egress"), opt.egressUsdPerGb);
    return a.arguments();
}

} // namespace

Result<std::unique_ptr<CliArgs>> argsWithScenario(const CliArgs &args)
{
    if (!args.isSet(QStringLiteral("scenario")))
        return std::unique_ptr<CliArgs>();
    auto scenario = readScenarioFile(args.value(QStringLiteral("scenario")));
    if (!scenario)
        return cliFailure(scenario.error().message);
    auto merged = std::make_unique<CliArgs>(args.options());
    const QStringList arguments = scenarioArguments(scenario.value(), args) + args.arguments();
    if (auto parsed = merged->parse(arguments); !parsed)
        return cliUsageError(parsed.error().message);
    return merged;
}

Result<CalibrationChoice> calibrationFromArgs(CliContext &ctx, const CliArgs &p)
{
    if (p.isSet(QStringLiteral("no-calibration"))) {
        CalibrationChoice choice;
        choice.calibration = defaultCalibration();
        choice.calibration.source = QStringLiteral("datasheet-only defaults (--no-calibration)");
        return choice;
    }
    CatalogStore *store = ctx.store();
    if (!store)
        return cliReported();
    auto runs = store->probeRuns();
    if (!runs)
        return runs.error().prefixed(QStringLiteral("cannot read the probe runs: "));
    CalibrationChoice choice = chooseCalibration(runs.value());
    if (runs.value().isEmpty())
        choice.calibration.source = QStringLiteral(
            "datasheet-only defaults (no probe run in the database; see 'gpufrontier-cli probe')");
    return choice;
}

QString calibrationText(const CalibrationChoice &choice)
{
    QString s = QStringLiteral("Calibration: %1\n").arg(choice.calibration.source);
    for (const QString &note : choice.skipped)
        s += QStringLiteral("  skipped %1\n").arg(note);
    return s;
}

QString workloadSummaryText(const Workload &w)
{
    QString speed;
    switch (w.kind) {
    case WorkloadKind::Preset:
        speed = QStringLiteral("preset");
        break;
    case WorkloadKind::CustomFlops:
        speed =
            QStringLiteral("custom, %1 GFLOP/sample").arg(QString::number(w.flopsPerSample / 1e9, 'g', 4));
        break;
    case WorkloadKind::CustomMeasured:
        speed = QStringLiteral("custom, measured %1 samples/s on %2%3")
                    .arg(QString::number(w.measuredSamplesPerS, 'g', 5), w.referenceGpuId,
                         w.measuredGpuBusy > 0 ? QStringLiteral(", GPU busy %1 %")
                                                     .arg(QString::number(w.measuredGpuBusy * 100, 'f', 0))
                                               : QString()) +
                (w.measuredBatchPerGpu > 0 && w.measuredBatchPerGpu != w.batchPerGpu
                     ? QStringLiteral(" at batch %1").arg(w.measuredBatchPerGpu)
                     : QString());
        break;
    }
    const QString stack = w.stack == SoftwareStack::Typical
                              ? QStringLiteral("typical PyTorch stack (--stack tuned: vendor-optimised code)")
                              : QStringLiteral("tuned stack (vendor-optimised code)");
    const QString cls = w.stack == SoftwareStack::Typical
                            ? QStringLiteral(", %1 class").arg(workloadClassName(w.workloadClass))
                            : QString();
    return QStringLiteral("%1 (%2): %3 %4 = %5 x %6 epochs, %7, %8, %9")
        .arg(w.id, w.name, QString::number(w.totalSamples(), 'f', 0), w.sampleUnit,
             QString::number(w.samplesPerEpoch, 'f', 0), QString::number(w.epochs, 'g', 6),
             precisionName(w.precision), speed, stack + cls);
}

void addProjectionOptions(CliOptions &p)
{
    p.addValue(QStringLiteral("deadline"), QStringLiteral("HOURS"),
               QStringLiteral("feasible: done within this many hours"));
    p.addValue(QStringLiteral("budget"), QStringLiteral("USD"),
               QStringLiteral("feasible: the run costs at most this"));
    p.addFlag(QStringLiteral("spot"), QStringLiteral("spot/preemptible/interruptible prices only"));
    p.addFlag(QStringLiteral("on-demand"),
              QStringLiteral("on-demand prices only (default: both, as separate points)"));
    p.addValue(QStringLiteral("checkpoint-minutes"), QStringLiteral("M"),
               QStringLiteral("checkpoint interval; an interruption loses half of it (default 30)"));
    p.addValue(QStringLiteral("setup-minutes"), QStringLiteral("M"),
               QStringLiteral("boot, image pull, data staging, billed once (default 10)"));
    p.addValue(QStringLiteral("restore-minutes"), QStringLiteral("M"),
               QStringLiteral("per spot interruption: new instance + checkpoint load (default 10)"));
    p.addValue(QStringLiteral("nodes"), QStringLiteral("LIST"),
               QStringLiteral("also run on K single-GPU instances over the network, e.g. 2,4,8"));
    p.addValue(QStringLiteral("weight"), QStringLiteral("W"),
               QStringLiteral("recommended point: 0 = cheapest ... 1 = fastest (default 0.5)"));
    p.addFlag(QStringLiteral("include-suspect"),
              QStringLiteral("let offers with a suspect price (flags in 'offers --format json') be "
                             "recommended and on the frontier (default: shown, never picked)"));
    p.addRepeatable(QStringLiteral("interruption-rate"), QStringLiteral("PROVIDER=RATE"),
                    QStringLiteral("spot interruptions per instance-hour for a provider, e.g. aws=0.05 "
                                   "(default: resources/SPOT.md's rates per provider and GPU class)"));
    p.addRepeatable(QStringLiteral("egress"), QStringLiteral("PROVIDER=USD_PER_GB"),
                    QStringLiteral("cost of moving the workload's data set into a provider, USD/GB "
                                   "(default 0: the data is already there)"));
    p.addRepeatable(QStringLiteral("provider"), QStringLiteral("P"),
                    QStringLiteral("only these providers (%1); repeat or comma-separate")
                        .arg(knownProviders().join(QStringLiteral(", "))));
    addMeasurementOption(p);
    p.addValue(
        QStringLiteral("save-scenario"), QStringLiteral("FILE"),
        QStringLiteral("also save the workload, limits, assumptions and provider filter of this run as "
                       "a scenario file (open it in the GUI, or give it to --scenario)"));
}

void addMeasurementOption(CliOptions &p)
{
    p.addFlag(
        QStringLiteral("no-measurements"),
        QStringLiteral("ignore imported measurements ('measure --import'): the model's speed everywhere"));
}

namespace {

/// The options read by addProjectionOptions, range-checked per flag (validateProjectionOptions follows
/// the workload, as the commands always did), and the --provider values.
struct ProjectionArgs
{
    ProjectionOptions options; ///< `now` and `measurements` are set by the preamble
    QStringList providers;     ///< --provider values (empty = all), each a known provider
};

/// PROVIDER=NUMBER pairs of a repeatable flag, each provider at most once.
Result<QHash<QString, double>> perProviderFromArgs(const CliArgs &p, const QString &flag, double max)
{
    QHash<QString, double> values;
    for (const QString &item : p.values(flag)) {
        const qsizetype eq = item.indexOf(u'=');
        const QString provider = item.left(eq).trimmed();
        bool ok = false;
        const double v = eq < 0 ? 0 : item.mid(eq + 1).trimmed().toDouble(&ok);
        if (eq < 0 || !ok || !std::isfinite(v) || v < 0 || v > max)
            return cliUsageError(
                QStringLiteral("--%1: \"%2\" is not PROVIDER=NUMBER with a number from 0 to %3")
                    .arg(flag, item, QString::number(max)));
        if (!knownProviders().contains(provider))
            return cliUsageError(QStringLiteral("--%1: unknown provider \"%2\" (known: %3)")
                                     .arg(flag, provider, knownProviders().join(QStringLiteral(", "))));
        if (values.contains(provider))
            return cliUsageError(QStringLiteral("--%1: %2 is given twice").arg(flag, provider));
        values.insert(provider, v);
    }
    return values;
}

Result<ProjectionArgs> projectionArgsFromArgs(const CliArgs &p)
{
    ProjectionOptions opt;
    QString err;
    opt.deadlineHours = p.number(QStringLiteral("deadline"), &err, 1e-6, 1e7);
    opt.budgetUsd = p.number(QStringLiteral("budget"), &err, 1e-6, 1e12);
    const auto ckpt = p.number(QStringLiteral("checkpoint-minutes"), &err, 0, 525600);
    const auto setup = p.number(QStringLiteral("setup-minutes"), &err, 0, 525600);
    const auto restore = p.number(QStringLiteral("restore-minutes"), &err, 0, 525600);
    const auto weight = p.number(QStringLiteral("weight"), &err, 0, 1);
    if (!err.isEmpty())
        return cliUsageError(err);
    if (ckpt)
        opt.checkpointMinutes = *ckpt;
    if (setup)
        opt.setupMinutes = *setup;
    if (restore)
        opt.restoreMinutes = *restore;
    if (weight)
        opt.weight = *weight;
    if (p.isSet(QStringLiteral("spot")) && p.isSet(QStringLiteral("on-demand")))
        return cliUsageError(QStringLiteral("--spot and --on-demand exclude each other"));
    opt.spotPolicy = p.isSet(QStringLiteral("spot"))        ? SpotPolicy::SpotOnly
                     : p.isSet(QStringLiteral("on-demand")) ? SpotPolicy::OnDemandOnly
                                                            : SpotPolicy::SpotAllowed;
    opt.nodeCounts = {1};
    for (const QString &k : p.values(QStringLiteral("nodes"))) {
        bool ok = false;
        const int v = k.toInt(&ok);
        if (!ok || v < 1 || v > 255)
            return cliUsageError(
                QStringLiteral("--nodes: \"%1\" is not a whole number from 1 to 255").arg(k));
        opt.nodeCounts.append(v);
    }
    opt.includeSuspect = p.isSet(QStringLiteral("include-suspect"));
    auto rates = perProviderFromArgs(p, QStringLiteral("interruption-rate"), 10);
    if (!rates)
        return rates.error();
    opt.interruptionRatePerHour = rates.value();
    auto egress = perProviderFromArgs(p, QStringLiteral("egress"), 100);
    if (!egress)
        return egress.error();
    opt.egressUsdPerGb = egress.value();
    const QStringList providers = p.values(QStringLiteral("provider"));
    for (const QString &provider : providers)
        if (!knownProviders().contains(provider))
            return cliUsageError(QStringLiteral("--provider: unknown provider \"%1\" (known: %2)")
                                     .arg(provider, knownProviders().join(QStringLiteral(", "))));
    return ProjectionArgs{opt, providers};
}

Result<QList<Offer>> currentOffers(CliContext &ctx)
{
    CatalogStore *store = ctx.store();
    if (!store)
        return cliReported();
    return store->currentOffers();
}

CliOptions withProjectionOptions(const CliOptions &commandOptions)
{
    CliOptions o;
    addWorkloadOptions(o);
    addProjectionOptions(o);
    for (const CliOption &option : commandOptions.list())
        o.add(option);
    return o;
}

} // namespace

/// Imported measurements ('measure --import'): a workload measured on a GPU is projected from the newest
/// one there. None with --no-measurements.
Result<ThroughputMeasurements> measurementsFromArgs(CliContext &ctx, const CliArgs &p)
{
    ThroughputMeasurements measurements;
    if (p.isSet(QStringLiteral("no-measurements")))
        return measurements;
    CatalogStore *store = ctx.store();
    if (!store)
        return cliReported();
    auto records = store->userMeasurements();
    if (!records)
        return records.error();
    for (const UserMeasurementRecord &r : records.value())
        measurements.append(r.measurement);
    return measurements;
}

ProjectingCommand::ProjectingCommand(Text text, const CliOptions &commandOptions)
    : CliCommand(std::move(text), withProjectionOptions(commandOptions))
{
}

int ProjectingCommand::run(CliContext &ctx, const CliArgs &args) const
{
    auto withScenario = argsWithScenario(args);
    if (!withScenario)
        return fail(ctx, withScenario.error());
    const Result<int> rc = runProjecting(ctx, withScenario.value() ? *withScenario.value() : args);
    return rc ? rc.value() : fail(ctx, rc.error());
}

Result<CatalogProjection> ProjectingCommand::projectFromArgs(CliContext &ctx, const CliArgs &args,
                                                             const QDateTime &now) const
{
    QList<Offer> offers;
    auto request = requestFromArgs(ctx, args, now, [&]() -> Status {
        auto current = currentOffers(ctx);
        if (!current)
            return current.error();
        offers = std::move(current.value());
        return Ok{};
    });
    if (!request)
        return request.error();
    CatalogProjection out;
    out.calibration = request.value().calibration;
    out.catalogOffers = offers.size();
    out.results = projectCatalog(offers, request.value().request);
    return out;
}

Result<CatalogRequest> ProjectingCommand::tableRequestFromArgs(CliContext &ctx, const CliArgs &args,
                                                               const QDateTime &now, OfferTable &table) const
{
    return requestFromArgs(ctx, args, now, [&]() -> Status {
        CatalogStore *store = ctx.store();
        if (!store)
            return cliReported();
        auto current = store->currentOfferTable();
        if (!current)
            return current.error();
        table = std::move(current.value());
        return Ok{};
    });
}

Result<CatalogRequest> ProjectingCommand::requestFromArgs(CliContext &ctx, const CliArgs &args,
                                                          const QDateTime &now,
                                                          const std::function<Status()> &readOffers) const
{
    auto projArgs = projectionArgsFromArgs(args);
    if (!projArgs)
        return projArgs.error();
    auto spec = workloadSpecFromArgs(args);
    if (!spec)
        return spec.error();
    auto workload = workloadFromSpec(spec.value());
    if (!workload)
        return workload.error();
    ProjectionRequest request;
    request.workload = workload.value();
    request.options = projArgs.value().options;
    request.options.now = now;
    if (args.isSet(QStringLiteral("scenario"))) {
        // The scenario's offer filter (its providers, like every other setting, yield to the flags).
        auto scenario = readScenarioFile(args.value(QStringLiteral("scenario")));
        if (!scenario)
            return cliFailure(scenario.error().message);
        request.filter = scenario.value().filter;
    }
    if (args.isSet(QStringLiteral("provider")))
        request.filter.providers = projArgs.value().providers;
    if (auto v = validateProjectionOptions(request.options); !v)
        return cliUsageError(v.error().message);
    if (args.isSet(QStringLiteral("save-scenario"))) {
        Scenario save;
        save.workload = spec.value();
        save.options = projArgs.value().options;
        save.filter = request.filter;
        if (auto written = writeScenarioFile(args.value(QStringLiteral("save-scenario")), save); !written)
            return cliFailure(written.error().message);
    }

    CatalogRequest out;
    auto calibration = calibrationFromArgs(ctx, args);
    if (!calibration)
        return calibration.error();
    out.calibration = calibration.value();
    request.calibration = out.calibration.calibration;
    if (auto read = readOffers(); !read)
        return read.error();
    auto measurements = measurementsFromArgs(ctx, args);
    if (!measurements)
        return measurements.error();
    request.measurements = measurements.value();
    out.request = request;
    return out;
}

} // namespace gf

#include "cli.h"
#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "probe/probejson.h"
#include "probe/proberunner.h"
#include "store/proberecord.h"
#include "util/format.h"

#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

QString tflops(const std::optional<double> &v)
{
    return v ? formatNumber(*v, *v < 1 ? 3 : *v < 10 ? 2 : 1) : QStringLiteral("-");
}

/// Runs one probe in a local event loop, printing its progress on ctx.err.
ProbeOutcome runProbe(CliContext &ctx, const QString &program, const QStringList &args, int timeoutMs)
{
    ProbeRunner runner;
    runner.setTimeoutMs(timeoutMs);
    QEventLoop loop;
    ProbeOutcome outcome;
    QString lastMessage;
    QObject::connect(&runner, &ProbeRunner::progress, &loop, [&](int permille, const QString &message) {
        if (message == lastMessage)
            return;
        lastMessage = message;
        ctx.err << QStringLiteral("[%1%] %2").arg(permille / 10, 3).arg(message) << Qt::endl;
    });
    QObject::connect(&runner, &ProbeRunner::finished, &loop, [&](const ProbeOutcome &o) {
        outcome = o;
        loop.quit();
    });
    if (!runner.start(program, args))
        return outcome;
    loop.exec();
    return outcome;
}

QJsonObject recordToJson(const ProbeRunRecord &rec)
{
    QJsonObject j;
    j.insert(QStringLiteral("id"), rec.id);
    j.insert(QStringLiteral("created_at"), rec.createdAt.toUTC().toString(Qt::ISODate));
    j.insert(QStringLiteral("origin"), rec.origin);
    j.insert(QStringLiteral("kind"), rec.kind);
    j.insert(QStringLiteral("device_name"), rec.deviceName);
    j.insert(QStringLiteral("gpu_id"),
             rec.gpuId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(rec.gpuId));
    j.insert(QStringLiteral("schema_version"), rec.schemaVersion);
    const QJsonDocument doc = QJsonDocument::fromJson(rec.json);
    j.insert(QStringLiteral("probe"),
             doc.isObject() ? QJsonValue(doc.object()) : QJsonValue(QJsonValue::Null));
    return j;
}

void printSummary(CliContext &ctx, const ProbeRunRecord &rec, const ProbeResult &r)
{
    QList<QStringList> rows;
    QString device = r.deviceName;
    if (!rec.gpuId.isEmpty())
        device += QStringLiteral(" (%1)").arg(rec.gpuId);
    if (r.kind == u"cuda")
        device += QStringLiteral(", compute capability %1, %2 SMs, %3 GB")
                      .arg(r.computeCapability)
                      .arg(r.smCount)
                      .arg(formatNumber(r.memoryGb, 1));
    else
        device += QStringLiteral(", %1 threads, %2 GB RAM").arg(r.smCount).arg(formatNumber(r.memoryGb, 1));
    rows.append({QStringLiteral("Device"), device});
    if (!r.driverVersion.isEmpty())
        rows.append(
            {QStringLiteral("Driver / CUDA"), r.driverVersion + QStringLiteral(" / ") + r.cudaVersion});
    QStringList gemm;
    const std::pair<const char16_t *, std::optional<double>> rates[] = {
        {u"fp32", r.fp32Tflops}, {u"tf32", r.tf32Tflops}, {u"fp16", r.fp16Tflops},
        {u"bf16", r.bf16Tflops}, {u"fp8", r.fp8Tflops},   {u"fp64", r.fp64Tflops}};
    for (const auto &[name, v] : rates)
        if (v)
            gemm.append(QString::fromUtf16(name) + u' ' + tflops(v));
    rows.append({QStringLiteral("GEMM TFLOP/s"),
                 gemm.isEmpty() ? QStringLiteral("-") : gemm.join(QStringLiteral(", "))});
    rows.append({QStringLiteral("Memory GB/s"), formatNumber(r.memBandwidthGbs, 1)});
    if (r.h2dGbs || r.d2hGbs)
        rows.append({QStringLiteral("Host<->device GB/s"),
                     QStringLiteral("to device %1, to host %2")
                         .arg(formatNumber(r.h2dGbs, 1), formatNumber(r.d2hGbs, 1))});
    if (r.launchOverheadUs)
        rows.append({QStringLiteral("Launch overhead us"), formatNumber(r.launchOverheadUs, 2)});
    rows.append(
        {QStringLiteral("Run"), QStringLiteral("%1, %2 s, %3 UTC, on %4")
                                    .arg(r.quick ? QStringLiteral("quick") : QStringLiteral("full"))
                                    .arg(formatNumber(r.elapsedS, 1))
                                    .arg(r.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")))
                                    .arg(r.hostName.isEmpty() ? QStringLiteral("?") : r.hostName)});
    ctx.out << QStringLiteral("Stored probe run #%1 (%2, %3).\n").arg(rec.id).arg(rec.origin, rec.kind);
    for (const QStringList &row : std::as_const(rows))
        ctx.out << row.at(0).leftJustified(20) << row.at(1) << '\n';
}

Result<ProbeRunRecord> store(CliContext &ctx, ProbeRunRecord rec)
{
    CatalogStore *db = ctx.store();
    if (!db)
        return makeError(QStringLiteral("cannot open the database"));
    auto id = db->addProbeRun(rec);
    if (!id)
        return id.error();
    rec.id = id.value();
    return rec;
}

int finishStore(CliContext &ctx, const ProbeResult &r, const ProbeRunRecord &rec, const QString &format)
{
    auto stored = store(ctx, rec);
    if (!stored) {
        ctx.err << "gpufrontier-cli probe: cannot store the probe run: " << stored.error().text() << Qt::endl;
        return ExitFailure;
    }
    if (format == u"json")
        ctx.out << jsonText(QJsonDocument(recordToJson(stored.value())));
    else
        printSummary(ctx, stored.value(), r);
    return ExitOk;
}

int doImport(CliContext &ctx, const QString &path, const QString &format)
{
    QFile f(path);
    const QFileInfo fi(path);
    if (!fi.exists()) {
        ctx.err << "gpufrontier-cli probe: cannot import " << path << ": the file does not exist" << Qt::endl;
        return ExitFailure;
    }
    if (!fi.isFile() || fi.size() > kMaxProbeJsonBytes) {
        ctx.err << "gpufrontier-cli probe: cannot import " << path
                << ": not a probe document (not a file, or larger than " << kMaxProbeJsonBytes << " bytes)"
                << Qt::endl;
        return ExitFailure;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        ctx.err << "gpufrontier-cli probe: cannot import " << path << ": " << f.errorString() << Qt::endl;
        return ExitFailure;
    }
    const QByteArray json = f.read(kMaxProbeJsonBytes + 1);
    auto parsed = parseProbeJson(json);
    if (!parsed) {
        ctx.err << "gpufrontier-cli probe: cannot import " << path << ": " << parsed.error().text()
                << Qt::endl;
        return ExitFailure;
    }
    return finishStore(ctx, parsed.value(), makeProbeRunRecord(parsed.value(), fi.fileName(), json), format);
}

int doRun(CliContext &ctx, bool cpu, bool quick, int timeoutMs, const QString &format)
{
    QStringList args;
    if (quick)
        args.append(QStringLiteral("--quick"));
    const QString gpuProbe = QStringLiteral("gpufrontier-probe");
    const QString cpuProbe = QStringLiteral("gpufrontier-cpuprobe");
    QString program;
    if (!cpu) {
        program = ProbeRunner::findProbe(gpuProbe);
        if (program.isEmpty()) {
            ctx.err
                << "gpufrontier-cli probe: note: " << gpuProbe
                << " is not installed (GPU Frontier was built without CUDA); running the CPU probe instead."
                << Qt::endl;
            cpu = true;
        }
    }
    if (cpu) {
        program = ProbeRunner::findProbe(cpuProbe);
        if (program.isEmpty()) {
            ctx.err << "gpufrontier-cli probe: " << cpuProbe << " was not found (searched "
                    << ProbeRunner::probeSearchDirs().join(QStringLiteral(", ")) << ")" << Qt::endl;
            return ExitFailure;
        }
    }
    // Open the database first: a run that cannot be stored is wasted.
    if (!ctx.store())
        return ExitFailure;
    ctx.err << "gpufrontier-cli probe: running " << QFileInfo(program).fileName() << (quick ? " --quick" : "")
            << Qt::endl;
    ProbeOutcome outcome = runProbe(ctx, program, args, timeoutMs);
    if (outcome.status == ProbeStatus::NoDevice && !cpu) {
        ctx.err << "gpufrontier-cli probe: note: no CUDA GPU is usable here";
        if (!outcome.error.detail.isEmpty())
            ctx.err << " (" << outcome.error.detail << ")";
        ctx.err << "; running the CPU probe instead." << Qt::endl;
        program = ProbeRunner::findProbe(cpuProbe);
        if (program.isEmpty()) {
            ctx.err << "gpufrontier-cli probe: " << cpuProbe << " was not found either." << Qt::endl;
            return ExitFailure;
        }
        outcome = runProbe(ctx, program, args, timeoutMs);
    }
    if (!outcome.ok()) {
        ctx.err << "gpufrontier-cli probe: " << outcome.error.message << Qt::endl;
        if (!outcome.error.detail.isEmpty())
            ctx.err << "  detail: " << outcome.error.detail << Qt::endl;
        return ExitFailure;
    }
    return finishStore(ctx, *outcome.result,
                       makeProbeRunRecord(*outcome.result, QStringLiteral("local"), outcome.json), format);
}

int doList(CliContext &ctx, const QString &format)
{
    CatalogStore *db = ctx.store();
    if (!db)
        return ExitFailure;
    auto runs = db->probeRuns();
    if (!runs) {
        ctx.err << "gpufrontier-cli probe: " << runs.error().text() << Qt::endl;
        return ExitFailure;
    }
    if (format == u"json") {
        QJsonArray arr;
        for (const ProbeRunRecord &rec : runs.value())
            arr.append(recordToJson(rec));
        ctx.out << jsonText(QJsonDocument(arr));
        return ExitOk;
    }
    if (runs.value().isEmpty()) {
        ctx.out << "No probe runs stored. Run one with 'gpufrontier-cli probe --run' or import one with "
                   "'gpufrontier-cli probe --import FILE'.\n";
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const ProbeRunRecord &rec : runs.value()) {
        const auto parsed = parseProbeJson(rec.json);
        const ProbeResult r = parsed.valueOr(ProbeResult{});
        const bool cuda = rec.kind == u"cuda";
        rows.append({QString::number(rec.id),
                     rec.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")), rec.origin, rec.kind,
                     rec.deviceName, rec.gpuId.isEmpty() ? QStringLiteral("-") : rec.gpuId,
                     parsed ? (r.quick ? QStringLiteral("quick") : QStringLiteral("full"))
                            : QStringLiteral("unreadable"),
                     tflops(r.fp32Tflops), tflops(cuda ? r.bf16Tflops : r.fp64Tflops),
                     formatNumber(r.memBandwidthGbs, 1)});
    }
    ctx.out << renderTable({QStringLiteral("ID"), QStringLiteral("Date (UTC)"), QStringLiteral("Origin"),
                            QStringLiteral("Kind"), QStringLiteral("Device"), QStringLiteral("GPU"),
                            QStringLiteral("Run"), QStringLiteral("fp32 TFLOP/s"),
                            QStringLiteral("bf16|fp64 TFLOP/s"), QStringLiteral("Mem GB/s")},
                           rows, {true, false, false, false, false, false, false, true, true, true});
    ctx.out << QStringLiteral("%1 probe run(s).\n").arg(runs.value().size());
    return ExitOk;
}

CliOptions probeOptions()
{
    CliOptions o;
    o.addFlag(QStringLiteral("run"),
              QStringLiteral("run the GPU probe on this machine and store the result "
                             "(falls back to the CPU probe when there is no CUDA GPU)"));
    o.addFlag(QStringLiteral("cpu"), QStringLiteral("with --run: run the CPU probe"));
    o.addFlag(QStringLiteral("quick"),
              QStringLiteral("with --run: a short run (seconds) instead of the full one"));
    o.addValue(QStringLiteral("timeout"), QStringLiteral("S"),
               QStringLiteral("with --run: stop the probe after S seconds (default 300)"));
    o.addValue(QStringLiteral("import"), QStringLiteral("FILE"),
               QStringLiteral("store a probe JSON document produced on another machine"));
    o.addFlag(QStringLiteral("list"), QStringLiteral("list the stored probe runs (the default)"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    return o;
}

class ProbeCommand final : public CliCommand
{
public:
    ProbeCommand()
        : CliCommand(
              {.name = QStringLiteral("probe"),
               .summary =
                   QStringLiteral("Run the GPU/CPU probe benchmark, import a probe result, list stored runs"),
               .synopsis = QStringLiteral(
                   "[--run [--cpu] [--quick] [--timeout S] | --import FILE | --list] [--format table|json]"),
               .description = QStringLiteral(
                   "Measure this machine's GPU (or CPU) with the probe benchmark, store the result to "
                   "calibrate\n"
                   "projections, or import a probe document made elsewhere (e.g. on a rented instance with\n"
                   "'gpufrontier-probe > probe.json').")},
              probeOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int ProbeCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const bool run = p.isSet(QStringLiteral("run"));
    const bool import = p.isSet(QStringLiteral("import"));
    const bool list = p.isSet(QStringLiteral("list"));
    if (int(run) + int(import) + int(list) > 1)
        return usageError(ctx, QStringLiteral("--run, --import and --list cannot be combined"));
    if (!run) {
        for (const char16_t *flag : {u"cpu", u"quick", u"timeout"})
            if (p.isSet(QString::fromUtf16(flag)))
                return usageError(ctx, QStringLiteral("--%1 needs --run").arg(QString::fromUtf16(flag)));
    }
    QString err;
    const auto timeoutS = p.number(QStringLiteral("timeout"), &err, 1, 86400);
    if (!err.isEmpty())
        return usageError(ctx, err);
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    if (import) {
        const QString file = p.value(QStringLiteral("import"));
        if (file.isEmpty())
            return usageError(ctx, QStringLiteral("--import needs a file name"));
        return doImport(ctx, file, *format);
    }
    if (run)
        return doRun(ctx, p.isSet(QStringLiteral("cpu")), p.isSet(QStringLiteral("quick")),
                     static_cast<int>(timeoutS.value_or(300) * 1000), *format);
    return doList(ctx, *format);
}

} // namespace

std::unique_ptr<CliCommand> makeProbeCommand()
{
    return std::make_unique<ProbeCommand>();
}

} // namespace gf

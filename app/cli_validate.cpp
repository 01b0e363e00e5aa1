#include "cli.h"
#include "clicommand.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/modelconstants.h"
#include "projection/speedmodel.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

CliOptions validateOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("workload"), QStringLiteral("ID"),
               QStringLiteral("one workload preset (default: every preset with at least 2 measured GPUs)"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
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
                   "(resources/benchmarks/anchors.csv), projects each measured GPU from the OTHER GPUs'\n"
                   "measurements (model v2's transferred tier) and compares with its own measurement:\n"
                   "measured, projected, log error = ln(projected / measured); then the median and the\n"
                   "maximum of |log error|. The same for today's model (v1: max() roofline with the default\n"
                   "efficiencies) through the same transfer, for comparison.\n"
                   "The fitted constants are not refitted per held-out GPU, so these errors are slightly\n"
                   "optimistic; resources/benchmarks/validation.md has the refitted figures.")},
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

    if (*format == u"json") {
        QJsonArray arr;
        for (const Block &b : std::as_const(blocks)) {
            QJsonObject o;
            o.insert(u"workload", b.workload->id);
            QJsonArray rows;
            for (const ValidationRow &r : b.rows)
                rows.append(QJsonObject{{QStringLiteral("gpu"), r.gpuId},
                                        {QStringLiteral("tier"), projectionTierName(r.tier)},
                                        {QStringLiteral("measured"), r.measured},
                                        {QStringLiteral("projected"), r.projected},
                                        {QStringLiteral("log_error"), r.logError},
                                        {QStringLiteral("projected_v1"), r.projectedV1},
                                        {QStringLiteral("log_error_v1"), r.logErrorV1}});
            o.insert(u"rows", rows);
            o.insert(u"n", b.summary.n);
            o.insert(u"median_abs_log_error", b.summary.n ? QJsonValue(b.summary.median) : QJsonValue());
            o.insert(u"max_abs_log_error", b.summary.n ? QJsonValue(b.summary.max) : QJsonValue());
            o.insert(u"median_abs_log_error_v1", b.summary.n ? QJsonValue(b.summary.medianV1) : QJsonValue());
            o.insert(u"max_abs_log_error_v1", b.summary.n ? QJsonValue(b.summary.maxV1) : QJsonValue());
            arr.append(o);
        }
        QJsonObject root;
        root.insert(QStringLiteral("method"),
                    QStringLiteral("leave-one-GPU-out over resources/benchmarks/anchors.csv, "
                                   "shipped constants (not refitted)"));
        root.insert(QStringLiteral("workloads"), arr);
        ctx.out << QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
        return ExitOk;
    }

    ctx.out << "Leave-one-GPU-out validation: each measured GPU projected from the other GPUs' measurements\n"
               "(shipped constants, not refitted). log error = ln(projected / measured).\n";
    QList<QStringList> summary;
    for (const Block &b : std::as_const(blocks)) {
        ctx.out << '\n' << b.workload->id << " (" << b.workload->sampleUnit << "/s per GPU)\n";
        if (b.rows.isEmpty()) {
            ctx.out << "  fewer than 2 measured GPUs: nothing to validate\n";
            continue;
        }
        QList<QStringList> rows;
        for (const ValidationRow &r : b.rows)
            rows.append({r.gpuId, projectionTierName(r.tier), speedText(r.measured), speedText(r.projected),
                         signedNumber(r.logError), speedText(r.projectedV1), signedNumber(r.logErrorV1)});
        rows.append({QStringLiteral("median |e|"), QString(), QString(), QString(),
                     QString::number(b.summary.median, 'f', 3), QString(),
                     QString::number(b.summary.medianV1, 'f', 3)});
        rows.append({QStringLiteral("max |e|"), QString(), QString(), QString(),
                     QString::number(b.summary.max, 'f', 3), QString(),
                     QString::number(b.summary.maxV1, 'f', 3)});
        ctx.out << renderTable({QStringLiteral("GPU"), QStringLiteral("Measured as"),
                                QStringLiteral("Measured"), QStringLiteral("v2 projected"),
                                QStringLiteral("v2 log err"), QStringLiteral("v1 projected"),
                                QStringLiteral("v1 log err")},
                               rows, {false, false, true, true, true, true, true});
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
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeValidateCommand()
{
    return std::make_unique<ValidateCommand>();
}

} // namespace gf

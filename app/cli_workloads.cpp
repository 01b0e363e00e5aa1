#include "cli.h"
#include "clicommand.h"
#include "domain/workload.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace gf {

namespace {

CliOptions workloadsOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    return o;
}

class WorkloadsCommand final : public CliCommand
{
public:
    WorkloadsCommand()
        : CliCommand({.name = QStringLiteral("workloads"),
                      .summary = QStringLiteral("List the training workload presets"),
                      .description =
                          QStringLiteral("Lists the training workload presets (resources/workloads.json).")},
                     workloadsOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override;
};

int WorkloadsCommand::run(CliContext &ctx, const CliArgs &p) const
{
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const QList<Workload> &list = builtinWorkloads();
    if (*format == u"json") {
        QJsonArray arr;
        for (const Workload &w : list) {
            QJsonObject o = workloadToJson(w);
            o.insert(u"notes", w.notes);
            arr.append(o);
        }
        ctx.out << jsonText(QJsonDocument(arr));
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const Workload &w : list)
        rows.append({w.id, w.name, precisionName(w.precision),
                     QString::number(w.flopsPerSample / 1e9, 'f', 1),
                     QString::number(w.bytesPerSample / 1e6, 'f', 0),
                     QString::number(w.parameters / 1e6, 'f', 1), QString::number(w.memoryGb, 'f', 1),
                     QStringLiteral("%1 x %2").arg(QString::number(w.samplesPerEpoch, 'f', 0),
                                                   QString::number(w.epochs, 'g', 6))});
    ctx.out << renderTable({QStringLiteral("Id"), QStringLiteral("Name"), QStringLiteral("Precision"),
                            QStringLiteral("GFLOP/sample"), QStringLiteral("MB/sample"),
                            QStringLiteral("Params (M)"), QStringLiteral("Mem GB/GPU"),
                            QStringLiteral("Samples x epochs")},
                           rows, {false, false, false, true, true, true, true, true});
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeWorkloadsCommand()
{
    return std::make_unique<WorkloadsCommand>();
}

} // namespace gf

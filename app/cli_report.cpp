#include "cli.h"
#include "cli_currency.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/offertable.h"
#include "domain/workload.h"
#include "projection/projection.h"
#include "projection/tableprojection.h"
#include "report/report.h"
#include "store/catalogstore.h"

#include <QDir>
#include <QFileInfo>
#include <QTimeZone>

namespace gf {

namespace {

/// ISO 8601 date-time; without an offset it is read as UTC. A date alone means midnight UTC.
std::optional<QDateTime> parseNow(const QString &text)
{
    const QString t = text.trimmed();
    QDateTime dt = QDateTime::fromString(t, Qt::ISODateWithMs);
    if (!dt.isValid()) {
        const QDate date = QDate::fromString(t, Qt::ISODate);
        if (date.isValid())
            dt = QDateTime(date, QTime(0, 0), QTimeZone::utc());
    }
    if (!dt.isValid())
        return std::nullopt;
    if (dt.timeSpec() == Qt::LocalTime)
        dt = QDateTime(dt.date(), dt.time(), QTimeZone::utc());
    return dt.toUTC();
}

CliOptions reportOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"),
               QStringLiteral("html, pdf, csv, json or md (default: from the suffix of the output file)"));
    o.add({{QStringLiteral("output"), QStringLiteral("o")},
           QStringLiteral("FILE"),
           QStringLiteral("write the report to FILE")});
    o.addValue(
        QStringLiteral("offers"), QStringLiteral("SET"),
        QStringLiteral("offers the report lists: all or frontier (default: all for csv and json, frontier "
                       "for html, pdf and md)"));
    o.addValue(QStringLiteral("title"), QStringLiteral("TEXT"),
               QStringLiteral("report title (default: from the workload)"));
    o.addValue(
        QStringLiteral("now"), QStringLiteral("ISO8601"),
        QStringLiteral("pin the generated-at time (and the age of prices), e.g. 2024-07-01T12:00:00Z: the "
                       "same database and options then give a report with the same text"));
    addCurrencyOptions(o);
    return o;
}

class ReportCommand final : public ProjectingCommand
{
public:
    ReportCommand()
        : ProjectingCommand(
              {.name = QStringLiteral("report"),
               .summary = QStringLiteral("Write a comparison report: HTML, PDF, CSV, JSON or Markdown"),
               .synopsis = QStringLiteral("--workload NAME [OPTIONS] --format html|pdf|csv|json|md -o FILE"),
               .description = QStringLiteral(
                   "Writes a comparison report: the workload and every assumption, the catalog snapshots "
                   "with their\n"
                   "age, the calibration, the efficiency-frontier chart and table, the cheapest and fastest "
                   "offers\n"
                   "within the deadline and budget, the recommended offer, spot versus on-demand savings, "
                   "single-GPU\n"
                   "spot instances versus one multi-GPU on-demand instance, and warnings. "
                   "models/report/REPORT.md "
                   "describes\n"
                   "the formats. The file is written to a temporary file and renamed: a failure leaves no "
                   "file.")},
              reportOptions())
    {
    }

private:
    Result<int> runProjecting(CliContext &ctx, const CliArgs &args) const override;
};

Result<int> ReportCommand::runProjecting(CliContext &ctx, const CliArgs &p) const
{
    const QString output = p.value(QStringLiteral("output"));
    if (output.isEmpty())
        return cliUsageError(QStringLiteral("-o FILE (the report file) is required"));
    std::optional<ReportFormat> format;
    if (p.isSet(QStringLiteral("format"))) {
        format = reportFormatFromName(p.value(QStringLiteral("format")));
        if (!format)
            return cliUsageError(QStringLiteral("--format: \"%1\" is not one of html, pdf, csv, json, md")
                                     .arg(p.value(QStringLiteral("format"))));
    } else {
        format = reportFormatFromPath(output);
        if (!format)
            return cliUsageError(QStringLiteral("--format is required (the suffix of \"%1\" names no format: "
                                                "html, pdf, csv, json, md)")
                                     .arg(output));
    }
    // Data formats list every offer; documents for people list the frontier unless asked otherwise.
    ReportOfferSet offerSet = *format == ReportFormat::Csv || *format == ReportFormat::Json
                                  ? ReportOfferSet::All
                                  : ReportOfferSet::Frontier;
    if (p.isSet(QStringLiteral("offers"))) {
        const auto s = reportOfferSetFromName(p.value(QStringLiteral("offers")));
        if (!s || (*s != ReportOfferSet::All && *s != ReportOfferSet::Frontier))
            return cliUsageError(QStringLiteral("--offers: \"%1\" is not one of all, frontier")
                                     .arg(p.value(QStringLiteral("offers"))));
        offerSet = *s;
    }
    const auto currency = currencyFromArgs(p);
    if (!currency)
        return currency.error();
    QDateTime now = QDateTime::currentDateTimeUtc();
    if (p.isSet(QStringLiteral("now"))) {
        const auto pinned = parseNow(p.value(QStringLiteral("now")));
        if (!pinned)
            return cliUsageError(QStringLiteral("--now: \"%1\" is not an ISO 8601 date-time such as "
                                                "2024-07-01T12:00:00Z")
                                     .arg(p.value(QStringLiteral("now"))));
        now = *pinned;
    }
    // The catalog held compactly and its points as compact points (a million offers in well under
    // 400 MB); each point a report writes is projected again from its offer.
    OfferTable table;
    auto request = tableRequestFromArgs(ctx, p, now, table);
    if (!request)
        return request.error();
    const CalibrationChoice &choice = request.value().calibration;
    CatalogStore *store = ctx.store();
    if (!store)
        return cliReported();
    auto snapshots = store->snapshots();
    if (!snapshots)
        return snapshots.error();
    const TableProjection results(table, request.value().request);

    ReportInput input;
    input.table = &results;
    input.snapshots = snapshots.value();
    input.offerSet = offerSet;
    input.generatedAt = now;
    input.title = p.value(QStringLiteral("title"));
    input.currency = currency.value();
    if (results.calibration().measured) { // the probe behind a measured calibration: device and figures
        input.probe = choice.probe;
        input.probeRunId = choice.runId;
    }
    qint64 size = 0;
    if (auto st = writeReport(input, *format, output, &size); !st)
        return st.error();
    ctx.out << QStringLiteral("Wrote %1 (%2 report, %3 bytes): %4 offers, %5 on the frontier.\n")
                   .arg(QDir::toNativeSeparators(output), reportFormatName(*format), QString::number(size),
                        QString::number(results.offerCount()), QString::number(results.frontierCount()));
    return ExitOk;
}

} // namespace

std::unique_ptr<CliCommand> makeReportCommand()
{
    return std::make_unique<ReportCommand>();
}

} // namespace gf

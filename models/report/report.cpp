#include "report/report.h"

#include "report/reportdata.h"
#include "util/bufferedoutput.h"
#include "util/outputfile.h"
#include "util/printable.h"

#include <QDir>
#include <QFileInfo>

namespace gf {

QString reportFormatName(ReportFormat format)
{
    switch (format) {
    case ReportFormat::Html:
        return QStringLiteral("html");
    case ReportFormat::Pdf:
        return QStringLiteral("pdf");
    case ReportFormat::Csv:
        return QStringLiteral("csv");
    case ReportFormat::Json:
        return QStringLiteral("json");
    case ReportFormat::Markdown:
        return QStringLiteral("md");
    }
    return {};
}

std::optional<ReportFormat> reportFormatFromName(QStringView name)
{
    const QString n = name.trimmed().toString().toLower();
    if (n == u"markdown")
        return ReportFormat::Markdown;
    if (n == u"htm")
        return ReportFormat::Html;
    for (ReportFormat f : allReportFormats())
        if (reportFormatName(f) == n)
            return f;
    return std::nullopt;
}

std::optional<ReportFormat> reportFormatFromPath(const QString &path)
{
    const QString suffix = QFileInfo(path).suffix();
    if (suffix.isEmpty())
        return std::nullopt;
    return reportFormatFromName(suffix);
}

QList<ReportFormat> allReportFormats()
{
    return {ReportFormat::Html, ReportFormat::Pdf, ReportFormat::Csv, ReportFormat::Json,
            ReportFormat::Markdown};
}

QString reportOfferSetName(ReportOfferSet set)
{
    switch (set) {
    case ReportOfferSet::All:
        return QStringLiteral("all");
    case ReportOfferSet::Filtered:
        return QStringLiteral("filtered");
    case ReportOfferSet::Frontier:
        return QStringLiteral("frontier");
    case ReportOfferSet::Selected:
        return QStringLiteral("selected");
    }
    return {};
}

std::optional<ReportOfferSet> reportOfferSetFromName(QStringView name)
{
    for (ReportOfferSet s :
         {ReportOfferSet::All, ReportOfferSet::Filtered, ReportOfferSet::Frontier, ReportOfferSet::Selected})
        if (name.compare(reportOfferSetName(s), Qt::CaseInsensitive) == 0)
            return s;
    return std::nullopt;
}

namespace report {

void appendPrintable(BufferedOutput &out, const QString &text)
{
    // Printable ASCII, tabs and line breaks (the chart's elements, nearly all markup) are written as they
    // are: their UTF-8 reads back the same and nothing in them is replaced.
    bool plain = true;
    for (const QChar c : text) {
        const char16_t u = c.unicode();
        if ((u < 0x20 && u != u'\n' && u != u'\r' && u != u'\t') || u >= 0x7F) {
            plain = false;
            break;
        }
    }
    if (plain)
        out.appendText(text);
    else
        out.appendText(printableKeepingLines(QString::fromUtf8(text.toUtf8())));
}

} // namespace report

namespace {

Status renderData(const report::Data &d, ReportFormat format, BufferedOutput &out)
{
    // A provider's text never reaches a document raw: control and bidi formatting characters become
    // U+FFFD in the text formats (line breaks are the documents' own) and \u escapes in JSON.
    switch (format) {
    case ReportFormat::Html:
        report::renderHtml(d, out);
        return Ok{};
    case ReportFormat::Pdf:
        return report::renderPdf(d, out); // its text goes through report::shown()
    case ReportFormat::Csv:
        report::renderCsv(d, out);
        return Ok{};
    case ReportFormat::Json:
        report::renderJson(d, out);
        return Ok{};
    case ReportFormat::Markdown:
        out.appendText(printableKeepingLines(QString::fromUtf8(report::renderMarkdown(d))));
        return Ok{};
    }
    return makeError(QStringLiteral("Unknown report format"));
}

} // namespace

Result<QByteArray> renderReport(const ReportInput &input, ReportFormat format)
{
    auto built = report::build(input);
    if (!built)
        return built.error();
    QByteArray bytes;
    {
        ByteArraySink sink(bytes);
        BufferedOutput out(sink);
        if (auto st = renderData(built.value(), format, out); !st)
            return st.error();
    }
    return bytes;
}

namespace {

Status checkReportPath(const QString &path)
{
    if (path.trimmed().isEmpty())
        return makeError(QStringLiteral("No file name given for the report."));
    return Ok{};
}

} // namespace

Status writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    if (auto st = checkReportPath(path); !st)
        return st;
    return writeOutputFile(path, bytes);
}

Status writeReport(const ReportInput &input, ReportFormat format, const QString &path, qint64 *bytesWritten)
{
    // A report that cannot be made (no results, an empty selection) leaves no file: checked before opening.
    auto built = report::build(input);
    if (!built)
        return built.error();
    if (auto st = checkReportPath(path); !st)
        return st;
    OutputFile file(path);
    if (auto st = file.open(); !st)
        return st;
    DeviceSink sink(file.device());
    BufferedOutput out(sink);
    if (auto st = renderData(built.value(), format, out); !st) {
        file.cancel();
        return st;
    }
    const bool written = out.flush();
    if (written && bytesWritten)
        *bytesWritten = sink.written();
    return file.commit(written, out.errorString());
}

QString frontierChartSvgDocument(const ProjectionResults &results, const QString &title, double width,
                                 double height, const Currency *currency)
{
    ReportChartData data = reportChartData(results, {}, currency);
    data.title = title;
    return frontierChartSvg(data, width, height, true);
}

} // namespace gf

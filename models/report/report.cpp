#include "report/report.h"

#include "report/reportdata.h"
#include "util/printable.h"

#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

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

Result<QByteArray> renderReport(const ReportInput &input, ReportFormat format)
{
    auto built = report::build(input);
    if (!built)
        return built.error();
    const report::Data &d = built.value();
    // A provider's text never reaches a document raw: control and bidi formatting characters become
    // U+FFFD in the text formats (line breaks are the documents' own) and \u escapes in JSON.
    auto printable = [](const QByteArray &text) {
        return printableKeepingLines(QString::fromUtf8(text)).toUtf8();
    };
    switch (format) {
    case ReportFormat::Html:
        return printable(report::renderHtml(d));
    case ReportFormat::Pdf:
        return report::renderPdf(d); // its text goes through report::shown()
    case ReportFormat::Csv:
        return printable(report::renderCsv(d));
    case ReportFormat::Json:
        return escapeJsonUnprintable(report::renderJson(d));
    case ReportFormat::Markdown:
        return printable(report::renderMarkdown(d));
    }
    return makeError(QStringLiteral("Unknown report format"));
}

Status writeFileAtomically(const QString &path, const QByteArray &bytes)
{
    if (path.trimmed().isEmpty())
        return makeError(QStringLiteral("No file name given for the report."));
    const QFileInfo info(path);
    if (info.isDir())
        return makeError(
            QStringLiteral("Cannot write %1: it is a folder.").arg(QDir::toNativeSeparators(path)));
    if (!info.absoluteDir().exists())
        return makeError(
            QStringLiteral("Cannot write %1: the folder %2 does not exist.")
                .arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(info.absolutePath())));
    QSaveFile file(path);
    // Never fall back to writing the target in place: a failure must not leave a half-written file.
    file.setDirectWriteFallback(false);
    if (!file.open(QIODevice::WriteOnly))
        return makeError(
            QStringLiteral("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString()));
    if (file.write(bytes) != bytes.size()) {
        const QString why = file.errorString();
        file.cancelWriting();
        return makeError(
            QStringLiteral("Cannot write %1 (disk full?): %2").arg(QDir::toNativeSeparators(path), why));
    }
    if (!file.commit())
        return makeError(QStringLiteral("Cannot write %1 (disk full?): %2")
                             .arg(QDir::toNativeSeparators(path), file.errorString()));
    return Ok{};
}

Status writeReport(const ReportInput &input, ReportFormat format, const QString &path)
{
    auto bytes = renderReport(input, format);
    if (!bytes)
        return bytes.error();
    return writeFileAtomically(path, bytes.value());
}

QString frontierChartSvgDocument(const ProjectionResults &results, const QString &title, double width,
                                 double height)
{
    ReportChartData data = reportChartData(results);
    data.title = title;
    return frontierChartSvg(data, width, height, true);
}

} // namespace gf

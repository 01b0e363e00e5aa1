#pragma once

#include "domain/currency.h"
#include "domain/offer.h"
#include "domain/proberesult.h"
#include "projection/projectionresults.h"
#include "util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

class TableProjection;

/// Output formats of a comparison report (models/report/REPORT.md documents each one).
enum class ReportFormat : quint8
{
    Html,
    Pdf,
    Csv,
    Json,
    Markdown
};

/// "html", "pdf", "csv", "json", "md".
QString reportFormatName(ReportFormat format);
/// Parses a format name ("markdown" is accepted for md), case-insensitive.
std::optional<ReportFormat> reportFormatFromName(QStringView name);
/// Guesses the format from a file name's suffix (.htm/.html, .pdf, .csv, .json, .md/.markdown).
std::optional<ReportFormat> reportFormatFromPath(const QString &path);
QList<ReportFormat> allReportFormats();

/// Which offers the report's offer table (and the CSV rows) list.
enum class ReportOfferSet : quint8
{
    All,      ///< every point of the results (the caller projected the whole catalog)
    Filtered, ///< every point of the results (the caller projected the filtered catalog)
    Frontier, ///< the points on the efficiency frontier
    Selected, ///< every point of the offers in ReportInput::selectedOffers
};
QString reportOfferSetName(ReportOfferSet set); ///< "all", "filtered", "frontier", "selected"
std::optional<ReportOfferSet> reportOfferSetFromName(QStringView name);

/// Everything a report is made from. The same input gives byte-identical output in every format.
struct ReportInput
{
    ProjectionResultsPtr results; ///< the projection (workload, options, calibration, points)
    /// Instead of `results`: a projection of an OfferTable (the CLI over a million offers), which must
    /// outlive the rendering. Its points are held compactly and projected again when written: the same
    /// report as `results` of projectCatalog over the same offers and request.
    const TableProjection *table = nullptr;
    QList<Snapshot> snapshots; ///< catalog snapshots; those the offers come from are listed
    ReportOfferSet offerSet = ReportOfferSet::All;
    QList<qsizetype> selectedOffers;  ///< Selected: indices into results->offers
    std::optional<ProbeResult> probe; ///< the probe run behind a measured calibration (device, figures)
    qint64 probeRunId = 0;            ///< its id in the database, 0 = unknown
    QDateTime generatedAt;            ///< UTC; also "now" for the age of prices. Invalid = the current time
    QString title;                    ///< empty = "GPU Frontier report: <workload name>"
    /// The currency the documents show prices in (converted from USD at its rate, which they state). The
    /// data stays USD: the JSON's and the CSV's USD fields keep their meaning, the currency is added.
    Currency currency;
};

/// Renders the report in memory. Errors: no results, no offers to list (empty selection / filter).
Result<QByteArray> renderReport(const ReportInput &input, ReportFormat format);

/// Renders and writes atomically (util/outputfile.h: a temporary file renamed over `path` on success; a
/// FIFO or a device is written in place, never replaced), streaming
/// the CSV and JSON reports. An unwritable path, a full disk or an empty selection leaves no file behind
/// and returns a message naming the path and the reason. `bytesWritten` (if given) gets the file's size.
Status writeReport(const ReportInput &input, ReportFormat format, const QString &path,
                   qint64 *bytesWritten = nullptr);

/// Writes bytes atomically to `path` (the same temporary-file-then-rename as writeReport).
Status writeFileAtomically(const QString &path, const QByteArray &bytes);

/// The frontier chart of the results as a standalone SVG document (the same drawing as in the reports).
/// `currency`: the cost axis in that currency (nullptr = USD).
QString frontierChartSvgDocument(const ProjectionResults &results, const QString &title = {},
                                 double width = 880, double height = 520, const Currency *currency = nullptr);

/// Version of the JSON report schema (resources/report.schema.json). 2: every point carries the
/// projected-point "schema_version" (projection/pointjson.h). 3: the points are point schema 2
/// (expected_interruptions, setup_h). 4: the points are point schema 3 (tier and uncertainty
/// range). 5: the points are point schema 4 (price_usd_per_gpu_h); "currency" (the currency the
/// documents show prices in, its rate and the rate's date; the data fields stay USD). 6: the workload's
/// "measured_gpu_busy_fraction" (PROJECTION.md section 3.22).
inline constexpr int kReportSchemaVersion = 6;

} // namespace gf

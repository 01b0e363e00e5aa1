#pragma once

// Internal to the report renderers (report*.cpp): the analysis every format shows, computed once.

#include "domain/offerfiltertext.h"
#include "projection/tableprojection.h"
#include "report/report.h"
#include "report/reportchart.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <utility>
#include <vector>

namespace gf {
class BufferedOutput;
}

namespace gf::report {

/// A finding the reader must see before trusting the numbers.
struct Warning
{
    QString
        code; ///< stable id: stale-prices, unrecognised-gpus, memory-too-small, spot-overhead-dominates, ...
    QString message;   ///< one sentence
    QStringList items; ///< details (offers, providers), may be empty
};

/// Spot versus on-demand for one GPU model.
struct SpotSaving
{
    QString gpuId;
    QString gpuName;
    int offers = 0;         ///< offers of this GPU model
    int offersWithSpot = 0; ///< ... that have both prices
    std::optional<double>
        medianDiscountPct; ///< median of (1 - spot / on-demand) over offers with both prices
    std::optional<double> onDemandUsdPerGpuHour; ///< cheapest on-demand price per GPU-hour
    std::optional<double> spotUsdPerGpuHour;     ///< cheapest spot price per GPU-hour
    qsizetype onDemandPoint = -1; ///< cheapest eligible single-instance on-demand point (results->points)
    qsizetype spotPoint = -1;     ///< cheapest eligible single-instance spot point
    std::optional<double> runSavingsPct; ///< 1 - spot run cost / on-demand run cost
};

/// K single-GPU spot instances versus one K-GPU on-demand instance of the same GPU model.
struct MultiNodeComparison
{
    QString gpuId;
    QString gpuName;
    int gpus = 0;        ///< K
    Offer singleOffer;   ///< the single-GPU offer run K times on spot
    ProjectedOffer spot; ///< its K-node spot point
    Offer multiOffer;    ///< the K-GPU on-demand offer
    ProjectedOffer onDemand;
    double costSavingsPct = 0; ///< 1 - spot cost / on-demand cost (negative: spot costs more)
    double timeChangePct = 0;  ///< spot time / on-demand time - 1 (positive: spot is slower)
};

/// The points and offers a report reads: a ProjectionResults' lists (the GUI, tests) or a TableProjection
/// (the CLI over a million offers: compact points, each point projected again when it is read). The
/// passes over every point read compact(); what a document shows of a point reads point().
class Points
{
public:
    virtual ~Points() = default;
    virtual qsizetype offerCount() const = 0;
    qsizetype size() const { return compact().size(); }
    /// Every point as a CompactPoint (its marks, flags, time, cost, offer).
    virtual const QList<CompactPoint> &compact() const = 0;
    /// Point i in full; `offer`, when given, receives its offer.
    virtual ProjectedOffer point(qsizetype i, Offer *offer = nullptr) const = 0;
    /// Offer `offerIndex` (CompactPoint::offerIndex).
    virtual Offer offer(qint32 offerIndex) const = 0;
    /// explainNoRecommendation over these points and offers.
    virtual NoRecommendation whyNoRecommendation() const = 0;
    /// A hint before point(order[k]) is read in the order `order` (TableProjection::prefetch).
    virtual void prefetch(const QList<qsizetype> &order, qsizetype k) const
    {
        Q_UNUSED(order);
        Q_UNUSED(k);
    }
};

struct Data
{
    const ReportInput *input = nullptr;
    /// The projection's workload, options, calibration, filter, speeds and counts; its offers and points
    /// are read through `points` (a TableProjection's results hold none).
    const ProjectionResults *r = nullptr;
    std::shared_ptr<const ProjectionResults> ownResults; ///< r, when made from a TableProjection
    std::shared_ptr<const Points> points;
    /// Point i in full (Points::point).
    ProjectedOffer point(qsizetype i, Offer *offer = nullptr) const { return points->point(i, offer); }
    /// The offer of point i.
    Offer offerOf(qsizetype i) const { return points->offer(points->compact().at(i).offerIndex); }
    qsizetype offerCount() const { return points->offerCount(); }
    qsizetype pointCount() const { return points->size(); }
    /// Per offer: its provider's index in knownProviders(), -1 = other (the chart's colours).
    std::vector<qint8> offerProvider;
    QDateTime now; ///< generated-at time (UTC)
    QString title;
    QString generator;         ///< "GPU Frontier 0.1.0"
    QString offerSetText;      ///< what the offer table lists
    QList<qsizetype> rows;     ///< points listed, fastest first
    QList<qsizetype> frontier; ///< frontier points, fastest first
    qsizetype recommended = -1;
    qsizetype cheapest = -1;   ///< cheapest feasible point among the rows
    qsizetype fastest = -1;    ///< fastest feasible point among the rows
    QList<Snapshot> snapshots; ///< snapshots the offers come from
    QList<SpotSaving> spotSavings;
    QList<MultiNodeComparison> multiNode;
    QList<Warning> warnings;
    ReportChartData chart;
    qsizetype projected = 0;
    qsizetype feasible = 0;
    /// Where every number of the recommended point comes from (explainPoint: facts, then flags).
    QStringList recommendedExplanation;
    /// The currency prices are shown in (input->currency).
    Currency currency;
};

Result<Data> build(const ReportInput &input);

/// The longest provider or user string the documents (HTML, Markdown, PDF) show, in characters.
inline constexpr qsizetype kShownLength = 200;
/// A provider's or the user's string as the documents show it: longer than kShownLength characters, it
/// is cut there with "…" (never inside a surrogate pair). The database, the JSON data fields and the
/// CSV keep the whole text.
QString shown(const QString &s);
/// Where an offer is (locationText), cut for display like shown().
QString shownLocation(const Offer &o);

// Text shared by every format (same wording everywhere).
QString gpuText(const Offer &o, int nodes); ///< "8 × A100 80GB SXM4", "4 instances × (1 × T4)"
QString pricingText(const Offer &o, const ProjectedOffer &p);
QString pointTitle(const Data &d, qsizetype point); ///< "AWS p4d.24xlarge (us-east-1), spot"
/// A USD amount in the report's currency, "1,234.50" (util/format's digits, no unit).
QString money(const Data &d, double usd);
/// A USD price per hour in the report's currency, "–" when missing.
QString moneyPerHour(const Data &d, std::optional<double> usdPerHour);
/// The point's samples per unit of the report's currency, "–" when not priced.
QString samplesPerMoney(const Data &d, const ProjectedOffer &p);
/// A text of the report with its unit: "USD" becomes the report's currency code ("Cost (EUR)").
QString inCurrency(const Data &d, QString text);
/// "Prices in EUR: 1 USD = 0.9341 EUR (rate of 2024-06-28; source: ...); the data is stored in USD."; empty
/// for USD.
QString currencyNote(const Data &d);
/// The point's time (and cost) range, "9.1 h – 10.4 h; 36.40 – 41.60 USD"; "–" when not projected.
QString rangeText(const Data &d, const ProjectedOffer &p);
/// Cells of the point tables: Provider, Instance, Region, GPUs, Pricing, USD/h, USD/GPU-h, Time,
/// Cost (USD), Samples/USD, Interruptions, Spot overhead, Range (p10–p90), Tier, Feasible, Notes. The names
/// are the keys the PDF reads cells by (always USD); pointHeader(d) is what a table shows (in d's currency).
QStringList pointHeader();
QStringList pointHeader(const Data &d);
QStringList pointCells(const Data &d, qsizetype point);
/// Which point-table columns are numbers (right-aligned).
QList<bool> pointNumeric();
/// (label, value) rows.
QList<std::pair<QString, QString>> workloadRows(const Data &d);
QList<std::pair<QString, QString>> assumptionRows(const Data &d);
QList<std::pair<QString, QString>> calibrationRows(const Data &d);
QStringList snapshotHeader();
QList<QStringList> snapshotRows(const Data &d);
/// "Provider: description" of every snapshot with one (what it is built from, what was removed).
QStringList snapshotNotes(const Data &d);
QStringList spotHeader(const Data &d);
QList<QStringList> spotRows(const Data &d);
QStringList multiNodeHeader(const Data &d);
QList<QStringList> multiNodeRows(const Data &d);
/// The argument in one paragraph: recommended offer, how it compares with the cheapest and fastest, limits.
QString argumentText(const Data &d);
/// " Within the projection's likely ranges it is indistinguishable from ...": the feasible frontier
/// points of other GPU models whose time and cost ranges overlap the recommended point's; empty when none.
QString indistinguishableText(const Data &d);
/// One sentence per headline point (recommended, cheapest, fastest).
QString headlineText(const Data &d, qsizetype point);
QString spotPolicyText(SpotPolicy policy);
QString spotPolicyName(SpotPolicy policy); ///< "both", "spot-only", "on-demand-only"
/// The equivalent command line (best effort: the CLI has no filters other than --provider).
QString reproduceCommand(const Data &d, ReportFormat format);

/// A document's text written as the documents are (report.cpp): its UTF-8 read back, control and bidi
/// formatting characters made U+FFFD (line breaks kept). A document written in pieces that each end with
/// an element is written as it would have been whole.
void appendPrintable(BufferedOutput &out, const QString &text);

/// Streamed: the chart element by element, the point tables row by row.
void renderHtml(const Data &d, BufferedOutput &out);
QByteArray renderMarkdown(const Data &d);
/// Streamed: the PDF writer's file goes to `out` as it is written. Needs a QGuiApplication (fonts).
Status renderPdf(const Data &d, BufferedOutput &out);
/// Streamed: row by row (CSV) and point by point (JSON).
void renderCsv(const Data &d, BufferedOutput &out);
void renderJson(const Data &d, BufferedOutput &out);

} // namespace gf::report

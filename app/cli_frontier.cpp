#include "cli.h"
#include "cli_currency.h"
#include "cli_projectionargs.h"
#include "clicommand.h"
#include "domain/gpucatalog.h"
#include "domain/offertable.h"
#include "domain/provider.h"
#include "domain/workload.h"
#include "projection/norecommendation.h"
#include "projection/offerprojection.h"
#include "projection/pointjson.h"
#include "projection/projection.h"
#include "projection/tableprojection.h"
#include "store/catalogstore.h"
#include "util/bufferedoutput.h"
#include "util/format.h"
#include "util/jsonwriter.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <algorithm>

namespace gf {

namespace {

CliOptions frontierOptions()
{
    CliOptions o;
    o.addFlag(QStringLiteral("frontier-only"),
              QStringLiteral("show only the points on the efficiency frontier"));
    o.addFlag(QStringLiteral("feasible-only"), QStringLiteral("show only points within deadline and budget"));
    o.addValue(QStringLiteral("limit"), QStringLiteral("N"),
               QStringLiteral("show at most N points (fastest first)"));
    o.addValue(QStringLiteral("format"), QStringLiteral("FMT"), QStringLiteral("table (default) or json"));
    addCurrencyOptions(o);
    return o;
}

class FrontierCommand final : public ProjectingCommand
{
public:
    FrontierCommand()
        : ProjectingCommand(
              {.name = QStringLiteral("frontier"),
               .summary = QStringLiteral(
                   "Time and cost of a training run on every offer, with the efficiency frontier"),
               .synopsis = QStringLiteral("--workload NAME [OPTIONS]"),
               .description = QStringLiteral(
                   "Projects the training run on every offer of the current catalogs: time (h, incl. setup "
                   "and\n"
                   "expected spot interruptions), cost (USD, billed), samples per dollar, whether the point "
                   "is "
                   "on\n"
                   "the efficiency frontier (no other offer is both faster and cheaper) and within the "
                   "deadline\n"
                   "and budget. The model is described in models/projection/PROJECTION.md. --format json "
                   "writes the\n"
                   "projected points in the shape of the JSON report (README: \"Projected point JSON\").")},
              frontierOptions())
    {
    }

private:
    Result<int> runProjecting(CliContext &ctx, const CliArgs &args) const override;
};

Result<int> FrontierCommand::runProjecting(CliContext &ctx, const CliArgs &p) const
{
    QString err;
    const auto limit = p.number(QStringLiteral("limit"), &err, 1, 1e9);
    if (!err.isEmpty())
        return cliUsageError(err);
    const auto format = formatFromArgs(ctx, name(), p, {QStringLiteral("table"), QStringLiteral("json")});
    if (!format)
        return ExitUsage;
    const auto currency = currencyForFormat(p, *format, QStringLiteral("table"));
    if (!currency)
        return currency.error();
    const Currency &cur = currency.value();
    // The catalog held compactly and its points as compact points (a million offers in well under
    // 400 MB); each point written is projected again from its offer.
    OfferTable table;
    auto request = tableRequestFromArgs(ctx, p, QDateTime::currentDateTimeUtc(), table);
    if (!request)
        return request.error();
    const CalibrationChoice &choice = request.value().calibration;
    const TableProjection res(table, request.value().request);
    const Workload &workload = res.workload();
    const ProjectionOptions &opt = res.options();
    const Calibration &cal = res.calibration();
    const QList<CompactPoint> &points = res.points();

    // Fastest first; points without a projection last, in input order.
    QList<qsizetype> order;
    order.reserve(points.size());
    for (qsizetype i = 0; i < points.size(); ++i) {
        const CompactPoint &pt = points.at(i);
        if (p.isSet(QStringLiteral("frontier-only")) && !pt.onFrontier)
            continue;
        if (p.isSet(QStringLiteral("feasible-only")) && !pt.feasible)
            continue;
        order.append(i);
    }
    sortByTime(points, order);
    const qsizetype shownTotal = order.size();
    if (limit && order.size() > *limit)
        order.resize(static_cast<qsizetype>(*limit));
    auto modeName = [](const ProjectedOffer &pt) {
        return pt.mode == PriceMode::Spot ? QStringLiteral("spot") : QStringLiteral("on-demand");
    };

    if (*format == u"json") {
        QJsonObject root;
        root.insert(u"workload", workloadToJson(workload));
        root.insert(u"calibration", calibrationToJson(cal));
        QJsonObject o;
        o.insert(u"spot_policy", opt.spotPolicy == SpotPolicy::SpotOnly ? QStringLiteral("spot-only")
                                 : opt.spotPolicy == SpotPolicy::OnDemandOnly
                                     ? QStringLiteral("on-demand-only")
                                     : QStringLiteral("both"));
        o.insert(u"setup_minutes", opt.setupMinutes);
        o.insert(u"checkpoint_minutes", opt.checkpointMinutes);
        o.insert(u"restore_minutes", opt.restoreMinutes);
        o.insert(u"deadline_hours", opt.deadlineHours ? QJsonValue(*opt.deadlineHours) : QJsonValue());
        o.insert(u"budget_usd", opt.budgetUsd ? QJsonValue(*opt.budgetUsd) : QJsonValue());
        o.insert(u"weight", opt.weight);
        QJsonArray nodes;
        for (int k : std::as_const(opt.nodeCounts))
            nodes.append(k);
        o.insert(u"nodes", nodes);
        o.insert(u"include_suspect", opt.includeSuspect);
        auto perProvider = [](const QHash<QString, double> &values) {
            QJsonObject j;
            for (auto it = values.cbegin(); it != values.cend(); ++it)
                j.insert(it.key(), it.value());
            return j;
        };
        o.insert(u"interruption_rate_per_hour", perProvider(opt.interruptionRatePerHour));
        o.insert(u"egress_usd_per_gb", perProvider(opt.egressUsdPerGb));
        root.insert(u"options", o);
        QJsonObject counts;
        counts.insert(u"offers", res.offerCount());
        counts.insert(u"points", points.size());
        counts.insert(u"projected", res.projectedCount());
        counts.insert(u"on_frontier", res.frontierCount());
        counts.insert(u"feasible", res.feasibleCount());
        counts.insert(u"shown", order.size());
        root.insert(u"counts", counts);
        // The points are streamed: the document of a million offers is never held in memory.
        return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
            JsonWriter w(out);
            w.writeObjectWith(root, {{QLatin1StringView("points"), [&] {
                                          w.beginArray();
                                          Offer offer;
                                          for (qsizetype k = 0; k < order.size(); ++k) {
                                              res.prefetch(order, k);
                                              const ProjectedOffer pt = res.point(order.at(k), &offer);
                                              writeProjectedPoint(w, offer, pt, pt.recommended, opt.now);
                                          }
                                          w.endArray();
                                      }}});
        });
    }

    ctx.out << currencyLine(cur);
    ctx.out << "Workload: " << workloadSummaryText(workload) << '\n';
    ctx.out << calibrationText(choice);
    ctx.out << QStringLiteral("Offers: %1 -> %2 points (%3 projected, %4 on the frontier, %5 feasible)\n")
                   .arg(res.offerCount())
                   .arg(points.size())
                   .arg(res.projectedCount())
                   .arg(res.frontierCount())
                   .arg(res.feasibleCount());
    if (res.recommended() >= 0) {
        Offer o;
        const ProjectedOffer pt = res.point(res.recommended(), &o);
        ctx.out << QStringLiteral("Recommended (weight %1): %2 %3 %4, %5, %6\n")
                       .arg(QString::number(opt.weight, 'f', 2), providerDisplayName(o.provider),
                            o.instanceType,
                            (pt.nodes > 1 ? QStringLiteral("x%1 ").arg(pt.nodes) : QString()) + modeName(pt),
                            formatHours(pt.totalHours), formatMoneyWithUnit(pt.costUsd, cur));
    } else {
        const NoRecommendation why = res.whyNoRecommendation();
        QString advice;
        if (why.suspectExcluded) {
            advice = why.staleProviders.isEmpty()
                         ? QStringLiteral(" Pass --include-suspect to consider them.")
                         : QStringLiteral(" Refresh them (gpufrontier-cli refresh --provider %1), or pass "
                                          "--include-suspect.")
                               .arg(why.staleProviders.join(u','));
        }
        ctx.out << QStringLiteral("Recommended: none (%1).%2\n").arg(why.facts, advice);
    }
    FrontierTableRows rows(res, order, cur);
    auto frontierRow = [&](qsizetype r, TableRow &cells) {
        res.prefetch(order, r);
        rows.cells(r, cells);
    };
    return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
        writeTableRows(out,
                       {QString(), QStringLiteral("Provider"), QStringLiteral("Instance"),
                        QStringLiteral("Region/zone"), QStringLiteral("GPU"), QStringLiteral("GPUs"),
                        QStringLiteral("Price"), cur.perHourUnit(), cur.perGpuHourUnit(),
                        QStringLiteral("Samples/s"), QStringLiteral("Time"),
                        QStringLiteral("Cost ") + cur.code, QStringLiteral("Samples/") + cur.code,
                        QStringLiteral("Feasible"), QStringLiteral("Flags")},
                       order.size(), frontierRow,
                       {false, false, false, false, false, true, false, true, true, true, true, true, true,
                        false, false});
        out.appendText(
            QStringLiteral("%1 of %2 points shown. * = on the efficiency frontier, => = recommended.\n")
                .arg(order.size())
                .arg(shownTotal));
    });
}

} // namespace

FrontierTableRows::FrontierTableRows(const TableProjection &projection, const QList<qsizetype> &order,
                                     const Currency &currency)
    : m_projection(projection), m_order(order), m_currency(currency)
{
}

FrontierTableRows::~FrontierTableRows() = default;

void FrontierTableRows::project()
{
    const qsizetype points = m_projection.points().size();
    std::vector<qint32> row(static_cast<std::size_t>(points), -1); // per point: its row, -1 when not shown
    for (qsizetype r = 0; r < m_order.size(); ++r)
        row[static_cast<std::size_t>(m_order.at(r))] = static_cast<qint32>(r);
    m_figures.resize(static_cast<std::size_t>(m_order.size()));
    for (qsizetype i = 0; i < points; ++i) {
        const qint32 r = row[static_cast<std::size_t>(i)];
        if (r < 0)
            continue;
        const ProjectedOffer full = m_projection.point(i);
        m_figures[static_cast<std::size_t>(r)] = {full.usdPerHour, full.samplesPerS, full.samplesPerUsd};
    }
}

void FrontierTableRows::cells(qsizetype r, TableRow &cells)
{
    const TableProjection &res = m_projection;
    const Currency &cur = m_currency;
    const OfferTable &offers = res.table();
    const QString dash = QStringLiteral("–");
    if (m_figures.size() != static_cast<std::size_t>(m_order.size()))
        project();
    const CompactPoint &pt = res.points().at(m_order.at(r));
    const Figures &f = m_figures[static_cast<std::size_t>(r)];
    const qint32 row = res.tableRow(pt.offerIndex);
    const bool priced = pt.projected && !hasFlag(pt.flags, ProjectionFlag::InvalidPrice);
    cells.add(pt.recommended  ? QLatin1StringView("=>")
              : pt.onFrontier ? QLatin1StringView("*")
                              : QLatin1StringView());
    const quint32 providerId = offers.textId(row, OfferTable::Provider);
    auto provider = m_providerNames.constFind(providerId);
    if (provider == m_providerNames.cend())
        provider = m_providerNames.insert(providerId,
                                          providerDisplayName(offers.textView(row, OfferTable::Provider)));
    cells.add(*provider);
    cells.add(offers.textView(row, OfferTable::InstanceType));
    // locationText(offer), kept for the first 65,536 distinct region and zone pairs
    const quint64 place =
        quint64(offers.textId(row, OfferTable::Region)) << 32 | offers.textId(row, OfferTable::Zone);
    auto location = m_locations.constFind(place);
    if (location == m_locations.cend() && m_locations.size() < 65536)
        location = m_locations.insert(place, locationText(offers.textView(row, OfferTable::Region),
                                                          offers.textView(row, OfferTable::Zone)));
    if (location != m_locations.cend())
        cells.add(*location);
    else
        cells.add(
            locationText(offers.textView(row, OfferTable::Region), offers.textView(row, OfferTable::Zone)));
    // gpuModelName(offer)
    const quint32 gpuId = offers.textId(row, OfferTable::GpuId);
    auto model = m_gpuModels.constFind(gpuId);
    if (model == m_gpuModels.cend()) {
        model = m_gpuModels.insert(gpuId, gpuModelOf(offers.textView(row, OfferTable::GpuId)));
    }
    if (*model)
        cells.add((*model)->name);
    else
        cells.append(offers.textView(row, OfferTable::GpuRawName)).append(kUnrecognisedGpuSuffix).endCell();
    const double gpuCount = offers.gpuCount(row);
    if (pt.nodes > 1)
        cells.append(QString::number(pt.nodes)).append(u'x');
    cells.append(formatNumber(gpuCount)).endCell();
    cells.add(pt.mode == PriceMode::Spot ? QLatin1StringView("spot") : QLatin1StringView("on-demand"));
    cells.add(f.usdPerHour > 0 ? formatMoneyPerHour(f.usdPerHour, cur) : dash);
    // the point's price (on-demand or spot, all its nodes) per GPU and hour (ProjectedOffer::usdPerGpuHour)
    cells.add(formatMoneyPerHour(ProjectedOffer::usdPerGpuHourOf(f.usdPerHour, gpuCount, pt.nodes), cur));
    cells.add(pt.projected ? formatNumber(f.samplesPerS, f.samplesPerS < 100 ? 2 : 0) : dash);
    cells.add(pt.projected ? formatHours(pt.totalHours) : dash);
    cells.add(priced ? formatMoney(pt.costUsd, cur) : dash);
    cells.add(priced ? QString::number(f.samplesPerUsd / cur.unitsPerUsd, 'f', 0) : dash);
    cells.add(pt.feasible ? QLatin1StringView("yes") : QLatin1StringView("no"));
    auto flags = m_flagNames.constFind(pt.flags);
    if (flags == m_flagNames.cend())
        flags = m_flagNames.insert(pt.flags, projectionFlagNames(pt.flags).join(u','));
    cells.add(*flags);
}

std::unique_ptr<CliCommand> makeFrontierCommand()
{
    return std::make_unique<FrontierCommand>();
}

} // namespace gf

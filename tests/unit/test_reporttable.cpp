// The CLI writes its reports from a TableProjection (compact points, each point projected again when it is
// written); the GUI from projectCatalog's results. Both give the same bytes in every format, on varied
// catalogs and options: offer sets, filters, currency, node counts, spot policies, limits nothing meets,
// suspect and stale prices, unrecognised GPUs and providers, texts with markup, bidi controls and more
// than the documents show. The single-GPU spot versus multi-GPU on-demand comparison (projected offer by
// offer) equals the projection of the whole subset it was computed from before.
#include "domain/offertable.h"
#include "domain/pricesanity.h"
#include "domain/workload.h"
#include "projection/catalogprojection.h"
#include "projection/tableprojection.h"
#include "report/report.h"
#include "report/reportdata.h"

#include "offerfixture.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

#include <cmath>
#include <map>
#include <set>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

const QDateTime kNow(QDate(2026, 11, 27), QTime(12, 0), QTimeZone::utc());

/// `n` offers of several providers (one unknown), GPU models (one unknown), GPU counts (a share of a
/// GPU too), with and without spot prices, stale and current, texts that need escaping.
QList<Offer> reportCatalog(qsizetype n, quint32 seed)
{
    QRandomGenerator rng(seed);
    const QStringList providers{u"aws"_s, u"gcp"_s, u"azure"_s, u"vastai"_s, u"lambda"_s, u"acme-cloud"_s};
    const QStringList gpus{u"h100-80gb-sxm"_s, u"a100-80gb-sxm4"_s, u"a100-40gb-sxm4"_s, u"l4"_s, u"t4"_s,
                           QString()};
    QList<Offer> out;
    for (qsizetype i = 0; i < n; ++i) {
        const QString provider = providers.at(rng.bounded(int(providers.size())));
        const QString gpu = gpus.at(rng.bounded(int(gpus.size())));
        const double count = QList<double>{1, 1, 2, 4, 8, 0.5}.at(rng.bounded(6));
        const double price = (0.3 + 4 * rng.generateDouble()) * std::max(1.0, count);
        std::optional<double> spot;
        if (rng.bounded(3) != 0)
            spot = price * (0.15 + 0.9 * rng.generateDouble());
        QString type = provider + u"-"_s + QString::number(i);
        switch (rng.bounded(12)) {
        case 0:
            type = u"<b>x&y</b> \"q\" "_s + type;
            break;
        case 1:
            type += u" \u202Eevil\u202C"_s; // a bidi override: U+FFFD in the documents
            break;
        case 2:
            type += QString(230, u'w'); // longer than the documents show
            break;
        case 3:
            type += u" 東京"_s;
            break;
        default:
            break;
        }
        Offer o = makeOffer(provider, type, gpu, count, rng.bounded(30) == 0 ? price / 40 : price, spot);
        o.id = i + 1;
        if (gpu.isEmpty())
            o.gpuRawName = u"Mystery GPU "_s + QString::number(rng.bounded(2));
        o.gpuMemGb = QList<double>{16, 24, 40, 80}.at(rng.bounded(4));
        o.region = QList<QString>{u"us-east-1"_s, u"eu-west-4"_s, u"asia"_s}.at(rng.bounded(3));
        if (rng.bounded(3) == 0)
            o.zone = o.region + u"-b"_s;
        o.spotLabel = spot ? u"spot"_s : QString();
        o.networkGbps = 25.0 * (1 + rng.bounded(4));
        const bool stale = rng.bounded(8) == 0;
        o.snapshotId = stale ? 7 : 1 + providers.indexOf(provider);
        o.fetchedAt = stale ? QDateTime(QDate(2024, 5, 1), QTime(6, 0), QTimeZone::utc())
                            : QDateTime(QDate(2026, 11, 26), QTime(6, 0), QTimeZone::utc());
        o.dataDate = o.fetchedAt.date();
        o.source = u"fixture"_s;
        if (rng.bounded(25) == 0 && !out.isEmpty()) { // an exact tie with an earlier offer
            Offer tie = out.at(rng.bounded(int(out.size())));
            tie.id = i + 1;
            out.append(tie);
            continue;
        }
        out.append(o);
    }
    PriceSanityRules rules;
    rules.today = kNow.date();
    applyPriceSanity(out, rules);
    return out;
}

QList<Snapshot> snapshots()
{
    QList<Snapshot> out;
    const QStringList providers{u"aws"_s, u"gcp"_s, u"azure"_s, u"vastai"_s, u"lambda"_s, u"acme-cloud"_s};
    for (qsizetype i = 0; i <= providers.size(); ++i) {
        Snapshot s;
        s.id = i + 1;
        s.provider = providers.value(i, u"aws"_s);
        s.origin = u"fixture <"_s + s.provider + u">"_s;
        s.fetchedAt = QDateTime(QDate(2026, 11, 26), QTime(6, 0), QTimeZone::utc());
        s.dataDate = s.fetchedAt.date();
        s.current = i < providers.size();
        s.rowCount = 10;
        out.append(s);
    }
    return out;
}

struct Variant
{
    ProjectionRequest request;
    ReportOfferSet offerSet = ReportOfferSet::Frontier;
    Currency currency;
    QString title;
    QList<qsizetype> selected;
};

Variant variant(int v)
{
    Variant out;
    ProjectionRequest &r = out.request;
    r.workload = *findWorkload(builtinWorkloads(), u"resnet50");
    r.options.now = kNow;
    r.calibration = defaultCalibration();
    switch (v) {
    case 0:
        out.offerSet = ReportOfferSet::All;
        break;
    case 1: // another currency, several node counts, limits
        out.currency = {u"EUR"_s, u"€"_s, u"euro"_s, 0.9317, QDate(2026, 11, 26), u"test rates"_s};
        r.options.nodeCounts = {1, 2, 4};
        r.options.deadlineHours = 30;
        r.options.budgetUsd = 900;
        break;
    case 2: // a filter, spot only, a title that needs escaping
        r.filter.providers = {u"aws"_s, u"vastai"_s, u"acme-cloud"_s};
        r.options.spotPolicy = SpotPolicy::SpotOnly;
        out.offerSet = ReportOfferSet::Filtered;
        out.title = u"Spot <only> & \u202Etitle"_s;
        break;
    case 3: // an LLM whose memory most GPUs lack, on-demand only, every point listed
        r.workload = *findWorkload(builtinWorkloads(), u"llm7b-lora");
        r.options.spotPolicy = SpotPolicy::OnDemandOnly;
        r.options.nodeCounts = {1, 8, 2};
        out.offerSet = ReportOfferSet::All;
        out.currency = {u"JPY"_s, u"¥"_s, u"yen"_s, 156.3, QDate(2026, 11, 25), u"test"_s};
        break;
    case 4: // limits nothing meets: nothing recommended, and why
        r.options.deadlineHours = 0.01;
        r.options.budgetUsd = 0.01;
        break;
    case 5: // suspect prices included, a weight towards time, a selection
        r.options.includeSuspect = true;
        r.options.weight = 0.9;
        out.offerSet = ReportOfferSet::Selected;
        out.selected = {0, 3, 5, 8, 13, 21, 34, 55, 89, 144};
        break;
    case 6: // the stack and the workload class
        r.workload = *findWorkload(builtinWorkloads(), u"vit-b16");
        r.options.nodeCounts = {1, 2};
        r.options.setupMinutes = 90;
        break;
    }
    return out;
}

ReportInput inputOf(const Variant &v)
{
    ReportInput in;
    in.snapshots = snapshots();
    in.offerSet = v.offerSet;
    in.selectedOffers = v.selected;
    in.generatedAt = kNow;
    in.title = v.title;
    in.currency = v.currency;
    return in;
}

QString firstDifference(const QByteArray &a, const QByteArray &b)
{
    qsizetype i = 0;
    while (i < a.size() && i < b.size() && a.at(i) == b.at(i))
        ++i;
    if (i == a.size() && i == b.size())
        return {};
    return u"sizes %1 / %2, first difference at %3: \"%4\" / \"%5\""_s.arg(a.size()).arg(b.size()).arg(i).arg(
        QString::fromUtf8(a.mid(std::max<qsizetype>(0, i - 40), 120)),
        QString::fromUtf8(b.mid(std::max<qsizetype>(0, i - 40), 120)));
}

/// The multi-node comparison as the report computed it before (projectCatalog over the subset of
/// single-GPU spot offers and multi-GPU on-demand offers of the GPU models with both): (GPU, K) -> the
/// spot point's cost and time, the on-demand point's cost and time, the two offers' instance types.
std::map<std::pair<QString, int>, QStringList> multiNodeBefore(const ProjectionResults &r)
{
    std::map<QString, QList<qsizetype>> singles, multis;
    for (qsizetype i = 0; i < r.offers.size(); ++i) {
        const Offer &o = r.offers.at(i);
        if (!o.recognised())
            continue;
        if (o.gpuCount == 1 && o.spotUsdH && *o.spotUsdH > 0)
            singles[o.gpuId].append(i);
        else if (o.gpuCount >= 2 && o.gpuCount <= 255 && o.gpuCount == std::floor(o.gpuCount) &&
                 o.onDemandUsdH && *o.onDemandUsdH > 0)
            multis[o.gpuId].append(i);
    }
    QList<Offer> subset;
    std::set<int> ks;
    for (const auto &[gpu, list] : multis) {
        if (!singles.count(gpu))
            continue;
        for (qsizetype i : singles[gpu])
            subset.append(r.offers.at(i));
        for (qsizetype i : list) {
            subset.append(r.offers.at(i));
            ks.insert(static_cast<int>(r.offers.at(i).gpuCount));
        }
    }
    std::map<std::pair<QString, int>, QStringList> out;
    if (subset.isEmpty())
        return out;
    ProjectionOptions opt = r.options;
    opt.spotPolicy = SpotPolicy::SpotAllowed;
    opt.nodeCounts = {1};
    for (int k : ks)
        opt.nodeCounts.append(k);
    const QList<ProjectedOffer> pts =
        projectCatalog(subset, {OfferFilter{}, r.workload, opt, r.calibration, opt.measurements, 0}).points;
    std::map<std::pair<QString, int>, std::pair<qsizetype, qsizetype>> best;
    for (qsizetype i = 0; i < pts.size(); ++i) {
        const ProjectedOffer &p = pts.at(i);
        if (!p.eligible())
            continue;
        const Offer &o = subset.at(p.offerIndex);
        if (o.gpuCount == 1 && p.mode == PriceMode::Spot && p.nodes >= 2) {
            auto &b = best[{o.gpuId, p.nodes}];
            if (b.first == 0 || p.costUsd < pts.at(b.first - 1).costUsd)
                b.first = i + 1;
        } else if (o.gpuCount >= 2 && p.mode == PriceMode::OnDemand && p.nodes == 1) {
            auto &b = best[{o.gpuId, static_cast<int>(o.gpuCount)}];
            if (b.second == 0 || p.costUsd < pts.at(b.second - 1).costUsd)
                b.second = i + 1;
        }
    }
    for (const auto &[key, b] : best) {
        if (b.first == 0 || b.second == 0)
            continue;
        const ProjectedOffer &s = pts.at(b.first - 1), &d = pts.at(b.second - 1);
        out[key] = {QString::number(s.costUsd, 'g', 17),  QString::number(s.totalHours, 'g', 17),
                    QString::number(d.costUsd, 'g', 17),  QString::number(d.totalHours, 'g', 17),
                    subset.at(s.offerIndex).instanceType, subset.at(d.offerIndex).instanceType};
    }
    return out;
}

} // namespace

class TestReportTable final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableReportEqualsListReport_data()
    {
        QTest::addColumn<int>("variant");
        for (int v = 0; v < 7; ++v)
            QTest::addRow("variant %d", v) << v;
    }

    void tableReportEqualsListReport()
    {
        QFETCH(int, variant);
        const QList<Offer> catalog = reportCatalog(1500, 100 + quint32(variant));
        OfferTable table;
        for (const Offer &o : catalog)
            table.append(o);
        const Variant v = ::variant(variant);
        ReportInput fromList = inputOf(v);
        fromList.results = std::make_shared<const ProjectionResults>(projectCatalog(catalog, v.request));
        ReportInput fromTable = inputOf(v);
        const TableProjection projection(table, v.request);
        fromTable.table = &projection;
        QCOMPARE(projection.points().size(), fromList.results->points.size());
        QCOMPARE(variant == 4, fromList.results->recommended < 0);

        for (ReportFormat f : allReportFormats()) {
            const auto a = renderReport(fromList, f);
            const auto b = renderReport(fromTable, f);
            QVERIFY2(a.ok(), qPrintable(reportFormatName(f)));
            QVERIFY2(b.ok(), qPrintable(reportFormatName(f)));
            QVERIFY(a.value().size() > 1000);
            QVERIFY2(a.value() == b.value(),
                     qPrintable(reportFormatName(f) + u": "_s + firstDifference(a.value(), b.value())));
        }
        // A report that cannot be made fails alike.
        ReportInput noneList = fromList, noneTable = fromTable;
        noneList.offerSet = noneTable.offerSet = ReportOfferSet::Selected;
        noneList.selectedOffers = noneTable.selectedOffers = {999999};
        const auto a = renderReport(noneList, ReportFormat::Json);
        const auto b = renderReport(noneTable, ReportFormat::Json);
        QVERIFY(!a.ok() && !b.ok());
        QCOMPARE(b.error().message, a.error().message);
    }

    void multiNodeAsOverTheWholeSubset_data()
    {
        QTest::addColumn<int>("variant");
        for (int v : {0, 1, 3, 5})
            QTest::addRow("variant %d", v) << v;
    }

    void multiNodeAsOverTheWholeSubset()
    {
        QFETCH(int, variant);
        const QList<Offer> catalog = reportCatalog(2500, 7 + quint32(variant));
        const Variant v = ::variant(variant);
        ReportInput in = inputOf(v);
        in.results = std::make_shared<const ProjectionResults>(projectCatalog(catalog, v.request));
        const auto built = report::build(in);
        QVERIFY(built.ok());
        const auto before = multiNodeBefore(*in.results);
        std::map<std::pair<QString, int>, QStringList> now;
        for (const report::MultiNodeComparison &m : built.value().multiNode)
            now[{m.gpuId, m.gpus}] = {QString::number(m.spot.costUsd, 'g', 17),
                                      QString::number(m.spot.totalHours, 'g', 17),
                                      QString::number(m.onDemand.costUsd, 'g', 17),
                                      QString::number(m.onDemand.totalHours, 'g', 17),
                                      m.singleOffer.instanceType,
                                      m.multiOffer.instanceType};
        QVERIFY(before.size() >= 3); // several GPU models and K
        QCOMPARE(now.size(), before.size());
        for (const auto &[key, row] : before) {
            QVERIFY2(now.count(key), qPrintable(key.first));
            QCOMPARE(now.at(key), row);
        }
    }
};

QTEST_MAIN(TestReportTable)
#include "test_reporttable.moc"

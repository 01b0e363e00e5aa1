// The CLI's compact path over a million offers gives what the list path gives: OfferTable keeps every
// field of every offer (texts shared and packed, figures NaN-coded, snapshot facts once), price sanity,
// the offer sort and TableProjection (compact points, each point projected again) equal
// applyPriceSanity, sortOffers and projectCatalog over the same offers as a list, on varied catalogs:
// filters, spot, several node counts, suspect prices, ties, limits, several chunks.
#include "domain/offerfilter.h"
#include "domain/offertable.h"
#include "domain/pricesanity.h"
#include "domain/workload.h"
#include "projection/catalogprojection.h"
#include "projection/norecommendation.h"
#include "projection/tableprojection.h"

#include "offerfixture.h"

#include <QRandomGenerator>
#include <QTest>
#include <QTimeZone>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

/// Every field of two offers, a text's null-ness included.
QString offerDifference(const Offer &a, const Offer &b)
{
    auto text = [](const QString &x, const QString &y) { return x == y && x.isNull() == y.isNull(); };
    auto num = [](const std::optional<double> &x, const std::optional<double> &y) {
        return x.has_value() == y.has_value() && (!x || *x == *y);
    };
    if (a.id != b.id || a.snapshotId != b.snapshotId)
        return u"ids"_s;
    if (!text(a.provider, b.provider) || !text(a.instanceType, b.instanceType) || !text(a.region, b.region) ||
        !text(a.zone, b.zone) || !text(a.gpuRawName, b.gpuRawName) || !text(a.gpuId, b.gpuId) ||
        !text(a.interconnect, b.interconnect) || !text(a.spotLabel, b.spotLabel) ||
        !text(a.interruption, b.interruption) || !text(a.source, b.source))
        return u"texts: "_s + a.instanceType + u" / "_s + b.instanceType;
    if (!(a.gpuCount == b.gpuCount || (std::isnan(a.gpuCount) && std::isnan(b.gpuCount))))
        return u"gpuCount"_s;
    if (!num(a.gpuMemGb, b.gpuMemGb) || !num(a.vcpus, b.vcpus) || !num(a.ramGb, b.ramGb) ||
        !num(a.networkGbps, b.networkGbps) || !num(a.onDemandUsdH, b.onDemandUsdH) ||
        !num(a.spotUsdH, b.spotUsdH) || !num(a.reliability, b.reliability) ||
        !num(a.uploadGbps, b.uploadGbps) || !num(a.dlperf, b.dlperf))
        return u"figures"_s;
    if (a.billingIncrementS != b.billingIncrementS || a.billingMinimumS != b.billingMinimumS ||
        a.flags != b.flags || a.medianUsdPerGpuH != b.medianUsdPerGpuH)
        return u"billing, flags or median"_s;
    if (a.priceDate != b.priceDate || a.listingEnd != b.listingEnd || a.dataDate != b.dataDate ||
        a.priceDate.isValid() != b.priceDate.isValid() || a.listingEnd.isValid() != b.listingEnd.isValid())
        return u"dates"_s;
    if (a.fetchedAt != b.fetchedAt || a.fetchedAt.timeSpec() != b.fetchedAt.timeSpec() ||
        a.fetchedAt.isValid() != b.fetchedAt.isValid())
        return u"fetchedAt"_s;
    return {};
}

/// Every field of two points.
QString pointDifference(const ProjectedOffer &x, const ProjectedOffer &y)
{
    if (x.offerIndex != y.offerIndex || x.mode != y.mode || x.nodes != y.nodes)
        return u"identity"_s;
    if (x.projected != y.projected || x.onFrontier != y.onFrontier || x.feasible != y.feasible ||
        x.recommended != y.recommended || x.suspectExcluded != y.suspectExcluded || x.tier != y.tier ||
        x.probeCalibrated != y.probeCalibrated || x.flags != y.flags)
        return u"marks or flags"_s;
    if (x.samplesPerS != y.samplesPerS || x.trainHours != y.trainHours ||
        x.interruptionHours != y.interruptionHours || x.totalHours != y.totalHours ||
        x.costUsd != y.costUsd || x.usdPerHour != y.usdPerHour || x.samplesPerUsd != y.samplesPerUsd)
        return u"figures"_s;
    if (x.setupHours != y.setupHours || x.expectedInterruptions != y.expectedInterruptions ||
        x.speedLogP10 != y.speedLogP10 || x.speedLogP90 != y.speedLogP90 ||
        x.totalHoursLow != y.totalHoursLow || x.totalHoursHigh != y.totalHoursHigh ||
        x.costUsdLow != y.costUsdLow || x.costUsdHigh != y.costUsdHigh)
        return u"ranges"_s;
    return {};
}

/// A varied catalog of `n` offers: several providers and snapshots, multi-GPU and single-GPU offers,
/// spot prices (some at AWS's floor, some above on-demand), outliers, unrecognised GPUs, missing figures,
/// old and ended listings, exact duplicates (ties), null and empty texts, unique instance ids.
QList<Offer> variedCatalog(qsizetype n, quint32 seed)
{
    QRandomGenerator rng(seed);
    const QStringList providers{u"aws"_s, u"gcp"_s, u"azure"_s, u"vastai"_s, u"runpod"_s};
    const QStringList gpus{u"h100-80gb-sxm"_s, u"a100-40gb-sxm4"_s, u"a10g"_s, u"t4"_s, u"rtx-4090"_s,
                           QString()};
    const QDateTime fetched[] = {QDateTime(QDate(2026, 11, 20), QTime(8, 30), QTimeZone::utc()),
                                 QDateTime(QDate(2024, 7, 1), QTime(0, 0), QTimeZone::utc()), QDateTime()};
    QList<Offer> out;
    out.reserve(n);
    for (qsizetype i = 0; i < n; ++i) {
        if (i > 0 && rng.bounded(20) == 0) { // an exact tie with the previous offer
            Offer dup = out.last();
            dup.id = i + 1;
            out.append(dup);
            continue;
        }
        const QString provider = providers.at(rng.bounded(int(providers.size())));
        const QString gpu = gpus.at(rng.bounded(int(gpus.size())));
        const double count = QList<double>{1, 1, 1, 2, 4, 8, 0.5}.at(rng.bounded(7));
        const double price = (0.2 + rng.generateDouble() * 6) * std::max(1.0, count);
        std::optional<double> spot;
        switch (rng.bounded(5)) {
        case 0:
            spot = price * 0.1; // at AWS's floor
            break;
        case 1:
            spot = price * 1.2; // above on-demand
            break;
        case 2:
            spot = price * (0.2 + 0.6 * rng.generateDouble());
            break;
        default:
            break;
        }
        Offer o = makeOffer(provider, provider + u"-type-"_s + QString::number(i), gpu, count,
                            rng.bounded(25) == 0 ? price / 50 : price, spot);
        o.id = i + 1;
        const int snapshot = provider == u"azure" ? 1 : rng.bounded(12) == 0 ? 2 : 0;
        o.snapshotId = 100 + snapshot + (provider == u"azure" ? 10 : 0);
        o.fetchedAt = fetched[snapshot];
        o.dataDate = snapshot == 1 ? QDate(2024, 7, 1) : QDate();
        if (gpu.isEmpty())
            o.gpuRawName = u"Mystery GPU "_s + QString::number(rng.bounded(3));
        if (rng.bounded(3) == 0)
            o.vcpus.reset();
        if (rng.bounded(4) == 0)
            o.gpuMemGb = 24.0 * (1 + rng.bounded(4));
        if (rng.bounded(3) == 0)
            o.networkGbps = 25.0 * rng.bounded(5);
        o.zone = rng.bounded(2) ? QString() : QStringLiteral("");
        if (rng.bounded(4) == 0)
            o.zone = o.region + u"-a"_s;
        o.interconnect = count >= 2 ? (rng.bounded(2) ? u"NVLink"_s : u"PCIe"_s) : QString();
        o.spotLabel = spot ? u"spot"_s : QString();
        o.interruption = provider == u"aws" && spot ? u"<5%"_s : QString();
        if (provider == u"vastai") {
            o.reliability = 0.9 + 0.1 * rng.generateDouble();
            o.uploadGbps = rng.generateDouble();
            o.dlperf = 10 + 50 * rng.generateDouble();
            o.priceDate = QDate(2026, 11, 1 + rng.bounded(20));
            if (rng.bounded(6) == 0)
                o.listingEnd = QDate(2026, 1, 1); // ended before its snapshot: stale
            else if (rng.bounded(2) == 0)
                o.listingEnd = QDate(2027, 1, 1);
        }
        o.billingIncrementS = rng.bounded(2) ? 1 : 60;
        o.source = rng.bounded(2) ? u"fixture"_s : QString();
        o.flags = rng.bounded(10) == 0 ? static_cast<int>(OfferFlag::MemoryDiffers) : 0;
        out.append(o);
    }
    return out;
}

OfferTable tableOf(const QList<Offer> &offers)
{
    OfferTable t;
    t.reserve(offers.size());
    for (const Offer &o : offers)
        t.append(o);
    return t;
}

ProjectionRequest baseRequest()
{
    ProjectionRequest r;
    r.workload = *findWorkload(builtinWorkloads(), u"resnet50");
    r.options.now = QDateTime(QDate(2026, 11, 27), QTime(9, 0), QTimeZone::utc());
    r.calibration = defaultCalibration();
    return r;
}

/// TableProjection and projectCatalog over the same offers: the same counts, recommendation and points.
void compareProjections(const QList<Offer> &catalog, const ProjectionRequest &request)
{
    const OfferTable table = tableOf(catalog);
    const ProjectionResults list = projectCatalog(catalog, request);
    const TableProjection compact(table, request);
    QCOMPARE(compact.offerCount(), list.offers.size());
    QCOMPARE(compact.points().size(), list.points.size());
    QCOMPARE(compact.projectedCount(), list.projectedCount);
    QCOMPARE(compact.frontierCount(), list.frontierCount);
    QCOMPARE(compact.feasibleCount(), list.feasibleCount);
    QCOMPARE(compact.recommended(), list.recommended);
    for (qsizetype i = 0; i < list.offers.size(); ++i)
        QCOMPARE(offerDifference(compact.offer(static_cast<qint32>(i)), list.offers.at(i)), QString());
    for (qsizetype i = 0; i < list.points.size(); ++i) {
        const CompactPoint &c = compact.points().at(i);
        const ProjectedOffer &p = list.points.at(i);
        QCOMPARE(c.offerIndex, p.offerIndex);
        QCOMPARE(c.totalHours, p.totalHours);
        QCOMPARE(c.costUsd, p.costUsd);
        QCOMPARE(c.flags, p.flags);
        QCOMPARE(c.onFrontier, p.onFrontier);
        QCOMPARE(c.feasible, p.feasible);
        QCOMPARE(c.recommended, p.recommended);
        QCOMPARE(c.eligible(), p.eligible());
        Offer offer;
        QCOMPARE(pointDifference(compact.point(i, &offer), p), QString());
        QCOMPARE(offerDifference(offer, list.offers.at(p.offerIndex)), QString());
    }
    // The time order of the frontier command.
    QList<qsizetype> a, b;
    for (qsizetype i = 0; i < list.points.size(); ++i)
        a.append(i);
    b = a;
    sortByTime(list.points, a);
    sortByTime(compact.points(), b);
    QCOMPARE(b, a);
    // Why nothing is recommended, from compact points as from the list.
    const NoRecommendation fromList = explainNoRecommendation(list.offers, list.points, list.options);
    const NoRecommendation fromTable = compact.whyNoRecommendation();
    QCOMPARE(fromTable.facts, fromList.facts);
    QCOMPARE(fromTable.suspectExcluded, fromList.suspectExcluded);
    QCOMPARE(fromTable.staleProviders, fromList.staleProviders);
}

} // namespace

class TestTableProjection final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void tableKeepsEveryField()
    {
        // Past the shared texts of a column (16384 distinct), the unique instance ids are packed.
        const QList<Offer> offers = variedCatalog(20000, 1);
        const OfferTable table = tableOf(offers);
        QCOMPARE(table.size(), offers.size());
        for (qsizetype i = 0; i < offers.size(); ++i) {
            QCOMPARE(offerDifference(table.at(i), offers.at(i)), QString());
            QCOMPARE(offerDifference(table.view(i), offers.at(i)), QString());
        }
        QCOMPARE(table.toList().size(), offers.size());
    }

    void viewTextsDetachWhenChanged()
    {
        // A view's texts point into the table: copied and changed, they detach like any QString.
        const QList<Offer> offers = variedCatalog(17000, 5);
        const OfferTable table = tableOf(offers);
        Offer v = table.view(16999); // a packed instance id
        QString copy = v.instanceType;
        copy.append(u'x');
        QCOMPARE(copy, offers.at(16999).instanceType + u'x');
        QCOMPARE(table.view(16999).instanceType, offers.at(16999).instanceType);
        v.provider[0] = u'X';
        QCOMPARE(table.view(16999).provider, offers.at(16999).provider);
        // utf16() gives a terminated text, also of a packed (unterminated) one.
        const QString packed = table.view(16999).instanceType;
        QCOMPARE(QString::fromUtf16(reinterpret_cast<const char16_t *>(packed.utf16())),
                 offers.at(16999).instanceType);
    }

    void tableKeepsNullAndEmptyTexts()
    {
        OfferTable table;
        Offer a = makeOffer(u"aws"_s, QString(), u"t4"_s, 1, 1.0);
        a.zone = QStringLiteral("");
        Offer b = a;
        b.instanceType = QStringLiteral("");
        b.zone = QString();
        table.append(a);
        table.append(b);
        for (const bool view : {false, true}) {
            auto row = [&](qsizetype i) { return view ? table.view(i) : table.at(i); };
            QVERIFY(row(0).instanceType.isNull());
            QVERIFY(!row(0).zone.isNull());
            QVERIFY(row(0).zone.isEmpty());
            QVERIFY(!row(1).instanceType.isNull());
            QVERIFY(row(1).instanceType.isEmpty());
            QVERIFY(row(1).zone.isNull());
        }
        // Packed texts: an empty one after the shared ones stays empty, not null.
        OfferTable many;
        for (int i = 0; i < 16500; ++i) {
            Offer o = a;
            o.instanceType = i == 16400 ? QStringLiteral("") : QString::number(i);
            many.append(o);
        }
        for (const bool view : {false, true}) {
            auto row = [&](qsizetype i) { return view ? many.view(i) : many.at(i); };
            QCOMPARE(row(16399).instanceType, u"16399"_s);
            QVERIFY(!row(16400).instanceType.isNull());
            QVERIFY(row(16400).instanceType.isEmpty());
            QCOMPARE(row(16499).instanceType, u"16499"_s);
        }
    }

    void priceSanityAsOverTheList()
    {
        QList<Offer> list = variedCatalog(5000, 2);
        OfferTable table = tableOf(list);
        PriceSanityRules rules;
        rules.today = QDate(2026, 11, 27);
        const qsizetype suspectList = applyPriceSanity(list, rules);
        const qsizetype suspectTable = applyPriceSanity(table, rules);
        QVERIFY(suspectList > 0);
        QCOMPARE(suspectTable, suspectList);
        int outliers = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            QCOMPARE(offerDifference(table.at(i), list.at(i)), QString());
            outliers += hasFlag(list.at(i).flags, OfferFlag::PriceOutlierLow) ? 1 : 0;
        }
        QVERIFY(outliers > 0);
    }

    void priceSanityGroupsByTextAsTheList()
    {
        // The table finds an offer's median group by the text ids of its provider, GPU id and GPU name:
        // names that differ but normalise alike share a group, as over the list; GPU names past the
        // shared texts of their column (packed, one id per row) still land in their group; the
        // on-demand restrictions (AWS p5e., GCP a3-highgpu-1g) and AWS's spot floor apply as over the list.
        QList<Offer> list;
        QRandomGenerator rng(9);
        const QStringList rawNames{u"Mystery GPU"_s, u"mystery-gpu"_s, u"MYSTERY_GPU"_s, u" Mystery  Gpu "_s};
        for (int i = 0; i < 18000; ++i) {
            const int kind = rng.bounded(6);
            const QString provider = QStringList{u"aws"_s, u"gcp"_s, u"vastai"_s}.at(rng.bounded(3));
            const double price = 0.5 + 4 * rng.generateDouble();
            const std::optional<double> spot =
                rng.bounded(3) == 0 ? std::optional<double>(price * (rng.bounded(2) ? 0.1 : 0.5))
                                    : std::nullopt;
            Offer o =
                makeOffer(provider, provider + u"-"_s + QString::number(i), kind < 2 ? QString() : u"t4"_s, 1,
                          rng.bounded(30) == 0 ? price / 20 : price, spot);
            o.id = i + 1;
            if (kind == 0)
                o.gpuRawName = rawNames.at(rng.bounded(int(rawNames.size())));
            else if (kind == 1)
                o.gpuRawName =
                    u"Unique GPU "_s + QString::number(i % 9000); // > 16384 distinct with "t4" rows
            else
                o.gpuRawName = u"T4 "_s + QString::number(i); // unique raw names of a recognised GPU
            if (kind == 5)
                o.instanceType = provider == u"aws" ? u"p5e.48xlarge"_s : u"a3-highgpu-1g"_s;
            list.append(o);
        }
        OfferTable table = tableOf(list);
        PriceSanityRules rules;
        rules.today = QDate(2026, 11, 27);
        QCOMPARE(applyPriceSanity(table, rules), applyPriceSanity(list, rules));
        int outliers = 0, noOnDemand = 0, floor = 0;
        for (qsizetype i = 0; i < list.size(); ++i) {
            QCOMPARE(offerDifference(table.at(i), list.at(i)), QString());
            outliers += hasFlag(list.at(i).flags, OfferFlag::PriceOutlierLow) ? 1 : 0;
            noOnDemand += hasFlag(list.at(i).flags, OfferFlag::NoOnDemand) ? 1 : 0;
            floor += hasFlag(list.at(i).flags, OfferFlag::SpotAtFloor) ? 1 : 0;
        }
        QVERIFY(outliers > 0);
        QVERIFY(noOnDemand > 0);
        QVERIFY(floor > 0);
        // The normalised names share one group and its median.
        QCOMPARE(robustMedians(list).count(u"cloud\x1fraw:mystery gpu"_s), 1);
    }

    void compactTimeSortIsStable()
    {
        // sortByTime over compact points keeps a stable sort's order: ties (same time and cost) and
        // unprojected points in their place in `order`, whatever that order is.
        QList<CompactPoint> points;
        QList<ProjectedOffer> full;
        QRandomGenerator rng(4);
        for (int i = 0; i < 5000; ++i) {
            CompactPoint c;
            c.projected = rng.bounded(8) != 0;
            c.totalHours = c.projected ? double(rng.bounded(40)) : 0;
            c.costUsd = c.projected ? double(rng.bounded(5)) : 0;
            c.offerIndex = i;
            points.append(c);
            ProjectedOffer p;
            p.projected = c.projected;
            p.totalHours = c.totalHours;
            p.costUsd = c.costUsd;
            full.append(p);
        }
        QList<qsizetype> order;
        for (qsizetype i = 0; i < points.size(); ++i)
            if (i % 5 != 0)
                order.append(i);
        for (qsizetype i = 0; i + 1 < order.size(); i += 3) // not ascending
            std::swap(order[i], order[i + 1]);
        QList<qsizetype> expected = order;
        std::stable_sort(expected.begin(), expected.end(),
                         [&](qsizetype a, qsizetype b) { return fasterThan(full.at(a), full.at(b)); });
        sortByTime(points, order);
        QCOMPARE(order, expected);
    }

    void sortAsOverTheList()
    {
        QList<Offer> list = variedCatalog(3000, 3);
        applyPriceSanity(list);
        const OfferTable table = tableOf(list);
        const QStringList keys = offerSortKeyNames();
        for (const QString &name : keys) {
            for (bool desc : {false, true}) {
                for (bool spot : {false, true}) {
                    QList<qsizetype> a, b;
                    for (qsizetype i = 0; i < list.size(); i += (i % 7 == 0 ? 2 : 1))
                        a.append(i);
                    b = a;
                    sortOffers(list, a, *offerSortKeyFromName(name), desc, spot);
                    sortOffers(table, b, *offerSortKeyFromName(name), desc, spot);
                    QVERIFY2(a == b, qPrintable(name));
                }
            }
        }
    }

    void projectionAsProjectCatalog_data()
    {
        QTest::addColumn<int>("variant");
        for (int v = 0; v < 9; ++v)
            QTest::addRow("variant %d", v) << v;
    }

    void projectionAsProjectCatalog()
    {
        QFETCH(int, variant);
        QList<Offer> catalog = variedCatalog(4000, 10 + quint32(variant));
        PriceSanityRules rules;
        rules.today = QDate(2026, 11, 27);
        applyPriceSanity(catalog, rules);
        ProjectionRequest r = baseRequest();
        r.options.parallel = variant % 2 == 0;
        switch (variant) {
        case 0:
            break;
        case 1:
            r.options.spotPolicy = SpotPolicy::SpotOnly;
            r.filter.providers = {u"aws"_s, u"vastai"_s};
            break;
        case 2:
            r.options.spotPolicy = SpotPolicy::OnDemandOnly;
            r.options.nodeCounts = {1, 2, 4, 8};
            r.filter.gpu = u"a100"_s;
            break;
        case 3:
            r.options.nodeCounts = {1, 8, 2};
            r.options.includeSuspect = true;
            r.options.weight = 0.9;
            break;
        case 4: // limits nothing meets: no recommendation, and why
            r.options.deadlineHours = 0.01;
            r.options.budgetUsd = 0.01;
            break;
        case 5:
            r.filter.spotOnly = true;
            r.filter.maxPriceUsdH = 3;
            r.options.deadlineHours = 30;
            r.options.weight = 0.1;
            break;
        case 6: // only stale Azure prices: every point suspect
            r.filter.providers = {u"azure"_s};
            break;
        case 7: // a workload that fits no GPU's memory
            r.workload.memoryGb = 500;
            break;
        case 8:
            r.filter.text = u"no such offer"_s;
            break;
        }
        compareProjections(catalog, r);
        // The variants that recommend nothing say why (limits, suspect prices, memory, no offers).
        const bool none = variant == 4 || variant == 6 || variant == 7 || variant == 8;
        QCOMPARE(projectCatalog(catalog, r).recommended < 0, none);
    }

    void projectionOverSeveralChunks()
    {
        // 70,000 offers: two chunks of 65,536 rows, projected in parallel.
        QList<Offer> catalog = variedCatalog(70000, 42);
        applyPriceSanity(catalog);
        ProjectionRequest r = baseRequest();
        r.options.nodeCounts = {1, 2};
        compareProjections(catalog, r);
    }
};

QTEST_GUILESS_MAIN(TestTableProjection)
#include "test_tableprojection.moc"

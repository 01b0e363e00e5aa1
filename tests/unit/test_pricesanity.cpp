// The price-sanity rules (domain/pricesanity.h), data-driven, and their counts on the
// bundled snapshot (resources/catalog/SOURCES.md "Price sanity report").
#include "domain/gpucatalog.h"
#include "domain/pricesanity.h"
#include "domain/snapshotdata.h"
#include "providers/snapshotfile.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"

#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Offer make(const QString &provider, const QString &gpuId, double count, std::optional<double> od,
           std::optional<double> spot = {})
{
    Offer o;
    o.provider = provider;
    o.instanceType = u"t"_s;
    o.region = u"r"_s;
    o.gpuId = gpuId;
    o.gpuRawName = gpuId;
    o.gpuCount = count;
    o.onDemandUsdH = od;
    o.spotUsdH = spot;
    o.dataDate = QDate(2025, 8, 1);
    return o;
}

} // namespace

class TestPriceSanity final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void spotRules_data()
    {
        QTest::addColumn<double>("od");
        QTest::addColumn<double>("spot");
        QTest::addColumn<bool>("above");
        QTest::addColumn<bool>("floor");
        QTest::newRow("normal") << 10.0 << 3.0 << false << false;
        QTest::newRow("equal") << 10.0 << 10.0 << true << false;
        QTest::newRow("above") << 10.0 << 10.5 << true << false;
        QTest::newRow("floor exactly") << 10.0 << 1.0 << false << true;
        QTest::newRow("floor rounded (AWS 4 decimals)") << 7.93854 << 0.7939 << false << true;
        QTest::newRow("floor 0.1696/1.69632") << 1.69632 << 0.1696 << false << true;
        QTest::newRow("just above the tolerance") << 10.0 << 1.006 << false << false;
        QTest::newRow("11 % (Azure's cap)") << 10.0 << 1.1 << false << false;
    }
    void spotRules()
    {
        QFETCH(double, od);
        QFETCH(double, spot);
        QFETCH(bool, above);
        QFETCH(bool, floor);
        const int f = spotSanityFlags(make(u"aws"_s, u"a10g"_s, 1, od, spot));
        QCOMPARE(hasFlag(f, OfferFlag::SpotAboveOnDemand), above);
        QCOMPARE(hasFlag(f, OfferFlag::SpotAtFloor), floor);
        QCOMPARE(spotSanityFlags(make(u"aws"_s, u"a10g"_s, 1, od)), 0); // no spot, no spot flag
        // The floor is AWS's: another provider's spot at the same ratio is not "at the floor" (Azure's
        // discount cap, GCP's fixed spot prices, vast.ai's bids); spot above on-demand is a flag everywhere.
        for (const QString &other : {u"azure"_s, u"gcp"_s, u"vastai"_s, u"paperspace"_s}) {
            const int g = spotSanityFlags(make(other, u"a10g"_s, 1, od, spot));
            QVERIFY(!hasFlag(g, OfferFlag::SpotAtFloor));
            QCOMPARE(hasFlag(g, OfferFlag::SpotAboveOnDemand), above);
        }
    }

    // Each provider is judged by the age of its own prices (a year), never against another provider's: the
    // bundled Azure file (2024-07-01) is stale on 2026-11-26 because it is 28 months old, alone or next
    // to newer prices; a 2026-06 price is not, whatever the others.
    void ownPriceAge()
    {
        PriceSanityRules rules;
        rules.today = QDate(2026, 11, 26);
        QList<Offer> offers{make(u"aws"_s, u"a10g"_s, 1, 1.0, 0.4), make(u"azure"_s, u"a10"_s, 1, 3.2, 0.4),
                            make(u"gcp"_s, u"l4"_s, 1, 0.8, 0.3), make(u"vastai"_s, u"rtx4090"_s, 1, 0.4)};
        offers[0].dataDate = QDate(2026, 6, 3);
        offers[1].dataDate = QDate(2024, 7, 1);
        offers[2].dataDate = QDate(2025, 11, 26); // exactly 365 days: not yet
        offers[3].dataDate = QDate(2026, 6, 3);
        offers[3].priceDate = QDate(2025, 11, 25); // the row's own date counts: 366 days
        applyPriceSanity(offers, rules);
        QCOMPARE(hasFlag(offers.at(0).flags, OfferFlag::Stale), false);
        QCOMPARE(hasFlag(offers.at(1).flags, OfferFlag::Stale), true);
        QCOMPARE(hasFlag(offers.at(2).flags, OfferFlag::Stale), false);
        QCOMPARE(hasFlag(offers.at(3).flags, OfferFlag::Stale), true);
        const QString why = offerFlagDescription(offers.at(1), OfferFlag::Stale, rules);
        QVERIFY2(why.contains(u"Azure prices from 2024-07, 28 months old"_s), qPrintable(why));
        QVERIFY2(why.contains(u"refresh Azure"_s), qPrintable(why));
        QCOMPARE(priceAgeText(offers.at(0), rules), QString());
        // Alone it is just as old: no other provider decides it.
        QList<Offer> alone{offers.at(1)};
        applyPriceSanity(alone, rules);
        QCOMPARE(hasFlag(alone.at(0).flags, OfferFlag::Stale), true);
        // And a 2026-06 AWS price next to nothing newer is fresh; the old rule made the newest provider the
        // yardstick for the others, this one does not look at the others at all.
        QList<Offer> fresh{offers.at(0)};
        applyPriceSanity(fresh, rules);
        QCOMPARE(hasFlag(fresh.at(0).flags, OfferFlag::Stale), false);
        QCOMPARE(monthsBetween(QDate(2024, 7, 1), QDate(2026, 11, 26)), 28);
        QCOMPARE(monthsBetween(QDate(2024, 7, 27), QDate(2026, 11, 26)), 27);
    }

    // Median of each provider's median, per price class; strictly below M/3 or above 3M.
    void outliers()
    {
        QList<Offer> offers;
        // cloud h100: aws medians 8 (7, 8, 9 per GPU), gcp 10, azure 6 -> M = 8.
        for (double x : {7.0, 8.0, 9.0})
            offers.append(make(u"aws"_s, u"h100-80gb-sxm"_s, 8, 8 * x));
        offers.append(make(u"gcp"_s, u"h100-80gb-sxm"_s, 1, 10));
        offers.append(make(u"azure"_s, u"h100-80gb-sxm"_s, 2, 12));
        offers.append(make(u"paperspace"_s, u"h100-80gb-sxm"_s, 1, 2.6));  // 2.6 < 8/3 = 2.667: low
        offers.append(make(u"paperspace"_s, u"h100-80gb-sxm"_s, 1, 24.1)); // > 24: high
        // marketplace h100: its own median (2), not the cloud's: 1.9 is not an outlier.
        offers.append(make(u"vastai"_s, u"h100-80gb-sxm"_s, 1, 1.9));
        offers.append(make(u"vastai"_s, u"h100-80gb-sxm"_s, 1, 2.1));
        // unrecognised names are grouped by their normalised name.
        Offer mystery = make(u"aws"_s, QString(), 1, 1.0);
        mystery.gpuRawName = u"Mystery-GPU"_s;
        offers.append(mystery);
        const QHash<QString, double> m = robustMedians(offers);
        // paperspace's median = (2.6 + 24.1) / 2 = 13.35; providers 6, 8, 10, 13.35 -> (8 + 10) / 2 = 9.
        QCOMPARE(m.value(u"cloud\x1fh100-80gb-sxm"_s), 9.0);
        QCOMPARE(m.value(u"marketplace\x1fh100-80gb-sxm"_s), 2.0);
        QCOMPARE(m.value(u"cloud\x1fraw:mystery gpu"_s), 1.0);
        applyPriceSanity(offers);
        QVERIFY(hasFlag(offers.at(5).flags, OfferFlag::PriceOutlierLow)); // 2.6 < 3
        QVERIFY(hasFlag(offers.at(6).flags, OfferFlag::PriceOutlierLow) == false);
        QVERIFY(!hasFlag(offers.at(6).flags, OfferFlag::PriceOutlierHigh)); // 24.1 < 27
        QCOMPARE(offers.at(5).medianUsdPerGpuH, 9.0);
        for (qsizetype i = 7; i < offers.size(); ++i)
            QCOMPARE(offers.at(i).flags & (static_cast<int>(OfferFlag::PriceOutlierLow) |
                                           static_cast<int>(OfferFlag::PriceOutlierHigh)),
                     0);
        offers.append(make(u"paperspace"_s, u"h100-80gb-sxm"_s, 1, 30)); // now paperspace median 24.1
        applyPriceSanity(offers);
        QVERIFY(hasFlag(offers.last().flags, OfferFlag::PriceOutlierHigh) ==
                (30 > 3 * offers.last().medianUsdPerGpuH));
        QVERIFY(!offerFlagDescription(offers.at(5), OfferFlag::PriceOutlierLow).isEmpty());
        QVERIFY(
            offerFlagDescription(offers.at(5), OfferFlag::PriceOutlierLow).contains(u"USD per GPU-hour"_s));
    }

    // Stale row: a listing that ended before its snapshot's date.
    void stale()
    {
        Offer o = make(u"vastai"_s, u"rtx4090"_s, 1, 0.3);
        o.dataDate = QDate(2025, 7, 1);
        QVERIFY(!isStaleRow(o));
        o.listingEnd = QDate(2025, 6, 30);
        QVERIFY(isStaleRow(o));
        o.listingEnd = QDate(2025, 7, 1);
        QVERIFY(!isStaleRow(o));
        PriceSanityRules rules;
        rules.today = QDate(2025, 7, 2);
        QVERIFY(!isPriceTooOld(o, rules));
        rules.today = QDate(2026, 7, 2);
        QVERIFY(isPriceTooOld(o, rules));
    }

    void names()
    {
        const int all = static_cast<int>(OfferFlag::SpotAtFloor) | static_cast<int>(OfferFlag::Stale) |
                        static_cast<int>(OfferFlag::UnrecognisedGpu);
        QCOMPARE(offerFlagNames(all), (QStringList{u"unrecognised_gpu"_s, u"spot_at_floor"_s, u"stale"_s}));
        for (OfferFlag f : allOfferFlags())
            QVERIFY(!offerFlagName(f).isEmpty());
    }

    void catalogCsvSkipsUnrentable()
    {
        const QString header = snapshotCsvColumns().join(u',') + u",rentable\n"_s;
        const QString row = u"vastai,%1,FR,,RTX 4090,1,24,,,,,0.30,,,,,1,0,capture,,,%2,%3,%4\n"_s;
        const QString csv = u"# provider: vastai\n# snapshot_date: 2025-07-01\n"_s + header +
                            row.arg(u"1"_s, u"2025-01-02"_s, u"2025-12-31"_s, u"true"_s) +
                            row.arg(u"2"_s, QString(), QString(), u"false"_s) +
                            row.arg(u"3"_s, QString(), QString(), QString());
        auto d = parseSnapshotCsv(csv, u"test.csv"_s);
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().text()));
        QCOMPARE(d.value().offers.size(), 2); // the row marked not rentable is not imported
        QVERIFY(d.value().warnings.join(u' ').contains(u"not rentable"_s));
        QCOMPARE(d.value().offers.at(0).priceDate, QDate(2025, 1, 2));
        QCOMPARE(d.value().offers.at(0).listingEnd, QDate(2025, 12, 31));
        QVERIFY(!d.value().offers.at(1).priceDate.isValid());
        const QString written = writeSnapshotCsv(d.value().offers);
        QVERIFY(written.contains(u"2025-01-02,2025-12-31"_s));
        auto bad = parseSnapshotCsv(QString(csv).replace(u"2025-01-02"_s, u"yesterday"_s), u"x"_s);
        QVERIFY(!bad.ok());
        // Through validation, a listing that ended before its snapshot's date (2025-07-01) makes the row
        // stale; the price ages are judged on loading (applyPriceSanity), by each row's own price date.
        SnapshotData v = d.value();
        v.offers[1].listingEnd = QDate(2025, 6, 30);
        QVERIFY(validateSnapshot(v, GpuCatalog::builtin(), u"test.csv"_s).ok());
        QVERIFY(!hasFlag(v.offers.at(0).flags, OfferFlag::Stale));
        QVERIFY(hasFlag(v.offers.at(1).flags, OfferFlag::Stale));
        PriceSanityRules rules;
        rules.today = QDate(2026, 1, 2); // 365 days after the first row's own price date: not yet
        applyPriceSanity(v.offers, rules);
        QVERIFY(!hasFlag(v.offers.at(0).flags, OfferFlag::Stale));
        rules.today = QDate(2026, 1, 3);
        applyPriceSanity(v.offers, rules);
        QVERIFY(hasFlag(v.offers.at(0).flags, OfferFlag::Stale));
    }

    // The bundled snapshot through the real import: the counts of SOURCES.md ("This snapshot").
    void bundledSnapshotCounts()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        QList<Offer> offers = store->currentOffers().value();
        PriceSanityRules rules; // judged on the day SOURCES.md's report was made (--judge-date 2026-11-26)
        rules.today = QDate(2026, 11, 26);
        applyPriceSanity(offers, rules);
        QHash<QString, QHash<int, int>> count; // provider -> flag -> offers
        QHash<QString, int> rows;
        for (const Offer &o : offers) {
            ++rows[o.provider];
            for (OfferFlag f : allOfferFlags())
                if (hasFlag(o.flags, f))
                    ++count[o.provider][static_cast<int>(f)];
        }
        auto n = [&](const char *p, OfferFlag f) {
            return count.value(QLatin1String(p)).value(static_cast<int>(f));
        };
        QCOMPARE(rows.value(u"aws"_s), 1883);
        QCOMPARE(rows.value(u"gcp"_s), 534);
        QCOMPARE(rows.value(u"vastai"_s), 65);
        QCOMPARE(rows.size(), 14); // every provider of the table has bundled rows
        QCOMPARE(n("aws", OfferFlag::SpotAboveOnDemand), 67);
        QCOMPARE(n("aws", OfferFlag::SpotAtFloor), 55);
        QCOMPARE(n("aws", OfferFlag::PriceOutlierLow), 0);
        QCOMPARE(n("gcp", OfferFlag::GpuBelowSpot), 0);
        for (const char *p : {"gcp", "azure", "paperspace", "vastai", "lambda", "runpod", "nebius"}) {
            QCOMPARE(n(p, OfferFlag::SpotAtFloor), 0);
            QCOMPARE(n(p, OfferFlag::PriceOutlierLow), 0);
        }
        // Each provider is judged by the age of its own prices on 2026-11-26: Azure and Paperspace
        // (2024-07-01), the 2025 rows inside the AWS and GCP files, and the files dated only by content
        // (2025-09/10) or not at all are more than a year old; the 2026-06-03 files are not.
        QCOMPARE(n("azure", OfferFlag::Stale), 172);
        QCOMPARE(n("paperspace", OfferFlag::Stale), 14);
        QCOMPARE(n("aws", OfferFlag::Stale), 892);
        QCOMPARE(n("gcp", OfferFlag::Stale), 12);
        QCOMPARE(n("vastai", OfferFlag::Stale), 65);
        for (const char *p : {"lambda", "fluidstack", "seeweb"})
            QCOMPARE(n(p, OfferFlag::Stale), 0);
        for (const char *p : {"runpod", "nebius", "verda", "hyperbolic", "oci", "cudo"})
            QCOMPARE(n(p, OfferFlag::Stale), rows.value(QLatin1String(p)));
        // The unrentable vast.ai RTX 5090 offers are not in the bundle.
        for (const Offer &o : offers)
            QVERIFY(!(o.provider == u"vastai" && o.onDemandUsdH && *o.onDemandUsdH < 0.13 &&
                      o.gpuRawName.contains(u"5090"_s)));
    }
};

QTEST_GUILESS_MAIN(TestPriceSanity)
#include "test_pricesanity.moc"

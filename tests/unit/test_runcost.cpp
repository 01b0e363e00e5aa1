#include "projection/runcost.h"
#include "projection/spotdefaults.h"

#include <QRandomGenerator>
#include <QTest>

#include <cmath>
#include <limits>

using namespace gf;
using namespace Qt::StringLiterals;

namespace {
bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::max({1.0, std::abs(a), std::abs(b)});
}
#define QNEAR(a, b)                                                                                          \
    QVERIFY2(near((a), (b)),                                                                                 \
             qPrintable(QStringLiteral("%1 != %2").arg(double(a), 0, 'g', 12).arg(double(b), 0, 'g', 12)))

bool allFinite(const RunCost &c)
{
    for (double v : {c.trainHours, c.setupHours, c.expectedInterruptions, c.interruptionHours, c.totalHours,
                     c.billedHours, c.costUsd, c.usdPerHourTotal, c.samplesPerUsd})
        if (!std::isfinite(v))
            return false;
    return true;
}
} // namespace

class TestRunCost final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void billing_data()
    {
        QTest::addColumn<double>("seconds");
        QTest::addColumn<int>("increment");
        QTest::addColumn<int>("minimum");
        QTest::addColumn<double>("billed");
        QTest::newRow("per second, above minimum") << 3600.0 << 1 << 60 << 3600.0;
        QTest::newRow("minimum applies") << 30.0 << 1 << 60 << 60.0;
        QTest::newRow("rounded up to the minute") << 61.0 << 60 << 60 << 120.0;
        QTest::newRow("fraction of a second") << 10.5 << 1 << 0 << 11.0;
        QTest::newRow("hourly billing") << 3630.0 << 3600 << 3600 << 7200.0;
        QTest::newRow("float noise absorbed") << 3600.0000000001 << 60 << 60 << 3600.0;
        QTest::newRow("zero use, no minimum") << 0.0 << 1 << 0 << 0.0;
        QTest::newRow("zero use, minimum") << 0.0 << 1 << 60 << 60.0;
        QTest::newRow("increment 0 counts as 1") << 10.2 << 0 << 0 << 11.0;
        QTest::newRow("negative minimum counts as 0") << 5.0 << 1 << -5 << 5.0;
        QTest::newRow("negative seconds") << -5.0 << 1 << 60 << 60.0;
        QTest::newRow("nan seconds") << std::numeric_limits<double>::quiet_NaN() << 1 << 60 << 60.0;
    }
    void billing()
    {
        QFETCH(double, seconds);
        QFETCH(int, increment);
        QFETCH(int, minimum);
        QFETCH(double, billed);
        QCOMPARE(billedSeconds(seconds, increment, minimum), billed);
    }

    void buckets()
    {
        QCOMPARE(awsBucketFromLabel(u"<5%"), AwsBucket::Below5);
        QCOMPARE(awsBucketFromLabel(u">20%"), AwsBucket::Above20);
        QCOMPARE(awsBucketFromLabel(u"often"), AwsBucket::Unknown);
        const SpotDefaults &d = SpotDefaults::builtin();
        QNEAR(d.awsBucket(u"<5%")->ratePerHour, 0.0021);
        QNEAR(d.awsBucket(u">20%")->ratePerHour, 0.0208);
        QCOMPARE(d.awsBucket(u"")->bucket, u"unknown"_s);
        QCOMPARE(d.awsBucket(u"garbage")->bucket, u"unknown"_s);
    }

    // resources/SPOT.md "The rule": base row (provider, capacity, class, GPU count) + per-offer term.
    void spotRates_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("cls");
        QTest::addColumn<double>("gpus");
        QTest::addColumn<QString>("bucket");
        QTest::addColumn<double>("reliability"); // < 0 = none
        QTest::addColumn<double>("perHour");
        QTest::addColumn<bool>("assumed");
        QTest::addColumn<double>("maxRuntime"); // 0 = none
        QTest::newRow("aws p4d <5%") << u"aws"_s << u"spot"_s << u"flagship"_s << 8.0 << u"<5%"_s << -1.0
                                     << 0.0621 << false << 0.0;
        QTest::newRow("aws p4d >20%")
            << u"aws"_s << u"spot"_s << u"flagship"_s << 8.0 << u">20%"_s << -1.0 << 0.0808 << false << 0.0;
        QTest::newRow("aws p5.4xlarge")
            << u"aws"_s << u"spot"_s << u"flagship"_s << 1.0 << u"5-10%"_s << -1.0 << 0.0363 << false << 0.0;
        QTest::newRow("aws g5 <5%") << u"aws"_s << u"spot"_s << u"standard"_s << 1.0 << u"<5%"_s << -1.0
                                    << 0.0171 << false << 0.0;
        QTest::newRow("aws no bucket")
            << u"aws"_s << u"spot"_s << u"standard"_s << 1.0 << QString() << -1.0 << 0.0358 << true << 0.0;
        QTest::newRow("gcp a2-highgpu-8g")
            << u"gcp"_s << u"spot"_s << u"flagship"_s << 8.0 << QString() << -1.0 << 0.06 << true << 0.0;
        QTest::newRow("gcp preemptible") << u"gcp"_s << u"preemptible"_s << u"standard"_s << 1.0 << QString()
                                         << -1.0 << 0.015 << true << 24.0;
        QTest::newRow("azure flagship 8")
            << u"azure"_s << u"spot"_s << u"flagship"_s << 8.0 << QString() << -1.0 << 0.06 << true << 0.0;
        QTest::newRow("azure standard")
            << u"azure"_s << u"spot"_s << u"standard"_s << 1.0 << QString() << -1.0 << 0.015 << true << 0.0;
        QTest::newRow("vast 0.9964") << u"vastai"_s << u"interruptible"_s << u"standard"_s << 1.0 << QString()
                                     << 0.9964 << 0.0236 << false << 0.0;
        QTest::newRow("vast unknown -> 0.98") << u"vastai"_s << u"interruptible"_s << u"flagship"_s << 8.0
                                              << QString() << -1.0 << 0.04 << true << 0.0;
        QTest::newRow("paperspace") << u"paperspace"_s << u"spot"_s << u"flagship"_s << 8.0 << QString()
                                    << -1.0 << 0.015 << true << 0.0;
        QTest::newRow("unknown provider") << u"coreweave"_s << u"spot"_s << u"flagship"_s << 8.0 << QString()
                                          << -1.0 << 0.06 << true << 0.0;
    }
    void spotRates()
    {
        // (Lambda, once the "unknown provider" here, is a provider of the table since the 2026 catalogs: its
        // own row says it sells no spot capacity, 0.015 should a spot price appear.)
        QFETCH(QString, provider);
        QFETCH(QString, label);
        QFETCH(QString, cls);
        QFETCH(double, gpus);
        QFETCH(QString, bucket);
        QFETCH(double, reliability);
        QFETCH(double, perHour);
        QFETCH(bool, assumed);
        QFETCH(double, maxRuntime);
        const std::optional<double> rel = reliability < 0 ? std::nullopt : std::optional<double>(reliability);
        const SpotRate r =
            spotRate(SpotDefaults::builtin(), provider, label, cls, gpus, bucket, rel, std::nullopt);
        QVERIFY2(std::abs(r.perHour - perHour) < 1e-4, qPrintable(QString::number(r.perHour)));
        QCOMPARE(r.assumed, assumed);
        QVERIFY(r.row);
        QCOMPARE(r.maxRuntimeHours.value_or(0.0), maxRuntime);
        // A user override replaces the whole rate and is not an assumption.
        const SpotRate o = spotRate(SpotDefaults::builtin(), provider, label, cls, gpus, bucket, rel, 0.2);
        QCOMPARE(o.perHour, 0.2);
        QVERIFY(o.overridden && !o.assumed);
    }

    // A 24 h run on AWS p4d spot shows a visible overhead (the old model: 3.4e-5/h, 0.0004 h).
    // baseRow picks the provider's rows in one pass (it runs once per spot offer of a projection): the same
    // row as SPOT.md's rule written out key by key over every row, for every provider, label, class and GPU
    // count the table knows and for unknown ones.
    void baseRowFollowsTheRuleKeyByKey()
    {
        const SpotDefaults &d = SpotDefaults::builtin();
        const QList<SpotRateRow> &rows = d.rows();
        auto reference = [&](const QString &provider, const QString &capacity, const QString &cls,
                             double gpus) -> const SpotRateRow * {
            auto pick = [](const QList<const SpotRateRow *> &in, auto key, const QString &value) {
                QList<const SpotRateRow *> exact, star;
                for (const SpotRateRow *r : in) {
                    if (key(*r) == value)
                        exact.append(r);
                    else if (key(*r) == u"*"_s)
                        star.append(r);
                }
                return exact.isEmpty() ? star : exact;
            };
            QList<const SpotRateRow *> left;
            for (const SpotRateRow &r : rows)
                left.append(&r);
            left = pick(
                left, [](const SpotRateRow &r) { return r.provider; }, provider);
            if (!capacity.isEmpty())
                left = pick(
                    left, [](const SpotRateRow &r) { return r.capacity; }, capacity);
            left = pick(
                left, [](const SpotRateRow &r) { return r.capacityClass; }, cls);
            const SpotRateRow *best = nullptr;
            for (const SpotRateRow *r : left)
                if (r->minGpus <= gpus + 1e-9 && (!best || r->minGpus > best->minGpus))
                    best = r;
            return best;
        };
        QStringList providers{u"unknown-cloud"_s}, capacities{QString(), u"odd"_s}, classes{u"other"_s};
        for (const SpotRateRow &r : rows) {
            providers.append(r.provider);
            capacities.append(r.capacity);
            classes.append(r.capacityClass);
        }
        providers.removeDuplicates();
        capacities.removeDuplicates();
        classes.removeDuplicates();
        int checked = 0;
        for (const QString &p : providers)
            for (const QString &c : capacities)
                for (const QString &k : classes)
                    for (const double g : {1.0, 4.0, 8.0, 16.0}) {
                        QCOMPARE(d.baseRow(p, c, k, g), reference(p, c, k, g));
                        ++checked;
                    }
        QVERIFY(checked > 500);
    }

    void p4dSpotDayHasVisibleOverhead()
    {
        const SpotRate rate = spotRate(SpotDefaults::builtin(), u"aws", u"spot", u"flagship", 8, u"<5%",
                                       std::nullopt, std::nullopt);
        RunCostInput in;
        in.totalSamples = 24 * 3600.0;
        in.samplesPerS = 1;
        in.usdPerHour = 10;
        in.setupHours = 10.0 / 60;
        in.interruptionsPerHour = rate.perHour;
        in.checkpointHours = 0.5;
        in.restoreHours = 10.0 / 60;
        const RunCost c = computeRunCost(in);
        QVERIFY(c.timeOk && !c.neverFinishes);
        // Renewal form: wall = 24.1667 / (1 - 0.0621 x 0.41667) = 24.81 h; E = 0.0621 x 24.81 = 1.54.
        QVERIFY2(std::abs(c.expectedInterruptions - 1.54) < 0.01,
                 qPrintable(QString::number(c.expectedInterruptions)));
        QVERIFY2(c.interruptionHours >= 0.5, qPrintable(QString::number(c.interruptionHours)));
        QVERIFY(std::abs(c.interruptionHours - 0.642) < 0.01);
        // Overriding the rate with 0 removes the overhead.
        in.interruptionsPerHour = 0;
        QCOMPARE(computeRunCost(in).interruptionHours, 0.0);
    }

    void cappedRuntime()
    {
        // GCP preemptible: 72 h of work stops at least 3 times (24 h cap), on top of random reclaims.
        RunCostInput in;
        in.totalSamples = 72 * 3600.0;
        in.samplesPerS = 1;
        in.usdPerHour = 1;
        in.interruptionsPerHour = 0.015;
        in.maxRuntimeHours = 24;
        const RunCost c = computeRunCost(in);
        QCOMPARE(c.cappedStops, 3.0);
        QVERIFY(c.expectedInterruptions >= 3.0 + 0.015 * 72);
    }

    void neverFinishes()
    {
        RunCostInput in;
        in.totalSamples = 3600;
        in.samplesPerS = 1;
        in.usdPerHour = 1;
        in.interruptionsPerHour = 2; // x (0.25 + 0.25) h = 1: no progress on average
        in.checkpointHours = 0.5;
        in.restoreHours = 0.25;
        const RunCost c = computeRunCost(in);
        QVERIFY(c.neverFinishes);
        QVERIFY(!c.timeOk && !c.costOk);
    }

    void providerKinds()
    {
        QCOMPARE(providerKind(u"aws"), ProviderKind::Aws);
        QCOMPARE(providerKind(u"gcp"), ProviderKind::Gcp);
        QCOMPARE(providerKind(u"azure"), ProviderKind::Azure);
        QCOMPARE(providerKind(u"paperspace"), ProviderKind::Paperspace);
        QCOMPARE(providerKind(u"vastai"), ProviderKind::Vastai);
        QCOMPARE(providerKind(u"AWS"), ProviderKind::Other);
        // The enum is the provider table's order (arrays are indexed by it), one value per row.
        QCOMPARE(int(providers().size()) + 1, kProviderKindCount);
        for (qsizetype i = 0; i < providers().size(); ++i) {
            QCOMPARE(int(providers().at(i).kind), int(i));
            QCOMPARE(providerKind(providers().at(i).id), providers().at(i).kind);
        }
    }

    void runCost_data()
    {
        QTest::addColumn<double>("samples");
        QTest::addColumn<double>("rate");
        QTest::addColumn<double>("price");
        QTest::addColumn<int>("nodes");
        QTest::addColumn<double>("setupH");
        QTest::addColumn<double>("lambda");
        QTest::addColumn<double>("ckptH");
        QTest::addColumn<double>("restoreH");
        QTest::addColumn<int>("inc");
        QTest::addColumn<int>("min");
        QTest::addColumn<double>("trainH");
        QTest::addColumn<double>("overheadH");
        QTest::addColumn<double>("totalH");
        QTest::addColumn<double>("cost");
        QTest::addColumn<double>("samplesPerUsd");
        // 3.6e6 samples at 1000/s = 3600 s = 1 h; + 0.5 h setup = 1.5 h x 2 USD/h = 3 USD.
        // samples/USD = 1000 x 3600 / 2 = 1.8e6.
        QTest::newRow("on-demand") << 3.6e6 << 1000.0 << 2.0 << 1 << 0.5 << 0.0 << 0.5 << 0.25 << 1 << 60
                                   << 1.0 << 0.0 << 1.5 << 3.0 << 1.8e6;
        // Spot: each interruption costs o = 0.5/2 + 0.25 = 0.5 h; renewal form wall = 1.5 h / (1 - 0.1 x 0.5)
        // = 1.578947 h (overhead 0.078947 h); billed 5685 s (per second, rounded up) x 0.6 USD/h = 0.9475
        // USD. samples/USD = 3.6e6 / 0.6 = 6e6.
        QTest::newRow("spot") << 3.6e6 << 1000.0 << 0.6 << 1 << 0.5 << 0.1 << 0.5 << 0.25 << 1 << 60 << 1.0
                              << 1.5 / 0.95 - 1.5 << 1.5 / 0.95 << 5685.0 / 3600 * 0.6 << 6e6;
        // 4 nodes: job rate 0.4/h; wall = 1 h / (1 - 0.4 x 0.5) = 1.25 h; overhead 0.25 h; 1.25 h x (4 x 0.6)
        // = 3.0 USD. samples/USD = 1000 x 3600 / 2.4 = 1.5e6.
        QTest::newRow("spot 4 nodes") << 3.6e6 << 1000.0 << 0.6 << 4 << 0.0 << 0.1 << 0.5 << 0.25 << 1 << 60
                                      << 1.0 << 0.25 << 1.25 << 3.0 << 1.5e6;
        // Hourly billing: 3.63e6 samples at 1000/s = 3630 s -> 2 billed hours x 3 USD = 6 USD.
        QTest::newRow("hourly billing") << 3.63e6 << 1000.0 << 3.0 << 1 << 0.0 << 0.0 << 0.5 << 0.25 << 3600
                                        << 3600 << 3630.0 / 3600 << 0.0 << 3630.0 / 3600 << 6.0 << 1.2e6;
        // 10 s of work with a 60 s minimum: billed 60 s x 3.6 USD/h = 0.06 USD.
        QTest::newRow("minimum") << 1e4 << 1000.0 << 3.6 << 1 << 0.0 << 0.0 << 0.5 << 0.25 << 1 << 60
                                 << 10.0 / 3600 << 0.0 << 10.0 / 3600 << 0.06 << 1e6;
        // Per-minute billing: 3.61e6 samples / 1000 = 3610 s -> 3660 s billed x 1 USD/h = 1.016667 USD.
        QTest::newRow("per minute") << 3.61e6 << 1000.0 << 1.0 << 1 << 0.0 << 0.0 << 0.5 << 0.25 << 60 << 60
                                    << 3610.0 / 3600 << 0.0 << 3610.0 / 3600 << 3660.0 / 3600 << 3.6e6;
    }
    void runCost()
    {
        QFETCH(double, samples);
        QFETCH(double, rate);
        QFETCH(double, price);
        QFETCH(int, nodes);
        QFETCH(double, setupH);
        QFETCH(double, lambda);
        QFETCH(double, ckptH);
        QFETCH(double, restoreH);
        QFETCH(int, inc);
        QFETCH(int, min);
        QFETCH(double, trainH);
        QFETCH(double, overheadH);
        QFETCH(double, totalH);
        QFETCH(double, cost);
        QFETCH(double, samplesPerUsd);
        RunCostInput in;
        in.totalSamples = samples;
        in.samplesPerS = rate;
        in.usdPerHour = price;
        in.nodes = nodes;
        in.setupHours = setupH;
        in.interruptionsPerHour = lambda;
        in.checkpointHours = ckptH;
        in.restoreHours = restoreH;
        in.billingIncrementS = inc;
        in.billingMinimumS = min;
        const RunCost c = computeRunCost(in);
        QVERIFY(c.timeOk);
        QVERIFY(c.costOk);
        QNEAR(c.trainHours, trainH);
        QNEAR(c.interruptionHours, overheadH);
        QNEAR(c.totalHours, totalH);
        QNEAR(c.costUsd, cost);
        QNEAR(c.samplesPerUsd, samplesPerUsd);
        QVERIFY(allFinite(c));
    }

    void zeroPriceGuarded_data()
    {
        QTest::addColumn<double>("price");
        QTest::newRow("zero") << 0.0;
        QTest::newRow("negative") << -1.0;
        QTest::newRow("nan") << std::numeric_limits<double>::quiet_NaN();
        QTest::newRow("inf") << std::numeric_limits<double>::infinity();
    }
    void zeroPriceGuarded()
    {
        QFETCH(double, price);
        RunCostInput in;
        in.totalSamples = 3.6e6;
        in.samplesPerS = 1000;
        in.usdPerHour = price;
        const RunCost c = computeRunCost(in);
        QVERIFY(c.timeOk);
        QVERIFY(!c.costOk);
        QCOMPARE(c.costUsd, 0.0);
        QCOMPARE(c.samplesPerUsd, 0.0);
        QNEAR(c.trainHours, 1.0);
        QVERIFY(allFinite(c));
    }

    void invalidThroughput()
    {
        for (double rate : {0.0, -5.0, std::numeric_limits<double>::quiet_NaN()}) {
            RunCostInput in;
            in.totalSamples = 1000;
            in.samplesPerS = rate;
            in.usdPerHour = 1;
            const RunCost c = computeRunCost(in);
            QVERIFY(!c.timeOk);
            QVERIFY(!c.costOk);
            QVERIFY(allFinite(c));
        }
        RunCostInput noSamples;
        noSamples.samplesPerS = 10;
        noSamples.usdPerHour = 1;
        QVERIFY(!computeRunCost(noSamples).timeOk);
    }

    // Properties over random inputs (fixed seed): cost never falls when the price, the interruption rate,
    // the checkpoint interval or the work rises; time never falls with the work.
    void monotone()
    {
        QRandomGenerator rng(2024);
        for (int i = 0; i < 5000; ++i) {
            RunCostInput in;
            in.totalSamples = 1 + rng.generateDouble() * 1e8;
            in.samplesPerS = 0.1 + rng.generateDouble() * 1e4;
            in.usdPerHour = 0.01 + rng.generateDouble() * 100;
            in.nodes = 1 + rng.bounded(8);
            in.setupHours = rng.generateDouble();
            in.interruptionsPerHour = rng.generateDouble() * 0.02; // x 8 nodes x (<= 2.5 h) < 1: finishes
            in.checkpointHours = rng.generateDouble();
            in.restoreHours = rng.generateDouble() * 0.5;
            in.billingIncrementS = rng.bounded(2) ? 1 : 60 * (1 + rng.bounded(60));
            in.billingMinimumS = rng.bounded(3600);
            const RunCost base = computeRunCost(in);
            QVERIFY(base.costOk && allFinite(base));
            QVERIFY(base.billedHours * 3600 + 1e-6 * in.billingIncrementS + 1e-6 >= base.totalHours * 3600);

            RunCostInput dearer = in;
            dearer.usdPerHour *= 1.0 + rng.generateDouble();
            QVERIFY(computeRunCost(dearer).costUsd > base.costUsd);

            RunCostInput riskier = in;
            riskier.interruptionsPerHour += rng.generateDouble() * 0.02;
            QVERIFY(computeRunCost(riskier).costUsd >= base.costUsd);
            QVERIFY(computeRunCost(riskier).totalHours >= base.totalHours);

            RunCostInput sparser = in;
            sparser.checkpointHours += rng.generateDouble();
            QVERIFY(computeRunCost(sparser).costUsd >= base.costUsd);

            RunCostInput more = in;
            more.totalSamples *= 1.0 + rng.generateDouble();
            QVERIFY(computeRunCost(more).totalHours > base.totalHours);
            QVERIFY(computeRunCost(more).costUsd >= base.costUsd);
        }
    }
};

QTEST_APPLESS_MAIN(TestRunCost)
#include "test_runcost.moc"

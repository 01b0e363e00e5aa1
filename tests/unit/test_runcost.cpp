#include "projection/runcost.h"

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

    void buckets_data()
    {
        QTest::addColumn<QString>("label");
        QTest::addColumn<double>("monthly");
        QTest::addColumn<bool>("assumed");
        QTest::newRow("<5%") << u"<5%"_s << 0.025 << false;
        QTest::newRow("5-10%") << u"5-10%"_s << 0.075 << false;
        QTest::newRow("10-15%") << u"10-15%"_s << 0.125 << false;
        QTest::newRow("15-20%") << u"15-20%"_s << 0.175 << false;
        QTest::newRow(">20%") << u">20%"_s << 0.25 << false;
        QTest::newRow("empty") << QString() << 0.25 << true;
        QTest::newRow("garbage") << u"often"_s << 0.25 << true;
    }
    void buckets()
    {
        QFETCH(QString, label);
        QFETCH(double, monthly);
        QFETCH(bool, assumed);
        const InterruptionRate r =
            spotInterruptionRate(ProviderKind::Aws, awsBucketFromLabel(label), std::nullopt);
        QNEAR(r.perHour, monthly / 730.0); // e.g. "<5%": 0.025 / 730 = 3.4247e-5 per hour
        QCOMPARE(r.assumed, assumed);
    }

    void providerRates_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<double>("reliability"); // < 0 = none
        QTest::addColumn<double>("perHour");
        QTest::addColumn<bool>("assumed");
        QTest::newRow("gcp 10%/day") << u"gcp"_s << -1.0 << 0.1 / 24 << true;
        QTest::newRow("azure") << u"azure"_s << -1.0 << 0.1 / 24 << true;
        QTest::newRow("paperspace") << u"paperspace"_s << -1.0 << 0.1 / 24 << true;
        QTest::newRow("unknown provider") << u"lambda"_s << -1.0 << 0.1 / 24 << true;
        QTest::newRow("vast 99.5%") << u"vastai"_s << 0.995 << 0.005 << false;
        QTest::newRow("vast 97%") << u"vastai"_s << 0.97 << 0.03 << false;
        QTest::newRow("vast unknown -> 0.98") << u"vastai"_s << -1.0 << 0.02 << true;
        QTest::newRow("vast clamped") << u"vastai"_s << 1.5 << 0.0 << false;
    }
    void providerRates()
    {
        QFETCH(QString, provider);
        QFETCH(double, reliability);
        QFETCH(double, perHour);
        QFETCH(bool, assumed);
        const std::optional<double> rel = reliability < 0 ? std::nullopt : std::optional<double>(reliability);
        const InterruptionRate r = spotInterruptionRate(providerKind(provider), AwsBucket::Unknown, rel);
        QNEAR(r.perHour, perHour);
        QCOMPARE(r.assumed, assumed);
    }

    void providerKinds()
    {
        QCOMPARE(providerKind(u"aws"), ProviderKind::Aws);
        QCOMPARE(providerKind(u"gcp"), ProviderKind::Gcp);
        QCOMPARE(providerKind(u"azure"), ProviderKind::Azure);
        QCOMPARE(providerKind(u"paperspace"), ProviderKind::Paperspace);
        QCOMPARE(providerKind(u"vastai"), ProviderKind::Vastai);
        QCOMPARE(providerKind(u"AWS"), ProviderKind::Other);
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
        // Spot: 0.1 interruptions/h x 1.5 h = 0.15; each costs 0.5/2 + 0.25 = 0.5 h -> 0.075 h overhead;
        // total 1.575 h = 5670 s x 0.6 USD/h = 0.945 USD. samples/USD = 3.6e6 / 0.6 = 6e6.
        QTest::newRow("spot") << 3.6e6 << 1000.0 << 0.6 << 1 << 0.5 << 0.1 << 0.5 << 0.25 << 1 << 60 << 1.0
                              << 0.075 << 1.575 << 0.945 << 6e6;
        // 4 nodes: rate 0.1 x 4 nodes x 1 h = 0.4 interruptions x 0.5 h = 0.2 h; total 1.2 h x (4 x 0.6)
        // = 2.88 USD. samples/USD = 1000 x 3600 / 2.4 = 1.5e6.
        QTest::newRow("spot 4 nodes") << 3.6e6 << 1000.0 << 0.6 << 4 << 0.0 << 0.1 << 0.5 << 0.25 << 1 << 60
                                      << 1.0 << 0.2 << 1.2 << 2.88 << 1.5e6;
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
            in.interruptionsPerHour = rng.generateDouble() * 0.05;
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
            riskier.interruptionsPerHour += rng.generateDouble() * 0.05;
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

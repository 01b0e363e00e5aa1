#include "fixtures.h"
#include "providers/awsspot.h"

#include <QTest>

using namespace gf;
using namespace gf::test;

class TestParseAwsSpot final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realSpotJsFrom2014()
    {
        // Real JSONP capture ending in "})" (no ';'), legacy region names, "N/A*" cells.
        auto r = parseAwsSpotFeed(
            readFixture(QStringLiteral("providers/aws/spot.js.2014-04.iconara-ec2pricing.js")),
            QStringLiteral("spot.js"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().regions, 8);
        QCOMPARE(r.value().prices.size(), 201);
        QCOMPARE(r.value().notAvailable, 31);
        QCOMPARE(r.value().prices.value(
                     AwsSpotPrices::key(QStringLiteral("us-east-1"), QStringLiteral("g2.2xlarge"))),
                 0.0666);
        QCOMPARE(r.value().prices.value(
                     AwsSpotPrices::key(QStringLiteral("eu-west-1"), QStringLiteral("cg1.4xlarge"))),
                 2.36);
        QCOMPARE(r.value().prices.value(
                     AwsSpotPrices::key(QStringLiteral("ap-northeast-1"), QStringLiteral("g2.2xlarge"))),
                 0.174);
        QVERIFY(!r.value().prices.contains(
            AwsSpotPrices::key(QStringLiteral("ap-southeast-1"), QStringLiteral("g2.2xlarge")))); // N/A*
        QVERIFY(!r.value().prices.contains(
            AwsSpotPrices::key(QStringLiteral("us-east"), QStringLiteral("g2.2xlarge"))));
    }

    void jsonpEndings_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::addColumn<QByteArray>("suffix");
        QTest::newRow("plain json") << QByteArray() << QByteArray();
        QTest::newRow("callback()") << QByteArray("callback(") << QByteArray(")");
        QTest::newRow("callback();") << QByteArray("callback(") << QByteArray(");");
        QTest::newRow("spaces and newline") << QByteArray("\n  callback( ") << QByteArray(" ) ;\n");
    }

    void jsonpEndings()
    {
        QFETCH(QByteArray, prefix);
        QFETCH(QByteArray, suffix);
        const QByteArray json = readFixture(QStringLiteral("providers/aws/spot.json"));
        auto r = parseAwsSpotFeed(QByteArray(prefix + json.trimmed() + suffix), QStringLiteral("spot"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().prices.value(
                     AwsSpotPrices::key(QStringLiteral("us-east-1"), QStringLiteral("p3.2xlarge"))),
                 0.4995);
        QCOMPARE(r.value().prices.value(
                     AwsSpotPrices::key(QStringLiteral("us-west-2"), QStringLiteral("g5.48xlarge"))),
                 6.5517);
    }

    void brokenFeeds_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unclosed wrapper")
            << QByteArray("callback({\"config\":{}}") << QStringLiteral("invalid JSON");
        QTest::newRow("no config") << QByteArray("{\"vers\":0.01}") << QStringLiteral("no \"config\" object");
        QTest::newRow("regions not array")
            << QByteArray(R"({"config":{"regions":{}}})") << QStringLiteral("config.regions is not an array");
        QTest::newRow("region not string")
            << QByteArray(R"({"config":{"regions":[{"region":1,"instanceTypes":[]}]}})")
            << QStringLiteral("config.regions[0].region is not a string");
        QTest::newRow("price bool")
            << QByteArray(
                   R"({"config":{"regions":[{"region":"us-east-1","instanceTypes":[{"sizes":[{"size":"p3.2xlarge","valueColumns":[{"name":"linux","prices":{"USD":true}}]}]}]}]}})")
            << QStringLiteral("neither a string nor a number");
        QTest::newRow("all N/A")
            << QByteArray(
                   R"({"config":{"regions":[{"region":"us-east-1","instanceTypes":[{"sizes":[{"size":"p3.2xlarge","valueColumns":[{"name":"linux","prices":{"USD":"N/A*"}}]}]}]}]}})")
            << QStringLiteral("no Linux price");
    }

    void brokenFeeds()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        auto r = parseAwsSpotFeed(doc, QStringLiteral("spot.json"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().startsWith(QStringLiteral("spot.json: ")) &&
                     r.error().text().contains(expected),
                 qPrintable(r.error().text()));
    }

    // provider-sources.md: the live spot.json has instanceTypes entries without "sizes"; one such entry
    // (or a size without a name) is skipped and counted, and the rest of the feed is read.
    void entryWithoutSizesSkipped()
    {
        const QByteArray doc = R"({"config":{"regions":[{"region":"us-east-1","instanceTypes":[
            {"type":"gpuCurrentGen"},
            {"type":"gpuCurrentGen","sizes":[{"valueColumns":[]},
              {"size":"p3.2xlarge","valueColumns":[{"name":"linux","prices":{"USD":"0.9180"}}]}]}]},
          {"region":"us-west-2","instanceTypes":[{"type":"x","sizes":[
              {"size":"g5.xlarge","valueColumns":[{"name":"linux","prices":{"USD":"0.4"}}]}]}]}]}})";
        auto r = parseAwsSpotFeed(doc, QStringLiteral("spot.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().prices.size(), 2);
        QCOMPARE(r.value().malformed, 2);
        QCOMPARE(r.value().warnings.size(), 1);
        QVERIFY2(
            r.value().warnings.first().contains(QStringLiteral("2 malformed spot price entries skipped")) &&
                r.value().warnings.first().contains(QStringLiteral("gpuCurrentGen")),
            qPrintable(r.value().warnings.first()));
    }

    void realAdvisor()
    {
        auto r =
            parseAwsSpotAdvisor(readFixture(QStringLiteral("providers/aws/spot-advisor-data.gpu-only.json")),
                                QStringLiteral("advisor"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const AwsSpotAdvice a = r.value().advice.value(
            AwsSpotPrices::key(QStringLiteral("us-east-1"), QStringLiteral("p3.2xlarge")));
        QCOMPARE(a.bucket, QStringLiteral(">20%"));
        QCOMPARE(a.savingsPct, 80);
        QCOMPARE(
            r.value()
                .advice.value(AwsSpotPrices::key(QStringLiteral("us-east-1"), QStringLiteral("p4d.24xlarge")))
                .bucket,
            QStringLiteral("10-15%"));
        QVERIFY(
            !parseAwsSpotAdvisor(
                 R"({"ranges":[{"index":0,"label":"<5%"}],"spot_advisor":{"us-east-1":{"Linux":{"p3.2xlarge":{"s":80,"r":7}}}}})",
                 QStringLiteral("a"))
                 .ok()); // bucket index outside "ranges"
        QVERIFY(!parseAwsSpotAdvisor(R"({"ranges":"x"})", QStringLiteral("a")).ok());
    }

    void applyJoinsRegionAndType()
    {
        QList<Offer> offers(2);
        offers[0].instanceType = QStringLiteral("p3.2xlarge");
        offers[0].region = QStringLiteral("us-east-1");
        offers[0].onDemandUsdH = 3.06;
        offers[1].instanceType = QStringLiteral("p3.2xlarge");
        offers[1].region = QStringLiteral("eu-north-1");
        offers[1].onDemandUsdH = 3.3;
        auto spot =
            parseAwsSpotFeed(readFixture(QStringLiteral("providers/aws/spot.json")), QStringLiteral("s"));
        auto advisor =
            parseAwsSpotAdvisor(readFixture(QStringLiteral("providers/aws/spot-advisor-data.gpu-only.json")),
                                QStringLiteral("a"));
        QCOMPARE(applyAwsSpot(offers, &spot.value(), &advisor.value()), 1);
        QCOMPARE(*offers[0].spotUsdH, 0.4995);
        QCOMPARE(offers[0].spotLabel, QStringLiteral("spot"));
        QCOMPARE(offers[0].interruption, QStringLiteral(">20%"));
        QVERIFY(!offers[1].spotUsdH);
        QVERIFY(offers[1].interruption.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestParseAwsSpot)
#include "test_parse_awsspot.moc"

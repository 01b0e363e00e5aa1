#include "domain/gpucatalog.h"
#include "domain/offergpu.h"
#include "domain/providertables.h"
#include "fixtures.h"
#include "providers/awsoffers.h"
#include "providers/awsspot.h"
#include "util/csv.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

const Offer *find(const QList<Offer> &offers, const QString &type, const QString &region = {})
{
    for (const Offer &o : offers)
        if (o.instanceType == type && (region.isEmpty() || o.region == region))
            return &o;
    return nullptr;
}

/// The bundled snapshot's on-demand price of a type in a region (the fixtures carry these prices).
double bundledPrice(const QString &type, const QString &region)
{
    QFile file(QStringLiteral(GF_SOURCE_DIR "/resources/catalog/aws.csv"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QStringList lines = QString::fromUtf8(file.readAll()).split(u'\n');
    for (const QString &l : lines) {
        const QStringList f = l.split(u',');
        if (f.size() > 12 && f.at(1) == type && f.at(2) == region)
            return f.at(11).toDouble();
    }
    return -1;
}

} // namespace

class TestParseAws final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realOpencostExcerpt()
    {
        // Real us-east-2 excerpt: m5.large (Linux, not a GPU), p3.8xlarge Windows BYOL, gp3 storage.
        auto r = parseAwsOffers(readFixture(QStringLiteral(
                                    "providers/aws/offer-index.us-east-2.excerpt.opencost-test.fixed.json")),
                                ProviderTables::builtin(), QStringLiteral("us-east-2.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().version, QStringLiteral("20230322145651"));
        QCOMPARE(r.value().publicationDate, QStringLiteral("2023-03-22T14:56:51Z"));
        QCOMPARE(r.value().products, 3);
        QVERIFY(r.value().offers.isEmpty()); // Windows BYOL is never a Linux on-demand price
    }

    void verbatimExcerptIsNotJson()
    {
        // As trimmed upstream, with a trailing comma (in the terms of a SKU the reader skips unparsed): still
        // rejected, with the position and the file name.
        auto r =
            parseAwsOffers(readFixture(QStringLiteral(
                               "providers/aws/offer-index.us-east-2.excerpt.opencost-test.VERBATIM.txt")),
                           ProviderTables::builtin(), QStringLiteral("us-east-2.txt"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().startsWith(QStringLiteral("us-east-2.txt: invalid AWS offer file: line ")),
                 qPrintable(r.error().text()));
        QVERIFY2(r.error().text().contains(QStringLiteral("trailing comma")), qPrintable(r.error().text()));
    }

    void chinaPartition()
    {
        auto r = parseAwsOffers(
            readFixture(QStringLiteral(
                "providers/aws/offer-index.cn-northwest-1.excerpt.opencost-test.VERBATIM.txt")),
            ProviderTables::builtin(), QStringLiteral("cn.json"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().version, QStringLiteral("20230314154740"));
        QVERIFY(r.value().offers.isEmpty());
    }

    void fixtureOfferFile()
    {
        auto r = parseAwsOffers(readFixture(QStringLiteral("providers/aws/us-east-1.json")),
                                ProviderTables::builtin(), QStringLiteral("us-east-1.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const QList<Offer> &offers = r.value().offers;
        QCOMPARE(offers.size(), 10); // one per GPU type; Windows/Dedicated/SQL/Unused/RHEL/m5/storage dropped
        QCOMPARE(r.value().regions, QStringList{QStringLiteral("us-east-1")});
        for (const Offer &o : offers) {
            QCOMPARE(o.provider, QStringLiteral("aws"));
            QVERIFY(o.zone.isEmpty());
            QVERIFY2(qFuzzyCompare(*o.onDemandUsdH, bundledPrice(o.instanceType, o.region)),
                     qPrintable(o.instanceType));
            QVERIFY(!o.spotUsdH);
            QCOMPARE(o.source, QStringLiteral("AWS price list 20250912225308"));
        }
        const Offer *p4d = find(offers, QStringLiteral("p4d.24xlarge"));
        QVERIFY(p4d);
        QCOMPARE(p4d->gpuRawName,
                 QStringLiteral("A100")); // from the project table: the file has no GPU model
        QCOMPARE(p4d->gpuCount, 8.0);
        QCOMPARE(*p4d->gpuMemGb, 40.0);
        QCOMPARE(*p4d->vcpus, 96.0);
        QCOMPARE(*p4d->ramGb, 1152.0);
        QCOMPARE(p4d->interconnect, QStringLiteral("NVSwitch"));
        QCOMPARE(*p4d->onDemandUsdH, 21.957642);
        QCOMPARE(find(offers, QStringLiteral("g5.48xlarge"))->gpuRawName, QStringLiteral("A10G"));
    }

    void streamingInTinyChunksIsTheSame()
    {
        const QByteArray data = readFixture(QStringLiteral("providers/aws/us-east-1.json"));
        auto whole = parseAwsOffers(data, ProviderTables::builtin(), QStringLiteral("a"));
        QVERIFY(whole.ok());
        for (int chunk : {1, 3, 7, 4096}) {
            AwsOfferStream s(ProviderTables::builtin(), QStringLiteral("a"));
            s.begin();
            for (qsizetype i = 0; i < data.size(); i += chunk)
                QVERIFY(s.write(data.constData() + i,
                                static_cast<std::size_t>(std::min<qsizetype>(chunk, data.size() - i))));
            auto r = s.finish();
            QVERIFY(r.ok());
            QCOMPARE(r.value().offers.size(), whole.value().offers.size());
            for (qsizetype i = 0; i < r.value().offers.size(); ++i)
                QCOMPARE(*find(r.value().offers, whole.value().offers.at(i).instanceType)->onDemandUsdH,
                         *whole.value().offers.at(i).onDemandUsdH);
        }
        // A retried download starts the stream over: begin() forgets the partial first attempt.
        AwsOfferStream s(ProviderTables::builtin(), QStringLiteral("a"));
        s.begin();
        QVERIFY(s.write(data.constData(), 5000));
        s.begin();
        QVERIFY(s.write(data.constData(), static_cast<std::size_t>(data.size())));
        QCOMPARE(s.finish().value().offers.size(), 10);
    }

    void termsBeforeProducts()
    {
        // JSON does not fix key order: the same file with "terms" first gives the same offers.
        QJsonObject o =
            QJsonDocument::fromJson(readFixture(QStringLiteral("providers/aws/us-west-2.json"))).object();
        const QByteArray products =
            QJsonDocument(o.value(QStringLiteral("products")).toObject()).toJson(QJsonDocument::Compact);
        const QByteArray terms =
            QJsonDocument(o.value(QStringLiteral("terms")).toObject()).toJson(QJsonDocument::Compact);
        const QByteArray reordered =
            "{\"formatVersion\":\"v1.0\",\"offerCode\":\"AmazonEC2\",\"version\":\"1\",\"terms\":" + terms +
            ",\"products\":" + products + "}";
        auto r = parseAwsOffers(reordered, ProviderTables::builtin(), QStringLiteral("r"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().offers.size(), 6);
        QCOMPARE(*find(r.value().offers, QStringLiteral("p3.2xlarge"))->onDemandUsdH, 3.06);
    }

    void csvFlavour()
    {
        // The real CSV sample: its only GPU row is SUSE/Dedicated/UnusedCapacityReservation, so nothing is
        // kept.
        const QByteArray real = readFixture(
            QStringLiteral("providers/aws/offer-index.csv.global-sample-20250912.ec2-priceit.csv"));
        auto r = parseAwsOffers(real, ProviderTables::builtin(), QStringLiteral("index.csv"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().version, QStringLiteral("20250912225308"));
        QCOMPARE(r.value().products, 44);
        QVERIFY(r.value().offers.isEmpty());
        // The same g5.48xlarge row as Linux/Shared/Used (the attributes the filter keeps) is kept.
        QByteArray row;
        for (const QByteArray &line : real.split('\n'))
            if (line.contains("g5.48xlarge"))
                row = line;
        QVERIFY(!row.isEmpty());
        row.replace("\"SUSE\"", "\"Linux\"")
            .replace("\"Dedicated\"", "\"Shared\"")
            .replace("\"UnusedCapacityReservation\"", "\"Used\"");
        row.replace("\"RunInstances:000g\"", "\"RunInstances\"")
            .replace("\"21.3026400000\"", "\"16.2880000000\"");
        const QList<QByteArray> lines = real.split('\n');
        QByteArray derived;
        for (int i = 0; i < 6; ++i)
            derived += lines.at(i) + '\n';
        derived += row + '\n';
        auto d = parseAwsOffers(derived, ProviderTables::builtin(), QStringLiteral("derived.csv"));
        QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().text()));
        QCOMPARE(d.value().offers.size(), 1);
        const Offer &o = d.value().offers.first();
        QCOMPARE(o.instanceType, QStringLiteral("g5.48xlarge"));
        QCOMPARE(o.region, QStringLiteral("ap-southeast-2"));
        QCOMPARE(*o.onDemandUsdH, 16.288);
        QCOMPARE(o.gpuCount, 8.0);
        QCOMPARE(*o.vcpus, 192.0);
        QCOMPARE(*o.ramGb, 768.0);
        // A truncated CSV (a quoted field cut) is an error naming the file.
        auto t = parseAwsOffers(QByteArray(derived.left(derived.size() - 40) + "\"abc"),
                                ProviderTables::builtin(), QStringLiteral("cut.csv"));
        QVERIFY(!t.ok());
        QVERIFY2(t.error().text().startsWith(QStringLiteral("cut.csv: invalid AWS offer CSV")),
                 qPrintable(t.error().text()));
    }

    void wrongTypes_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("products array") << QByteArray(R"({"offerCode":"AmazonEC2","products":[],"terms":{}})")
                                        << QStringLiteral("\"products\" is an array");
        QTest::newRow("terms string") << QByteArray(R"({"offerCode":"AmazonEC2","products":{},"terms":"x"})")
                                      << QStringLiteral("\"terms\" is a string");
        QTest::newRow("not ec2") << QByteArray(R"({"offerCode":"AmazonS3","products":{}})")
                                 << QStringLiteral("expected AmazonEC2");
        QTest::newRow("array doc") << QByteArray("[1,2]") << QStringLiteral("not an AWS");
        QTest::newRow("no products") << QByteArray(R"({"offerCode":"AmazonEC2"})")
                                     << QStringLiteral("no \"products\"");
        QTest::newRow("html") << QByteArray("<html><body>Service Unavailable</body></html>")
                              << QStringLiteral("not an AWS price list");
        QTest::newRow("truncated") << readFixture(QStringLiteral("providers/aws/us-east-1.json")).left(50000)
                                   << QStringLiteral("incomplete");
    }

    void wrongTypes()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        auto r = parseAwsOffers(doc, ProviderTables::builtin(), QStringLiteral("f.json"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected) && r.error().text().startsWith(QStringLiteral("f.json")),
                 qPrintable(r.error().text()));
    }

    void priceOfTheWrongTypeIsNoPrice()
    {
        // Every USD price as a number instead of a string: nothing usable, with a warning.
        const QByteArray doc = QString::fromUtf8(readFixture(QStringLiteral("providers/aws/us-west-2.json")))
                                   .replace(QRegularExpression(QStringLiteral("\"USD\": \"([0-9.]+)\"")),
                                            QStringLiteral("\"USD\": \\1"))
                                   .toUtf8();
        QVERIFY(!doc.contains("\"USD\": \""));
        auto r = parseAwsOffers(doc, ProviderTables::builtin(), QStringLiteral("w.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QVERIFY(r.value().offers.isEmpty());
        QVERIFY(r.value().warnings.join(u' ').contains(QStringLiteral("no on-demand hourly USD price")));
    }

    void unknownGpuTypeIsKeptUnrecognised()
    {
        QByteArray doc = readFixture(QStringLiteral("providers/aws/us-west-2.json"));
        doc.replace("\"g5.xlarge\"", "\"g9.xlarge\""); // a family the table does not know yet, "gpu": "1"
        auto r = parseAwsOffers(doc, ProviderTables::builtin(), QStringLiteral("u.json"));
        QVERIFY(r.ok());
        const Offer *o = find(r.value().offers, QStringLiteral("g9.xlarge"));
        QVERIFY(o);
        QVERIFY(o->gpuRawName.isEmpty());
        QCOMPARE(o->gpuCount, 1.0);
        QVERIFY(r.value().warnings.join(u' ').contains(QStringLiteral("g9.xlarge")));
    }

    // provider-sources.md: the 2026 families g7 (RTX PRO 4500), g7e (RTX PRO 6000), p6-b300 (B300) and
    // p6e-gb200 (GB200) are recognised with their GPUs, also in sizes the instance table does not list.
    void families2026Recognised_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("gpuId");
        QTest::addColumn<double>("count");
        QTest::newRow("g7 (family only)")
            << QStringLiteral("g7.xlarge") << QStringLiteral("rtx-pro-4500") << 1.0;
        QTest::newRow("g7e") << QStringLiteral("g7e.2xlarge") << QStringLiteral("rtx-pro-6000-server") << 1.0;
        QTest::newRow("g7e new size")
            << QStringLiteral("g7e.xlarge") << QStringLiteral("rtx-pro-6000-server") << 1.0;
        QTest::newRow("p6-b300") << QStringLiteral("p6-b300.48xlarge") << QStringLiteral("b300") << 8.0;
        QTest::newRow("p6e-gb200 (family only)")
            << QStringLiteral("p6e-gb200.36xlarge") << QStringLiteral("gb200") << 1.0;
    }

    void families2026Recognised()
    {
        QFETCH(QString, type);
        QFETCH(QString, gpuId);
        QFETCH(double, count);
        QByteArray doc = readFixture(QStringLiteral("providers/aws/us-west-2.json"));
        doc.replace("\"g5.xlarge\"",
                    QByteArray("\"" + type.toUtf8() + "\"")); // the fixture's row says "gpu": "1"
        auto r = parseAwsOffers(doc, ProviderTables::builtin(), QStringLiteral("u.json"));
        QVERIFY(r.ok());
        const Offer *o = find(r.value().offers, type);
        QVERIFY(o);
        QVERIFY2(!o->gpuRawName.isEmpty(), qPrintable(r.value().warnings.join(u' ')));
        QCOMPARE(o->gpuCount, count);
        const OfferGpu g = resolveOfferGpu(*o, GpuCatalog::builtin(), ProviderTables::builtin());
        QVERIFY(g.id);
        QCOMPARE(*g.id, gpuId);
        QVERIFY2(!r.value().warnings.join(u' ').contains(QStringLiteral("unrecognised")),
                 qPrintable(r.value().warnings.join(u' ')));
    }

    void regionIndex()
    {
        auto r = parseAwsRegionIndex(readFixture(QStringLiteral("providers/aws/region_index.json")),
                                     QStringLiteral("region_index.json"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().regions.size(), 3);
        QCOMPARE(r.value().regions.at(2).first, QStringLiteral("us-west-2"));
        QCOMPARE(r.value().regions.at(2).second,
                 QStringLiteral("/offers/v1.0/aws/AmazonEC2/20250912225308/us-west-2/index.json"));
        QVERIFY(!parseAwsRegionIndex("{\"regions\": []}", QStringLiteral("x")).ok());
        // The service index (one level up) is not a region index.
        QVERIFY(!parseAwsRegionIndex(R"({"offers": {}})", QStringLiteral("x")).ok());
    }
};

QTEST_GUILESS_MAIN(TestParseAws)
#include "test_parse_aws.moc"

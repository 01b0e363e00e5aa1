#include "fixtures.h"
#include "providers/vastai.h"
#include "util/jsonstream.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;

class TestParseVastai final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCliCapture()
    {
        // `vastai search offers --raw` prints a bare array.
        auto r = parseVastOffers(
            readFixture(QStringLiteral("providers/vastai/search-offers-raw.RTX4090.2024.cli-capture.json")),
            QStringLiteral("cli.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().offers.size(), 1);
        const Offer &o = r.value().offers.first();
        QCOMPARE(o.provider, QStringLiteral("vastai"));
        QCOMPARE(o.instanceType, QStringLiteral("11684738"));
        QCOMPARE(o.region, QStringLiteral("Guangxi, CN"));
        QCOMPARE(o.gpuRawName, QStringLiteral("RTX 4090"));
        QCOMPARE(o.gpuCount, 1.0);
        QCOMPARE(*o.gpuMemGb, 23.99);   // 24564 MiB
        QCOMPARE(*o.vcpus, 24.0);       // cpu_cores_effective
        QCOMPARE(*o.ramGb, 16.1);       // 24 of the host's 96 vCPUs: that share of its 64393 MB
        QCOMPARE(*o.networkGbps, 0.11); // 105.9 Mb/s
        QCOMPARE(*o.onDemandUsdH, 0.2466759259259259); // dph_total
        QCOMPARE(*o.spotUsdH, 0.2);                    // min_bid
        QCOMPARE(o.spotLabel, QStringLiteral("interruptible"));
        QCOMPARE(*o.reliability, 0.9700835);
        QCOMPARE(*o.uploadGbps, 0.08); // inet_up Mb/s -> Gbit/s
        QVERIFY(o.dlperf && std::abs(*o.dlperf - 106.6) < 0.05);
    }

    void realMirrorPage()
    {
        // Both offers of the mirror capture were "rentable": false at capture time: none is offered.
        auto r = parseVastOffers(
            readFixture(QStringLiteral("providers/vastai/offers.500farm-mirror.RTX5090.2025-07-26.json")),
            QStringLiteral("mirror.json"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().offers.size(), 0);
        QCOMPARE(r.value().dataDate, QDate(2025, 7, 26));
        QVERIFY(r.value().warnings.join(u' ').contains(QStringLiteral("2 offers not rentable")));
        // Rentable, the mirror's price is search.totalHour (it has no dph_total).
        QByteArray data =
            readFixture(QStringLiteral("providers/vastai/offers.500farm-mirror.RTX5090.2025-07-26.json"));
        data.replace("\"rentable\": false", "\"rentable\": true");
        auto rentable = parseVastOffers(data, QStringLiteral("mirror.json"));
        QVERIFY(rentable.ok());
        QCOMPARE(rentable.value().offers.size(), 2);
        QCOMPARE(rentable.value().offers.first().gpuRawName, QStringLiteral("RTX 5090"));
        QCOMPARE(*rentable.value().offers.first().onDemandUsdH, 0.11570370370370371);
    }

    void envelopeFixture()
    {
        auto r = parseVastOffers(readFixture(QStringLiteral("providers/vastai/offers.json")),
                                 QStringLiteral("offers.json"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().offers.size(), 1);
    }

    void wrongTypes_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("price string")
            << QByteArray(R"({"offers":[{"id":1,"gpu_name":"RTX 4090","num_gpus":1,"dph_total":"0.3"}]})")
            << QStringLiteral("offers[0].dph_total is not a number");
        QTest::newRow("gpu name number")
            << QByteArray(R"({"offers":[{"id":1,"gpu_name":4090,"num_gpus":1,"dph_total":0.3}]})")
            << QStringLiteral("offers[0].gpu_name is not a string");
        QTest::newRow("no offers") << QByteArray(R"({"success":false,"error":"unauthorized"})")
                                   << QStringLiteral("no \"offers\" array");
        QTest::newRow("offer not object")
            << QByteArray(R"({"offers":[3]})") << QStringLiteral("offers[0] is not an object");
        // Found by fuzz_vastai (tests/fuzz/regressions/fuzz_vastai): converting this id to an integer was
        // undefined.
        QTest::newRow("huge id")
            << QByteArray(R"({"offers":[{"id":1.16847e61,"gpu_name":"A40","num_gpus":1,"dph_total":0.3}]})")
            << QStringLiteral("offers[0].id is not an integer");
        QTest::newRow("no id") << QByteArray(
                                      R"({"offers":[{"gpu_name":"A40","num_gpus":1,"dph_total":0.3}]})")
                               << QStringLiteral("has no id");
        QTest::newRow("not json") << QByteArray("offers: none") << QStringLiteral("invalid JSON");
    }

    void wrongTypes()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        auto r = parseVastOffers(doc, QStringLiteral("bundles"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().startsWith(QStringLiteral("bundles: ")) &&
                     r.error().text().contains(expected),
                 qPrintable(r.error().text()));
    }

    // provider-sources.md: an offer that rents part of a machine gets cpu_cores_effective vCPUs and the
    // same share of the machine's RAM (cpu_ram is the whole machine's): 16 GB rented, not 64 GB.
    void partialMachineShare()
    {
        auto r = parseVastOffers(
            R"({"offers":[{"id":7,"gpu_name":"RTX 4090","num_gpus":2,"dph_total":0.6,"cpu_cores":128,
               "cpu_cores_effective":32.0,"cpu_ram":257000,"gpu_frac":0.25},
              {"id":8,"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"cpu_cores":64,"cpu_ram":128000,
               "gpu_frac":0.5},
              {"id":9,"gpu_name":"RTX 4090","num_gpus":1,"dph_total":0.3,"cpu_cores":16,
               "cpu_cores_effective":16,"cpu_ram":64000}]})",
            QStringLiteral("b"));
        QVERIFY(r.ok());
        const QList<Offer> &o = r.value().offers;
        QCOMPARE(o.size(), 3);
        QCOMPARE(*o[0].vcpus, 32.0);
        QCOMPARE(*o[0].ramGb, 64.3); // 257000 MB x 32/128
        QVERIFY2(o[0].source.contains(QStringLiteral("32 of 128 host vCPUs")), qPrintable(o[0].source));
        QCOMPARE(*o[1].vcpus, 32.0); // no cpu_cores_effective: cpu_cores x gpu_frac
        QCOMPARE(*o[1].ramGb, 64.0);
        QCOMPARE(*o[2].vcpus, 16.0); // the whole machine
        QCOMPARE(*o[2].ramGb, 64.0);
    }

    // One malformed offer (a number sent as a string, a missing name) is skipped and counted, never fatal.
    void malformedOfferSkipped()
    {
        auto r = parseVastOffers(
            R"({"offers":[{"id":1,"gpu_name":"A40","num_gpus":1,"dph_total":0.4},
              {"id":2,"gpu_name":"A40","num_gpus":1,"dph_total":"0.3"},
              {"id":3,"num_gpus":1,"dph_total":0.3},
              {"id":4,"gpu_name":"A40","num_gpus":1,"dph_total":0.5}]})",
            QStringLiteral("b"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().offers.size(), 2);
        const QString w = r.value().warnings.join(u'|');
        QVERIFY2(w.contains(QStringLiteral("2 malformed offers skipped (first: offers[1].dph_total is not a "
                                           "number)")),
                 qPrintable(w));
    }

    // vast.ai answers 64 offers when a query has no limit (and maybe always to anonymous queries).
    void sixtyFourOffersWarned()
    {
        QJsonArray offers;
        for (int i = 0; i < kVastDefaultLimit; ++i)
            offers.append(QJsonObject{{QStringLiteral("id"), i + 1},
                                      {QStringLiteral("gpu_name"), QStringLiteral("RTX 3090")},
                                      {QStringLiteral("num_gpus"), 1},
                                      {QStringLiteral("dph_total"), 0.1 + i * 0.01}});
        auto r = parseVastOffers(QJsonDocument(QJsonObject{{QStringLiteral("offers"), offers}}).toJson(),
                                 QStringLiteral("b"));
        QVERIFY(r.ok());
        QVERIFY2(r.value().warnings.join(u' ').contains(QStringLiteral("exactly 64 offers")),
                 qPrintable(r.value().warnings.join(u' ')));
        offers.removeLast();
        auto fewer = parseVastOffers(QJsonDocument(QJsonObject{{QStringLiteral("offers"), offers}}).toJson(),
                                     QStringLiteral("b"));
        QVERIFY(fewer.value().warnings.isEmpty());
    }

    // The streamed reader (file imports) gives what the whole-document parser gives, offer for offer.
    void streamedEqualsWhole_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::newRow("cli capture") << readFixture(
            QStringLiteral("providers/vastai/search-offers-raw.RTX4090.2024.cli-capture.json"));
        QTest::newRow("mirror") << readFixture(
            QStringLiteral("providers/vastai/offers.500farm-mirror.RTX5090.2025-07-26.json"));
        QTest::newRow("api") << readFixture(QStringLiteral("providers/vastai/offers.json"));
        QTest::newRow("timestamp after offers, duplicate keys, unread nested fields") << QByteArray(
            R"({"offers":[{"id":1,"gpu_name":"A40","num_gpus":1,"dph_total":0.4,"x":[1,{"a":[]}],
              "dph_total":0.45,"search":{"totalHour":9}},7,[1],{"id":2,"gpu_name":"A40","dph_total":"0.3"},
              {"id":3,"gpu_name":"A40","rentable":false,"dph_total":0.3}],"offers":[
              {"id":5,"gpu_name":"L4","search":{"totalHour":0.2},"end_date":1900000000,"duration":86400,
              "geolocation":"Oslo, NO","junk":{"deep":[[[null]]]}}],"timestamp":"2025-03-04T05:06:07Z"})");
        // The stream reader keeps only the fields the rules read, typed as QJsonValue types them: the last of
        // repeated keys, "search" looked into only where it is an object (a later one replaces it), an
        // escaped key, fields of the wrong type, the host share, fractional machine ids.
        QTest::newRow("fields as a QJsonObject holds them") << QByteArray(
            R"({"timestamp":"2025-07-26T08:01:10Z","offers":[
            {"id":1,"num_gpus":1,"gpu_name":"RTX 4090","search":{"a":{"totalHour":9},"totalHour":0.5,"b":[1,{"totalHour":7}]}},
            {"id":2,"num_gpus":1,"gpu_name":"RTX 4090","search":{"totalHour":0.5},"search":{"x":1}},
            {"id":3,"num_gpus":1,"gpu_name":"RTX 4090","search":[{"totalHour":0.5}],"dph_total":null},
            {"id":4,"num_gpus":1,"gpu_n\u0061me":"RTX 3090","dph_total":1.25,"dph_total":0.75,
             "geolocation":"  Texas, US ","verification":"deverified","machine_id":12.5},
            {"id":5,"num_gpus":1,"gpu_name":{"x":"RTX 4090"},"dph_total":1},
            {"id":6,"num_gpus":1,"gpu_name":["RTX 4090"],"dph_total":1},
            {"id":7,"num_gpus":1,"gpu_name":"  ","dph_total":1},
            {"id":8.5,"num_gpus":1,"gpu_name":"A100","dph_total":1},
            {"id":10,"num_gpus":1,"gpu_name":"A100","dph_total":1,"rentable":false},
            {"id":11,"num_gpus":1,"gpu_name":"A100","dph_total":1,"rented":true,"rented":false,"rentable":"no"},
            {"id":12,"num_gpus":1,"gpu_name":"A100","dph_total":1,"reliability2":null,"reliability":0.8},
            {"id":13,"num_gpus":1,"gpu_name":"A100","dph_total":1,"reliability2":{"v":1},"reliability":0.9},
            {"id":14,"num_gpus":2,"gpu_name":"A100","dph_total":1,"cpu_cores":32,"gpu_frac":0.5,"cpu_ram":128000,
             "end_date":"x","duration":3},
            {"id":15,"num_gpus":1,"gpu_name":"A100","dph_total":1,"cpu_cores":32,"cpu_cores_effective":8,
             "cpu_ram":128000,"min_bid":0.3,"inet_up":100,"inet_down":150,"dlperf":12.345,"machine_id":7,
             "gpu_ram":81920,"end_date":1900000000.5,"duration":86400},
            {"id":16,"num_gpus":1,"gpu_name":"H100 SXM","dph_total":2,"gpu_frac":"half",
             "extra":{"deep":[[[{"id":"x"}]]]},"id":18},
            [1,2],"str",
            {"id":19,"num_gpus":1,"gpu_name":"H100 SXM","search":{"totalHour":{"v":1}}},
            {"id":20,"num_gpus":1,"gpu_name":"H100 SXM","search":{"totalHour":0.2},"search":{"totalHour":0.3}},
            {"id":21,"num_gpus":1,"gpu_name":"H100 SXM","search":5,"dph_total":0}]})");
        QTest::newRow("dated by the second offer")
            << QByteArray(R"([{"id":1,"gpu_name":"A40","dph_total":0.4},
              {"id":2,"gpu_name":"A40","dph_total":0.5,"end_date":1900000000,"duration":86400},
              {"id":3,"gpu_name":"A40","dph_total":0.6,"end_date":1800000000,"duration":86400}])");
    }
    void streamedEqualsWhole()
    {
        QFETCH(QByteArray, json);
        auto whole = parseVastOffers(json, QStringLiteral("o"));
        QVERIFY2(whole.ok(), qPrintable(whole.ok() ? QString() : whole.error().text()));
        SnapshotData got;
        CollectingSink sink(got);
        VastAnswerReader reader(QStringLiteral("o"), QString(), QDate(2000, 1, 2), sink);
        {
            JsonStreamParser scan(reader.scan());
            for (qsizetype i = 0; i < json.size(); i += 7) // in small chunks
                QVERIFY(scan.feed(json.constData() + i,
                                  static_cast<std::size_t>(std::min<qsizetype>(7, json.size() - i))));
            QVERIFY(scan.finish());
        }
        QVERIFY(reader.scanned().ok());
        JsonStreamParser parser(reader.offers());
        QVERIFY(parser.feed(json.constData(), static_cast<std::size_t>(json.size())));
        QVERIFY(parser.finish());
        auto meta = reader.finish();
        QVERIFY2(meta.ok(), qPrintable(meta.ok() ? QString() : meta.error().text()));
        const SnapshotData &w = whole.value();
        QCOMPARE(meta.value().warnings, w.warnings);
        QCOMPARE(meta.value().description, w.description);
        QCOMPARE(meta.value().dataDate, w.dataDate.isValid() ? w.dataDate : QDate(2000, 1, 2));
        QCOMPARE(got.offers.size(), w.offers.size());
        for (qsizetype i = 0; i < got.offers.size(); ++i) {
            const Offer &a = got.offers.at(i);
            const Offer &b = w.offers.at(i);
            QCOMPARE(a.id, i + 1);
            QCOMPARE(a.instanceType, b.instanceType);
            QCOMPARE(a.region, b.region);
            QCOMPARE(a.gpuRawName, b.gpuRawName);
            QCOMPARE(a.gpuCount, b.gpuCount);
            QCOMPARE(a.onDemandUsdH, b.onDemandUsdH);
            QCOMPARE(a.spotUsdH, b.spotUsdH);
            QCOMPARE(a.vcpus, b.vcpus);
            QCOMPARE(a.ramGb, b.ramGb);
            QCOMPARE(a.gpuMemGb, b.gpuMemGb);
            QCOMPARE(a.listingEnd, b.listingEnd);
            QCOMPARE(a.source, b.source);
            QCOMPARE(a.reliability, b.reliability);
            QCOMPARE(a.networkGbps, b.networkGbps);
            QCOMPARE(a.uploadGbps, b.uploadGbps);
            QCOMPARE(a.dlperf, b.dlperf);
            QCOMPARE(a.spotLabel, b.spotLabel);
        }
    }

    void pageCursorQuery()
    {
        const QJsonObject q = QJsonDocument::fromJson(vastSearchQuery(10000, 1.25)).object();
        QCOMPARE(q.value(QStringLiteral("dph_total")).toObject().value(QStringLiteral("gte")).toDouble(),
                 1.25);
        QCOMPARE(q.value(QStringLiteral("order")).toArray().first().toArray().first().toString(),
                 QStringLiteral("dph_total"));
        QVERIFY(!QJsonDocument::fromJson(vastSearchQuery()).object().contains(QStringLiteral("dph_total")));
    }

    void queryIsJson()
    {
        const QJsonObject q = QJsonDocument::fromJson(vastSearchQuery(500)).object();
        QCOMPARE(q.value(QStringLiteral("limit")).toInt(), 500);
        QCOMPARE(q.value(QStringLiteral("rentable")).toObject().value(QStringLiteral("eq")).toBool(), true);
    }
};

QTEST_GUILESS_MAIN(TestParseVastai)
#include "test_parse_vastai.moc"

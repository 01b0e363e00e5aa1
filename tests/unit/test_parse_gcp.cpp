#include "domain/providertables.h"
#include "fixtures.h"
#include "providers/gcpbilling.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;

namespace {

const Offer *find(const QList<Offer> &offers, const QString &type, const QString &region)
{
    for (const Offer &o : offers)
        if (o.instanceType == type && o.region == region)
            return &o;
    return nullptr;
}

QList<GcpSku> page(const QString &fixture)
{
    auto r = parseGcpSkuPage(readFixture(fixture), fixture);
    if (!r)
        qFatal("%s", qPrintable(r.error().text()));
    return r.value().skus;
}

} // namespace

class TestParseGcp final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realOpencostPage()
    {
        auto r = parseGcpSkuPage(
            readFixture(QStringLiteral("providers/gcp/cloudbilling-skus.6F81-5844-456A.opencost-test.json")),
            QStringLiteral("skus"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().skus.size(), 7);
        QVERIFY(r.value().nextPageToken.startsWith(QStringLiteral("APKCS1HVa0Ypwgy")));
        const GcpSku &a100 = r.value().skus.first();
        QCOMPARE(a100.description, QStringLiteral("Nvidia Tesla A100 GPU running in Americas"));
        QCOMPARE(a100.unitPrice, 2.933908); // units "2" + nanos 933908000
        QCOMPARE(a100.regions, (QStringList{QStringLiteral("us-central1"), QStringLiteral("us-east1"),
                                            QStringLiteral("us-west1")}));
        QCOMPARE(r.value().skus.at(3).currency, QStringLiteral("IDR")); // the real page mixes currencies
        // A100 + A2 core + A2 RAM compose every A100 a2 shape in the three regions.
        const SnapshotData d = composeGcpOffers(r.value().skus, ProviderTables::builtin(), {});
        QCOMPARE(d.offers.size(), 15); // a2-highgpu-1/2/4/8g + a2-megagpu-16g, x 3 regions
        const Offer *o = find(d.offers, QStringLiteral("a2-highgpu-1g"), QStringLiteral("us-central1"));
        QVERIFY(o);
        QCOMPARE(*o->onDemandUsdH, 3.673385); // 12 x 0.031611 + 85 x 0.004237 + 2.933908
        QVERIFY(!o->spotUsdH);
        QCOMPARE(o->gpuRawName, QStringLiteral("A100"));
        QCOMPARE(*o->vcpus, 12.0);
        QCOMPARE(*find(d.offers, QStringLiteral("a2-megagpu-16g"), QStringLiteral("us-west1"))->onDemandUsdH,
                 std::round((96 * 0.031611 + 1360 * 0.004237 + 16 * 2.933908) * 1e6) / 1e6);
    }

    void fixturePages()
    {
        const QList<GcpSku> skus = page(QStringLiteral("providers/gcp/skus-page1.json")) +
                                   page(QStringLiteral("providers/gcp/skus-page2.json"));
        const SnapshotData d = composeGcpOffers(skus, ProviderTables::builtin(), {});
        QCOMPARE(d.offers.size(), 22); // 15 a2 + N1 with 1/2/4 T4 and 1/2/4/8 V100 in us-central1
        const Offer *t4 = find(d.offers, QStringLiteral("n1-standard-8+1xT4"), QStringLiteral("us-central1"));
        QVERIFY(t4);
        QCOMPARE(*t4->onDemandUsdH, 0.729998); // 8 x 0.031611 + 30 x 0.004237 + 0.35 (bundled: 0.73)
        QVERIFY(!t4->spotUsdH); // no N1 spot core/RAM SKU on these pages: no made-up spot price
        QCOMPARE(t4->interconnect, QString());
        QCOMPARE(find(d.offers, QStringLiteral("n1-standard-32+4xT4"), QStringLiteral("us-central1"))
                     ->interconnect,
                 QStringLiteral("PCIe"));
        QCOMPARE(*find(d.offers, QStringLiteral("n1-standard-64+8xV100"), QStringLiteral("us-central1"))
                      ->onDemandUsdH,
                 std::round((64 * 0.031611 + 240 * 0.004237 + 8 * 2.48) * 1e6) / 1e6);
        // The commitment and "DWS Defined Duration" SKUs never price a machine; the IDR SKU is reported.
        QVERIFY2(d.warnings.join(u' ').contains(QStringLiteral("1 SKUs priced in another currency than USD")),
                 qPrintable(d.warnings.join(u' ')));
    }

    void spotNeedsEveryPart()
    {
        QList<GcpSku> skus = page(QStringLiteral("providers/gcp/skus-page1.json")) +
                             page(QStringLiteral("providers/gcp/skus-page2.json"));
        for (const char *what : {"Core", "Ram"}) {
            GcpSku s;
            s.description = QStringLiteral("Spot Preemptible N1 Predefined Instance %1 running in Americas")
                                .arg(QLatin1String(what));
            s.usageType = QStringLiteral("Preemptible");
            s.regions = {QStringLiteral("us-central1")};
            s.usageUnit = QLatin1String(what) == u"Core" ? QStringLiteral("h") : QStringLiteral("GiBy.h");
            s.currency = QStringLiteral("USD");
            s.unitPrice = QLatin1String(what) == u"Core" ? 0.00698 : 0.000936;
            skus.append(s);
        }
        const SnapshotData d = composeGcpOffers(skus, ProviderTables::builtin(), {});
        const Offer *t4 = find(d.offers, QStringLiteral("n1-standard-8+1xT4"), QStringLiteral("us-central1"));
        QCOMPARE(*t4->spotUsdH, std::round((8 * 0.00698 + 30 * 0.000936 + 0.175) * 1e6) / 1e6);
        QCOMPARE(t4->spotLabel, QStringLiteral("spot"));
        QVERIFY(!find(d.offers, QStringLiteral("n1-standard-8+1xV100"), QStringLiteral("us-central1"))
                     ->spotUsdH); // no V100 spot SKU
    }

    // provider-sources.md: the 2026 SKU wordings, which vary by region for the same GPU (with or without
    // "Nvidia"), the A3Plus core/RAM SKUs of a3-megagpu, the a4 machine priced whole by its B200 GPU-slice
    // SKU (whose Spot SKU is filed as OnDemand), and RTX PRO 6000 as "RTX 6000 96GB" (no "GPU").
    void wordings2026()
    {
        auto sku = [](const QString &description, double price, const QString &region,
                      const QString &usage = QStringLiteral("OnDemand"),
                      const QString &unit = QStringLiteral("h")) {
            GcpSku s;
            s.description = description;
            s.usageType = usage;
            s.regions = {region};
            s.usageUnit = unit;
            s.currency = QStringLiteral("USD");
            s.unitPrice = price;
            return s;
        };
        const QString us = QStringLiteral("us-central1"), eu = QStringLiteral("europe-west1"),
                      east = QStringLiteral("us-east4");
        const QString pre = QStringLiteral("Preemptible"), gib = QStringLiteral("GiBy.h");
        const QList<GcpSku> skus{
            sku(QStringLiteral("A3 Instance Core running in Americas"), 0.025, us),
            sku(QStringLiteral("A3 Instance Ram running in Americas"), 0.002, us, QStringLiteral("OnDemand"),
                gib),
            sku(QStringLiteral("A3Plus Instance Core running in Americas"), 0.03, us),
            sku(QStringLiteral("A3Plus Instance Ram running in Americas"), 0.003, us,
                QStringLiteral("OnDemand"), gib),
            sku(QStringLiteral("Nvidia H100 80GB Plus GPU running in Americas"), 10.0, us),
            sku(QStringLiteral("H100 Mega 80GB GPU attached to Spot Preemptible VMs running in Americas"),
                2.0, us, pre),
            sku(QStringLiteral("Spot Preemptible A3Plus Instance Core running in Americas"), 0.01, us, pre),
            sku(QStringLiteral("Spot Preemptible A3Plus Instance Ram running in Americas"), 0.001, us, pre,
                gib),
            sku(QStringLiteral("H200 141GB GPU running in Americas"), 9.0, us),
            sku(QStringLiteral("A4 Nvidia B200 (1 gpu slice) running in Americas"), 11.0, us),
            sku(QStringLiteral(
                    "Nvidia B200 (1 gpu slice) attached to Spot Preemptible VMs running in Americas"),
                4.0,
                us), // a Spot SKU filed as OnDemand
            sku(QStringLiteral("Nvidia H100 80GB Mega GPU running in Virginia"), 10.5, east),
            sku(QStringLiteral("A3 Instance Core running in Virginia"), 0.025, east),
            sku(QStringLiteral("A3 Instance Ram running in Virginia"), 0.002, east,
                QStringLiteral("OnDemand"), gib),
            sku(QStringLiteral("G4 Instance Core running in Belgium"), 0.02, eu),
            sku(QStringLiteral("G4 Instance Ram running in Belgium"), 0.0025, eu, QStringLiteral("OnDemand"),
                gib),
            sku(QStringLiteral("RTX 6000 96GB running in Belgium"), 3.0, eu),
        };
        const SnapshotData d = composeGcpOffers(skus, ProviderTables::builtin(), QString());
        auto near = [](std::optional<double> a, double b) { return a && std::abs(*a - b) < 1e-6; };
        const Offer *mega = find(d.offers, QStringLiteral("a3-megagpu-8g"), us);
        QVERIFY(mega);
        QVERIFY(near(mega->onDemandUsdH, 208 * 0.03 + 1872 * 0.003 + 8 * 10.0)); // A3Plus core/RAM
        QVERIFY(near(mega->spotUsdH, 208 * 0.01 + 1872 * 0.001 + 8 * 2.0));
        // Where a page has no A3Plus SKUs, the A3 Instance rates price it.
        const Offer *megaEast = find(d.offers, QStringLiteral("a3-megagpu-8g"), east);
        QVERIFY(megaEast);
        QVERIFY(near(megaEast->onDemandUsdH, 208 * 0.025 + 1872 * 0.002 + 8 * 10.5));
        const Offer *ultra = find(d.offers, QStringLiteral("a3-ultragpu-8g"), us);
        QVERIFY(ultra);
        QCOMPARE(ultra->gpuRawName, QStringLiteral("H200"));
        QVERIFY(near(ultra->onDemandUsdH, 224 * 0.025 + 2952 * 0.002 + 8 * 9.0));
        const Offer *a4 = find(d.offers, QStringLiteral("a4-highgpu-8g"), us);
        QVERIFY(a4);
        QVERIFY(near(a4->onDemandUsdH, 8 * 11.0)); // the host is priced 0
        QVERIFY(near(a4->spotUsdH, 8 * 4.0));
        const Offer *g4 = find(d.offers, QStringLiteral("g4-standard-48"), eu);
        QVERIFY(g4);
        QCOMPARE(g4->gpuCount, 1.0);
        QVERIFY(near(g4->onDemandUsdH, 48 * 0.02 + 180 * 0.0025 + 3.0));
        QVERIFY(find(d.offers, QStringLiteral("g4-standard-6"), eu)); // 1/8 of the card
    }

    void wrongTypes_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("skus object") << QByteArray(R"({"skus":{},"nextPageToken":""})")
                                     << QStringLiteral("\"skus\" is not an array");
        QTest::newRow("description number") << QByteArray(R"({"skus":[{"description":5}]})")
                                            << QStringLiteral("skus[0].description is not a string");
        QTest::newRow("units text")
            << QByteArray(
                   R"({"skus":[{"description":"x","pricingInfo":[{"pricingExpression":{"tieredRates":[{"unitPrice":{"units":"two","nanos":0}}]}}]}]})")
            << QStringLiteral("units/nanos are not numbers");
        QTest::newRow("no pricing") << QByteArray(R"({"skus":[{"description":"x"}]})")
                                    << QStringLiteral("has no pricingInfo");
        QTest::newRow("token number") << QByteArray(R"({"skus":[],"nextPageToken":3})")
                                      << QStringLiteral("nextPageToken is not a string");
        QTest::newRow("api error")
            << QByteArray(
                   R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key."}})")
            << QStringLiteral("API key not valid");
    }

    void wrongTypes()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        auto r = parseGcpSkuPage(doc, QStringLiteral("skus"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected), qPrintable(r.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestParseGcp)
#include "test_parse_gcp.moc"

#include "domain/providertables.h"
#include "fixtures.h"
#include "providers/azureretail.h"

#include <QTest>

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

QList<AzureRetailItem> fixtureItems()
{
    QList<AzureRetailItem> items;
    for (const QString &page :
         {QStringLiteral("providers/azure/page1.json"), QStringLiteral("providers/azure/page2.json")}) {
        auto r = parseAzureRetailPage(readFixture(page), page);
        if (!r)
            qFatal("%s", qPrintable(r.error().text()));
        items += r.value().items;
    }
    return items;
}

} // namespace

class TestParseAzure final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realPages()
    {
        auto b1s = parseAzureRetailPage(
            readFixture(QStringLiteral(
                "providers/azure/retail-prices.B1s-eastus.Consumption.finfocus-plugin-test.json")),
            QStringLiteral("b1s"));
        QVERIFY(b1s.ok());
        QCOMPARE(b1s.value().items.size(), 1);
        QCOMPARE(b1s.value().nextPageLink, QString()); // "" ends the pages
        QCOMPARE(b1s.value().items.first().armSkuName, QStringLiteral("Standard_B1s"));
        QCOMPARE(b1s.value().items.first().retailPrice, 0.0104);
        // B1s has no GPU: nothing to offer, and it says why.
        const SnapshotData d = composeAzureOffers(b1s.value().items, ProviderTables::builtin(), {});
        QVERIFY(d.offers.isEmpty());
        QVERIFY(d.warnings.join(u' ').contains(QStringLiteral("outside the project's GPU size table")));

        auto empty = parseAzureRetailPage(
            readFixture(QStringLiteral(
                "providers/azure/retail-prices.empty-page.2026-10-03.finfocus-plugin-test.json")),
            QStringLiteral("empty"));
        QVERIFY(empty.ok());
        QVERIFY(empty.value().items.isEmpty());
        QCOMPARE(empty.value().nextPageLink, QString()); // null ends the pages

        auto gbp = parseAzureRetailPage(
            readFixture(QStringLiteral("providers/azure/retail-prices.GBP-disk.azrp-go-test.json")),
            QStringLiteral("gbp"));
        QVERIFY(gbp.ok());
        QCOMPARE(gbp.value().currency, QStringLiteral("GBP"));
        QVERIFY(composeAzureOffers(gbp.value().items, ProviderTables::builtin(), {}).offers.isEmpty());

        // The item pasted in an issue (with "--->" markers and a broken key) is not JSON.
        auto pasted = parseAzureRetailPage(
            readFixture(QStringLiteral(
                "providers/azure/"
                "retail-prices.item.B2s-LowPriority-DevTest.azure-rest-api-specs-issue-24491.VERBATIM.txt")),
            QStringLiteral("pasted.txt"));
        QVERIFY(!pasted.ok());
        QVERIFY2(pasted.error().text().startsWith(QStringLiteral("pasted.txt: invalid JSON")),
                 qPrintable(pasted.error().text()));
    }

    void fixturePagesCompose()
    {
        const SnapshotData d =
            composeAzureOffers(fixtureItems(), ProviderTables::builtin(), QStringLiteral("test"));
        QCOMPARE(d.provider, QStringLiteral("azure"));
        QCOMPARE(d.offers.size(), 13);
        const Offer *nc6 = find(d.offers, QStringLiteral("Standard_NC6s_v3"), QStringLiteral("eastus"));
        QVERIFY(nc6); // its on-demand row has an empty armSkuName: rebuilt from skuName
        QCOMPARE(*nc6->onDemandUsdH, 3.06);
        QCOMPARE(*nc6->spotUsdH, 0.3978); // the $0 Spot placeholder is ignored
        QCOMPARE(nc6->spotLabel, QStringLiteral("spot"));
        QCOMPARE(nc6->gpuRawName, QStringLiteral("V100"));
        QCOMPARE(*nc6->vcpus, 6.0);
        QCOMPARE(*nc6->ramGb, 112.0);
        const Offer *nd = find(d.offers, QStringLiteral("Standard_ND96asr_v4"), QStringLiteral("westus2"));
        QVERIFY(nd);
        QCOMPARE(nd->gpuCount, 8.0);
        QCOMPARE(nd->interconnect, QStringLiteral("NVSwitch"));
        QCOMPARE(*nd->onDemandUsdH, 27.197);
        // Known data error: H100 "spot" equal to on-demand is dropped, not shown as a spot price.
        const Offer *h100 =
            find(d.offers, QStringLiteral("Standard_NC40ads_H100_v5"), QStringLiteral("eastus"));
        QVERIFY(h100);
        QCOMPARE(*h100->onDemandUsdH, 6.98);
        QVERIFY(!h100->spotUsdH);
        // Windows, DevTest and Low Priority meters never leak into the prices.
        for (const Offer &o : d.offers) {
            QVERIFY(o.spotLabel != u"low priority"); // every size here has a Spot meter
            QCOMPARE(o.billingIncrementS, 60);
        }
        const QString w = d.warnings.join(u'\n');
        QVERIFY2(w.contains(QStringLiteral("13 Windows meters skipped")), qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("1 meters priced $0 skipped")), qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("1 spot prices equal to on-demand dropped")), qPrintable(w));
    }

    void lowPriorityOnlyIsLabelled()
    {
        QList<AzureRetailItem> items;
        for (const QString &sku : {QStringLiteral("NC6s v3"), QStringLiteral("NC6s v3 Low Priority")}) {
            AzureRetailItem i;
            i.armSkuName = QStringLiteral("Standard_NC6s_v3");
            i.armRegionName = QStringLiteral("eastus");
            i.skuName = i.meterName = sku;
            i.productName = QStringLiteral("Virtual Machines NCSv3 Series");
            i.serviceName = QStringLiteral("Virtual Machines");
            i.type = QStringLiteral("Consumption");
            i.unitOfMeasure = QStringLiteral("1 Hour");
            i.currencyCode = QStringLiteral("USD");
            i.retailPrice = sku.contains(QStringLiteral("Low")) ? 0.612 : 3.06;
            items.append(i);
        }
        const SnapshotData d = composeAzureOffers(items, ProviderTables::builtin(), {});
        QCOMPARE(d.offers.size(), 1);
        QCOMPARE(d.offers.first().spotLabel, QStringLiteral("low priority"));
        QCOMPARE(*d.offers.first().spotUsdH, 0.612);
    }

    void wrongTypes_data()
    {
        QTest::addColumn<QByteArray>("doc");
        QTest::addColumn<QString>("expected");
        QTest::newRow("price as string")
            << QByteArray(
                   R"({"Items":[{"armSkuName":"Standard_NC6s_v3","retailPrice":"3.06"}],"NextPageLink":null})")
            << QStringLiteral("Items[0].retailPrice is a string, a number was expected");
        QTest::newRow("items object") << QByteArray(R"({"Items":{},"NextPageLink":null})")
                                      << QStringLiteral("\"Items\" is not an array");
        QTest::newRow("no items") << QByteArray(R"({"BillingCurrency":"USD"})")
                                  << QStringLiteral("\"Items\" is missing");
        QTest::newRow("next link number") << QByteArray(R"({"Items":[],"NextPageLink":5})")
                                          << QStringLiteral("NextPageLink is neither a string nor null");
        QTest::newRow("item not object") << QByteArray(R"({"Items":[{"retailPrice":1},3]})")
                                         << QStringLiteral("Items[1] is not an object");
        QTest::newRow("sku number") << QByteArray(R"({"Items":[{"armSkuName":7,"retailPrice":1}]})")
                                    << QStringLiteral("Items[0].armSkuName is not a string");
        QTest::newRow("array") << QByteArray("[]") << QStringLiteral("not an Azure Retail Prices response");
    }

    void wrongTypes()
    {
        QFETCH(QByteArray, doc);
        QFETCH(QString, expected);
        auto r = parseAzureRetailPage(doc, QStringLiteral("https://prices.azure.com/api/retail/prices"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected) &&
                     r.error().text().startsWith(QStringLiteral("https://prices.azure.com")),
                 qPrintable(r.error().text()));
    }

    // provider-sources.md: the 2026 sizes a maintained crawler maps (H200, GB200, GB300, MI300X in both
    // spellings) are requested and recognised with their GPUs.
    void sizes2026RequestedAndRecognised()
    {
        const QStringList sizes{
            QStringLiteral("Standard_ND96isr_H200_v5"), QStringLiteral("Standard_ND128isr_NDR_GB200_v6"),
            QStringLiteral("Standard_ND128isr_GB300_v6"), QStringLiteral("Standard_ND96isr_MI300X_v5"),
            QStringLiteral("Standard_ND96is_MI300X_v5")};
        const QString all = azureGpuFilters(ProviderTables::builtin(), 12).join(u' ');
        QList<AzureRetailItem> items;
        for (const QString &size : sizes) {
            QVERIFY2(all.contains(QStringLiteral("armSkuName eq '%1'").arg(size)), qPrintable(size));
            AzureRetailItem i;
            i.armSkuName = size;
            i.armRegionName = QStringLiteral("eastus2");
            i.skuName = i.meterName = size.mid(9).replace(u'_', u' ');
            i.productName = QStringLiteral("Virtual Machines ND Series");
            i.serviceName = QStringLiteral("Virtual Machines");
            i.type = QStringLiteral("Consumption");
            i.unitOfMeasure = QStringLiteral("1 Hour");
            i.currencyCode = QStringLiteral("USD");
            i.retailPrice = 100;
            items.append(i);
        }
        const SnapshotData d = composeAzureOffers(items, ProviderTables::builtin(), {});
        QCOMPARE(d.offers.size(), sizes.size());
        QVERIFY2(!d.warnings.join(u' ').contains(QStringLiteral("outside")),
                 qPrintable(d.warnings.join(u' ')));
        QStringList gpus;
        for (const Offer &o : d.offers)
            gpus.append(QStringLiteral("%1:%2x%3").arg(o.instanceType, o.gpuRawName).arg(o.gpuCount));
        QCOMPARE(gpus, (QStringList{QStringLiteral("Standard_ND128isr_GB300_v6:GB300x4"),
                                    QStringLiteral("Standard_ND128isr_NDR_GB200_v6:GB200x4"),
                                    QStringLiteral("Standard_ND96is_MI300X_v5:MI300Xx8"),
                                    QStringLiteral("Standard_ND96isr_H200_v5:H200x8"),
                                    QStringLiteral("Standard_ND96isr_MI300X_v5:MI300Xx8")}));
        // Recognised: every size resolves to its canonical GPU through the table's gpu_id.
        for (const QString &size : sizes)
            QVERIFY2(!ProviderTables::builtin().azureVmSize(size)->gpuId.isEmpty(), qPrintable(size));
        QCOMPARE(ProviderTables::builtin().azureVmSize(QStringLiteral("Standard_ND128isr_GB300_v6"))->gpuId,
                 QStringLiteral("gb300"));
    }

    void filtersCoverTheTable()
    {
        const QStringList filters = azureGpuFilters(ProviderTables::builtin(), 12);
        QCOMPARE(filters.size(), (ProviderTables::builtin().azureVmSizes().size() + 11) / 12);
        QVERIFY(filters.first().startsWith(QStringLiteral(
            "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and (armSkuName eq '")));
    }
};

QTEST_GUILESS_MAIN(TestParseAzure)
#include "test_parse_azure.moc"

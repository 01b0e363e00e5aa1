#include "domain/gpucatalog.h"
#include "fixtures.h"
#include "providers/ocipricelist.h"

#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

const Offer *find(const QList<Offer> &offers, const QString &type)
{
    return findOffer(offers, type);
}

Result<OciPriceList> parse(const QString &shapes, const QString &products)
{
    return parseOciPriceList(readFixture(QStringLiteral("providers/oci/") + shapes),
                             readFixture(QStringLiteral("providers/oci/") + products),
                             QStringLiteral("shapes.json"), QStringLiteral("products.json"));
}

} // namespace

// Oracle's cloud estimator price list (fixtures shaped after the documented format,
// tests/fixtures/providers/oci/README.md).
class TestParseOci final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void shapeNames()
    {
        QCOMPARE(ociShapeGpu(QStringLiteral("BM.GPU.H100.8")), QStringLiteral("H100"));
        QCOMPARE(ociShapeGpu(QStringLiteral("BM.GPU.A100-v2.8")), QStringLiteral("A100-80GB"));
        QCOMPARE(ociShapeGpu(QStringLiteral("BM.GPU4.8")), QStringLiteral("A100"));
        QCOMPARE(ociShapeGpu(QStringLiteral("VM.GPU3.2")), QStringLiteral("V100"));
        QCOMPARE(ociShapeGpu(QStringLiteral("BM.GPU2.2")), QStringLiteral("P100"));
        QCOMPARE(ociShapeGpu(QStringLiteral("VM.GPU.A10.1")), QStringLiteral("A10"));
        QCOMPARE(ociShapeGpu(QStringLiteral("VM.Standard.E4.Flex")), QString());
        QCOMPARE(ociShapeGpu(QStringLiteral("BM.GPU.H100")), QString());
    }

    void normalAnswer()
    {
        auto r = parse(QStringLiteral("shapes.json"), QStringLiteral("products.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const OciPriceList &l = r.value();
        QCOMPARE(l.gpuShapes, 6); // the CPU shape, the hidden and the deprecated GPU shapes are not counted
        QCOMPARE(l.malformed.count, 0);
        QCOMPARE(l.data.offers.size(), 6);
        const Offer *h = find(l.data.offers, QStringLiteral("BM.GPU.H100.8"));
        QVERIFY(h);
        QCOMPARE(h->provider, QStringLiteral("oci"));
        QCOMPARE(h->region, QStringLiteral("all regions"));
        QCOMPARE(h->gpuRawName, QStringLiteral("H100"));
        QCOMPARE(h->gpuCount, 8.0);
        QCOMPARE(*h->gpuMemGb, 80.0); // gpuMemoryQty 640 / 8
        QCOMPARE(*h->ramGb, 2048.0);
        QCOMPARE(*h->onDemandUsdH, 80.0); // 10.00 USD per GPU-hour x 8
        QCOMPARE(*h->spotUsdH, 40.0);     // preemptible: 50 %, derived
        QCOMPARE(h->spotLabel, QStringLiteral("preemptible"));
        QVERIFY(!h->vcpus); // priced per GPU only: the list states no OCPU count
        QCOMPARE(h->billingMinimumS, 60);
        QVERIFY2(h->source.contains(QStringLiteral("B98415 10 x 8 (GPU Per Hour)")) &&
                     h->source.contains(QStringLiteral("preemptible derived (50 % of pay-as-you-go)")),
                 qPrintable(h->source));
        QCOMPARE(*find(l.data.offers, QStringLiteral("BM.GPU4.8"))->onDemandUsdH, 24.4);
        QCOMPARE(*find(l.data.offers, QStringLiteral("VM.GPU.A10.2"))->onDemandUsdH, 4.0);
        QCOMPARE(*find(l.data.offers, QStringLiteral("VM.GPU3.2"))->onDemandUsdH, 5.9);
        QVERIFY(!find(l.data.offers, QStringLiteral("VM.GPU3.4")));           // hidden
        QVERIFY(!find(l.data.offers, QStringLiteral("BM.GPU3.8")));           // not ACTIVE
        QVERIFY(!find(l.data.offers, QStringLiteral("VM.Standard.E4.Flex"))); // no GPU
        for (const Offer &o : l.data.offers)
            QVERIFY2(GpuCatalog::builtin().resolve(o.provider, o.gpuRawName), qPrintable(o.gpuRawName));
    }

    void ocpuAndMemoryPartsAdded()
    {
        // A shape that lists OCPU and memory parts besides its GPUs is priced with all of them.
        const QByteArray shapes =
            R"({"items":[{"name":"VM.GPU.A10.1","hidden":false,"status":"ACTIVE","gpuQty":1,"bundleMemoryQty":64,
            "processorType":"intel","type":{"value":"vm"},"sub_type":{"value":"gpu"},"products":[
            {"type":{"value":"gpu"},"partNumber":"G1","qty":1},{"type":{"value":"ocpu"},"partNumber":"O1","qty":4},
            {"type":{"value":"memory"},"partNumber":"M1","qty":64}]}]})";
        const QByteArray products =
            R"({"items":[{"partNumber":"G1","metricName":"GPU Per Hour","currencyCodeLocalizations":[{"currencyCode":"USD","prices":[{"model":"PAY_AS_YOU_GO","value":2.0}]}]},
            {"partNumber":"O1","metricName":"OCPU Per Hour","currencyCodeLocalizations":[{"currencyCode":"USD","prices":[{"model":"PAY_AS_YOU_GO","value":0.05}]}]},
            {"partNumber":"M1","metricName":"Gigabyte Per Hour","currencyCodeLocalizations":[{"currencyCode":"USD","prices":[{"model":"PAY_AS_YOU_GO","value":0.002}]}]}]})";
        auto r = parseOciPriceList(shapes, products, QStringLiteral("s"), QStringLiteral("p"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const Offer &o = r.value().data.offers.first();
        QCOMPARE(*o.onDemandUsdH, 2.328); // 2.00 + 4 x 0.05 + 64 x 0.002
        QCOMPARE(*o.vcpus, 8.0);          // 4 OCPUs of an x86 shape
    }

    void fieldOrderDoesNotMatter()
    {
        auto a = parse(QStringLiteral("shapes.json"), QStringLiteral("products.json"));
        auto b = parse(QStringLiteral("shapes-reordered.json"), QStringLiteral("products-reordered.json"));
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b.value().data.offers.size(), a.value().data.offers.size());
        for (const Offer &x : a.value().data.offers) {
            const Offer *y = find(b.value().data.offers, x.instanceType);
            QVERIFY2(y, qPrintable(x.instanceType));
            QCOMPARE(y->onDemandUsdH, x.onDemandUsdH);
            QCOMPARE(y->ramGb, x.ramGb);
        }
    }

    void malformedEntrySkippedAndCounted()
    {
        auto r = parse(QStringLiteral("shapes-malformed-entry.json"), QStringLiteral("products.json"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().data.offers.size(), 6);
        QCOMPARE(r.value().malformed.count, 1); // BM.GPU.L40S.4: gpuQty "4"
        QCOMPARE(r.value().unpriced, 1);        // BM.GPU.H200.8: part B99999 not in products.json
        const QString w = r.value().data.warnings.join(u'|');
        QVERIFY2(w.contains(QStringLiteral("1 malformed shapes or products skipped (first: shapes items[9] "
                                           "(BM.GPU.L40S.4).gpuQty is not a number)")),
                 qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("BM.GPU.H200.8: part B99999 has no USD pay-as-you-go price")),
                 qPrintable(w));
    }

    void malformedAnswers_data()
    {
        QTest::addColumn<QByteArray>("shapes");
        QTest::addColumn<QByteArray>("products");
        QTest::addColumn<QString>("expected");
        const QByteArray s = readFixture(QStringLiteral("providers/oci/shapes.json"));
        const QByteArray p = readFixture(QStringLiteral("providers/oci/products.json"));
        QTest::newRow("shapes not json")
            << QByteArray("<html>") << p << QStringLiteral("shapes.json: invalid JSON");
        QTest::newRow("products truncated")
            << s << p.left(p.size() / 2) << QStringLiteral("products.json: invalid JSON");
        QTest::newRow("no items") << QByteArray("{\"shapes\":[]}") << p
                                  << QStringLiteral("no \"items\" array");
        QTest::newRow("no USD prices") << s << QByteArray("{\"items\":[]}")
                                       << QStringLiteral("none of the 6 GPU shapes could be priced");
    }
    void malformedAnswers()
    {
        QFETCH(QByteArray, shapes);
        QFETCH(QByteArray, products);
        QFETCH(QString, expected);
        auto r = parseOciPriceList(shapes, products, QStringLiteral("shapes.json"),
                                   QStringLiteral("products.json"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected), qPrintable(r.error().text()));
    }

    void emptyAnswerHasNoOffers()
    {
        auto r = parse(QStringLiteral("shapes-empty.json"), QStringLiteral("products.json"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().gpuShapes, 0);
        QVERIFY(r.value().data.offers.isEmpty()); // the price source refuses it (net_refresh)
    }
};

QTEST_GUILESS_MAIN(TestParseOci)
#include "test_parse_oci.moc"

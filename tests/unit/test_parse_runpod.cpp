#include "domain/gpucatalog.h"
#include "fixtures.h"
#include "providers/runpodgraphql.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

const Offer *find(const QList<Offer> &offers, const QString &type)
{
    return findOffer(offers, type);
}

} // namespace

// RunPod's GraphQL answer (fixtures shaped after the documented format,
// tests/fixtures/providers/runpod/README.md).
class TestParseRunpod final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void queryAsksEveryCount()
    {
        const QJsonObject body = QJsonDocument::fromJson(runpodGpuTypesQuery()).object();
        const QString q = body.value(QStringLiteral("query")).toString();
        QVERIFY(q.startsWith(QStringLiteral("query GpuTypes { gpuTypes {")));
        for (const char *field : {"id", "displayName", "memoryInGb", "securePrice", "communityPrice",
                                  "secureSpotPrice", "communitySpotPrice", "uninterruptablePrice",
                                  "minimumBidPrice", "minVcpu", "minMemory", "stockStatus"})
            QVERIFY2(q.contains(QLatin1String(field)), field);
        for (int n = 1; n <= 8; ++n)
            QVERIFY(q.contains(QStringLiteral("gpuCount%1: lowestPrice(input: {gpuCount: %1})").arg(n)));
        QCOMPARE(q.count(u'{'), q.count(u'}'));
    }

    void normalAnswer()
    {
        auto r = parseRunpodGpuTypes(readFixture(QStringLiteral("providers/runpod/gputypes.json")),
                                     QStringLiteral("graphql"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const RunpodAnswer &a = r.value();
        QCOMPARE(a.gpuTypes, 6);
        QCOMPARE(a.malformed.count, 0);
        QCOMPARE(a.notSold, 1); // RTX 3070: no price at any count
        // H100 SXM: 4 counts x 2 clouds; A100: 2 x 2; RTX 4090: 3 x 2; L4: secure only; MI300X: 8 GPUs only.
        QCOMPARE(a.data.offers.size(), 8 + 4 + 6 + 1 + 1);
        const Offer *h = find(a.data.offers, QStringLiteral("8x_H100-SXM_SECURE"));
        QVERIFY(h);
        QCOMPARE(h->provider, QStringLiteral("runpod"));
        QCOMPARE(h->region, QStringLiteral("Secure Cloud"));
        QCOMPARE(h->gpuRawName, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(h->gpuCount, 8.0);
        QCOMPARE(*h->gpuMemGb, 80.0);
        QCOMPARE(*h->onDemandUsdH, 26.32); // 3.29 per GPU-hour x 8
        QCOMPARE(*h->spotUsdH, 16.8);      // secureSpotPrice 2.10 x 8
        QCOMPARE(h->spotLabel, QStringLiteral("spot"));
        QCOMPARE(*h->vcpus, 160.0); // minVcpu 20 per GPU x 8
        QCOMPARE(*h->ramGb, 1000.0);
        QCOMPARE(h->billingIncrementS, 60);
        QVERIFY2(h->source.contains(QStringLiteral("stock High")), qPrintable(h->source));
        const Offer *c = find(a.data.offers, QStringLiteral("2x_H100-SXM_COMMUNITY"));
        QVERIFY(c);
        QCOMPARE(c->region, QStringLiteral("Community Cloud"));
        QCOMPARE(*c->onDemandUsdH, 5.38);
        QCOMPARE(*c->spotUsdH, 3.5);
        QVERIFY(!find(a.data.offers, QStringLiteral("3x_H100-SXM_SECURE"))); // count 3 not priced
        const Offer *a100 = find(a.data.offers, QStringLiteral("1x_A100-PCIe_SECURE"));
        QVERIFY(a100);
        QVERIFY(!a100->spotUsdH); // no secure spot price
        QVERIFY(a100->spotLabel.isEmpty());
        QVERIFY(!find(a.data.offers, QStringLiteral("1x_L4_COMMUNITY")));
        QVERIFY(find(a.data.offers, QStringLiteral("8x_MI300X_SECURE")));
        // Every GPU of the answer is one the GPU list knows.
        for (const Offer &o : a.data.offers)
            QVERIFY2(GpuCatalog::builtin().resolve(o.provider, o.gpuRawName), qPrintable(o.gpuRawName));
        QVERIFY2(a.data.warnings.join(u'|').contains(QStringLiteral("1 GPU types without a price")),
                 qPrintable(a.data.warnings.join(u'|')));
    }

    void fieldOrderDoesNotMatter()
    {
        auto a = parseRunpodGpuTypes(readFixture(QStringLiteral("providers/runpod/gputypes.json")),
                                     QStringLiteral("a"));
        auto b = parseRunpodGpuTypes(readFixture(QStringLiteral("providers/runpod/gputypes-reordered.json")),
                                     QStringLiteral("b"));
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b.value().data.offers.size(), a.value().data.offers.size());
        for (qsizetype i = 0; i < a.value().data.offers.size(); ++i) {
            const Offer &x = a.value().data.offers.at(i);
            const Offer *y = find(b.value().data.offers, x.instanceType);
            QVERIFY2(y, qPrintable(x.instanceType));
            QCOMPARE(y->onDemandUsdH, x.onDemandUsdH);
            QCOMPARE(y->spotUsdH, x.spotUsdH);
            QCOMPARE(y->vcpus, x.vcpus);
        }
    }

    void malformedEntrySkippedAndCounted()
    {
        auto r =
            parseRunpodGpuTypes(readFixture(QStringLiteral("providers/runpod/gputypes-malformed-entry.json")),
                                QStringLiteral("graphql"));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().malformed.count, 2);
        QCOMPARE(r.value().data.offers.size(), 20); // the good types all read
        const QString w = r.value().data.warnings.join(u'|');
        QVERIFY2(
            w.contains(QStringLiteral("2 malformed GPU types skipped (first: gpuTypes[2].securePrice is not "
                                      "a number)")),
            qPrintable(w));
    }

    void malformedAnswers_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("<html>502 Bad Gateway</html>")
                                  << QStringLiteral("invalid JSON");
        QTest::newRow("truncated") << readFixture(QStringLiteral("providers/runpod/gputypes.json")).left(900)
                                   << QStringLiteral("invalid JSON");
        QTest::newRow("no gpuTypes") << QByteArray("{\"data\":{}}")
                                     << QStringLiteral("no data.gpuTypes array");
        QTest::newRow("graphql error") << readFixture(QStringLiteral("providers/runpod/graphql-error.json"))
                                       << QStringLiteral("answered with an error: Cannot query field");
        QTest::newRow("every type malformed")
            << QByteArray("{\"data\":{\"gpuTypes\":[{\"id\":1},{\"id\":\"x\",\"securePrice\":\"1\"}]}}")
            << QStringLiteral("every one of the 2 GPU types is malformed (first: gpuTypes[0] has no id)");
    }
    void malformedAnswers()
    {
        QFETCH(QByteArray, body);
        QFETCH(QString, expected);
        auto r = parseRunpodGpuTypes(body, QStringLiteral("graphql"));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected), qPrintable(r.error().text()));
        QVERIFY2(r.error().text().startsWith(QStringLiteral("graphql")), qPrintable(r.error().text()));
    }

    void emptyAnswerHasNoOffers()
    {
        auto r = parseRunpodGpuTypes(readFixture(QStringLiteral("providers/runpod/gputypes-empty.json")),
                                     QStringLiteral("graphql"));
        QVERIFY(r.ok());
        QCOMPARE(r.value().gpuTypes, 0);
        QVERIFY(r.value().data.offers.isEmpty()); // the price source refuses it (net_refresh)
    }
};

QTEST_GUILESS_MAIN(TestParseRunpod)
#include "test_parse_runpod.moc"

#include "domain/providertables.h"
#include "fixtures.h"
#include "providers/skypilotcatalog.h"

#include <QFile>
#include <QHash>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

SnapshotData parse(const QString &provider, const QString &file)
{
    auto r = parseSkypilotCsv(QString::fromUtf8(readFixture(QStringLiteral("providers/skypilot/") + file)),
                              provider, ProviderTables::builtin(), file);
    if (!r)
        qFatal("%s", qPrintable(r.error().text()));
    return std::move(r).value();
}

/// The bundled snapshot (built from the same SkyPilot files by resources/tools/build_snapshot.py).
SnapshotData bundled(const QString &provider)
{
    QFile f(QStringLiteral(GF_SOURCE_DIR "/resources/catalog/") + provider + QStringLiteral(".csv"));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no bundled catalog");
    return parseSnapshotCsv(QString::fromUtf8(f.readAll()), provider).value();
}

QString key(const Offer &o)
{
    return o.instanceType + u'|' + o.region + u'|' + o.zone;
}

} // namespace

class TestParseSkypilot final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pythonLiterals()
    {
        const auto v =
            parsePythonLiteral(u"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', 'Count': 8, "
                               u"'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 131072}");
        QVERIFY(v);
        const QVariantMap m = v->toMap();
        QCOMPARE(m.value(QStringLiteral("TotalGpuMemoryInMiB")).toDouble(), 131072.0);
        QCOMPARE(
            m.value(QStringLiteral("Gpus")).toList().first().toMap().value(QStringLiteral("Name")).toString(),
            QStringLiteral("V100"));
        QVERIFY(parsePythonLiteral(u"[True, False, None, (1, 2.5), \"it's\"]"));
        QVERIFY(!parsePythonLiteral(u"{'a': }"));
        QVERIFY(!parsePythonLiteral(u"{'a': 1"));
        QVERIFY(!parsePythonLiteral(u"__import__('os')"));
        QVERIFY(!parsePythonLiteral(QString(100, u'[')));
    }

    void awsMatchesTheBundledSnapshot()
    {
        const SnapshotData d = parse(QStringLiteral("aws"), QStringLiteral("aws.csv"));
        const SnapshotData b = bundled(QStringLiteral("aws"));
        QCOMPARE(d.offers.size(), b.offers.size()); // 1722 rows - 8 p5e.48xlarge rows without a price
        QVERIFY(d.warnings.join(u' ').contains(QStringLiteral("8 rows without an on-demand price")));
        QHash<QString, const Offer *> byKey;
        for (const Offer &o : d.offers)
            byKey.insert(key(o), &o);
        for (const Offer &x : b.offers) {
            const Offer *o = byKey.value(key(x));
            QVERIFY2(o, qPrintable(key(x)));
            QCOMPARE(*o->onDemandUsdH, *x.onDemandUsdH);
            QCOMPARE(o->spotUsdH.has_value(), x.spotUsdH.has_value());
            if (x.spotUsdH)
                QCOMPARE(*o->spotUsdH, *x.spotUsdH);
            QCOMPARE(o->gpuRawName, x.gpuRawName);
            QCOMPARE(o->gpuCount, x.gpuCount);
            QCOMPARE(o->gpuMemGb.has_value(), x.gpuMemGb.has_value());
            if (x.gpuMemGb)
                QCOMPARE(*o->gpuMemGb, *x.gpuMemGb);
            QCOMPARE(o->interconnect, x.interconnect);
        }
    }

    void gcpComposesHostAndGpuRows()
    {
        const SnapshotData d = parse(QStringLiteral("gcp"), QStringLiteral("gcp.csv"));
        const SnapshotData b = bundled(QStringLiteral("gcp"));
        QHash<QString, const Offer *> byKey;
        for (const Offer &o : d.offers)
            byKey.insert(key(o), &o);
        int compared = 0;
        for (const Offer &x : b.offers) {
            if (x.instanceType.startsWith(QStringLiteral("n1-")))
                continue; // the bundled N1 rows use list rates: N1 host rows are not in the extract
            const Offer *o = byKey.value(key(x));
            QVERIFY2(o, qPrintable(key(x)));
            QCOMPARE(*o->onDemandUsdH, *x.onDemandUsdH);
            QCOMPARE(o->spotUsdH.has_value(), x.spotUsdH.has_value());
            QCOMPARE(o->gpuCount, x.gpuCount);
            ++compared;
        }
        // 201 composed offers, of which 91 are built on a GPU price of the discounted tier (below 0.6 x the
        // upper-quartile regional price): not imported, as in the bundle (resources/catalog/SOURCES.md).
        QCOMPARE(compared, 110);
        QCOMPARE(d.offers.size(), 110);
        const QString w = d.warnings.join(u'\n');
        QVERIFY(w.contains(QStringLiteral("TPU rows skipped")));
        QVERIFY2(w.contains(QStringLiteral("91 machine/zone offers not imported")), qPrintable(w));
        for (const Offer &o : d.offers) {
            QVERIFY(
                !hasFlag(o.flags, OfferFlag::GpuBelowSpot)); // every R1 row is also in the discounted tier
            QVERIFY2(!(o.region == u"us-central1" && o.instanceType.startsWith(QStringLiteral("a3-"))),
                     qPrintable(key(o)));
        }
    }

    void azureFixesKnownHazards()
    {
        const SnapshotData d = parse(QStringLiteral("azure"), QStringLiteral("azure.csv"));
        QCOMPARE(d.offers.size(), 172); // 187 - 11 *_Promo - 4 without a price
        for (const Offer &o : d.offers) {
            if (o.instanceType == u"Standard_ND96isr_H100_v5")
                QCOMPARE(o.gpuCount, 8.0); // the source says 12
            if (o.instanceType == u"Standard_NV4as_v4")
                QCOMPARE(o.gpuCount, 0.125);
            if (o.gpuRawName == u"H100")
                QVERIFY(!o.spotUsdH); // SpotPrice == Price in the source
        }
        const QString w = d.warnings.join(u'\n');
        QVERIFY2(w.contains(QStringLiteral("11 *_Promo rows skipped")), qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("spot prices equal to on-demand dropped")), qPrintable(w));
    }

    void vastAndPaperspace()
    {
        const SnapshotData v = parse(QStringLiteral("vastai"), QStringLiteral("vast.csv"));
        QCOMPARE(v.offers.size(), 63);
        QStringList names;
        for (const Offer &o : v.offers) {
            names.append(o.gpuRawName);
            QVERIFY(!o.spotUsdH); // SpotPrice 0.00 is not a price
            QVERIFY(!o.vcpus);    // 32/64 is SkyPilot's request, not the host
        }
        QVERIFY(names.contains(QStringLiteral("H100 SXM")));
        QVERIFY(names.contains(QStringLiteral("RTX 6000Ada")));
        const SnapshotData p = parse(QStringLiteral("paperspace"), QStringLiteral("paperspace.csv"));
        QCOMPARE(p.offers.size(), 14);
        QCOMPARE(bundled(QStringLiteral("paperspace")).offers.size(), 14);
    }

    void rejects()
    {
        auto lambda =
            parseSkypilotCsv(QStringLiteral("InstanceType,AcceleratorName,Price,Region\n"),
                             QStringLiteral("lambda"), ProviderTables::builtin(), QStringLiteral("vms.csv"));
        QVERIFY(!lambda.ok());
        QVERIFY(lambda.error().text().contains(QStringLiteral("not one of GPU Frontier's providers")));
        auto notSky = parseSkypilotCsv(QStringLiteral("a,b\n1,2\n"), QStringLiteral("aws"),
                                       ProviderTables::builtin(), QStringLiteral("x.csv"));
        QVERIFY(!notSky.ok());
        auto badNumber =
            parseSkypilotCsv(QStringLiteral("InstanceType,AcceleratorName,AcceleratorCount,Price,Region\np3."
                                            "2xlarge,V100,1,cheap,us-east-1\n"),
                             QStringLiteral("aws"), ProviderTables::builtin(), QStringLiteral("x.csv"));
        QVERIFY(!badNumber.ok());
        QVERIFY2(badNumber.error().text().contains(QStringLiteral("line 2: \"cheap\" is not a number")),
                 qPrintable(badNumber.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestParseSkypilot)
#include "test_parse_skypilot.moc"

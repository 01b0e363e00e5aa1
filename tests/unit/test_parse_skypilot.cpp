#include "domain/providertables.h"
#include "fixtures.h"
#include "providers/skypilotcatalog.h"

#include <QBuffer>
#include <QFile>
#include <QHash>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

/// Keeps the offers, and for each where the reader was in the file when it arrived.
class PositionSink final : public OfferSink
{
public:
    explicit PositionSink(const QIODevice &device) : m_device(device) {}
    Status begin(const SnapshotData &) override { return Ok{}; }
    Status add(Offer &&offer) override
    {
        positions.append(m_device.pos());
        offers.append(std::move(offer));
        return Ok{};
    }
    QList<qint64> positions;
    QList<Offer> offers;

private:
    const QIODevice &m_device;
};

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

/// Every bundled AWS row from `commit`'s file equals what the parser reads from that file; `compared` counts
/// them.
void compareWithBundle(const SnapshotData &d, const QString &commit, int &compared)
{
    const SnapshotData b = bundled(QStringLiteral("aws"));
    QHash<QString, const Offer *> byKey;
    for (const Offer &o : d.offers)
        byKey.insert(key(o), &o);
    compared = 0;
    for (const Offer &x : b.offers) {
        if (!x.source.contains(commit))
            continue;
        ++compared;
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
        // The bundle holds the 2026 rows and, where the 2026 files have none, the 2025 extract's rows
        // (resources/catalog/SOURCES.md): each part must be what the parser reads from its own file.
        for (const auto &[file, commit] :
             {std::pair{QStringLiteral("aws.csv"), QStringLiteral("e385a0d")},
              std::pair{QStringLiteral("aws-2026.csv"), QStringLiteral("2c3d7ea")}}) {
            const SnapshotData d = parse(QStringLiteral("aws"), file);
            if (commit == u"e385a0d") // 1722 rows - 8 p5e.48xlarge rows without a price
                QVERIFY(d.warnings.join(u' ').contains(QStringLiteral("8 rows without an on-demand price")));
            int compared = 0;
            compareWithBundle(d, commit, compared);
            if (QTest::currentTestFailed())
                return;
            QVERIFY2(compared > 100, qPrintable(file));
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
        int fallbackRows = 0;
        for (const Offer &x : b.offers) {
            if (x.instanceType.startsWith(QStringLiteral("n1-")))
                continue; // the bundled N1 rows use list rates: N1 host rows are not in the extract
            if (!x.source.contains(QStringLiteral("8427bbf")))
                continue; // a 2026 row (the 2025 extract's rows are the fallback where 2026 has none)
            ++fallbackRows;
            const Offer *o = byKey.value(key(x));
            QVERIFY2(o, qPrintable(key(x)));
            QCOMPARE(*o->onDemandUsdH, *x.onDemandUsdH);
            QCOMPARE(o->spotUsdH.has_value(), x.spotUsdH.has_value());
            QCOMPARE(o->gpuCount, x.gpuCount);
            ++compared;
        }
        // 201 composed offers, of which 91 are built on a GPU price of the discounted tier (below 0.6 x the
        // upper-quartile regional price): not imported, as in the bundle (resources/catalog/SOURCES.md).
        QCOMPARE(compared, fallbackRows);
        QVERIFY(compared > 0);
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

    void cloudsReadOnlyThroughSkypilot()
    {
        // Lambda (v9): one price everywhere, no spot, GpuInfo memory per GPU.
        const SnapshotData l = parse(QStringLiteral("lambda"), QStringLiteral("lambda.csv"));
        QCOMPARE(l.offers.size(), 6);
        for (const Offer &o : l.offers) {
            QVERIFY(!o.spotUsdH);
            QCOMPARE(o.billingIncrementS, 60);
            if (o.instanceType == u"gpu_8x_h100_sxm5") {
                QCOMPARE(*o.onDemandUsdH, 31.92);
                QCOMPARE(o.gpuCount, 8.0);
                QCOMPARE(*o.gpuMemGb, 80.0);
                QCOMPARE(*o.vcpus, 208.0);
            }
        }
        // RunPod (v8): its own column order (SpotPrice before Price, AvailabilityZone after them); SpotPrice
        // equal to Price on every row is not a spot price; the memory comes from the datasheet, not GpuInfo's
        // "80" (GB written as MiB).
        const SnapshotData r = parse(QStringLiteral("runpod"), QStringLiteral("runpod.csv"));
        QCOMPARE(r.offers.size(), 6);
        for (const Offer &o : r.offers) {
            QVERIFY(!o.spotUsdH);
            QVERIFY(!o.zone.isEmpty());
            if (o.gpuRawName == u"H100-SXM") {
                QCOMPARE(*o.onDemandUsdH, 26.32);
                QCOMPARE(*o.gpuMemGb, 80.0);
            }
        }
        QVERIFY(r.warnings.join(u' ').contains(QStringLiteral("6 spot prices equal to on-demand dropped")));
        // Nebius (v9): a real spot (preemptible) price below on-demand keeps the provider's name for it.
        const SnapshotData n = parse(QStringLiteral("nebius"), QStringLiteral("nebius.csv"));
        QCOMPARE(n.offers.size(), 2);
        QCOMPARE(*n.offers.first().onDemandUsdH, 23.60);
        QCOMPARE(*n.offers.first().spotUsdH, 10.0);
        QCOMPARE(n.offers.first().spotLabel, QStringLiteral("preemptible"));
        QCOMPARE(*n.offers.first().gpuMemGb, 80.0); // GpuInfo says 0
        // Seeweb (v9): CPU rows and GPU rows without a region are skipped and counted, not fatal.
        const SnapshotData s = parse(QStringLiteral("seeweb"), QStringLiteral("seeweb.csv"));
        QCOMPARE(s.offers.size(), 2);
        QCOMPARE(*s.offers.first().onDemandUsdH, 1.25);
        const QString w = s.warnings.join(u'\n');
        QVERIFY2(w.contains(QStringLiteral("1 rows without a region skipped")), qPrintable(w));
        QVERIFY2(w.contains(QStringLiteral("1 rows without an accelerator skipped")), qPrintable(w));
        // Oracle (v9, AvailabilityZone column), Fluidstack (v9, the whole file).
        QCOMPARE(parse(QStringLiteral("oci"), QStringLiteral("oci.csv")).offers.size(), 2);
        const SnapshotData f = parse(QStringLiteral("fluidstack"), QStringLiteral("fluidstack.csv"));
        QCOMPARE(f.offers.size(), 1);
        QCOMPARE(*f.offers.first().onDemandUsdH, 23.92);
        // Lambda's region names look like AWS's ("us-east-1"): not mistaken for another provider's file.
        QVERIFY(l.offers.first().region.contains(u'-'));
    }

    void columnOrderDoesNotMatter()
    {
        // The same Lambda rows with the columns reversed read the same.
        const QString text = QString::fromUtf8(readFixture(QStringLiteral("providers/skypilot/lambda.csv")));
        QStringList lines = text.split(u'\n', Qt::SkipEmptyParts);
        QStringList reversed;
        for (const QString &line : std::as_const(lines)) {
            QStringList fields;
            QString cur;
            bool quoted = false;
            for (QChar c : line) {
                if (c == u'"')
                    quoted = !quoted;
                if (c == u',' && !quoted) {
                    fields.prepend(cur);
                    cur.clear();
                } else {
                    cur.append(c);
                }
            }
            fields.prepend(cur);
            reversed.append(fields.join(u','));
        }
        auto a =
            parseSkypilotCsv(text, QStringLiteral("lambda"), ProviderTables::builtin(), QStringLiteral("a"));
        auto b = parseSkypilotCsv(reversed.join(u'\n') + u'\n', QStringLiteral("lambda"),
                                  ProviderTables::builtin(), QStringLiteral("b"));
        QVERIFY(a.ok());
        QVERIFY2(b.ok(), qPrintable(b.ok() ? QString() : b.error().text()));
        QCOMPARE(b.value().offers.size(), a.value().offers.size());
        for (qsizetype i = 0; i < a.value().offers.size(); ++i) {
            QCOMPARE(b.value().offers.at(i).instanceType, a.value().offers.at(i).instanceType);
            QCOMPARE(*b.value().offers.at(i).onDemandUsdH, *a.value().offers.at(i).onDemandUsdH);
            QCOMPARE(b.value().offers.at(i).region, a.value().offers.at(i).region);
        }
    }

    void bundledNewCloudsMatchTheParser()
    {
        // resources/tools/build_snapshot.py and the live parser read the same SkyPilot file alike.
        const SnapshotData d = parse(QStringLiteral("fluidstack"), QStringLiteral("fluidstack.csv"));
        const SnapshotData b = bundled(QStringLiteral("fluidstack"));
        QCOMPARE(b.offers.size(), d.offers.size());
        QCOMPARE(*b.offers.first().onDemandUsdH, *d.offers.first().onDemandUsdH);
        QCOMPARE(b.offers.first().gpuRawName, d.offers.first().gpuRawName);
        QCOMPARE(b.offers.first().billingIncrementS, d.offers.first().billingIncrementS);
    }

    // A catalog streams into the sink: each offer is given while the file is being read (a 1 MB block at a
    // time), not after the whole file; the offers and warnings are those of the whole-catalog parse.
    void offersStreamAsTheFileIsRead()
    {
        const int rows = 50000;
        QByteArray text = skypilotLambdaCatalog(rows);
        QVERIFY(text.size() > 8 * 1024 * 1024);
        QBuffer buffer(&text);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        PositionSink sink(buffer);
        auto meta = parseSkypilotCsv(buffer, QStringLiteral("lambda"), ProviderTables::builtin(),
                                     QStringLiteral("big.csv"), InputLimits{}, sink);
        QVERIFY2(meta.ok(), qPrintable(meta.ok() ? QString() : meta.error().text()));
        QCOMPARE(sink.offers.size(), rows);
        QVERIFY(meta.value().offers.isEmpty());
        // At most one block's rows arrive at one reading position: what is held does not grow with the file.
        QHash<qint64, int> atPosition;
        int most = 0;
        for (qint64 p : std::as_const(sink.positions))
            most = std::max(most, ++atPosition[p]);
        QVERIFY2(most <= (1 << 20) / 150, qPrintable(QString::number(most)));
        QVERIFY(atPosition.size() >= 8);
        QVERIFY(sink.positions.first() < text.size() / 4);
        const SnapshotData whole = parseSkypilotCsv(QString::fromUtf8(text), QStringLiteral("lambda"),
                                                    ProviderTables::builtin(), QStringLiteral("big.csv"))
                                       .value();
        QCOMPARE(whole.offers.size(), rows);
        for (int i = 0; i < rows; i += 997) {
            QCOMPARE(sink.offers.at(i).id, whole.offers.at(i).id);
            QCOMPARE(sink.offers.at(i).instanceType, whole.offers.at(i).instanceType);
            QCOMPARE(sink.offers.at(i).onDemandUsdH, whole.offers.at(i).onDemandUsdH);
        }
        QCOMPARE(meta.value().warnings, whole.warnings);
        QCOMPARE(meta.value().description, whole.description);
    }

    // Another cloud's file is refused before any offer is given (the first pass reads every row); so is a
    // malformed row at the end.
    void refusedBeforeAnyOffer()
    {
        QByteArray aws = readFixture(QStringLiteral("providers/skypilot/aws-2026.csv"));
        QBuffer buffer(&aws);
        QVERIFY(buffer.open(QIODevice::ReadOnly));
        PositionSink sink(buffer);
        auto r = parseSkypilotCsv(buffer, QStringLiteral("fluidstack"), ProviderTables::builtin(),
                                  QStringLiteral("aws.csv"), InputLimits{}, sink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(QStringLiteral("named like AWS's offers")),
                 qPrintable(r.error().text()));
        QVERIFY(sink.offers.isEmpty());
        QByteArray cut = skypilotLambdaCatalog(5000) + "gpu_1x_a10_x,A10,1.0\n";
        QBuffer cutBuffer(&cut);
        QVERIFY(cutBuffer.open(QIODevice::ReadOnly));
        PositionSink cutSink(cutBuffer);
        r = parseSkypilotCsv(cutBuffer, QStringLiteral("lambda"), ProviderTables::builtin(),
                             QStringLiteral("cut.csv"), InputLimits{}, cutSink);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(QStringLiteral("line 5002 has 3 fields")),
                 qPrintable(r.error().text()));
        QVERIFY(cutSink.offers.isEmpty());
    }

    // GCP keeps only the rows its offers are composed of, and the first row of each zone: the zones' order
    // (the offers' order) is still that of every row, a CPU-only row included.
    void gcpZoneOrderCountsEveryRow()
    {
        const QByteArray text = readFixture(QStringLiteral("providers/skypilot/gcp.csv"));
        const SnapshotData d = parse(QStringLiteral("gcp"), QStringLiteral("gcp.csv"));
        QVERIFY(d.offers.size() > 10);
        // A zone that is not the first one of the first machine shape: moved first, the order changes.
        const Offer *later = nullptr;
        for (const Offer &o : d.offers)
            if (!later && o.instanceType == d.offers.first().instanceType && o.zone != d.offers.first().zone)
                later = &o;
        QVERIFY(later);
        const Offer &zoneRow = *later;
        const qsizetype eol = text.indexOf('\n') + 1;
        const QByteArray moved = text.left(eol) + "e2-standard-4,4.0,16.0,,,," + zoneRow.region.toUtf8() +
                                 ',' + zoneRow.zone.toUtf8() + ",0.134,0.04\n" + text.mid(eol);
        auto r = parseSkypilotCsv(QString::fromUtf8(moved), QStringLiteral("gcp"), ProviderTables::builtin(),
                                  QStringLiteral("gcp.csv"));
        QVERIFY(r.ok());
        // Expected: the same offers, the zone of the CPU-only row first within each machine shape.
        QList<QString> expected;
        QStringList shapes;
        for (const Offer &o : d.offers)
            if (!shapes.contains(o.instanceType))
                shapes.append(o.instanceType);
        for (const QString &shape : std::as_const(shapes)) {
            for (const Offer &o : d.offers)
                if (o.instanceType == shape && o.zone == zoneRow.zone)
                    expected.append(key(o));
            for (const Offer &o : d.offers)
                if (o.instanceType == shape && o.zone != zoneRow.zone)
                    expected.append(key(o));
        }
        QList<QString> got;
        for (const Offer &o : r.value().offers)
            got.append(key(o));
        QCOMPARE(got, expected);
        QVERIFY(got.first() != key(d.offers.first()));
    }

    void rejects()
    {
        auto coreweave = parseSkypilotCsv(QStringLiteral("InstanceType,AcceleratorName,Price,Region\n"),
                                          QStringLiteral("coreweave"), ProviderTables::builtin(),
                                          QStringLiteral("vms.csv"));
        QVERIFY(!coreweave.ok());
        QVERIFY(coreweave.error().text().contains(QStringLiteral("not one of GPU Frontier's providers")));
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

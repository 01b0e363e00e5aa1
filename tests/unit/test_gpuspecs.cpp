#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "util/resourcefiles.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace Qt::StringLiterals;

namespace {
const QString kHeader = QStringLiteral(
    "# comment\nid,fp32_tflops,tf32_tflops,fp16_tflops,bf16_tflops,fp8_tflops,memory_gb,mem_bw_gbs,tdp_w,"
    "interconnect_gbs,pcie_gen,source\n");
} // namespace

class TestGpuSpecs final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void builtinParses()
    {
        auto r = GpuSpecTable::fromCsv(readResourceText(QStringLiteral("gpu_specs.csv")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QVERIFY(r.value().size() > 50);
        QCOMPARE(GpuSpecTable::builtin().size(), r.value().size());
    }

    // Every canonical GPU of gpus.csv has exactly one spec row, and every row belongs to a GPU.
    void everyGpuHasASpec()
    {
        const GpuCatalog &cat = GpuCatalog::builtin();
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        for (const GpuModel &m : cat.models())
            QVERIFY2(specs.spec(m.id), qPrintable(QStringLiteral("no spec row for %1").arg(m.id)));
        for (const GpuSpec &s : specs.specs())
            QVERIFY2(cat.model(s.id), qPrintable(QStringLiteral("spec row %1 is not in gpus.csv").arg(s.id)));
        QCOMPARE(specs.size(), cat.models().size());
    }

    // Every spec is sane: positive bandwidth and memory, memory equal to gpus.csv, a source,
    // rates ordered the way the hardware is (tensor >= vector where both exist).
    void everySpecIsSane()
    {
        const GpuCatalog &cat = GpuCatalog::builtin();
        for (const GpuSpec &s : GpuSpecTable::builtin().specs()) {
            QVERIFY2(validateGpuSpec(s).ok(), qPrintable(s.id));
            QVERIFY2(s.memBandwidthGbs > 10 && s.memBandwidthGbs < 20000, qPrintable(s.id));
            QVERIFY2(!s.source.isEmpty(), qPrintable(s.id));
            if (const GpuModel *m = cat.model(s.id))
                QVERIFY2(std::abs(m->memoryGb - s.memoryGb) < 0.5, qPrintable(s.id));
            for (double v : s.peakTflops)
                QVERIFY2(v >= 0 && v < 10000, qPrintable(s.id));
            if (s.peak(Precision::Fp16) > 0 && s.peak(Precision::Fp32) > 0)
                QVERIFY2(s.peak(Precision::Fp16) >= s.peak(Precision::Fp32), qPrintable(s.id));
            if (s.peak(Precision::Fp8) > 0 && s.peak(Precision::Bf16) > 0)
                QVERIFY2(s.peak(Precision::Fp8) >= s.peak(Precision::Bf16), qPrintable(s.id));
            QVERIFY2(s.pcieGen >= 0 && s.pcieGen <= 6, qPrintable(s.id));
        }
    }

    void knownRow()
    {
        const GpuSpec *h = GpuSpecTable::builtin().spec(QStringLiteral("h100-80gb-sxm"));
        QVERIFY(h);
        QCOMPARE(h->peak(Precision::Bf16), 989.4);
        QCOMPARE(h->memBandwidthGbs, 3350.0);
        QCOMPARE(h->interconnectGbs, 900.0);
        QCOMPARE(h->pcieGen, 5);
        QCOMPARE(h->l2CacheMb, 50.0);
        // The A10G's tensor rate with FP32 accumulate (what mixed precision uses) is half the
        // full-rate GA102 figure the table held before.
        const GpuSpec *a10g = GpuSpecTable::builtin().spec(QStringLiteral("a10g"));
        QVERIFY(a10g);
        QCOMPARE(a10g->peak(Precision::Fp16), 70.0);
        QCOMPARE(a10g->peak(Precision::Tf32), 35.0);
        // A table without the optional l2_cache_mb column (kHeader) still parses, with 0 = unknown.
        auto old = GpuSpecTable::fromCsv(kHeader + u"x,1,,,,,16,500,,,4,test\n"_s);
        QVERIFY(old.ok());
        QCOMPARE(old.value().spec(QStringLiteral("x"))->l2CacheMb, 0.0);
        QVERIFY(!GpuSpecTable::builtin().spec(QStringLiteral("no-such-gpu")));
        QCOMPARE(GpuSpecTable::builtin().indexOf(QStringLiteral("no-such-gpu")), qsizetype(-1));
    }

    void fallback_data()
    {
        QTest::addColumn<QString>("row");
        QTest::addColumn<QString>("wanted");
        QTest::addColumn<QString>("used"); // empty = no rate
        // columns: fp32,tf32,fp16,bf16,fp8
        QTest::newRow("bf16 present") << u"10,20,40,40,80"_s << u"bf16"_s << u"bf16"_s;
        QTest::newRow("bf16 -> fp16 (V100)") << u"15.7,,125,,"_s << u"bf16"_s << u"fp16"_s;
        QTest::newRow("bf16 -> fp32 (P40)") << u"11.8,,,,"_s << u"bf16"_s << u"fp32"_s;
        QTest::newRow("fp16 -> bf16 (TPU)") << u",,,45,"_s << u"fp16"_s << u"bf16"_s;
        QTest::newRow("tf32 -> fp32") << u"14,,112,,"_s << u"tf32"_s << u"fp32"_s;
        QTest::newRow("fp8 -> bf16") << u"19.5,156,312,312,"_s << u"fp8"_s << u"bf16"_s;
        QTest::newRow("fp32 missing (TPU)") << u",,,45,"_s << u"fp32"_s << QString();
        QTest::newRow("no rates (Gaudi)") << u",,,,"_s << u"fp16"_s << QString();
    }
    void fallback()
    {
        QFETCH(QString, row);
        QFETCH(QString, wanted);
        QFETCH(QString, used);
        auto t = GpuSpecTable::fromCsv(kHeader + QStringLiteral("g,") + row +
                                       QStringLiteral(",16,900,300,,4,test\n"));
        QVERIFY2(t.ok(), qPrintable(t.ok() ? QString() : t.error().text()));
        const auto p = t.value().spec(QStringLiteral("g"))->effectivePrecision(*precisionFromName(wanted));
        if (used.isEmpty())
            QVERIFY(!p);
        else
            QCOMPARE(precisionName(p.value()), used);
    }

    void malformed_data()
    {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<QString>("expected"); // substring of the message
        QTest::newRow("missing column") << u"id,fp32_tflops\nx,1\n"_s << u"column"_s;
        QTest::newRow("text in number")
            << QString(kHeader + u"x,abc,,,,,16,900,,,4,s\n"_s) << u"fp32_tflops"_s;
        QTest::newRow("negative") << QString(kHeader + u"x,-1,,,,,16,900,,,4,s\n"_s) << u"fp32_tflops"_s;
        QTest::newRow("question mark") << QString(kHeader + u"x,5?,,,,,16,900,,,4,s\n"_s) << u"fp32_tflops"_s;
        QTest::newRow("nan") << QString(kHeader + u"x,nan,,,,,16,900,,,4,s\n"_s) << u"fp32_tflops"_s;
        QTest::newRow("no bandwidth") << QString(kHeader + u"x,1,,,,,16,,,,4,s\n"_s) << u"mem_bw_gbs"_s;
        QTest::newRow("no memory") << QString(kHeader + u"x,1,,,,,0,900,,,4,s\n"_s) << u"memory_gb"_s;
        QTest::newRow("duplicate") << QString(kHeader + u"x,1,,,,,16,900,,,4,s\nx,1,,,,,16,900,,,4,s\n"_s)
                                   << u"duplicate"_s;
        QTest::newRow("empty id") << QString(kHeader + u",1,,,,,16,900,,,4,s\n"_s) << u"empty id"_s;
        QTest::newRow("fractional pcie") << QString(kHeader + u"x,1,,,,,16,900,,,3.5,s\n"_s) << u"pcie_gen"_s;
        QTest::newRow("pcie out of range") << QString(kHeader + u"x,1,,,,,16,900,,,9,s\n"_s) << u"pcie_gen"_s;
    }
    void malformed()
    {
        QFETCH(QString, csv);
        QFETCH(QString, expected);
        auto t = GpuSpecTable::fromCsv(csv);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().message.contains(expected), qPrintable(t.error().message));
    }

    void insertReplaces()
    {
        GpuSpecTable t;
        GpuSpec s;
        s.id = QStringLiteral("a");
        s.memoryGb = 16;
        s.memBandwidthGbs = 100;
        s.peakTflops[0] = 1;
        QVERIFY(t.insert(s).ok());
        s.peakTflops[0] = 2;
        QVERIFY(t.insert(s).ok());
        QCOMPARE(t.size(), qsizetype(1));
        QCOMPARE(t.spec(QStringLiteral("a"))->peak(Precision::Fp32), 2.0);
        s.memBandwidthGbs = -1;
        QVERIFY(!t.insert(s).ok());
    }

    void precisionNamesRoundTrip()
    {
        for (const QString &n : precisionNames())
            QCOMPARE(precisionName(*precisionFromName(n)), n);
        QCOMPARE(precisionFromName(u" BF16 "), std::optional<Precision>(Precision::Bf16));
        QVERIFY(!precisionFromName(u"int8"));
    }
};

QTEST_APPLESS_MAIN(TestGpuSpecs)
#include "test_gpuspecs.moc"

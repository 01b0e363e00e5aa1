// Probe calibration through model v2: a probe run calibrates the probed GPU consistently with the fitted
// model. The anchors were fitted on the datasheet-based rates of typical machines, so the probe enters as
// this machine's figures over a typical machine's (the sustained fractions of PROJECTION.md section 2): a
// typical probe changes nothing, a slower machine is slower by what the probe measured, and a GPU in the
// measured tier is not pushed below its own measurement by the mere fact that sustained figures are below
// the datasheet.
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "fixtures.h"
#include "probe/probejson.h"
#include "projection/offerprojection.h"
#include "projection/speedmodel.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

const QString kH100 = u"h100-80gb-sxm"_s;

const GpuSpec &h100()
{
    const GpuSpec *s = GpuSpecTable::builtin().spec(kH100);
    if (!s)
        qFatal("no H100 spec row");
    return *s;
}

/// A probe of the H100 that measured every precision and the bandwidth at `fraction` x the typical
/// sustained figures (fraction 1: a typical machine).
Calibration probeAt(double fraction)
{
    Calibration c = defaultCalibration();
    c.measured = true;
    c.probedGpuId = kH100;
    c.source = u"test probe"_s;
    for (int i = 0; i < kPrecisionCount; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const double peak = h100().peak(static_cast<Precision>(i));
        c.computeEfficiency[k] = fraction * kDefaultComputeEfficiency[k];
        c.measuredTflops[k] = peak > 0 ? c.computeEfficiency[k] * peak : 0;
    }
    c.memoryEfficiency = fraction * kDefaultMemoryEfficiency;
    c.measuredMemBandwidthGbs = c.memoryEfficiency * h100().memBandwidthGbs;
    return c;
}

/// The tuned stack's speed: the probe scales the GPU's rates, so it is exactly proportional to them (the
/// typical stack adds a per-sample overhead that a GPU probe does not measure: test_typicalstack).
SingleGpuSpeed speedOf(const Workload &typical, const GpuSpec &g, const Calibration &c)
{
    Workload w = typical;
    w.stack = SoftwareStack::Tuned;
    const SpeedModel &m = SpeedModel::builtin();
    return m.project(g, w, m.anchorsFor(w, {}, GpuSpecTable::builtin()), c);
}

bool close(double a, double b, double tol = 1e-12)
{
    return std::abs(a / b - 1) <= tol;
}

} // namespace

class TestProbeCalibration final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A typical machine (the probe measures the typical sustained fractions) projects exactly as the
    // datasheet-only model, in every tier: the measured-converted ResNet-50 anchor of the H100 stays.
    void typicalProbeChangesNothing_data()
    {
        QTest::addColumn<QString>("workload");
        for (const Workload &w : builtinWorkloads())
            QTest::newRow(qPrintable(w.id)) << w.id;
    }
    void typicalProbeChangesNothing()
    {
        QFETCH(QString, workload);
        const Workload &w = *findWorkload(builtinWorkloads(), workload);
        const SingleGpuSpeed plain = speedOf(w, h100(), defaultCalibration());
        const SingleGpuSpeed probed = speedOf(w, h100(), probeAt(1.0));
        QVERIFY(plain.ok && probed.ok);
        QVERIFY(probed.probeCalibrated);
        QVERIFY(!plain.probeCalibrated);
        QVERIFY2(close(probed.samplesPerS, plain.samplesPerS),
                 qPrintable(u"%1 vs %2"_s.arg(probed.samplesPerS).arg(plain.samplesPerS)));
        QCOMPARE(probed.tier, plain.tier);
        QCOMPARE(probed.range.p10, plain.range.p10);
        QCOMPARE(probed.range.p90, plain.range.p90);
        QVERIFY(probed.basis.contains(u"probe"_s));
    }

    // A machine at 60 % of the typical GEMM rate and bandwidth: the model's speed of that GPU is 60 % of the
    // unprobed one (compute and memory time both scale), the tier and range are kept; other GPUs unchanged.
    void slowMachineIsSlowerByWhatItMeasured()
    {
        for (const Workload &w : builtinWorkloads()) {
            const SingleGpuSpeed plain = speedOf(w, h100(), defaultCalibration());
            const SingleGpuSpeed probed = speedOf(w, h100(), probeAt(0.6));
            QVERIFY2(close(probed.samplesPerS, 0.6 * plain.samplesPerS, 1e-9), qPrintable(w.id));
            QCOMPARE(probed.tier, plain.tier);
            QVERIFY(close(probed.probeComputeFactor, 0.6) && close(probed.probeMemoryFactor, 0.6));
            const GpuSpec *a100 = GpuSpecTable::builtin().spec(u"a100-80gb-sxm4"_s);
            QVERIFY(a100);
            QCOMPARE(speedOf(w, *a100, probeAt(0.6)).samplesPerS,
                     speedOf(w, *a100, defaultCalibration()).samplesPerS);
        }
    }

    // The shipped H100 probe (tests/fixtures/probe/cuda_h100.json: bf16 745 of 989 TFLOP/s = 0.753, copy
    // 3006 of 3350 GB/s = 0.897): a slightly better than typical machine. Every preset's speed moves by
    // a factor between the compute factor (0.753 / 0.75) and the memory factor (0.897 / 0.85), never
    // below the datasheet-only projection: the GPU's measured anchors are not undercut.
    void shippedProbe()
    {
        const auto probe = parseProbeJson(readFixture(u"probe/cuda_h100.json"_s));
        QVERIFY(probe.ok());
        const Calibration c =
            calibrationFromProbe(probe.value(), GpuSpecTable::builtin(), GpuCatalog::builtin());
        QCOMPARE(c.probedGpuId, kH100);
        const double memory = c.memoryEfficiency / kDefaultMemoryEfficiency;
        QVERIFY(memory > 1.0);
        for (const Workload &w : builtinWorkloads()) {
            const SingleGpuSpeed plain = speedOf(w, h100(), defaultCalibration());
            const SingleGpuSpeed probed = speedOf(w, h100(), c);
            QVERIFY(probed.probeCalibrated);
            const double compute =
                c.compute(probed.precisionUsed) /
                kDefaultComputeEfficiency[std::size_t(precisionIndex(probed.precisionUsed))];
            QVERIFY(close(probed.probeComputeFactor, compute) && close(probed.probeMemoryFactor, memory));
            const double ratio = probed.samplesPerS / plain.samplesPerS;
            QVERIFY2(ratio >= std::min(compute, memory) - 1e-12 && ratio <= std::max(compute, memory) + 1e-12,
                     qPrintable(u"%1: x%2 outside [%3, %4]"_s.arg(w.id).arg(ratio).arg(compute).arg(memory)));
            QVERIFY2(ratio >= 1.0, qPrintable(w.id));
            QCOMPARE(probed.tier, plain.tier);
        }
        // The measured-converted ResNet-50 anchor of the H100 (MLPerf x 0.711 = 5297 images/s at its batch)
        // is not undercut through projectOffers either, and the point says it was probe-calibrated.
        const Workload &rn = *findWorkload(builtinWorkloads(), u"resnet50"_s);
        Offer o;
        o.provider = u"aws"_s;
        o.instanceType = u"p5.4xlarge"_s;
        o.region = u"us-east-1"_s;
        o.gpuId = kH100;
        o.gpuRawName = u"H100"_s;
        o.gpuCount = 1;
        o.vcpus = 64;
        o.onDemandUsdH = 4.0;
        ProjectionOptions opt;
        opt.spotPolicy = SpotPolicy::OnDemandOnly;
        const QList<ProjectedOffer> plain = projectOffers({o}, rn, opt, defaultCalibration());
        const QList<ProjectedOffer> probed = projectOffers({o}, rn, opt, c);
        QCOMPARE(probed.size(), 1);
        QVERIFY(probed.at(0).probeCalibrated && !plain.at(0).probeCalibrated);
        QCOMPARE(probed.at(0).tier, ProjectionTier::MeasuredConverted);
        QVERIFY(probed.at(0).samplesPerS >= plain.at(0).samplesPerS);
    }

    // The real runs of 2026-11-26 (a lent H200 and H100, tests/fixtures/probe/<gpu>-2026-11-26/full.json)
    // calibrate the GPU they ran on: the probed GPU resolves from the device name, and the factors are
    // the measured rates over the datasheet's, relative to the typical sustained fractions.
    void realGpuRuns_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpuId");
        QTest::newRow("h200") << u"probe/h200-2026-11-26/full.json"_s << u"h200-141gb-sxm"_s;
        QTest::newRow("h100") << u"probe/h100-2026-11-26/full.json"_s << kH100;
    }
    void realGpuRuns()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpuId);
        const auto probe = parseProbeJson(readFixture(file));
        QVERIFY2(probe.ok(), probe.ok() ? "" : qPrintable(probe.error().message));
        const GpuSpec *spec = GpuSpecTable::builtin().spec(gpuId);
        QVERIFY(spec);
        const Calibration c =
            calibrationFromProbe(probe.value(), GpuSpecTable::builtin(), GpuCatalog::builtin());
        QCOMPARE(c.probedGpuId, gpuId);
        QVERIFY(c.measured);
        const auto bf16 = static_cast<std::size_t>(precisionIndex(Precision::Bf16));
        QCOMPARE(c.measuredTflops[bf16], *probe.value().bf16Tflops);
        QCOMPARE(c.measuredMemBandwidthGbs, *probe.value().memBandwidthGbs);
        // Sustained over datasheet: within what a healthy card of that model gives (the units are right).
        const double bf16Fraction = *probe.value().bf16Tflops / spec->peak(Precision::Bf16);
        const double memFraction = *probe.value().memBandwidthGbs / spec->memBandwidthGbs;
        QVERIFY2(bf16Fraction > 0.6 && bf16Fraction < 1.0, qPrintable(u"bf16 %1"_s.arg(bf16Fraction)));
        QVERIFY2(memFraction > 0.8 && memFraction < 1.0, qPrintable(u"memory %1"_s.arg(memFraction)));
        const Workload &rn = *findWorkload(builtinWorkloads(), u"resnet50"_s);
        const SingleGpuSpeed probed = speedOf(rn, *spec, c);
        QVERIFY(probed.ok && probed.probeCalibrated);
    }
};

QTEST_GUILESS_MAIN(TestProbeCalibration)
#include "test_probecalibration.moc"

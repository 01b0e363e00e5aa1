// The real CUDA probe on a real GPU, end to end: ProbeRunner runs gpufrontier-probe --quick, the
// document parses, every GEMM matched its reference, and the run calibrates the projection.
// Label gpu: CI has no GPU and excludes it; on a machine without a CUDA device (exit 2) or without
// the CUDA toolkit at build time (no probe binary) every function is skipped.

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "probe/proberunner.h"
#include "projection/projection.h"
#include "testsupport.h"

#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

using namespace gf;
using namespace gf::test;

class TestCudaProbe final : public QObject
{
    Q_OBJECT

    std::optional<ProbeOutcome> m_quick;

private Q_SLOTS:
    void initTestCase()
    {
        const QString exe = builtExecutable(QStringLiteral("gpufrontier-probe"));
        if (!QFileInfo(exe).isExecutable())
            QSKIP("gpufrontier-probe was not built (no CUDA toolkit at configure time)");
        ProbeRunner runner;
        runner.setTimeoutMs(280000);
        QSignalSpy finished(&runner, &ProbeRunner::finished);
        QVERIFY(runner.start(exe, {QStringLiteral("--quick")}));
        QVERIFY(finished.wait(290000));
        m_quick = finished.at(0).at(0).value<ProbeOutcome>();
        if (m_quick->status == ProbeStatus::NoDevice)
            QSKIP("no usable CUDA device on this machine (the probe exited 2)");
    }

    void quickRunMeasuresTheDevice()
    {
        const ProbeOutcome &o = *m_quick;
        QVERIFY2(o.ok(), qPrintable(o.error.text() + u'\n' + o.stderrTail));
        const ProbeResult &r = *o.result;
        QCOMPARE(r.kind, QStringLiteral("cuda"));
        QVERIFY(r.quick);
        QVERIFY(!r.deviceName.isEmpty());
        QVERIFY(r.smCount > 0);
        QVERIFY(r.memoryGb > 1);
        QVERIFY(r.fp32Tflops.value_or(0) > 0);
        QVERIFY(r.fp16Tflops.value_or(0) > r.fp32Tflops.value_or(0)); // tensor cores
        QVERIFY(r.memBandwidthGbs.value_or(0) > 100);
        QVERIFY(!r.gemms.isEmpty());
        for (const ProbeGemm &g : r.gemms) {
            QVERIFY2(g.tflops > 0, qPrintable(g.dtype));
            // The probe exits 3 when a check fails, so an ok run has every checked type within
            // its tolerance; the error is still reported per type.
            if (g.maxRelError)
                QVERIFY2(*g.maxRelError < 0.1, qPrintable(g.dtype));
        }
    }

    void runCalibratesTheProjection()
    {
        const ProbeResult &r = *m_quick->result;
        const Calibration c = calibrationFromProbe(r, GpuSpecTable::builtin(), GpuCatalog::builtin());
        if (!c.measured)
            QSKIP(qPrintable(QStringLiteral("the probed GPU \"%1\" has no spec row: %2")
                                 .arg(r.deviceName, c.notes.join(QStringLiteral("; ")))));
        QVERIFY(!c.probedGpuId.isEmpty());
        for (int i = 0; i < kPrecisionCount; ++i) {
            const double e = c.computeEfficiency[static_cast<std::size_t>(i)];
            QVERIFY2(e >= kMinEfficiency && e <= kMaxEfficiency, qPrintable(QString::number(e)));
        }
        QVERIFY(c.memoryEfficiency > 0.3 && c.memoryEfficiency <= kMaxEfficiency);
    }
};

QTEST_GUILESS_MAIN(TestCudaProbe)
#include "test_cudaprobe.moc"

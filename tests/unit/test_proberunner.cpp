#include "fixtures.h"
#include "probe/proberunner.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

/// Runs the probe to its end and returns the outcome (fails the test when nothing arrives).
ProbeOutcome runToEnd(ProbeRunner &runner, const QString &program, const QStringList &args, int waitMs,
                      QList<QList<QVariant>> *progress = nullptr)
{
    QSignalSpy finished(&runner, &ProbeRunner::finished);
    QSignalSpy progressSpy(&runner, &ProbeRunner::progress);
    if (!runner.start(program, args))
        return {};
    if (finished.isEmpty() && !finished.wait(waitMs))
        return {};
    if (progress)
        *progress = progressSpy;
    return finished.at(0).at(0).value<ProbeOutcome>();
}

/// A fake probe script of tests/fixtures/probe, run through /bin/sh (no exec bit needed).
QStringList script(const QString &name)
{
    return {fixturePath(QStringLiteral("probe/") + name)};
}

const QString kSh = QStringLiteral("/bin/sh");

} // namespace

class TestProbeRunner final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCpuProbe()
    {
        const QString exe = builtExecutable(QStringLiteral("gpufrontier-cpuprobe"));
        QVERIFY2(QFileInfo(exe).isExecutable(), qPrintable(exe));
        ProbeRunner runner;
        runner.setTimeoutMs(280000);
        QList<QList<QVariant>> progress;
        const ProbeOutcome o = runToEnd(runner, exe, {QStringLiteral("--quick")}, 290000, &progress);
        QVERIFY2(o.ok(), qPrintable(o.error.text() + u'\n' + o.stderrTail));
        QCOMPARE(o.exitCode, 0);
        QVERIFY(!o.json.isEmpty());
        const ProbeResult &r = *o.result;
        QCOMPARE(r.schemaVersion, 1);
        QCOMPARE(r.kind, QStringLiteral("cpu"));
        QVERIFY(r.quick);
        QVERIFY(!r.deviceName.isEmpty());
        QVERIFY(r.smCount >= 1);
        QVERIFY(r.memoryGb > 0);
        QVERIFY(r.fp32Tflops.value_or(0) > 0);
        QVERIFY(r.fp64Tflops.value_or(0) > 0);
        QVERIFY(r.memBandwidthGbs.value_or(0) > 0);
        QVERIFY(!r.gemms.isEmpty());
        for (const ProbeGemm &g : r.gemms) {
            QVERIFY(g.tflops > 0);
            QVERIFY(g.maxRelError && *g.maxRelError < 1e-4); // the CPU GEMM matched its reference
        }
        QVERIFY(r.createdAt.isValid());
        QVERIFY(qAbs(r.createdAt.secsTo(QDateTime::currentDateTimeUtc())) < 3600);
        // Progress: from 0 to 1000, never backwards.
        QVERIFY(progress.size() >= 3);
        QCOMPARE(progress.first().at(0).toInt(), 0);
        QCOMPARE(progress.last().at(0).toInt(), 1000);
        int last = -1;
        for (const auto &p : std::as_const(progress)) {
            QVERIFY(p.at(0).toInt() >= last);
            last = p.at(0).toInt();
            QVERIFY(!p.at(1).toString().isEmpty());
        }
    }

    void outcomes_data()
    {
        QTest::addColumn<QString>("fake");
        QTest::addColumn<int>("timeoutMs");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("message");
        QTest::addColumn<QString>("detail");
        QTest::newRow("no device") << QStringLiteral("fake_nodevice.sh") << 30000
                                   << int(ProbeStatus::NoDevice)
                                   << QStringLiteral("No CUDA GPU or NVIDIA driver was found")
                                   << QStringLiteral("No usable CUDA GPU");
        QTest::newRow("cuda error") << QStringLiteral("fake_cudaerror.sh") << 30000
                                    << int(ProbeStatus::DeviceError)
                                    << QStringLiteral("The probe failed: A CUDA call failed")
                                    << QStringLiteral("cudaErrorIllegalAddress");
        QTest::newRow("timeout") << QStringLiteral("fake_hang.sh") << 700 << int(ProbeStatus::Timeout)
                                 << QStringLiteral("did not finish within 0.7 s") << QString();
        QTest::newRow("garbage") << QStringLiteral("fake_garbage.sh") << 30000 << int(ProbeStatus::BadOutput)
                                 << QStringLiteral(
                                        "could not be read: Invalid probe document: it is not valid JSON")
                                 << QString();
        QTest::newRow("crash") << QStringLiteral("fake_crash.sh") << 30000 << int(ProbeStatus::Crashed)
                               << QStringLiteral("crashed") << QString();
        QTest::newRow("usage") << QStringLiteral("fake_usage.sh") << 30000 << int(ProbeStatus::UsageError)
                               << QStringLiteral("rejected its arguments")
                               << QStringLiteral("unknown option");
    }

    void outcomes()
    {
        QFETCH(QString, fake);
        QFETCH(int, timeoutMs);
        QFETCH(int, status);
        QFETCH(QString, message);
        QFETCH(QString, detail);
        ProbeRunner runner;
        runner.setTimeoutMs(timeoutMs);
        QElapsedTimer clock;
        clock.start();
        const ProbeOutcome o = runToEnd(runner, kSh, script(fake) << QStringLiteral("--x"), 30000);
        QCOMPARE(int(o.status), status);
        QVERIFY(!o.ok());
        QVERIFY(!o.result);
        QVERIFY2(o.error.message.contains(message), qPrintable(o.error.message));
        QVERIFY2(o.error.detail.contains(detail), qPrintable(o.error.detail));
        QVERIFY(!o.toResult().ok());
        QVERIFY(!runner.isRunning());
        if (status == int(ProbeStatus::Timeout))
            QVERIFY(clock.elapsed() < 20000); // killed, not waited for
    }

    void progressLines()
    {
        ProbeRunner runner;
        QList<QList<QVariant>> progress;
        const ProbeOutcome o =
            runToEnd(runner, kSh, script(QStringLiteral("fake_progress.sh")), 30000, &progress);
        QVERIFY2(o.ok(), qPrintable(o.error.text()));
        QCOMPARE(o.result->kind, QStringLiteral("cpu"));
        QCOMPARE(progress.size(), 4);
        QCOMPARE(progress.at(0).at(0).toInt(), 0);
        QCOMPARE(progress.at(0).at(1).toString(), QStringLiteral("starting"));
        QCOMPARE(progress.at(1).at(0).toInt(), 250);
        QCOMPARE(progress.at(1).at(1).toString(), QStringLiteral("fp32 GEMM 1024^3"));
        QCOMPARE(progress.at(2).at(0).toInt(), 1000); // 5000 is clamped
        QCOMPARE(progress.at(3).at(1).toString(), QStringLiteral("done"));
        // Other stderr lines are kept for diagnostics, the last one even without a newline.
        QVERIFY(o.stderrTail.contains(QStringLiteral("some diagnostic line")));
        QVERIFY(o.stderrTail.contains(QStringLiteral("progress abc not a number")));
        QVERIFY(o.stderrTail.endsWith(QStringLiteral("last words")));
    }

    void cancel()
    {
        ProbeRunner runner;
        runner.setTimeoutMs(60000);
        QSignalSpy finished(&runner, &ProbeRunner::finished);
        QSignalSpy progress(&runner, &ProbeRunner::progress);
        QElapsedTimer clock;
        clock.start();
        QVERIFY(runner.start(kSh, script(QStringLiteral("fake_hang.sh"))));
        QVERIFY(runner.isRunning());
        QVERIFY(!runner.start(kSh, script(QStringLiteral("fake_hang.sh")))); // one run at a time
        QVERIFY(progress.wait(20000));
        runner.cancel();
        QVERIFY(finished.wait(20000));
        QCOMPARE(finished.size(), 1);
        const auto o = finished.at(0).at(0).value<ProbeOutcome>();
        QCOMPARE(o.status, ProbeStatus::Cancelled);
        QVERIFY(o.error.message.contains(QStringLiteral("cancelled")));
        QVERIFY(clock.elapsed() < 30000);
        QVERIFY(!runner.isRunning());
        // The runner can be used again afterwards.
        const ProbeOutcome again = runToEnd(runner, kSh, script(QStringLiteral("fake_progress.sh")), 30000);
        QVERIFY(again.ok());
    }

    void destroyWhileRunning()
    {
        QElapsedTimer clock;
        clock.start();
        {
            ProbeRunner runner;
            QSignalSpy progress(&runner, &ProbeRunner::progress);
            QVERIFY(runner.start(kSh, script(QStringLiteral("fake_hang.sh"))));
            QVERIFY(progress.wait(20000));
        } // kills the child
        QVERIFY(clock.elapsed() < 30000);
    }

    void notFound_data()
    {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty") << QString() << QStringLiteral("was not found");
        QTest::newRow("missing path")
            << QStringLiteral("/nonexistent/gpufrontier-probe") << QStringLiteral("does not exist");
        QTest::newRow("not executable") << fixturePath(QStringLiteral("probe/nodevice.json"))
                                        << QStringLiteral("is not an executable file");
        QTest::newRow("not on PATH") << QStringLiteral("gpufrontier-no-such-probe-xyz")
                                     << QStringLiteral("could not be started");
    }

    void notFound()
    {
        QFETCH(QString, program);
        QFETCH(QString, message);
        ProbeRunner runner;
        QSignalSpy finished(&runner, &ProbeRunner::finished);
        QVERIFY(runner.start(program));
        QCOMPARE(finished.size(), 0); // never from inside start()
        QVERIFY(finished.wait(10000));
        const auto o = finished.at(0).at(0).value<ProbeOutcome>();
        QCOMPARE(o.status, ProbeStatus::NotFound);
        QVERIFY2(o.error.message.contains(message), qPrintable(o.error.message));
        QVERIFY(!runner.isRunning());
    }

    void findProbe()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString exe = dir.filePath(QStringLiteral("gpufrontier-fakeprobe"));
        const QString plain = dir.filePath(QStringLiteral("gpufrontier-notexec"));
        for (const QString &path : {exe, plain}) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("#!/bin/sh\nexit 0\n");
        }
        QVERIFY(QFile::setPermissions(exe, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        qputenv("GPUFRONTIER_PROBE_DIR", QFile::encodeName(dir.path()));
        QCOMPARE(ProbeRunner::probeSearchDirs().value(0), dir.path());
        QCOMPARE(ProbeRunner::findProbe(QStringLiteral("gpufrontier-fakeprobe")),
                 QFileInfo(exe).absoluteFilePath());
        QVERIFY(ProbeRunner::findProbe(QStringLiteral("gpufrontier-notexec")).isEmpty());
        QVERIFY(ProbeRunner::findProbe(QStringLiteral("gpufrontier-missing")).isEmpty());
        QVERIFY(ProbeRunner::findProbe(QStringLiteral("../gpufrontier-fakeprobe")).isEmpty());
        QVERIFY(ProbeRunner::findProbe(QString()).isEmpty());
        qunsetenv("GPUFRONTIER_PROBE_DIR");
        // In the build tree the CPU probe is found in ../probes relative to this test.
        const QString found = ProbeRunner::findProbe(QStringLiteral("gpufrontier-cpuprobe"));
        QCOMPARE(QFileInfo(found).canonicalFilePath(),
                 QFileInfo(builtExecutable(QStringLiteral("gpufrontier-cpuprobe"))).canonicalFilePath());
    }
};

QTEST_GUILESS_MAIN(TestProbeRunner)
#include "test_proberunner.moc"

#include "cli.h"
#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace Qt::StringLiterals;
using namespace gf::test;

namespace {

/// `gpufrontier-cli --db DB probe ARGS...`.
CliRun probeCli(const QString &db, QStringList args)
{
    args.prepend(QStringLiteral("probe"));
    return cli(db, args);
}

QJsonArray listJson(const QString &db)
{
    const CliRun r =
        probeCli(db, {QStringLiteral("--list"), QStringLiteral("--format"), QStringLiteral("json")});
    if (r.rc != 0)
        qWarning("probe --list failed: %s", qPrintable(r.err));
    return QJsonDocument::fromJson(r.out.toUtf8()).array();
}

/// Sets GPUFRONTIER_PROBE_DIR for the scope of the object.
class ProbeDirOverride
{
public:
    explicit ProbeDirOverride(const QString &dir)
    {
        qputenv("GPUFRONTIER_PROBE_DIR", QFile::encodeName(dir));
    }
    ~ProbeDirOverride() { qunsetenv("GPUFRONTIER_PROBE_DIR"); }
    ProbeDirOverride(const ProbeDirOverride &) = delete;
    ProbeDirOverride &operator=(const ProbeDirOverride &) = delete;
};

bool copyExecutable(const QString &from, const QString &to)
{
    return QFile::copy(from, to) &&
           QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner |
                                         QFile::ReadUser | QFile::ExeUser);
}

} // namespace

class TestCliProbe final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void importThenList()
    {
        TempDb db;
        const CliRun empty = probeCli(db.path(), {});
        QCOMPARE(empty.rc, 0);
        QVERIFY(empty.out.contains(QStringLiteral("No probe runs stored")));

        const CliRun imp = probeCli(
            db.path(), {QStringLiteral("--import"), fixturePath(QStringLiteral("probe/cuda_h100.json"))});
        QVERIFY2(imp.rc == 0, qPrintable(imp.err));
        QVERIFY(imp.out.contains(QStringLiteral("Stored probe run #1 (cuda_h100.json, cuda)")));
        QVERIFY(imp.out.contains(QStringLiteral("NVIDIA H100 80GB HBM3 (h100-80gb-sxm)")));
        QVERIFY(imp.out.contains(QStringLiteral("bf16 745.2")));
        QCOMPARE(countRows(db.path(), QStringLiteral("probe_run")), 1);

        const CliRun cpu = probeCli(db.path(), {QStringLiteral("--import"),
                                                fixturePath(QStringLiteral("probe/cpu_quick.json")),
                                                QStringLiteral("--format"), QStringLiteral("json")});
        QVERIFY2(cpu.rc == 0, qPrintable(cpu.err));
        const QJsonObject stored = QJsonDocument::fromJson(cpu.out.toUtf8()).object();
        QCOMPARE(stored.value(QStringLiteral("id")).toInt(), 2);
        QCOMPARE(stored.value(QStringLiteral("kind")).toString(), QStringLiteral("cpu"));
        QVERIFY(stored.value(QStringLiteral("gpu_id")).isNull());

        const CliRun list = probeCli(db.path(), {QStringLiteral("--list")});
        QCOMPARE(list.rc, 0);
        QVERIFY(list.out.contains(QStringLiteral("NVIDIA H100 80GB HBM3")));
        QVERIFY(list.out.contains(QStringLiteral("cuda_h100.json")));
        QVERIFY(list.out.contains(QStringLiteral("cpu_quick.json")));
        QVERIFY(list.out.contains(QStringLiteral("2 probe run(s).")));

        const QJsonArray runs = listJson(db.path());
        QCOMPARE(runs.size(), 2);
        QJsonObject h100;
        for (const QJsonValue &v : runs)
            if (v.toObject().value(QStringLiteral("kind")).toString() == u"cuda")
                h100 = v.toObject();
        QCOMPARE(h100.value(QStringLiteral("origin")).toString(), QStringLiteral("cuda_h100.json"));
        QCOMPARE(h100.value(QStringLiteral("gpu_id")).toString(), QStringLiteral("h100-80gb-sxm"));
        QCOMPARE(h100.value(QStringLiteral("created_at")).toString(), QStringLiteral("2026-11-22T10:15:02Z"));
        QCOMPARE(h100.value(QStringLiteral("probe"))
                     .toObject()
                     .value(QStringLiteral("summary"))
                     .toObject()
                     .value(QStringLiteral("bf16_tflops"))
                     .toDouble(),
                 745.2);
    }

    // The runs of 2026-11-26 on a lent H200 and H100 (probes/run_on_gpu.sh;
    // tests/fixtures/probe/<gpu>-2026-11-26/): quick and full documents import, the GPU resolves from the
    // name the device reports, and the stored summary is the file's (bf16 GEMM in TFLOP/s, device copy in
    // GB/s: the units the probe writes).
    void importRealGpuRuns_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("gpuId");
        QTest::addColumn<double>("bf16");
        QTest::addColumn<double>("bandwidth");
        QTest::newRow("h200 full") << u"probe/h200-2026-11-26/full.json"_s << u"h200-141gb-sxm"_s << 769.152
                                   << 4335.66;
        QTest::newRow("h200 quick") << u"probe/h200-2026-11-26/quick.json"_s << u"h200-141gb-sxm"_s << 797.14
                                    << 4274.28;
        QTest::newRow("h100 full") << u"probe/h100-2026-11-26/full.json"_s << u"h100-80gb-sxm"_s << 717.251
                                   << 3043.44;
        QTest::newRow("h100 quick") << u"probe/h100-2026-11-26/quick.json"_s << u"h100-80gb-sxm"_s << 0.0
                                    << 0.0;
    }

    void importRealGpuRuns()
    {
        QFETCH(QString, file);
        QFETCH(QString, gpuId);
        QFETCH(double, bf16);
        QFETCH(double, bandwidth);
        const QJsonObject doc = QJsonDocument::fromJson(readFixture(file)).object();
        const QJsonObject summary = doc.value(u"summary"_s).toObject();
        if (bf16 == 0.0) { // the figures as written in that file
            bf16 = summary.value(u"bf16_tflops"_s).toDouble();
            bandwidth = summary.value(u"mem_bandwidth_gbs"_s).toDouble();
        }
        QCOMPARE(summary.value(u"bf16_tflops"_s).toDouble(), bf16);
        QCOMPARE(summary.value(u"mem_bandwidth_gbs"_s).toDouble(), bandwidth);
        TempDb db;
        const CliRun imp = probeCli(db.path(), {u"--import"_s, fixturePath(file)});
        QVERIFY2(imp.rc == 0, qPrintable(imp.err));
        QVERIFY2(imp.out.contains(u"(%1)"_s.arg(gpuId)), qPrintable(imp.out));
        const QJsonArray runs = listJson(db.path());
        QCOMPARE(runs.size(), 1);
        const QJsonObject run = runs.at(0).toObject();
        QCOMPARE(run.value(u"gpu_id"_s).toString(), gpuId);
        const QJsonObject stored = run.value(u"probe"_s).toObject().value(u"summary"_s).toObject();
        QCOMPARE(stored.value(u"bf16_tflops"_s).toDouble(), bf16);
        QCOMPARE(stored.value(u"mem_bandwidth_gbs"_s).toDouble(), bandwidth);
    }

    void badImport_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        QTest::newRow("not json") << fixturePath(QStringLiteral("probe/not_json.txt"))
                                  << QStringLiteral("not valid JSON");
        QTest::newRow("error document") << fixturePath(QStringLiteral("probe/nodevice.json"))
                                        << QStringLiteral("The probe reported an error");
        QTest::newRow("missing") << QStringLiteral("/nonexistent/probe.json")
                                 << QStringLiteral("does not exist");
        QTest::newRow("folder") << fixturePath(QStringLiteral("probe"))
                                << QStringLiteral("not a probe document");
    }

    void badImport()
    {
        QFETCH(QString, file);
        QFETCH(QString, message);
        TempDb db;
        const CliRun r = probeCli(db.path(), {QStringLiteral("--import"), file});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(QStringLiteral("gpufrontier-cli probe: cannot import")), qPrintable(r.err));
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        QVERIFY(countRows(db.path(), QStringLiteral("probe_run")) <= 0);
    }

    void usage_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("cpu without run")
            << QStringList{QStringLiteral("--cpu")} << QStringLiteral("--cpu needs --run");
        QTest::newRow("timeout without run") << QStringList{QStringLiteral("--timeout"), QStringLiteral("5")}
                                             << QStringLiteral("--timeout needs --run");
        QTest::newRow("run and import")
            << QStringList{QStringLiteral("--run"), QStringLiteral("--import"), QStringLiteral("x")}
            << QStringLiteral("cannot be combined");
        QTest::newRow("bad format") << QStringList{QStringLiteral("--format"), QStringLiteral("xml")}
                                    << QStringLiteral("--format");
        QTest::newRow("bad timeout") << QStringList{QStringLiteral("--run"), QStringLiteral("--timeout"),
                                                    QStringLiteral("soon")}
                                     << QStringLiteral("--timeout");
        QTest::newRow("unknown flag") << QStringList{QStringLiteral("--gpu")} << QStringLiteral("--gpu");
        QTest::newRow("positional") << QStringList{QStringLiteral("file.json")}
                                    << QStringLiteral("unexpected argument");
    }

    void usage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        TempDb db;
        const CliRun r = probeCli(db.path(), args);
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
    }

    void help()
    {
        TempDb db;
        const CliRun r = probeCli(db.path(), {QStringLiteral("--help")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(QStringLiteral("--import FILE")));
    }

    void runCpuProbe()
    {
        TempDb db;
        const QString probes =
            QFileInfo(builtExecutable(QStringLiteral("gpufrontier-cpuprobe"))).absolutePath();
        ProbeDirOverride dir(probes);
        const CliRun r = probeCli(
            db.path(), {QStringLiteral("--run"), QStringLiteral("--cpu"), QStringLiteral("--quick")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("Stored probe run #1 (local, cpu)")));
        QVERIFY(r.err.contains(QStringLiteral("[100%] done")));
        const QJsonArray runs = listJson(db.path());
        QCOMPARE(runs.size(), 1);
        QCOMPARE(runs.at(0).toObject().value(QStringLiteral("origin")).toString(), QStringLiteral("local"));
        QVERIFY(runs.at(0)
                    .toObject()
                    .value(QStringLiteral("probe"))
                    .toObject()
                    .value(QStringLiteral("summary"))
                    .toObject()
                    .value(QStringLiteral("fp32_tflops"))
                    .toDouble() > 0);
    }

    void runFallsBackToCpuWithoutGpu()
    {
        // A probe folder whose GPU probe reports "no device" (as on CI) next to the real CPU probe.
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(copyExecutable(fixturePath(QStringLiteral("probe/fake_nodevice.sh")),
                               dir.filePath(QStringLiteral("gpufrontier-probe"))));
        QVERIFY(QFile::copy(fixturePath(QStringLiteral("probe/nodevice.json")),
                            dir.filePath(QStringLiteral("nodevice.json"))));
        QVERIFY(copyExecutable(builtExecutable(QStringLiteral("gpufrontier-cpuprobe")),
                               dir.filePath(QStringLiteral("gpufrontier-cpuprobe"))));
        ProbeDirOverride over(dir.path());
        TempDb db;
        const CliRun r = probeCli(db.path(), {QStringLiteral("--run"), QStringLiteral("--quick"),
                                              QStringLiteral("--timeout"), QStringLiteral("280")});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.err.contains(QStringLiteral("running the CPU probe instead")), qPrintable(r.err));
        QVERIFY(r.out.contains(QStringLiteral("(local, cpu)")));
        QCOMPARE(countRows(db.path(), QStringLiteral("probe_run")), 1);
    }
};

QTEST_GUILESS_MAIN(TestCliProbe)
#include "test_cliprobe.moc"

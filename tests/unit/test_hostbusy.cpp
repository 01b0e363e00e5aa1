// How busy the GPU was in a user's measured step (rule S3, PROJECTION.md section 3.22): the document field
// gpu_busy_fraction read, checked and stored; a host-bound figure carried to other GPUs with its step as a
// floor; the offers flagged; `measure` shows it.
#include "clirun.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "launch/measurementcompare.h"
#include "launch/measurementjson.h"
#include "offerfixture.h"
#include "projection/offerprojection.h"
#include "projection/scenario.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "testsupport.h"
#include "util/resourcefiles.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Workload preset(const QString &id, int batch = 0)
{
    for (const Workload &w : builtinWorkloads())
        if (w.id == id) {
            return batch > 0 ? withBatch(w, batch) : w;
        }
    qFatal("no preset %s", qPrintable(id));
}

SingleGpuSpeed speed(const Workload &w, const QString &gpu, const ThroughputMeasurements &extra)
{
    const SpeedModel &m = SpeedModel::builtin();
    const GpuSpec *s = GpuSpecTable::builtin().spec(gpu);
    if (!s)
        qFatal("no spec %s", qPrintable(gpu));
    return m.project(*s, w, m.anchorsFor(w, extra, GpuSpecTable::builtin()), defaultCalibration());
}

/// `gpus ... --format json` run on `db`: the row of GPU `id` (empty where the output has none).
QJsonObject gpuRow(const QString &db, const QStringList &args, const QString &id)
{
    const CliRun r = cli(db, args);
    for (const QJsonValue &v : QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"gpus"_s).toArray())
        if (v.toObject().value(u"id"_s).toString() == id)
            return v.toObject();
    return {};
}

/// A custom workload measured at `perS` samples/s on `gpu`, with `flops` FLOPs per sample, as a scenario.
Scenario measuredScenario(double perS, const QString &gpu, double flops)
{
    Scenario sc;
    sc.workload.name = u"mine"_s;
    sc.workload.overrides.samplesPerEpoch = 1000;
    sc.workload.overrides.flopsPerSample = flops;
    sc.workload.overrides.measuredSamplesPerS = perS;
    sc.workload.overrides.referenceGpu = gpu;
    return sc;
}

/// `measure --format json` on `db`: its first stored measurement.
QJsonObject firstStoredMeasurement(const QString &db)
{
    const CliRun r = cli(db, {u"measure"_s, u"--format"_s, u"json"_s});
    return QJsonDocument::fromJson(r.out.toUtf8())
        .object()
        .value(u"measurements"_s)
        .toArray()
        .first()
        .toObject();
}

/// `sc` saved without its measured speed and read back: the error (empty where it reads).
QString withoutTheSpeed(const Scenario &sc)
{
    QJsonObject o = scenarioToJson(sc);
    QJsonObject w = o.value(u"workload"_s).toObject();
    w.remove(u"measured_samples_per_s"_s);
    w.remove(u"measured_on"_s);
    o.insert(u"workload"_s, w);
    const auto back = scenarioFromBytes(QJsonDocument(o).toJson());
    return back ? QString() : back.error().text();
}

// The 2026-11-28 H200 point of BERT-large at batch 2 (tests/fixtures/probe/h200-busy-2026-11-28).
ThroughputMeasurement bertOnH200(double busy, int batch = 2, double rate = 43.772)
{
    ThroughputMeasurement m;
    m.workloadId = u"bert-large-squad"_s;
    m.gpuId = u"h200-141gb-sxm"_s;
    m.samplesPerSPerGpu = rate;
    m.batchPerGpu = batch;
    m.precision = u"fp16"_s;
    m.kind = MeasurementKind::User;
    m.source = u"test"_s;
    m.gpuBusyFraction = busy;
    return m;
}

QJsonObject document(const QJsonValue &busy)
{
    QJsonObject o{{u"schema"_s, u"gpufrontier-measurement"_s},
                  {u"schema_version"_s, 1},
                  {u"task"_s, u"t"_s},
                  {u"workload"_s, u"bert-large-squad"_s},
                  {u"gpu_id"_s, u"h200-141gb-sxm"_s},
                  {u"method"_s, u"synthetic"_s},
                  {u"samples_per_s_per_gpu"_s, 43.772},
                  {u"batch_per_gpu"_s, 10},
                  {u"precision"_s, u"fp16"_s},
                  {u"measured_at"_s, u"2026-11-28T09:03:33Z"_s}};
    if (!busy.isUndefined())
        o.insert(u"gpu_busy_fraction"_s, busy);
    return o;
}

} // namespace

class TestHostBusy final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void documentFieldIsReadAndChecked_data()
    {
        QTest::addColumn<QJsonValue>("busy");
        QTest::addColumn<double>("expected"); // < 0: refused
        QTest::newRow("absent") << QJsonValue(QJsonValue::Undefined) << 0.0;
        QTest::newRow("null") << QJsonValue(QJsonValue::Null) << 0.0;
        QTest::newRow("0.381") << QJsonValue(0.381) << 0.381;
        QTest::newRow("1") << QJsonValue(1.0) << 1.0;
        QTest::newRow("zero") << QJsonValue(0.0) << -1.0;
        QTest::newRow("negative") << QJsonValue(-0.2) << -1.0;
        QTest::newRow("a percentage") << QJsonValue(38.1) << -1.0;
        QTest::newRow("text") << QJsonValue(u"38 %"_s) << -1.0;
    }
    void documentFieldIsReadAndChecked()
    {
        QFETCH(QJsonValue, busy);
        QFETCH(double, expected);
        const auto parsed = parseMeasurementFile(QJsonDocument(document(busy)).toJson(), u"run.json"_s,
                                                 GpuCatalog::builtin());
        if (expected < 0) {
            QVERIFY(!parsed);
            QVERIFY2(parsed.error().text().contains(u"run.json"_s), qPrintable(parsed.error().text()));
            QVERIFY2(parsed.error().text().contains(u"gpu_busy_fraction"_s),
                     qPrintable(parsed.error().text()));
            return;
        }
        QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().text()));
        QCOMPARE(parsed.value().first().measurement.gpuBusyFraction, expected);
    }

    // Stored with its document, read back from it.
    void storedAndReadBack()
    {
        TempDb db;
        auto store = db.open();
        const auto parsed = parseMeasurementFile(QJsonDocument(document(0.381)).toJson(), u"run.json"_s,
                                                 GpuCatalog::builtin());
        QVERIFY(parsed);
        const MeasurementDocument &d = parsed.value().first();
        QVERIFY(store->addUserMeasurement(d.measurement, u"/tmp/run.json"_s, d.json));
        const auto records = store->userMeasurements();
        QVERIFY(records);
        QCOMPARE(records.value().size(), 1);
        QCOMPARE(records.value().first().measurement.gpuBusyFraction, 0.381);
        QCOMPARE(gpuBusyText(records.value().first().measurement), u"38 %, host-bound"_s);
        QVERIFY(gpuBusyExplanation(records.value().first().measurement).contains(u"floor"_s));
        ThroughputMeasurement busy = d.measurement;
        busy.gpuBusyFraction = 0.94;
        QCOMPARE(gpuBusyText(busy), u"94 %"_s);
        busy.gpuBusyFraction = 0;
        QVERIFY(gpuBusyText(busy).isEmpty());
        QVERIFY(gpuBusyExplanation(busy).isEmpty());
    }

    // A GPU-bound figure (busy >= 0.8 by the profiler, >= 0.92 by nvidia-smi) or one without the field
    // projects exactly as before.
    void gpuBoundFiguresChangeNothing()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        for (const QString &gpu : {u"h200-141gb-sxm"_s, u"b200"_s, u"h100-80gb-sxm"_s, u"l4"_s}) {
            const SingleGpuSpeed none = speed(w, gpu, {bertOnH200(0, 10, 200)});
            ThroughputMeasurement byProfiler = bertOnH200(0.85, 10, 200);
            byProfiler.gpuBusyMethod = BusyMethod::Profiler;
            ThroughputMeasurement bySmi = bertOnH200(0.93, 10, 200);
            bySmi.gpuBusyMethod = BusyMethod::NvidiaSmi;
            const SingleGpuSpeed busy = speed(w, gpu, {byProfiler});
            const SingleGpuSpeed smi = speed(w, gpu, {bySmi});
            QVERIFY(none.ok && busy.ok && smi.ok);
            QCOMPARE(smi.samplesPerS, none.samplesPerS);
            QCOMPARE(smi.range.p10, none.range.p10);
            QCOMPARE(smi.range.p90, none.range.p90);
            QCOMPARE(busy.samplesPerS, none.samplesPerS);
            QCOMPARE(busy.range.p10, none.range.p10);
            QCOMPARE(busy.range.p90, none.range.p90);
            QCOMPARE(busy.stepFloorS, 0.0);
            QVERIFY(!busy.basis.contains(u"host-bound"_s));
        }
    }

    // Measured at the workload's own batch: the figure's GPU keeps the figure (flagged); a faster GPU is
    // capped at the measured step, its range spans other hosts' floors; a slow GPU's own step is longer: not
    // flagged, and faster than carrying the wall figure (only the GPU-busy part scales).
    void hostBoundFigureIsAFloorElsewhere()
    {
        const Workload w = preset(u"bert-large-squad"_s); // batch 10
        QCOMPARE(w.batchPerGpu, 10);
        const double rate = 120, busy = 0.4;
        const double stepS = 10 / rate;
        const ThroughputMeasurement m = bertOnH200(busy, 10, rate);

        const SingleGpuSpeed own = speed(w, u"h200-141gb-sxm"_s, {m});
        QVERIFY(own.userMeasured);
        QVERIFY(qAbs(own.samplesPerS - rate) < 1e-9 * rate);
        QVERIFY(qAbs(own.stepFloorS - stepS) < 1e-12);
        QVERIFY2(own.basis.contains(u"host-bound: your measurement on h200-141gb-sxm (GPU busy 40 %"_s),
                 qPrintable(own.basis));

        const SingleGpuSpeed fastWall = speed(w, u"b200"_s, {bertOnH200(0, 10, rate)});
        const SingleGpuSpeed fast = speed(w, u"b200"_s, {m});
        QVERIFY(fast.ok && fastWall.ok);
        QVERIFY2(fastWall.samplesPerS > rate, "carried as a wall figure, the B200 runs faster than the H200");
        QVERIFY(qAbs(fast.samplesPerS - rate) < 1e-9 * rate); // the floor binds: the host's step
        QVERIFY(qAbs(fast.stepFloorS - stepS) < 1e-12);
        QVERIFY(fast.samplesPerSLow() <= rate / kHostFloorSlower * (1 + 1e-9));
        QVERIFY(fast.samplesPerSHigh() <= rate / kHostFloorFaster * (1 + 1e-9));
        QVERIFY(fast.samplesPerSLow() <= fast.samplesPerS && fast.samplesPerS <= fast.samplesPerSHigh());
        QVERIFY2(fast.basis.contains(u"the floor binds at batch 10"_s), qPrintable(fast.basis));

        const SingleGpuSpeed slowWall = speed(w, u"l4"_s, {bertOnH200(0, 10, rate)});
        const SingleGpuSpeed slow = speed(w, u"l4"_s, {m});
        QVERIFY(slow.ok && slowWall.ok);
        QCOMPARE(slow.stepFloorS, 0.0);
        QVERIFY(!slow.basis.contains(u"host-bound"_s));
        QVERIFY2(slow.samplesPerS > slowWall.samplesPerS * 1.2,
                 qPrintable(u"%1 against %2"_s.arg(slow.samplesPerS).arg(slowWall.samplesPerS)));
        QVERIFY(slow.samplesPerS < rate);
    }

    // Measured at another batch: the figure's own GPU at the workload's batch is its GPU side scaled by the
    // model, up to the floor (2026-11-28: BERT-large b2 43.8/s at 38 % busy; that host ran b10 at 233.7/s).
    void ownGpuAtAnotherBatch()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        const SingleGpuSpeed wall = speed(w, u"h200-141gb-sxm"_s, {bertOnH200(0)});
        const SingleGpuSpeed busy = speed(w, u"h200-141gb-sxm"_s, {bertOnH200(0.381)});
        QVERIFY(wall.userMeasured && busy.userMeasured);
        QVERIFY(qAbs(busy.samplesPerS - wall.samplesPerS / 0.381) < 1e-9 * busy.samplesPerS);
        QVERIFY(busy.samplesPerS <= 10 / (2 / 43.772) * (1 + 1e-12));
        QVERIFY(std::abs(std::log(busy.samplesPerS / 233.705)) <
                std::abs(std::log(wall.samplesPerS / 233.705)));
    }

    // A host-bound figure far below the model is judged by its GPU-busy part: 12x below the model in wall
    // terms but busy 20 % is kept; the same figure without the field is quarantined.
    void plausibilityJudgesTheGpuSide()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        const SpeedModel &model = SpeedModel::builtin();
        const double projected = speed(w, u"h200-141gb-sxm"_s, {}).samplesPerS;
        ThroughputMeasurement m = bertOnH200(0, 10, projected / 12);
        QVERIFY(!model.implausibility(m, w, GpuSpecTable::builtin()).isEmpty());
        m.gpuBusyFraction = 0.2;
        QVERIFY2(model.implausibility(m, w, GpuSpecTable::builtin()).isEmpty(),
                 qPrintable(model.implausibility(m, w, GpuSpecTable::builtin())));
    }

    // Review findings: the report's reproduce command keeps --measured-busy; other vendors' GPUs and the
    // tuned stack; several host-bound figures; a floor flagged without binding; the plausibility bound and
    // the peak-rate limit on the GPU side; the measured tier at another batch.
    void reportKeepsTheShare()
    {
        QTemporaryDir dir;
        // The Markdown report of BERT-large's batch-2 figure on the H200 typed with the busy share `busy`.
        const auto report = [&](const QString &busy) -> QString {
            const QString md = dir.filePath(u"r.md"_s);
            const CliRun r =
                cli(dir.filePath(u"c.sqlite"_s),
                    {u"report"_s, u"--measured"_s, u"43.772"_s, u"--measured-on"_s, u"h200-141gb-sxm"_s,
                     u"--measured-busy"_s, busy, u"--flops-per-sample"_s, u"1.5e12"_s, u"--samples"_s,
                     u"100000"_s, u"--batch"_s, u"2"_s, u"--format"_s, u"md"_s, u"-o"_s, md});
            if (r.rc != 0)
                return u"failed: "_s + r.err;
            QFile f(md);
            return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : u"no file"_s;
        };
        const QString text = report(u"38"_s);
        QVERIFY2(text.contains(u"--measured-busy 38"_s), qPrintable(text.left(3000)));
        QVERIFY(text.contains(u"GPU busy 38 % (host-bound"_s));
        // Rule S4: a typed 88 % is nvidia-smi's, maybe host-bound, and the report says so.
        const QString smiText = report(u"88"_s);
        QVERIFY2(smiText.contains(u"GPU busy 88 % (by nvidia-smi, which reads high: maybe host-bound"_s),
                 qPrintable(smiText.left(3000)));
    }

    void otherVendorsAndTheTunedStack()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        const ThroughputMeasurement m = bertOnH200(0.4, 10, 120);
        // The rule's evidence is of CUDA hosts: an AMD GPU or a TPU is carried as before.
        for (const QString &gpu : {u"mi300x"_s, u"tpu-v5p"_s}) {
            const SingleGpuSpeed busy = speed(w, gpu, {m});
            const SingleGpuSpeed wall = speed(w, gpu, {bertOnH200(0, 10, 120)});
            QVERIFY(busy.ok && wall.ok);
            QCOMPARE(busy.samplesPerS, wall.samplesPerS);
            QCOMPARE(busy.stepFloorS, 0.0);
        }
        // The tuned stack takes the rule too: the host is the host.
        Workload tuned = w;
        tuned.stack = SoftwareStack::Tuned;
        const SingleGpuSpeed t = speed(tuned, u"b200"_s, {m});
        QVERIFY(t.ok);
        QVERIFY(qAbs(t.samplesPerS - 120) < 1e-9 * 120);
        QVERIFY(t.stepFloorS > 0);
    }

    void severalFiguresAndAFloorThatDoesNotBind()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        ThroughputMeasurement a = bertOnH200(0.4, 10, 100);
        ThroughputMeasurement b = bertOnH200(0.5, 10, 160);
        b.gpuId = u"h100-80gb-sxm"_s;
        const SingleGpuSpeed s = speed(w, u"b200"_s, {a, b});
        QVERIFY(s.ok);
        const double floor = std::sqrt(10.0 / 100 * 10.0 / 160); // the geometric mean of the two steps
        QVERIFY(qAbs(s.stepFloorS - floor) < 1e-12);
        QVERIFY2(s.basis.contains(u"your measurements on"_s) && s.basis.contains(u"were set by their host"_s),
                 qPrintable(s.basis));
        // An A100 at batch 10 from a figure 70 % busy: its own step is longer than the floor, but a slower
        // host's floor could bind: flagged, the point unchanged, the slow end at that floor.
        const SingleGpuSpeed mid = speed(w, u"a100-80gb-sxm4"_s, {bertOnH200(0.7, 10, 150)});
        QVERIFY(mid.ok);
        QVERIFY(mid.stepFloorS > 0);
        QVERIFY(mid.samplesPerS < 150);
        QVERIFY2(mid.basis.contains(u"is longer, but not on every host"_s), qPrintable(mid.basis));
        QVERIFY(mid.samplesPerSLow() <= 150 / kHostFloorSlower * (1 + 1e-9));
    }

    void plausibilityAndThePeakRate()
    {
        const Workload w = preset(u"bert-large-squad"_s);
        const SpeedModel &model = SpeedModel::builtin();
        const double projected = speed(w, u"h200-141gb-sxm"_s, {}).samplesPerS;
        // A GPU side 12x above the model (the figure 0.6x of it at 5 % busy) is quarantined.
        ThroughputMeasurement m = bertOnH200(0.05, 10, projected * 0.6);
        QVERIFY2(model.implausibility(m, w, GpuSpecTable::builtin()).contains(u"GPU side"_s),
                 qPrintable(model.implausibility(m, w, GpuSpecTable::builtin())));
        // A busy share that would put the GPU side above twice its peak rate is raised to the peak's.
        const GpuSpec *h200 = GpuSpecTable::builtin().spec(u"h200-141gb-sxm"_s);
        QVERIFY(h200);
        // (A typed figure: imported ones that far off are quarantined by the bound above.)
        Workload typed = w;
        typed.kind = WorkloadKind::CustomMeasured;
        typed.measuredSamplesPerS = 40;
        typed.referenceGpuId = u"h200-141gb-sxm"_s;
        typed.measuredGpuBusy = 1e-6;
        const QList<SpeedAnchor> user = model.anchorsFor(typed, {}, GpuSpecTable::builtin()).user;
        QCOMPARE(user.size(), 1);
        const SpeedAnchor anchor = user.first();
        QVERIFY(anchor.gpuBusy > 1e-6);
        const auto [f, b] = model.shapeAt(typed, 10, typed.precision);
        const double peak = *std::max_element(h200->peakTflops.begin(), h200->peakTflops.end());
        QVERIFY(qAbs(40 / anchor.gpuBusy * f - 2 * peak * 1e12) < 1e-6 * 2 * peak * 1e12);
    }

    // At a smaller batch than measured, the floor binds on the figure's own GPU; the range widens by the
    // rule's errors across batches and reaches other hosts' floors.
    void ownGpuAtASmallerBatch()
    {
        const Workload w = preset(u"bert-large-squad"_s, 2);
        const SingleGpuSpeed s = speed(w, u"h200-141gb-sxm"_s, {bertOnH200(0.78, 10, 233.705)});
        QVERIFY(s.userMeasured);
        QVERIFY(qAbs(s.samplesPerS - 2 / (10 / 233.705)) < 1e-9 * s.samplesPerS); // the floor
        QVERIFY(s.samplesPerSLow() <= s.samplesPerS / kHostFloorSlower * (1 + 1e-9));
        QVERIFY(s.samplesPerSHigh() >= s.samplesPerS * std::exp(-kHostBoundCrossBatchP10) * (1 - 1e-9));
        QVERIFY2(s.basis.contains(u"held to the floor's"_s), qPrintable(s.basis));
    }

    // The Measurements page and `measure` compare a figure with the model at the batch it was measured at.
    void comparisonIsAtTheMeasuredBatch()
    {
        const QList<MeasurementComparison> rows = compareMeasurements(
            {bertOnH200(0.381), bertOnH200(0.78, 10, 230)}, builtinWorkloads(), defaultCalibration());
        QCOMPARE(rows.size(), 2);
        QVERIFY(rows.at(0).projectedPerGpu && rows.at(1).projectedPerGpu);
        QCOMPARE(*rows.at(0).projectedPerGpu,
                 speed(preset(u"bert-large-squad"_s, 2), u"h200-141gb-sxm"_s, {}).samplesPerS);
        QCOMPARE(*rows.at(1).projectedPerGpu,
                 speed(preset(u"bert-large-squad"_s, 10), u"h200-141gb-sxm"_s, {}).samplesPerS);
        QVERIFY(*rows.at(0).projectedPerGpu != *rows.at(1).projectedPerGpu);
    }

    // projectOffers flags the offers where the floor binds.
    void offersAreFlagged()
    {
        ProjectionOptions opt;
        opt.measurements = {bertOnH200(0.4, 10, 120)};
        const Workload w = preset(u"bert-large-squad"_s);
        const QList<Offer> offers{makeOffer(u"aws"_s, u"b200.x"_s, u"b200"_s, 1, 6.0),
                                  makeOffer(u"aws"_s, u"l4.x"_s, u"l4"_s, 1, 0.8)};
        const QList<ProjectedOffer> pts = projectOffers(offers, w, opt, defaultCalibration());
        QVERIFY(!pts.isEmpty());
        for (const ProjectedOffer &p : pts)
            QCOMPARE(hasFlag(p.flags, ProjectionFlag::HostBound), offers.at(p.offerIndex).gpuId == u"b200");
        QVERIFY(projectionFlagDescription(ProjectionFlag::HostBound).contains(u"your own measurement"_s));
    }

    // --measured S --measured-on GPU --measured-busy PCT: the same rule for a figure typed in; the share is
    // checked, goes only with a measured speed, and a scenario keeps it.
    void typedFigureTakesItsBusyShare()
    {
        TempDb db;
        const QStringList base{u"gpus"_s,
                               u"--measured"_s,
                               u"43.772"_s,
                               u"--measured-on"_s,
                               u"h200-141gb-sxm"_s,
                               u"--flops-per-sample"_s,
                               u"1.5e12"_s,
                               u"--workload-class"_s,
                               u"transformer"_s,
                               u"--batch"_s,
                               u"2"_s,
                               u"--samples"_s,
                               u"100000"_s,
                               u"--format"_s,
                               u"json"_s};
        auto gpu = [&](const QStringList &extra, const QString &id) {
            return gpuRow(db.path(), base + extra, id);
        };
        const QJsonObject wall = gpu({}, u"b200"_s), busy = gpu({u"--measured-busy"_s, u"38"_s}, u"b200"_s);
        QVERIFY(!wall.isEmpty() && !busy.isEmpty());
        QVERIFY(wall.value(u"samples_per_s"_s).toDouble() > 50);
        QVERIFY(qAbs(busy.value(u"samples_per_s"_s).toDouble() - 43.772) < 1e-6);
        QVERIFY(busy.value(u"step_floor_s"_s).toDouble() > 0);
        QVERIFY(wall.value(u"step_floor_s"_s).isNull());
        const QJsonObject l4wall = gpu({}, u"l4"_s), l4busy = gpu({u"--measured-busy"_s, u"38"_s}, u"l4"_s);
        QVERIFY(l4busy.value(u"samples_per_s"_s).toDouble() >
                2 * l4wall.value(u"samples_per_s"_s).toDouble());

        CliRun r = cli(db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--measured-busy"_s, u"38"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"--measured-busy goes with --measured"_s), qPrintable(r.err));
        r = cli(db.path(), base + QStringList{u"--measured-busy"_s, u"150"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"measured-busy"_s), qPrintable(r.err));

        Scenario sc = measuredScenario(40, u"h200-141gb-sxm"_s, 1e12);
        sc.workload.overrides.measuredGpuBusy = 0.38;
        const QByteArray json = QJsonDocument(scenarioToJson(sc)).toJson();
        QVERIFY(json.contains("measured_gpu_busy_fraction"));
        const auto back = scenarioFromBytes(json);
        QVERIFY2(back, back ? "" : qPrintable(back.error().text()));
        QCOMPARE(back.value().workload.overrides.measuredGpuBusy, std::optional<double>(0.38));
        const auto built = buildWorkloadSpec(back.value().workload);
        QVERIFY2(built, built ? "" : qPrintable(built.error().text()));
        QCOMPARE(built.value().measuredGpuBusy, 0.38);
        const QString orphan = withoutTheSpeed(sc);
        QVERIFY2(orphan.contains(u"measured_gpu_busy_fraction"_s), qPrintable(orphan));
    }

    // Rule W (section 3.25): a typed figure more than 10x below the model, without a busy share, is read as
    // host-bound: its busy share is taken as 10x its ratio to the model and rule S3 carries it (its step a
    // floor on other NVIDIA GPUs, so no GPU is projected faster than the figure at its batch, and slower GPUs
    // can be slower). Rule W-flag (section 3.24) remains where that share would not be host-bound (a figure
    // 10-12.5x below): the point held to 10x of the model, the range reaching the floor. A busy share given,
    // a plausible figure or another vendor's GPU is carried as before.
    void farBelowTheModelIsReadAsHostBound()
    {
        TempDb db;
        // torchvision's ShuffleNet V2 x1.0 (0.14 GMAC forward), measured at batch 12 on an RTX 3090 in eager
        // PyTorch at 396 images/s (RYU-PT-2025): about 56x below the model's projection for that GPU.
        const QStringList base{u"gpus"_s,
                               u"--measured"_s,
                               u"396"_s,
                               u"--measured-on"_s,
                               u"rtx3090"_s,
                               u"--flops-per-sample"_s,
                               u"840000000"_s,
                               u"--workload-class"_s,
                               u"convolutional"_s,
                               u"--batch"_s,
                               u"12"_s,
                               u"--samples"_s,
                               u"100000"_s,
                               u"--format"_s,
                               u"json"_s};
        auto gpu = [&](const QStringList &args, const QString &id) { return gpuRow(db.path(), args, id); };
        auto speed = [](const QJsonObject &o, const char16_t *key = u"samples_per_s") {
            return o.value(QString::fromUtf16(key)).toDouble();
        };
        const QJsonObject far = gpu(base, u"a100-40gb-sxm4"_s);
        const QJsonObject busy = gpu(base + QStringList{u"--measured-busy"_s, u"100"_s}, u"a100-40gb-sxm4"_s);
        QVERIFY(!far.isEmpty() && !busy.isEmpty());
        // Given as fully busy: carried, held to 10x of the model (the A100 measured 419/s).
        QVERIFY(speed(busy) > 5 * 396);
        QVERIFY(!busy.value(u"basis"_s).toString().contains(u"rule W"_s));
        // Not given: host-bound, the 30.3 ms step a floor that binds; other hosts 0.54x-1.85x.
        QVERIFY(qAbs(speed(far) - 396) < 1e-6);
        QVERIFY(qAbs(far.value(u"step_floor_s"_s).toDouble() - 12.0 / 396) < 1e-9);
        QVERIFY(qAbs(speed(far, u"samples_per_s_low") - 396 / kHostFloorSlower) < 1e-6);
        QVERIFY(qAbs(speed(far, u"samples_per_s_high") - 396 / kHostFloorFaster) < 1e-6);
        const QString text = far.value(u"basis"_s).toString();
        QVERIFY2(text.contains(u"no busy share was given and the figure is 56."_s), qPrintable(text));
        QVERIFY2(text.contains(u"taken as busy 18 %"_s) && text.contains(u"rule W, section 3.25"_s),
                 qPrintable(text));
        QVERIFY2(text.contains(u"--measured-busy"_s) && text.contains(u"the floor binds at batch 12"_s),
                 qPrintable(text));
        // A slower GPU is no longer lifted above the figure (W-flag put a T4 at about 1,050/s).
        const QJsonObject t4 = gpu(base, u"t4"_s);
        QVERIFY(speed(t4) > 0 && speed(t4) <= 396 + 1e-6);
        // Its own GPU keeps the figure, host-bound, and says the share was assumed.
        const QJsonObject own = gpu(base, u"rtx3090"_s);
        QCOMPARE(speed(own), 396.0);
        QVERIFY(own.value(u"basis"_s).toString().contains(u"taken as busy 18 %"_s));
        // Another vendor's GPU: the evidence is of CUDA hosts; carried as a fully busy figure is.
        const QJsonObject amd = gpu(base, u"mi300x"_s);
        QVERIFY(!amd.value(u"basis"_s).toString().contains(u"rule W"_s));
        QCOMPARE(speed(amd), speed(gpu(base + QStringList{u"--measured-busy"_s, u"100"_s}, u"mi300x"_s)));
        // Another vendor's own figure: no share is assumed (the rule's evidence is of CUDA hosts).
        QStringList amdArgs = base;
        amdArgs[4] = u"mi300x"_s;
        const QJsonObject fromAmd = gpu(amdArgs, u"a100-40gb-sxm4"_s);
        QVERIFY(!fromAmd.isEmpty());
        QVERIFY2(!fromAmd.value(u"basis"_s).toString().contains(u"rule W"_s),
                 qPrintable(fromAmd.value(u"basis"_s).toString()));
        QVERIFY(fromAmd.value(u"step_floor_s"_s).isNull());
        // 11x below: the share so taken (0.9) is not host-bound, so rule W-flag: the point as a fully busy
        // figure's, the slow end at the floor, and its text.
        QStringList band = base;
        band[2] = u"2000"_s;
        const QJsonObject flag = gpu(band, u"a100-40gb-sxm4"_s);
        const QJsonObject flagBusy =
            gpu(band + QStringList{u"--measured-busy"_s, u"100"_s}, u"a100-40gb-sxm4"_s);
        QCOMPARE(speed(flag), speed(flagBusy));
        QVERIFY(qAbs(speed(flag, u"samples_per_s_low") - 2000 / kHostFloorSlower) < 1e-6);
        QVERIFY(flag.value(u"basis"_s).toString().contains(u"more than 10x below what the model projects"_s));
        QVERIFY(flag.value(u"step_floor_s"_s).isNull());
        // A plausible figure (VGG-16, 15.5 GMAC forward, 342 images/s on the 3090) is carried as before.
        QStringList vgg = base;
        vgg[2] = u"342"_s;
        vgg[6] = u"92820000000"_s;
        const QJsonObject plain = gpu(vgg, u"a100-40gb-sxm4"_s);
        QVERIFY(!plain.isEmpty());
        QVERIFY(!plain.value(u"basis"_s).toString().contains(u"more than 10x below"_s));
        QVERIFY(!plain.value(u"basis"_s).toString().contains(u"rule W"_s));
        QVERIFY(speed(plain, u"samples_per_s_low") > 342);
    }

    // Rule Y (section 3.25): a typed figure may name the batch it was measured at (--measured-batch, a
    // scenario's measured_batch_per_gpu, the report's reproduce command); its step is then a floor at the
    // batch projected: a host-bound ShuffleNet figure of 396/s at batch 12 caps batch 48 at 4 x 396 on other
    // NVIDIA GPUs. Given without a measured speed, it is refused; left out, the figure is at --batch as
    // before.
    void measuredBatchIsTheFiguresOwn()
    {
        TempDb db;
        const QStringList base{u"gpus"_s,          u"--measured"_s,       u"396"_s,
                               u"--measured-on"_s, u"rtx3090"_s,          u"--flops-per-sample"_s,
                               u"840000000"_s,     u"--workload-class"_s, u"convolutional"_s,
                               u"--samples"_s,     u"100000"_s,           u"--format"_s,
                               u"json"_s};
        auto gpu = [&](const QStringList &args, const QString &id) { return gpuRow(db.path(), args, id); };
        const QJsonObject at12 = gpu(base + QStringList{u"--batch"_s, u"12"_s}, u"a100-40gb-sxm4"_s);
        const QJsonObject at48 = gpu(
            base + QStringList{u"--batch"_s, u"48"_s, u"--measured-batch"_s, u"12"_s}, u"a100-40gb-sxm4"_s);
        const QJsonObject same = gpu(
            base + QStringList{u"--batch"_s, u"12"_s, u"--measured-batch"_s, u"12"_s}, u"a100-40gb-sxm4"_s);
        QVERIFY(!at12.isEmpty() && !at48.isEmpty());
        QVERIFY(qAbs(at12.value(u"samples_per_s"_s).toDouble() - 396) < 1e-6);
        QCOMPARE(same.value(u"samples_per_s"_s).toDouble(), at12.value(u"samples_per_s"_s).toDouble());
        // The same 30.3 ms step, now at batch 48: 1,584/s (the GPU side is far above it).
        QVERIFY(qAbs(at48.value(u"step_floor_s"_s).toDouble() - 12.0 / 396) < 1e-9);
        QVERIFY2(qAbs(at48.value(u"samples_per_s"_s).toDouble() - 4 * 396) < 1e-6,
                 qPrintable(at48.value(u"basis"_s).toString()));
        QVERIFY(at48.value(u"basis"_s).toString().contains(u"step at batch 12"_s));
        // Without --measured-batch the figure would be read as measured at 48: a step 4x as long.
        const QJsonObject asIfAt48 = gpu(base + QStringList{u"--batch"_s, u"48"_s}, u"a100-40gb-sxm4"_s);
        QVERIFY(qAbs(asIfAt48.value(u"samples_per_s"_s).toDouble() - 396) < 1e-6);

        CliRun r =
            cli(db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--measured-batch"_s, u"12"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"--measured-batch goes with --measured"_s), qPrintable(r.err));
        r = cli(db.path(), base + QStringList{u"--measured-batch"_s, u"0"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"measured-batch"_s), qPrintable(r.err));

        // A scenario keeps it, refuses it without a measured speed, and the workload takes it.
        Scenario sc = measuredScenario(396, u"rtx3090"_s, 0.84e9);
        sc.workload.overrides.batchPerGpu = 48;
        sc.workload.overrides.measuredBatchPerGpu = 12;
        const QByteArray json = QJsonDocument(scenarioToJson(sc)).toJson();
        QVERIFY(json.contains("measured_batch_per_gpu"));
        const auto back = scenarioFromBytes(json);
        QVERIFY2(back, back ? "" : qPrintable(back.error().text()));
        QCOMPARE(back.value().workload.overrides.measuredBatchPerGpu, std::optional<int>(12));
        const auto built = buildWorkloadSpec(back.value().workload);
        QVERIFY2(built, built ? "" : qPrintable(built.error().text()));
        QCOMPARE(built.value().measuredBatchPerGpu, 12);
        QCOMPARE(SpeedModel::typedFigure(built.value()).batchPerGpu, 12);
        const QString orphan = withoutTheSpeed(sc);
        QVERIFY2(orphan.contains(u"measured_batch_per_gpu"_s), qPrintable(orphan));

        // The report says it and its reproduce command keeps it.
        QTemporaryDir dir;
        const QString md = dir.filePath(u"r.md"_s);
        r = cli(dir.filePath(u"c.sqlite"_s),
                {u"report"_s, u"--measured"_s, u"396"_s, u"--measured-on"_s, u"rtx3090"_s,
                 u"--measured-batch"_s, u"12"_s, u"--flops-per-sample"_s, u"0.84e9"_s, u"--samples"_s,
                 u"100000"_s, u"--batch"_s, u"48"_s, u"--format"_s, u"md"_s, u"-o"_s, md});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QFile f(md);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY2(text.contains(u"--measured-batch 12"_s), qPrintable(text.left(3000)));
        QVERIFY(text.contains(u"at batch 12 per GPU"_s));
    }

    // Rule S4 (section 3.27): a document's gpu_busy_method is read, checked (nothing imported when wrong, the
    // field named) and stored with it.
    void busyMethodIsReadAndStored()
    {
        const auto parse = [](const QJsonValue &method) {
            QJsonObject o = document(0.885);
            if (!method.isUndefined())
                o.insert(u"gpu_busy_method"_s, method);
            return parseMeasurementFile(QJsonDocument(o).toJson(), u"run.json"_s, GpuCatalog::builtin());
        };
        QCOMPARE(parse(QJsonValue(QJsonValue::Undefined)).value().first().measurement.gpuBusyMethod,
                 BusyMethod::Unknown);
        QCOMPARE(parse(QJsonValue(QJsonValue::Null)).value().first().measurement.gpuBusyMethod,
                 BusyMethod::Unknown);
        QCOMPARE(parse(u"profiler"_s).value().first().measurement.gpuBusyMethod, BusyMethod::Profiler);
        QCOMPARE(parse(u"nvidia-smi"_s).value().first().measurement.gpuBusyMethod, BusyMethod::NvidiaSmi);
        for (const QJsonValue &bad : {QJsonValue(u"smi"_s), QJsonValue(3)}) {
            const auto refused = parse(bad);
            QVERIFY(!refused);
            QVERIFY2(refused.error().text().contains(u"gpu_busy_method"_s) &&
                         refused.error().text().contains(u"run.json"_s),
                     qPrintable(refused.error().text()));
        }
        TempDb db;
        auto store = db.open();
        const auto parsed = parse(u"nvidia-smi"_s);
        const MeasurementDocument &d = parsed.value().first();
        QVERIFY(store->addUserMeasurement(d.measurement, u"/tmp/run.json"_s, d.json));
        const auto records = store->userMeasurements();
        QVERIFY(records && records.value().size() == 1);
        const ThroughputMeasurement &back = records.value().first().measurement;
        QCOMPARE(back.gpuBusyMethod, BusyMethod::NvidiaSmi);
        QCOMPARE(gpuBusyText(back), u"89 % (nvidia-smi), maybe host-bound"_s);
        QVERIFY(gpuBusyExplanation(back).contains(u"section 3.27"_s));
        ThroughputMeasurement profiled = back;
        profiled.gpuBusyMethod = BusyMethod::Profiler;
        QCOMPARE(gpuBusyText(profiled), u"89 % (profiler)"_s);
        QVERIFY(gpuBusyExplanation(profiled).contains(u"the GPU set this speed"_s));
    }

    // Rule S4: a share by nvidia-smi (or not said how) in [0.80, 0.92) leaves the point as a GPU-bound
    // figure's, and the range of a GPU where its step's floor could bind reaches that floor on the slowest
    // other host; the profiler's share, a share of 0.92 and another vendor's GPU widen nothing, and under
    // 0.80 rule S3 applies. The figure: the 2026-11-28 user command's run (BERT-large, batch 24, 315.8/s on
    // an H200, 88.5 % by nvidia-smi where the profiler saw 58.1 %:
    // tests/fixtures/probe/h200-usercmd-2026-11-28).
    void nvidiaSmiShareMayBeHostBound()
    {
        const Workload w = preset(u"bert-large-squad"_s, 24);
        const double rate = 315.835;
        const auto figure = [&](double busy, BusyMethod method) {
            ThroughputMeasurement m = bertOnH200(busy, 24, rate);
            m.gpuBusyMethod = method;
            return m;
        };
        const double slowestFloor = rate / kHostFloorSlower; // batch 24 / step / 1.85
        for (const QString &gpu : {u"b200"_s, u"h100-80gb-sxm"_s}) {
            const SingleGpuSpeed none = speed(w, gpu, {figure(0, BusyMethod::Unknown)});
            const SingleGpuSpeed smi = speed(w, gpu, {figure(0.8848, BusyMethod::NvidiaSmi)});
            const SingleGpuSpeed unknown = speed(w, gpu, {figure(0.8848, BusyMethod::Unknown)});
            const SingleGpuSpeed profiler = speed(w, gpu, {figure(0.8848, BusyMethod::Profiler)});
            const SingleGpuSpeed high = speed(w, gpu, {figure(kSmiGpuBoundBusy, BusyMethod::NvidiaSmi)});
            const SingleGpuSpeed low = speed(w, gpu, {figure(0.79, BusyMethod::NvidiaSmi)});
            QVERIFY(none.ok && smi.ok && unknown.ok && profiler.ok && high.ok && low.ok);
            QVERIFY2(none.samplesPerSLow() > slowestFloor * 1.05, qPrintable(gpu));
            QCOMPARE(smi.samplesPerS, none.samplesPerS);
            QCOMPARE(smi.stepFloorS, 0.0);
            QVERIFY(qAbs(smi.samplesPerSLow() - slowestFloor) < 1e-6 * rate);
            QCOMPARE(smi.samplesPerSHigh(), none.samplesPerSHigh());
            QVERIFY2(smi.basis.contains(u"nvidia-smi reads high"_s) && smi.basis.contains(u"section 3.27"_s),
                     qPrintable(smi.basis));
            QCOMPARE(unknown.samplesPerSLow(), smi.samplesPerSLow());
            for (const SingleGpuSpeed *same : {&profiler, &high}) {
                QCOMPARE(same->samplesPerS, none.samplesPerS);
                QCOMPARE(same->range.p10, none.range.p10);
                QCOMPARE(same->range.p90, none.range.p90);
                QVERIFY(!same->basis.contains(u"nvidia-smi reads high"_s));
            }
            QVERIFY(low.stepFloorS > 0); // rule S3
            // The line itself: 0.80 by nvidia-smi is maybe host-bound, as 0.7999 is host-bound.
            const SingleGpuSpeed line = speed(w, gpu, {figure(kHostBoundBusy, BusyMethod::NvidiaSmi)});
            QCOMPARE(line.samplesPerS, none.samplesPerS);
            QVERIFY(qAbs(line.samplesPerSLow() - slowestFloor) < 1e-6 * rate);
        }
        // A GPU whose range already reaches below the floor while its fast end lies above it: nothing to
        // widen, and no text saying the range reaches the floor (it did, naming the old slow end).
        int straddling = 0;
        for (const GpuSpec &spec : GpuSpecTable::builtin().specs()) {
            const SingleGpuSpeed none = speed(w, spec.id, {figure(0, BusyMethod::Unknown)});
            if (!none.ok || spec.id == u"h200-141gb-sxm" ||
                !(none.samplesPerSLow() < slowestFloor && none.samplesPerSHigh() > slowestFloor))
                continue;
            ++straddling;
            const SingleGpuSpeed smi = speed(w, spec.id, {figure(0.8848, BusyMethod::NvidiaSmi)});
            QCOMPARE(smi.range.p10, none.range.p10);
            QCOMPARE(smi.range.p90, none.range.p90);
            QVERIFY2(!smi.basis.contains(u"nvidia-smi reads high"_s), qPrintable(spec.id));
        }
        QVERIFY(straddling > 0);
        // A figure measured on another vendor's GPU: the rule is of CUDA hosts, so neither the ranges nor the
        // texts name it.
        ThroughputMeasurement amd = figure(0.8848, BusyMethod::NvidiaSmi);
        amd.gpuId = u"mi300x"_s;
        QVERIFY(!SpeedModel::builtin().busyMayBeHostBound(amd.gpuId, amd.gpuBusyFraction, amd.gpuBusyMethod));
        QVERIFY(SpeedModel::builtin().busyMayBeHostBound(u"h200-141gb-sxm"_s, 0.8848, BusyMethod::NvidiaSmi));
        QVERIFY(!gpuBusyText(amd).contains(u"maybe"_s));
        const SingleGpuSpeed fromAmd = speed(w, u"b200"_s, {amd});
        QVERIFY(!fromAmd.basis.contains(u"nvidia-smi reads high"_s));
        // Shares near the lines are shown on their own side of them.
        QCOMPARE(busyPercentText(0.7999), u"79.99"_s);
        QCOMPARE(busyPercentText(0.915), u"91.5"_s);
        QCOMPARE(busyPercentText(0.92), u"92"_s);
        QCOMPARE(busyPercentText(0.381), u"38"_s);
        // The figure's own GPU, a GPU whose own step is longer than the floor, and another vendor's GPU:
        // nothing changes.
        for (const QString &gpu : {u"h200-141gb-sxm"_s, u"l4"_s, u"mi300x"_s}) {
            const SingleGpuSpeed none = speed(w, gpu, {figure(0, BusyMethod::Unknown)});
            const SingleGpuSpeed smi = speed(w, gpu, {figure(0.8848, BusyMethod::NvidiaSmi)});
            QVERIFY(none.ok && smi.ok);
            QCOMPARE(smi.samplesPerS, none.samplesPerS);
            QCOMPARE(smi.range.p10, none.range.p10);
            QCOMPARE(smi.range.p90, none.range.p90);
            QVERIFY2(!smi.basis.contains(u"nvidia-smi reads high"_s), qPrintable(gpu));
        }
    }

    // Rule S4 end to end: the user command's own document (named as the H200's GPU, which that run's
    // launch plan did not set) imports with its method; `measure` says "maybe host-bound"; a typed share
    // of 88 % (nvidia-smi's, as --measured-busy says) widens the B200's range the same way.
    void nvidiaSmiShareEndToEnd()
    {
        QFile f(QStringLiteral(GF_SOURCE_DIR "/tests/fixtures/probe/h200-usercmd-2026-11-28/user-b24.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject doc = QJsonDocument::fromJson(f.readAll()).object();
        QCOMPARE(doc.value(u"gpu_busy_method"_s).toString(), u"nvidia-smi"_s);
        doc.insert(u"gpu_id"_s, u"h200-141gb-sxm"_s);
        TempDb db;
        QTemporaryDir dir;
        const QString file = dir.filePath(u"user-b24.json"_s);
        writeFile(file, QJsonDocument(doc).toJson());
        CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, file});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"88 % (nvidia-smi), maybe host-bound"_s), qPrintable(r.out));
        const QJsonObject m = firstStoredMeasurement(db.path());
        QCOMPARE(m.value(u"gpu_busy_method"_s).toString(), u"nvidia-smi"_s);
        QCOMPARE(m.value(u"maybe_host_bound"_s).toBool(), true);
        QCOMPARE(m.value(u"host_bound"_s).toBool(), false);
        QCOMPARE(m.value(u"offer"_s).toString(), QString()); // no offer named: no "//" key
        // The stored figure carried to the B200 (the preset at the document's batch).
        const QJsonObject b200 = gpuRow(db.path(),
                                        {u"gpus"_s, u"--workload"_s, u"bert-large-squad"_s, u"--batch"_s,
                                         u"24"_s, u"--format"_s, u"json"_s},
                                        u"b200"_s);
        QVERIFY(qAbs(b200.value(u"samples_per_s_low"_s).toDouble() - 315.835 / kHostFloorSlower) < 1e-3);
        QVERIFY2(b200.value(u"basis"_s).toString().contains(u"nvidia-smi reads high"_s),
                 qPrintable(b200.value(u"basis"_s).toString()));
        // Typed in: the same reading.
        TempDb typedDb;
        const QStringList typed{u"gpus"_s,
                                u"--measured"_s,
                                u"315.835"_s,
                                u"--measured-on"_s,
                                u"h200-141gb-sxm"_s,
                                u"--flops-per-sample"_s,
                                u"7.393e11"_s,
                                u"--workload-class"_s,
                                u"transformer"_s,
                                u"--batch"_s,
                                u"24"_s,
                                u"--samples"_s,
                                u"100000"_s,
                                u"--format"_s,
                                u"json"_s};
        const QJsonObject plain = gpuRow(typedDb.path(), typed, u"b200"_s);
        const QJsonObject smi =
            gpuRow(typedDb.path(), typed + QStringList{u"--measured-busy"_s, u"88"_s}, u"b200"_s);
        QCOMPARE(smi.value(u"samples_per_s"_s).toDouble(), plain.value(u"samples_per_s"_s).toDouble());
        QVERIFY(plain.value(u"samples_per_s_low"_s).toDouble() > 315.835 / kHostFloorSlower * 1.05);
        QVERIFY(qAbs(smi.value(u"samples_per_s_low"_s).toDouble() - 315.835 / kHostFloorSlower) < 1e-3);
        QVERIFY(smi.value(u"basis"_s).toString().contains(u"nvidia-smi reads high"_s));
    }

    // The quick guide explains the share, with the threshold and the other hosts' spread the code uses.
    void guideExplainsIt()
    {
        const QString guide = readResourceText(u"help/guide.html"_s).simplified();
        QVERIFY(guide.contains(u"<b>GPU busy</b>"_s));
        QVERIFY(guide.contains(u"Under %1 %"_s.arg(kHostBoundBusy * 100)));
        QVERIFY(guide.contains(u"%1x-%2x"_s.arg(QString::number(kHostFloorFaster, 'f', 2),
                                                QString::number(kHostFloorSlower, 'f', 2))));
        QVERIFY(guide.contains(u"--measured-busy"_s));
        QVERIFY(guide.contains(u"maybe host-bound"_s));
        QVERIFY(guide.contains(u"under %1 %"_s.arg(kSmiGpuBoundBusy * 100)));
    }

    // `measure` lists the share and says what it means; JSON carries it.
    void measureShowsIt()
    {
        TempDb db;
        QTemporaryDir dir;
        const QString file = dir.filePath(u"run.json"_s);
        writeFile(file, QJsonDocument(document(0.381)).toJson());
        CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, file});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"GPU busy 38 %, host-bound"_s), qPrintable(r.out));
        r = cli(db.path(), {u"measure"_s});
        QVERIFY2(r.out.contains(u"GPU busy"_s) && r.out.contains(u"38 %, host-bound"_s), qPrintable(r.out));
        QVERIFY(r.out.contains(u"section 3.22"_s));
        const QJsonObject m = firstStoredMeasurement(db.path());
        QCOMPARE(m.value(u"gpu_busy_fraction"_s).toDouble(), 0.381);
        QCOMPARE(m.value(u"host_bound"_s).toBool(), true);
        // A broken field: nothing imported, the field named.
        writeFile(file, QJsonDocument(document(38.1)).toJson());
        r = cli(db.path(), {u"measure"_s, u"--import"_s, file});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"gpu_busy_fraction"_s) && r.err.contains(u"Nothing was imported"_s),
                 qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestHostBusy)
#include "test_hostbusy.moc"

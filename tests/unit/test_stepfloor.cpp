// The per-step floor of an eager PyTorch step (rule Q2, PROJECTION.md section 3.21): the H100 micro-batch
// sweep of 2026-11-28 (resources/benchmarks/step_floor_sweep.csv), the floors derived from it, and what they
// do to a preset's typical projection and to an offer's flags.
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/offerprojection.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "util/resourcefiles.h"

#include "speedfixture.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Workload preset(const QString &id, int batch = 0, SoftwareStack stack = SoftwareStack::Typical)
{
    return presetIn(id, stack, batch);
}

SingleGpuSpeed speed(const SpeedModel &m, const Workload &w, const QString &gpu,
                     const ThroughputMeasurements &extra = {})
{
    return projectedSpeed(m, w, gpu, extra);
}

QString header()
{
    return u"# "
           u"comment\nsource_id,preset_id,gpu_id,device,host,run,batch_per_gpu,precision,samples_per_s,"
           u"measured,"
           "tool,note\n"_s;
}

QString row(const char *preset, const char *run, int batch, double rate, const char *gpu = "h100-80gb-sxm")
{
    return u"S,%1,%2,dev,host A,%3,%4,fp16,%5,2026-11-28,t,n\n"_s
        .arg(QLatin1String(preset), QLatin1String(gpu), QLatin1String(run))
        .arg(batch)
        .arg(rate);
}

} // namespace

class TestStepFloor final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // Rule Q2 by hand: the points within 10 % of the smallest batch's (first sweep) step, the longest of
    // them.
    void floorIsTheLongestStepOfTheFlatPoints()
    {
        // Steps: b4 100 ms, b8 104.2 ms (in), b16 200 ms (GPU-bound: out), repeat b4 111.1 ms (out: 11 %),
        // repeat b8 94.1 ms (in); another host's check (400 ms) never counts.
        const auto d = StepFloorData::parse(header() + row("p", "sweep", 4, 40) + row("p", "sweep", 8, 76.8) +
                                            row("p", "sweep", 16, 80) + row("p", "repeat", 4, 36) +
                                            row("p", "repeat", 8, 85) + row("p", "check", 4, 10, "other"));
        QVERIFY2(d, d ? "" : qPrintable(d.error().text()));
        const QHash<QString, StepFloor> f = d.value().floors();
        QCOMPARE(f.size(), 1);
        const StepFloor &p = f.value(u"p"_s);
        QCOMPARE(p.points, 3);
        QCOMPARE(p.smallestBatch, 4);
        QVERIFY(std::abs(p.seconds - 8 / 76.8) < 1e-12);
        QVERIFY(std::abs(p.meanSeconds - (0.100 + 8 / 76.8 + 8 / 85.0) / 3) < 1e-12);
        QCOMPARE(p.host, u"host A"_s);
    }

    // The shipped sweep gives the floors PROJECTION.md 3.21 quotes (ms): ResNet-50 30.7 (the b16 repeat),
    // ViT-B/16 40.7, BERT-large 85.2, GPT-2 42.9; the 7B LoRA was not swept.
    void shippedFloors()
    {
        const QHash<QString, StepFloor> f = StepFloorData::builtin().floors();
        QCOMPARE(f.size(), 4);
        QVERIFY(!f.contains(u"llm7b-lora"_s));
        const QList<std::tuple<QString, double, int>> expected = {{u"resnet50"_s, 30.72, 3},
                                                                  {u"vit-b16"_s, 40.68, 2},
                                                                  {u"bert-large-squad"_s, 85.18, 3},
                                                                  {u"gpt2-124m"_s, 42.93, 2}};
        for (const auto &[id, ms, points] : expected) {
            QVERIFY2(std::abs(f.value(id).seconds * 1e3 - ms) < 0.01,
                     qPrintable(u"%1: %2 ms"_s.arg(id).arg(f.value(id).seconds * 1e3)));
            QCOMPARE(f.value(id).points, points);
            QCOMPARE(f.value(id).gpuId, u"h100-80gb-sxm"_s);
        }
        QCOMPARE(SpeedModel::builtin().stepFloors().size(), 4);
        // The quick guide quotes them, rounded to the millisecond, as the upper end of the flat steps.
        const QString guide = readResourceText(u"help/guide.html"_s);
        for (const auto &[id, name] :
             {std::pair{"resnet50", "ResNet-50"}, std::pair{"vit-b16", "ViT-B/16"},
              std::pair{"gpt2-124m", "GPT-2 124M"}, std::pair{"bert-large-squad", "BERT-large"}}) {
            const QString text = u"-%1 ms (%2)"_s.arg(qRound(f.value(QLatin1String(id)).seconds * 1e3))
                                     .arg(QLatin1String(name));
            QVERIFY2(guide.simplified().contains(text), qPrintable(text));
        }
    }

    void badFilesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("reason");
        QTest::newRow("missing column") << u"source_id,preset_id\nS,p\n"_s << u"step_floor_sweep.csv"_s;
        QTest::newRow("zero rate") << header() + row("p", "sweep", 4, 0) << u"samples_per_s \"0\""_s;
        QTest::newRow("text rate") << header() + u"S,p,g,d,h,sweep,4,fp16,fast,2026,t,n\n"_s
                                   << u"samples_per_s \"fast\""_s;
        QTest::newRow("bad batch") << header() + u"S,p,g,d,h,sweep,0,fp16,10,2026,t,n\n"_s
                                   << u"batch_per_gpu \"0\""_s;
        QTest::newRow("bad run") << header() + u"S,p,g,d,h,again,4,fp16,10,2026,t,n\n"_s
                                 << u"run \"again\""_s;
        QTest::newRow("empty preset")
            << header() + u"S,,g,d,h,sweep,4,fp16,10,2026,t,n\n"_s << u"must not be empty"_s;
        QTest::newRow("short record") << header() + u"S,p,g,d,h,sweep,4\n"_s << u"record 1 has 7 fields"_s;
    }
    void badFilesAreRefusedWithTheReason()
    {
        QFETCH(QString, text);
        QFETCH(QString, reason);
        const auto r = StepFloorData::parse(text);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(reason), qPrintable(r.error().text()));
    }

    // Where the typical point would run a step faster than the floor, the range's slow end reaches
    // batch / floor and the point is unchanged; the sweep's own small-batch points then lie inside.
    void smallBatchWidensTheSlowEndToTheFloor()
    {
        const SpeedModel &m = SpeedModel::builtin();
        const SpeedModel none = m.withStepFloors({});
        const double floor = m.stepFloors().value(u"resnet50"_s).seconds;
        for (const QString &gpu : {u"h100-80gb-sxm"_s, u"a100-80gb-sxm4"_s, u"b200"_s}) {
            const Workload w = preset(u"resnet50"_s, 16);
            const SingleGpuSpeed with = speed(m, w, gpu);
            const SingleGpuSpeed without = speed(none, w, gpu);
            QCOMPARE(with.samplesPerS, without.samplesPerS);
            QCOMPARE(with.range.p10, without.range.p10);
            QVERIFY(with.samplesPerS > 16 / floor);
            QCOMPARE(with.stepFloorS, floor);
            QVERIFY(std::abs(with.samplesPerSLow() - 16 / floor) < 1e-9);
            QVERIFY(with.range.p90 > without.range.p90);
            QVERIFY2(with.basis.contains(u"host-bound risk: at batch 16"_s), qPrintable(with.basis));
        }
        // The H100 sweep's points at the floor: ResNet-50 b16 (539.6 and 520.9) and b32 (1093.6), BERT-large
        // b2 (23.7), GPT-2 b2 (46.6), ViT-B/16 b32 (786.6): inside the range now, outside before.
        const QList<std::tuple<QString, int, double>> sweep = {
            {u"resnet50"_s, 16, 539.581},       {u"resnet50"_s, 16, 520.905}, {u"resnet50"_s, 32, 1093.628},
            {u"bert-large-squad"_s, 2, 23.709}, {u"gpt2-124m"_s, 2, 46.585},  {u"vit-b16"_s, 32, 786.580}};
        for (const auto &[id, batch, measured] : sweep) {
            const Workload w = preset(id, batch);
            const SingleGpuSpeed with = speed(m, w, u"h100-80gb-sxm"_s);
            const SingleGpuSpeed without = speed(none, w, u"h100-80gb-sxm"_s);
            // The slowest floor point sets the slow end itself: equal up to rounding.
            QVERIFY2(with.samplesPerSLow() <= measured * (1 + 1e-12) && measured <= with.samplesPerSHigh(),
                     qPrintable(u"%1 b%2: %3 outside %4-%5"_s.arg(id)
                                    .arg(batch)
                                    .arg(measured)
                                    .arg(with.samplesPerSLow())
                                    .arg(with.samplesPerSHigh())));
            QVERIFY(measured < without.samplesPerSLow());
        }
    }

    // Rules R and T: the other hosts' points (two H200 machines, held out): the second host's six all lie
    // inside the range with the floor (two without it); the third host's 13 points (section 3.22), 11 with it
    // (the misses are GPU-bound, above the fast end: ResNet-50 b256, BERT-large b24), 5 without it.
    void anotherHostsPointsAreInsideTheRange()
    {
        const StepFloorValidation v =
            validateStepFloors(SpeedModel::builtin(), GpuSpecTable::builtin(), StepFloorData::builtin());
        QCOMPARE(v.heldOutWithFloor.n, 19);
        QCOMPARE(qRound(v.heldOutWithFloor.coverage * 19), 6 + 11);
        QCOMPARE(qRound(v.heldOutWithout.coverage * 19), 2 + 5);
        QCOMPARE(v.heldOutWithFloor.median, v.heldOutWithout.median); // the point does not move
        QCOMPARE(v.withFloor.n, 21);
        QCOMPARE(qRound(v.withFloor.coverage * 21), 20); // BERT-large b24 lies above the range's fast end
        QCOMPARE(qRound(v.without.coverage * 21), 7);
    }

    // Where the range's slow end is already below batch / floor (ViT-B/16 at its batch of 128 on a B200), the
    // point is flagged and the basis says the range already covers a step at the floor; the range does not
    // move.
    void flaggedWithoutWideningSaysSo()
    {
        const SpeedModel &m = SpeedModel::builtin();
        const Workload w = preset(u"vit-b16"_s);
        const SingleGpuSpeed with = speed(m, w, u"b200"_s);
        const SingleGpuSpeed without = speed(m.withStepFloors({}), w, u"b200"_s);
        const double cap = w.batchPerGpu / m.stepFloors().value(w.id).seconds;
        QVERIFY(with.stepFloorS > 0);
        QVERIFY(without.samplesPerSLow() < cap);
        QCOMPARE(with.range.p90, without.range.p90);
        QVERIFY2(with.basis.contains(u"already covers a step at that floor"_s), qPrintable(with.basis));
    }

    // A step already longer than the floor (the preset's own batch of ResNet-50), the tuned stack, a user's
    // own figure, a custom workload and the unswept 7B LoRA are left alone.
    void noFloorWhereItCannotBindOrDoesNotApply()
    {
        const SpeedModel &m = SpeedModel::builtin();
        const SpeedModel none = m.withStepFloors({});
        auto same = [&](const Workload &w, const QString &gpu, const ThroughputMeasurements &extra = {}) {
            const SingleGpuSpeed a = speed(m, w, gpu, extra);
            const SingleGpuSpeed b = speed(none, w, gpu, extra);
            QVERIFY(a.ok);
            QCOMPARE(a.stepFloorS, 0.0);
            QCOMPARE(a.range.p90, b.range.p90);
            QCOMPARE(a.samplesPerS, b.samplesPerS);
            QVERIFY(!a.basis.contains(u"host-bound"_s));
        };
        same(preset(u"resnet50"_s), u"h100-80gb-sxm"_s);
        same(preset(u"resnet50"_s, 16, SoftwareStack::Tuned), u"h100-80gb-sxm"_s);
        same(preset(u"llm7b-lora"_s, 1), u"b200"_s);
        same(preset(u"resnet50"_s, 16), u"mi300x"_s); // the floors were measured on CUDA hosts
        same(preset(u"bert-large-squad"_s, 2), u"tpu-v5p"_s);
        same(preset(u"resnet50"_s, 16), u"t4"_s); // a T4 step at batch 16 is longer than the floor
        ThroughputMeasurement own;
        own.workloadId = u"resnet50"_s;
        own.gpuId = u"h100-80gb-sxm"_s;
        own.samplesPerSPerGpu = 2000;
        own.batchPerGpu = 16;
        own.precision = u"fp16"_s;
        own.kind = MeasurementKind::User;
        same(preset(u"resnet50"_s, 16), u"h100-80gb-sxm"_s, {own});  // measured tier
        same(preset(u"resnet50"_s, 16), u"a100-80gb-sxm4"_s, {own}); // carried from the user's figure
        Workload custom;
        custom.kind = WorkloadKind::CustomFlops;
        custom.id = u"resnet50"_s; // a preset's id: only its kind keeps the floor off
        custom.name = u"mine"_s;
        custom.flopsPerSample = 24.6e9;
        custom.batchPerGpu = 2;
        custom.samplesPerEpoch = 1000;
        custom.epochs = 1;
        custom.workloadClass = WorkloadClass::Convolutional;
        same(custom, u"h100-80gb-sxm"_s);
    }

    // projectOffers flags such a point host-bound, names the flag and describes it.
    void offersAreFlaggedHostBound()
    {
        QCOMPARE(projectionFlagName(ProjectionFlag::HostBound), u"host-bound"_s);
        QVERIFY(allProjectionFlags().contains(ProjectionFlag::HostBound));
        QVERIFY(projectionFlagDescription(ProjectionFlag::HostBound).contains(u"CPU"_s));
        Offer o;
        o.provider = u"aws"_s;
        o.instanceType = u"p5.48xlarge"_s;
        o.gpuRawName = u"H100"_s;
        o.gpuId = u"h100-80gb-sxm"_s;
        o.gpuCount = 8;
        o.gpuMemGb = 80;
        o.vcpus = 192;
        o.onDemandUsdH = 55;
        ProjectionOptions opt;
        for (const auto &[batch, flagged] : {std::pair{16, true}, std::pair{192, false}}) {
            const QList<ProjectedOffer> pts =
                projectOffers({o}, preset(u"resnet50"_s, batch), opt, defaultCalibration());
            QVERIFY(!pts.isEmpty());
            QCOMPARE(hasFlag(pts.first().flags, ProjectionFlag::HostBound), flagged);
        }
    }
};

QTEST_GUILESS_MAIN(TestStepFloor)
#include "test_stepfloor.moc"

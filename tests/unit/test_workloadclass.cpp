// The workload class and the typical stack's efficiency per GPU architecture and class (PROJECTION.md
// section 3.8): presets carry their class, custom workloads take it from --workload-class, the workload
// panel or a scenario file; the factor applies to the typical stack only; an unknown class uses none and a
// wider range; an architecture without a measurement of the class gets the leave-one-architecture-out range.
#include "clirun.h"
#include "domain/gpuarch.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "domain/workloadbuilder.h"
#include "projection/scenario.h"
#include "projection/speedmodel.h"
#include "projection/transfervalidation.h"
#include "projection/typicalstack.h"
#include "projection/typicalstackvalidation.h"
#include "util/resourcefiles.h"

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

Workload preset(const QString &id, SoftwareStack stack)
{
    const Workload *p = findWorkload(builtinWorkloads(), id);
    if (!p)
        qFatal("no preset %s", qPrintable(id));
    Workload w = *p;
    w.stack = stack;
    return w;
}

const GpuSpec &spec(const QString &id)
{
    const GpuSpec *s = GpuSpecTable::builtin().spec(id);
    if (!s)
        qFatal("no spec %s", qPrintable(id));
    return *s;
}

SingleGpuSpeed speed(const Workload &w, const QString &gpu, const SpeedModel &m = SpeedModel::builtin())
{
    return m.project(spec(gpu), w, m.anchorsFor(w, {}, GpuSpecTable::builtin()), defaultCalibration());
}

QString archOf(const QString &gpu)
{
    const GpuArch *a = GpuArchTable::builtin().arch(gpu);
    return a ? a->arch : QString();
}

Workload custom(WorkloadClass c, SoftwareStack stack = SoftwareStack::Typical)
{
    WorkloadSpec s;
    s.name = u"mine"_s;
    s.overrides.samplesPerEpoch = 1e6;
    s.overrides.flopsPerSample = 2e11;
    s.overrides.workloadClass = c;
    s.overrides.stack = stack;
    auto w = buildWorkloadSpec(s);
    if (!w)
        qFatal("%s", qPrintable(w.error().text()));
    return w.value();
}

/// A custom transformer of 2e11 FLOPs per sample measured at 500 samples/s on the A100 80GB.
WorkloadSpec measuredOnA100()
{
    WorkloadSpec s;
    s.name = u"mine"_s;
    s.overrides.samplesPerEpoch = 1e6;
    s.overrides.flopsPerSample = 2e11;
    s.overrides.workloadClass = WorkloadClass::Transformer;
    s.overrides.measuredSamplesPerS = 500;
    s.overrides.referenceGpu = u"a100-80gb-sxm4"_s;
    return s;
}

QJsonObject gpusJson(const QString &db, const QStringList &args, const QString &gpu)
{
    const CliRun r = cli(db, QStringList{u"gpus"_s, u"--format"_s, u"json"_s} + args);
    if (r.rc != 0)
        qFatal("gpus failed: %s", qPrintable(r.err));
    const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
    for (const QJsonValue &g : root.value(u"gpus").toArray())
        if (g.toObject().value(u"id").toString() == gpu) {
            QJsonObject o = g.toObject();
            o.insert(u"workload_class", root.value(u"workload").toObject().value(u"class"));
            return o;
        }
    return {};
}

} // namespace

class TestWorkloadClass final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAndPresets()
    {
        for (const QString &n : workloadClassNames())
            QCOMPARE(workloadClassName(*workloadClassFromName(n)), n);
        QCOMPARE(workloadClassFromName(u" Recurrent-Speech "), WorkloadClass::RecurrentSpeech);
        QVERIFY(!workloadClassFromName(u"cnn").has_value());
        QCOMPARE(Workload{}.workloadClass, WorkloadClass::Unknown);
        QCOMPARE(findWorkload(builtinWorkloads(), u"resnet50")->workloadClass, WorkloadClass::Convolutional);
        for (const QString &id : {u"bert-large-squad"_s, u"vit-b16"_s, u"gpt2-124m"_s, u"llm7b-lora"_s})
            QCOMPARE(findWorkload(builtinWorkloads(), id)->workloadClass, WorkloadClass::Transformer);
        // A preset's class survives a change of its arithmetic or a measured speed; an override wins.
        WorkloadSpec s;
        s.preset = u"resnet50"_s;
        s.overrides.flopsPerSample = 3e10;
        QCOMPARE(buildWorkloadSpec(s).value().workloadClass, WorkloadClass::Convolutional);
        s.overrides.workloadClass = WorkloadClass::Detection;
        QCOMPARE(buildWorkloadSpec(s).value().workloadClass, WorkloadClass::Detection);
        QCOMPARE(custom(WorkloadClass::Unknown).workloadClass, WorkloadClass::Unknown);
        QCOMPARE(workloadToJson(custom(WorkloadClass::Transformer)).value(u"class").toString(),
                 u"transformer"_s);
        // workloads.json: a bad class is refused with the value named.
        const auto bad = workloadsFromJson(
            R"({"schema_version":1,"workloads":[{"id":"x","name":"x","precision":"fp16","class":"cnn",)"
            R"("flops_per_sample":1,"bytes_per_sample":0,"parameters":1,"memory_gb":1,"samples_per_epoch":1,)"
            R"("epochs":1}]})");
        QVERIFY(!bad);
        QVERIFY2(bad.error().text().contains(u"unknown class \"cnn\""), qPrintable(bad.error().text()));
    }

    void shippedFactorsParse()
    {
        const TypicalStack &t = TypicalStack::builtin();
        QVERIFY(t.classLogFactor(u"ampere"_s, WorkloadClass::Transformer).has_value());
        QVERIFY(!t.classLogFactor(u"ampere"_s, WorkloadClass::Unknown).has_value());
        QVERIFY(!t.classLogFactor(u"blackwell"_s, WorkloadClass::Convolutional).has_value());
        QVERIFY(!t.architectureMeasured(u"blackwell"_s, WorkloadClass::Unknown));
        QVERIFY(t.architectureMeasured(u"hopper"_s, WorkloadClass::Unknown));
        QVERIFY(!t.architectureMeasured(u"hopper"_s, WorkloadClass::RecurrentSpeech));
        QVERIFY(t.unknownClassRange.p10 < 0 && t.unknownClassRange.p90 > 0);
        // The new-architecture ranges straddle zero (the point's range is the envelope of it and its own:
        // anArchitectureWithoutAMeasurementSaysSo); the shipped file has one for each kind of projection, and
        // a custom workload's conversion range of its own (section 3.10).
        QVERIFY(t.newArchitectureRange.p10 < 0 && t.newArchitectureRange.p90 > 0);
        QVERIFY(t.newArchitectureRangeTransfer.p10 < 0 && t.newArchitectureRangeTransfer.p90 > 0);
        const QJsonObject file =
            QJsonDocument::fromJson(readResource(u"benchmarks/typical_stack.json"_s)).object();
        for (auto [key, r] : {std::pair{u"new_architecture_range_transfer"_s, t.newArchitectureRangeTransfer},
                              std::pair{u"range_custom"_s, t.rangeCustom}}) {
            QVERIFY2(file.contains(key), qPrintable(key));
            QCOMPARE(r.p10, file.value(key).toObject().value(u"p10").toDouble());
            QCOMPARE(r.p90, file.value(key).toObject().value(u"p90").toDouble());
        }
        // Rule AD (section 3.30): the range of a figure carried across a batch change, and its ratio.
        const QJsonObject bc = file.value(u"batch_change_range_transfer"_s).toObject();
        QCOMPARE(t.batchChangeRangeTransfer.p10, bc.value(u"p10").toDouble());
        QCOMPARE(t.batchChangeRangeTransfer.p90, bc.value(u"p90").toDouble());
        QCOMPARE(t.batchChangeMinRatio, 8.0);
        QVERIFY(t.batchChangeRangeTransfer.p10 < 0 && t.batchChangeRangeTransfer.p90 > 0);
        QCOMPARE(t.sourceFolds.size(), 4);
        QVERIFY(t.architectureFolds.size() >= 5);
        for (const TypicalStackFold &f : t.architectureFolds) // a fold knows nothing of its architecture
            QVERIFY2(!TypicalStack().withFit(f.fit).architectureMeasured(f.heldOut, WorkloadClass::Unknown),
                     qPrintable(f.heldOut));
    }

    void badFactorsAreRefused_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        const QByteArray head = R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":300,)"
                                R"("range":{"p10":-0.1,"p90":0.1},)";
        QTest::newRow("class") << head + R"("class_factors":{"ampere":{"cnn":0.1}}})"
                               << u"class_factors.ampere: \"cnn\" is not a workload class"_s;
        QTest::newRow("unknown class") << head + R"("class_factors":{"ampere":{"unknown":0.1}}})"
                                       << u"\"unknown\" is not a workload class"_s;
        QTest::newRow("value") << head + R"("class_factors":{"ampere":{"transformer":"x"}}})"
                               << u"class_factors.ampere.transformer must be a number"_s;
        QTest::newRow("huge") << head + R"("class_factors":{"ampere":{"transformer":7}}})"
                              << u"from -3 to 3"_s;
        QTest::newRow("range") << head + R"("unknown_class_range":{"p10":0.2,"p90":0.1}})"
                               << u"unknown_class_range needs p10 <= p90"_s;
        QTest::newRow("custom range")
            << head + R"("range_custom":{"p10":0.3,"p90":0.1}})" << u"range_custom needs p10 <= p90"_s;
        QTest::newRow("transfer range") << head + R"("new_architecture_range_transfer":{"p10":"a"}})"
                                        << u"new_architecture_range_transfer needs p10 <= p90"_s;
        QTest::newRow("batch change range")
            << head + R"("batch_change_range_transfer":{"p10":0.5,"p90":0.1,"min_batch_ratio":8}})"
            << u"batch_change_range_transfer needs p10 <= p90"_s;
        QTest::newRow("batch change ratio")
            << head + R"("batch_change_range_transfer":{"p10":-0.5,"p90":0.4,"min_batch_ratio":1}})"
            << u"batch_change_range_transfer needs min_batch_ratio > 1"_s;
        QTest::newRow("batch change without ratio")
            << head + R"("batch_change_range_transfer":{"p10":-0.5,"p90":0.4}})"
            << u"batch_change_range_transfer needs min_batch_ratio > 1"_s;
        QTest::newRow("fold") << head + R"("leave_one_architecture_out":[{"architecture":"pascal"}]})"
                              << u"leave_one_architecture_out[0] (pascal): overhead_tflops_custom"_s;
        QTest::newRow("fold name") << head + R"("leave_one_source_out":[{"overhead_tflops_custom":3}]})"
                                   << u"source must be a non-empty string"_s;
        QTest::newRow("reference class") << head + R"("class_reference_preset":{"cnn":"resnet50"}})"
                                         << u"class_reference_preset: \"cnn\" is not a workload class"_s;
        QTest::newRow("reference unknown")
            << head + R"("class_reference_preset":{"unknown":"resnet50"}})"
            << u"class_reference_preset: \"unknown\" is not a workload class"_s;
        QTest::newRow("reference id") << head + R"("class_reference_preset":{"transformer":3}})"
                                      << u"class_reference_preset.transformer must be a preset id"_s;
        QTest::newRow("reference not a preset")
            << head + R"("class_reference_preset":{"transformer":"bert-huge"}})"
            << u"class_reference_preset.transformer must be a preset id"_s;
        QTest::newRow("class rate") << head + R"("overhead_tflops_custom_by_class":{"convolutional":-2}})"
                                    << u"overhead_tflops_custom_by_class.convolutional must be a number"_s;
        QTest::newRow("class rate name")
            << head + R"("overhead_tflops_custom_by_class":{"cnn":80}})"
            << u"overhead_tflops_custom_by_class: \"cnn\" is not a workload class"_s;
        QTest::newRow("reference object") << head + R"("class_reference_preset":["resnet50"]})"
                                          << u"class_reference_preset must be an object"_s;
    }

    void badFactorsAreRefused()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        const auto r = TypicalStack::fromJson(json);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(reason), qPrintable(r.error().text()));
    }

    void theFactorAppliesToTheTypicalStack()
    {
        const TypicalStack &t = TypicalStack::builtin();
        const Workload typ = preset(u"resnet50"_s, SoftwareStack::Typical);
        for (const QString &gpu :
             {u"a100-80gb-sxm4"_s, u"rtx3090"_s, u"h100-80gb-sxm"_s, u"v100-32gb-sxm2"_s}) {
            const double a = *t.classLogFactor(archOf(gpu), WorkloadClass::Convolutional);
            const SingleGpuSpeed s = speed(typ, gpu);
            const SingleGpuSpeed tuned = speed(preset(typ.id, SoftwareStack::Tuned), gpu);
            const double overhead = typ.flopsPerSample / (t.overheadTflopsByPreset.value(typ.id) * 1e12);
            QVERIFY(std::abs(1.0 / s.samplesPerS - (1.0 / (tuned.samplesPerS * std::exp(a)) + overhead)) <
                    1e-12 / s.samplesPerS);
            QVERIFY2(s.basis.contains(u"class factor x%1 (convolutional workloads on %2 GPUs"_s.arg(
                         QString::number(std::exp(a), 'f', 2), archOf(gpu))),
                     qPrintable(s.basis));
            // Another class, another factor: the class reaches the projection.
            Workload other = typ;
            other.workloadClass = WorkloadClass::Transformer;
            const double b = *t.classLogFactor(archOf(gpu), WorkloadClass::Transformer);
            QVERIFY(std::abs(speed(other, gpu).samplesPerS / s.samplesPerS - 1) > 1e-6 ||
                    std::abs(a - b) < 1e-9);
        }
    }

    void theTunedStackIsUnchanged()
    {
        // 369f308's tuned projections (before the class existed), H100 SXM, datasheet calibration.
        const QList<std::pair<QString, double>> golden{{u"resnet50"_s, 5268.087239666081},
                                                       {u"bert-large-squad"_s, 251.74476934077},
                                                       {u"vit-b16"_s, 2696.9224366726003},
                                                       {u"gpt2-124m"_s, 505.1761732316961},
                                                       {u"llm7b-lora"_s, 17.381896412042153}};
        for (const auto &[id, value] : golden) {
            Workload w = preset(id, SoftwareStack::Tuned);
            QVERIFY2(std::abs(speed(w, u"h100-80gb-sxm"_s).samplesPerS / value - 1) < 1e-12, qPrintable(id));
            // Every class gives the same tuned speed, range and basis on every GPU.
            for (const GpuSpec &g : GpuSpecTable::builtin().specs()) {
                const SingleGpuSpeed base = speed(w, g.id);
                for (WorkloadClass c :
                     {WorkloadClass::Unknown, WorkloadClass::Detection, WorkloadClass::Transformer}) {
                    Workload x = w;
                    x.workloadClass = c;
                    const SingleGpuSpeed s = speed(x, g.id);
                    QCOMPARE(s.samplesPerS, base.samplesPerS);
                    QCOMPARE(s.range.p10, base.range.p10);
                    QCOMPARE(s.range.p90, base.range.p90);
                    QCOMPARE(s.basis, base.basis);
                }
            }
        }
    }

    void anUnknownClassUsesNoFactorAndAWiderRange()
    {
        const TypicalStack &t = TypicalStack::builtin();
        const SpeedModel noFactors =
            SpeedModel::builtin().withTypicalStack(t.withFit({t.overheadTflopsByPreset,
                                                              t.overheadTflopsCustom,
                                                              {},
                                                              t.defaultBytesPerFlop,
                                                              t.trafficFactor,
                                                              t.overheadTflopsCustomByClass}));
        for (const QString &gpu : {u"a100-80gb-sxm4"_s, u"quadro-rtx-6000"_s}) {
            const Workload unknown = custom(WorkloadClass::Unknown);
            const SingleGpuSpeed s = speed(unknown, gpu);
            // No factor: the speed of a model without any class factors ...
            const SingleGpuSpeed plain = speed(unknown, gpu, noFactors);
            QCOMPARE(s.samplesPerS, plain.samplesPerS);
            // ... and the range combined with the unknown-class spread.
            const LogRange expected = plain.range.combined(t.unknownClassRange);
            QCOMPARE(s.range.p10, expected.p10);
            QCOMPARE(s.range.p90, expected.p90);
            QVERIFY(s.basis.contains(u"workload class unknown: no class factor, range widened"));
            const SingleGpuSpeed known = speed(custom(WorkloadClass::Transformer), gpu);
            QVERIFY(s.range.p10 < known.range.p10 && s.range.p90 > known.range.p90);
        }
    }

    void aCustomWorkloadWithoutBytesMovesItsClassTraffic()
    {
        // Section 3.7: in the typical stack a custom workload given by its FLOPs alone is not compute-bound;
        // it moves its class's presets' bytes per FLOP (fit_typical_stack.py ships the presets' own figures).
        const TypicalStack &t = TypicalStack::builtin();
        const Workload *r50 = findWorkload(builtinWorkloads(), u"resnet50"_s);
        // ResNet-50's bytes per FLOP times the convolutional class's traffic factor (section 3.12: one per
        // class, each of the tool's grid; "unknown" holds the common one, applied to the presets' median).
        const QJsonObject traffic = QJsonDocument::fromJson(readResource(u"benchmarks/typical_stack.json"_s))
                                        .object()
                                        .value(u"typical_traffic_factor")
                                        .toObject();
        for (const char *c : {"convolutional", "transformer", "recurrent-speech", "detection", "unknown"}) {
            const double m = traffic.value(QLatin1String(c)).toDouble();
            QVERIFY2(m == 1 || m == 2 || m == 4 || m == 8, c);
            QCOMPARE(t.trafficFactor.value(QLatin1String(c)), m);
        }
        QCOMPARE(t.defaultBytesPerFlopOf(WorkloadClass::Convolutional),
                 QString::number(r50->bytesPerSample / r50->flopsPerSample *
                                     traffic.value(u"convolutional").toDouble(),
                                 'g', 4)
                     .toDouble());
        QList<double> ratios;
        for (const Workload &w : builtinWorkloads())
            ratios.append(w.bytesPerSample / w.flopsPerSample);
        std::sort(ratios.begin(), ratios.end());
        const qsizetype n = ratios.size();
        const double median = n % 2 ? ratios[n / 2] : (ratios[n / 2 - 1] + ratios[n / 2]) / 2;
        QCOMPARE(t.defaultBytesPerFlopOf(WorkloadClass::Unknown),
                 QString::number(median * traffic.value(u"unknown").toDouble(), 'g', 4).toDouble());
        // The shipped fit has the common factor of every class (PROJECTION.md 3.14: rule C rejected the
        // per-class factors); the file still names each class, so a per-class fit loads unchanged.
        for (const char *c : {"convolutional", "transformer", "recurrent-speech", "detection"})
            QCOMPARE(t.trafficFactor.value(QLatin1String(c)), t.trafficFactor.value(u"unknown"_s));
        for (WorkloadClass c :
             {WorkloadClass::Unknown, WorkloadClass::Convolutional, WorkloadClass::Transformer,
              WorkloadClass::RecurrentSpeech, WorkloadClass::Detection})
            QVERIFY(t.defaultBytesPerFlopOf(c) > 0 && t.defaultBytesPerFlopOf(c) < 0.1);
        // Rule I (section 3.18) gives the convolutional and transformer classes their reference preset's
        // shape instead of this roofline; without the references every class takes its traffic, as tested
        // here.
        TypicalStack roofline = t;
        roofline.classReferencePreset.clear();
        const SpeedModel traffic0 = SpeedModel::builtin().withTypicalStack(roofline);
        TypicalStack none = roofline;
        none.defaultBytesPerFlop.clear();
        const SpeedModel computeBound = SpeedModel::builtin().withTypicalStack(none);
        for (WorkloadClass c :
             {WorkloadClass::Convolutional, WorkloadClass::Transformer, WorkloadClass::RecurrentSpeech,
              WorkloadClass::Detection, WorkloadClass::Unknown}) {
            const Workload w = custom(c);
            const double k = t.defaultBytesPerFlopOf(c);
            Workload given = w;
            given.bytesPerSample = 2.0 * w.flopsPerSample * k;
            for (const QString &gpu : {u"h100-80gb-sxm"_s, u"a100-80gb-sxm4"_s, u"rtx3090"_s}) {
                // Underneath, the tuned stack's speed with that traffic given explicitly.
                Workload explicitTuned = w;
                explicitTuned.bytesPerSample = w.flopsPerSample * k;
                explicitTuned.stack = SoftwareStack::Tuned;
                const SingleGpuSpeed s = speed(w, gpu, traffic0);
                QVERIFY(std::abs(s.tunedSamplesPerS / speed(explicitTuned, gpu, traffic0).samplesPerS - 1) <
                        1e-12);
                QVERIFY2(s.basis.contains(u"memory traffic not given: %1 bytes per FLOP assumed"_s.arg(
                             QString::number(k, 'g', 3))),
                         qPrintable(s.basis));
                QVERIFY2(s.basis.contains(u" x %1, the typical stack's traffic)"_s.arg(
                             QString::number(t.trafficFactor.value(workloadClassName(c)), 'g', 3))),
                         qPrintable(s.basis));
                QVERIFY(s.samplesPerS < speed(w, gpu, computeBound).samplesPerS);
                // Bytes the user gives are used as given, with no note.
                Workload givenTuned = given;
                givenTuned.stack = SoftwareStack::Tuned;
                const SingleGpuSpeed g = speed(given, gpu, traffic0);
                QVERIFY(std::abs(g.tunedSamplesPerS / speed(givenTuned, gpu, traffic0).samplesPerS - 1) <
                        1e-12);
                QVERIFY(!g.basis.contains(u"bytes per FLOP assumed"));
                // Rule AC (section 3.29): the tuned stack without bytes takes the class's presets' own bytes
                // per FLOP, k / m (without the typical stack's traffic factor); without a default it stays
                // compute-bound.
                const double m = t.trafficFactor.value(workloadClassName(c));
                QVERIFY(m > 1);
                Workload tuned = w;
                tuned.stack = SoftwareStack::Tuned;
                Workload presetsOwn = explicitTuned;
                presetsOwn.bytesPerSample = w.flopsPerSample * k / m;
                const SingleGpuSpeed ac = speed(tuned, gpu, traffic0);
                QVERIFY(std::abs(ac.samplesPerS / speed(presetsOwn, gpu, traffic0).samplesPerS - 1) < 1e-12);
                QVERIFY(ac.samplesPerS < speed(tuned, gpu, computeBound).samplesPerS);
                QVERIFY(ac.samplesPerS > speed(explicitTuned, gpu, traffic0).samplesPerS);
                QVERIFY2(ac.basis.contains(
                             u"memory traffic not given: %1 bytes per FLOP assumed (%2, rule AC)"_s.arg(
                                 QString::number(k / m, 'g', 3),
                                 c == WorkloadClass::Unknown
                                     ? u"the presets' median"_s
                                     : u"the presets' figure for %1 workloads"_s.arg(workloadClassName(c)))),
                         qPrintable(ac.basis));
                QVERIFY(!speed(tuned, gpu, computeBound).basis.contains(u"bytes per FLOP assumed"));
                QVERIFY(!speed(presetsOwn, gpu, traffic0).basis.contains(u"bytes per FLOP assumed"));
            }
        }
        // The issue's symptom: the H100's lead over the A100 on a transformer no longer follows the tensor
        // peak alone; the traffic pulls it toward the bandwidth ratio (1.6x), underneath the overhead and
        // with it. (Section 3.12: the transformer class's own factor is 1, the presets' traffic, so the pull
        // underneath is smaller than with the common 4: 2.41x against 2.71x compute-bound.)
        const Workload tr = custom(WorkloadClass::Transformer);
        auto ratio = [&](const SpeedModel &m, bool tuned) {
            const SingleGpuSpeed h = speed(tr, u"h100-80gb-sxm"_s, m), a = speed(tr, u"a100-80gb-sxm4"_s, m);
            return tuned ? h.tunedSamplesPerS / a.tunedSamplesPerS : h.samplesPerS / a.samplesPerS;
        };
        QVERIFY2(ratio(traffic0, true) < 0.95 * ratio(computeBound, true),
                 qPrintable(u"%1 vs %2"_s.arg(ratio(traffic0, true)).arg(ratio(computeBound, true))));
        QVERIFY(ratio(traffic0, false) < ratio(computeBound, false));
        QVERIFY(ratio(traffic0, false) > 1.0);
        // Rule AC: the tuned stack's H100 lead over the A100 on a transformer given without bytes is no
        // longer the tensor peak's (MLPerf's other workloads, section 3.29, measured 1.8x on UNet3D).
        Workload trTuned = tr;
        trTuned.stack = SoftwareStack::Tuned;
        const double acRatio = speed(trTuned, u"h100-80gb-sxm"_s, traffic0).samplesPerS /
                               speed(trTuned, u"a100-80gb-sxm4"_s, traffic0).samplesPerS;
        const double peakRatio = speed(trTuned, u"h100-80gb-sxm"_s, computeBound).samplesPerS /
                                 speed(trTuned, u"a100-80gb-sxm4"_s, computeBound).samplesPerS;
        QVERIFY2(acRatio < 0.95 * peakRatio && acRatio > 1.5,
                 qPrintable(u"%1 vs %2"_s.arg(acRatio).arg(peakRatio)));
        // Presets carry their own bytes: unchanged, in both stacks.
        for (const Workload &p : builtinWorkloads()) {
            QCOMPARE(speed(p, u"h100-80gb-sxm"_s, traffic0).samplesPerS,
                     speed(p, u"h100-80gb-sxm"_s, computeBound).samplesPerS);
            Workload pTuned = p;
            pTuned.stack = SoftwareStack::Tuned;
            QCOMPARE(speed(pTuned, u"h100-80gb-sxm"_s, traffic0).samplesPerS,
                     speed(pTuned, u"h100-80gb-sxm"_s, computeBound).samplesPerS);
        }
    }

    void anArchitectureWithoutAMeasurementSaysSo()
    {
        const TypicalStack &t = TypicalStack::builtin();
        const QString note = u"no typical-stack measurement of this architecture and class; range from "
                             u"leave-one-architecture-out"_s;
        // Every GPU of the catalog with a spec: the note and the range exactly where the architecture has no
        // factor for the workload's class.
        int without = 0;
        for (const Workload &w : {preset(u"resnet50"_s, SoftwareStack::Typical),
                                  custom(WorkloadClass::RecurrentSpeech), custom(WorkloadClass::Unknown)}) {
            for (const GpuSpec &g : GpuSpecTable::builtin().specs()) {
                const SingleGpuSpeed s = speed(w, g.id);
                if (!s.ok)
                    continue;
                const bool measured = t.architectureMeasured(archOf(g.id), w.workloadClass);
                QCOMPARE(s.basis.contains(note), !measured);
                if (!measured) {
                    ++without;
                    QVERIFY(s.range.p10 <= t.newArchitectureRange.p10 &&
                            s.range.p90 >= t.newArchitectureRange.p90);
                }
            }
        }
        QVERIFY(without > 20);
        // The issue's case: ResNet-50 on a B200 (Blackwell: no typical-stack measurement at all).
        const SingleGpuSpeed b200 = speed(preset(u"resnet50"_s, SoftwareStack::Typical), u"b200"_s);
        QVERIFY2(b200.basis.contains(note), qPrintable(b200.basis));
        QVERIFY(b200.basis.contains(u"class convolutional: no class factor for blackwell GPUs"));
        // Hopper has convolutional and transformer rows, not recurrent ones.
        QVERIFY(
            !speed(preset(u"resnet50"_s, SoftwareStack::Typical), u"h100-80gb-sxm"_s).basis.contains(note));
        QVERIFY(speed(custom(WorkloadClass::RecurrentSpeech), u"h100-80gb-sxm"_s).basis.contains(note));
    }

    void eachKindOfProjectionTakesItsOwnRange()
    {
        // Section 3.10: a file written before the kinds had their own ranges gives every kind the one range.
        const QByteArray old =
            R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":300,)"
            R"("range":{"p10":-0.1,"p90":0.2},"new_architecture_range":{"p10":-0.3,"p90":0.4}})";
        const auto parsed = TypicalStack::fromJson(old);
        QVERIFY(parsed);
        QCOMPARE(parsed.value().rangeCustom.p10, -0.1);
        QCOMPARE(parsed.value().rangeCustom.p90, 0.2);
        QCOMPARE(parsed.value().newArchitectureRangeTransfer.p10, -0.3);
        QCOMPARE(parsed.value().newArchitectureRangeTransfer.p90, 0.4);

        // Ranges set far apart, so that each shows where it is used and nowhere else.
        TypicalStack t = TypicalStack::builtin();
        t.rangeCustom = {-1.5, 1.6};
        t.newArchitectureRange = {-2.0, 2.1};
        t.newArchitectureRangeTransfer = {-2.5, 2.6};
        const SpeedModel model = SpeedModel::builtin().withTypicalStack(t);
        const auto within = [](const LogRange &r, double p10, double p90) {
            return r.p10 <= p10 + 1e-12 && r.p90 >= p90 - 1e-12;
        };
        // A custom workload from the shipped data on a measured architecture: its own conversion range.
        const Workload mine = custom(WorkloadClass::Transformer);
        QVERIFY(within(speed(mine, u"a100-80gb-sxm4"_s, model).range, -1.5, 1.6));
        QVERIFY(!within(speed(mine, u"a100-80gb-sxm4"_s, model).range, -2.0, 2.0));
        // A preset keeps the conversion's range.
        const Workload bert = preset(u"bert-large-squad"_s, SoftwareStack::Typical);
        QVERIFY(!within(speed(bert, u"a100-80gb-sxm4"_s, model).range, -1.5, 1.5));
        // On an architecture without a measurement: the rows' range for the preset, the custom workload...
        QVERIFY(within(speed(bert, u"b200"_s, model).range, -2.0, 2.1));
        QVERIFY(!within(speed(bert, u"b200"_s, model).range, -2.5, 2.5));
        QVERIFY(within(speed(mine, u"b200"_s, model).range, -2.0, 2.1));
        // ...and the pairs' for a user's figure carried there, which does not take the custom range.
        const Workload measured = buildWorkloadSpec(measuredOnA100()).value();
        QVERIFY(within(speed(measured, u"b200"_s, model).range, -2.5, 2.6));
        QVERIFY(!within(speed(measured, u"h100-80gb-sxm"_s, model).range, -1.5, 1.5));
    }

    void aFigureCarriedAcrossABatchChangeTakesItsRange()
    {
        // Rule AD (section 3.30): a range set far apart shows where it is used; the point never moves.
        TypicalStack t = TypicalStack::builtin();
        t.batchChangeRangeTransfer = {-3.0, 3.1};
        const SpeedModel model = SpeedModel::builtin().withTypicalStack(t);
        TypicalStack none = t;
        none.batchChangeMinRatio = 0; // a file written before the rule
        const SpeedModel without = SpeedModel::builtin().withTypicalStack(none);
        const auto measured = [](int batch, int measuredBatch, SoftwareStack stack) {
            WorkloadSpec s = measuredOnA100();
            s.overrides.batchPerGpu = batch;
            if (measuredBatch > 0)
                s.overrides.measuredBatchPerGpu = measuredBatch;
            s.overrides.stack = stack;
            auto w = buildWorkloadSpec(s);
            if (!w)
                qFatal("%s", qPrintable(w.error().text()));
            return w.value();
        };
        const auto widened = [](const SingleGpuSpeed &r) {
            return r.range.p10 <= -3.0 + 1e-12 && r.range.p90 >= 3.1 - 1e-12;
        };
        const QString h100 = u"h100-80gb-sxm"_s;
        for (auto [batch, at] : {std::pair{32, 4}, std::pair{4, 32}, std::pair{64, 2}}) {
            const Workload w = measured(batch, at, SoftwareStack::Typical);
            const SingleGpuSpeed r = speed(w, h100, model);
            QVERIFY2(widened(r), qPrintable(r.basis));
            QVERIFY2(r.basis.contains(u"rule AD"), qPrintable(r.basis));
            QVERIFY(r.basis.contains(
                u"measured at batch %1 and this GPU is projected at batch %2"_s.arg(at).arg(batch)));
            // Only the range: the same projection without the rule has the same point and a narrower range.
            const SingleGpuSpeed plain = speed(w, h100, without);
            QCOMPARE(plain.samplesPerS, r.samplesPerS);
            QVERIFY(!widened(plain));
            QVERIFY(!plain.basis.contains(u"rule AD"));
            // The user's own GPU: the point is the figure, its range widened too (amendment AD-1).
            const SingleGpuSpeed own = speed(w, u"a100-80gb-sxm4"_s, model);
            QCOMPARE(own.samplesPerS, 500.0);
            QVERIFY2(widened(own), qPrintable(own.basis));
            QVERIFY(own.basis.contains(u"your figure on this GPU was measured at batch"));
            QVERIFY(!widened(speed(w, u"a100-80gb-sxm4"_s, without)));
            // The tuned stack's ranges rest on other evidence (the rule's pairs are the typical stack's).
            QVERIFY(!widened(speed(measured(batch, at, SoftwareStack::Tuned), h100, model)));
        }
        // Under 8x apart, or no batch of its own (the figure is taken at the projected batch): unchanged.
        for (auto [batch, at] : {std::pair{32, 5}, std::pair{5, 32}, std::pair{32, 0}, std::pair{32, 32}})
            for (const QString &gpu : {h100, u"a100-80gb-sxm4"_s}) {
                const SingleGpuSpeed r = speed(measured(batch, at, SoftwareStack::Typical), gpu, model);
                QVERIFY2(!widened(r), qPrintable(gpu + QString::number(at)));
                QVERIFY(!r.basis.contains(u"rule AD"));
            }
        // The same through the CLI (--measured-batch beside --batch), with the shipped range.
        QTemporaryDir dir;
        const QString db = dir.filePath(u"t.sqlite"_s);
        const QStringList args{u"--samples"_s,
                               u"1000000"_s,
                               u"--flops-per-sample"_s,
                               u"2e11"_s,
                               u"--workload-class"_s,
                               u"transformer"_s,
                               u"--measured"_s,
                               u"500"_s,
                               u"--measured-on"_s,
                               u"a100-80gb-sxm4"_s,
                               u"--batch"_s,
                               u"32"_s};
        const QJsonObject near = gpusJson(db, args + QStringList{u"--measured-batch"_s, u"16"_s}, h100);
        const QJsonObject far = gpusJson(db, args + QStringList{u"--measured-batch"_s, u"4"_s}, h100);
        QVERIFY(!near.isEmpty() && !far.isEmpty());
        QCOMPARE(far.value(u"samples_per_s").toDouble(), near.value(u"samples_per_s").toDouble());
        QVERIFY(far.value(u"samples_per_s_low").toDouble() < near.value(u"samples_per_s_low").toDouble());
        QVERIFY(far.value(u"samples_per_s_high").toDouble() > near.value(u"samples_per_s_high").toDouble());
        QVERIFY(far.value(u"basis").toString().contains(u"rule AD"));
        const TypicalStack &shipped = TypicalStack::builtin();
        const double point = far.value(u"samples_per_s").toDouble();
        QVERIFY(far.value(u"samples_per_s_low").toDouble() <=
                point * std::exp(-shipped.batchChangeRangeTransfer.p90) * (1 + 1e-9));
        QVERIFY(far.value(u"samples_per_s_high").toDouble() >=
                point * std::exp(-shipped.batchChangeRangeTransfer.p10) * (1 - 1e-9));
        // The answer's evidence line says why its range is wide.
        for (auto [at, says] : {std::pair{u"4"_s, true}, std::pair{u"16"_s, false}}) {
            const CliRun r = cli(db, QStringList{u"answer"_s, u"--format"_s, u"json"_s} + args +
                                         QStringList{u"--measured-batch"_s, at});
            QCOMPARE(r.rc, 0);
            const QString evidence = QJsonDocument::fromJson(r.out.toUtf8())
                                         .object()
                                         .value(u"recommended")
                                         .toObject()
                                         .value(u"evidence")
                                         .toString();
            QVERIFY(!evidence.isEmpty());
            QVERIFY2(evidence.contains(u"measured at batch 4 (rule AD)") == says, qPrintable(evidence));
        }
    }

    void aFigureWithoutFlopsIsCarriedByTheModelsRatiosAlone()
    {
        // "Measured speed on a GPU" without FLOPs per sample (the workload panel's default custom workload):
        // the figure is the whole level. The typical stack once bounded the transfer by 10x of a projection
        // of the placeholder shape, which put a T4 at ~1.5e10 samples/s.
        // Rule J (section 3.18): a class with a reference preset takes the preset's tuned-stack shape
        // instead.
        for (const WorkloadClass c :
             {WorkloadClass::Unknown, WorkloadClass::Transformer, WorkloadClass::RecurrentSpeech}) {
            Workload forStack[2];
            for (const SoftwareStack stack : {SoftwareStack::Typical, SoftwareStack::Tuned}) {
                WorkloadSpec s;
                s.name = u"mine"_s;
                s.overrides.samplesPerEpoch = 1e6;
                s.overrides.workloadClass = c;
                s.overrides.stack = stack;
                s.overrides.measuredSamplesPerS = 1000;
                s.overrides.referenceGpu = u"a100-40gb-sxm4"_s;
                auto w = buildWorkloadSpec(s);
                QVERIFY2(w, qPrintable(w ? QString() : w.error().text()));
                QVERIFY(!(w.value().flopsPerSample > 0));
                forStack[stack == SoftwareStack::Typical ? 0 : 1] = w.value();
            }
            const TypicalStack &t = TypicalStack::builtin();
            const QString from = archOf(u"a100-40gb-sxm4"_s);
            for (const QString &gpu : {u"t4"_s, u"h100-80gb-sxm"_s, u"rtx3090"_s}) {
                const SingleGpuSpeed typical = speed(forStack[0], gpu), tuned = speed(forStack[1], gpu);
                QVERIFY(typical.ok && tuned.ok);
                QVERIFY2(typical.samplesPerS > 100 && typical.samplesPerS < 10000,
                         qPrintable(u"%1: %2 samples/s"_s.arg(gpu).arg(typical.samplesPerS)));
                // The tuned stack's ratio, times the class factors of both GPUs' architectures.
                const double eta = std::exp(t.classLogFactor(archOf(gpu), c).value_or(0.0) -
                                            t.classLogFactor(from, c).value_or(0.0));
                double expected = tuned.samplesPerS * eta;
                if (c == WorkloadClass::Transformer) {
                    Workload ref = *findWorkload(builtinWorkloads(), u"bert-large-squad"_s);
                    ref.stack = SoftwareStack::Tuned;
                    ref.precision = forStack[0].precision;
                    expected = 1000 * speed(ref, gpu).samplesPerS /
                               speed(ref, u"a100-40gb-sxm4"_s).samplesPerS * eta;
                    QCOMPARE(typical.referencePreset, u"bert-large-squad"_s);
                    QVERIFY(std::abs(expected / (tuned.samplesPerS * eta) - 1) > 1e-3); // the rule moves it
                } else {
                    QVERIFY(typical.referencePreset.isEmpty());
                }
                QVERIFY2(std::abs(typical.samplesPerS / expected - 1) < 1e-6,
                         qPrintable(u"%1: %2 vs %3"_s.arg(gpu).arg(typical.samplesPerS).arg(expected)));
                QVERIFY2(typical.basis.contains(u"no FLOPs per sample given"), qPrintable(typical.basis));
                QVERIFY2(!typical.basis.contains(u"bytes per FLOP assumed"), qPrintable(typical.basis));
            }
        }
    }

    void aUserFigureIsCarriedWithTheFactorsOfBothArchitectures()
    {
        // A figure equal to the typical projection on its GPU moves no other GPU, with the class factors.
        const Workload w = custom(WorkloadClass::Transformer);
        const double onA100 = speed(w, u"a100-80gb-sxm4"_s).samplesPerS;
        WorkloadSpec s;
        s.name = u"mine"_s;
        s.overrides.samplesPerEpoch = 1e6;
        s.overrides.flopsPerSample = 2e11;
        s.overrides.workloadClass = WorkloadClass::Transformer;
        s.overrides.measuredSamplesPerS = onA100;
        s.overrides.referenceGpu = u"a100-80gb-sxm4"_s;
        const Workload measured = buildWorkloadSpec(s).value();
        QCOMPARE(measured.workloadClass, WorkloadClass::Transformer);
        for (const QString &gpu : {u"rtx3090"_s, u"quadro-rtx-6000"_s, u"h100-80gb-sxm"_s}) {
            const double moved = speed(measured, gpu).samplesPerS, alone = speed(w, gpu).samplesPerS;
            QVERIFY2(std::abs(moved / alone - 1) < 1e-9,
                     qPrintable(u"%1: %2 vs %3"_s.arg(gpu).arg(moved).arg(alone)));
        }
        // The transfer's GPU-to-GPU ratio follows the class: the same figure as unknown class differs.
        s.overrides.workloadClass = WorkloadClass::Unknown;
        const Workload asUnknown = buildWorkloadSpec(s).value();
        QVERIFY(std::abs(speed(asUnknown, u"quadro-rtx-6000"_s).samplesPerS /
                             speed(measured, u"quadro-rtx-6000"_s).samplesPerS -
                         1) > 0.01);
    }

    // Rule I (PROJECTION.md 3.18): in the typical stack a custom workload of a class with a reference preset,
    // given by its FLOPs alone, takes the preset's tuned-stack speed on each GPU scaled by FLOPs per sample;
    // the tuned stack, a workload with its own bytes and a class without a reference keep the roofline.
    void aCustomWorkloadTakesItsClassReferenceShape()
    {
        const TypicalStack &t = TypicalStack::builtin();
        QCOMPARE(t.classReferencePreset.value(u"convolutional"_s), u"resnet50"_s);
        QCOMPARE(t.classReferencePreset.value(u"transformer"_s), u"bert-large-squad"_s);
        QCOMPARE(t.classReferencePreset.size(), 2);
        TypicalStack roofline = t;
        roofline.classReferencePreset.clear();
        const SpeedModel without = SpeedModel::builtin().withTypicalStack(roofline);
        for (const auto &[c, id] : {std::pair{WorkloadClass::Convolutional, u"resnet50"_s},
                                    std::pair{WorkloadClass::Transformer, u"bert-large-squad"_s}}) {
            const Workload w = custom(c);
            Workload ref = *findWorkload(builtinWorkloads(), id);
            ref.stack = SoftwareStack::Tuned;
            ref.precision = w.precision;
            for (const QString &gpu :
                 {u"a100-80gb-sxm4"_s, u"rtx-a6000"_s, u"h100-80gb-sxm"_s, u"gtx1080ti"_s, u"b200"_s}) {
                const SingleGpuSpeed s = speed(w, gpu);
                const double expected = speed(ref, gpu).samplesPerS * ref.flopsPerSample / w.flopsPerSample;
                QVERIFY2(std::abs(s.tunedSamplesPerS / expected - 1) < 1e-12,
                         qPrintable(u"%1 %2: %3 vs %4"_s.arg(id, gpu).arg(s.tunedSamplesPerS).arg(expected)));
                QVERIFY2(std::abs(s.tunedSamplesPerS / speed(w, gpu, without).tunedSamplesPerS - 1) > 1e-3,
                         qPrintable(gpu));
                QVERIFY2(s.basis.contains(u"the %1 preset's tuned-stack speed on this GPU scaled"_s.arg(id)),
                         qPrintable(s.basis));
                QVERIFY2(!s.basis.contains(u"memory traffic not given"), qPrintable(s.basis));
                QCOMPARE(s.tier, ProjectionTier::Roofline); // no measurement of this workload: unanchored
                QCOMPARE(s.referencePreset, id);
                Workload tuned = w;
                tuned.stack = SoftwareStack::Tuned;
                QCOMPARE(speed(tuned, gpu).samplesPerS, speed(tuned, gpu, without).samplesPerS);
                Workload given = w;
                given.bytesPerSample = w.flopsPerSample * 0.02;
                QCOMPARE(speed(given, gpu).samplesPerS, speed(given, gpu, without).samplesPerS);
                QVERIFY(speed(given, gpu).referencePreset.isEmpty() &&
                        speed(tuned, gpu).referencePreset.isEmpty());
            }
        }
        for (WorkloadClass c :
             {WorkloadClass::Unknown, WorkloadClass::RecurrentSpeech, WorkloadClass::Detection})
            QCOMPARE(speed(custom(c), u"rtx-a6000"_s).samplesPerS,
                     speed(custom(c), u"rtx-a6000"_s, without).samplesPerS);
    }

    // A user's figure of such a workload is carried with the reference shape: a figure faster than the tuned
    // projection of its GPU (no overhead to take) moves every other GPU by the preset's tuned ratio and the
    // two architectures' class factors.
    void aUserFigureIsCarriedWithTheReferenceShape()
    {
        const TypicalStack &t = TypicalStack::builtin();
        const Workload w = custom(WorkloadClass::Convolutional);
        const QString from = u"a100-40gb-pcie"_s;
        auto eta = [&](const QString &gpu) {
            return std::exp(t.classLogFactor(archOf(gpu), WorkloadClass::Convolutional).value_or(0.0));
        };
        const double tunedR = speed(w, from).tunedSamplesPerS;
        WorkloadSpec s;
        s.name = u"mine"_s;
        s.overrides.samplesPerEpoch = 1e6;
        s.overrides.flopsPerSample = w.flopsPerSample;
        s.overrides.workloadClass = WorkloadClass::Convolutional;
        s.overrides.measuredSamplesPerS = 2.0 * tunedR * eta(from);
        s.overrides.referenceGpu = from;
        const Workload measured = buildWorkloadSpec(s).value();
        for (const QString &gpu : {u"rtx-a6000"_s, u"gtx1080ti"_s, u"h100-80gb-sxm"_s, u"rtx3090"_s}) {
            const SingleGpuSpeed p = speed(measured, gpu);
            const double expected = 2.0 * speed(w, gpu).tunedSamplesPerS * eta(gpu);
            QVERIFY2(std::abs(p.samplesPerS / expected - 1) < 1e-9,
                     qPrintable(u"%1: %2 vs %3"_s.arg(gpu).arg(p.samplesPerS).arg(expected)));
            QVERIFY2(
                p.basis.contains(u"with the GPU-to-GPU shape of the resnet50 preset's tuned-stack speeds"),
                qPrintable(p.basis));
        }
    }

    // Rules H3 and M (PROJECTION.md 3.18, 3.20): a custom convolutional workload takes R_o pooled over
    // ResNet-50's rows, a transformer one R_o pooled over the transformer presets' rows (the file's
    // overhead_tflops_custom_by_class); the other classes the pool of every row; folds carry their own.
    void aConvolutionalCustomWorkloadTakesItsClassOverhead()
    {
        const TypicalStack &t = TypicalStack::builtin();
        const QJsonObject file =
            QJsonDocument::fromJson(readResource(u"benchmarks/typical_stack.json"_s)).object();
        const double conv =
            file.value(u"overhead_tflops_custom_by_class").toObject().value(u"convolutional").toDouble();
        const double transformer =
            file.value(u"overhead_tflops_custom_by_class").toObject().value(u"transformer").toDouble();
        QVERIFY(conv > 0 && transformer > 0);
        QCOMPARE(t.overheadTflopsCustomByClass.value(u"convolutional"_s), conv);
        QCOMPARE(t.overheadTflops(u"mine"_s, true, WorkloadClass::Convolutional), conv);
        QCOMPARE(t.overheadTflops(u"mine"_s, true, WorkloadClass::Transformer), transformer);
        QCOMPARE(t.overheadTflops(u"mine"_s, true, WorkloadClass::Detection), t.overheadTflopsCustom);
        QCOMPARE(t.overheadTflops(u"mine"_s, true, WorkloadClass::Unknown), t.overheadTflopsCustom);
        QVERIFY(std::abs(transformer / t.overheadTflopsCustom - 1) > 0.2); // rule M changes the overhead
        // A preset keeps its own; a preset without one (a held-out fold) takes its class's pool.
        QCOMPARE(t.overheadTflops(u"resnet50"_s, false, WorkloadClass::Convolutional),
                 t.overheadTflopsByPreset.value(u"resnet50"_s));
        QCOMPARE(t.overheadTflops(u"nothing"_s, false, WorkloadClass::Convolutional), conv);
        QVERIFY(std::abs(conv / t.overheadTflopsCustom - 1) > 0.5); // the rule changes the overhead
        for (WorkloadClass c : {WorkloadClass::Convolutional, WorkloadClass::Transformer}) {
            const Workload w = custom(c);
            const SingleGpuSpeed s = speed(w, u"rtx3090"_s);
            const double rate = c == WorkloadClass::Convolutional ? conv : transformer;
            QVERIFY2(std::abs(s.overheadS / (w.flopsPerSample / (rate * 1e12)) - 1) < 1e-12,
                     qPrintable(s.basis));
        }
        for (const TypicalStackFold &f : t.sourceFolds)
            if (f.heldOut == u"GF-MEASURE-2611") // fitted on Lambda's 2020-2022 ResNet-50 rows alone
                QVERIFY(f.fit.overheadTflopsCustomByClass.value(u"convolutional"_s) < conv);
    }

    void cliFlagSetsTheClass()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"c.sqlite"_s);
        const QStringList base{u"--flops-per-sample"_s, u"2e11"_s, u"--samples"_s, u"1000"_s};
        const QJsonObject unknown = gpusJson(db, base, u"quadro-rtx-6000"_s);
        const QJsonObject transformer =
            gpusJson(db, base + QStringList{u"--workload-class"_s, u"transformer"_s}, u"quadro-rtx-6000"_s);
        QCOMPARE(unknown.value(u"workload_class").toString(), u"unknown"_s);
        QCOMPARE(transformer.value(u"workload_class").toString(), u"transformer"_s);
        QVERIFY(transformer.value(u"basis").toString().contains(u"class factor x"));
        QVERIFY(unknown.value(u"basis").toString().contains(u"workload class unknown"));
        QVERIFY(unknown.value(u"samples_per_s").toDouble() != transformer.value(u"samples_per_s").toDouble());
        // A preset takes its own class; the flag overrides it.
        QCOMPARE(gpusJson(db, {u"--workload"_s, u"resnet50"_s}, u"h100-80gb-sxm"_s)
                     .value(u"workload_class")
                     .toString(),
                 u"convolutional"_s);
        QCOMPARE(gpusJson(db, {u"--workload"_s, u"resnet50"_s, u"--workload-class"_s, u"DETECTION"_s},
                          u"h100-80gb-sxm"_s)
                     .value(u"workload_class")
                     .toString(),
                 u"detection"_s);
        const CliRun bad = cli(db, QStringList{u"gpus"_s, u"--workload-class"_s, u"cnn"_s} + base);
        QCOMPARE(bad.rc, 2);
        QVERIFY2(bad.err.contains(u"--workload-class: \"cnn\" is not one of convolutional, transformer, "
                                  u"recurrent-speech, detection, unknown"),
                 qPrintable(bad.err));
        const CliRun help = cli(db, {u"gpus"_s, u"--help"_s});
        QVERIFY(help.out.contains(u"--workload-class"));
        QVERIFY2(help.out.simplified().contains(u"the typical stack assumes its class's bytes per FLOP"),
                 qPrintable(help.out));
        QVERIFY2(help.out.simplified().contains(u"takes the GPU-to-GPU shape of ResNet-50 or BERT-large"),
                 qPrintable(help.out));
        // A custom workload without bytes says what traffic it was given (section 3.9); one of a class with a
        // reference preset names the preset whose shape it takes instead (section 3.18).
        QVERIFY2(gpusJson(db, QStringList{u"--workload-class"_s, u"recurrent-speech"_s} + base, u"rtx3090"_s)
                     .value(u"basis"_s)
                     .toString()
                     .contains(u"memory traffic not given"),
                 "basis of a custom workload without bytes");
        const QString shaped =
            gpusJson(db, QStringList{u"--workload-class"_s, u"transformer"_s} + base, u"rtx3090"_s)
                .value(u"basis"_s)
                .toString();
        QVERIFY2(shaped.contains(u"the bert-large-squad preset's tuned-stack speed on this GPU scaled"),
                 qPrintable(shaped));
        QVERIFY2(!shaped.contains(u"memory traffic not given"), qPrintable(shaped));
        // The report names the class and its reproduce command keeps it.
        const QString md = dir.filePath(u"r.md"_s);
        const CliRun report = cli(db, QStringList{u"report"_s, u"--workload-class"_s, u"recurrent-speech"_s,
                                                  u"--format"_s, u"md"_s, u"-o"_s, md} +
                                          base);
        QVERIFY2(report.rc == 0, qPrintable(report.err));
        QFile f(md);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(u"GPU architecture for recurrent-speech workloads"));
        QVERIFY(text.contains(u"--workload-class recurrent-speech"));
    }

    void scenarioFilesCarryTheClass()
    {
        Scenario sc;
        sc.workload.name = u"mine"_s;
        sc.workload.overrides.samplesPerEpoch = 1000;
        sc.workload.overrides.flopsPerSample = 2e11;
        sc.workload.overrides.workloadClass = WorkloadClass::Detection;
        const QByteArray bytes = scenarioToBytes(sc);
        QVERIFY(bytes.contains("\"class\": \"detection\""));
        const auto back = scenarioFromBytes(bytes);
        QVERIFY2(back, back ? "" : qPrintable(back.error().text()));
        QCOMPARE(back.value().workload.overrides.workloadClass, WorkloadClass::Detection);
        QCOMPARE(scenarioWorkload(back.value()).value().workloadClass, WorkloadClass::Detection);
        // A file written before the class existed: a custom workload of unknown class, a preset its own.
        QByteArray old = bytes;
        old.replace("\"class\": \"detection\",", "");
        QVERIFY(!old.contains("\"class\": \"detection\""));
        const auto oldBack = scenarioFromBytes(old);
        QVERIFY2(oldBack, oldBack ? "" : qPrintable(oldBack.error().text()));
        QVERIFY(!oldBack.value().workload.overrides.workloadClass.has_value());
        QCOMPARE(scenarioWorkload(oldBack.value()).value().workloadClass, WorkloadClass::Unknown);
        // The comparison names the class; a bad value is refused naming the field.
        const QList<ScenarioDifference> diff = scenarioDifferences(back.value(), oldBack.value());
        QVERIFY(std::any_of(diff.begin(), diff.end(), [](const ScenarioDifference &d) {
            return d.field == u"workload.class" && d.a == u"detection";
        }));
        QByteArray bad = bytes;
        bad.replace("\"class\": \"detection\"", "\"class\": \"cnn\"");
        const auto refused = scenarioFromBytes(bad);
        QVERIFY(!refused);
        QVERIFY2(refused.error().text().contains(u"workload.class"), qPrintable(refused.error().text()));
    }

    void leaveOneArchitectureOutEqualsTheFitter()
    {
        // gpufrontier-cli validate's split, computed by the app, equals fit_typical_stack.py's own figures.
        const QJsonObject doc =
            QJsonDocument::fromJson(readResource(u"benchmarks/typical_stack.json"_s)).object();
        const QJsonObject tool = doc.value(u"splits")
                                     .toObject()
                                     .value(u"leave one architecture out")
                                     .toObject()
                                     .value(u"after")
                                     .toObject();
        const ArchitectureValidation v =
            validateLeaveOneArchitectureOut(SpeedModel::builtin(), GpuSpecTable::builtin(),
                                            TransferData::builtin(), builtinTypicalStackRows());
        QCOMPARE(v.folds.size(), TypicalStack::builtin().architectureFolds.size());
        auto same = [](const TransferSummary &s, const QJsonObject &o) {
            return s.n == o.value(u"n").toInt() &&
                   std::abs(s.median - o.value(u"median").toDouble()) < 6e-5 &&
                   std::abs(s.max - o.value(u"max").toDouble()) < 6e-5 &&
                   std::abs(s.coverage - o.value(u"coverage").toDouble()) < 6e-5;
        };
        QVERIFY(same(v.pairs, tool.value(u"pairs").toObject()));
        QVERIFY(same(v.fromHeadline, tool.value(u"pairs_from_headline").toObject()));
        QVERIFY(same(v.rows, tool.value(u"rows").toObject()));
        QVERIFY(v.pairs.n > 1000 && v.rows.n > 30);
        // Rule Z: the rows relative to their reference GPU, each pair of rows with the fold's fit.
        const QJsonObject relative = tool.value(u"rows_relative").toObject();
        QCOMPARE(v.rowsRelative.n, relative.value(u"n").toInt());
        QVERIFY(std::abs(v.rowsRelative.median - relative.value(u"median").toDouble()) < 6e-5);
        QVERIFY(std::abs(v.rowsRelative.max - relative.value(u"max").toDouble()) < 6e-5);
        // The held-out architecture is projected as one without a measurement, with its fold's factors.
        TypicalStack shuffled = TypicalStack::builtin();
        for (TypicalStackFold &f : shuffled.architectureFolds)
            for (auto it = f.fit.classLogFactors.begin(); it != f.fit.classLogFactors.end(); ++it)
                *it += 0.2;
        const ArchitectureValidation moved = validateLeaveOneArchitectureOut(
            SpeedModel::builtin().withTypicalStack(shuffled), GpuSpecTable::builtin(),
            TransferData::builtin(), builtinTypicalStackRows());
        QVERIFY(moved.pairs.median != v.pairs.median); // the user's GPU's factor comes from the fold
        QCOMPARE(moved.rows.median, v.rows.median);    // the held-out architecture has none in its fold
    }
};

QTEST_GUILESS_MAIN(TestWorkloadClass)
#include "test_workloadclass.moc"

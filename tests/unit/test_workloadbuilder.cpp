// buildWorkload: the one rule the CLI and the workload panel build a workload from a preset by.
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "domain/workloadbuilder.h"

#include <QTest>

using namespace gf;

namespace {
const Workload &preset(const char *id)
{
    const Workload *w = findWorkload(builtinWorkloads(), QString::fromLatin1(id));
    Q_ASSERT(w);
    return *w;
}
Result<Workload> build(const Workload &p, const WorkloadOverrides &o)
{
    return buildWorkload(p, o, GpuCatalog::builtin(), GpuSpecTable::builtin());
}
} // namespace

class TestWorkloadBuilder final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void noOverridesIsThePreset()
    {
        const Workload &p = preset("resnet50");
        const auto w = build(p, {});
        QVERIFY2(w, qPrintable(w.ok() ? QString() : w.error().text()));
        QCOMPARE(w.value().kind, WorkloadKind::Preset);
        QCOMPARE(w.value().id, p.id);
        QCOMPARE(w.value().flopsPerSample, p.flopsPerSample);
        QCOMPARE(w.value().precision, p.precision);
        QCOMPARE(w.value().samplesPerEpoch, p.samplesPerEpoch);
    }

    // The lead's decision: a precision change alone keeps the preset (its measured benchmarks still
    // apply where the projection can use them at that precision); the CLI made it CustomFlops before.
    void precisionAloneKeepsThePreset()
    {
        const Workload &p = preset("resnet50");
        QCOMPARE(p.precision, Precision::Fp16);
        WorkloadOverrides o;
        o.precision = Precision::Fp32;
        const auto w = build(p, o);
        QVERIFY(w);
        QCOMPARE(w.value().kind, WorkloadKind::Preset);
        QCOMPARE(w.value().precision, Precision::Fp32);
        QCOMPARE(w.value().flopsPerSample, p.flopsPerSample);
    }

    // Run length, recipe and machine: still the preset's model.
    void recipeOverridesKeepThePreset()
    {
        const Workload &p = preset("gpt2-124m");
        WorkloadOverrides o;
        o.samplesPerEpoch = 1234;
        o.epochs = 2.5;
        o.datasetGb = 7;
        o.minVcpusPerGpu = 6;
        o.batchPerGpu = p.batchPerGpu * 2;
        o.precision = Precision::Bf16;
        const auto w = build(p, o);
        QVERIFY(w);
        QCOMPARE(w.value().kind, WorkloadKind::Preset);
        QCOMPARE(w.value().samplesPerEpoch, 1234.0);
        QCOMPARE(w.value().epochs, 2.5);
        QCOMPARE(w.value().datasetGb, 7.0);
        QCOMPARE(w.value().minVcpusPerGpu, 6.0);
        QCOMPARE(w.value().batchPerGpu, p.batchPerGpu * 2);
        QVERIFY(w.value().memoryGb > p.memoryGb); // recomputed by the formula for the larger batch
    }

    void arithmeticMakesItCustomFlops_data()
    {
        QTest::addColumn<int>("field");
        QTest::newRow("flops per sample") << 0;
        QTest::newRow("bytes per sample") << 1;
        QTest::newRow("parameters") << 2;
        QTest::newRow("memory") << 3;
    }
    void arithmeticMakesItCustomFlops()
    {
        QFETCH(int, field);
        const Workload &p = preset("bert-large-squad");
        WorkloadOverrides o;
        o.precision = Precision::Bf16; // with or without a precision change
        switch (field) {
        case 0:
            o.flopsPerSample = 2e12;
            break;
        case 1:
            o.bytesPerSample = 3e9;
            break;
        case 2:
            o.parameters = 3e8;
            break;
        default:
            o.memoryGb = 30;
            break;
        }
        const auto w = build(p, o);
        QVERIFY2(w, qPrintable(w.ok() ? QString() : w.error().text()));
        QCOMPARE(w.value().kind, WorkloadKind::CustomFlops);
        QCOMPARE(w.value().id, p.id);
        QCOMPARE(w.value().precision, Precision::Bf16);
        if (field == 0)
            QCOMPARE(w.value().flopsPerSample, 2e12);
        if (field == 3)
            QCOMPARE(w.value().memoryGb, 30.0);
    }

    void measuredSpeedMakesItCustomMeasured()
    {
        const Workload &p = preset("resnet50");
        WorkloadOverrides o;
        o.measuredSamplesPerS = 900;
        o.referenceGpu = QStringLiteral("A100");
        o.samplesPerEpoch = 5000;
        const auto w = build(p, o);
        QVERIFY2(w, qPrintable(w.ok() ? QString() : w.error().text()));
        QCOMPARE(w.value().kind, WorkloadKind::CustomMeasured);
        QCOMPARE(w.value().id, p.id); // the preset's id is kept
        QCOMPARE(w.value().measuredSamplesPerS, 900.0);
        QVERIFY(w.value().referenceGpuId.startsWith(QStringLiteral("a100")));
        QCOMPARE(w.value().samplesPerEpoch, 5000.0);
        QCOMPARE(w.value().flopsPerSample, p.flopsPerSample);

        o.referenceGpu = QStringLiteral("no such gpu");
        const auto bad = build(p, o);
        QVERIFY(!bad);
        QVERIFY2(bad.error().message.contains(QStringLiteral("no such gpu")),
                 qPrintable(bad.error().message));
    }

    void checkpointingSwitchesTheRecipe()
    {
        const Workload &p = preset("llm7b-lora");
        WorkloadOverrides o;
        o.checkpointing = !p.gradientCheckpointing;
        const auto w = build(p, o);
        QVERIFY(w);
        QCOMPARE(w.value().kind, WorkloadKind::Preset);
        QCOMPARE(w.value().gradientCheckpointing, !p.gradientCheckpointing);
        QVERIFY(w.value().flopsPerSample != p.flopsPerSample);
        // The same setting as the preset's changes nothing.
        o.checkpointing = p.gradientCheckpointing;
        QCOMPARE(build(p, o).value().flopsPerSample, p.flopsPerSample);

        // Not offered: an error with the code the CLI names its flag by.
        Workload bare = p;
        bare.activationBytesPerSampleCheckpointed.reset();
        bare.recomputeFlopsPerSample.reset();
        o.checkpointing = !p.gradientCheckpointing;
        const auto refused = build(bare, o);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, QString::fromLatin1(kWorkloadCheckpointingError));
        QVERIFY2(refused.error().message.contains(QStringLiteral("not offered")),
                 qPrintable(refused.error().message));
    }

    // Rule U (PROJECTION.md section 3.23): --batch re-derives the bytes per sample (the parameters' per-step
    // traffic spread over the new batch); figures given with it describe the chosen batch, so they win.
    void batchComesBeforeTheExplicitFigures()
    {
        const Workload &p = preset("bert-large-squad");
        WorkloadOverrides o;
        o.batchPerGpu = 2;
        const auto atTwo = build(p, o);
        QVERIFY(atTwo);
        QCOMPARE(atTwo.value().kind, WorkloadKind::Preset);
        QCOMPARE(atTwo.value().bytesPerSample, withBatch(p, 2).bytesPerSample);
        QVERIFY(atTwo.value().bytesPerSample > p.bytesPerSample);
        o.memoryGb = 3.5;
        const auto given = build(p, o);
        QVERIFY(given);
        QCOMPARE(given.value().memoryGb, 3.5); // before: the formula at batch 2 replaced the typed figure
        o.bytesPerSample = 1e9;
        const auto bytes = build(p, o);
        QVERIFY(bytes);
        QCOMPARE(bytes.value().bytesPerSample, 1e9);
        // The checkpointing switch is part of the recipe too: the typed figures stay as typed.
        o.checkpointing = true;
        const auto ckpt = build(p, o);
        QVERIFY(ckpt);
        QCOMPARE(ckpt.value().memoryGb, 3.5);
        QCOMPARE(ckpt.value().bytesPerSample, 1e9);
        QCOMPARE(ckpt.value().gradientCheckpointing, true);
        // Typed parameters (and no typed memory): the memory formula takes them.
        WorkloadOverrides params;
        params.batchPerGpu = 2;
        params.parameters = 1e8;
        const auto fewer = build(p, params);
        QVERIFY(fewer);
        QVERIFY(fewer.value().memoryGb < withBatch(p, 2).memoryGb);
        // The same rule as presetRecipe(), which the report and the scenario comparison start from.
        const auto recipe = presetRecipe(p, 2, true);
        QVERIFY(recipe);
        WorkloadOverrides same;
        same.batchPerGpu = 2;
        same.checkpointing = true;
        QCOMPARE(build(p, same).value().bytesPerSample, recipe.value().bytesPerSample);
        QCOMPARE(build(p, same).value().memoryGb, recipe.value().memoryGb);
        QVERIFY(!presetRecipe(preset("resnet50"), 2, true));
    }

    // A measured figure of a preset keeps the recipe it was measured with (the LoRA preset checkpoints).
    void measuredPresetKeepsItsCheckpointing()
    {
        WorkloadOverrides o;
        o.measuredSamplesPerS = 5;
        o.referenceGpu = QStringLiteral("a100-80gb-sxm4");
        const auto w = build(preset("llm7b-lora"), o);
        QVERIFY2(w, qPrintable(w.ok() ? QString() : w.error().text()));
        QCOMPARE(w.value().kind, WorkloadKind::CustomMeasured);
        QCOMPARE(w.value().gradientCheckpointing, true);
    }

    void resultIsValidated()
    {
        WorkloadOverrides o;
        o.samplesPerEpoch = -1;
        const auto w = build(preset("vit-b16"), o);
        QVERIFY(!w);
        QVERIFY2(w.error().message.contains(QStringLiteral("samples")), qPrintable(w.error().message));
    }
};

QTEST_GUILESS_MAIN(TestWorkloadBuilder)
#include "test_workloadbuilder.moc"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "util/resourcefiles.h"

#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace Qt::StringLiterals;

namespace {
QByteArray doc(const QString &workloadBody)
{
    return (u"{\"schema_version\":1,\"workloads\":["_s + workloadBody + u"]}"_s).toUtf8();
}
const QString kGood = QStringLiteral(
    "{\"id\":\"w\",\"name\":\"W\",\"precision\":\"bf16\",\"flops_per_sample\":1e12,\"bytes_per_sample\":1e9,"
    "\"parameters\":1e8,\"memory_gb\":10,\"samples_per_epoch\":1000,\"epochs\":2,\"min_vcpus_per_gpu\":4,"
    "\"batch_per_gpu\":16}");
} // namespace

class TestWorkload final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void presetsLoad()
    {
        auto r = workloadsFromJson(readResource(QStringLiteral("workloads.json")));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const QList<Workload> &list = builtinWorkloads();
        QCOMPARE(list.size(), r.value().size());
        for (const char *id : {"resnet50", "bert-large-squad", "vit-b16", "gpt2-124m", "llm7b-lora"})
            QVERIFY2(findWorkload(list, QString::fromLatin1(id)), id);
    }

    // Presets are sane: validated, FLOPs per byte in a plausible training range (10..2000),
    // memory under 80 GB, total work between 1e15 and 1e23 FLOPs, notes documenting the numbers.
    void presetsAreSane()
    {
        for (const Workload &w : builtinWorkloads()) {
            QVERIFY2(validateWorkload(w).ok(), qPrintable(w.id));
            QCOMPARE(w.kind, WorkloadKind::Preset);
            const double intensity = w.flopsPerSample / w.bytesPerSample;
            QVERIFY2(intensity > 10 && intensity < 2000, qPrintable(w.id));
            QVERIFY2(w.memoryGb > 1 && w.memoryGb < 80, qPrintable(w.id));
            const double work = w.flopsPerSample * w.totalSamples();
            QVERIFY2(work > 1e15 && work < 1e23, qPrintable(w.id));
            QVERIFY2(w.parameters > 1e6, qPrintable(w.id));
            QVERIFY2(w.batchPerGpu >= 1, qPrintable(w.id));
            QVERIFY2(w.notes.size() > 100, qPrintable(w.id));
        }
        // Hand check of one preset: ResNet-50 = 1,281,167 images x 90 epochs = 115,305,030 samples.
        const Workload *r = findWorkload(builtinWorkloads(), u"ResNet50");
        QVERIFY(r);
        QCOMPARE(r->totalSamples(), 115305030.0);
        QCOMPARE(r->precision, Precision::Fp16);
        QCOMPARE(r->flopsPerSample, 24.6e9);
    }

    void parseGood()
    {
        auto r = workloadsFromJson(doc(kGood));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const Workload &w = r.value().first();
        QCOMPARE(w.id, u"w"_s);
        QCOMPARE(w.precision, Precision::Bf16);
        QCOMPARE(w.flopsPerSample, 1e12);
        QCOMPARE(w.bytesPerSample, 1e9);
        QCOMPARE(w.parameters, 1e8);
        QCOMPARE(w.totalSamples(), 2000.0);
        QCOMPARE(w.batchPerGpu, 16);
        QCOMPARE(w.minVcpusPerGpu, 4.0);
    }

    void parseBad_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("expected");
        QTest::newRow("not json") << QByteArray("{") << u"not valid JSON"_s;
        QTest::newRow("array root") << QByteArray("[]") << u"object"_s;
        QTest::newRow("schema") << QByteArray("{\"schema_version\":2,\"workloads\":[]}")
                                << u"schema_version"_s;
        QTest::newRow("no list") << QByteArray("{\"schema_version\":1}") << u"array"_s;
        QTest::newRow("entry not object") << doc(u"1"_s) << u"not an object"_s;
        QString s = kGood;
        QTest::newRow("unknown precision")
            << doc(QString(s).replace(u"bf16"_s, u"int4"_s)) << u"unknown precision"_s;
        QTest::newRow("missing flops")
            << doc(QString(s).replace(u"\"flops_per_sample\":1e12,"_s, QString())) << u"flops_per_sample"_s;
        QTest::newRow("string number")
            << doc(QString(s).replace(u"1e12"_s, u"\"1e12\""_s)) << u"not a number"_s;
        QTest::newRow("zero flops") << doc(QString(s).replace(u"1e12"_s, u"0"_s))
                                    << u"flops_per_sample must be"_s;
        QTest::newRow("negative bytes")
            << doc(QString(s).replace(u"1e9"_s, u"-1"_s)) << u"bytes_per_sample"_s;
        QTest::newRow("zero epochs") << doc(QString(s).replace(u"\"epochs\":2"_s, u"\"epochs\":0"_s))
                                     << u"epochs"_s;
        QTest::newRow("huge flops") << doc(QString(s).replace(u"1e12"_s, u"1e300"_s))
                                    << u"flops_per_sample"_s;
        QTest::newRow("fractional batch")
            << doc(QString(s).replace(u"\"batch_per_gpu\":16"_s, u"\"batch_per_gpu\":1.5"_s))
            << u"batch_per_gpu"_s;
        QTest::newRow("empty id") << doc(QString(s).replace(u"\"id\":\"w\""_s, u"\"id\":\"\""_s))
                                  << u"id is empty"_s;
        QTest::newRow("duplicate") << doc(s + u","_s + s) << u"duplicate"_s;
    }
    void parseBad()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, expected);
        auto r = workloadsFromJson(json);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().text().contains(expected), qPrintable(r.error().text()));
    }

    void customFlops()
    {
        CustomWorkloadInput in;
        in.name = u"mine"_s;
        in.flopsPerSample = 2e9;
        in.samplesPerEpoch = 50000;
        in.epochs = 3;
        auto r = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().kind, WorkloadKind::CustomFlops);
        QCOMPARE(r.value().totalSamples(), 150000.0);
        QCOMPARE(r.value().bytesPerSample, 0.0);
    }

    void customMeasured()
    {
        CustomWorkloadInput in;
        in.measuredSamplesPerS = 1200;
        in.referenceGpu = u"NVIDIA H100 80GB HBM3"_s; // nvidia-smi spelling resolves through the aliases
        in.samplesPerEpoch = 1e6;
        auto r = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().kind, WorkloadKind::CustomMeasured);
        QCOMPARE(r.value().referenceGpuId, u"h100-80gb-sxm"_s);
        QCOMPARE(r.value().measuredSamplesPerS, 1200.0);
    }

    void customBad_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("expected");
        QTest::newRow("neither") << 0 << u"either FLOPs"_s;
        QTest::newRow("unknown gpu") << 1 << u"unknown GPU"_s;
        QTest::newRow("no gpu") << 2 << u"needs the GPU"_s;
        QTest::newRow("negative speed") << 3 << u"measured samples/s"_s;
        QTest::newRow("no samples") << 4 << u"samples_per_epoch"_s;
        QTest::newRow("no rate on gpu") << 5 << u"no published"_s;
        QTest::newRow("zero batch") << 6 << u"batch_per_gpu"_s;
    }
    void customBad()
    {
        QFETCH(int, which);
        QFETCH(QString, expected);
        CustomWorkloadInput in;
        in.samplesPerEpoch = 1000;
        switch (which) {
        case 1:
            in.measuredSamplesPerS = 10;
            in.referenceGpu = u"GeForce 256"_s;
            break;
        case 2:
            in.measuredSamplesPerS = 10;
            break;
        case 3:
            in.measuredSamplesPerS = -10;
            in.referenceGpu = u"A100"_s;
            break;
        case 4:
            in.flopsPerSample = 1e9;
            in.samplesPerEpoch = 0;
            break;
        case 5:
            in.measuredSamplesPerS = 10;
            in.referenceGpu = u"gaudi-hl205"_s; // no public rates
            break;
        case 6:
            in.flopsPerSample = 1e9;
            in.batchPerGpu = 0;
            break;
        default:
            break;
        }
        auto r = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
    }

    // The documented memory formula (resources/GPUS.md "Memory per GPU") reproduces every
    // preset's memory_gb for its recipe.
    void memoryFormula()
    {
        for (const Workload &w : builtinWorkloads()) {
            QVERIFY2(w.hasMemoryBreakdown(), qPrintable(w.id));
            const auto m = memoryGib(w, w.batchPerGpu, w.gradientCheckpointing);
            QVERIFY2(m && std::abs(*m - w.memoryGb) <= 0.1,
                     qPrintable(w.id + u' ' + QString::number(m.value_or(-1))));
        }
        const Workload &lora = *findWorkload(builtinWorkloads(), u"llm7b-lora");
        QVERIFY(*memoryGib(lora, 4, true) <= 22.35); // fits the 24 GB A10G/L4 as AWS exposes them
        QVERIFY(*memoryGib(lora, 4, false) > 24);    // without checkpointing it does not
        QVERIFY(std::abs(flopsWithCheckpointing(lora, false) - 14.066e12) < 1e6);
        QCOMPARE(flopsWithCheckpointing(lora, true), lora.flopsPerSample);
        const Workload &resnet = *findWorkload(builtinWorkloads(), u"resnet50");
        QVERIFY(!resnet.checkpointingOffered());
        QVERIFY(!memoryGib(resnet, 192, true));
        QVERIFY(!withCheckpointing(resnet, true).ok());
        QVERIFY(withCheckpointing(resnet, false).ok()); // unchanged
        // Switching the recipe moves FLOPs, bytes and memory together; switching back restores them.
        const Workload plain = withCheckpointing(lora, false).value();
        QVERIFY(!plain.gradientCheckpointing);
        QVERIFY(plain.memoryGb > 24 && plain.memoryGb < 25);
        QVERIFY(plain.bytesPerSample < lora.bytesPerSample);
        const Workload back = withCheckpointing(plain, true).value();
        QVERIFY(std::abs(back.flopsPerSample - lora.flopsPerSample) < 1);
        QVERIFY(std::abs(back.memoryGb - lora.memoryGb) <= 0.1);
        // Another batch rescales only the activations: ResNet-50 at batch 256 = 15.2 GiB (GPUS.md).
        QVERIFY(std::abs(withBatch(resnet, 256).memoryGb - 15.2) <= 0.1);
        // A custom workload has no breakdown: its memory stays as given.
        Workload custom = resnet;
        custom.totalParameters = 0;
        custom.activationBytesPerSample.reset();
        QCOMPARE(withBatch(custom, 512).memoryGb, resnet.memoryGb);
    }

    // Rule U (PROJECTION.md section 3.23): another batch spreads the parameters' per-step traffic (40 B per
    // parameter, the definition of bytes_per_sample) over the new batch; the activations part stays.
    void batchRederivesTheBytes()
    {
        const Workload &bert = *findWorkload(builtinWorkloads(), u"bert-large-squad");
        const double perStep = kWorkloadBytesPerParamPerStep * bert.parameters;
        const double activations = bert.bytesPerSample - perStep / bert.batchPerGpu;
        QVERIFY(activations > 0);
        const Workload two = withBatch(bert, 2);
        QVERIFY(std::abs(two.bytesPerSample - (activations + perStep / 2)) < 1e-6 * two.bytesPerSample);
        QVERIFY(withBatch(bert, 64).bytesPerSample < bert.bytesPerSample);
        // There and back is the preset; the same batch changes nothing.
        QVERIFY(std::abs(withBatch(two, bert.batchPerGpu).bytesPerSample - bert.bytesPerSample) <
                1e-9 * bert.bytesPerSample);
        QCOMPARE(withBatch(bert, bert.batchPerGpu).bytesPerSample, bert.bytesPerSample);
        // Bytes below the parameters' own share (a custom figure) are kept: no batch scaling, as shapeAt.
        Workload small = bert;
        small.bytesPerSample = perStep / bert.batchPerGpu / 2;
        QCOMPARE(withBatch(small, 2).bytesPerSample, small.bytesPerSample);
        // Without parameters (a custom workload) or without bytes nothing moves.
        Workload noParams = bert;
        noParams.parameters = 0;
        QCOMPARE(withBatch(noParams, 2).bytesPerSample, bert.bytesPerSample);

        // The LoRA preset's bytes also count the frozen bf16 weights read 3 times per step (forward,
        // recompute, backward; GPUS.md): 3 x 13.5 GB / batch 4 = 10.1 GB of its 22.55 GB, and the recompute
        // bytes one read. Both move with the batch; switching checkpointing and the batch commute.
        const Workload &lora = *findWorkload(builtinWorkloads(), u"llm7b-lora");
        QVERIFY(lora.gradientCheckpointing);
        QVERIFY(std::abs(frozenWeightBytes(lora) - 2.0 * 6738415616.0) < 1);
        const double loraStep = perStepBytes(lora);
        QVERIFY(std::abs(loraStep - (40.0 * lora.parameters + 3 * frozenWeightBytes(lora))) < 1);
        const Workload one = withBatch(lora, 1);
        QVERIFY(std::abs(one.bytesPerSample - (lora.bytesPerSample - loraStep / 4 + loraStep)) <
                1e-9 * one.bytesPerSample);
        QVERIFY(std::abs(*one.recomputeBytesPerSample -
                         (*lora.recomputeBytesPerSample - frozenWeightBytes(lora) / 4 +
                          frozenWeightBytes(lora))) < 1e-9 * *one.recomputeBytesPerSample);
        for (const int b : {1, 3, 8, 48})
            for (const bool ckpt : {false, true}) {
                const Workload batchFirst = withCheckpointing(withBatch(lora, b), ckpt).value();
                const Workload ckptFirst = withBatch(withCheckpointing(lora, ckpt).value(), b);
                QVERIFY2(std::abs(batchFirst.bytesPerSample - ckptFirst.bytesPerSample) <=
                             1e-9 * batchFirst.bytesPerSample,
                         qPrintable(QStringLiteral("batch %1, checkpointing %2: %3 vs %4")
                                        .arg(b)
                                        .arg(ckpt)
                                        .arg(batchFirst.bytesPerSample)
                                        .arg(ckptFirst.bytesPerSample)));
                QCOMPARE(batchFirst.memoryGb, ckptFirst.memoryGb);
            }
    }

    void pipelineAndStagingFields()
    {
        const Workload &resnet = *findWorkload(builtinWorkloads(), u"resnet50");
        QCOMPARE(resnet.cpuCoreSecondsPerSample, 0.008);
        QCOMPARE(resnet.datasetGb, 154.6);
        const Workload &lora = *findWorkload(builtinWorkloads(), u"llm7b-lora");
        QVERIFY(lora.pretrainedWeightsGb > 13);
        const QJsonObject j = workloadToJson(lora);
        QCOMPARE(j.value(u"gradient_checkpointing").toBool(), true);
        QCOMPARE(j.value(u"dataset_gb").toDouble(), lora.datasetGb);
        CustomWorkloadInput in;
        in.flopsPerSample = 1e9;
        in.samplesPerEpoch = 10;
        in.datasetGb = 50;
        in.cpuCoreSecondsPerSample = 0.001;
        const Workload c = makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin()).value();
        QCOMPARE(c.stagedGb(), 50.0);
        QCOMPARE(c.cpuCoreSecondsPerSample, 0.001);
        in.cpuCoreSecondsPerSample = 20;
        QVERIFY(!makeCustomWorkload(in, GpuCatalog::builtin(), GpuSpecTable::builtin()).ok());
    }
};

QTEST_APPLESS_MAIN(TestWorkload)
#include "test_workload.moc"

// Scenario files (projection/scenario): what defines one question, written and read back; every bad field
// named; a newer version refused; the settings that differ between two.
#include "projection/scenario.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace Qt::StringLiterals;

namespace {

Scenario richScenario()
{
    Scenario s;
    s.name = u"ResNet-50 in a day"_s;
    s.workload.preset = u"resnet50"_s;
    WorkloadOverrides &o = s.workload.overrides;
    o.samplesPerEpoch = 640000;
    o.epochs = 45.5;
    o.precision = Precision::Bf16;
    o.stack = SoftwareStack::Tuned;
    o.batchPerGpu = 128;
    o.datasetGb = 80;
    o.minVcpusPerGpu = 6;
    s.options.deadlineHours = 24;
    s.options.budgetUsd = 120.5;
    s.options.spotPolicy = SpotPolicy::SpotOnly;
    s.options.checkpointMinutes = 15;
    s.options.setupMinutes = 12;
    s.options.restoreMinutes = 7;
    s.options.weight = 0.3;
    s.options.nodeCounts = {1, 4, 8};
    s.options.includeSuspect = true;
    s.options.interruptionRatePerHour.insert(u"aws"_s, 0.05);
    s.options.egressUsdPerGb.insert(u"gcp"_s, 0.12);
    s.filter.providers = {u"aws"_s, u"gcp"_s};
    s.filter.gpu = u"H100"_s;
    s.filter.minGpus = 8;
    s.filter.minGpuMemGb = 40;
    s.filter.maxPriceUsdH = 100;
    s.filter.spotOnly = true;
    s.filter.region = u"us-east"_s;
    s.filter.text = u"p5"_s;
    return s;
}

/// The rich scenario's JSON with one field replaced (a path "a.b"), or removed when `value` is undefined.
QByteArray withField(const QString &path, const QJsonValue &value)
{
    QJsonObject root = scenarioToJson(richScenario());
    const QStringList parts = path.split(u'.');
    if (parts.size() == 1) {
        if (value.isUndefined())
            root.remove(parts[0]);
        else
            root.insert(parts[0], value);
    } else {
        QJsonObject inner = root.value(parts[0]).toObject();
        if (value.isUndefined())
            inner.remove(parts[1]);
        else
            inner.insert(parts[1], value);
        root.insert(parts[0], inner);
    }
    return QJsonDocument(root).toJson();
}

} // namespace

class TestScenario final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTripKeepsEverySetting()
    {
        const Scenario s = richScenario();
        const QByteArray bytes = scenarioToBytes(s);
        auto back = scenarioFromBytes(bytes);
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        const Scenario &b = back.value();
        QCOMPARE(b.name, s.name);
        QCOMPARE(b.workload.preset, s.workload.preset);
        QCOMPARE(b.workload.overrides.samplesPerEpoch, s.workload.overrides.samplesPerEpoch);
        QCOMPARE(b.workload.overrides.epochs, s.workload.overrides.epochs);
        QCOMPARE(b.workload.overrides.precision, s.workload.overrides.precision);
        QCOMPARE(b.workload.overrides.stack, s.workload.overrides.stack);
        QCOMPARE(b.workload.overrides.batchPerGpu, s.workload.overrides.batchPerGpu);
        QCOMPARE(b.workload.overrides.datasetGb, s.workload.overrides.datasetGb);
        QCOMPARE(b.workload.overrides.minVcpusPerGpu, s.workload.overrides.minVcpusPerGpu);
        QCOMPARE(b.options.deadlineHours, s.options.deadlineHours);
        QCOMPARE(b.options.budgetUsd, s.options.budgetUsd);
        QCOMPARE(b.options.spotPolicy, s.options.spotPolicy);
        QCOMPARE(b.options.checkpointMinutes, s.options.checkpointMinutes);
        QCOMPARE(b.options.setupMinutes, s.options.setupMinutes);
        QCOMPARE(b.options.restoreMinutes, s.options.restoreMinutes);
        QCOMPARE(b.options.weight, s.options.weight);
        QCOMPARE(b.options.nodeCounts, s.options.nodeCounts);
        QCOMPARE(b.options.includeSuspect, true);
        QCOMPARE(b.options.interruptionRatePerHour, s.options.interruptionRatePerHour);
        QCOMPARE(b.options.egressUsdPerGb, s.options.egressUsdPerGb);
        QCOMPARE(b.filter.providers, s.filter.providers);
        QCOMPARE(b.filter.gpu, s.filter.gpu);
        QCOMPARE(b.filter.minGpus, s.filter.minGpus);
        QCOMPARE(b.filter.minGpuMemGb, s.filter.minGpuMemGb);
        QCOMPARE(b.filter.maxPriceUsdH, s.filter.maxPriceUsdH);
        QCOMPARE(b.filter.spotOnly, true);
        QCOMPARE(b.filter.region, s.filter.region);
        QCOMPARE(b.filter.text, s.filter.text);
        // Written again: the same bytes, and no setting differs.
        QCOMPARE(scenarioToBytes(b), bytes);
        QVERIFY(scenarioDifferences(s, b).isEmpty());
        // The resolved workload is written for people, in the report's shape.
        const QJsonObject resolved =
            QJsonDocument::fromJson(bytes).object().value(u"resolved_workload").toObject();
        QCOMPARE(resolved.value(u"id").toString(), u"resnet50"_s);
        QCOMPARE(resolved.value(u"batch_per_gpu").toInt(), 128);
    }

    void customWorkloadRoundTrip()
    {
        Scenario s;
        s.workload.name = u"My BERT"_s;
        s.workload.overrides.samplesPerEpoch = 100000;
        s.workload.overrides.measuredSamplesPerS = 850;
        s.workload.overrides.referenceGpu = u"A100"_s; // an alias
        s.workload.overrides.parameters = 110e6;
        s.workload.overrides.memoryGb = 14;
        auto back = scenarioFromBytes(scenarioToBytes(s));
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        auto w = scenarioWorkload(back.value());
        QVERIFY(w.ok());
        QCOMPARE(w.value().name, u"My BERT"_s);
        QCOMPARE(w.value().kind, WorkloadKind::CustomMeasured);
        QCOMPARE(w.value().measuredSamplesPerS, 850.0);
        QVERIFY(!w.value().referenceGpuId.isEmpty());
    }

    void fileRoundTripAndUnwritablePath()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"s.json"_s);
        QVERIFY(writeScenarioFile(path, richScenario()).ok());
        auto back = readScenarioFile(path);
        QVERIFY(back.ok());
        QCOMPARE(back.value().name, richScenario().name);
        const auto failed = writeScenarioFile(dir.filePath(u"no/such/folder/s.json"_s), richScenario());
        QVERIFY(!failed.ok());
        QVERIFY2(failed.error().message.contains(u"no/such/folder"_s), qPrintable(failed.error().message));
        const auto missing = readScenarioFile(dir.filePath(u"missing.json"_s));
        QVERIFY(!missing.ok());
        QVERIFY(missing.error().message.contains(u"missing.json"_s));
    }

    void badFieldIsNamed_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QJsonValue>("value");
        QTest::addColumn<QString>("named");
        QTest::newRow("samples negative") << u"workload.samples_per_epoch"_s << QJsonValue(-5)
                                          << u"workload.samples_per_epoch: must be a number"_s;
        QTest::newRow("epochs text") << u"workload.epochs"_s << QJsonValue(u"ninety"_s)
                                     << u"workload.epochs: must be a number"_s;
        QTest::newRow("precision") << u"workload.precision"_s << QJsonValue(u"fp13"_s)
                                   << u"workload.precision: must be one of"_s;
        QTest::newRow("stack") << u"workload.stack"_s << QJsonValue(u"fast"_s)
                               << u"workload.stack: must be one of"_s;
        QTest::newRow("batch fractional") << u"workload.batch_per_gpu"_s << QJsonValue(12.5)
                                          << u"workload.batch_per_gpu: must be a whole number"_s;
        QTest::newRow("checkpointing") << u"workload.gradient_checkpointing"_s << QJsonValue(u"yes"_s)
                                       << u"workload.gradient_checkpointing: must be true or false"_s;
        QTest::newRow("unknown preset") << u"workload.preset"_s << QJsonValue(u"resnet51"_s)
                                        << u"workload.preset: unknown workload \"resnet51\""_s;
        QTest::newRow("checkpointing not offered") << u"workload.gradient_checkpointing"_s << QJsonValue(true)
                                                   << u"workload.gradient_checkpointing:"_s;
        QTest::newRow("measured without GPU")
            << u"workload.measured_samples_per_s"_s << QJsonValue(100)
            << u"workload.measured_on: measured_samples_per_s and measured_on"_s;
        QTest::newRow("unknown workload field")
            << u"workload.sampels"_s << QJsonValue(5) << u"workload.sampels: unknown field"_s;
        QTest::newRow("deadline zero")
            << u"limits.deadline_hours"_s << QJsonValue(0) << u"limits.deadline_hours: must be a number"_s;
        QTest::newRow("budget text") << u"limits.budget_usd"_s << QJsonValue(u"lots"_s)
                                     << u"limits.budget_usd: must be a number"_s;
        QTest::newRow("spot") << u"assumptions.spot"_s << QJsonValue(u"sometimes"_s)
                              << u"assumptions.spot: must be one of both, spot-only, on-demand-only"_s;
        QTest::newRow("checkpoint minutes")
            << u"assumptions.checkpoint_minutes"_s << QJsonValue(-5)
            << u"assumptions.checkpoint_minutes: must be a number from 0 to 525600 (got -5)"_s;
        QTest::newRow("weight") << u"assumptions.weight"_s << QJsonValue(1.5)
                                << u"assumptions.weight: must be a number from 0 to 1"_s;
        QTest::newRow("nodes") << u"assumptions.extra_node_counts"_s << QJsonValue(QJsonArray({2, 0}))
                               << u"assumptions.extra_node_counts: every entry"_s;
        QTest::newRow("rate provider")
            << u"assumptions.interruption_rate_per_hour"_s << QJsonValue(QJsonObject{{u"awz"_s, 0.1}})
            << u"assumptions.interruption_rate_per_hour.awz: unknown provider"_s;
        QTest::newRow("egress value")
            << u"assumptions.egress_usd_per_gb"_s << QJsonValue(QJsonObject{{u"aws"_s, -1}})
            << u"assumptions.egress_usd_per_gb.aws: must be a number"_s;
        QTest::newRow("filter provider")
            << u"filter.providers"_s << QJsonValue(QJsonArray({u"aws"_s, u"nope"_s}))
            << u"filter.providers: unknown provider"_s;
        QTest::newRow("filter gpu") << u"filter.gpu"_s << QJsonValue(5) << u"filter.gpu: must be a text"_s;
        QTest::newRow("filter spot") << u"filter.spot_only"_s << QJsonValue(1)
                                     << u"filter.spot_only: must be true or false"_s;
        QTest::newRow("limits not object") << u"limits"_s << QJsonValue(6) << u"limits: must be an object"_s;
        QTest::newRow("unknown top field") << u"deadline"_s << QJsonValue(6) << u"deadline: unknown field"_s;
        QTest::newRow("no workload") << u"workload"_s << QJsonValue(QJsonValue::Undefined)
                                     << u"workload: missing"_s;
        QTest::newRow("schema") << u"schema"_s << QJsonValue(u"gpufrontier-report"_s)
                                << u"schema: not a GPU Frontier scenario"_s;
        QTest::newRow("version text")
            << u"version"_s << QJsonValue(u"1"_s) << u"version: must be a whole number"_s;
    }

    void badFieldIsNamed()
    {
        QFETCH(QString, path);
        QFETCH(QJsonValue, value);
        QFETCH(QString, named);
        QByteArray bytes = withField(path, value);
        if (QTest::currentDataTag() == QByteArray("checkpointing not offered")) {
            // ResNet-50 offers no gradient checkpointing figures.
            QVERIFY(!findWorkload(builtinWorkloads(), u"resnet50"_s)->checkpointingOffered());
        }
        const auto r = scenarioFromBytes(bytes);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.startsWith(named), qPrintable(r.error().message));
    }

    void notJsonAndNotAnObject()
    {
        auto r = scenarioFromBytes("{\"schema\": ");
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.startsWith(u"not valid JSON at byte"_s), qPrintable(r.error().message));
        r = scenarioFromBytes("[1, 2]");
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(u"not a JSON object"_s));
    }

    void newerVersionIsRefused()
    {
        const auto r = scenarioFromBytes(withField(u"version"_s, kScenarioVersion + 1));
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(u"written by a newer GPU Frontier"_s),
                 qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(u"version %1"_s.arg(kScenarioVersion + 1)));
    }

    void differencesNameTheFields()
    {
        Scenario a = richScenario();
        Scenario b = a;
        b.name = u"other name"_s; // not a setting
        QVERIFY(scenarioDifferences(a, b).isEmpty());
        b.workload.preset = u"vit-b16"_s;
        b.options.deadlineHours = 6;
        b.options.budgetUsd.reset();
        b.filter.gpu.clear();
        const QList<ScenarioDifference> d = scenarioDifferences(a, b);
        QStringList fields;
        for (const ScenarioDifference &x : d)
            fields.append(x.field);
        // A batch of 128 changes ResNet-50's recipe but is ViT-B/16's own: B's counts as not given.
        QCOMPARE(fields, (QStringList{u"filter.gpu"_s, u"limits.budget_usd"_s, u"limits.deadline_hours"_s,
                                      u"workload.batch_per_gpu"_s, u"workload.preset"_s}));
        QCOMPARE(d.at(1).a, u"120.5"_s);
        QCOMPARE(d.at(1).b, QString()); // not set: the default applies
        QCOMPARE(d.at(2).a, u"24"_s);
        QCOMPARE(d.at(2).b, u"6"_s);
        QCOMPARE(d.at(3).a, u"128"_s);
        QCOMPARE(d.at(3).b, QString());
        QCOMPARE(d.at(4).b, u"vit-b16"_s);

        // Settings at the preset's own values are no difference (the GUI saves every box).
        Scenario explicitDefaults;
        explicitDefaults.workload.preset = u"resnet50"_s;
        const Workload *p = findWorkload(builtinWorkloads(), u"resnet50"_s);
        explicitDefaults.workload.overrides.samplesPerEpoch = p->samplesPerEpoch;
        explicitDefaults.workload.overrides.epochs = p->epochs;
        explicitDefaults.workload.overrides.precision = p->precision;
        explicitDefaults.workload.overrides.stack = SoftwareStack::Typical;
        Scenario bare;
        bare.workload.preset = u"resnet50"_s;
        QVERIFY(scenarioDifferences(explicitDefaults, bare).isEmpty());
        explicitDefaults.workload.overrides.epochs = p->epochs + 1;
        QCOMPARE(scenarioDifferences(explicitDefaults, bare).size(), 1);

        // A typed figure is compared with the preset at the scenario's batch (section 3.23): the preset's own
        // bytes typed at batch 2 are a real difference, the bytes batch 2 derives are none.
        const Workload *bert = findWorkload(builtinWorkloads(), u"bert-large-squad"_s);
        Scenario atTwo;
        atTwo.workload.preset = bert->id;
        atTwo.workload.overrides.batchPerGpu = 2;
        Scenario typed = atTwo;
        typed.workload.overrides.bytesPerSample = bert->bytesPerSample;
        QCOMPARE(scenarioDifferences(atTwo, typed).size(), 1);
        QCOMPARE(scenarioDifferences(atTwo, typed).at(0).field, u"workload.bytes_per_sample"_s);
        typed.workload.overrides.bytesPerSample = withBatch(*bert, 2).bytesPerSample;
        QVERIFY(scenarioDifferences(atTwo, typed).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestScenario)
#include "test_scenario.moc"

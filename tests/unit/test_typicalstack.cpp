// The typical software stack (PROJECTION.md section 3.6): the user's PyTorch script as most people run
// it, converted from the tuned stacks of the shipped measurements by a per-sample overhead that does not
// shrink on a faster GPU.
#include "clirun.h"
#include "domain/gpuarch.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/speedmodel.h"
#include "projection/typicalstack.h"
#include "projection/typicalstackvalidation.h"
#include "speedfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QTimeZone>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Workload preset(const QString &id, SoftwareStack stack)
{
    return presetIn(id, stack);
}

const GpuSpec &spec(const QString &id)
{
    const GpuSpec *s = GpuSpecTable::builtin().spec(id);
    if (!s)
        qFatal("no spec %s", qPrintable(id));
    return *s;
}

SingleGpuSpeed speed(const Workload &w, const QString &gpu, const ThroughputMeasurements &extra = {})
{
    return projectedSpeed(SpeedModel::builtin(), w, gpu, extra);
}

ThroughputMeasurement userFigure(const QString &workload, const QString &gpu, double samplesPerS, int batch)
{
    return userFigureOf(workload, gpu, samplesPerS, batch);
}

} // namespace

class TestTypicalStack final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesRoundTrip()
    {
        QCOMPARE(softwareStackName(SoftwareStack::Typical), u"typical"_s);
        QCOMPARE(softwareStackFromName(u"Tuned"), SoftwareStack::Tuned);
        QVERIFY(!softwareStackFromName(u"fast").has_value());
        QCOMPARE(Workload{}.stack, SoftwareStack::Typical); // the default answers "my PyTorch script"
    }

    void shippedConversionParses()
    {
        const TypicalStack &t = TypicalStack::builtin();
        QVERIFY(!t.empty());
        for (const Workload &w : builtinWorkloads())
            QVERIFY2(t.overheadTflopsByPreset.value(w.id) > 0, qPrintable(w.id));
        QVERIFY(t.overheadTflopsCustom > 0);
        QVERIFY(t.range.p10 < 0 && t.range.p90 > 0);
        QVERIFY(t.basis.contains(u"LAMBDA-PYT-V0"));
    }

    void badFilesAreRefusedWithTheReason_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("reason");
        QTest::newRow("not json") << QByteArray("{") << u"not a JSON object"_s;
        QTest::newRow("schema") << QByteArray(R"({"schema_version":2})") << u"schema_version"_s;
        QTest::newRow("negative rate")
            << QByteArray(
                   R"({"schema_version":1,"overhead_tflops":{"resnet50":-3},"overhead_tflops_custom":1,)"
                   R"("range":{"p10":-0.1,"p90":0.1}})")
            << u"overhead_tflops of resnet50"_s;
        QTest::newRow("no custom")
            << QByteArray(R"({"schema_version":1,"overhead_tflops":{},"range":{"p10":-0.1,"p90":0.1}})")
            << u"overhead_tflops_custom"_s;
        QTest::newRow("default bytes: bad class")
            << QByteArray(R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":5,)"
                          R"("range":{"p10":-0.1,"p90":0.1},"default_bytes_per_flop":{"cnn":0.01}})")
            << u"default_bytes_per_flop: \"cnn\" is not a workload class"_s;
        QTest::newRow("default bytes: bad value")
            << QByteArray(R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":5,)"
                          R"("range":{"p10":-0.1,"p90":0.1},"default_bytes_per_flop":{"unknown":-1}})")
            << u"default_bytes_per_flop.unknown must be a number from 0 to 1"_s;
        QTest::newRow("default bytes: not an object")
            << QByteArray(R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":5,)"
                          R"("range":{"p10":-0.1,"p90":0.1},"default_bytes_per_flop":3})")
            << u"default_bytes_per_flop must be an object"_s;
        // A minimal valid file with `tail` (one more key) added: the per-class traffic factor (section 3.12).
        const auto minimalWith = [](const char *tail) -> QByteArray {
            return QByteArray(R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":5,)"
                              R"("range":{"p10":-0.1,"p90":0.1},)") +
                   tail + '}';
        };
        QTest::newRow("traffic factor: bad value")
            << minimalWith(R"("typical_traffic_factor":{"transformer":0})")
            << u"typical_traffic_factor.transformer must be a number from 1 to 100"_s;
        QTest::newRow("traffic factor: bad class")
            << minimalWith(R"("typical_traffic_factor":{"cnn":4})")
            << u"typical_traffic_factor: \"cnn\" is not a workload class"_s;
        QTest::newRow("traffic factor: a number, not per class")
            << minimalWith(R"("typical_traffic_factor":4)") << u"typical_traffic_factor must be an object"_s;
        QTest::newRow("traffic factor: bad value in a fold")
            << minimalWith(R"("leave_one_source_out":[{"source":"X","overhead_tflops":{},)"
                           R"("overhead_tflops_custom":5,"typical_traffic_factor":{"unknown":"4"}}])")
            << u"typical_traffic_factor.unknown must be a number from 1 to 100"_s;
        QTest::newRow("range reversed")
            << QByteArray(R"({"schema_version":1,"overhead_tflops":{},"overhead_tflops_custom":5,)"
                          R"("range":{"p10":0.2,"p90":0.1}})")
            << u"p10 <= p90"_s;
    }
    void badFilesAreRefusedWithTheReason()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, reason);
        const auto r = TypicalStack::fromJson(json);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(reason), qPrintable(r.error().text()));
    }

    void tunedStackIsTheModelWithoutConversion()
    {
        const SpeedModel plain = SpeedModel::builtin().withTypicalStack({});
        for (const Workload &base : builtinWorkloads()) {
            Workload w = base;
            w.stack = SoftwareStack::Tuned;
            for (const QString &gpu : {u"h100-80gb-sxm"_s, u"rtx3090"_s, u"a10g"_s}) {
                const SingleGpuSpeed tuned = speed(w, gpu);
                const SingleGpuSpeed none = plain.project(
                    spec(gpu), w, plain.anchorsFor(w, {}, GpuSpecTable::builtin()), defaultCalibration());
                QCOMPARE(tuned.samplesPerS, none.samplesPerS);
                QCOMPARE(tuned.range.p10, none.range.p10);
                QCOMPARE(tuned.overheadS, 0.0);
                QCOMPARE(tuned.stack, SoftwareStack::Tuned);
            }
        }
    }

    void typicalAddsTheOverheadPerSample()
    {
        const Workload w = preset(u"resnet50"_s, SoftwareStack::Typical);
        const double rate = TypicalStack::builtin().overheadTflopsByPreset.value(w.id);
        for (const QString &gpu : {u"h100-80gb-sxm"_s, u"a100-80gb-sxm4"_s, u"rtx3090"_s}) {
            const SingleGpuSpeed typical = speed(w, gpu);
            const SingleGpuSpeed tuned = speed(preset(w.id, SoftwareStack::Tuned), gpu);
            const double overhead = w.flopsPerSample / (rate * 1e12);
            QCOMPARE(typical.overheadS, overhead);
            // The tuned speed times the architecture's class factor (section 3.8), then the overhead.
            const GpuArch *arch = GpuArchTable::builtin().arch(gpu);
            const double eta =
                std::exp(TypicalStack::builtin().classLogFactor(arch->arch, w.workloadClass).value_or(0.0));
            QVERIFY(std::abs(1.0 / typical.samplesPerS - (1.0 / (tuned.samplesPerS * eta) + overhead)) <
                    1e-12);
            QCOMPARE(typical.tunedSamplesPerS, tuned.samplesPerS);
            QCOMPARE(typical.tier, tuned.tier); // the evidence keeps its tier ...
            QVERIFY(typical.basis.contains(u"typical PyTorch stack"));
            // ... and the range takes the conversion's spread in quadrature
            const LogRange &c = TypicalStack::builtin().range;
            QVERIFY(std::abs(typical.range.p90 - std::hypot(tuned.range.p90, c.p90)) < 1e-12);
            QVERIFY(std::abs(typical.range.p10 + std::hypot(tuned.range.p10, c.p10)) < 1e-12);
        }
    }

    void theNewestGpusLoseTheMost()
    {
        // The fixed overhead compresses the ratios: the fast GPU keeps less of its lead.
        const Workload typ = preset(u"resnet50"_s, SoftwareStack::Typical);
        const Workload tun = preset(u"resnet50"_s, SoftwareStack::Tuned);
        const double before = speed(tun, u"b200"_s).samplesPerS / speed(tun, u"rtx3090"_s).samplesPerS;
        const double after = speed(typ, u"b200"_s).samplesPerS / speed(typ, u"rtx3090"_s).samplesPerS;
        QVERIFY2(after < before * 0.8, qPrintable(u"%1 -> %2"_s.arg(before).arg(after)));
        QVERIFY(after > 1.0);
    }

    void theUsersOwnFigureIsTheirStack()
    {
        Workload w = preset(u"bert-large-squad"_s, SoftwareStack::Typical);
        const SingleGpuSpeed own =
            speed(w, u"a100-80gb-sxm4"_s, {userFigure(w.id, u"a100-80gb-sxm4"_s, 80.0, w.batchPerGpu)});
        QVERIFY(own.userMeasured);
        QVERIFY(std::abs(own.samplesPerS - 80.0) < 1e-9);
        QCOMPARE(own.overheadS, 0.0);
        QVERIFY(own.basis.contains(u"your own stack"));
    }

    void aUserFigureThatMatchesTheTypicalProjectionMovesNothing()
    {
        // The user's figure is taken back to the tuned stack before it is carried over, and the overhead
        // is put back on the target: a figure equal to the typical projection leaves every GPU where it was.
        for (const QString &id : {u"resnet50"_s, u"vit-b16"_s}) {
            const Workload w = preset(id, SoftwareStack::Typical);
            const double onA100 = speed(w, u"a100-80gb-sxm4"_s).samplesPerS;
            const ThroughputMeasurements user{userFigure(id, u"a100-80gb-sxm4"_s, onA100, w.batchPerGpu)};
            for (const QString &gpu : {u"h100-80gb-sxm"_s, u"rtx4090"_s, u"l4"_s}) {
                const double without = speed(w, gpu).samplesPerS;
                const double with = speed(w, gpu, user).samplesPerS;
                QVERIFY2(std::abs(with / without - 1) < 1e-9,
                         qPrintable(u"%1 on %2: %3 vs %4"_s.arg(id, gpu).arg(with).arg(without)));
            }
        }
    }

    void aFasterUserScriptIsLeanerNotImpossible()
    {
        // Measured above even the tuned projection of its GPU: no overhead is taken out (the script is
        // leaner than typical), the rest moves the GPU-side level, and the other GPUs carry less overhead.
        const Workload w = preset(u"resnet50"_s, SoftwareStack::Typical);
        const ThroughputMeasurements user{userFigure(w.id, u"a100-80gb-sxm4"_s, 4000.0, w.batchPerGpu)};
        const SingleGpuSpeed h100 = speed(w, u"h100-80gb-sxm"_s, user);
        QVERIFY(h100.ok && std::isfinite(h100.samplesPerS) && h100.samplesPerS > 0);
        QVERIFY(h100.overheadS < speed(w, u"h100-80gb-sxm"_s).overheadS); // the user's stack is leaner
    }

    // The shipped constants are what the shipped rows give (resources/tools/fit_typical_stack.py and the
    // C++ fit agree), and the held-out validation of `gpufrontier-cli validate` leaks nothing.
    void aPlausibleFigureMovesAnotherGpuByAtMostTenfold()
    {
        // 2,700 images/s on a T4 is 6x its tuned projection (plausible), so the A100's GPU-side level moves
        // 6x; without the typical overhead it would then be 10.5x its typical projection: capped at 10x.
        const Workload w = preset(u"resnet50"_s, SoftwareStack::Typical);
        const ThroughputMeasurements user{userFigure(w.id, u"t4"_s, 2700.0, 256)};
        QVERIFY(SpeedModel::builtin().implausibility(user.first(), w, GpuSpecTable::builtin()).isEmpty());
        for (const QString &gpu : {u"a100-80gb-sxm4"_s, u"l4"_s, u"h100-80gb-sxm"_s}) {
            const double ratio = speed(w, gpu, user).samplesPerS / speed(w, gpu).samplesPerS;
            QVERIFY2(ratio <= SpeedModel::kImplausibleFactor * (1 + 1e-9) && ratio > 1,
                     qPrintable(u"%1: x%2"_s.arg(gpu).arg(ratio)));
        }
    }

    void shippedRowsGiveTheShippedConstants()
    {
        const SpeedModel &m = SpeedModel::builtin();
        const TypicalStackValidation v =
            validateTypicalStack(m, GpuSpecTable::builtin(), builtinTypicalStackRows());
        QVERIFY(v.heldOut.size() >= 40);
        QCOMPARE(v.splits.size(), 3); // two sources and "all"
        const TypicalStackSplit &all = v.splits.last();
        QCOMPARE(all.heldOutSource, u"all"_s);
        QVERIFY(all.medianAfter < all.medianBefore);
        const LogRange &shipped = TypicalStack::builtin().range;
        QVERIFY(std::abs(v.range.p10 - shipped.p10) < 1e-3 && std::abs(v.range.p90 - shipped.p90) < 1e-3);
        QVERIFY(v.coverageAfter > v.coverageBefore);
        QVERIFY(!v.excluded.isEmpty() && v.excluded.first().contains(u"host-bound"));
        // All rows of a preset give the shipped R_o.
        QHash<QString, QList<TypicalStackObservation>> byPreset;
        for (const TypicalStackObservation &o : v.heldOut)
            byPreset[o.row.presetId].append(o);
        for (auto it = byPreset.cbegin(); it != byPreset.cend(); ++it) {
            const double shippedRate = TypicalStack::builtin().overheadTflopsByPreset.value(it.key());
            QVERIFY2(std::abs(fitOverheadTflops(it.value()) / shippedRate - 1) < 1e-3, qPrintable(it.key()));
        }
    }

    void heldOutRowsDoNotSeeThemselves()
    {
        // Without shipped folds R_o is refitted here on the other source (class factors fixed).
        TypicalStack noFolds = TypicalStack::builtin();
        noFolds.sourceFolds.clear();
        const SpeedModel refit = SpeedModel::builtin().withTypicalStack(noFolds);
        QList<TypicalStackRow> rows = builtinTypicalStackRows();
        const auto project = [&](const QList<TypicalStackRow> &r) {
            return validateTypicalStack(refit, GpuSpecTable::builtin(), r).heldOut;
        };
        const QList<TypicalStackObservation> before = project(rows);
        for (TypicalStackRow &r : rows)
            if (r.sourceId == u"LAMBDA-PYT-V0")
                r.samplesPerS *= 1.37;
        const QList<TypicalStackObservation> after = project(rows);
        QCOMPARE(after.size(), before.size());
        int moved = 0;
        for (qsizetype i = 0; i < before.size(); ++i) {
            if (before.at(i).row.sourceId == u"LAMBDA-PYT-V0")
                QCOMPARE(after.at(i).typical, before.at(i).typical); // its projection never saw its figures
            else
                moved += after.at(i).typical != before.at(i).typical; // the other source's fit did
        }
        QVERIFY(moved > 0);
    }

    void heldOutRowsUseTheirSourcesFold()
    {
        // The shipped folds (fit_typical_stack.py, R_o and class factors fitted without the source): a change
        // of one fold moves exactly the rows that fold holds out.
        const auto project = [](const TypicalStack &t) {
            return validateTypicalStack(SpeedModel::builtin().withTypicalStack(t), GpuSpecTable::builtin(),
                                        builtinTypicalStackRows())
                .heldOut;
        };
        const QList<TypicalStackObservation> before = project(TypicalStack::builtin());
        TypicalStack changed = TypicalStack::builtin();
        QCOMPARE(changed.sourceFolds.size(),
                 4); // GF-MEASURE-2611, LAMBDA-PYT-V0, LAMBDA-TF-2021, MLI-TFMR-2024
        for (TypicalStackFold &f : changed.sourceFolds)
            if (f.heldOut == u"GF-MEASURE-2611") {
                f.fit.overheadTflopsCustom *= 2;
                for (double &r : f.fit.overheadTflopsByPreset)
                    r *= 2;
                for (double &r : f.fit.overheadTflopsCustomByClass) // presets without rows in the fold
                    r *= 2;
            }
        const QList<TypicalStackObservation> after = project(changed);
        QCOMPARE(after.size(), before.size());
        for (qsizetype i = 0; i < before.size(); ++i)
            QCOMPARE(after.at(i).typical != before.at(i).typical,
                     before.at(i).row.sourceId == u"GF-MEASURE-2611");
    }

    void badRowsAreRefusedWithTheRecord()
    {
        const QString header = u"source_id,preset_id,gpu_id,batch_per_gpu,samples_per_s,use\n"_s;
        QVERIFY(parseTypicalStackRows(header + u"A,resnet50,h100-80gb-sxm,192,2600,1\n"_s));
        const auto noColumn = parseTypicalStackRows(u"source_id,preset_id\nA,resnet50\n"_s);
        QVERIFY(!noColumn && noColumn.error().text().contains(u"gpu_id"));
        const auto badSpeed = parseTypicalStackRows(header + u"A,resnet50,h100-80gb-sxm,192,fast,1\n"_s);
        QVERIFY(!badSpeed && badSpeed.error().text().contains(u"record 1: samples_per_s \"fast\""));
        const auto badBatch = parseTypicalStackRows(header + u"A,resnet50,h100-80gb-sxm,0,10,1\n"_s);
        QVERIFY(!badBatch && badBatch.error().text().contains(u"batch_per_gpu"));
    }

    void cliChoosesTheStack()
    {
        QTemporaryDir dir;
        const QString db = dir.filePath(u"c.sqlite"_s);
        auto rate = [&](const QStringList &extra) {
            const CliRun r = cli(
                db, QStringList{u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s, u"json"_s} + extra);
            if (r.rc != 0)
                qFatal("gpus failed: %s", qPrintable(r.err));
            for (const QJsonValue &g :
                 QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"gpus").toArray())
                if (g.toObject().value(u"id").toString() == u"h100-80gb-sxm")
                    return g.toObject().value(u"samples_per_s").toDouble();
            return 0.0;
        };
        const double typical = rate({});
        const double tuned = rate({u"--stack"_s, u"tuned"_s});
        QVERIFY(typical > 0 && tuned > typical * 1.5);
        QCOMPARE(rate({u"--stack"_s, u"typical"_s}), typical);
        // The report says which software its speeds are for, and its reproduce command keeps the choice.
        const QString md = dir.filePath(u"r.md"_s);
        const CliRun report = cli(db, {u"report"_s, u"--workload"_s, u"resnet50"_s, u"--stack"_s, u"tuned"_s,
                                       u"--format"_s, u"md"_s, u"-o"_s, md});
        QVERIFY2(report.rc == 0, qPrintable(report.err));
        QFile f(md);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString text = QString::fromUtf8(f.readAll());
        QVERIFY(text.contains(u"| Software | tuned, vendor-optimised code"));
        QVERIFY(text.contains(u"gpufrontier-cli report --workload resnet50 --stack tuned "));
        const CliRun bad = cli(db, {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--stack"_s, u"fastest"_s});
        QCOMPARE(bad.rc, 2);
        QVERIFY2(bad.err.contains(u"--stack: \"fastest\" is not typical or tuned"), qPrintable(bad.err));
    }
};

QTEST_GUILESS_MAIN(TestTypicalStack)
#include "test_typicalstack.moc"

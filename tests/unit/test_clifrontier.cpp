#include "cli.h"
#include "clirun.h"
#include "domain/gpucatalog.h"
#include "domain/workload.h"
#include "jsonschemacheck.h"
#include "projection/pointjson.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QJsonObject object(const CliRun &r)
{
    QJsonParseError e;
    const QJsonDocument d = QJsonDocument::fromJson(r.out.toUtf8(), &e);
    if (e.error != QJsonParseError::NoError || !d.isObject())
        qWarning("not a JSON object: %s", qPrintable(r.out.left(300)));
    return d.object();
}

/// The report schema's "$defs/point": the one shape of a projected point.
JsonSchemaCheck pointSchema()
{
    QFile f(QStringLiteral(GF_SOURCE_DIR "/resources/report.schema.json"));
    if (!f.open(QIODevice::ReadOnly))
        qWarning("cannot read the report schema");
    const QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
    return JsonSchemaCheck(QJsonObject{{u"$defs"_s, root.value(u"$defs")}, {u"$ref"_s, u"#/$defs/point"_s}});
}
} // namespace

class TestCliFrontier final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;

private Q_SLOTS:
    void workloadsList()
    {
        const CliRun r = cli(m_db.path(), {u"workloads"_s});
        QCOMPARE(r.rc, 0);
        for (const Workload &w : builtinWorkloads())
            QVERIFY(r.out.contains(w.id));
        const CliRun j = cli(m_db.path(), {u"workloads"_s, u"--format=json"_s});
        QCOMPARE(j.rc, 0);
        QCOMPARE(QJsonDocument::fromJson(j.out.toUtf8()).array().size(), builtinWorkloads().size());
    }

    // Every GPU model is listed, with the spec it used, fastest first, projected ones before the others.
    void gpusJson()
    {
        const CliRun r =
            cli(m_db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonObject root = object(r);
        const QJsonArray gpus = root.value(u"gpus").toArray();
        QCOMPARE(gpus.size(), GpuCatalog::builtin().models().size());
        double prev = 1e300;
        bool seenUnprojected = false;
        for (const QJsonValue &v : gpus) {
            const QJsonObject g = v.toObject();
            QVERIFY(g.value(u"spec").isObject()); // every canonical GPU has a spec row
            if (g.value(u"projected").toBool()) {
                QVERIFY(!seenUnprojected);
                const double s = g.value(u"samples_per_s").toDouble();
                QVERIFY(s > 0 && s <= prev);
                prev = s;
                QVERIFY(g.value(u"hours_one_gpu").toDouble() > 0);
            } else {
                seenUnprojected = true;
                QVERIFY(g.value(u"samples_per_s").isNull());
            }
        }
        QVERIFY(
            root.value(u"calibration").toObject().value(u"source").toString().contains(u"datasheet-only"_s));
        QCOMPARE(root.value(u"workload").toObject().value(u"id").toString(), u"resnet50"_s);
    }

    // Rule Q2 (PROJECTION.md 3.21): at a small batch the fast GPUs are marked host-bound, with the floor in
    // the JSON and the slow end at batch / floor; at the preset's batch ResNet-50 is not.
    void gpusMarksHostBoundAtSmallBatches()
    {
        for (const auto &[batch, expected] : {std::pair{16, true}, std::pair{192, false}}) {
            const CliRun r = cli(m_db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--batch"_s,
                                               QString::number(batch), u"--format"_s, u"json"_s});
            QCOMPARE(r.rc, 0);
            for (const QJsonValue &v : object(r).value(u"gpus").toArray()) {
                const QJsonObject g = v.toObject();
                if (g.value(u"id").toString() != u"h100-80gb-sxm")
                    continue;
                QCOMPARE(!g.value(u"step_floor_s").isNull(), expected);
                if (expected)
                    QVERIFY(std::abs(g.value(u"samples_per_s_low").toDouble() -
                                     batch / g.value(u"step_floor_s").toDouble()) < 1e-6);
            }
            const CliRun t = cli(m_db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--batch"_s,
                                               QString::number(batch)});
            QCOMPARE(t.out.contains(u"host-bound"_s), expected);
        }
    }

    void gpusTable()
    {
        const CliRun r = cli(m_db.path(), {u"gpus"_s, u"--workload=gpt2-124m"_s, u"--no-calibration"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(u"h100-80gb-sxm"_s));
        QVERIFY(r.out.contains(u"Calibration: datasheet-only defaults (--no-calibration)"_s));
        QVERIFY(r.out.contains(u"gaudi-hl205"_s)); // listed although it has no rate
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        QTest::newRow("gpus no workload") << QStringList{u"gpus"_s} << u"--workload NAME is required"_s;
        QTest::newRow("gpus unknown workload")
            << QStringList{u"gpus"_s, u"--workload"_s, u"alexnet"_s} << u"unknown workload \"alexnet\""_s;
        QTest::newRow("frontier unknown workload")
            << QStringList{u"frontier"_s, u"--workload"_s, u"alexnet"_s} << u"unknown workload"_s;
        QTest::newRow("bad deadline")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"soon"_s}
            << u"--deadline: \"soon\" is not a number"_s;
        QTest::newRow("negative deadline")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"-3"_s}
            << u"--deadline"_s;
        QTest::newRow("weight range")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--weight"_s, u"1.5"_s}
            << u"--weight: 1.5 is out of range"_s;
        QTest::newRow("nan budget") << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s,
                                                   u"--budget"_s, u"nan"_s}
                                    << u"--budget"_s;
        QTest::newRow("spot and on-demand")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--spot"_s, u"--on-demand"_s}
            << u"exclude"_s;
        QTest::newRow("nodes zero") << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s,
                                                   u"--nodes"_s, u"0"_s}
                                    << u"--nodes"_s;
        QTest::newRow("unknown provider")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--provider"_s, u"ibm"_s}
            << u"unknown provider"_s;
        QTest::newRow("bad format") << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s,
                                                   u"--format"_s, u"xml"_s}
                                    << u"--format"_s;
        QTest::newRow("zero samples")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--samples"_s, u"0"_s}
            << u"--samples"_s;
        QTest::newRow("measured without gpu")
            << QStringList{u"frontier"_s, u"--measured"_s, u"100"_s, u"--samples"_s, u"1000"_s}
            << u"--measured and --measured-on go together"_s;
        QTest::newRow("measured unknown gpu")
            << QStringList{u"frontier"_s, u"--measured"_s, u"100"_s, u"--measured-on"_s,
                           u"Voodoo2"_s,  u"--samples"_s,  u"10"_s}
            << u"unknown GPU \"Voodoo2\""_s;
        QTest::newRow("custom without samples")
            << QStringList{u"frontier"_s, u"--flops-per-sample"_s, u"1e12"_s} << u"--samples"_s;
        QTest::newRow("bad precision")
            << QStringList{u"gpus"_s, u"--flops-per-sample"_s, u"1e9"_s, u"--samples"_s,
                           u"10"_s,   u"--precision"_s,        u"int4"_s}
            << u"--precision"_s;
        QTest::newRow("interruption rate without provider")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--interruption-rate"_s, u"0.1"_s}
            << u"--interruption-rate: \"0.1\" is not PROVIDER=NUMBER"_s;
        QTest::newRow("interruption rate unknown provider")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--interruption-rate"_s,
                           u"ibm=0.1"_s}
            << u"--interruption-rate: unknown provider \"ibm\""_s;
        QTest::newRow("interruption rate twice")
            << QStringList{u"frontier"_s, u"--workload"_s,          u"resnet50"_s, u"--interruption-rate"_s,
                           u"aws=0.1"_s,  u"--interruption-rate"_s, u"aws=0.2"_s}
            << u"aws is given twice"_s;
        QTest::newRow("egress negative")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--egress"_s, u"gcp=-1"_s}
            << u"--egress"_s;
        QTest::newRow("checkpointing word")
            << QStringList{u"frontier"_s, u"--workload"_s, u"llm7b-lora"_s, u"--checkpointing"_s, u"yes"_s}
            << u"--checkpointing: \"yes\" is not on or off"_s;
        QTest::newRow("checkpointing not offered")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--checkpointing"_s, u"on"_s}
            << u"gradient checkpointing is not offered"_s;
        QTest::newRow("unknown option")
            << QStringList{u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--fast"_s}
            << u"unknown option --fast"_s;
    }
    void usageErrors()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const CliRun r = cli(m_db.path(), args);
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
    }

    // The JSON shape (the report's point, with its schema version), the counts, and the invariants: one
    // recommended point, on the frontier and feasible.
    void frontierJson()
    {
        const CliRun r =
            cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"bert-large-squad"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonObject root = object(r);
        const QJsonArray pts = root.value(u"points").toArray();
        const QJsonObject counts = root.value(u"counts").toObject();
        QVERIFY(counts.value(u"offers").toInt() > 2000);
        QCOMPARE(pts.size(), counts.value(u"points").toInt());
        const JsonSchemaCheck schema = pointSchema();
        int onFrontier = 0, recommended = 0, spot = 0;
        double prevHours = 0;
        for (const QJsonValue &v : pts) {
            const QJsonObject p = v.toObject();
            const QStringList errors = schema.validate(p);
            QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 5).join(u'\n')));
            QCOMPARE(p.value(u"schema_version").toInt(), kPointJsonSchemaVersion);
            for (const char *key :
                 {"price_usd_per_h", "train_h", "interruption_h", "total_h", "price_age_days"})
                QVERIFY2(p.contains(QLatin1StringView(key)), key);
            for (const char *key : {"usd_per_hour", "train_hours", "interruption_hours", "total_hours"})
                QVERIFY2(!p.contains(QLatin1StringView(key)), key); // the shape before the unification
            onFrontier += p.value(u"on_frontier").toBool();
            spot += p.value(u"price_mode").toString() == u"spot";
            if (p.value(u"recommended").toBool()) {
                ++recommended;
                QVERIFY(p.value(u"on_frontier").toBool());
                QVERIFY(p.value(u"feasible").toBool());
            }
            if (!p.value(u"total_h").isNull()) {
                QVERIFY(p.value(u"total_h").toDouble() >= prevHours); // fastest first
                prevHours = p.value(u"total_h").toDouble();
            }
            if (p.value(u"on_frontier").toBool())
                QVERIFY(p.value(u"cost_usd").toDouble() > 0);
        }
        QCOMPARE(onFrontier, counts.value(u"on_frontier").toInt());
        QVERIFY(onFrontier > 0);
        QCOMPARE(recommended, 1);
        QVERIFY(spot > 0); // both prices by default
        QCOMPARE(root.value(u"options").toObject().value(u"spot_policy").toString(), u"both"_s);
    }

    void frontierFilters()
    {
        CliRun r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--on-demand"_s,
                                     u"--format"_s, u"json"_s, u"--provider"_s, u"aws,gcp"_s});
        QCOMPARE(r.rc, 0);
        for (const QJsonValue &v : object(r).value(u"points").toArray()) {
            QCOMPARE(v.toObject().value(u"price_mode").toString(), u"on-demand"_s);
            const QString prov = v.toObject().value(u"provider").toString();
            QVERIFY(prov == u"aws" || prov == u"gcp");
        }
        r = cli(m_db.path(),
                {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--spot"_s, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        for (const QJsonValue &v : object(r).value(u"points").toArray())
            QCOMPARE(v.toObject().value(u"price_mode").toString(), u"spot"_s);
        r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--frontier-only"_s,
                              u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonArray f = object(r).value(u"points").toArray();
        QVERIFY(!f.isEmpty());
        for (const QJsonValue &v : f)
            QVERIFY(v.toObject().value(u"on_frontier").toBool());
        r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--limit"_s, u"5"_s,
                              u"--format"_s, u"json"_s});
        QCOMPARE(object(r).value(u"points").toArray().size(), 5);
        // Single-GPU offers as 4 nodes: points with nodes 4 appear.
        r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--nodes"_s, u"4"_s,
                              u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        bool four = false;
        for (const QJsonValue &v : object(r).value(u"points").toArray())
            four = four || v.toObject().value(u"nodes").toInt() == 4;
        QVERIFY(four);
    }

    // Run options in the CLI: a user's spot interruption rate changes the spot points' overhead; suspect
    // prices are never recommended unless --include-suspect; --checkpointing and --dataset-gb reach the
    // workload.
    void spotRiskAndSuspectPrices()
    {
        auto points = [&](const QStringList &extra) {
            const CliRun r =
                cli(m_db.path(), QStringList{u"frontier"_s, u"--workload"_s, u"bert-large-squad"_s,
                                             u"--spot"_s, u"--provider"_s, u"aws"_s, u"--format=json"_s} +
                                     extra);
            if (r.rc != 0)
                qWarning("%s", qPrintable(r.err));
            return object(r).value(u"points").toArray();
        };
        const QJsonArray base = points({});
        const QJsonArray risky = points({u"--interruption-rate"_s, u"aws=0.2"_s});
        QVERIFY(!base.isEmpty());
        QCOMPARE(risky.size(), base.size());
        double baseOverhead = 0, riskyOverhead = 0;
        for (const QJsonValue &v : base)
            baseOverhead += v.toObject().value(u"interruption_h").toDouble();
        for (const QJsonValue &v : risky) {
            riskyOverhead += v.toObject().value(u"interruption_h").toDouble();
            QVERIFY(v.toObject().value(u"expected_interruptions").toDouble() >= 0);
        }
        QVERIFY2(riskyOverhead > baseOverhead * 1.5,
                 qPrintable(u"%1 vs %2"_s.arg(riskyOverhead).arg(baseOverhead)));

        // The recommendation never carries a suspect flag by default; with --include-suspect the flags stay.
        const CliRun def =
            cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--format=json"_s});
        QCOMPARE(def.rc, 0);
        QJsonObject rec;
        for (const QJsonValue &v : object(def).value(u"points").toArray())
            if (v.toObject().value(u"recommended").toBool())
                rec = v.toObject();
        QVERIFY(!rec.isEmpty());
        const QStringList suspect{u"spot-above-on-demand"_s, u"spot-at-floor"_s, u"gpu-below-spot"_s,
                                  u"price-outlier-low"_s, u"stale"_s};
        for (const QJsonValue &f : rec.value(u"flags").toArray())
            QVERIFY2(!suspect.contains(f.toString()), qPrintable(f.toString()));
        const CliRun inc = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s,
                                             u"--include-suspect"_s, u"--format=json"_s});
        QCOMPARE(inc.rc, 0);
        QVERIFY(object(inc).value(u"options").toObject().value(u"include_suspect").toBool());

        const CliRun wl =
            cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"llm7b-lora"_s, u"--checkpointing"_s, u"off"_s,
                              u"--dataset-gb"_s, u"12"_s, u"--format=json"_s});
        QCOMPARE(wl.rc, 0);
        const QJsonObject w = object(wl).value(u"workload").toObject();
        QVERIFY2(w.value(u"memory_gb").toDouble() > 24,
                 qPrintable(QString::number(w.value(u"memory_gb").toDouble())));
        QCOMPARE(w.value(u"dataset_gb").toDouble(), 12.0);
    }

    // A deadline nobody can meet: no recommendation, said in words, still exit 0.
    void infeasible()
    {
        const CliRun r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"llm7b-lora"_s, u"--deadline"_s,
                                           u"0.001"_s, u"--frontier-only"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(u"Recommended: none"_s));
        QVERIFY(r.out.contains(u"0 feasible"_s));
    }

    void table()
    {
        const CliRun r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"vit-b16"_s, u"--frontier-only"_s,
                                           u"--budget"_s, u"100000"_s, u"--weight"_s, u"0.2"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(u"Workload: vit-b16"_s));
        QVERIFY(r.out.contains(u"Calibration: datasheet-only"_s));
        QVERIFY(r.out.contains(u"Recommended (weight 0.20):"_s));
        QVERIFY(r.out.contains(u"=>"_s));
        QVERIFY(r.out.contains(u"on the efficiency frontier"_s));
        // A price per GPU-hour beside the instance's: USD/h over the GPUs (and instances) of the point.
        const QStringList lines = r.out.split(u'\n');
        qsizetype header = -1;
        for (qsizetype i = 0; i < lines.size() && header < 0; ++i)
            if (lines.at(i).contains(u"USD/GPU-h"))
                header = i;
        QVERIFY(header >= 0);
        const qsizetype usdAt = lines.at(header).indexOf(u" USD/h") + 1;
        const qsizetype perGpuAt = lines.at(header).indexOf(u"USD/GPU-h");
        const qsizetype gpusAt = lines.at(header).indexOf(u"GPUs");
        int checked = 0;
        for (qsizetype i = header + 2; i < lines.size() && lines.at(i).size() > perGpuAt + 9; ++i) {
            const QString &l = lines.at(i);
            // right-aligned columns end where their header ends
            auto cell = [&](qsizetype start, qsizetype width) {
                return l.left(start + width).section(u' ', -1, -1, QString::SectionSkipEmpty);
            };
            bool ok1 = false, ok2 = false, ok3 = false;
            const double gpus = cell(gpusAt, 4).toDouble(&ok1);
            const double usd = cell(usdAt, 5).toDouble(&ok2);
            const double perGpu = cell(perGpuAt, 9).toDouble(&ok3);
            if (!(ok1 && ok2 && ok3))
                continue;
            QVERIFY2(std::abs(perGpu - usd / gpus) <= 0.0051 + 1e-3 * usd / gpus, qPrintable(l));
            ++checked;
        }
        QVERIFY(checked > 0);
    }

    void customWorkloads()
    {
        CliRun r = cli(m_db.path(), {u"frontier"_s, u"--flops-per-sample"_s, u"2e11"_s, u"--samples"_s,
                                     u"1e6"_s, u"--precision"_s, u"bf16"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        QCOMPARE(object(r).value(u"workload").toObject().value(u"kind").toString(), u"custom-flops"_s);
        // Measured on an A100 (alias): the A100 SXM4 40GB gives back exactly the measurement.
        r = cli(m_db.path(), {u"gpus"_s, u"--measured"_s, u"500"_s, u"--measured-on"_s, u"A100"_s,
                              u"--samples"_s, u"1e6"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonObject root = object(r);
        QCOMPARE(root.value(u"workload").toObject().value(u"measured_on").toString(), u"a100-40gb-sxm4"_s);
        bool found = false;
        for (const QJsonValue &v : root.value(u"gpus").toArray())
            if (v.toObject().value(u"id").toString() == u"a100-40gb-sxm4") {
                QCOMPARE(v.toObject().value(u"samples_per_s").toDouble(), 500.0);
                found = true;
            }
        QVERIFY(found);
        // A preset with a measurement: the preset's intensity, the user's speed.
        r = cli(m_db.path(), {u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--measured"_s, u"2500"_s,
                              u"--measured-on"_s, u"a100-80gb-sxm4"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        QCOMPARE(object(r).value(u"workload").toObject().value(u"kind").toString(), u"custom-measured"_s);
    }

    // The newest probe run calibrates; an unreadable newest run is skipped (the next readable one
    // calibrates, as in the GUI and the reports) and the output says so.
    void calibrationFromProbeRun()
    {
        TempDb db;
        CliRun r = cli(db.path(), {u"probe"_s, u"--import"_s, fixturePath(u"probe/cuda_h100.json"_s)});
        QCOMPARE(r.rc, 0);
        r = cli(db.path(),
                {u"frontier"_s, u"--workload"_s, u"gpt2-124m"_s, u"--frontier-only"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonObject cal = object(r).value(u"calibration").toObject();
        QVERIFY2(cal.value(u"measured").toBool(), qPrintable(cal.value(u"source").toString()));
        QCOMPARE(cal.value(u"probed_gpu").toString(), u"h100-80gb-sxm"_s);
        QVERIFY(cal.value(u"source").toString().contains(u"NVIDIA H100 80GB HBM3"_s));
        // bf16 745.2 measured of the datasheet's 989.4 = 0.753.
        const double bf16 = cal.value(u"compute_efficiency").toObject().value(u"bf16").toDouble();
        QVERIFY(bf16 > 0.7 && bf16 < 0.8);
        r = cli(db.path(),
                {u"frontier"_s, u"--workload"_s, u"gpt2-124m"_s, u"--no-calibration"_s, u"--limit=1"_s});
        QVERIFY(r.out.contains(u"--no-calibration"_s));

        {
            auto store = db.open();
            ProbeRunRecord bad;
            bad.createdAt = QDateTime::currentDateTimeUtc(); // the newest (a future date is refused)
            bad.kind = u"cuda"_s;
            bad.deviceName = u"broken"_s;
            bad.schemaVersion = 1;
            bad.json = "{\"schema_version\": 1, \"kind\": ";
            QVERIFY(store->addProbeRun(bad).ok());
        }
        r = cli(db.path(), {u"gpus"_s, u"--workload"_s, u"gpt2-124m"_s});
        QCOMPARE(r.rc, 0);
        QVERIFY2(r.out.contains(u"Calibration: probe of NVIDIA H100 80GB HBM3"_s),
                 qPrintable(r.out.left(400)));
        QVERIFY2(r.out.contains(u"[probe run #1]"_s), qPrintable(r.out.left(400)));
        QVERIFY2(r.out.contains(u"skipped probe run #2 cannot be read"_s), qPrintable(r.out.left(400)));
        r = cli(db.path(),
                {u"frontier"_s, u"--workload"_s, u"gpt2-124m"_s, u"--limit=1"_s, u"--format=json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonObject skipped = object(r).value(u"calibration").toObject();
        QVERIFY(skipped.value(u"measured").toBool());
        QVERIFY(skipped.value(u"notes").toArray().first().toString().startsWith(
            u"probe run #2 cannot be read"_s));
    }

    void help()
    {
        for (const QString &c : {u"frontier"_s, u"gpus"_s, u"workloads"_s}) {
            const CliRun r = cli(m_db.path(), {c, u"--help"_s});
            QCOMPARE(r.rc, 0);
            QVERIFY(r.out.startsWith(u"Usage: gpufrontier-cli "_s + c));
        }
        const CliRun r = cli(m_db.path(), {u"--help"_s});
        QVERIFY(r.out.contains(u"frontier"_s) && r.out.contains(u"gpus"_s) && r.out.contains(u"workloads"_s));
    }
};

QTEST_GUILESS_MAIN(TestCliFrontier)
#include "test_clifrontier.moc"

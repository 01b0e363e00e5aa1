#include "cli.h"
#include "clirun.h"
#include "domain/gpuspecs.h"
#include "projection/inputpipelinevalidation.h"
#include "projection/offerprojection.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "projection/transfervalidation.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace gf;
using namespace gf::test;

// `gpufrontier-cli validate`: the leave-one-GPU-out figures are computed (rows, finite errors, summaries
// consistent with the rows), not that they are good: their values move with every refit of the model.
// That nothing of the held-out GPU reaches its projection is tested in test_validation.cpp.
class TestCliValidate final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;

private Q_SLOTS:
    void json()
    {
        const CliRun r = cli(
            m_db.path(), {QStringLiteral("validate"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.rc, 0);
        const QJsonDocument d = QJsonDocument::fromJson(r.out.toUtf8());
        QVERIFY(d.isObject());
        const QJsonArray workloads = d.object().value(QStringLiteral("workloads")).toArray();
        QVERIFY(workloads.size() >= 2);
        bool sawResnet = false;
        for (const QJsonValue &wv : workloads) {
            const QJsonObject w = wv.toObject();
            const QJsonArray rows = w.value(QStringLiteral("rows")).toArray();
            QCOMPARE(w.value(QStringLiteral("n")).toInt(), rows.size());
            QVERIFY(rows.size() >= 2);
            double maxAbs = 0, maxAbsV1 = 0;
            for (const QJsonValue &rv : rows) {
                const QJsonObject o = rv.toObject();
                const double measured = o.value(QStringLiteral("measured")).toDouble();
                const double projected = o.value(QStringLiteral("projected")).toDouble();
                const double e = o.value(QStringLiteral("log_error")).toDouble();
                QVERIFY(measured > 0 && projected > 0);
                QVERIFY(std::isfinite(e));
                QVERIFY(std::abs(e - std::log(projected / measured)) < 1e-9);
                QVERIFY(o.value(QStringLiteral("projected_v1")).toDouble() > 0);
                QVERIFY(std::isfinite(o.value(QStringLiteral("log_error_v1")).toDouble()));
                QVERIFY(o.value(QStringLiteral("tier")).toString().startsWith(QStringLiteral("measured")));
                // The truth's stack factor comes from other GPUs (or is the reference stack's 1).
                const QString method = o.value(QStringLiteral("stack_factor_method")).toString();
                QVERIFY(method == u"reference" || method == u"shared-gpu");
                QVERIFY(!o.value(QStringLiteral("stack_factor_gpus"))
                             .toArray()
                             .contains(o.value(QStringLiteral("gpu"))));
                QVERIFY(o.value(QStringLiteral("reference_gpus")).toInt() >= 1);
                maxAbs = std::max(maxAbs, std::abs(e));
                maxAbsV1 = std::max(maxAbsV1, std::abs(o.value(QStringLiteral("log_error_v1")).toDouble()));
            }
            QCOMPARE(w.value(QStringLiteral("max_abs_log_error")).toDouble(), maxAbs);
            QCOMPARE(w.value(QStringLiteral("max_abs_log_error_v1")).toDouble(), maxAbsV1);
            QVERIFY(w.value(QStringLiteral("median_abs_log_error")).toDouble() <= maxAbs);
            if (w.value(QStringLiteral("workload")).toString() == u"resnet50") {
                sawResnet = true;
                // The 17 ResNet-50 anchors (the fit-only A30 included): 15 scored; the RTX 3090 and 4090
                // were measured only in tf_cnn_benchmarks, which converts through the model alone.
                QCOMPARE(rows.size(), 15);
                const QJsonArray skipped = w.value(QStringLiteral("not_validated")).toArray();
                QCOMPARE(skipped.size(), 2);
                for (const QJsonValue &sv : skipped)
                    QVERIFY(!sv.toObject().value(QStringLiteral("reason")).toString().isEmpty());
            }
        }
        QVERIFY(sawResnet);
    }

    void table()
    {
        const CliRun r = cli(m_db.path(), {QStringLiteral("validate"), QStringLiteral("--workload"),
                                           QStringLiteral("bert-large-squad")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(QStringLiteral("bert-large-squad")));
        QVERIFY(r.out.contains(QStringLiteral("a100-80gb-sxm4")));
        QVERIFY(r.out.contains(QStringLiteral("median |e|")));
        QVERIFY(!r.out.contains(QStringLiteral("resnet50")));
        // The GPUs measured only in a stack that converts through the model are named, not scored.
        QVERIFY(r.out.contains(QStringLiteral("v100-16gb-sxm2: not validated")));
    }

    // The held-out splits (issue 22 item 4): one entry per split with its summary and rows, in json and in
    // the table, with the figures of fit_projection.py for the same cases next to the app's.
    void heldOutSplitsJson()
    {
        const CliRun r = cli(
            m_db.path(), {QStringLiteral("validate"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.rc, 0);
        const QJsonObject root = QJsonDocument::fromJson(r.out.toUtf8()).object();
        const QJsonArray splits = root.value(QStringLiteral("held_out_splits")).toArray();
        QCOMPARE(splits.size(), 3);
        QStringList ids;
        for (const QJsonValue &sv : splits) {
            const QJsonObject s = sv.toObject();
            ids.append(s.value(QStringLiteral("split")).toString());
            const QJsonArray rows = s.value(QStringLiteral("rows")).toArray();
            QCOMPARE(s.value(QStringLiteral("n")).toInt(), rows.size());
            QVERIFY(!rows.isEmpty());
            double maxAbs = 0;
            int inside = 0;
            for (const QJsonValue &rv : rows) {
                const QJsonObject o = rv.toObject();
                for (const char *key : {"held_out", "workload", "stack", "gpu", "tier"})
                    QVERIFY2(!o.value(QLatin1String(key)).toString().isEmpty(), key);
                const double e = o.value(QStringLiteral("log_error")).toDouble();
                QVERIFY(std::abs(e - std::log(o.value(QStringLiteral("projected")).toDouble() /
                                              o.value(QStringLiteral("measured")).toDouble())) < 1e-9);
                maxAbs = std::max(maxAbs, std::abs(e));
                inside += o.value(QStringLiteral("inside_shipped_range")).toBool() ? 1 : 0;
            }
            QCOMPARE(s.value(QStringLiteral("max_abs_log_error")).toDouble(), maxAbs);
            QVERIFY(std::abs(s.value(QStringLiteral("coverage_shipped_ranges")).toDouble() -
                             double(inside) / rows.size()) < 1e-12);
            const QJsonObject tool = s.value(QStringLiteral("fit_projection_summary")).toObject();
            QCOMPARE(tool.value(QStringLiteral("n")).toInt(), rows.size());
            QVERIFY(std::abs(tool.value(QStringLiteral("median_abs_log_error")).toDouble() -
                             s.value(QStringLiteral("median_abs_log_error")).toDouble()) < 5e-4);
        }
        QCOMPARE(ids, (QStringList{QStringLiteral("leave_one_gpu_out"),
                                   QStringLiteral("leave_one_source_out"), QStringLiteral("time_split")}));
        // The input pipeline's check (section 3.19): the app's own figures, in the JSON.
        const QJsonObject pipeline = root.value(QStringLiteral("input_pipeline")).toObject();
        const InputPipelineValidation v =
            validateInputPipeline(InputPipelineData::builtin(), 0.008, kInputPipelineRange);
        QCOMPARE(pipeline.value(QStringLiteral("runs")).toInt(), 336);
        QCOMPARE(pipeline.value(QStringLiteral("cpu_seconds_per_sample")).toDouble(), 0.008);
        const QJsonObject bound = pipeline.value(QStringLiteral("input_bound")).toObject();
        QCOMPARE(bound.value(QStringLiteral("n")).toInt(), v.bound.n);
        QCOMPARE(bound.value(QStringLiteral("coverage")).toDouble(), v.bound.coverage);
        QCOMPARE(
            pipeline.value(QStringLiteral("input_bound_flagged_cpu_bound")).toObject().value(u"n").toInt(),
            v.flagged.n);
        QCOMPARE(pipeline.value(QStringLiteral("input_bound_by_cpu")).toArray().size(), v.byCpu.size());
        const QJsonArray unboundByCpu = pipeline.value(QStringLiteral("not_bound_by_cpu")).toArray();
        QCOMPARE(unboundByCpu.size(), v.unboundByCpu.size());
        int unboundRuns = 0;
        for (qsizetype i = 0; i < unboundByCpu.size(); ++i) {
            const QJsonObject u = unboundByCpu.at(i).toObject();
            QCOMPARE(u.value(u"cpu").toString(), v.unboundByCpu.at(i).cpu);
            QCOMPARE(u.value(u"median_log_real_over_synthetic").toDouble(),
                     v.unboundByCpu.at(i).medianLogRatio);
            QCOMPARE(u.value(u"p10_log_real_over_synthetic").toDouble(), v.unboundByCpu.at(i).p10LogRatio);
            unboundRuns += u.value(u"n").toInt();
        }
        QCOMPARE(unboundRuns, pipeline.value(QStringLiteral("not_bound")).toInt());
        QCOMPARE(pipeline.value(QStringLiteral("range_p90")).toDouble(), kInputPipelineRange.p90);
        const QJsonObject judged = pipeline.value(QStringLiteral("judged_range_replaced")).toObject();
        QCOMPARE(judged.value(u"input_bound").toObject().value(u"n").toInt(), 22);
        QCOMPARE(qRound(100 * judged.value(u"input_bound").toObject().value(u"coverage").toDouble()), 41);
        // The per-step floor's check (section 3.21): the app's own figures, in the JSON.
        const QJsonObject floor = root.value(QStringLiteral("step_floor")).toObject();
        const StepFloorValidation sf =
            validateStepFloors(SpeedModel::builtin(), GpuSpecTable::builtin(), StepFloorData::builtin());
        QCOMPARE(floor.value(u"floors").toArray().size(), 4);
        QCOMPARE(floor.value(u"flagged_host_bound").toInt(), sf.flagged);
        for (const auto &[key, e] :
             {std::pair{"with_floor", sf.withFloor}, std::pair{"without_floor", sf.without}}) {
            const QJsonObject o = floor.value(QLatin1String(key)).toObject();
            QCOMPARE(o.value(u"n").toInt(), 21);
            QCOMPARE(o.value(u"coverage").toDouble(), e.coverage);
            QCOMPARE(o.value(u"median_abs_log_error").toDouble(), e.median);
        }
        QVERIFY(sf.withFloor.coverage > sf.without.coverage);
        const QJsonObject held = floor.value(u"held_out_other_host").toObject();
        QCOMPARE(held.value(u"with_floor").toObject().value(u"n").toInt(),
                 19); // rules R and T: two other hosts
        QCOMPARE(held.value(u"with_floor").toObject().value(u"coverage").toDouble(),
                 sf.heldOutWithFloor.coverage);
        QCOMPARE(held.value(u"without_floor").toObject().value(u"coverage").toDouble(),
                 sf.heldOutWithout.coverage);
        QCOMPARE(held.value(u"flagged_host_bound").toInt(), sf.heldOutFlagged);
        QCOMPARE(sf.withFloor.median, sf.without.median); // the point does not move
    }

    void heldOutSplitsTable()
    {
        const CliRun r = cli(m_db.path(), {QStringLiteral("validate")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(QStringLiteral("Held-out splits")));
        for (const char *id : {"leave_one_gpu_out", "leave_one_source_out", "time_split"})
            QVERIFY2(r.out.contains(QLatin1String(id)), id);
        QVERIFY(r.out.contains(QStringLiteral("coverage")));
        QVERIFY(r.out.contains(QStringLiteral("the pipeline check below scores them (in sample)")));
        QVERIFY(r.out.contains(
            QStringLiteral("Input pipeline (PROJECTION.md section 3.19): 336 real-data runs")));
        QVERIFY(r.out.contains(QStringLiteral("range\n0.52x-1.26x of the cap")));
        QVERIFY(r.out.contains(QStringLiteral("flagged cpu-bound")));
        QVERIFY(r.out.contains(
            QStringLiteral("The judged range it replaced, 0.70x-1.40x, holds 41 % of the 22 runs")));
        QVERIFY(r.out.contains(QStringLiteral("Per-step floor (PROJECTION.md section 3.21, rule Q2)")));
        QVERIFY(r.out.contains(
            QStringLiteral("bert-large-squad  h100-80gb-sxm               2             3      85.2")));
    }

    // --splits reads another model_v2.json; a broken entry is named, and nothing is printed as if valid.
    void brokenSplitsFile()
    {
        QFile f(QStringLiteral(GF_SOURCE_DIR "/resources/benchmarks/model_v2.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject root = QJsonDocument::fromJson(f.readAll()).object();
        QJsonObject splits = root.value(QStringLiteral("held_out_splits")).toObject();
        QJsonObject loso = splits.value(QStringLiteral("leave_one_source_out")).toObject();
        QJsonArray folds = loso.value(QStringLiteral("folds")).toArray();
        QJsonObject fold = folds.at(0).toObject();
        QJsonObject constants = fold.value(QStringLiteral("constants")).toObject();
        constants.insert(QStringLiteral("p"), -3);
        fold.insert(QStringLiteral("constants"), constants);
        folds.replace(0, fold);
        loso.insert(QStringLiteral("folds"), folds);
        splits.insert(QStringLiteral("leave_one_source_out"), loso);
        root.insert(QStringLiteral("held_out_splits"), splits);
        const QString path = m_db.dir() + QStringLiteral("/broken_model.json");
        writeFile(path, QJsonDocument(root).toJson());
        CliRun r = cli(m_db.path(), {QStringLiteral("validate"), QStringLiteral("--splits"), path});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY2(r.err.contains(QStringLiteral("leave_one_source_out")) &&
                     r.err.contains(QStringLiteral("fold 0")) && r.err.contains(QStringLiteral("\"p\"")),
                 qPrintable(r.err));
        QVERIFY(r.out.isEmpty());
        r = cli(m_db.path(),
                {QStringLiteral("validate"), QStringLiteral("--splits"), path + QStringLiteral(".nope")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY(r.err.contains(QStringLiteral("cannot read")));
        // the shipped file through --splits gives the shipped figures
        r = cli(m_db.path(), {QStringLiteral("validate"), QStringLiteral("--splits"),
                              QStringLiteral(GF_SOURCE_DIR "/resources/benchmarks/model_v2.json")});
        QCOMPARE(r.rc, 0);
        QCOMPARE(r.out, cli(m_db.path(), {QStringLiteral("validate")}).out);
    }

    // The user's figure carried across GPUs goes through the same projection as `--measured S --measured-on
    // GPU` with the workload's FLOPs: validate's figure for a pair is what `gpus` prints for those flags.
    void userTransferIsTheMeasuredFlag()
    {
        const CliRun r = cli(
            m_db.path(), {QStringLiteral("validate"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.rc, 0);
        const QJsonObject t = QJsonDocument::fromJson(r.out.toUtf8())
                                  .object()
                                  .value(QStringLiteral("user_transfer"))
                                  .toObject();
        QCOMPARE(t.value(QStringLiteral("headline_gpu")).toString(), QStringLiteral("a100-80gb-sxm4"));
        QCOMPARE(t.value(QStringLiteral("by_class")).toArray().size(), 4);
        QCOMPARE(t.value(QStringLiteral("by_workload")).toArray().size(), 20);
        // Per source, every GPU as the user's (section 3.18): the TensorFlow suite's 6 CNNs x 7 GPUs x 6
        // others.
        QStringList sourceLabels;
        for (const QJsonValue &s : t.value(QStringLiteral("by_source")).toArray()) {
            sourceLabels.append(s.toObject().value(QStringLiteral("label")).toString());
            if (sourceLabels.last() == u"LAMBDA-TF-2021")
                QCOMPARE(s.toObject().value(QStringLiteral("n")).toInt(), 6 * 7 * 6);
        }
        QCOMPARE(sourceLabels, (QStringList{QStringLiteral("LAMBDA-PYT-V0"), QStringLiteral("LAMBDA-TF-2021"),
                                            QStringLiteral("MLI-TFMR-2024")}));
        // The same figures without FLOPs per sample (the workload panel's default custom workload, 3.18).
        QCOMPARE(t.value(QStringLiteral("all_without_flops")).toObject().value(QStringLiteral("n")).toInt(),
                 t.value(QStringLiteral("all")).toObject().value(QStringLiteral("n")).toInt());
        QCOMPARE(t.value(QStringLiteral("by_source_without_flops")).toArray().size(), 3);
        // ... and they are the app's own figures for that path, not the class-given ones.
        const TransferValidation own =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), TransferData::builtin());
        const double shapeless = t.value(QStringLiteral("from_headline_gpu_without_flops"))
                                     .toObject()
                                     .value(QStringLiteral("median_abs_log_error"))
                                     .toDouble();
        QCOMPARE(shapeless, own.fromHeadlineWithoutFlops.median);
        QVERIFY(shapeless != own.fromHeadline.median);
        QVERIFY(t.value(QStringLiteral("all")).toObject().value(QStringLiteral("n")).toInt() > 1000);
        // The same figures with the class left out (section 3.16): as many pairs, in the text too.
        QCOMPARE(t.value(QStringLiteral("all_class_not_given")).toObject().value(QStringLiteral("n")).toInt(),
                 t.value(QStringLiteral("all")).toObject().value(QStringLiteral("n")).toInt());
        QCOMPARE(t.value(QStringLiteral("from_headline_gpu_class_not_given"))
                     .toObject()
                     .value(QStringLiteral("n"))
                     .toInt(),
                 t.value(QStringLiteral("from_headline_gpu")).toObject().value(QStringLiteral("n")).toInt());
        const QString text = cli(m_db.path(), {QStringLiteral("validate")}).out;
        QVERIFY(text.contains(QStringLiteral("from a100-80gb-sxm4, class not given")));
        // The tail the goal's maximum speaks of: the counts beyond 0.40 and 0.60 are those of the pairs, and
        // the largest pair printed first is the pair with the largest |e|.
        int over40 = 0, over60 = 0;
        double largest = 0;
        const QJsonArray pairs = t.value(QStringLiteral("pairs")).toArray();
        for (const QJsonValue &pv : pairs) {
            const double e = std::abs(pv.toObject().value(QStringLiteral("log_error")).toDouble());
            over40 += e > 0.40 ? 1 : 0;
            over60 += e > 0.60 ? 1 : 0;
            largest = std::max(largest, e);
        }
        QVERIFY(over60 > 0 && over40 > over60);
        const QString tail = QStringLiteral("|e| > 0.40 in %1 of %2 pairs").arg(over40).arg(pairs.size());
        QVERIFY2(text.contains(tail), qPrintable(tail));
        QVERIFY(text.contains(QStringLiteral("> 0.60 in %1 (").arg(over60)));
        const qsizetype at = text.indexOf(QStringLiteral("The largest:\n"));
        QVERIFY(at > 0);
        const QString first = text.mid(at + 13).section(QLatin1Char('\n'), 0, 0).trimmed();
        QVERIFY2(std::abs(std::abs(first.section(QLatin1Char(' '), 0, 0).toDouble()) - largest) < 6e-4,
                 qPrintable(first));
        QVERIFY(text.contains(QStringLiteral("from a100-80gb-sxm4, no FLOPs given")));
        QVERIFY(text.contains(QStringLiteral("source LAMBDA-TF-2021, no FLOPs given")));
        const TransferData &data = TransferData::builtin();
        const TransferRow *user = nullptr;
        for (const TransferRow &row : data.rows)
            if (row.workload == u"ssd300-coco" && row.gpuId == u"a100-80gb-sxm4")
                user = &row;
        QVERIFY(user);
        double flops = 0;
        for (const TransferWorkload &w : data.workloads)
            if (w.id == u"ssd300-coco")
                flops = w.flopsPerSample;
        double fromValidate = 0;
        for (const QJsonValue &pv : t.value(QStringLiteral("pairs")).toArray()) {
            const QJsonObject p = pv.toObject();
            if (p.value(QStringLiteral("from")).toString() == u"a100-80gb-sxm4" &&
                p.value(QStringLiteral("workload")).toString() == u"ssd300-coco" &&
                p.value(QStringLiteral("gpu")).toString() == u"rtx3090")
                fromValidate = p.value(QStringLiteral("projected")).toDouble();
        }
        QVERIFY(fromValidate > 0);
        const CliRun g = cli(m_db.path(), {QStringLiteral("gpus"),
                                           QStringLiteral("--workload-name"),
                                           QStringLiteral("ssd300-coco"),
                                           QStringLiteral("--flops-per-sample"),
                                           QString::number(flops, 'g', 17),
                                           QStringLiteral("--measured"),
                                           QString::number(user->samplesPerS, 'g', 17),
                                           QStringLiteral("--measured-on"),
                                           QStringLiteral("a100-80gb-sxm4"),
                                           QStringLiteral("--batch"),
                                           QString::number(user->batchPerGpu),
                                           QStringLiteral("--precision"),
                                           QStringLiteral("fp16"),
                                           QStringLiteral("--samples"),
                                           QStringLiteral("1000000"),
                                           QStringLiteral("--workload-class"),
                                           QStringLiteral("detection"),
                                           QStringLiteral("--no-measurements"),
                                           QStringLiteral("--no-calibration"),
                                           QStringLiteral("--format"),
                                           QStringLiteral("json")});
        QCOMPARE(g.rc, 0);
        double fromGpus = 0;
        for (const QJsonValue &gv : QJsonDocument::fromJson(g.out.toUtf8()).object().value(u"gpus").toArray())
            if (gv.toObject().value(u"id").toString() == u"rtx3090")
                fromGpus = gv.toObject().value(u"samples_per_s").toDouble();
        QVERIFY(std::abs(fromGpus / fromValidate - 1) < 1e-9);
    }

    // The typical stack's leave one source out over the transfer pairs (PROJECTION.md section 3.11): one
    // fold per shipped source fold of typical_stack.json, the one-layer transformer figures' own included,
    // in json and in the table.
    void leaveOneSourceOutFolds()
    {
        const CliRun r = cli(
            m_db.path(), {QStringLiteral("validate"), QStringLiteral("--format"), QStringLiteral("json")});
        QCOMPARE(r.rc, 0);
        const QJsonObject loso = QJsonDocument::fromJson(r.out.toUtf8())
                                     .object()
                                     .value(QStringLiteral("leave_one_source_out"))
                                     .toObject();
        QStringList sources;
        int pairs = 0;
        for (const QJsonValue &fv : loso.value(QStringLiteral("folds")).toArray()) {
            const QJsonObject f = fv.toObject();
            sources.append(f.value(QStringLiteral("source")).toString());
            pairs += f.value(QStringLiteral("pairs")).toObject().value(QStringLiteral("n")).toInt();
            if (sources.last() == u"MLI-TFMR-2024") {
                QCOMPARE(f.value(QStringLiteral("pairs")).toObject().value(QStringLiteral("n")).toInt(), 80);
                QCOMPARE(f.value(QStringLiteral("rows")).toObject().value(QStringLiteral("n")).toInt(), 0);
            }
        }
        QCOMPARE(sources, (QStringList{QStringLiteral("GF-MEASURE-2611"), QStringLiteral("LAMBDA-PYT-V0"),
                                       QStringLiteral("LAMBDA-TF-2021"), QStringLiteral("MLI-TFMR-2024")}));
        QCOMPARE(loso.value(QStringLiteral("pairs")).toObject().value(QStringLiteral("n")).toInt(), pairs);
        const CliRun t = cli(m_db.path(), {QStringLiteral("validate")});
        QCOMPARE(t.rc, 0);
        const qsizetype at = t.out.indexOf(QStringLiteral("Typical stack, leave one source out"));
        QVERIFY(at >= 0);
        QVERIFY(t.out.indexOf(QStringLiteral("MLI-TFMR-2024"), at) > at);
    }

    void unknownWorkload()
    {
        const CliRun r = cli(
            m_db.path(), {QStringLiteral("validate"), QStringLiteral("--workload"), QStringLiteral("nope")});
        QCOMPARE(r.rc, int(ExitUsage));
        QVERIFY(r.err.contains(QStringLiteral("unknown preset")));
    }

    // A preset without measurements (llm7b-lora) has nothing to validate and says so.
    void unmeasuredWorkload()
    {
        const CliRun r = cli(m_db.path(), {QStringLiteral("validate"), QStringLiteral("--workload"),
                                           QStringLiteral("llm7b-lora")});
        QCOMPARE(r.rc, 0);
        QVERIFY(r.out.contains(QStringLiteral("nothing to validate")));
    }
};

QTEST_GUILESS_MAIN(TestCliValidate)
#include "test_clivalidate.moc"

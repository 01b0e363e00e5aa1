#include "domain/workloadbuilder.h"
#include "projection/transfervalidation.h"
#include "projection/typicalstack.h"
#include "util/resourcefiles.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace Qt::StringLiterals;

// A user's own figure carried across GPUs (issue 22 item 5): every pair is a real projection of the shipped
// data, the summaries are those of the pairs, and a broken data file says which record is wrong.
class TestTransferValidation final : public QObject
{
    Q_OBJECT

    /// typical_stack.json's summaries of one split (fit_typical_stack.py), e.g. ("leave one source out",
    /// "after").
    static QJsonObject toolSplit(const QString &split, const QString &part)
    {
        return QJsonDocument::fromJson(readResource(QStringLiteral("benchmarks/typical_stack.json")))
            .object()
            .value(QStringLiteral("splits"))
            .toObject()
            .value(split)
            .toObject()
            .value(part)
            .toObject();
    }

    /// The app's summary equals the fitter's (rounded to 4 decimals there) within `tol`.
    static bool same(const TransferSummary &s, const QJsonObject &o, double tol)
    {
        return s.n == o.value(QStringLiteral("n")).toInt() &&
               std::abs(s.median - o.value(QStringLiteral("median")).toDouble()) < tol &&
               std::abs(s.max - o.value(QStringLiteral("max")).toDouble()) < tol &&
               std::abs(s.coverage - o.value(QStringLiteral("coverage")).toDouble()) < tol;
    }

    static const QString workloads()
    {
        return QStringLiteral("workload,class,unit,flops_per_sample,flops_basis\n"
                              "w1,convolutional,images,24600000000,preset\n"
                              "w2,transformer,sequences,739300000000,preset\n");
    }

private Q_SLOTS:
    void shippedData()
    {
        const TransferData &data = TransferData::builtin();
        // Lambda's 10, mli/transformers-benchmarks' 4 (section 3.11), Lambda's TensorFlow suite's 6 (3.18)
        // and the 32 eager-PyTorch CNNs scored apart (3.24)
        QCOMPARE(data.workloads.size(), 20 + 32);
        QVERIFY(data.rows.size() >= 100);
        const TransferValidation v =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), data);
        QVERIFY(v.skipped.isEmpty());
        // The pairs whose two figures share a stated batch (section 3.24) are a subset of every pair.
        int sameBatch = 0;
        for (const TransferPair &p : v.pairs)
            sameBatch += p.fromBatch > 0 && p.fromBatch == p.toBatch ? 1 : 0;
        QCOMPARE(v.sameBatch.n, sameBatch);
        QVERIFY(sameBatch > 100 && sameBatch < v.all.n);
        // Rule AD (section 3.30): the pairs of batches 8x or more apart, each with that range inside its own.
        const TypicalStack &typical = SpeedModel::builtin().typicalStack();
        int apart = 0;
        for (const TransferPair &p : v.pairs) {
            if (!batchesApart(p, typical.batchChangeMinRatio))
                continue;
            ++apart;
            QVERIFY(p.range.p10 <= typical.batchChangeRangeTransfer.p10 + 1e-12);
            QVERIFY(p.range.p90 >= typical.batchChangeRangeTransfer.p90 - 1e-12);
        }
        QCOMPARE(v.batchChange.n, apart);
        QVERIFY(apart > 100 && apart < v.all.n);
        int fromHeadline = 0;
        for (const TransferPair &p : v.pairs) {
            QVERIFY(p.fromGpu != p.toGpu);
            QVERIFY(p.measured > 0 && p.projected > 0);
            QVERIFY(std::abs(p.logError - std::log(p.projected / p.measured)) < 1e-12);
            // the user's figure is the only measurement: the other GPUs are transferred from it
            QVERIFY(p.tier == ProjectionTier::Transferred || p.tier == ProjectionTier::TransferredCrossArch);
            fromHeadline += p.fromGpu == v.headlineGpu ? 1 : 0;
        }
        QCOMPARE(v.all.n, int(v.pairs.size()));
        QCOMPARE(v.fromHeadline.n, fromHeadline);
        int perWorkload = 0, perClass = 0;
        for (const TransferSummary &s : v.byWorkload)
            perWorkload += s.n;
        for (const TransferSummary &s : v.byClass)
            perClass += s.n;
        QCOMPARE(perWorkload, fromHeadline);
        QCOMPARE(perClass, fromHeadline);
        QStringList classes;
        for (const TransferSummary &s : v.byClass)
            classes.append(s.label);
        classes.sort();
        QCOMPARE(classes, (QStringList{QStringLiteral("convolutional"), QStringLiteral("detection"),
                                       QStringLiteral("recurrent-speech"), QStringLiteral("transformer")}));
        QVERIFY(v.all.median <= v.all.max);
        QVERIFY(v.all.coverage > 0 && v.all.coverage <= 1);
    }

    // The same figures carried with the class left out (PROJECTION.md section 3.16) are what the fitter
    // scores as the unknown class in sample: the app's path (no class factor, the unknown class's bytes per
    // FLOP and range), every pair and those from the headline GPU.
    void theClassNotGivenEqualsTheFitter()
    {
        const QJsonObject tool =
            toolSplit(QStringLiteral("in sample (all data)"), QStringLiteral("after_unknown_class"));
        const TransferValidation v =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), TransferData::builtin());
        QCOMPARE(v.allClassNotGiven.n, v.all.n);
        QCOMPARE(v.fromHeadlineClassNotGiven.n, v.fromHeadline.n);
        QVERIFY(same(v.allClassNotGiven, tool.value(QStringLiteral("pairs")).toObject(), 6e-4));
        QVERIFY(same(v.fromHeadlineClassNotGiven,
                     tool.value(QStringLiteral("pairs_from_headline")).toObject(), 6e-4));
        // The class matters: without it the figures differ from the class-given ones.
        QVERIFY(v.fromHeadlineClassNotGiven.median != v.fromHeadline.median);
    }

    // The one-layer transformer figures (PROJECTION.md section 3.11) carry their own source, and each pair
    // the source of its workload's figures: their own leave-one-source-out fold.
    void pairsCarryTheirSource()
    {
        const TransferData &data = TransferData::builtin();
        QHash<QString, QString> sourceOf;
        for (const TransferRow &r : data.rows)
            sourceOf.insert(r.workload, r.sourceId);
        QCOMPARE(sourceOf.value(QStringLiteral("bert-large-layer-fwd-bwd")), QStringLiteral("MLI-TFMR-2024"));
        QCOMPARE(sourceOf.value(QStringLiteral("ssd300-coco")), QStringLiteral("LAMBDA-PYT-V0"));
        QCOMPARE(sourceOf.value(QStringLiteral("vgg16-tf-cnn")), QStringLiteral("LAMBDA-TF-2021"));
        const TransferValidation v =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), data);
        int mli = 0, tf = 0;
        for (const TransferPair &p : v.pairs) {
            QCOMPARE(p.sourceId, sourceOf.value(p.workload));
            mli += p.sourceId == u"MLI-TFMR-2024" ? 1 : 0;
            tf += p.sourceId == u"LAMBDA-TF-2021" ? 1 : 0;
        }
        QCOMPARE(mli, 4 * 5 * 4); // 4 layers x 5 GPUs as the user's x 4 others
        QCOMPARE(tf, 6 * 7 * 6);  // 6 CNNs x 7 GPUs as the user's x 6 others
        // Per source: every pair of the source, every GPU as the user's.
        QCOMPARE(v.bySource.size(), 3);
        QCOMPARE(v.bySource.at(1).label, QStringLiteral("LAMBDA-TF-2021"));
        QCOMPARE(v.bySource.at(1).n, tf);
        QCOMPARE(v.bySource.at(0).n + v.bySource.at(1).n + v.bySource.at(2).n, v.all.n);
        // Without FLOPs per sample (section 3.18): as many pairs, other figures.
        QCOMPARE(v.allWithoutFlops.n, v.all.n);
        QCOMPARE(v.bySourceWithoutFlops.size(), 3);
        QCOMPARE(v.bySourceWithoutFlops.at(1).n, tf);
        QVERIFY(v.allWithoutFlops.median != v.all.median);
    }

    // Rule V (section 3.24): the eager-PyTorch CNN timings (RYU-PT-2025) are scored apart: their pairs are
    // in no pooled figure and no fold, and get their own summaries (all, heavy, light, each GPU pair).
    void scoredApartSourceStaysApart()
    {
        const TransferData &data = TransferData::builtin();
        int rows = 0;
        for (const TransferRow &r : data.rows)
            if (transferSourceScoredApart(r.sourceId)) {
                ++rows;
                QVERIFY2(r.workload.endsWith(u"-pt-eager"), qPrintable(r.workload));
                QCOMPARE(r.batchPerGpu, 12);
            }
        // 32 torchvision CNNs on the A100 40GB SXM4 and the RTX 3090, 31 on the RTX 4060 Ti 16GB
        QCOMPARE(rows, 95);
        QCOMPARE(data.scoredApart(true).rows.size(), rows);
        QCOMPARE(data.scoredApart(true).workloads.size(), 32);
        QCOMPARE(data.scoredApart(false).rows.size() + rows, data.rows.size());
        QVERIFY(!transferSourceScoredApart(QStringLiteral("LAMBDA-TF-2021")));

        const TransferValidation v =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), data);
        for (const TransferPair &p : v.pairs)
            QVERIFY(!transferSourceScoredApart(p.sourceId));
        for (const TransferSummary &s : v.bySource)
            QVERIFY(!transferSourceScoredApart(s.label));
        QCOMPARE(v.apartPairs.size(), 188); // 31 models x 3 GPUs x 2 others + MobileNet V2 on two GPUs x 1
        for (const TransferPair &p : v.apartPairs)
            QCOMPARE(p.sourceId, QStringLiteral("RYU-PT-2025"));
        QCOMPARE(v.apart.size(), 3 + 6);
        QCOMPARE(v.apart.at(0).label, QStringLiteral("all"));
        QCOMPARE(v.apart.at(0).n, 188);
        QCOMPARE(v.apart.at(1).n + v.apart.at(2).n, 188);
        QVERIFY(v.apart.at(1).label.startsWith(u"heavy"));
        QCOMPARE(v.apart.at(3).label, QStringLiteral("a100-40gb-sxm4 -> rtx3090"));
        int byGpuPair = 0;
        for (qsizetype i = 3; i < v.apart.size(); ++i)
            byGpuPair += v.apart.at(i).n;
        QCOMPARE(byGpuPair, 188);
        // The same validation without them has the same pooled figures.
        const TransferValidation pooled =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), data.scoredApart(false));
        QCOMPARE(pooled.all.n, v.all.n);
        QCOMPARE(pooled.all.median, v.all.median);
        QVERIFY(pooled.apart.isEmpty());
        // No fold holds them.
        const FoldValidation folds = validateLeaveOneArchitectureOut(
            SpeedModel::builtin(), GpuSpecTable::builtin(), data, builtinTypicalStackRows());
        const FoldValidation foldsPooled =
            validateLeaveOneArchitectureOut(SpeedModel::builtin(), GpuSpecTable::builtin(),
                                            data.scoredApart(false), builtinTypicalStackRows());
        QCOMPARE(folds.pairs.n, foldsPooled.pairs.n);
    }

    // gpufrontier-cli validate's leave one source out over the pairs and rows, computed by the app with the
    // shipped folds, equals fit_typical_stack.py's own figures; a fold's change moves only its own pairs.
    void leaveOneSourceOutEqualsTheFitter()
    {
        const QJsonObject tool = toolSplit(QStringLiteral("leave one source out"), QStringLiteral("after"));
        const FoldValidation v =
            validateLeaveOneSourceOut(SpeedModel::builtin(), GpuSpecTable::builtin(), TransferData::builtin(),
                                      builtinTypicalStackRows());
        QStringList held;
        for (const HeldOutFold &f : v.folds)
            held.append(f.heldOut);
        QCOMPARE(held, (QStringList{QStringLiteral("GF-MEASURE-2611"), QStringLiteral("LAMBDA-PYT-V0"),
                                    QStringLiteral("LAMBDA-TF-2021"), QStringLiteral("MLI-TFMR-2024")}));
        QVERIFY(same(v.pairs, tool.value(QStringLiteral("pairs")).toObject(), 6e-5));
        QVERIFY(same(v.fromHeadline, tool.value(QStringLiteral("pairs_from_headline")).toObject(), 6e-5));
        QVERIFY(same(v.rows, tool.value(QStringLiteral("rows")).toObject(), 6e-5));
        // Rule Z: the rows relative to their reference GPU, as the fitter computes them (no coverage).
        const QJsonObject relative = tool.value(QStringLiteral("rows_relative")).toObject();
        QCOMPARE(v.rowsRelative.n, relative.value(QStringLiteral("n")).toInt());
        QVERIFY(std::abs(v.rowsRelative.median - relative.value(QStringLiteral("median")).toDouble()) < 6e-5);
        QVERIFY(std::abs(v.rowsRelative.max - relative.value(QStringLiteral("max")).toDouble()) < 6e-5);
        // Lambda's 34 rows less its two A100 80GB rows; our three H200 rows against the H100 (the H200's
        // BERT-large row is not in use, the 7B LoRA and BERT-large have no H200 row to score).
        QCOMPARE(v.folds.at(1).rowsRelative.n, 32);
        QCOMPARE(v.folds.at(0).rowsRelative.n, 3);
        QVERIFY(v.rowsRelative.median < v.rows.median); // the era's level cancels out
        QCOMPARE(v.folds.at(2).pairs.n, 6 * 7 * 6);
        QCOMPARE(v.folds.at(2).rows.n, 0);
        QCOMPARE(v.folds.at(3).pairs.n, 80);
        QCOMPARE(v.folds.at(3).rows.n, 0);
        TypicalStack changed = TypicalStack::builtin();
        for (TypicalStackFold &f : changed.sourceFolds)
            if (f.heldOut == u"MLI-TFMR-2024") {
                f.fit.overheadTflopsCustom *= 2;
                for (auto it = f.fit.classLogFactors.begin(); it != f.fit.classLogFactors.end(); ++it)
                    *it += 0.2;
            }
        const FoldValidation moved = validateLeaveOneSourceOut(
            SpeedModel::builtin().withTypicalStack(changed), GpuSpecTable::builtin(), TransferData::builtin(),
            builtinTypicalStackRows());
        QVERIFY(moved.folds.at(3).pairs.median != v.folds.at(3).pairs.median);
        QCOMPARE(moved.folds.at(2).pairs.median, v.folds.at(2).pairs.median);
        QCOMPARE(moved.folds.at(1).pairs.median, v.folds.at(1).pairs.median);
        QCOMPARE(moved.folds.at(0).rows.median, v.folds.at(0).rows.median);
    }

    // Rule Z's reference row: the headline GPU's row of the same source and preset, else the row on the
    // source's GPU with the most rows (ties: the smaller id); none for a reference row, a row of a preset
    // the reference GPU lacks, or a row not in use.
    void referenceRowsFollowRuleZ()
    {
        const auto row = [](const char *source, const char *preset, const char *gpu, bool use = true) {
            TypicalStackRow r;
            r.sourceId = QString::fromLatin1(source);
            r.presetId = QString::fromLatin1(preset);
            r.gpuId = QString::fromLatin1(gpu);
            r.batchPerGpu = 32;
            r.samplesPerS = 100;
            r.use = use;
            return r;
        };
        const QList<TypicalStackRow> rows{
            row("S1", "resnet50", "rtx3090"),         // 0 -> 1
            row("S1", "resnet50", "a100-80gb-sxm4"),  // 1 reference
            row("S1", "bert-large-squad", "rtx3090"), // 2: S1 has no A100 BERT row: rtx3090 has the most rows
            row("S1", "bert-large-squad", "v100-32gb-sxm2"), // 3 -> 2
            row("S2", "resnet50", "h200-141gb-sxm"),         // 4 -> 5 (a tie of one row each: the smaller id)
            row("S2", "resnet50", "h100-80gb-sxm"),          // 5 reference
            row("S2", "vit-b16", "l40s"),                    // 6: the reference GPU has no ViT row
            row("S3", "resnet50", "a100-80gb-sxm4", false),  // 7 not in use
            row("S3", "resnet50", "rtx3090"),       // 8: its source's A100 row is not in use; it is alone
            row("S1", "no-such-preset", "rtx3090"), // 9 not a preset
            row("S4", "resnet50", "gaudi-hl205"),   // 10: a GPU the model cannot project at fp16
            row("S4", "bert-large-squad", "gaudi-hl205"), // 11
            row("S4", "resnet50", "rtx3090"),        // 12 -> 10 without the projection check, -> 13 with it
            row("S4", "resnet50", "l4"),             // 13
            row("S5", "resnet50", "a100-80gb-sxm4"), // 14 reference
            row("S5", "resnet50", "a100-80gb-sxm4"), // 15: a second row of the reference GPU -> 14
            row("S5", "resnet50", "rtx3090"),        // 16 -> 14
        };
        const QList<int> ref = typicalStackReferenceRows(rows, GpuSpecTable::builtin());
        QCOMPARE(ref, (QList<int>{1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, 10, 10, -1, 14, 14}));
        // As validate and the fitter pick: only rows the model projects take part (the Gaudi has no rate).
        const SpeedModel &model = SpeedModel::builtin();
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        const QList<int> projected = typicalStackReferenceRows(
            rows, specs, QStringLiteral("a100-80gb-sxm4"), [&](const TypicalStackRow &r) {
                const Workload w = withBatch(*findWorkload(builtinWorkloads(), r.presetId), r.batchPerGpu);
                return model
                    .project(*specs.spec(r.gpuId), w, model.anchorsFor(w, {}, specs), defaultCalibration())
                    .ok;
            });
        QCOMPARE(projected, (QList<int>{1, -1, -1, 2, 5, -1, -1, -1, -1, -1, -1, -1, 13, -1, -1, 14, 14}));
    }

    // A GPU's figure that is exactly what the app projects from the user's figure scores 0, inside the range;
    // twice as fast scores -ln 2.
    void exactTransferScoresZero()
    {
        const SpeedModel &model = SpeedModel::builtin();
        auto first =
            TransferData::parse(workloads(), QStringLiteral("source_id,workload,gpu_id,batch_per_gpu,"
                                                            "samples_per_s\n"
                                                            "s,w1,a100-80gb-sxm4,256,2000\n"
                                                            "s,w1,rtx3090,,1\n"));
        QVERIFY2(first, first ? "" : qPrintable(first.error().text()));
        TransferValidation v = validateUserTransfer(model, GpuSpecTable::builtin(), first.value());
        double projected = 0;
        for (const TransferPair &p : v.pairs)
            if (p.fromGpu == u"a100-80gb-sxm4")
                projected = p.projected;
        QVERIFY(projected > 0);
        TransferData data = first.value();
        data.rows[1].samplesPerS = projected;
        v = validateUserTransfer(model, GpuSpecTable::builtin(), data);
        QCOMPARE(v.pairs.size(), 2);
        for (const TransferPair &p : v.pairs) {
            QVERIFY(std::abs(p.logError) < 1e-9);
            QVERIFY(p.inside);
        }
        data.rows[1].samplesPerS = 2 * projected;
        v = validateUserTransfer(model, GpuSpecTable::builtin(), data);
        QVERIFY(std::abs(v.fromHeadline.median - std::log(2.0)) < 1e-9);
        QCOMPARE(v.byWorkload.at(1).n, 0); // w2 has no rows
    }

    // Protocol AB (section 3.29): MLPerf's other workloads carried in the tuned stack. Each pair is the tuned
    // projection of the group's other GPU from the figure; the lines are the pairs' summaries.
    void mlperfPairsAreTheTunedProjection()
    {
        const SpeedModel &model = SpeedModel::builtin();
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        const QString wl = QStringLiteral("workload,class,unit,flops_per_sample\n"
                                          "mlperf-unet3d-kits19@v3.0:1x8,convolutional,samples,2.7e12\n"
                                          "mlperf-retinanet-openimages@v4.1:1x8,detection,samples,6.6e11\n");
        const QString rows =
            QStringLiteral("source_id,workload,gpu_id,batch_per_gpu,samples_per_s\n"
                           "MLPERF-TRAIN-v3.0,mlperf-unet3d-kits19@v3.0:1x8,a100-80gb-sxm4,,38.53\n"
                           "MLPERF-TRAIN-v3.0,mlperf-unet3d-kits19@v3.0:1x8,h100-80gb-sxm,,70.33\n"
                           "MLPERF-TRAIN-v4.1,mlperf-retinanet-openimages@v4.1:1x8,h100-80gb-sxm,,284.6\n"
                           "MLPERF-TRAIN-v4.1,mlperf-retinanet-openimages@v4.1:1x8,b200,,470.7\n");
        auto data = TransferData::parse(wl, rows, QStringLiteral("mlperf_extra_workloads.csv"),
                                        QStringLiteral("mlperf_extra_rows.csv"));
        QVERIFY2(data, data ? "" : qPrintable(data.error().text()));
        const TunedTransferValidation v = validateTunedTransfer(model, specs, data.value());
        QCOMPARE(v.pairs.size(), 4); // each GPU to the other of its group only
        for (const TransferPair &p : v.pairs) {
            QCOMPARE(p.workload.section(u'@', 1).isEmpty(), false);
            // What the CLI projects: --stack tuned --flops-per-sample F --workload-class C --measured S
            // --measured-on FROM.
            WorkloadSpec spec;
            spec.name = p.workload;
            spec.overrides.samplesPerEpoch = 1e6;
            spec.overrides.flopsPerSample = p.workload.startsWith(u"mlperf-unet3d") ? 2.7e12 : 6.6e11;
            spec.overrides.precision = Precision::Fp16;
            spec.overrides.stack = SoftwareStack::Tuned;
            spec.overrides.workloadClass = workloadClassFromName(p.workloadClass);
            spec.overrides.referenceGpu = p.fromGpu;
            for (const TransferRow &r : data.value().rows)
                if (r.workload == p.workload && r.gpuId == p.fromGpu)
                    spec.overrides.measuredSamplesPerS = r.samplesPerS;
            auto built = buildWorkloadSpec(spec);
            QVERIFY(built);
            const SingleGpuSpeed s =
                model.project(*specs.spec(p.toGpu), built.value(), model.anchorsFor(built.value(), {}, specs),
                              defaultCalibration());
            QCOMPARE(p.projected, s.samplesPerS);
            QVERIFY2(s.basis.contains(u"rule AC"), qPrintable(s.basis));
        }
        QStringList labels;
        for (const TransferSummary &l : v.lines)
            labels.append(l.label);
        QCOMPARE(labels, (QStringList{u"all"_s, u"to hopper"_s, u"to ampere"_s, u"to blackwell"_s,
                                      u"from Ampere to a later NVIDIA architecture"_s,
                                      u"from Hopper to Blackwell"_s, u"from an NVIDIA GPU to an AMD one"_s,
                                      u"mlperf-unet3d-kits19"_s, u"mlperf-retinanet-openimages"_s}));
        QCOMPARE(v.lines.at(6).n, 0); // no AMD GPU here
        QCOMPARE(v.lines.at(0).n, 4);
        QCOMPARE(v.lines.at(4).n, 1); // a100 -> h100 only
        QCOMPARE(v.lines.at(5).n, 1); // h100 -> b200 only
        // The shipped groups load, and validate scores them all.
        const TransferData &shipped = TransferData::mlperfExtra();
        QCOMPARE(shipped.workloads.size(), 53);
        QCOMPARE(shipped.rows.size(), 160);
        auto broken = TransferData::parse(
            wl, rows + QStringLiteral("MLPERF-TRAIN-v4.1,nope@v4.1:1x8,b200,,1\n"),
            QStringLiteral("mlperf_extra_workloads.csv"), QStringLiteral("mlperf_extra_rows.csv"));
        QVERIFY(!broken);
        QVERIFY2(broken.error().text().contains(u"mlperf_extra_rows.csv, record 5"),
                 qPrintable(broken.error().text()));
    }

    void brokenFilesAreNamed()
    {
        const QString header = QStringLiteral("source_id,workload,gpu_id,batch_per_gpu,samples_per_s\n");
        auto r = TransferData::parse(workloads(), header + QStringLiteral("s,w9,a40,8,10\n"));
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"record 1") && r.error().text().contains(u"\"w9\""),
                 qPrintable(r.error().text()));
        r = TransferData::parse(workloads(), header + QStringLiteral("s,w1,a40,8,10\ns,w1,a40,eight,10\n"));
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"record 2") && r.error().text().contains(u"batch_per_gpu"),
                 qPrintable(r.error().text()));
        r = TransferData::parse(workloads(), header + QStringLiteral("s,w1,a40,8,-3\n"));
        QVERIFY(!r);
        QVERIFY(r.error().text().contains(u"samples_per_s"));
        r = TransferData::parse(workloads(), QStringLiteral("source_id,workload,gpu_id,samples_per_s\n"));
        QVERIFY(!r);
        QVERIFY(r.error().text().contains(u"batch_per_gpu is missing"));
        r = TransferData::parse(QStringLiteral("workload,class,unit,flops_per_sample\nw1,conv,images,zero\n"),
                                header);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"transfer_workloads.csv, record 1") &&
                     r.error().text().contains(u"flops_per_sample"),
                 qPrintable(r.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestTransferValidation)
#include "test_transfervalidation.moc"

// The workload panel's run options: gradient checkpointing, data to stage, include suspect prices, and a
// spot interruption rate and an egress price per provider, all remembered.
#include "domain/workloadbuilder.h"
#include "projection/speedmodel.h"
#include "workloadpanel.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTest>

using namespace gf;

class TestWorkloadPanel final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("GPU Frontier Tests"));
        QApplication::setApplicationName(QStringLiteral("gpufrontier-workloadpanel-test"));
        QSettings().clear();
    }

    void checkpointingFollowsThePreset()
    {
        WorkloadPanel p;
        auto *ckpt = p.findChild<QCheckBox *>(QStringLiteral("checkpointing"));
        QVERIFY(ckpt);
        p.selectPreset(QStringLiteral("resnet50"));
        QVERIFY(!ckpt->isEnabled()); // no checkpointing figures for ResNet-50
        QCOMPARE(p.workload().value().datasetGb, 154.6);
        p.selectPreset(QStringLiteral("llm7b-lora"));
        QVERIFY(ckpt->isEnabled() && ckpt->isChecked()); // the recipe's setting
        const Workload with = p.workload().value();
        QVERIFY(with.memoryGb < 22.35);
        p.setGradientCheckpointing(false);
        const Workload without = p.workload().value();
        QVERIFY(!without.gradientCheckpointing);
        QVERIFY(without.memoryGb > 24);
        QVERIFY(without.flopsPerSample < with.flopsPerSample);
    }

    // The one workload rule (domain/workloadbuilder, as the CLI's --precision): the precision box alone keeps
    // the preset, so its measured benchmarks still apply.
    void precisionKeepsThePreset()
    {
        WorkloadPanel p;
        auto *precision = p.findChild<QComboBox *>(QStringLiteral("precision"));
        QVERIFY(precision);
        p.selectPreset(QStringLiteral("bert-large-squad"));
        const Workload preset = p.workload().value();
        precision->setFocus();
        precision->setCurrentIndex(precision->findData(QStringLiteral("fp32")));
        const auto w = p.workload();
        QVERIFY(w);
        QCOMPARE(w.value().kind, WorkloadKind::Preset);
        QCOMPARE(w.value().precision, Precision::Fp32);
        QCOMPARE(w.value().id, QStringLiteral("bert-large-squad"));
        QCOMPARE(w.value().flopsPerSample, preset.flopsPerSample);
    }

    // The software stack (PROJECTION.md section 3.6): typical by default, chosen with the keyboard like a
    // user would, carried by preset and custom workloads alike, and remembered.
    void stackIsChosenAndRemembered()
    {
        QSettings().remove(QStringLiteral("workload"));
        {
            WorkloadPanel p;
            auto *stack = p.findChild<QComboBox *>(QStringLiteral("stack"));
            QVERIFY(stack);
            QVERIFY(!stack->toolTip().isEmpty());
            p.selectPreset(QStringLiteral("resnet50"));
            QCOMPARE(p.workload().value().stack, SoftwareStack::Typical);
            stack->setFocus();
            QTest::keyClick(stack, Qt::Key_Down);
            QCOMPARE(stack->currentData().toString(), QStringLiteral("tuned"));
            QCOMPARE(p.workload().value().stack, SoftwareStack::Tuned);
            QCOMPARE(p.workload().value().kind, WorkloadKind::Preset);
            p.selectPreset(QStringLiteral("__custom__")); // the "Custom workload…" entry
            QCOMPARE(p.workload().value().stack, SoftwareStack::Tuned);
            p.selectPreset(QStringLiteral("resnet50"));
            p.saveState();
        }
        WorkloadPanel again;
        again.restoreState();
        QCOMPARE(again.workload().value().stack, SoftwareStack::Tuned);
        QSettings().remove(QStringLiteral("workload"));
    }

    // The workload class of a custom workload (PROJECTION.md section 3.8): the "Network type" box, unknown by
    // default, chosen with the keyboard, reaching the typical stack's projection, read from a scenario and
    // remembered.
    void customClassIsChosenAndReachesTheProjection()
    {
        QSettings().remove(QStringLiteral("workload"));
        {
            WorkloadPanel p;
            auto *cls = p.findChild<QComboBox *>(QStringLiteral("customClass"));
            QVERIFY(cls);
            QVERIFY(cls->toolTip().contains(QStringLiteral("Unknown uses no class factor")));
            QVERIFY(cls->toolTip().contains(QStringLiteral("carries a speed you measured to other GPUs")));
            QVERIFY(cls->toolTip().contains(QStringLiteral("shape of ResNet-50 or BERT-large")));
            p.selectPreset(QStringLiteral("__custom__"));
            auto *kind = p.findChild<QComboBox *>(QStringLiteral("customKind"));
            kind->setCurrentIndex(1); // FLOPs per sample
            QCOMPARE(p.workload().value().workloadClass, WorkloadClass::Unknown);
            const GpuSpec *gpu = GpuSpecTable::builtin().spec(QStringLiteral("quadro-rtx-6000"));
            QVERIFY(gpu);
            auto project = [&] {
                const Workload w = p.workload().value();
                const SpeedModel &m = SpeedModel::builtin();
                return m.project(*gpu, w, m.anchorsFor(w, {}, GpuSpecTable::builtin()), defaultCalibration());
            };
            const SingleGpuSpeed unknown = project();
            QVERIFY(unknown.basis.contains(QStringLiteral("workload class unknown")));
            cls->setFocus();
            QTest::keyClick(cls, Qt::Key_Down);
            QTest::keyClick(cls, Qt::Key_Down);
            QCOMPARE(cls->currentData().toString(), QStringLiteral("transformer"));
            QCOMPARE(p.spec().overrides.workloadClass, WorkloadClass::Transformer);
            QCOMPARE(p.workload().value().workloadClass, WorkloadClass::Transformer);
            const SingleGpuSpeed transformer = project();
            QVERIFY2(transformer.basis.contains(QStringLiteral("class factor x")),
                     qPrintable(transformer.basis));
            QVERIFY(transformer.samplesPerS != unknown.samplesPerS);
            // A scenario sets the box.
            WorkloadSpec spec = p.spec();
            spec.overrides.workloadClass = WorkloadClass::Detection;
            p.setScenario(spec, p.options());
            QCOMPARE(cls->currentData().toString(), QStringLiteral("detection"));
            p.saveState();
        }
        WorkloadPanel again;
        again.restoreState();
        QCOMPARE(again.workload().value().workloadClass, WorkloadClass::Detection);
        QSettings().remove(QStringLiteral("workload"));
    }

    // Section 3.22: the measured speed's GPU busy share: typed with the keyboard, off for a FLOPs workload,
    // reaching the workload, read from a scenario and remembered.
    void measuredBusyShare()
    {
        QSettings().remove(QStringLiteral("workload"));
        {
            WorkloadPanel p;
            p.selectPreset(QStringLiteral("__custom__"));
            auto *kind = p.findChild<QComboBox *>(QStringLiteral("customKind"));
            auto *busy = p.findChild<QDoubleSpinBox *>(QStringLiteral("customBusy"));
            QVERIFY(kind && busy);
            QVERIFY(busy->toolTip().contains(QStringLiteral("floor")));
            kind->setCurrentIndex(0); // measured
            QVERIFY(busy->isEnabled());
            QCOMPARE(busy->text(), QStringLiteral("not given"));
            QVERIFY(!p.spec().overrides.measuredGpuBusy);
            QCOMPARE(p.workload().value().measuredGpuBusy, 0.0);
            busy->setFocus();
            busy->selectAll();
            QTest::keyClicks(busy, QStringLiteral("38"));
            QTest::keyClick(busy, Qt::Key_Enter);
            QCOMPARE(busy->value(), 38.0);
            QCOMPARE(p.spec().overrides.measuredGpuBusy, std::optional<double>(0.38));
            QCOMPARE(p.workload().value().measuredGpuBusy, 0.38);
            // Rule S4 (section 3.27): a typed share is nvidia-smi's; 80-91 % may still be host-bound, and
            // the note says so where it is typed; 92 % and 38 % do not get that note.
            auto *noteLabel = p.findChild<QLabel *>(QStringLiteral("workloadNotes"));
            QVERIFY(noteLabel);
            QVERIFY(busy->toolTip().contains(QStringLiteral("nvidia-smi reads high")));
            QVERIFY2(!noteLabel->text().contains(QStringLiteral("may still be host-bound")),
                     qPrintable(noteLabel->text()));
            busy->selectAll();
            QTest::keyClicks(busy, QStringLiteral("88"));
            QTest::keyClick(busy, Qt::Key_Enter);
            QVERIFY2(noteLabel->text().contains(QStringLiteral("GPU busy 88 %")) &&
                         noteLabel->text().contains(QStringLiteral("may still be host-bound")),
                     qPrintable(noteLabel->text()));
            busy->selectAll();
            QTest::keyClicks(busy, QStringLiteral("91.5"));
            QTest::keyClick(busy, Qt::Key_Enter);
            QVERIFY2(noteLabel->text().contains(QStringLiteral("GPU busy 91.5 %")),
                     qPrintable(noteLabel->text()));
            busy->selectAll();
            QTest::keyClicks(busy, QStringLiteral("92"));
            QTest::keyClick(busy, Qt::Key_Enter);
            QVERIFY2(!noteLabel->text().contains(QStringLiteral("may still be host-bound")),
                     qPrintable(noteLabel->text()));
            busy->selectAll();
            QTest::keyClicks(busy, QStringLiteral("38"));
            QTest::keyClick(busy, Qt::Key_Enter);
            kind->setCurrentIndex(1); // FLOPs per sample
            QVERIFY(!busy->isEnabled());
            QVERIFY(!p.spec().overrides.measuredGpuBusy);
            kind->setCurrentIndex(0);
            WorkloadSpec spec = p.spec();
            spec.overrides.measuredGpuBusy = 0.55;
            p.setScenario(spec, p.options());
            QCOMPARE(busy->value(), 55.0);
            // A share from a scenario keeps its side of the 80 % line (the box rounded it to whole percent:
            // 0.7999 opened as 80, GPU-bound, where the CLI reads it host-bound).
            spec.overrides.measuredGpuBusy = 0.7999;
            p.setScenario(spec, p.options());
            QCOMPARE(p.workload().value().measuredGpuBusy, 0.7999);
            spec.overrides.measuredGpuBusy = 0.55;
            p.setScenario(spec, p.options());
            p.saveState();
        }
        WorkloadPanel again;
        again.restoreState();
        QCOMPARE(again.workload().value().measuredGpuBusy, 0.55);
        // A preset scenario with a measured speed keeps its busy share (no box: the "also from the scenario"
        // settings), and says so.
        WorkloadSpec preset;
        preset.preset = QStringLiteral("bert-large-squad");
        preset.overrides.measuredSamplesPerS = 120;
        preset.overrides.referenceGpu = QStringLiteral("h200-141gb-sxm");
        preset.overrides.measuredGpuBusy = 0.4;
        again.setScenario(preset, again.options());
        QCOMPARE(again.spec().overrides.measuredGpuBusy, std::optional<double>(0.4));
        QCOMPARE(again.workload().value().measuredGpuBusy, 0.4);
        bool said = false;
        for (QLabel *l : again.findChildren<QLabel *>())
            said = said || l->text().contains(QStringLiteral("GPU busy 40.0 %"));
        QVERIFY(said);
        QSettings().remove(QStringLiteral("workload"));
    }

    // A scenario the CLI saved (--measured with --flops-per-sample, no epochs or data set given) opens as
    // the same workload: the FLOPs go into the measured speed's optional box, a custom workload without
    // epochs takes 1 and stages nothing, as buildWorkloadSpec does, whatever the panel showed before.
    void cliScenarioOpensAsTheSameWorkload()
    {
        QSettings().remove(QStringLiteral("workload"));
        WorkloadPanel p;
        p.selectPreset(QStringLiteral("resnet50")); // 90 epochs and a data set to stage in the boxes
        WorkloadSpec cli;
        cli.name = QStringLiteral("ShuffleNet V2 (eager, batch 12)");
        cli.overrides.samplesPerEpoch = 1200000;
        cli.overrides.flopsPerSample = 0.84e9;
        cli.overrides.measuredSamplesPerS = 396;
        cli.overrides.referenceGpu = QStringLiteral("rtx3090");
        cli.overrides.workloadClass = WorkloadClass::Convolutional;
        cli.overrides.batchPerGpu = 12;
        cli.overrides.precision = Precision::Fp16;
        const QStringList notes = p.setScenario(cli, p.options());
        QVERIFY2(notes.isEmpty(), qPrintable(notes.join(u'\n')));
        const auto want = buildWorkloadSpec(cli);
        const auto got = p.workload();
        QVERIFY(want && got);
        QCOMPARE(got.value().kind, WorkloadKind::CustomMeasured);
        QCOMPARE(got.value().flopsPerSample, want.value().flopsPerSample);
        QCOMPARE(got.value().measuredSamplesPerS, 396.0);
        {
            // A figure with more than one decimal opens as the CLI reads it (it was rounded to 0.1/s).
            WorkloadSpec precise = cli;
            precise.overrides.measuredSamplesPerS = 315.835;
            WorkloadPanel q;
            QVERIFY(q.setScenario(precise, q.options()).isEmpty());
            QCOMPARE(q.workload().value().measuredSamplesPerS, 315.835);
        }
        QCOMPARE(got.value().epochs, want.value().epochs);
        QCOMPARE(got.value().epochs, 1.0);
        QCOMPARE(got.value().datasetGb, 0.0);
        QCOMPARE(got.value().batchPerGpu, 12);
        // The figure is 56x below what the model projects for the RTX 3090 at those FLOPs: said where it is
        // typed, with how it is read (rule W: host-bound, the GPU taken as busy 18 %) and what to do about
        // it; a busy share typed in replaces the assumed one; gone once it is plausible.
        auto *noteLabel = p.findChild<QLabel *>(QStringLiteral("workloadNotes"));
        QVERIFY(noteLabel);
        QVERIFY2(noteLabel->text().contains(QStringLiteral("Check your figure")) &&
                     noteLabel->text().contains(QStringLiteral("times below")) &&
                     noteLabel->text().contains(QStringLiteral("read as host-bound")) &&
                     noteLabel->text().contains(QStringLiteral("busy 18 %")) &&
                     noteLabel->text().contains(QStringLiteral("give GPU busy")),
                 qPrintable(noteLabel->text()));
        auto *busyBox = p.findChild<QDoubleSpinBox *>(QStringLiteral("customBusy"));
        QVERIFY(busyBox);
        busyBox->setFocus();
        busyBox->selectAll();
        QTest::keyClicks(busyBox, QStringLiteral("100"));
        QTest::keyClick(busyBox, Qt::Key_Enter);
        QVERIFY2(noteLabel->text().contains(QStringLiteral("Check your figure")) &&
                     !noteLabel->text().contains(QStringLiteral("read as host-bound")) &&
                     !noteLabel->text().contains(QStringLiteral("give GPU busy")),
                 qPrintable(noteLabel->text()));
        busyBox->selectAll();
        QTest::keyClicks(busyBox, QStringLiteral("0"));
        QTest::keyClick(busyBox, Qt::Key_Enter);
        QCOMPARE(busyBox->text(), QStringLiteral("not given"));
        QVERIFY(noteLabel->text().contains(QStringLiteral("read as host-bound")));
        // The FLOPs are in the measured speed's own optional box, shown; the other kind's box is hidden.
        auto *figureFlops = p.findChild<QDoubleSpinBox *>(QStringLiteral("customFigureFlops"));
        auto *kindFlops = p.findChild<QDoubleSpinBox *>(QStringLiteral("customFlops"));
        QVERIFY(figureFlops && kindFlops);
        QCOMPARE(figureFlops->value(), 0.84);
        QVERIFY(figureFlops->isVisibleTo(&p) && !kindFlops->isVisibleTo(&p));
        QVERIFY(figureFlops->toolTip().contains(QStringLiteral("Optional")));
        // Typed in by hand: "not given" drops them, a value gives them.
        figureFlops->setFocus();
        figureFlops->selectAll();
        QTest::keyClicks(figureFlops, QStringLiteral("0"));
        QTest::keyClick(figureFlops, Qt::Key_Enter);
        QCOMPARE(figureFlops->text(), QStringLiteral("not given"));
        QVERIFY(
            !noteLabel->text().contains(QStringLiteral("Check your figure"))); // nothing to check it against
        QVERIFY(!p.spec().overrides.flopsPerSample);
        QCOMPARE(p.workload().value().flopsPerSample, 0.0);
        figureFlops->selectAll();
        QTest::keyClicks(figureFlops, QStringLiteral("2.5"));
        QTest::keyClick(figureFlops, Qt::Key_Enter);
        QCOMPARE(p.spec().overrides.flopsPerSample, std::optional<double>(2.5e9));
        QVERIFY2(noteLabel->text().contains(QStringLiteral("Check your figure")),
                 qPrintable(noteLabel->text()));
        // The other kind keeps its own box and value, and has no measured speed to check.
        auto *kind = p.findChild<QComboBox *>(QStringLiteral("customKind"));
        QVERIFY(kind);
        kind->setCurrentIndex(1);
        QVERIFY2(!noteLabel->text().contains(QStringLiteral("Check your figure")),
                 qPrintable(noteLabel->text()));
        QVERIFY(!figureFlops->isVisibleTo(&p) && kindFlops->isVisibleTo(&p));
        QCOMPARE(p.spec().overrides.flopsPerSample, std::optional<double>(kindFlops->value() * 1e9));
        kind->setCurrentIndex(0);
        p.saveState();
        WorkloadPanel again;
        again.restoreState();
        QCOMPARE(again.spec().overrides.flopsPerSample, std::optional<double>(2.5e9));
        // A scenario whose speed was measured at another batch (--measured-batch, rule Y) fills the batch
        // boxes, and the workload the GUI builds is the CLI's; typed in, they reach the workload.
        WorkloadSpec other = cli;
        other.overrides.batchPerGpu = 48;
        other.overrides.measuredBatchPerGpu = 12;
        QVERIFY(again.setScenario(other, again.options()).isEmpty());
        QCOMPARE(again.spec().overrides.measuredBatchPerGpu, std::optional<int>(12));
        QCOMPARE(again.workload().value().measuredBatchPerGpu, 12);
        QCOMPARE(again.workload().value().batchPerGpu, 48);
        auto *batchBox = again.findChild<QSpinBox *>(QStringLiteral("batch"));
        auto *measuredBatch = again.findChild<QSpinBox *>(QStringLiteral("customMeasuredBatch"));
        QVERIFY(batchBox && measuredBatch);
        QCOMPARE(batchBox->value(), 48);
        QCOMPARE(measuredBatch->value(), 12);
        QVERIFY(measuredBatch->toolTip().contains(QStringLiteral("--measured-batch")));
        measuredBatch->setFocus();
        measuredBatch->selectAll();
        QTest::keyClicks(measuredBatch, QStringLiteral("16"));
        QTest::keyClick(measuredBatch, Qt::Key_Enter);
        QCOMPARE(again.workload().value().measuredBatchPerGpu, 16);
        measuredBatch->selectAll();
        QTest::keyClicks(measuredBatch, QStringLiteral("0"));
        QTest::keyClick(measuredBatch, Qt::Key_Enter);
        QCOMPARE(measuredBatch->text(), QStringLiteral("as training"));
        QVERIFY(!again.spec().overrides.measuredBatchPerGpu);
        batchBox->setFocus();
        batchBox->selectAll();
        QTest::keyClicks(batchBox, QStringLiteral("0"));
        QTest::keyClick(batchBox, Qt::Key_Enter);
        QCOMPARE(batchBox->text(), QStringLiteral("default"));
        QCOMPARE(again.workload().value().batchPerGpu, 32); // a custom workload's default
        QSettings().remove(QStringLiteral("workload"));
    }

    void optionsAndMemory()
    {
        {
            WorkloadPanel p;
            p.selectPreset(QStringLiteral("gpt2-124m"));
            QVERIFY(!p.options().includeSuspect);
            QVERIFY(p.options().interruptionRatePerHour.isEmpty());
            QVERIFY(p.options().egressUsdPerGb.isEmpty());
            p.setIncludeSuspect(true);
            p.setInterruptionRate(QStringLiteral("aws"), 0.1);
            p.setEgressUsdPerGb(QStringLiteral("gcp"), 0.12);
            p.setDatasetGb(42);
            const ProjectionOptions o = p.options();
            QVERIFY(o.includeSuspect);
            QCOMPARE(o.interruptionRatePerHour.value(QStringLiteral("aws")), 0.1);
            QVERIFY(!o.interruptionRatePerHour.contains(QStringLiteral("gcp"))); // "default"
            QCOMPARE(o.egressUsdPerGb.value(QStringLiteral("gcp")), 0.12);
            QCOMPARE(p.workload().value().datasetGb, 42.0);
            QVERIFY(validateProjectionOptions(o).ok());
            p.saveState();
        }
        WorkloadPanel again;
        again.restoreState();
        const ProjectionOptions o = again.options();
        QVERIFY(o.includeSuspect);
        QCOMPARE(o.interruptionRatePerHour.value(QStringLiteral("aws")), 0.1);
        QCOMPARE(o.egressUsdPerGb.value(QStringLiteral("gcp")), 0.12);
        QCOMPARE(again.workload().value().datasetGb, 42.0);
        // Back to the default rate.
        again.setInterruptionRate(QStringLiteral("aws"), -1);
        QVERIFY(!again.options().interruptionRatePerHour.contains(QStringLiteral("aws")));
        QSettings().clear();
    }

    void customWorkloadStagesData()
    {
        WorkloadPanel p;
        p.selectPreset(QStringLiteral("__custom__"));
        p.setDatasetGb(10);
        const auto w = p.workload();
        QVERIFY(w.ok());
        QCOMPARE(w.value().stagedGb(), 10.0);
        QVERIFY(!p.findChild<QCheckBox *>(QStringLiteral("checkpointing"))->isEnabled());
    }
};

QTEST_MAIN(TestWorkloadPanel)
#include "test_workloadpanel.moc"

#include "workloadpanel.h"
#include "uistyle.h"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/workloadbuilder.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "util/format.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSettings>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace gf {

namespace {
constexpr int kCustomIndexRole = Qt::UserRole + 1;
const QString kCustomId = QStringLiteral("__custom__");

/// A micro-batch per GPU box: 0 shows `standsFor` (the batch it means when none is given).
QSpinBox *batchBox(QWidget *parent, const char *name, const QString &standsFor, const QString &tip)
{
    auto *box = new QSpinBox(parent);
    box->setObjectName(QLatin1String(name));
    box->setRange(0, 1 << 24);
    box->setSpecialValueText(standsFor);
    box->setToolTip(tip);
    return box;
}
} // namespace

WorkloadPanel::WorkloadPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("workloadPanel"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(buildWorkloadBox());
    layout->addWidget(buildConstraintsBox());
    layout->addWidget(buildSpotBox());
    layout->addWidget(buildProviderBox());
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("workloadError"));
    m_error->setWordWrap(true);
    setErrorStyle(m_error);
    m_error->hide();
    layout->addWidget(m_error);
    layout->addStretch(1);

    connectChanges();
    presetChanged();
}

QGroupBox *WorkloadPanel::buildWorkloadBox()
{
    auto *workloadBox = new QGroupBox(tr("Workload"), this);
    auto *wf = new QFormLayout(workloadBox);
    m_preset = new QComboBox(workloadBox);
    m_preset->setObjectName(QStringLiteral("workloadPreset"));
    for (const Workload &w : builtinWorkloads())
        m_preset->addItem(w.name, w.id);
    m_preset->addItem(tr("Custom workload…"), kCustomId);
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(18);
    m_preset->setToolTip(tr("A preset with documented FLOPs, memory traffic and size, or your own workload"));
    wf->addRow(tr("&Model"), m_preset);

    wf->addRow(buildCustomWorkload(workloadBox));
    m_samples = new QDoubleSpinBox(workloadBox);
    m_samples->setObjectName(QStringLiteral("samples"));
    m_samples->setRange(1, 1e13);
    m_samples->setDecimals(0);
    m_samples->setGroupSeparatorShown(true);
    m_samples->setToolTip(tr("Samples per epoch (images, sequences …)"));
    wf->addRow(tr("Data set"), m_samples);
    m_epochs = new QDoubleSpinBox(workloadBox);
    m_epochs->setObjectName(QStringLiteral("epochs"));
    m_epochs->setRange(0.01, 1e5);
    m_epochs->setDecimals(2);
    wf->addRow(tr("&Epochs"), m_epochs);
    m_batch = batchBox(
        workloadBox, "batch", tr("default"),
        tr("Micro-batch per GPU you will train with. \"default\": the preset's (a custom workload: 32). A "
           "preset's memory per GPU and memory traffic per sample follow it (PROJECTION.md section 3.23); "
           "a host-bound measured speed caps it at batch / that speed's step (section 3.25)."));
    wf->addRow(tr("&Batch/GPU"), m_batch);
    m_precision = new QComboBox(workloadBox);
    m_precision->setObjectName(QStringLiteral("precision"));
    for (const QString &p : precisionNames())
        m_precision->addItem(p, p);
    m_precision->setToolTip(tr("Arithmetic precision of the training: selects the datasheet peak used"));
    wf->addRow(tr("&Precision"), m_precision);
    m_stack = new QComboBox(workloadBox);
    m_stack->setObjectName(QStringLiteral("stack"));
    m_stack->addItem(tr("Typical PyTorch script"), softwareStackName(SoftwareStack::Typical));
    m_stack->addItem(tr("Tuned (vendor-optimised) code"), softwareStackName(SoftwareStack::Tuned));
    m_stack->setToolTip(
        tr("Typical: your PyTorch script as most people run it (eager, a standard data loader); the "
           "speeds carry a per-sample framework overhead fitted on public runs of such code, which costs "
           "the newest GPUs most.\nTuned: vendor-optimised code (NVIDIA DeepLearningExamples with DALI, "
           "MLPerf, llm.c), where most published measurements come from. Your own measurements are "
           "always taken as your stack (PROJECTION.md section 3.6)."));
    wf->addRow(tr("&Software"), m_stack);
    m_checkpointing = new QCheckBox(tr("Gradient checkpointing"), workloadBox);
    m_checkpointing->setObjectName(QStringLiteral("checkpointing"));
    m_checkpointing->setToolTip(
        tr("Recompute activations in the backward pass: less memory per GPU (resources/GPUS.md \"Memory per "
           "GPU\"), one more forward pass of compute. Offered for presets with the figures."));
    wf->addRow(QString(), m_checkpointing);
    m_dataset = new QDoubleSpinBox(workloadBox);
    m_dataset->setObjectName(QStringLiteral("datasetGb"));
    m_dataset->setRange(0, 1e6);
    m_dataset->setDecimals(1);
    m_dataset->setSuffix(tr(" GB"));
    m_dataset->setSpecialValueText(tr("none"));
    m_dataset->setToolTip(
        tr("Data set size to stage on each instance before training (GB): setup = boot + this "
           "/ the instance's sustained network bandwidth"));
    wf->addRow(tr("Data to stage"), m_dataset);
    m_notes = new QLabel(workloadBox);
    m_notes->setWordWrap(true);
    m_notes->setObjectName(QStringLiteral("workloadNotes"));
    QFont small = m_notes->font();
    small.setPointSizeF(small.pointSizeF() * 0.9);
    m_notes->setFont(small);
    wf->addRow(m_notes);
    m_extraLabel = new QLabel(workloadBox);
    m_extraLabel->setObjectName(QStringLiteral("scenarioExtras"));
    m_extraLabel->setWordWrap(true);
    m_extraLabel->setFont(small);
    m_extraLabel->hide();
    wf->addRow(m_extraLabel);
    return workloadBox;
}

QWidget *WorkloadPanel::buildCustomWorkload(QWidget *box)
{
    m_customStack = new QStackedWidget(box);
    auto *none = new QWidget(m_customStack);
    auto *custom = new QWidget(m_customStack);
    auto *cf = new QFormLayout(custom);
    cf->setContentsMargins(0, 0, 0, 0);
    m_customForm = cf;
    m_customKind = new QComboBox(custom);
    m_customKind->setObjectName(QStringLiteral("customKind"));
    m_customKind->addItem(tr("Measured speed on a GPU"));
    m_customKind->addItem(tr("FLOPs per sample"));
    cf->addRow(tr("Speed from"), m_customKind);
    m_customMeasured = new QDoubleSpinBox(custom);
    m_customMeasured->setObjectName(QStringLiteral("customMeasured"));
    m_customMeasured->setRange(0, 1e9);
    // Three decimals: a scenario's figure (315.835/s) opens as the CLI reads it, not rounded to 315.8.
    m_customMeasured->setDecimals(3);
    m_customMeasured->setValue(1000);
    m_customMeasured->setSuffix(tr(" samples/s"));
    m_customMeasured->setToolTip(tr("Training throughput you measured on one GPU of the model below"));
    cf->addRow(tr("Measured"), m_customMeasured);
    m_customGpu = new QComboBox(custom);
    m_customGpu->setObjectName(QStringLiteral("customGpu"));
    for (const GpuModel &m : GpuCatalog::builtin().models())
        m_customGpu->addItem(m.name, m.id);
    m_customGpu->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_customGpu->setMinimumContentsLength(14);
    m_customGpu->setCurrentIndex(std::max(0, m_customGpu->findData(QStringLiteral("a100-40gb-sxm4"))));
    cf->addRow(tr("on GPU"), m_customGpu);
    m_customBusy = new QDoubleSpinBox(custom);
    m_customBusy->setObjectName(QStringLiteral("customBusy"));
    m_customBusy->setRange(0, 100);
    // Two decimals: a scenario's share (gf_measure.py writes four) opens on the same side of the 80 % and 92
    // % lines as the CLI reads it.
    m_customBusy->setDecimals(2);
    m_customBusy->setSuffix(tr(" %"));
    m_customBusy->setSpecialValueText(tr("not given"));
    m_customBusy->setToolTip(
        tr("How busy the GPU was while you measured: nvidia-smi's utilization.gpu, which a typed share is "
           "taken to be. Under %1 % the host (the CPU dispatching kernels, or the input pipeline) set your "
           "speed: on other NVIDIA GPUs only the GPU-busy part of the step scales and your step stays a "
           "floor "
           "(PROJECTION.md section 3.22). nvidia-smi reads high: %1 % to under %2 % may still be host-bound, "
           "so the ranges of faster NVIDIA GPUs reach that floor (section 3.27). A launch plan's "
           "measurement, "
           "imported on the Measurements page, carries the profiler's share instead. Leave it at \"not "
           "given\" if you do not know.")
            .arg(QString::number(kHostBoundBusy * 100, 'f', 0),
                 QString::number(kSmiGpuBoundBusy * 100, 'f', 0)));
    cf->addRow(tr("GPU busy"), m_customBusy);
    m_customMeasuredBatch = batchBox(
        custom, "customMeasuredBatch", tr("as training"),
        tr("The micro-batch per GPU you measured the speed at, if not the batch you will train with. A "
           "host-bound step (GPU busy under %1 %) is a floor at the batch it was measured at: measured at 12 "
           "and trained at 48, other GPUs are capped at 4x your speed (PROJECTION.md section 3.25; the "
           "command line's --measured-batch). Measured %2x or more from the batch you train with, every "
           "GPU's range widens to what such figures missed by when carried to other GPUs (rule AD, section "
           "3.30).")
            .arg(QString::number(kHostBoundBusy * 100, 'f', 0),
                 QString::number(TypicalStack::builtin().batchChangeMinRatio, 'g', 3)));
    cf->addRow(tr("at batch"), m_customMeasuredBatch);
    // Two FLOPs boxes, one per kind of custom workload (emitChanged shows one): a measured speed's is
    // optional.
    auto flopsBox = [custom](const char *name, double value, const QString &tip) {
        auto *spin = new QDoubleSpinBox(custom);
        spin->setObjectName(QLatin1String(name));
        spin->setRange(0, 1e6);
        spin->setDecimals(3);
        spin->setValue(value);
        spin->setSuffix(tr(" GFLOP"));
        spin->setToolTip(tip);
        return spin;
    };
    m_customFigureFlops = flopsBox(
        "customFigureFlops", 0,
        tr("Optional: forward + backward FLOPs per sample of what you measured, in GFLOP (a multiply-add "
           "counts as 2). With it your speed is carried to other GPUs more accurately (the typical "
           "stack's per-sample overhead, and a convolutional or transformer network's GPU-to-GPU shape; "
           "PROJECTION.md section 3.18), and a speed far below what the model expects for its GPU is "
           "pointed out, since the host may have set it (section 3.24). Leave it at \"not given\" if you "
           "do not know."));
    m_customFigureFlops->setSpecialValueText(tr("not given"));
    cf->addRow(tr("FLOPs/sample"), m_customFigureFlops);
    m_customFlops = flopsBox(
        "customFlops", 10, tr("Forward + backward FLOPs per sample, in GFLOP (a multiply-add counts as 2)"));
    cf->addRow(tr("FLOPs/sample"), m_customFlops);
    m_customClass = new QComboBox(custom);
    m_customClass->setObjectName(QStringLiteral("customClass"));
    m_customClass->addItem(tr("Unknown"), workloadClassName(WorkloadClass::Unknown));
    m_customClass->addItem(tr("Convolutional (CNN)"), workloadClassName(WorkloadClass::Convolutional));
    m_customClass->addItem(tr("Transformer"), workloadClassName(WorkloadClass::Transformer));
    m_customClass->addItem(tr("Recurrent / speech"), workloadClassName(WorkloadClass::RecurrentSpeech));
    m_customClass->addItem(tr("Detection"), workloadClassName(WorkloadClass::Detection));
    m_customClass->setToolTip(
        tr("What kind of network this is. In a typical PyTorch script each GPU architecture runs "
           "convolutional, transformer, recurrent/speech and detection networks at its own fitted "
           "efficiency (PROJECTION.md section 3.8), so the class changes the GPU-to-GPU ratios. "
           "Unknown uses no class factor and a wider likely range. In the tuned stack it only sets the "
           "memory traffic assumed when FLOPs are given without bytes (the class's presets' own; rule AC, "
           "PROJECTION.md section 3.29). "
           "A convolutional or transformer network given by its FLOPs alone also takes the GPU-to-GPU "
           "shape of ResNet-50 or BERT-large (PROJECTION.md section 3.18). "
           "Giving the class also carries a speed you measured to other GPUs more accurately "
           "(held-out checks: PROJECTION.md sections 3.16 and 3.18)."));
    cf->addRow(tr("&Network type"), m_customClass);
    m_customParams = new QDoubleSpinBox(custom);
    m_customParams->setRange(0, 1e6);
    m_customParams->setDecimals(1);
    m_customParams->setValue(100);
    m_customParams->setSuffix(tr(" M params"));
    m_customParams->setToolTip(
        tr("Trainable parameters, millions (sets the gradient exchange between GPUs)"));
    cf->addRow(tr("Parameters"), m_customParams);
    m_customMemory = new QDoubleSpinBox(custom);
    m_customMemory->setRange(0, 1024);
    m_customMemory->setDecimals(1);
    m_customMemory->setValue(16);
    m_customMemory->setSuffix(tr(" GB"));
    m_customMemory->setToolTip(tr("GPU memory the training needs per GPU; offers with less are flagged"));
    cf->addRow(tr("Memory/GPU"), m_customMemory);
    m_customStack->addWidget(none);
    m_customStack->addWidget(custom);
    m_customStack->setVisible(false);
    return m_customStack;
}

QGroupBox *WorkloadPanel::buildConstraintsBox()
{
    auto *limits = new QGroupBox(tr("Constraints"), this);
    auto *lf = new QFormLayout(limits);
    m_deadline = new QDoubleSpinBox(limits);
    m_deadline->setObjectName(QStringLiteral("deadline"));
    m_deadline->setRange(0, 1e5);
    m_deadline->setDecimals(1);
    m_deadline->setSuffix(tr(" h"));
    m_deadline->setSpecialValueText(tr("none"));
    m_deadline->setToolTip(tr("The run must finish within this many hours (0 = no deadline)"));
    lf->addRow(tr("&Deadline"), m_deadline);
    m_budget = new QDoubleSpinBox(limits);
    m_budget->setObjectName(QStringLiteral("budget"));
    m_budget->setRange(0, 1e8);
    m_budget->setDecimals(0);
    m_budget->setSuffix(tr(" USD"));
    m_budget->setSpecialValueText(tr("none"));
    m_budget->setToolTip(tr("The run may cost at most this much (0 = no budget)"));
    lf->addRow(tr("&Budget"), m_budget);
    m_weight = new QSlider(Qt::Horizontal, limits);
    m_weight->setObjectName(QStringLiteral("weight"));
    m_weight->setRange(0, 100);
    m_weight->setValue(50);
    m_weight->setToolTip(tr("Recommended offer: left = cheapest, right = fastest, among the frontier offers "
                            "within deadline and budget"));
    m_weightLabel = new QLabel(limits);
    lf->addRow(tr("Cost ↔ time"), m_weight);
    lf->addRow(QString(), m_weightLabel);
    m_includeSuspect = new QCheckBox(tr("Include suspect prices"), limits);
    m_includeSuspect->setObjectName(QStringLiteral("includeSuspect"));
    m_includeSuspect->setToolTip(
        tr("Offers whose price failed a sanity check (spot at the floor or not below on-demand, a GPU part "
           "below its spot price, far below the GPU's median price, a stale row) are always shown with ⚠. "
           "Tick to let them on the frontier and be recommended."));
    lf->addRow(QString(), m_includeSuspect);
    return limits;
}

QGroupBox *WorkloadPanel::buildSpotBox()
{
    auto *spotBox = new QGroupBox(tr("Spot and run assumptions"), this);
    auto *sf = new QFormLayout(spotBox);
    m_spot = new QComboBox(spotBox);
    m_spot->setObjectName(QStringLiteral("spotPolicy"));
    m_spot->addItem(tr("On-demand only"), int(SpotPolicy::OnDemandOnly));
    m_spot->addItem(tr("Spot allowed"), int(SpotPolicy::SpotAllowed));
    m_spot->addItem(tr("Spot only"), int(SpotPolicy::SpotOnly));
    m_spot->setCurrentIndex(1);
    m_spot->setToolTip(tr("Spot / preemptible / interruptible capacity is cheaper but can be reclaimed; "
                          "its expected interruption overhead is added to the run"));
    sf->addRow(tr("&Spot"), m_spot);
    m_checkpoint = new QSpinBox(spotBox);
    m_checkpoint->setObjectName(QStringLiteral("checkpoint"));
    m_checkpoint->setRange(1, 24 * 60);
    m_checkpoint->setValue(30);
    m_checkpoint->setSuffix(tr(" min"));
    m_checkpoint->setToolTip(tr("Checkpoint interval: an interruption loses half of it on average"));
    sf->addRow(tr("Checkpoint every"), m_checkpoint);
    m_setup = new QSpinBox(spotBox);
    m_setup->setObjectName(QStringLiteral("setup"));
    m_setup->setRange(0, 24 * 60);
    m_setup->setValue(10);
    m_setup->setSuffix(tr(" min"));
    m_setup->setToolTip(tr("Boot, image pull and data staging: billed once per run"));
    sf->addRow(tr("Setup time"), m_setup);
    m_nodes = new QSpinBox(spotBox);
    m_nodes->setObjectName(QStringLiteral("nodes"));
    m_nodes->setRange(1, 64);
    m_nodes->setValue(1);
    m_nodes->setSpecialValueText(tr("off"));
    m_nodes->setToolTip(tr("Also project jobs of N single-GPU instances over the network "
                           "(several cheap spot instances can beat one multi-GPU instance)"));
    sf->addRow(tr("Multi-instance"), m_nodes);
    return spotBox;
}

QGroupBox *WorkloadPanel::buildProviderBox()
{
    auto *providerBox = new QGroupBox(tr("Per provider"), this);
    auto *grid = new QGridLayout(providerBox);
    auto *rateHeader = new QLabel(tr("Interruptions/h"), providerBox);
    rateHeader->setToolTip(
        tr("Spot interruptions per instance-hour. \"default\" = the documented rate of the "
           "provider, capacity and GPU class (resources/SPOT.md): e.g. 0.06/h for 8-GPU "
           "flagship nodes, 0.015/h for standard GPUs, plus the AWS Spot Advisor bucket or "
           "1 - vast.ai host reliability"));
    auto *egressHeader = new QLabel(tr("Egress USD/GB"), providerBox);
    egressHeader->setToolTip(
        tr("Cost per GB to bring the data set to this provider's instances when it lives "
           "elsewhere (0 = it lives there, or free)"));
    grid->addWidget(rateHeader, 0, 1);
    grid->addWidget(egressHeader, 0, 2);
    int row = 1;
    for (const QString &p : knownProviders()) {
        grid->addWidget(new QLabel(providerDisplayName(p), providerBox), row, 0);
        auto *rate = new QDoubleSpinBox(providerBox);
        rate->setObjectName(QStringLiteral("interruptionRate_") + p);
        rate->setRange(-0.005, 10);
        rate->setDecimals(3);
        rate->setSingleStep(0.005);
        rate->setSpecialValueText(tr("default"));
        rate->setValue(-0.005);
        rate->setToolTip(rateHeader->toolTip());
        grid->addWidget(rate, row, 1);
        m_rates.insert(p, rate);
        auto *egress = new QDoubleSpinBox(providerBox);
        egress->setObjectName(QStringLiteral("egress_") + p);
        egress->setRange(0, 10);
        egress->setDecimals(3);
        egress->setSingleStep(0.01);
        egress->setToolTip(egressHeader->toolTip());
        grid->addWidget(egress, row, 2);
        m_egress.insert(p, egress);
        connect(rate, &QDoubleSpinBox::valueChanged, this, &WorkloadPanel::emitChanged);
        connect(egress, &QDoubleSpinBox::valueChanged, this, &WorkloadPanel::emitChanged);
        ++row;
    }
    return providerBox;
}

void WorkloadPanel::connectChanges()
{
    connect(m_preset, &QComboBox::currentIndexChanged, this, &WorkloadPanel::presetChanged);
    connect(m_preset, &QComboBox::activated, this, [this] {
        // Another model: a scenario's settings without a box, and its batch, were the old model's.
        m_extra = WorkloadOverrides();
        m_batch->setValue(0);
        m_customName.clear();
        emitChanged();
    });
    for (QComboBox *c : {m_customKind, m_customGpu, m_customClass, m_precision, m_stack, m_spot})
        connect(c, &QComboBox::currentIndexChanged, this, &WorkloadPanel::emitChanged);
    for (QCheckBox *b : {m_checkpointing, m_includeSuspect})
        connect(b, &QCheckBox::toggled, this, &WorkloadPanel::emitChanged);
    for (QDoubleSpinBox *s :
         {m_customFlops, m_customFigureFlops, m_customMeasured, m_customBusy, m_customParams, m_customMemory,
          m_samples, m_epochs, m_deadline, m_budget, m_dataset})
        connect(s, &QDoubleSpinBox::valueChanged, this, &WorkloadPanel::emitChanged);
    for (QSpinBox *s : {m_checkpoint, m_setup, m_nodes, m_customMeasuredBatch, m_batch})
        connect(s, &QSpinBox::valueChanged, this, &WorkloadPanel::emitChanged);
    connect(m_weight, &QSlider::valueChanged, this, &WorkloadPanel::emitChanged);
}

void WorkloadPanel::presetChanged()
{
    const QString id = m_preset->currentData().toString();
    const bool custom = id == kCustomId;
    m_customStack->setCurrentIndex(custom ? 1 : 0);
    m_customStack->setVisible(custom);
    if (!custom) {
        if (const Workload *w = findWorkload(builtinWorkloads(), id)) {
            const bool wasLoading = m_loading;
            m_loading = true;
            m_samples->setValue(w->samplesPerEpoch);
            m_samples->setSuffix(QStringLiteral(" ") + w->sampleUnit);
            m_epochs->setValue(w->epochs);
            m_precision->setCurrentIndex(std::max(0, m_precision->findData(precisionName(w->precision))));
            m_checkpointing->setEnabled(w->checkpointingOffered());
            m_checkpointing->setChecked(w->gradientCheckpointing);
            m_dataset->setValue(w->datasetGb);
            m_notes->setToolTip(w->notes);
            m_loading = wasLoading;
        }
    } else {
        m_samples->setSuffix(tr(" samples"));
        m_checkpointing->setEnabled(false);
        m_checkpointing->setChecked(false);
        m_notes->setText(tr("Describe your training: speed measured on one GPU, or FLOPs per sample."));
    }
    emitChanged();
}

namespace {

/// Why the measured speed of `w` (a custom measured workload with FLOPs per sample) cannot be right for its
/// GPU as the model sees it (SpeedModel::implausibility: beyond twice the datasheet peak, or more than 10x
/// from the model's projection either way), and the busy share rule W takes for it. Without FLOPs the figure
/// is the whole level: nothing to check.
SpeedModel::TypedFigureCheck farFromTheModel(const Workload &w)
{
    if (w.kind != WorkloadKind::CustomMeasured || !(w.flopsPerSample > 0) || w.referenceGpuId.isEmpty())
        return {};
    return SpeedModel::builtin().checkTypedFigure(w, GpuSpecTable::builtin());
}

} // namespace

void WorkloadPanel::emitChanged()
{
    m_weightLabel->setText(m_weight->value() < 15   ? tr("cheapest")
                           : m_weight->value() > 85 ? tr("fastest")
                                                    : tr("balanced (%1% time)").arg(m_weight->value()));
    const bool measured = m_customKind->currentIndex() == 0;
    m_customMeasured->setEnabled(measured);
    m_customGpu->setEnabled(measured);
    m_customBusy->setEnabled(measured);
    m_customMeasuredBatch->setEnabled(measured);
    // One FLOPs row per kind: the measured speed's is optional, the other kind's is the workload itself.
    m_customForm->setRowVisible(m_customFigureFlops, measured);
    m_customForm->setRowVisible(m_customFlops, !measured);
    if (m_loading)
        return;
    QStringList extras;
    if (m_extra.measuredBatchPerGpu && m_extra.measuredSamplesPerS)
        extras.append(tr("speed measured at batch %1 per GPU").arg(*m_extra.measuredBatchPerGpu));
    if (m_extra.flopsPerSample)
        extras.append(tr("%1 GFLOP/sample").arg(*m_extra.flopsPerSample / 1e9, 0, 'g', 4));
    if (m_extra.bytesPerSample)
        extras.append(tr("%1 MB/sample").arg(*m_extra.bytesPerSample / 1e6, 0, 'g', 4));
    if (m_extra.parameters)
        extras.append(tr("%1 M params").arg(*m_extra.parameters / 1e6, 0, 'g', 4));
    if (m_extra.memoryGb)
        extras.append(tr("%1 GB per GPU").arg(*m_extra.memoryGb, 0, 'g', 3));
    if (m_extra.minVcpusPerGpu)
        extras.append(tr("%1 vCPUs per GPU").arg(*m_extra.minVcpusPerGpu));
    if (m_extra.measuredSamplesPerS)
        extras.append(m_extra.measuredGpuBusy ? tr("measured %1 samples/s on %2, GPU busy %3 %")
                                                    .arg(*m_extra.measuredSamplesPerS)
                                                    .arg(m_extra.referenceGpu)
                                                    .arg(*m_extra.measuredGpuBusy * 100, 0, 'f', 1)
                                              : tr("measured %1 samples/s on %2")
                                                    .arg(*m_extra.measuredSamplesPerS)
                                                    .arg(m_extra.referenceGpu));
    if (m_extra.workloadClass)
        extras.append(tr("%1 class").arg(workloadClassName(*m_extra.workloadClass)));
    m_extraLabel->setText(tr("Also from the scenario: %1").arg(extras.join(QStringLiteral(" · "))));
    m_extraLabel->setVisible(!extras.isEmpty());
    const auto w = workload();
    m_error->setVisible(!w.ok());
    if (!w.ok())
        m_error->setText(w.error().text());
    else if (w.value().kind != WorkloadKind::CustomMeasured &&
             m_preset->currentData().toString() != kCustomId)
        m_notes->setText(tr("%1 GFLOP/sample · %2 M params · needs %3 GB per GPU%4")
                             .arg(QString::number(w.value().flopsPerSample / 1e9, 'g', 4),
                                  QString::number(w.value().parameters / 1e6, 'g', 4),
                                  QString::number(w.value().memoryGb, 'g', 3),
                                  w.value().gradientCheckpointing ? tr(" (checkpointing)") : QString()));
    else {
        // Said where it is typed: a measured speed the model cannot reconcile with its GPU (section 3.24);
        // the FLOPs kind has no figure to check.
        const auto [far, assumed] = farFromTheModel(w.value());
        const double busy = w.value().measuredGpuBusy;
        if (!far.isEmpty() && assumed > 0)
            m_notes->setText(
                tr("Check your figure: %1. Without a GPU busy share it is read as host-bound (the "
                   "GPU taken as busy %2 % of the step), so its step is a floor: no GPU is projected "
                   "faster than that step allows; give GPU busy if you measured it.")
                    .arg(far, QString::number(assumed * 100, 'f', 0)));
        else if (!far.isEmpty())
            m_notes->setText(
                tr("Check your figure: %1. Other GPUs are projected at most %2x from the model's own "
                   "figure%3.")
                    .arg(far, QString::number(SpeedModel::kImplausibleFactor, 'g', 3),
                         busy > 0 ? QString()
                                  : tr("; if your host set this speed (a small batch, the input "
                                       "pipeline), give GPU busy")));
        else if (w.value().kind == WorkloadKind::CustomMeasured &&
                 SpeedModel::builtin().busyMayBeHostBound(SpeedModel::typedFigure(w.value())))
            m_notes->setText(
                tr("GPU busy %1 %: a typed share counts as nvidia-smi's, which reads high, so this "
                   "step may still be host-bound (on our hosts every nvidia-smi reading under %2 % "
                   "was); the ranges of faster NVIDIA GPUs reach its floor.")
                    .arg(busyPercentText(busy), QString::number(kSmiGpuBoundBusy * 100, 'f', 0)));
        else
            m_notes->setText(tr("Describe your training: speed measured on one GPU, or FLOPs per sample."));
    }
    Q_EMIT changed();
}

WorkloadSpec WorkloadPanel::spec() const
{
    WorkloadSpec spec;
    const QString id = m_preset->currentData().toString();
    WorkloadOverrides &o = spec.overrides;
    o = m_extra;
    o.precision = precisionFromName(m_precision->currentData().toString()).value_or(Precision::Fp16);
    o.stack = softwareStackFromName(m_stack->currentData().toString()).value_or(SoftwareStack::Typical);
    o.samplesPerEpoch = m_samples->value();
    o.epochs = m_epochs->value();
    o.datasetGb = m_dataset->value();
    o.batchPerGpu = m_batch->value() > 0 ? std::optional<int>(m_batch->value()) : std::nullopt;
    if (id != kCustomId) {
        // The one rule the CLI builds by too: the precision box alone keeps the preset.
        spec.preset = id;
        if (m_checkpointing->isEnabled())
            o.checkpointing = m_checkpointing->isChecked();
        return spec;
    }
    spec.name = m_customName.isEmpty() ? tr("Custom workload") : m_customName;
    if (m_customKind->currentIndex() == 0) {
        o.measuredSamplesPerS = m_customMeasured->value();
        o.referenceGpu = m_customGpu->currentData().toString();
        if (m_customBusy->value() > 0)
            o.measuredGpuBusy = m_customBusy->value() / 100.0;
        else
            o.measuredGpuBusy.reset();
        if (m_customMeasuredBatch->value() > 0)
            o.measuredBatchPerGpu = m_customMeasuredBatch->value();
        else
            o.measuredBatchPerGpu.reset();
        if (m_customFigureFlops->value() > 0)
            o.flopsPerSample = m_customFigureFlops->value() * 1e9;
        else
            o.flopsPerSample.reset();
    } else {
        o.flopsPerSample = m_customFlops->value() * 1e9;
        o.measuredSamplesPerS.reset();
        o.referenceGpu.clear();
        o.measuredGpuBusy.reset();
        o.measuredBatchPerGpu.reset();
    }
    o.parameters = m_customParams->value() * 1e6;
    o.memoryGb = m_customMemory->value();
    o.workloadClass = workloadClassFromName(m_customClass->currentData().toString());
    return spec;
}

Result<Workload> WorkloadPanel::workload() const
{
    return buildWorkloadSpec(spec());
}

namespace {

/// Sets a spin box; a value outside its range is named in `clamped`.
template <class Box, class T> void setBox(Box *box, T value, const QString &label, QStringList &clamped)
{
    if (value < box->minimum() || value > box->maximum())
        clamped.append(QObject::tr("%1 %2 is outside the panel's range (%3 to %4): set to the nearest")
                           .arg(label)
                           .arg(value)
                           .arg(box->minimum())
                           .arg(box->maximum()));
    box->setValue(value);
}

} // namespace

QStringList WorkloadPanel::setScenario(const WorkloadSpec &spec, const ProjectionOptions &opt)
{
    QStringList notes;
    m_loading = true;
    const WorkloadOverrides &o = spec.overrides;
    const bool custom = spec.preset.isEmpty();
    const int presetIndex = m_preset->findData(custom ? kCustomId : spec.preset);
    if (presetIndex < 0)
        notes.append(tr("unknown preset %1").arg(spec.preset));
    else
        m_preset->setCurrentIndex(presetIndex);
    presetChanged(); // the preset's values first, then the scenario's
    m_loading = true;
    m_extra = WorkloadOverrides();
    if (o.samplesPerEpoch)
        setBox(m_samples, *o.samplesPerEpoch, tr("Data set"), notes);
    // A custom workload has no preset to fall back on: a figure the scenario leaves out takes the value the
    // CLI builds it with (buildWorkloadSpec: 1 epoch, nothing to stage), not the panel's last one.
    if (o.epochs || custom)
        setBox(m_epochs, o.epochs.value_or(1.0), tr("Epochs"), notes);
    if (o.precision)
        m_precision->setCurrentIndex(std::max(0, m_precision->findData(precisionName(*o.precision))));
    m_stack->setCurrentIndex(
        std::max(0, m_stack->findData(softwareStackName(o.stack.value_or(SoftwareStack::Typical)))));
    if (o.datasetGb || custom)
        setBox(m_dataset, o.datasetGb.value_or(0.0), tr("Data to stage"), notes);
    if (o.checkpointing && m_checkpointing->isEnabled())
        m_checkpointing->setChecked(*o.checkpointing);
    if (custom) {
        m_customName = spec.name;
        const bool measured = o.measuredSamplesPerS.has_value();
        m_customKind->setCurrentIndex(measured ? 0 : 1);
        if (measured) {
            setBox(m_customMeasured, *o.measuredSamplesPerS, tr("Measured"), notes);
            int gpu = m_customGpu->findData(o.referenceGpu);
            if (gpu < 0)
                if (const auto id = GpuCatalog::builtin().resolve(QString(), o.referenceGpu))
                    gpu = m_customGpu->findData(*id);
            if (gpu < 0)
                notes.append(tr("unknown GPU %1").arg(o.referenceGpu));
            else
                m_customGpu->setCurrentIndex(gpu);
            m_customBusy->setValue(o.measuredGpuBusy ? *o.measuredGpuBusy * 100 : 0.0);
            m_customMeasuredBatch->setValue(o.measuredBatchPerGpu.value_or(0));
        }
        // A measured speed with its FLOPs (the CLI's --measured with --flops-per-sample) fills the measured
        // speed's optional box ("not given" without them); the other kind fills its own.
        if (measured)
            setBox(m_customFigureFlops, o.flopsPerSample.value_or(0) / 1e9, tr("FLOPs/sample (GFLOP)"),
                   notes);
        else if (o.flopsPerSample)
            setBox(m_customFlops, *o.flopsPerSample / 1e9, tr("FLOPs/sample (GFLOP)"), notes);
        setBox(m_customParams, o.parameters.value_or(0) / 1e6, tr("Parameters (M)"), notes);
        setBox(m_customMemory, o.memoryGb.value_or(0), tr("Memory/GPU"), notes);
        m_customClass->setCurrentIndex(std::max(
            0, m_customClass->findData(workloadClassName(o.workloadClass.value_or(WorkloadClass::Unknown)))));
        m_extra.bytesPerSample = o.bytesPerSample;
    } else {
        m_extra.flopsPerSample = o.flopsPerSample;
        m_extra.bytesPerSample = o.bytesPerSample;
        m_extra.parameters = o.parameters;
        m_extra.memoryGb = o.memoryGb;
        m_extra.measuredSamplesPerS = o.measuredSamplesPerS;
        m_extra.referenceGpu = o.referenceGpu;
        m_extra.measuredGpuBusy = o.measuredGpuBusy;
        m_extra.measuredBatchPerGpu = o.measuredBatchPerGpu; // a preset's measured speed has no boxes
        m_extra.workloadClass = o.workloadClass;
    }
    m_batch->setValue(o.batchPerGpu.value_or(0));
    m_extra.minVcpusPerGpu = o.minVcpusPerGpu;

    setSpotPolicy(opt.spotPolicy);
    setBox(m_setup, qRound(opt.setupMinutes), tr("Setup time"), notes);
    setBox(m_checkpoint, qRound(opt.checkpointMinutes), tr("Checkpoint every"), notes);
    m_restoreMinutes = opt.restoreMinutes;
    setBox(m_deadline, opt.deadlineHours.value_or(0), tr("Deadline"), notes);
    setBox(m_budget, opt.budgetUsd.value_or(0), tr("Budget"), notes);
    setWeight(opt.weight);
    int nodes = 1;
    for (int k : opt.nodeCounts)
        nodes = std::max(nodes, k);
    if (opt.nodeCounts.size() > 2)
        notes.append(tr("the panel projects one multi-instance size: %1 of the scenario's").arg(nodes));
    setBox(m_nodes, nodes, tr("Multi-instance"), notes);
    m_includeSuspect->setChecked(opt.includeSuspect);
    for (auto it = m_rates.cbegin(); it != m_rates.cend(); ++it)
        setInterruptionRate(it.key(), opt.interruptionRatePerHour.value(it.key(), -1));
    for (auto it = m_egress.cbegin(); it != m_egress.cend(); ++it)
        setEgressUsdPerGb(it.key(), opt.egressUsdPerGb.value(it.key(), 0));
    m_loading = false;
    emitChanged();
    return notes;
}

ProjectionOptions WorkloadPanel::options() const
{
    ProjectionOptions o;
    o.spotPolicy = static_cast<SpotPolicy>(m_spot->currentData().toInt());
    o.setupMinutes = m_setup->value();
    o.checkpointMinutes = m_checkpoint->value();
    o.restoreMinutes = m_restoreMinutes;
    if (m_deadline->value() > 0)
        o.deadlineHours = m_deadline->value();
    if (m_budget->value() > 0)
        o.budgetUsd = m_budget->value();
    o.weight = m_weight->value() / 100.0;
    o.nodeCounts = {1};
    if (m_nodes->value() > 1)
        o.nodeCounts.append(m_nodes->value());
    o.includeSuspect = m_includeSuspect->isChecked();
    for (auto it = m_rates.cbegin(); it != m_rates.cend(); ++it)
        if (it.value()->value() >= 0)
            o.interruptionRatePerHour.insert(it.key(), it.value()->value());
    for (auto it = m_egress.cbegin(); it != m_egress.cend(); ++it)
        if (it.value()->value() > 0)
            o.egressUsdPerGb.insert(it.key(), it.value()->value());
    return o;
}

void WorkloadPanel::setIncludeSuspect(bool on)
{
    m_includeSuspect->setChecked(on);
}

void WorkloadPanel::setGradientCheckpointing(bool on)
{
    m_checkpointing->setChecked(on);
}

void WorkloadPanel::setDatasetGb(double gb)
{
    m_dataset->setValue(gb);
}

void WorkloadPanel::setInterruptionRate(const QString &provider, double perHour)
{
    if (QDoubleSpinBox *b = m_rates.value(provider))
        b->setValue(perHour < 0 ? b->minimum() : perHour);
}

void WorkloadPanel::setEgressUsdPerGb(const QString &provider, double usdPerGb)
{
    if (QDoubleSpinBox *b = m_egress.value(provider))
        b->setValue(usdPerGb);
}

void WorkloadPanel::selectPreset(const QString &id)
{
    const int i = m_preset->findData(id);
    if (i >= 0)
        m_preset->setCurrentIndex(i);
}

void WorkloadPanel::setDeadlineHours(double hours)
{
    m_deadline->setValue(hours);
}

void WorkloadPanel::setBudgetUsd(double usd)
{
    m_budget->setValue(usd);
}

void WorkloadPanel::setSpotPolicy(SpotPolicy policy)
{
    m_spot->setCurrentIndex(std::max(0, m_spot->findData(int(policy))));
}

void WorkloadPanel::setWeight(double weight)
{
    m_weight->setValue(qRound(weight * 100));
}

void WorkloadPanel::setSamples(double samples)
{
    m_samples->setValue(samples);
}

void WorkloadPanel::setEpochs(double epochs)
{
    m_epochs->setValue(epochs);
}

void WorkloadPanel::saveState() const
{
    QSettings s;
    s.beginGroup(QStringLiteral("workload"));
    s.setValue(QStringLiteral("preset"), m_preset->currentData());
    s.setValue(QStringLiteral("samples"), m_samples->value());
    s.setValue(QStringLiteral("epochs"), m_epochs->value());
    s.setValue(QStringLiteral("precision"), m_precision->currentData());
    s.setValue(QStringLiteral("stack"), m_stack->currentData());
    s.setValue(QStringLiteral("deadline"), m_deadline->value());
    s.setValue(QStringLiteral("budget"), m_budget->value());
    s.setValue(QStringLiteral("spot"), m_spot->currentData());
    s.setValue(QStringLiteral("checkpoint"), m_checkpoint->value());
    s.setValue(QStringLiteral("setup"), m_setup->value());
    s.setValue(QStringLiteral("restoreMinutes"), m_restoreMinutes);
    s.setValue(QStringLiteral("customName"), m_customName);
    s.setValue(QStringLiteral("nodes"), m_nodes->value());
    s.setValue(QStringLiteral("weight"), m_weight->value());
    s.setValue(QStringLiteral("customKind"), m_customKind->currentIndex());
    s.setValue(QStringLiteral("customMeasured"), m_customMeasured->value());
    s.setValue(QStringLiteral("customGpu"), m_customGpu->currentData());
    s.setValue(QStringLiteral("customBusy"), m_customBusy->value());
    s.setValue(QStringLiteral("customMeasuredBatch"), m_customMeasuredBatch->value());
    s.setValue(QStringLiteral("batch"), m_batch->value());
    s.setValue(QStringLiteral("customFlops"), m_customFlops->value());
    s.setValue(QStringLiteral("customFigureFlops"), m_customFigureFlops->value());
    s.setValue(QStringLiteral("customParams"), m_customParams->value());
    s.setValue(QStringLiteral("customMemory"), m_customMemory->value());
    s.setValue(QStringLiteral("customClass"), m_customClass->currentData());
    s.setValue(QStringLiteral("includeSuspect"), m_includeSuspect->isChecked());
    s.setValue(QStringLiteral("checkpointing"), m_checkpointing->isChecked());
    s.setValue(QStringLiteral("datasetGb"), m_dataset->value());
    for (auto it = m_rates.cbegin(); it != m_rates.cend(); ++it)
        s.setValue(QStringLiteral("interruptionRate/") + it.key(), it.value()->value());
    for (auto it = m_egress.cbegin(); it != m_egress.cend(); ++it)
        s.setValue(QStringLiteral("egressUsdPerGb/") + it.key(), it.value()->value());
    s.endGroup();
}

void WorkloadPanel::restoreState()
{
    QSettings s;
    s.beginGroup(QStringLiteral("workload"));
    if (!s.contains(QStringLiteral("preset"))) {
        s.endGroup();
        return;
    }
    m_loading = true;
    selectPreset(s.value(QStringLiteral("preset")).toString());
    presetChanged();
    m_loading = true;
    m_samples->setValue(s.value(QStringLiteral("samples"), m_samples->value()).toDouble());
    m_epochs->setValue(s.value(QStringLiteral("epochs"), m_epochs->value()).toDouble());
    m_precision->setCurrentIndex(std::max(0, m_precision->findData(s.value(QStringLiteral("precision")))));
    m_stack->setCurrentIndex(std::max(0, m_stack->findData(s.value(QStringLiteral("stack")))));
    m_deadline->setValue(s.value(QStringLiteral("deadline"), 0.0).toDouble());
    m_budget->setValue(s.value(QStringLiteral("budget"), 0.0).toDouble());
    m_spot->setCurrentIndex(std::max(0, m_spot->findData(s.value(QStringLiteral("spot")))));
    m_checkpoint->setValue(s.value(QStringLiteral("checkpoint"), 30).toInt());
    m_setup->setValue(s.value(QStringLiteral("setup"), 10).toInt());
    m_restoreMinutes = s.value(QStringLiteral("restoreMinutes"), 10.0).toDouble();
    m_customName = s.value(QStringLiteral("customName")).toString();
    m_nodes->setValue(s.value(QStringLiteral("nodes"), 1).toInt());
    m_weight->setValue(s.value(QStringLiteral("weight"), 50).toInt());
    m_customKind->setCurrentIndex(s.value(QStringLiteral("customKind"), 0).toInt());
    m_customMeasured->setValue(s.value(QStringLiteral("customMeasured"), 1000.0).toDouble());
    m_customGpu->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_customGpu->setMinimumContentsLength(14);
    m_customGpu->setCurrentIndex(std::max(0, m_customGpu->findData(s.value(QStringLiteral("customGpu")))));
    m_customBusy->setValue(std::clamp(s.value(QStringLiteral("customBusy"), 0.0).toDouble(), 0.0, 100.0));
    m_customMeasuredBatch->setValue(std::max(0, s.value(QStringLiteral("customMeasuredBatch"), 0).toInt()));
    m_batch->setValue(std::max(0, s.value(QStringLiteral("batch"), 0).toInt()));
    m_customFlops->setValue(s.value(QStringLiteral("customFlops"), 10.0).toDouble());
    m_customFigureFlops->setValue(s.value(QStringLiteral("customFigureFlops"), 0.0).toDouble());
    m_customParams->setValue(s.value(QStringLiteral("customParams"), 100.0).toDouble());
    m_customMemory->setValue(s.value(QStringLiteral("customMemory"), 16.0).toDouble());
    m_customClass->setCurrentIndex(
        std::max(0, m_customClass->findData(s.value(QStringLiteral("customClass")))));
    m_includeSuspect->setChecked(s.value(QStringLiteral("includeSuspect"), false).toBool());
    if (m_checkpointing->isEnabled())
        m_checkpointing->setChecked(
            s.value(QStringLiteral("checkpointing"), m_checkpointing->isChecked()).toBool());
    m_dataset->setValue(s.value(QStringLiteral("datasetGb"), m_dataset->value()).toDouble());
    for (auto it = m_rates.cbegin(); it != m_rates.cend(); ++it)
        it.value()->setValue(
            s.value(QStringLiteral("interruptionRate/") + it.key(), it.value()->minimum()).toDouble());
    for (auto it = m_egress.cbegin(); it != m_egress.cend(); ++it)
        it.value()->setValue(s.value(QStringLiteral("egressUsdPerGb/") + it.key(), 0.0).toDouble());
    s.endGroup();
    m_loading = false;
    emitChanged();
}

} // namespace gf

#include "probepage.h"
#include "uistyle.h"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "probe/calibrationchoice.h"
#include "probe/probejson.h"
#include "util/format.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gf {

namespace {
QTableWidgetItem *cell(const QString &text, bool right = false)
{
    auto *item = new QTableWidgetItem(text);
    if (right)
        item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}
QString opt(const std::optional<double> &v, int decimals)
{
    return v ? QString::number(*v, 'f', decimals) : QStringLiteral("–");
}
} // namespace

ProbePage::ProbePage(CatalogService *service, QWidget *parent) : QWidget(parent), m_service(service)
{
    connect(m_service, &CatalogService::probeRunsLoaded, this, &ProbePage::onRunsLoaded);
    connect(m_service, &CatalogService::probeRunAdded, this,
            [this](quint64 request) { onRunAdded(request); });
    connect(m_service, &CatalogService::failed, this, &ProbePage::onFailed);
    m_runner = new ProbeRunner(this);
    m_runner->setTimeoutMs(120000);
    m_calibration = defaultCalibration();

    m_quick = new QPushButton(tr("Run GPU probe (quick)"), this);
    m_quick->setObjectName(QStringLiteral("probeQuick"));
    m_quick->setToolTip(tr("CUDA + cuBLAS benchmark of this machine's GPU, about 10 seconds"));
    m_full = new QPushButton(tr("Full GPU probe"), this);
    m_full->setObjectName(QStringLiteral("probeFull"));
    m_full->setToolTip(tr("More shapes and repetitions, under 30 seconds"));
    m_cpu = new QPushButton(tr("Run CPU probe"), this);
    m_cpu->setObjectName(QStringLiteral("probeCpu"));
    m_cpu->setToolTip(
        tr("GEMM and memory bandwidth of this machine's CPU (for machines without an NVIDIA GPU)"));
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(QStringLiteral("probeCancel"));
    m_cancel->setEnabled(false);
    m_import = new QPushButton(tr("Import probe JSON…"), this);
    m_import->setObjectName(QStringLiteral("probeImport"));
    m_import->setToolTip(
        tr("A document written by gpufrontier-probe on another machine, e.g. a rented instance"));
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1000);
    m_progress->setTextVisible(false);
    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("probeMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);

    const bool haveGpuProbe = !ProbeRunner::findProbe(QStringLiteral("gpufrontier-probe")).isEmpty();
    if (!haveGpuProbe) {
        m_quick->setEnabled(false);
        m_full->setEnabled(false);
        m_quick->setToolTip(tr("This build has no CUDA probe (built without the CUDA toolkit)"));
        showMessage(tr("This installation has no GPU probe (built without CUDA). Run the CPU probe, or run "
                       "gpufrontier-probe on a machine with an NVIDIA GPU and import its JSON."),
                    false);
    }

    connect(m_quick, &QPushButton::clicked, this, [this] { runProbe(false, true); });
    connect(m_full, &QPushButton::clicked, this, [this] { runProbe(false, false); });
    connect(m_cpu, &QPushButton::clicked, this, [this] { runProbe(true, true); });
    connect(m_cancel, &QPushButton::clicked, this, &ProbePage::cancel);
    connect(m_import, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Import probe JSON"), QString(),
                                                          tr("Probe results (*.json);;All files (*)"));
        if (!path.isEmpty())
            importFile(path);
    });
    connect(m_runner, &ProbeRunner::progress, this, [this](int permille, const QString &message) {
        m_progress->setValue(permille);
        m_message->setText(message);
    });
    connect(m_runner, &ProbeRunner::finished, this, &ProbePage::onFinished);

    auto *buttons = new QHBoxLayout;
    for (QPushButton *b : {m_quick, m_full, m_cpu, m_cancel})
        buttons->addWidget(b);
    buttons->addStretch(1);
    buttons->addWidget(m_import);

    m_device = new QLabel(tr("No probe run yet."), this);
    m_device->setObjectName(QStringLiteral("probeDevice"));
    m_device->setWordWrap(true);
    m_device->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_figures = new QTableWidget(0, 4, this);
    m_figures->setObjectName(QStringLiteral("probeFigures"));
    m_figures->setHorizontalHeaderLabels({tr("Measured"), tr("Datasheet"), tr("Efficiency"), tr("Unit")});
    m_figures->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_figures->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_figures->setToolTip(
        tr("Efficiency = measured / datasheet peak on the probed GPU. The projection applies it "
           "to the datasheet peaks of every other GPU."));
    m_calibrationLabel = new QLabel(this);
    m_calibrationLabel->setObjectName(QStringLiteral("calibrationLabel"));
    m_calibrationLabel->setWordWrap(true);

    auto *resultBox = new QGroupBox(tr("Selected run"), this);
    auto *rl = new QVBoxLayout(resultBox);
    rl->addWidget(m_device);
    rl->addWidget(m_figures, 1);
    rl->addWidget(m_calibrationLabel);

    m_history = new QTableWidget(0, 5, this);
    m_history->setObjectName(QStringLiteral("probeHistory"));
    m_history->setHorizontalHeaderLabels(
        {tr("When (UTC)"), tr("Origin"), tr("Kind"), tr("Device"), tr("GPU model")});
    m_history->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_history->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_history->setSelectionMode(QAbstractItemView::SingleSelection);
    m_history->horizontalHeader()->setStretchLastSection(true);
    m_history->verticalHeader()->setVisible(false);
    connect(m_history, &QTableWidget::currentCellChanged, this, [this](int row) { showRun(row); });
    m_use = new QPushButton(tr("Calibrate with this run"), this);
    m_use->setObjectName(QStringLiteral("probeUse"));
    m_use->setToolTip(
        tr("Use the selected run's efficiencies for every projection (the newest run is used by default)"));
    connect(m_use, &QPushButton::clicked, this, [this] { Q_EMIT calibrationChanged(m_calibration); });
    auto *historyBox = new QGroupBox(tr("Probe runs"), this);
    auto *hl = new QVBoxLayout(historyBox);
    hl->addWidget(m_history, 1);
    hl->addWidget(m_use, 0, Qt::AlignRight);

    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(resultBox);
    split->addWidget(historyBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_progress);
    layout->addWidget(m_message);
    layout->addWidget(split, 1);
    refreshHistory();
}

ProbePage::~ProbePage() = default;

bool ProbePage::isRunning() const
{
    return m_runner->isRunning();
}

int ProbePage::historyCount() const
{
    return static_cast<int>(m_runs.size());
}

QString ProbePage::statusText() const
{
    return m_message->text();
}

void ProbePage::showMessage(const QString &text, bool error)
{
    m_message->setText(text);
    setErrorStyle(m_message, error);
}

void ProbePage::runProbe(bool cpu, bool quick)
{
    const QString name = cpu ? QStringLiteral("gpufrontier-cpuprobe") : QStringLiteral("gpufrontier-probe");
    const QString program = ProbeRunner::findProbe(name);
    if (program.isEmpty()) {
        showMessage(tr("%1 was not found (looked in %2).")
                        .arg(name, ProbeRunner::probeSearchDirs().join(QStringLiteral(", "))),
                    true);
        return;
    }
    QStringList args;
    if (quick)
        args << QStringLiteral("--quick");
    m_origin = QStringLiteral("local");
    if (!m_runner->start(program, args))
        return;
    m_progress->setValue(0);
    showMessage(tr("Running %1 …").arg(name), false);
    for (QPushButton *b : {m_quick, m_full, m_cpu, m_import})
        b->setEnabled(false);
    m_cancel->setEnabled(true);
}

void ProbePage::cancel()
{
    m_runner->cancel();
}

void ProbePage::onFinished(const ProbeOutcome &outcome)
{
    const bool haveGpuProbe = !ProbeRunner::findProbe(QStringLiteral("gpufrontier-probe")).isEmpty();
    m_quick->setEnabled(haveGpuProbe);
    m_full->setEnabled(haveGpuProbe);
    m_cpu->setEnabled(true);
    m_import->setEnabled(true);
    m_cancel->setEnabled(false);
    if (!outcome.ok()) {
        m_progress->setValue(0);
        QString text = outcome.error.text();
        if (outcome.status == ProbeStatus::NoDevice)
            text =
                ProbeRunner::noDeviceMessage() +
                tr(" Run the CPU probe instead, or probe a GPU machine and import its result (Import...).");
        showMessage(text,
                    outcome.status != ProbeStatus::Cancelled && outcome.status != ProbeStatus::NoDevice);
        if (outcome.status == ProbeStatus::NoDevice)
            m_cpu->setFocus();
        Q_EMIT runFinished(false);
        return;
    }
    m_progress->setValue(1000);
    storeRun(*outcome.result, m_origin, outcome.json,
             tr("Probe finished in %1 s: %2")
                 .arg(QString::number(outcome.result->elapsedS, 'f', 1), outcome.result->deviceName),
             true);
}

void ProbePage::storeRun(const ProbeResult &result, const QString &origin, const QByteArray &json,
                         const QString &doneMessage, bool fromRun)
{
    m_addedMessage = doneMessage;
    m_addFromRun = fromRun;
    m_addRequest = m_service->addProbeResult(result, origin, json);
}

void ProbePage::onRunAdded(quint64 request)
{
    if (request != m_addRequest)
        return;
    m_addRequest = 0;
    showMessage(m_addedMessage, false);
    m_selectNewest = true;
    refreshHistory();
}

void ProbePage::onFailed(quint64 request, const QString &message)
{
    if (request == m_addRequest) {
        m_addRequest = 0;
        showMessage(message, true);
        if (std::exchange(m_addFromRun, false))
            Q_EMIT runFinished(false);
    } else if (request == m_runsRequest) {
        m_runsRequest = 0;
        showMessage(message, true);
        if (std::exchange(m_addFromRun, false))
            Q_EMIT runFinished(false);
        Q_EMIT historyLoaded();
    }
}

bool ProbePage::importFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        showMessage(tr("Cannot read %1: %2").arg(path, f.errorString()), true);
        return false;
    }
    const QByteArray json = f.read(16 * 1024 * 1024);
    auto parsed = parseProbeJson(json);
    if (!parsed) {
        showMessage(
            tr("%1 is not a usable probe result: %2").arg(QFileInfo(path).fileName(), parsed.error().text()),
            true);
        return false;
    }
    storeRun(parsed.value(), QFileInfo(path).fileName(), json,
             tr("Imported %1 (%2).").arg(QFileInfo(path).fileName(), parsed.value().deviceName), false);
    return true;
}

void ProbePage::refreshHistory()
{
    m_runsRequest = m_service->loadProbeRuns();
}

void ProbePage::onRunsLoaded(quint64 request, const QList<ProbeRunRecord> &runs)
{
    if (request != m_runsRequest)
        return; // a newer reload is on its way
    m_runsRequest = 0;
    m_runs = runs;
    m_history->setRowCount(static_cast<int>(m_runs.size()));
    for (int r = 0; r < m_runs.size(); ++r) {
        const ProbeRunRecord &run = m_runs.at(r);
        m_history->setItem(r, 0, cell(run.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm"))));
        m_history->setItem(r, 1, cell(run.origin));
        m_history->setItem(r, 2, cell(run.kind));
        m_history->setItem(r, 3, cell(run.deviceName));
        m_history->setItem(r, 4, cell(run.gpuId.isEmpty() ? QStringLiteral("–") : run.gpuId));
    }
    m_history->resizeColumnsToContents();
    m_use->setEnabled(!m_runs.isEmpty());
    if (std::exchange(m_selectNewest, false) && !m_runs.isEmpty()) {
        // A run was just stored: it is the newest; it calibrates the projection.
        m_history->setCurrentCell(0, 0);
        showRun(0);
        Q_EMIT calibrationChanged(m_calibration);
        if (std::exchange(m_addFromRun, false))
            Q_EMIT runFinished(true);
    } else if (!m_runs.isEmpty() && m_history->currentRow() < 0) {
        m_history->setCurrentCell(0, 0);
    }
    Q_EMIT historyLoaded();
}

void ProbePage::showRun(int row)
{
    if (row < 0 || row >= m_runs.size())
        return;
    auto parsed = parseProbeJson(m_runs.at(row).json);
    if (!parsed) {
        m_device->setText(tr("This stored run cannot be read: %1").arg(parsed.error().text()));
        return;
    }
    const ProbeResult &p = parsed.value();
    m_calibration = chooseCalibration(m_runs, m_runs.at(row).id).calibration;
    // Only a run that measured a GPU the app knows can calibrate; a CPU probe measures this computer.
    m_use->setEnabled(m_calibration.measured);
    m_use->setToolTip(m_calibration.measured
                          ? tr("Use the selected run's measured GEMM rates and memory bandwidth for its GPU "
                               "(the newest run is used by default)")
                      : p.kind == u"cuda" ? tr("This run's GPU is not one the app knows: it cannot "
                                               "calibrate the projections")
                                          : tr("A CPU probe run measures this computer's CPU: it cannot "
                                               "calibrate GPU efficiencies"));
    QString device = QStringLiteral("<b>%1</b>").arg(p.deviceName.toHtmlEscaped());
    if (p.kind == u"cuda") {
        device += tr(" · compute capability %1 · %2 SMs · %3 GB · SM clock %4 MHz")
                      .arg(p.computeCapability)
                      .arg(p.smCount)
                      .arg(QString::number(p.memoryGb, 'f', 1))
                      .arg(p.smClockMhz, 0, 'f', 0);
        if (p.pcieGen > 0)
            device += tr(" · PCIe gen %1 x%2").arg(p.pcieGen).arg(p.pcieWidth);
        if (!p.driverVersion.isEmpty())
            device += tr(" · driver %1").arg(p.driverVersion.toHtmlEscaped());
    } else {
        device += tr(" · CPU probe, %1 threads · %2 GB RAM")
                      .arg(p.smCount)
                      .arg(QString::number(p.memoryGb, 'f', 1));
    }
    device += tr("<br>Run %1 UTC%2")
                  .arg(p.createdAt.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
                       p.quick ? tr(", quick mode") : QString());
    m_device->setText(device);

    const GpuSpec *spec = nullptr;
    if (!m_calibration.probedGpuId.isEmpty())
        spec = GpuSpecTable::builtin().spec(m_calibration.probedGpuId);
    struct Line
    {
        QString label;
        std::optional<double> measured;
        std::optional<double> datasheet;
        QString unit;
    };
    auto peak = [&](Precision pr) -> std::optional<double> {
        if (!spec || !(spec->peak(pr) > 0))
            return std::nullopt;
        return spec->peak(pr);
    };
    const QList<Line> lines{
        {tr("FP32 GEMM"), p.fp32Tflops, peak(Precision::Fp32), tr("TFLOP/s")},
        {tr("TF32 GEMM"), p.tf32Tflops, peak(Precision::Tf32), tr("TFLOP/s")},
        {tr("FP16 GEMM"), p.fp16Tflops, peak(Precision::Fp16), tr("TFLOP/s")},
        {tr("BF16 GEMM"), p.bf16Tflops, peak(Precision::Bf16), tr("TFLOP/s")},
        {tr("FP8 GEMM"), p.fp8Tflops, peak(Precision::Fp8), tr("TFLOP/s")},
        {tr("Memory bandwidth"), p.memBandwidthGbs,
         spec ? std::optional<double>(spec->memBandwidthGbs) : std::nullopt, tr("GB/s")},
        {tr("Host → device (pinned)"), p.h2dGbs, std::nullopt, tr("GB/s")},
        {tr("Device → host (pinned)"), p.d2hGbs, std::nullopt, tr("GB/s")},
        {tr("Kernel launch overhead"), p.launchOverheadUs, std::nullopt, tr("µs")},
    };
    m_figures->setRowCount(static_cast<int>(lines.size()));
    QStringList labels;
    for (int r = 0; r < lines.size(); ++r) {
        const Line &l = lines.at(r);
        labels.append(l.label);
        m_figures->setItem(r, 0, cell(opt(l.measured, 2), true));
        m_figures->setItem(r, 1, cell(opt(l.datasheet, 1), true));
        QString eff = QStringLiteral("–");
        if (l.measured && l.datasheet && *l.datasheet > 0)
            eff = QStringLiteral("%1 %").arg(QString::number(100.0 * *l.measured / *l.datasheet, 'f', 0));
        m_figures->setItem(r, 2, cell(eff, true));
        m_figures->setItem(r, 3, cell(l.unit));
    }
    m_figures->setVerticalHeaderLabels(labels);
    QStringList notes;
    for (const QString &n : std::as_const(m_calibration.notes))
        notes.append(n.toHtmlEscaped());
    m_calibrationLabel->setText(
        tr("<b>Calibration:</b> %1<br>%2")
            .arg(m_calibration.source.toHtmlEscaped(), notes.join(QStringLiteral("<br>"))));
}

} // namespace gf

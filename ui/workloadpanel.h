#pragma once

#include "domain/workload.h"
#include "domain/workloadbuilder.h"
#include "projection/offerprojection.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QGroupBox;
class QLabel;
class QSlider;
class QSpinBox;
class QStackedWidget;

namespace gf {

/// The workload and its assumptions: preset or custom, data set, epochs, precision, deadline,
/// budget, spot policy, checkpoint interval, setup time and the cost-vs-time weight.
class WorkloadPanel final : public QWidget
{
    Q_OBJECT
public:
    explicit WorkloadPanel(QWidget *parent = nullptr);

    /// The current workload; an invalid custom workload gives an error (also shown in the panel).
    Result<Workload> workload() const;
    ProjectionOptions options() const;
    /// The workload as the panel describes it (what a scenario file saves): built by buildWorkloadSpec.
    WorkloadSpec spec() const;
    /// Sets every box from a scenario's workload and options (one changed() at the end). Settings
    /// without a box of their own (a preset's batch or FLOPs, the restore time) are kept and applied
    /// until another preset is chosen; the returned lines name what the panel cannot hold as given
    /// (a value outside a box's range, several multi-instance sizes).
    QStringList setScenario(const WorkloadSpec &spec, const ProjectionOptions &options);

    void selectPreset(const QString &id);
    void setDeadlineHours(double hours); ///< 0 = none
    void setBudgetUsd(double usd);       ///< 0 = none
    void setSpotPolicy(SpotPolicy policy);
    void setWeight(double weight); ///< 0 cheapest .. 1 fastest
    void setSamples(double samples);
    void setEpochs(double epochs);
    void setIncludeSuspect(bool on);
    void setGradientCheckpointing(bool on);
    void setDatasetGb(double gb);
    /// < 0 = the documented default.
    void setInterruptionRate(const QString &provider, double perHour);
    void setEgressUsdPerGb(const QString &provider, double usdPerGb);

    void saveState() const;
    void restoreState();

Q_SIGNALS:
    /// Emitted for every change; the panel never blocks on the projection.
    void changed();

private:
    // The constructor's steps.
    QGroupBox *buildWorkloadBox();
    /// The custom workload's fields (shown when "Custom workload…" is chosen), in `box`.
    QWidget *buildCustomWorkload(QWidget *box);
    QGroupBox *buildConstraintsBox();
    QGroupBox *buildSpotBox();
    QGroupBox *buildProviderBox();
    void connectChanges();

    void presetChanged();
    void emitChanged();

    QComboBox *m_preset = nullptr;
    QStackedWidget *m_customStack = nullptr;
    QComboBox *m_customKind = nullptr;
    QDoubleSpinBox *m_customFlops = nullptr;
    /// With a measured speed: its FLOPs per sample, optional (0 = not given; PROJECTION.md
    /// sections 3.18, 3.24)
    QDoubleSpinBox *m_customFigureFlops = nullptr;
    QFormLayout *m_customForm = nullptr;
    QDoubleSpinBox *m_customMeasured = nullptr;
    QComboBox *m_customGpu = nullptr;
    QDoubleSpinBox *m_customBusy = nullptr; ///< GPU busy %, 0 = not given (PROJECTION.md section 3.22)
    QSpinBox *m_customMeasuredBatch =
        nullptr;                 ///< batch the speed was measured at, 0 = the training batch (3.25)
    QSpinBox *m_batch = nullptr; ///< micro-batch per GPU, 0 = the preset's (a custom workload: 32)
    QComboBox *m_customClass = nullptr;
    QDoubleSpinBox *m_customParams = nullptr;
    QDoubleSpinBox *m_customMemory = nullptr;
    QDoubleSpinBox *m_samples = nullptr;
    QDoubleSpinBox *m_epochs = nullptr;
    QComboBox *m_precision = nullptr;
    QComboBox *m_stack = nullptr;
    QDoubleSpinBox *m_deadline = nullptr;
    QDoubleSpinBox *m_budget = nullptr;
    QComboBox *m_spot = nullptr;
    QSpinBox *m_checkpoint = nullptr;
    QSpinBox *m_setup = nullptr;
    QSpinBox *m_nodes = nullptr;
    QCheckBox *m_checkpointing = nullptr;
    QDoubleSpinBox *m_dataset = nullptr;
    QCheckBox *m_includeSuspect = nullptr;
    QHash<QString, QDoubleSpinBox *> m_rates;  ///< provider -> interruptions per hour (< 0: default)
    QHash<QString, QDoubleSpinBox *> m_egress; ///< provider -> USD per GB
    QSlider *m_weight = nullptr;
    QLabel *m_weightLabel = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_notes = nullptr;
    QLabel *m_extraLabel = nullptr;
    bool m_loading = false;
    /// A scenario's settings that have no box: a preset's (batch, FLOPs, bytes, parameters, memory,
    /// vCPUs, a measured speed) or a custom workload's (bytes, batch, vCPUs); cleared when the user
    /// chooses another model.
    WorkloadOverrides m_extra;
    QString m_customName;
    double m_restoreMinutes = 10;
};

} // namespace gf

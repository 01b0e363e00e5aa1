#pragma once

#include "probe/proberunner.h"
#include "projection/projection.h"
#include "store/catalogstore.h"

#include <QWidget>

#include <memory>

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace gf {

/// The Probe page: run the GPU (or CPU) probe with progress and Cancel, see the device, the measured
/// figures next to the datasheet and the derived efficiencies, browse past runs and import a probe
/// JSON produced on another machine. The selected run calibrates the projection.
class ProbePage final : public QWidget
{
    Q_OBJECT
public:
    explicit ProbePage(QString dbPath, QWidget *parent = nullptr);
    ~ProbePage() override;

    /// Starts a probe: the GPU probe, or the CPU probe when `cpu`.
    void runProbe(bool cpu, bool quick);
    void cancel();
    bool isRunning() const;
    /// Imports a probe JSON file; returns false and shows the message on error.
    bool importFile(const QString &path);
    /// Reloads the run history from the database.
    void refreshHistory();
    int historyCount() const;
    Calibration calibration() const { return m_calibration; }
    QString statusText() const;

Q_SIGNALS:
    void calibrationChanged(const gf::Calibration &calibration);
    void runFinished(bool ok);

private:
    void onFinished(const ProbeOutcome &outcome);
    void showRun(int historyRow);
    void showMessage(const QString &text, bool error);
    CatalogStore *store();

    QString m_dbPath;
    std::unique_ptr<CatalogStore> m_store;
    ProbeRunner *m_runner = nullptr;
    QPushButton *m_quick = nullptr;
    QPushButton *m_full = nullptr;
    QPushButton *m_cpu = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_use = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_message = nullptr;
    QLabel *m_device = nullptr;
    QLabel *m_calibrationLabel = nullptr;
    QTableWidget *m_figures = nullptr;
    QTableWidget *m_history = nullptr;
    QList<ProbeRunRecord> m_runs;
    Calibration m_calibration;
    QString m_origin;
};

} // namespace gf

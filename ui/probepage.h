#pragma once

#include "probe/proberunner.h"
#include "projection/projection.h"
#include "viewmodels/catalogservice.h"

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
    explicit ProbePage(CatalogService *service, QWidget *parent = nullptr);
    ~ProbePage() override;

    /// Starts a probe: the GPU probe, or the CPU probe when `cpu`.
    void runProbe(bool cpu, bool quick);
    void cancel();
    bool isRunning() const;
    /// Imports a probe JSON file: returns false and shows the message when it is not a usable probe
    /// result; otherwise it is stored in the background and historyLoaded() follows.
    bool importFile(const QString &path);
    /// Reloads the run history from the database (in the background; historyLoaded() follows).
    void refreshHistory();
    int historyCount() const;
    Calibration calibration() const { return m_calibration; }
    QString statusText() const;

Q_SIGNALS:
    void calibrationChanged(const gf::Calibration &calibration);
    void runFinished(bool ok);
    /// The run history was (re)loaded from the database.
    void historyLoaded();

private:
    void onFinished(const ProbeOutcome &outcome);
    void showRun(int historyRow);
    void showMessage(const QString &text, bool error);
    void storeRun(const ProbeResult &result, const QString &origin, const QByteArray &json,
                  const QString &doneMessage, bool fromRun);
    void onRunsLoaded(quint64 request, const QList<ProbeRunRecord> &runs);
    void onRunAdded(quint64 request);
    void onFailed(quint64 request, const QString &message);

    CatalogService *m_service = nullptr;
    quint64 m_runsRequest = 0;
    quint64 m_addRequest = 0;
    QString m_addedMessage;      ///< shown once the run is stored
    bool m_addFromRun = false;   ///< the stored run came from runProbe (runFinished follows)
    bool m_selectNewest = false; ///< after the next history load: select the newest run and calibrate
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

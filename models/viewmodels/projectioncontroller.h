#pragma once

#include "projection/projectionresults.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace gf {

/// Recomputes the projection off the GUI thread whenever an input changes.
/// Changes arriving within a few milliseconds are coalesced; results of superseded jobs are dropped.
class ProjectionController final : public QObject
{
    Q_OBJECT
public:
    explicit ProjectionController(QObject *parent = nullptr);
    ~ProjectionController() override;

    /// The whole catalog; the filter selects the offers that are projected.
    void setOffers(QList<Offer> offers);
    void setFilter(const OfferFilter &filter);
    void setWorkload(const Workload &workload);
    void setOptions(const ProjectionOptions &options);
    void setCalibration(const Calibration &calibration);

    const Workload &workload() const { return m_workload; }
    const ProjectionOptions &options() const { return m_options; }
    const Calibration &calibration() const { return m_calibration; }
    ProjectionResultsPtr results() const { return m_results; }
    bool isBusy() const { return m_watcher.isRunning() || m_timer.isActive(); }
    quint64 latestJobId() const { return m_jobId; }
    /// Blocks until the newest job is published (tests, CLI-like use).
    void waitForIdle();

    /// Runs a projection synchronously on the calling thread (shared by the controller's worker).
    static ProjectionResults compute(quint64 jobId, const QList<Offer> &catalog, const OfferFilter &filter,
                                     const Workload &workload, const ProjectionOptions &options,
                                     const Calibration &calibration);

Q_SIGNALS:
    void started(quint64 jobId);
    void resultsReady(gf::ProjectionResultsPtr results);
    void failed(const QString &message);

private:
    void schedule();
    void start();
    void onFinished();

    QList<Offer> m_offers;
    OfferFilter m_filter;
    Workload m_workload;
    ProjectionOptions m_options;
    Calibration m_calibration;
    quint64 m_jobId = 0;
    quint64 m_runningJob = 0;
    bool m_pending = false;
    ProjectionResultsPtr m_results;
    QFutureWatcher<ProjectionResults> m_watcher;
    QTimer m_timer;
};

} // namespace gf

Q_DECLARE_METATYPE(gf::ProjectionResultsPtr)
Q_DECLARE_METATYPE(gf::Calibration)

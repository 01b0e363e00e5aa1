#pragma once

#include "projection/catalogprojection.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

#include <memory>

namespace gf {

/// Recomputes the projection (projectCatalog) off the GUI thread whenever an input changes.
/// Changes arriving within a few milliseconds are coalesced; results of superseded jobs are dropped.
class ProjectionController final : public QObject
{
    Q_OBJECT
public:
    explicit ProjectionController(QObject *parent = nullptr);
    ~ProjectionController() override;

    /// The whole catalog; the filter selects the offers that are projected. Starts at once (the other
    /// setters coalesce changes that arrive within a few milliseconds).
    void setOffers(QList<Offer> offers);
    void setFilter(const OfferFilter &filter);
    void setWorkload(const Workload &workload);
    void setOptions(const ProjectionOptions &options);
    void setCalibration(const Calibration &calibration);
    /// The user's imported measurements (the request's; ProjectionOptions::measurements is not read).
    void setMeasurements(const ThroughputMeasurements &measurements);

    const Workload &workload() const { return m_request.workload; }
    const ProjectionOptions &options() const { return m_request.options; }
    const Calibration &calibration() const { return m_request.calibration; }
    ProjectionResultsPtr results() const { return m_results; }
    /// A job runs, or its results are not handled yet (its future may be done while its finished event
    /// is still queued), or a change waits for the coalescing delay.
    bool isBusy() const { return m_running || m_timer.isActive(); }
    quint64 latestJobId() const { return m_jobId; }
    /// Blocks until the newest job is published (tests, CLI-like use).
    void waitForIdle();

Q_SIGNALS:
    void started(quint64 jobId);
    void resultsReady(gf::ProjectionResultsPtr results);
    void failed(const QString &message);

private:
    void schedule();
    void start();
    void onFinished();

    QList<Offer> m_offers;
    ProjectionRequest m_request; ///< jobId unused: m_jobId numbers the jobs
    quint64 m_jobId = 0;
    quint64 m_runningJob = 0;
    bool m_running = false; ///< from start() until onFinished() handled that job
    bool m_pending = false;
    ProjectionResultsPtr m_results;
    QFutureWatcher<ProjectionResults> m_watcher;
    QTimer m_timer;
};

} // namespace gf

Q_DECLARE_METATYPE(gf::ProjectionResultsPtr)
Q_DECLARE_METATYPE(gf::Calibration)

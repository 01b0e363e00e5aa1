#include "viewmodels/projectioncontroller.h"

#include <QEventLoop>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

ProjectionController::ProjectionController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<ProjectionResultsPtr>();
    m_request.calibration = defaultCalibration();
    if (!builtinWorkloads().isEmpty())
        m_request.workload = builtinWorkloads().first();
    m_timer.setSingleShot(true);
    m_timer.setInterval(15);
    connect(&m_timer, &QTimer::timeout, this, &ProjectionController::start);
    connect(&m_watcher, &QFutureWatcher<ProjectionResults>::finished, this,
            &ProjectionController::onFinished);
}

ProjectionController::~ProjectionController()
{
    m_watcher.waitForFinished();
}

void ProjectionController::setOffers(QList<Offer> offers)
{
    m_offers = std::move(offers);
    // A new catalog starts its projection now rather than after the coalescing delay: the GUI thread is
    // about to fill its tables with the catalog, and a timer would only fire once that is done.
    ++m_jobId;
    m_timer.stop();
    start();
}

void ProjectionController::setFilter(const OfferFilter &filter)
{
    m_request.filter = filter;
    schedule();
}

void ProjectionController::setWorkload(const Workload &workload)
{
    m_request.workload = workload;
    schedule();
}

void ProjectionController::setOptions(const ProjectionOptions &options)
{
    m_request.options = options;
    schedule();
}

void ProjectionController::setCalibration(const Calibration &calibration)
{
    m_request.calibration = calibration;
    schedule();
}

void ProjectionController::setMeasurements(const ThroughputMeasurements &measurements)
{
    m_request.measurements = measurements;
    schedule();
}

void ProjectionController::schedule()
{
    ++m_jobId;
    m_timer.start();
}

void ProjectionController::start()
{
    if (m_running) {
        // The running job is stale; its result will be dropped and the newest inputs run after it. (Not
        // the future's own state: a future that is done may still have its finished event queued, and a
        // new setFuture then would lose it or hand the newer job's result to it.)
        m_pending = true;
        return;
    }
    m_pending = false;
    if (auto st = validateWorkload(m_request.workload); !st) {
        Q_EMIT failed(st.error().text());
        return;
    }
    if (auto st = validateProjectionOptions(m_request.options); !st) {
        Q_EMIT failed(st.error().text());
        return;
    }
    m_runningJob = m_jobId;
    m_running = true;
    Q_EMIT started(m_runningJob);
    ProjectionRequest request = m_request;
    request.jobId = m_runningJob;
    if (!request.options.now.isValid())
        request.options.now = QDateTime::currentDateTimeUtc();
    m_watcher.setFuture(QtConcurrent::run(&projectCatalog, m_offers, std::move(request)));
}

void ProjectionController::onFinished()
{
    m_running = false;
    ProjectionResults r = m_watcher.result();
    if (r.jobId == m_jobId)
        m_results = std::make_shared<const ProjectionResults>(std::move(r));
    if (m_pending || r.jobId != m_jobId) {
        if (!m_timer.isActive())
            start();
        return;
    }
    Q_EMIT resultsReady(m_results);
}

void ProjectionController::waitForIdle()
{
    while (isBusy() || m_pending) {
        QEventLoop loop;
        QTimer::singleShot(5, &loop, &QEventLoop::quit);
        loop.exec();
    }
}

} // namespace gf

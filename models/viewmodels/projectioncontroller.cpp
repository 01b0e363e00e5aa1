#include "viewmodels/projectioncontroller.h"

#include <QElapsedTimer>
#include <QEventLoop>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

ProjectionController::ProjectionController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<ProjectionResultsPtr>();
    m_calibration = defaultCalibration();
    if (!builtinWorkloads().isEmpty())
        m_workload = builtinWorkloads().first();
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
    schedule();
}

void ProjectionController::setFilter(const OfferFilter &filter)
{
    m_filter = filter;
    schedule();
}

void ProjectionController::setWorkload(const Workload &workload)
{
    m_workload = workload;
    schedule();
}

void ProjectionController::setOptions(const ProjectionOptions &options)
{
    m_options = options;
    schedule();
}

void ProjectionController::setCalibration(const Calibration &calibration)
{
    m_calibration = calibration;
    schedule();
}

void ProjectionController::schedule()
{
    ++m_jobId;
    m_timer.start();
}

void ProjectionController::start()
{
    if (m_watcher.isRunning()) {
        // The running job is stale; its result will be dropped and the newest inputs run after it.
        m_pending = true;
        return;
    }
    m_pending = false;
    if (auto st = validateWorkload(m_workload); !st) {
        Q_EMIT failed(st.error().text());
        return;
    }
    if (auto st = validateProjectionOptions(m_options); !st) {
        Q_EMIT failed(st.error().text());
        return;
    }
    m_runningJob = m_jobId;
    Q_EMIT started(m_runningJob);
    ProjectionOptions options = m_options;
    if (!options.now.isValid())
        options.now = QDateTime::currentDateTimeUtc();
    m_watcher.setFuture(QtConcurrent::run(&ProjectionController::compute, m_runningJob, m_offers, m_filter,
                                          m_workload, options, m_calibration));
}

void ProjectionController::onFinished()
{
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

ProjectionResults ProjectionController::compute(quint64 jobId, const QList<Offer> &catalog,
                                                const OfferFilter &filter, const Workload &workload,
                                                const ProjectionOptions &options,
                                                const Calibration &calibration)
{
    QElapsedTimer timer;
    timer.start();
    ProjectionResults r;
    r.jobId = jobId;
    QList<Offer> offers;
    if (filter.isEmpty()) {
        offers = catalog;
        r.catalogIndex.resize(catalog.size());
        for (qsizetype i = 0; i < catalog.size(); ++i)
            r.catalogIndex[i] = i;
    } else {
        OfferMatcher matcher(filter);
        for (qsizetype i = 0; i < catalog.size(); ++i) {
            if (matcher.accepts(catalog.at(i))) {
                offers.append(catalog.at(i));
                r.catalogIndex.append(i);
            }
        }
    }
    r.points = projectOffers(offers, workload, options, calibration);
    r.recommended = recommendedIndex(r.points);
    r.primaryPoint = QList<qsizetype>(catalog.size(), -1);
    r.spotPoint = QList<qsizetype>(catalog.size(), -1);
    r.offerOnFrontier = QList<bool>(catalog.size(), false);
    for (qsizetype i = 0; i < r.points.size(); ++i) {
        const ProjectedOffer &p = r.points.at(i);
        r.frontierCount += p.onFrontier ? 1 : 0;
        r.projectedCount += p.projected ? 1 : 0;
        if (p.offerIndex < 0 || p.offerIndex >= offers.size())
            continue;
        const qsizetype row = r.catalogIndex.at(p.offerIndex);
        if (p.onFrontier)
            r.offerOnFrontier[row] = true;
        if (p.nodes != 1)
            continue;
        if (p.mode == PriceMode::Spot)
            r.spotPoint[row] = i;
        qsizetype &primary = r.primaryPoint[row];
        if (primary < 0) {
            primary = i;
            continue;
        }
        const ProjectedOffer &cur = r.points.at(primary);
        const bool better = (p.eligible() && !cur.eligible()) ||
                            (p.eligible() == cur.eligible() && p.projected && p.costUsd < cur.costUsd);
        if (better)
            primary = i;
    }
    r.offers = std::move(offers);
    r.filter = filter;
    r.workload = workload;
    r.options = options;
    r.calibration = calibration;
    const GpuSpecTable &specs = GpuSpecTable::builtin();
    const QList<SingleGpuSpeed> speeds = singleGpuSpeeds(workload, options, calibration, specs);
    for (qsizetype i = 0; i < speeds.size(); ++i)
        r.gpuSpeeds.insert(specs.specs().at(i).id, speeds.at(i));
    r.elapsedMs = timer.elapsed();
    return r;
}

} // namespace gf

#include "viewmodels/appstate.h"

namespace gf {

AppState::AppState(QString dbPath, QObject *parent) : QObject(parent), m_dbPath(std::move(dbPath))
{
    m_projection = new ProjectionController(this);
    m_service = new CatalogService(m_dbPath, this);
    m_calibration = m_projection->calibration();
    connect(m_service, &CatalogService::catalogLoaded, this, &AppState::onLoaded);
    connect(m_service, &CatalogService::failed, this, [this](quint64 request, const QString &message) {
        if (request != m_loadRequest)
            return; // a page's request: the page shows it
        m_loading = false;
        Q_EMIT loadFailed(message);
    });
    connect(m_projection, &ProjectionController::started, this, &AppState::projectionStarted);
    connect(m_projection, &ProjectionController::resultsReady, this, &AppState::onResults);
    connect(m_projection, &ProjectionController::failed, this, &AppState::projectionFailed);
}

AppState::~AppState() = default;

void AppState::reload()
{
    if (m_loading)
        return;
    m_loading = true;
    Q_EMIT loadStarted();
    m_loadRequest = m_service->loadCatalog();
}

void AppState::onLoaded(quint64 request, const CatalogLoad &load)
{
    if (request != m_loadRequest)
        return;
    m_loading = false;
    m_load = load;
    m_results.reset(); // computed for the catalog before
    m_calibration = load.calibration;
    m_projection->setCalibration(m_calibration);
    m_projection->setMeasurements(m_load.measurements);
    m_projection->setOffers(m_load.offers);
    Q_EMIT calibrationChanged(m_calibration);
    Q_EMIT catalogLoaded(m_load);
}

void AppState::onResults(const ProjectionResultsPtr &results)
{
    if (results && results->catalogSize() == m_load.offers.size())
        m_results = results;
    Q_EMIT resultsReady(results);
}

void AppState::setWorkload(const Workload &workload, const ProjectionOptions &options)
{
    m_projection->setWorkload(workload);
    m_projection->setOptions(options);
}

void AppState::setFilter(const OfferFilter &filter)
{
    m_projection->setFilter(filter);
}

void AppState::setCalibration(const Calibration &calibration)
{
    m_calibration = calibration;
    m_projection->setCalibration(calibration);
    Q_EMIT calibrationChanged(calibration);
}

void AppState::setSelectedRows(const QList<int> &rows)
{
    m_selectedRows = rows;
    Q_EMIT selectionChanged(rows);
}

} // namespace gf

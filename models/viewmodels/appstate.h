#pragma once

#include "viewmodels/catalogservice.h"
#include "viewmodels/projectioncontroller.h"

#include <QObject>

namespace gf {

/// The GUI's application state, apart from any window: the current catalog (offers, snapshots), the
/// imported measurements, the calibration, whether the database is read-only, the projection of the catalog
/// for the workload and filter (ProjectionController, off the GUI thread) and the offers the user selected.
/// Pages change it through its setters and learn of changes through its signals; MainWindow wires them.
/// Owns the CatalogService (every database read and write of the GUI) and the ProjectionController.
class AppState final : public QObject
{
    Q_OBJECT
public:
    explicit AppState(QString dbPath, QObject *parent = nullptr);
    ~AppState() override;

    QString dbPath() const { return m_dbPath; }
    CatalogService *catalogService() const { return m_service; }
    ProjectionController *projection() const { return m_projection; }

    /// The current catalog: the current snapshot of every provider (rows = catalog rows).
    const QList<Offer> &offers() const { return m_load.offers; }
    /// Every snapshot, newest first per provider.
    const QList<Snapshot> &snapshots() const { return m_load.snapshots; }
    const ThroughputMeasurements &measurements() const { return m_load.measurements; }
    const Calibration &calibration() const { return m_calibration; }
    bool isReadOnly() const { return m_load.readOnly; }
    bool isLoading() const { return m_loading; }
    /// The newest projection of the current catalog; null until one is done, and again when the catalog
    /// changes until its projection is.
    ProjectionResultsPtr results() const { return m_results; }
    /// The catalog rows selected (on the Offers page).
    const QList<int> &selectedRows() const { return m_selectedRows; }

    /// Loads the catalog from the database, off the GUI thread (loadStarted, then catalogLoaded or
    /// loadFailed); ignored while a load runs.
    void reload();
    void setWorkload(const Workload &workload, const ProjectionOptions &options);
    void setFilter(const OfferFilter &filter);
    /// A probe run chose another calibration (calibrationChanged).
    void setCalibration(const Calibration &calibration);
    void setSelectedRows(const QList<int> &rows);

Q_SIGNALS:
    void loadStarted();
    /// The state holds the new catalog (offers(), snapshots(), …); `load` says how the load went.
    void catalogLoaded(const gf::CatalogLoad &load);
    void loadFailed(const QString &message);
    void calibrationChanged(const gf::Calibration &calibration);
    void projectionStarted();
    /// Every result of the projection (results() keeps those of the current catalog).
    void resultsReady(gf::ProjectionResultsPtr results);
    void projectionFailed(const QString &message);
    void selectionChanged(const QList<int> &rows);

private:
    void onLoaded(quint64 request, const CatalogLoad &load);
    void onResults(const ProjectionResultsPtr &results);

    QString m_dbPath;
    CatalogService *m_service = nullptr;
    ProjectionController *m_projection = nullptr;
    CatalogLoad m_load;
    Calibration m_calibration;
    ProjectionResultsPtr m_results;
    QList<int> m_selectedRows;
    quint64 m_loadRequest = 0;
    bool m_loading = false;
};

} // namespace gf

#pragma once

#include "domain/offer.h"
#include "util/result.h"
#include "viewmodels/catalogservice.h"
#include "viewmodels/projectioncontroller.h"

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QProgressBar;
class QTabWidget;

namespace gf {

class CatalogService;
class CatalogsPage;
class ComparePage;
class FrontierPage;
class OffersPage;
class ProbePage;
class MeasurementsPage;
class WorkloadPanel;

/// What the background load hands to the GUI thread.

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    enum Page
    {
        OffersTab,
        FrontierTab,
        CompareTab,
        ProbeTab,
        CatalogsTab
    };

    explicit MainWindow(QString dbPath, QWidget *parent = nullptr);
    ~MainWindow() override;

    OffersPage *offersPage() const { return m_offers; }
    FrontierPage *frontierPage() const { return m_frontier; }
    ComparePage *comparePage() const { return m_compare; }
    ProbePage *probePage() const { return m_probe; }
    CatalogsPage *catalogsPage() const { return m_catalogs; }
    MeasurementsPage *measurementsPage() const { return m_measurementsPage; }
    WorkloadPanel *workloadPanel() const { return m_workload; }
    ProjectionController *projection() const { return m_projection; }
    QTabWidget *tabs() const { return m_tabs; }
    QString dbPath() const { return m_dbPath; }
    CatalogService *catalogService() const { return m_service; }
    /// Reloads the catalog from the database, off the GUI thread.
    void reload();
    bool isLoading() const { return m_loading; }
    /// Adds a page (Probe, Catalogs) after the built-in ones.
    void addPage(QWidget *page, const QString &title);

Q_SIGNALS:
    void catalogLoaded();
    void loadFailed(const QString &message);
    void projectionUpdated();

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void styleBanner();
    void onLoaded(quint64 request, const CatalogLoad &load);
    void onWorkloadChanged();
    void onResults(ProjectionResultsPtr results);
    void updateCompare();
    void showError(const QString &message);
    void showAbout();
    /// "Launch plan…" for these points (indexes into the current results); none: the recommended one.
    void openLaunchPlan(QList<qsizetype> points);
    QList<qsizetype> selectedOfferPoints() const;
    QList<qsizetype> selectedFrontierPoints() const;

    QString m_dbPath;
    QTabWidget *m_tabs = nullptr;
    OffersPage *m_offers = nullptr;
    FrontierPage *m_frontier = nullptr;
    ComparePage *m_compare = nullptr;
    ProbePage *m_probe = nullptr;
    CatalogsPage *m_catalogs = nullptr;
    MeasurementsPage *m_measurementsPage = nullptr;
    WorkloadPanel *m_workload = nullptr;
    QDockWidget *m_workloadDock = nullptr;
    ProjectionController *m_projection = nullptr;
    QLabel *m_banner = nullptr;
    QLabel *m_statusLabel = nullptr;
    QLabel *m_projectionLabel = nullptr;
    QProgressBar *m_busy = nullptr;
    CatalogService *m_service = nullptr;
    quint64 m_loadRequest = 0;
    QList<Snapshot> m_snapshots;
    bool m_loading = false;
};

} // namespace gf

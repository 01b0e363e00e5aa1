#pragma once

#include "domain/offer.h"
#include "util/result.h"
#include "viewmodels/appstate.h"

#include <QMainWindow>
#include <QPointer>

#include <optional>

class QAction;
class QDialog;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QTabWidget;

namespace gf {

class AnswerPage;
class CatalogService;
class CatalogsPage;
class ComparePage;
class FrontierPage;
class LaunchPlanner;
class OffersPage;
class ProbePage;
class ScenarioActions;
class MeasurementsPage;
class WorkloadPanel;

/// The main window: the pages, the workload dock, menus and status bar. The application's state (catalog,
/// snapshots, measurements, calibration, projection, selection) lives in AppState; the window wires the
/// pages to it: a page changes the state, the state's signals update the other pages.
class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    enum Page
    {
        AnswerTab,
        OffersTab,
        FrontierTab,
        CompareTab,
        ProbeTab,
        CatalogsTab
    };

    explicit MainWindow(QString dbPath, QWidget *parent = nullptr);
    ~MainWindow() override;

    AnswerPage *answerPage() const { return m_answer; }
    OffersPage *offersPage() const { return m_offers; }
    FrontierPage *frontierPage() const { return m_frontier; }
    ComparePage *comparePage() const { return m_compare; }
    ProbePage *probePage() const { return m_probe; }
    CatalogsPage *catalogsPage() const { return m_catalogs; }
    MeasurementsPage *measurementsPage() const { return m_measurementsPage; }
    WorkloadPanel *workloadPanel() const { return m_workload; }
    ProjectionController *projection() const { return m_state->projection(); }
    QTabWidget *tabs() const { return m_tabs; }
    QString dbPath() const { return m_state->dbPath(); }
    CatalogService *catalogService() const { return m_state->catalogService(); }
    AppState *state() const { return m_state; }
    /// A catalog of more offers than this is large (default kLargeCatalogOffers; tests: 0): it shows its
    /// answer before the Offers table is filled, and the Offers page works on it on a worker
    /// (OffersPage::setLargeCatalogAbove).
    void setLargeCatalogAbove(int offers);
    LaunchPlanner *launchPlanner() const { return m_launchPlanner; }
    /// File > Open / Save / Compare scenarios (ui/scenarioactions.h).
    ScenarioActions *scenarioActions() const { return m_scenarios; }
    /// Reloads the catalog from the database, off the GUI thread.
    void reload();
    bool isLoading() const { return m_state->isLoading(); }
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
    // The constructor's steps.
    void buildPages();
    void buildWorkloadDock();
    void buildCurrencyMenu(QMenu *view);
    void buildStatusBar();
    void connectState();
    void connectAnswerPage();
    void buildFileMenu();
    void buildViewMenu();
    void buildHelpMenu();
    void addScenarioActions(QMenu *file);
    void restoreWindow();

    void styleBanner();
    void onLoaded(const CatalogLoad &load);
    /// Hands the loaded catalog to the Offers page, which says catalogLoaded once it shows it. A large
    /// catalog (OffersPage::largeCatalogAbove) waits for its first answer (or a failed projection, or the
    /// Offers tab): the Offers page prepares it on a worker, beside the answer rather than before it.
    void fillOffers();
    void onWorkloadChanged();
    void onResults(ProjectionResultsPtr results);
    void updateCompare();
    void showError(const QString &message);
    void showAbout();
    void showGuide();
    void openExport(bool chartImage);
    /// "Launch plan…" for the selected offers, or on the Frontier page its selected points; none: the
    /// recommended point.
    void openLaunchPlanForCurrentPage();
    void openLaunchPlanForOffers();
    void openLaunchPlanForFrontier();

    AppState *m_state = nullptr;
    LaunchPlanner *m_launchPlanner = nullptr;
    ScenarioActions *m_scenarios = nullptr;
    QTabWidget *m_tabs = nullptr;
    AnswerPage *m_answer = nullptr;
    OffersPage *m_offers = nullptr;
    FrontierPage *m_frontier = nullptr;
    ComparePage *m_compare = nullptr;
    ProbePage *m_probe = nullptr;
    CatalogsPage *m_catalogs = nullptr;
    MeasurementsPage *m_measurementsPage = nullptr;
    WorkloadPanel *m_workload = nullptr;
    QDockWidget *m_workloadDock = nullptr;
    QAction *m_groupedAction = nullptr;
    QPointer<QDialog> m_guide; ///< the quick guide, made when first asked for
    QLabel *m_banner = nullptr;
    QLabel *m_statusLabel = nullptr;
    QLabel *m_projectionLabel = nullptr;
    QLabel *m_currencyLabel = nullptr;
    QProgressBar *m_busy = nullptr;
    std::optional<CatalogLoad> m_pendingOffers; ///< loaded, not yet in the Offers table (fillOffers)
    bool m_fillingOffers = false; ///< fillOffers handed the Offers page a catalog it does not show yet
};

} // namespace gf

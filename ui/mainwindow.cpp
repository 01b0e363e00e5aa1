#include "mainwindow.h"
#include "answerpage.h"
#include "apptheme.h"
#include "uistyle.h"

#include "catalogspage.h"
#include "comparepage.h"
#include "currencydialog.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "elidedlabel.h"
#include "exportdialog.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "launchplanner.h"
#include "measurementspage.h"
#include "offerspage.h"
#include "probepage.h"
#include "scenarioactions.h"
#include "util/resourcefiles.h"
#include "viewmodels/catalogservice.h"
#include "viewmodels/displaycurrency.h"
#include "viewmodels/offertablemodel.h"
#include "viewmodels/pointgroupmodel.h"
#include "viewmodels/pointtablemodel.h"
#include "workloadpanel.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDesktopServices>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace gf {

MainWindow::MainWindow(QString dbPath, QWidget *parent) : QMainWindow(parent)
{
    setWindowTitle(tr("GPU Frontier"));
    setObjectName(QStringLiteral("mainWindow"));
    m_state = new AppState(std::move(dbPath), this);
    m_launchPlanner = new LaunchPlanner(this);
    buildPages();
    buildWorkloadDock();
    buildStatusBar();
    connectState();
    connectAnswerPage();
    buildFileMenu();
    buildViewMenu();
    buildHelpMenu();
    restoreWindow();
    onWorkloadChanged();
    reload();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildPages()
{
    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    m_banner = new QLabel(central);
    m_banner->setObjectName(QStringLiteral("errorBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    styleBanner();
    m_banner->hide();
    layout->addWidget(m_banner);

    CatalogService *service = m_state->catalogService();
    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_answer = new AnswerPage(m_tabs);
    m_offers = new OffersPage(m_tabs);
    m_frontier = new FrontierPage(m_tabs);
    m_compare = new ComparePage(m_tabs);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this] {
        if (m_tabs->currentWidget() == m_offers)
            fillOffers();
    });
    m_tabs->addTab(m_answer, tr("A&nswer"));
    m_tabs->addTab(m_offers, tr("&Offers"));
    m_tabs->addTab(m_frontier, tr("&Frontier"));
    m_tabs->addTab(m_compare, tr("Co&mpare"));
    m_probe = new ProbePage(service, m_tabs);
    m_tabs->addTab(m_probe, tr("&Probe"));
    m_catalogs = new CatalogsPage(service, m_tabs);
    m_tabs->addTab(m_catalogs, tr("C&atalogs"));
    m_measurementsPage = new MeasurementsPage(service, m_tabs);
    m_tabs->addTab(m_measurementsPage, tr("Measu&rements"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);
}

void MainWindow::buildWorkloadDock()
{
    m_workload = new WorkloadPanel(this);
    auto *scroll = new QScrollArea(this);
    scroll->setWidget(m_workload);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(330);
    m_workloadDock = new QDockWidget(tr("Workload"), this);
    m_workloadDock->setObjectName(QStringLiteral("workloadDock"));
    m_workloadDock->setWidget(scroll);
    m_workloadDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetClosable |
                                QDockWidget::DockWidgetFloatable);
    m_workloadDock->setMaximumWidth(480);
    addDockWidget(Qt::LeftDockWidgetArea, m_workloadDock);
}

void MainWindow::buildStatusBar()
{
    m_statusLabel = new ElidedLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addWidget(m_statusLabel, 1);
    m_projectionLabel = new ElidedLabel(this);
    m_projectionLabel->setObjectName(QStringLiteral("projectionStatus"));
    statusBar()->addPermanentWidget(m_projectionLabel);
    // The display currency and its rate, when prices are not shown in USD.
    m_currencyLabel = new QLabel(this);
    m_currencyLabel->setObjectName(QStringLiteral("currencyStatus"));
    statusBar()->addPermanentWidget(m_currencyLabel);
    auto showCurrency = [this] {
        const Currency &c = DisplayCurrency::instance().current();
        m_currencyLabel->setVisible(!c.isUsd());
        m_currencyLabel->setText(
            c.isUsd()
                ? QString()
                : tr("Prices in %1 · %2 (%3)").arg(c.code, c.rateFigure(), c.date.toString(Qt::ISODate)));
        m_currencyLabel->setToolTip(DisplayCurrency::instance().rateToolTip());
    };
    showCurrency();
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, showCurrency);
    // The Compare page formats its prices when it is filled: fill it again in the new currency.
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, &MainWindow::updateCompare);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setVisible(false);
    statusBar()->addPermanentWidget(m_busy);
    connect(m_offers, &OffersPage::summaryChanged, m_statusLabel, &QLabel::setText);
    connect(m_launchPlanner, &LaunchPlanner::statusMessage, this, [this](const QString &text, int timeoutMs) {
        if (text.isEmpty())
            statusBar()->clearMessage();
        else
            statusBar()->showMessage(text, timeoutMs);
    });
}

void MainWindow::connectState()
{
    // Data flow: a page changes the state (workload, filter, calibration, selection, a new catalog) ->
    // the projection runs in the background -> the state's signals update the pages.
    connect(m_workload, &WorkloadPanel::changed, this, &MainWindow::onWorkloadChanged);
    connect(m_offers, &OffersPage::filterChanged, m_state, &AppState::setFilter);
    connect(m_offers, &OffersPage::selectionChanged, m_state, &AppState::setSelectedRows);
    connect(m_offers, &OffersPage::offersShown, this, [this] {
        if (std::exchange(m_fillingOffers, false))
            Q_EMIT catalogLoaded();
    });
    connect(m_probe, &ProbePage::calibrationChanged, m_state, &AppState::setCalibration);
    connect(m_catalogs, &CatalogsPage::catalogChanged, this, &MainWindow::reload);
    connect(m_measurementsPage, &MeasurementsPage::measurementsChanged, this, &MainWindow::reload);

    connect(m_state, &AppState::loadStarted, this,
            [this] { m_statusLabel->setText(tr("Loading the catalog from %1 …").arg(m_state->dbPath())); });
    connect(m_state, &AppState::catalogLoaded, this, &MainWindow::onLoaded);
    connect(m_state, &AppState::loadFailed, this, [this](const QString &message) {
        showError(message);
        m_answer->setUpdating(false);
        m_answer->showProblem(message);
        Q_EMIT loadFailed(message);
    });
    connect(m_state, &AppState::calibrationChanged, m_measurementsPage, &MeasurementsPage::setCalibration);
    connect(m_state, &AppState::projectionStarted, this, [this] {
        m_busy->setVisible(true);
        m_answer->setUpdating(true);
    });
    connect(m_state, &AppState::resultsReady, this, &MainWindow::onResults);
    connect(m_state, &AppState::projectionFailed, this, [this](const QString &message) {
        m_busy->setVisible(false);
        m_answer->showProblem(message);
        m_projectionLabel->setText(tr("Projection: %1").arg(message));
        m_projectionLabel->setToolTip(m_projectionLabel->text());
        fillOffers(); // no answer is coming to wait for
    });
    connect(m_state, &AppState::selectionChanged, this, [this](const QList<int> &rows) {
        m_frontier->highlightCatalogRows(rows);
        updateCompare();
    });

    // Between pages: a point clicked on the Frontier page shows its offer; one grouping for both tables.
    connect(m_frontier, &FrontierPage::catalogRowActivated, m_offers, &OffersPage::selectCatalogRow);
    connect(m_offers, &OffersPage::groupedChanged, m_frontier, &FrontierPage::setGrouped);
}

void MainWindow::connectAnswerPage()
{
    // The Answer page's next steps: each opens what the menus open, for the points it names.
    connect(m_answer, &AnswerPage::launchPlanRequested, m_launchPlanner, &LaunchPlanner::open);
    connect(m_answer, &AnswerPage::exportRequested, this, [this] { openExport(false); });
    connect(m_answer, &AnswerPage::compareRequested, this, [this](const QList<int> &rows) {
        m_offers->selectCatalogRows(rows); // the selection is what the Compare page shows
        m_tabs->setCurrentWidget(m_compare);
    });
    connect(m_answer, &AnswerPage::frontierRequested, this, [this](int row) {
        if (row >= 0)
            m_offers->selectCatalogRow(row);
        m_tabs->setCurrentWidget(m_frontier);
    });
    connect(m_answer, &AnswerPage::limitsRequested, this,
            [this](std::optional<double> deadlineHours, std::optional<double> budgetUsd) {
                if (deadlineHours)
                    m_workload->setDeadlineHours(*deadlineHours);
                if (budgetUsd)
                    m_workload->setBudgetUsd(*budgetUsd);
            });
    connect(m_answer, &AnswerPage::includeSuspectRequested, this,
            [this] { m_workload->setIncludeSuspect(true); });
}

void MainWindow::buildFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *reloadAction = file->addAction(tr("&Reload catalog"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence(Qt::Key_F5)); // QKeySequence::Refresh differs per platform
    file->addSeparator();
    addScenarioActions(file);
    file->addSeparator();
    // Reports and chart images (ui/exportdialog.h): the dialog gets a snapshot of the current state.
    QAction *exportReport = file->addAction(tr("&Export report…"), this, [this] { openExport(false); });
    exportReport->setObjectName(QStringLiteral("exportReportAction"));
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction *exportChart = file->addAction(tr("Export chart &image…"), this, [this] { openExport(true); });
    exportChart->setObjectName(QStringLiteral("exportChartAction"));
    file->addSeparator();
    // SkyPilot launch plans: the selected offers (Offers page), else the recommended point.
    QAction *launchPlan =
        file->addAction(tr("&Launch plan…"), this, &MainWindow::openLaunchPlanForCurrentPage);
    launchPlan->setObjectName(QStringLiteral("launchPlanAction"));
    launchPlan->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    launchPlan->setToolTip(tr("Write SkyPilot tasks for the selected offers (else the recommended one)"));
    QAction *importMeasurements = file->addAction(tr("Import &measurements…"), this, [this] {
        m_tabs->setCurrentWidget(m_measurementsPage);
        m_measurementsPage->chooseFilesToImport();
    });
    importMeasurements->setObjectName(QStringLiteral("importMeasurementsAction"));
    auto *offersLaunch = new QAction(tr("Launch plan for the selected offers…"), this);
    offersLaunch->setObjectName(QStringLiteral("offersLaunchPlanAction"));
    connect(offersLaunch, &QAction::triggered, this, &MainWindow::openLaunchPlanForOffers);
    m_offers->addRowAction(offersLaunch); // in the table's context menu, beside "Where is ... cheapest?"
    auto *frontierLaunch = new QAction(tr("Launch plan for this point…"), this);
    frontierLaunch->setObjectName(QStringLiteral("frontierLaunchPlanAction"));
    connect(frontierLaunch, &QAction::triggered, this, &MainWindow::openLaunchPlanForFrontier);
    m_frontier->frontierView()->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_frontier->frontierView()->addAction(frontierLaunch);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // QKeySequence::Quit is empty on some platforms
}

void MainWindow::addScenarioActions(QMenu *file)
{
    m_scenarios = new ScenarioActions(this, m_workload, m_offers, m_state);
    m_scenarios->addTo(file);
    connect(m_scenarios, &ScenarioActions::statusMessage, this,
            [this](const QString &text, int timeoutMs) { statusBar()->showMessage(text, timeoutMs); });
}

void MainWindow::buildViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *find = view->addAction(tr("&Find offers"), this, [this] {
        m_tabs->setCurrentWidget(m_offers);
        m_offers->focusSearch();
    });
    find->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_F));
    QAction *resetFilters = view->addAction(tr("Reset &filters"), m_offers, &OffersPage::resetFilters);
    resetFilters->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    QAction *toggleDock = m_workloadDock->toggleViewAction();
    toggleDock->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    view->addAction(toggleDock);
    QAction *resetZoom =
        view->addAction(tr("Reset chart &zoom"), m_frontier->chart(), &FrontierChart::resetZoom);
    resetZoom->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_0));
    view->addSeparator();
    m_groupedAction = view->addAction(tr("One row per &instance type"));
    m_groupedAction->setObjectName(QStringLiteral("groupOffersAction"));
    m_groupedAction->setCheckable(true);
    m_groupedAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    m_groupedAction->setToolTip(tr("Offers and Frontier tables: one row per instance type and pricing, "
                                   "expandable to its regions and zones, or one row per offer"));
    connect(m_groupedAction, &QAction::toggled, m_offers, &OffersPage::setGrouped);
    connect(m_offers, &OffersPage::groupedChanged, m_groupedAction, &QAction::setChecked);
    QMenu *colours = view->addMenu(tr("&Colours"));
    colours->setObjectName(QStringLiteral("coloursMenu"));
    auto *themes = new QActionGroup(this);
    for (const auto &[theme, label] :
         {std::pair{Theme::System, tr("&System")}, std::pair{Theme::Light, tr("&Light")},
          std::pair{Theme::Dark, tr("&Dark")}}) {
        QAction *a = colours->addAction(label);
        a->setObjectName(QStringLiteral("theme_") + themeName(theme));
        a->setCheckable(true);
        a->setChecked(currentTheme() == theme);
        themes->addAction(a);
        const Theme chosen = theme;
        connect(a, &QAction::triggered, this, [chosen] {
            applyTheme(chosen);
            saveTheme(chosen);
        });
    }
    buildCurrencyMenu(view);
    view->addSeparator();
    for (int i = 0; i < 9; ++i) {
        auto *a = new QAction(this);
        a->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + i)));
        connect(a, &QAction::triggered, this, [this, i] {
            if (i < m_tabs->count())
                m_tabs->setCurrentIndex(i);
        });
        addAction(a);
    }
}

void MainWindow::buildCurrencyMenu(QMenu *view)
{
    // View > Currency: the currency every price is shown in (DisplayCurrency), and the rate table.
    QMenu *menu = view->addMenu(tr("C&urrency"));
    menu->setObjectName(QStringLiteral("currencyMenu"));
    auto *group = new QActionGroup(this);
    for (const Currency &c : DisplayCurrency::instance().table().currencies()) {
        QAction *a = menu->addAction(QStringLiteral("%1 — %2").arg(c.code, c.name));
        a->setObjectName(QStringLiteral("currency_") + c.code);
        a->setCheckable(true);
        group->addAction(a);
        const QString code = c.code;
        connect(a, &QAction::triggered, this, [code] { (void)DisplayCurrency::instance().setCode(code); });
    }
    menu->addSeparator();
    QAction *rates = menu->addAction(tr("&Exchange rates…"), this, [this] {
        ExchangeRatesDialog dialog(this);
        dialog.exec();
    });
    rates->setObjectName(QStringLiteral("exchangeRatesAction"));
    // The checked currency and each one's rate (tooltip) follow the display currency.
    auto update = [group] {
        const DisplayCurrency &money = DisplayCurrency::instance();
        for (QAction *a : group->actions()) {
            const QString code = a->objectName().mid(QStringLiteral("currency_").size());
            a->setChecked(code == money.code());
            if (const auto c = money.table().find(code))
                a->setToolTip(c->rateText());
        }
    };
    update();
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, update);
}

void MainWindow::buildHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&Quick guide"));
    guide->setObjectName(QStringLiteral("quickGuide"));
    guide->setShortcut(QKeySequence(Qt::Key_F1));
    connect(guide, &QAction::triggered, this, &MainWindow::showGuide);
    help->addSeparator();
    help->addAction(tr("&About GPU Frontier"), this, &MainWindow::showAbout);
}

void MainWindow::restoreWindow()
{
    QSettings s;
    const bool restored = restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    if (!restored || width() < 800 || height() < 500) {
        // 1440 x 860 where the screen has room, else the screen's free area (1366 x 768 laptops).
        QSize size(1440, 860);
        if (const QScreen *screen = QGuiApplication::primaryScreen())
            size = size.boundedTo(screen->availableGeometry().size() - QSize(16, 40));
        resize(size);
    }
    m_offers->restoreState();
    m_groupedAction->setChecked(m_offers->isGrouped());
    m_frontier->setGrouped(m_offers->isGrouped());
    m_frontier->restoreState();
    m_workload->restoreState();
}

void MainWindow::addPage(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

void MainWindow::reload()
{
    m_state->reload();
}

void MainWindow::onLoaded(const CatalogLoad &load)
{
    m_banner->hide();
    // (The projection of the new catalog is already running: AppState handed it the offers first.)
    m_catalogs->setReadOnly(load.readOnly);
    QStringList banner;
    if (load.readOnly)
        banner.append(tr("%1 is read-only (no write access to it or its folder): the catalog is shown, "
                         "but refreshing, importing and storing probe runs are off.")
                          .arg(m_state->dbPath()));
    if (!load.calibrationProblem.isEmpty())
        banner.append(tr("The stored probe runs could not be read (%1): the projection uses the default "
                         "calibration.")
                          .arg(load.calibrationProblem));
    if (!banner.isEmpty()) {
        m_banner->setText(banner.join(u'\n'));
        m_banner->show();
    }
    if (load.bundledImported > 0)
        statusBar()->showMessage(tr("First start: imported the bundled price snapshot of %n provider(s).",
                                    nullptr, load.bundledImported),
                                 8000);
    m_pendingOffers = load;
    m_fillingOffers = false; // an older catalog still on a worker is not this one
    if (load.offers.size() <= m_offers->largeCatalogAbove() || m_tabs->currentWidget() == m_offers)
        fillOffers();
    else {
        m_offers->setOffers({}, load.snapshots); // not the previous catalog's rows meanwhile
        m_statusLabel->setText(tr("Loaded %n offer(s); the Offers table follows the answer …", nullptr,
                                  static_cast<int>(load.offers.size())));
    }
}

void MainWindow::fillOffers()
{
    if (!m_pendingOffers)
        return;
    CatalogLoad load = std::move(*m_pendingOffers);
    m_pendingOffers.reset();
    m_fillingOffers = true;
    // With the projection of this catalog when it came first (the page keeps it only when it is for it).
    m_offers->setOffers(load.offers, load.snapshots, m_state->results());
}

void MainWindow::setLargeCatalogAbove(int offers)
{
    m_offers->setLargeCatalogAbove(offers);
}

void MainWindow::onWorkloadChanged()
{
    auto w = m_workload->workload();
    if (!w) {
        m_projectionLabel->setText(tr("Workload: %1").arg(w.error().message));
        m_projectionLabel->setToolTip(m_projectionLabel->text());
        return;
    }
    m_state->setWorkload(w.value(), m_workload->options());
}

void MainWindow::openExport(bool chartImage)
{
    ExportContext ctx;
    ctx.results = m_state->results();
    ctx.catalog = m_state->offers();
    ctx.snapshots = m_state->snapshots();
    ctx.selectedCatalogRows = m_state->selectedRows();
    ctx.filter = ctx.results ? ctx.results->filter : OfferFilter{};
    ctx.chartWidget = m_frontier->chart();
    auto *dialog = new ExportDialog(std::move(ctx), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    if (chartImage && dialog->kind() != ExportKind::ChartSvg)
        dialog->setKind(ExportKind::ChartPng);
    else if (!chartImage &&
             (dialog->kind() == ExportKind::ChartPng || dialog->kind() == ExportKind::ChartSvg))
        dialog->setKind(ExportKind::Html);
    dialog->show(); // non-modal: the export runs in the background
}

void MainWindow::openLaunchPlanForCurrentPage()
{
    if (m_tabs->currentWidget() == m_frontier)
        openLaunchPlanForFrontier();
    else if (m_tabs->currentWidget() == m_answer && m_state->selectedRows().isEmpty())
        m_launchPlanner->open(m_state->results(), m_answer->answer().recommended >= 0
                                                      ? QList<qsizetype>{m_answer->answer().recommended}
                                                      : QList<qsizetype>{});
    else
        openLaunchPlanForOffers();
}

void MainWindow::openLaunchPlanForOffers()
{
    // The selected catalog rows' points in the projection of the current catalog.
    const ProjectionResultsPtr r = m_state->results();
    QList<qsizetype> points;
    if (r)
        for (int row : m_state->selectedRows())
            if (const qsizetype p = r->pointForRow(row); p >= 0)
                points.append(p);
    m_launchPlanner->open(r, points);
}

void MainWindow::openLaunchPlanForFrontier()
{
    // The points of the results the Frontier page shows.
    m_launchPlanner->open(m_frontier->results(), m_frontier->selectedPoints());
}

void MainWindow::onResults(ProjectionResultsPtr results)
{
    m_busy->setVisible(false);
    // Until the first catalog is loaded the Answer page says so: a projection of no offers (the workload
    // set before the catalog arrived) is not an answer ("no offer fits").
    if (!(m_state->isLoading() && m_state->offers().isEmpty()))
        m_answer->setResults(results);
    m_offers->setProjection(results);
    if (m_pendingOffers && m_state->results() == results)
        QTimer::singleShot(50, this, &MainWindow::fillOffers); // once the answer is painted
    m_frontier->setResults(results);
    m_frontier->highlightCatalogRows(m_offers->selectedRows());
    updateCompare();
    m_projectionLabel->setText(tr("%1: %2 offers projected, %3 on the frontier (%4 ms)")
                                   .arg(results->workload.name, QString::number(results->projectedCount),
                                        QString::number(results->frontierCount),
                                        QString::number(results->elapsedMs)));
    // The whole line (it may be elided) and how the projection was calibrated.
    m_projectionLabel->setToolTip(m_projectionLabel->text() + QStringLiteral("\n\nCalibration: ") +
                                  results->calibration.source + QStringLiteral("\n") +
                                  results->calibration.notes.join(QStringLiteral("\n")));
    Q_EMIT projectionUpdated();
}

void MainWindow::updateCompare()
{
    m_compare->setOffers(m_state->offers(), m_state->selectedRows(), m_state->results());
}

void MainWindow::styleBanner()
{
    m_banner->setStyleSheet(
        QStringLiteral("QLabel { padding: 6px; border-radius: 4px; background: palette(tooltip-base); "
                       "color: palette(tooltip-text); border: 1px solid %1; }")
            .arg(errorColor(palette()).name()));
}

void MainWindow::changeEvent(QEvent *event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_banner)
        styleBanner();
}

void MainWindow::showError(const QString &message)
{
    m_banner->setText(message);
    m_banner->show();
    m_statusLabel->setText(tr("Error: %1").arg(message));
}

void MainWindow::showGuide()
{
    if (!m_guide) {
        auto *dialog = new QDialog(this);
        m_guide = dialog;
        dialog->setObjectName(QStringLiteral("guideDialog"));
        dialog->setWindowTitle(tr("Quick guide")); // Qt appends " — GPU Frontier"
        auto *browser = new QTextBrowser(dialog);
        browser->setObjectName(QStringLiteral("guideBrowser"));
        browser->setHtml(readResourceText(QStringLiteral("help/guide.html")));
        auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
        connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::hide);
        auto *box = new QVBoxLayout(dialog);
        box->addWidget(browser, 1);
        box->addWidget(buttons);
        dialog->resize(QSize(640, 720).boundedTo(size()));
    }
    m_guide->show(); // not modal: the guide can stay open beside the window
    m_guide->raise();
    m_guide->activateWindow();
}

void MainWindow::showAbout()
{
    QString sources;
    for (const Snapshot &s : m_state->snapshots()) {
        if (!s.current)
            continue;
        sources += QStringLiteral("<li>%1: %2, prices dated %3 (%4 offers)</li>")
                       .arg(providerDisplayName(s.provider).toHtmlEscaped(), s.origin.toHtmlEscaped(),
                            s.dataDate.isValid() ? s.dataDate.toString(Qt::ISODate)
                                                 : s.fetchedAt.toString(Qt::ISODate),
                            QString::number(s.rowCount));
    }
    QMessageBox::about(
        this, tr("About GPU Frontier"),
        tr("<h3>GPU Frontier %1</h3>"
           "<p>Where to train: cloud GPU offers by cost and training time.</p>"
           "<p>Qt %2 (built with %3)<br>Catalog database: %4</p>"
           "<p>Current price data:</p><ul>%5</ul>"
           "<p>GPU datasheet figures: resources/gpu_specs.csv; workloads: resources/workloads.json.</p>")
            .arg(QStringLiteral(GPUFRONTIER_VERSION), QString::fromLatin1(qVersion()),
                 QStringLiteral(QT_VERSION_STR), m_state->dbPath().toHtmlEscaped(), sources));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    m_offers->saveState();
    m_frontier->saveState();
    m_workload->saveState();
    event->accept();
}

} // namespace gf

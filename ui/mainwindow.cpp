#include "mainwindow.h"
#include "apptheme.h"
#include "uistyle.h"

#include "catalogspage.h"
#include "comparepage.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "elidedlabel.h"
#include "exportdialog.h"
#include "frontierchart.h"
#include "frontierpage.h"
#include "launch/launchplan.h"
#include "launch/offerid.h"
#include "launchplandialog.h"
#include "measurementspage.h"
#include "offerspage.h"
#include "probepage.h"
#include "util/resourcefiles.h"
#include "viewmodels/catalogservice.h"
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
#include <QTreeView>
#include <QUrl>
#include <QVBoxLayout>

namespace gf {

MainWindow::MainWindow(QString dbPath, QWidget *parent) : QMainWindow(parent), m_dbPath(std::move(dbPath))
{
    setWindowTitle(tr("GPU Frontier"));
    setObjectName(QStringLiteral("mainWindow"));
    m_projection = new ProjectionController(this);
    m_service = new CatalogService(m_dbPath, this);

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

    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_offers = new OffersPage(m_tabs);
    m_frontier = new FrontierPage(m_tabs);
    m_compare = new ComparePage(m_tabs);
    m_tabs->addTab(m_offers, tr("&Offers"));
    m_tabs->addTab(m_frontier, tr("&Frontier"));
    m_tabs->addTab(m_compare, tr("Co&mpare"));
    m_probe = new ProbePage(m_service, m_tabs);
    m_tabs->addTab(m_probe, tr("&Probe"));
    m_catalogs = new CatalogsPage(m_service, m_tabs);
    m_tabs->addTab(m_catalogs, tr("C&atalogs"));
    m_measurementsPage = new MeasurementsPage(m_service, m_tabs);
    m_tabs->addTab(m_measurementsPage, tr("Measu&rements"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

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

    m_statusLabel = new ElidedLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addWidget(m_statusLabel, 1);
    m_projectionLabel = new ElidedLabel(this);
    m_projectionLabel->setObjectName(QStringLiteral("projectionStatus"));
    statusBar()->addPermanentWidget(m_projectionLabel);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(120);
    m_busy->setVisible(false);
    statusBar()->addPermanentWidget(m_busy);
    connect(m_offers, &OffersPage::summaryChanged, m_statusLabel, &QLabel::setText);

    // Data flow: workload/filter -> projection (background) -> pages.
    connect(m_workload, &WorkloadPanel::changed, this, &MainWindow::onWorkloadChanged);
    connect(m_offers, &OffersPage::filterChanged, m_projection, &ProjectionController::setFilter);
    connect(m_projection, &ProjectionController::started, this, [this] { m_busy->setVisible(true); });
    connect(m_projection, &ProjectionController::resultsReady, this, &MainWindow::onResults);
    connect(m_projection, &ProjectionController::failed, this, [this](const QString &message) {
        m_busy->setVisible(false);
        m_projectionLabel->setText(tr("Projection: %1").arg(message));
        m_projectionLabel->setToolTip(m_projectionLabel->text());
    });
    connect(m_catalogs, &CatalogsPage::catalogChanged, this, &MainWindow::reload);
    connect(m_probe, &ProbePage::calibrationChanged, m_projection, &ProjectionController::setCalibration);
    connect(m_probe, &ProbePage::calibrationChanged, m_measurementsPage, &MeasurementsPage::setCalibration);
    connect(m_measurementsPage, &MeasurementsPage::measurementsChanged, this, &MainWindow::reload);
    connect(m_frontier, &FrontierPage::catalogRowActivated, m_offers, &OffersPage::selectCatalogRow);
    connect(m_offers, &OffersPage::groupedChanged, m_frontier, &FrontierPage::setGrouped);
    connect(m_offers, &OffersPage::selectionChanged, this, [this](const QList<int> &rows) {
        m_frontier->highlightCatalogRows(rows);
        updateCompare();
    });

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *reloadAction = file->addAction(tr("&Reload catalog"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence(Qt::Key_F5)); // QKeySequence::Refresh differs per platform
    file->addSeparator();
    // Reports and chart images (ui/exportdialog.h): the dialog gets a snapshot of the current state.
    auto openExport = [this](bool chartImage) {
        ExportContext ctx;
        ctx.results = m_projection->results();
        ctx.catalog = m_offers->model()->offers();
        ctx.snapshots = m_snapshots;
        ctx.selectedCatalogRows = m_offers->selectedRows();
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
    };
    QAction *exportReport = file->addAction(tr("&Export report…"), this, [openExport] { openExport(false); });
    exportReport->setObjectName(QStringLiteral("exportReportAction"));
    exportReport->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    QAction *exportChart =
        file->addAction(tr("Export chart &image…"), this, [openExport] { openExport(true); });
    exportChart->setObjectName(QStringLiteral("exportChartAction"));
    file->addSeparator();
    // SkyPilot launch plans: the selected offers (Offers page), else the recommended point.
    QAction *launchPlan = file->addAction(tr("&Launch plan…"), this, [this] {
        openLaunchPlan(m_tabs->currentWidget() == m_frontier ? selectedFrontierPoints()
                                                             : selectedOfferPoints());
    });
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
    connect(offersLaunch, &QAction::triggered, this, [this] { openLaunchPlan(selectedOfferPoints()); });
    m_offers->addRowAction(offersLaunch); // in the table's context menu, beside "Where is ... cheapest?"
    auto *frontierLaunch = new QAction(tr("Launch plan for this point…"), this);
    frontierLaunch->setObjectName(QStringLiteral("frontierLaunchPlanAction"));
    connect(frontierLaunch, &QAction::triggered, this, [this] { openLaunchPlan(selectedFrontierPoints()); });
    m_frontier->frontierView()->setContextMenuPolicy(Qt::ActionsContextMenu);
    m_frontier->frontierView()->addAction(frontierLaunch);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q)); // QKeySequence::Quit is empty on some platforms

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
    QAction *grouped = view->addAction(tr("One row per &instance type"));
    grouped->setObjectName(QStringLiteral("groupOffersAction"));
    grouped->setCheckable(true);
    grouped->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    grouped->setToolTip(tr("Offers and Frontier tables: one row per instance type and pricing, expandable to "
                           "its regions and zones, or one row per offer"));
    connect(grouped, &QAction::toggled, m_offers, &OffersPage::setGrouped);
    connect(m_offers, &OffersPage::groupedChanged, grouped, &QAction::setChecked);
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

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *guide = help->addAction(tr("&Quick guide"));
    guide->setObjectName(QStringLiteral("quickGuide"));
    guide->setShortcut(QKeySequence(Qt::Key_F1));
    connect(guide, &QAction::triggered, this, [this] {
        auto *dialog = findChild<QDialog *>(QStringLiteral("guideDialog"));
        if (!dialog) {
            dialog = new QDialog(this);
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
        dialog->show(); // not modal: the guide can stay open beside the window
        dialog->raise();
        dialog->activateWindow();
    });
    help->addSeparator();
    help->addAction(tr("&About GPU Frontier"), this, &MainWindow::showAbout);

    connect(m_service, &CatalogService::catalogLoaded, this, &MainWindow::onLoaded);
    connect(m_service, &CatalogService::failed, this, [this](quint64 request, const QString &message) {
        if (request != m_loadRequest)
            return; // a page's request: the page shows it
        m_loading = false;
        showError(message);
        Q_EMIT loadFailed(message);
    });

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
    grouped->setChecked(m_offers->isGrouped());
    m_frontier->setGrouped(m_offers->isGrouped());
    m_frontier->restoreState();
    m_workload->restoreState();
    onWorkloadChanged();
    reload();
}

MainWindow::~MainWindow() = default;

void MainWindow::addPage(QWidget *page, const QString &title)
{
    m_tabs->addTab(page, title);
}

void MainWindow::reload()
{
    if (m_loading)
        return;
    m_loading = true;
    m_statusLabel->setText(tr("Loading the catalog from %1 …").arg(m_dbPath));
    m_loadRequest = m_service->loadCatalog();
}

void MainWindow::onLoaded(quint64 request, const CatalogLoad &loaded)
{
    if (request != m_loadRequest)
        return;
    m_loading = false;
    m_banner->hide();
    CatalogLoad load = loaded;
    m_snapshots = load.snapshots;
    m_offers->setOffers(load.offers, load.snapshots);
    m_projection->setCalibration(load.calibration);
    m_measurementsPage->setCalibration(load.calibration);
    m_projection->setMeasurements(load.measurements);
    onWorkloadChanged();
    m_projection->setOffers(std::move(load.offers));
    m_catalogs->setReadOnly(load.readOnly);
    QStringList banner;
    if (load.readOnly)
        banner.append(tr("%1 is read-only (no write access to it or its folder): the catalog is shown, "
                         "but refreshing, importing and storing probe runs are off.")
                          .arg(m_dbPath));
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
    Q_EMIT catalogLoaded();
}

void MainWindow::onWorkloadChanged()
{
    auto w = m_workload->workload();
    if (!w) {
        m_projectionLabel->setText(tr("Workload: %1").arg(w.error().message));
        m_projectionLabel->setToolTip(m_projectionLabel->text());
        return;
    }
    m_projection->setWorkload(w.value());
    m_projection->setOptions(m_workload->options());
}

QList<qsizetype> MainWindow::selectedOfferPoints() const
{
    QList<qsizetype> out;
    const ProjectionResultsPtr r = m_projection->results();
    if (!r)
        return out;
    for (int row : m_offers->selectedRows())
        if (const qsizetype p = r->pointForRow(row); p >= 0)
            out.append(p);
    return out;
}

QList<qsizetype> MainWindow::selectedFrontierPoints() const
{
    QList<qsizetype> out;
    QTreeView *view = m_frontier->frontierView();
    auto *proxy = qobject_cast<QSortFilterProxyModel *>(view->model());
    if (!proxy || !view->selectionModel())
        return out;
    // A group row stands for its representative (the best member); a child row for itself.
    for (const QModelIndex &idx : view->selectionModel()->selectedRows()) {
        const int row = m_frontier->frontierGroups()->sourceRow(proxy->mapToSource(idx));
        const qsizetype p = row < 0 ? -1 : m_frontier->frontierModel()->pointAt(row);
        if (p >= 0)
            out.append(p);
    }
    return out;
}

void MainWindow::openLaunchPlan(QList<qsizetype> points)
{
    const ProjectionResultsPtr r = m_projection->results();
    if (!r) {
        QMessageBox::information(this, tr("Launch plan"), tr("Wait for the projection to finish first."));
        return;
    }
    if (points.isEmpty() && r->recommended >= 0)
        points.append(r->recommended);
    if (points.isEmpty()) {
        QMessageBox::information(
            this, tr("Launch plan"),
            tr("Select offers on the Offers page or a point on the Frontier page: there is "
               "no recommended point for this workload and these filters."));
        return;
    }
    QList<LaunchCandidate> candidates;
    QStringList lines;
    for (qsizetype i : std::as_const(points)) {
        const ProjectedOffer &pt = r->points.at(i);
        const bool spot = pt.mode == PriceMode::Spot;
        auto resolved = launchCandidate(r->offers, r->points, pt.offerIndex, spot, pt.nodes);
        const LaunchCandidate c =
            resolved ? resolved.value() : LaunchCandidate{r->offers.at(pt.offerIndex), spot, pt, {}};
        candidates.append(c);
        lines.append(offerIdText(c.offer, c.spot) +
                     (i == r->recommended ? tr("  (recommended)") : QString()));
    }
    LaunchPlanDialog dialog(lines, this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    LaunchOptions options = dialog.options();
    if (options.measures()) {
        auto package = findPackage(options.packagePath, {dialog.directory(), QDir::currentPath()});
        if (!package) {
            QMessageBox::warning(this, tr("Launch plan"),
                                 tr("No plan was written: %1. Build it with cpack -G TGZ or choose it as the "
                                    "package.")
                                     .arg(package.error().text()));
            return;
        }
        options.packagePath = package.value();
    }
    auto plan = buildLaunchPlan(r->workload, candidates, options);
    if (!plan) {
        QMessageBox::warning(this, tr("Launch plan"), tr("No plan was written: %1").arg(plan.error().text()));
        return;
    }
    auto written = writeLaunchPlan(plan.value(), dialog.directory());
    if (!written) {
        QMessageBox::warning(this, tr("Launch plan"),
                             tr("The plan could not be written: %1").arg(written.error().text()));
        return;
    }
    QString text = tr("Wrote %n SkyPilot task(s) and README.txt into %1.", nullptr,
                      static_cast<int>(plan.value().tasks.size()))
                       .arg(QDir::toNativeSeparators(dialog.directory()));
    for (const LaunchTask &t : plan.value().tasks)
        text += u'\n' + t.launchCommand();
    for (const QString &s : plan.value().skipped)
        text += u'\n' + tr("Not planned: %1").arg(s);
    QMessageBox box(QMessageBox::Information, tr("Launch plan"), text, QMessageBox::Ok, this);
    QPushButton *open = box.addButton(tr("Open folder"), QMessageBox::ActionRole);
    box.exec();
    if (box.clickedButton() == open)
        QDesktopServices::openUrl(QUrl::fromLocalFile(dialog.directory()));
    statusBar()->showMessage(tr("Launch plan written to %1").arg(dialog.directory()), 8000);
}

void MainWindow::onResults(ProjectionResultsPtr results)
{
    m_busy->setVisible(false);
    m_offers->model()->setProjection(results);
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
    m_compare->setOffers(m_offers->model()->offers(), m_offers->selectedRows(),
                         m_offers->model()->projection());
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

void MainWindow::showAbout()
{
    QString sources;
    for (const Snapshot &s : std::as_const(m_snapshots)) {
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
                 QStringLiteral(QT_VERSION_STR), m_dbPath.toHtmlEscaped(), sources));
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

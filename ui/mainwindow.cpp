#include "mainwindow.h"

#include "catalogstore.h"
#include "gpucatalog.h"
#include "offerspage.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QElapsedTimer>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

namespace {
Result<CatalogLoad> loadCatalog(const QString &dbPath)
{
    QElapsedTimer timer;
    timer.start();
    auto opened = CatalogStore::open(dbPath);
    if (!opened)
        return opened.error();
    CatalogStore &store = *opened.value();
    CatalogLoad load;
    auto bundled = store.importBundledIfEmpty(GpuCatalog::builtin());
    if (!bundled)
        return bundled.error();
    load.bundledImported = bundled.value();
    auto offers = store.currentOffers();
    if (!offers)
        return offers.error();
    auto snaps = store.snapshots();
    if (!snaps)
        return snaps.error();
    load.offers = std::move(offers).value();
    load.snapshots = std::move(snaps).value();
    load.elapsedMs = timer.elapsed();
    return load;
}
} // namespace

MainWindow::MainWindow(QString dbPath, QWidget *parent) : QMainWindow(parent), m_dbPath(std::move(dbPath))
{
    setWindowTitle(tr("GPU Frontier"));
    setObjectName(QStringLiteral("mainWindow"));

    auto *central = new QWidget(this);
    auto *layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 6);
    m_banner = new QLabel(central);
    m_banner->setObjectName(QStringLiteral("errorBanner"));
    m_banner->setWordWrap(true);
    m_banner->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_banner->setStyleSheet(QStringLiteral("QLabel { padding: 6px; border-radius: 4px; background: palette(tooltip-base); "
                                           "color: palette(tooltip-text); border: 1px solid #c0392b; }"));
    m_banner->hide();
    layout->addWidget(m_banner);

    m_tabs = new QTabWidget(central);
    m_tabs->setObjectName(QStringLiteral("pages"));
    m_offers = new OffersPage(m_tabs);
    m_tabs->addTab(m_offers, tr("&Offers"));
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_statusLabel = new QLabel(this);
    m_statusLabel->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addWidget(m_statusLabel, 1);
    connect(m_offers, &OffersPage::summaryChanged, m_statusLabel, &QLabel::setText);

    QMenu *file = menuBar()->addMenu(tr("&File"));
    QAction *reloadAction = file->addAction(tr("&Reload catalog"), this, &MainWindow::reload);
    reloadAction->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);

    QMenu *view = menuBar()->addMenu(tr("&View"));
    QAction *find = view->addAction(tr("&Find offers"), this, [this] {
        m_tabs->setCurrentWidget(m_offers);
        m_offers->focusSearch();
    });
    find->setShortcut(QKeySequence::Find);
    QAction *resetFilters = view->addAction(tr("Reset &filters"), m_offers, &OffersPage::resetFilters);
    resetFilters->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
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
    help->addAction(tr("&About GPU Frontier"), this, &MainWindow::showAbout);

    connect(&m_watcher, &QFutureWatcher<Result<CatalogLoad>>::finished, this, &MainWindow::onLoaded);

    QSettings s;
    const bool restored = restoreGeometry(s.value(QStringLiteral("window/geometry")).toByteArray());
    restoreState(s.value(QStringLiteral("window/state")).toByteArray());
    if (!restored || width() < 800 || height() < 500)
        resize(1280, 780);
    m_offers->restoreState();
    reload();
}

MainWindow::~MainWindow()
{
    m_watcher.waitForFinished();
}

void MainWindow::reload()
{
    if (m_loading)
        return;
    m_loading = true;
    m_statusLabel->setText(tr("Loading the catalog from %1 …").arg(m_dbPath));
    m_watcher.setFuture(QtConcurrent::run(loadCatalog, m_dbPath));
}

void MainWindow::onLoaded()
{
    m_loading = false;
    const Result<CatalogLoad> r = m_watcher.result();
    if (!r) {
        showError(r.error().text());
        Q_EMIT loadFailed(r.error().text());
        return;
    }
    m_banner->hide();
    const CatalogLoad &load = r.value();
    m_offers->setOffers(load.offers, load.snapshots);
    if (load.bundledImported > 0)
        statusBar()->showMessage(tr("First start: imported the bundled price snapshot of %n provider(s).", nullptr,
                                    load.bundledImported),
                                 8000);
    Q_EMIT catalogLoaded();
}

void MainWindow::showError(const QString &message)
{
    m_banner->setText(message);
    m_banner->show();
    m_statusLabel->setText(tr("Error: %1").arg(message));
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About GPU Frontier"),
                       tr("<h3>GPU Frontier %1</h3>"
                          "<p>Where to train: cloud GPU offers by cost and training time.</p>"
                          "<p>Qt %2 (built with %3)<br>Catalog database: %4</p>"
                          "<p>Prices come from the providers' public price sources; the bundled snapshot's sources "
                          "and dates are listed by <code>gpufrontier-cli catalogs</code>.</p>")
                           .arg(QStringLiteral(GPUFRONTIER_VERSION), QString::fromLatin1(qVersion()),
                                QStringLiteral(QT_VERSION_STR), m_dbPath.toHtmlEscaped()));
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    QSettings s;
    s.setValue(QStringLiteral("window/geometry"), saveGeometry());
    s.setValue(QStringLiteral("window/state"), saveState());
    m_offers->saveState();
    event->accept();
}

} // namespace gf

#pragma once

#include "offer.h"
#include "result.h"

#include <QFutureWatcher>
#include <QMainWindow>

class QLabel;
class QTabWidget;

namespace gf {

class OffersPage;

/// What the background load hands to the GUI thread.
struct CatalogLoad
{
    QList<Offer> offers;
    QList<Snapshot> snapshots;
    int bundledImported = 0;
    qint64 elapsedMs = 0;
};

class MainWindow final : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QString dbPath, QWidget *parent = nullptr);
    ~MainWindow() override;

    OffersPage *offersPage() const { return m_offers; }
    QTabWidget *tabs() const { return m_tabs; }
    QString dbPath() const { return m_dbPath; }
    /// Reloads the catalog from the database, off the GUI thread.
    void reload();
    bool isLoading() const { return m_loading; }

Q_SIGNALS:
    void catalogLoaded();
    void loadFailed(const QString &message);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void onLoaded();
    void showError(const QString &message);
    void showAbout();

    QString m_dbPath;
    QTabWidget *m_tabs = nullptr;
    OffersPage *m_offers = nullptr;
    QLabel *m_banner = nullptr;
    QLabel *m_statusLabel = nullptr;
    QFutureWatcher<Result<CatalogLoad>> m_watcher;
    bool m_loading = false;
};

} // namespace gf

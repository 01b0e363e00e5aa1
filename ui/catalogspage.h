#pragma once

#include "refresh/catalogrefresher.h"
#include "refresh/secretstore.h"
#include "util/result.h"
#include "viewmodels/catalogservice.h"
#include "viewmodels/catalogstatusmodel.h"
#include "viewmodels/secretservice.h"

#include <QHash>
#include <QWidget>

#include <functional>
#include <optional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTableView;

namespace gf {

class HistoryChart;
class RefreshService;

/// What the background status load hands to the GUI thread.

/// The Catalogs page: per provider the current snapshot, its age (badge past 7 days), row count,
/// last check and last error; a Refresh button with a progress bar per provider, "Refresh all",
/// Cancel and "Import file…"; the source settings (base URL per provider, GCP API key, AWS regions,
/// stored in QSettings); and the price history of a chosen offer. Refreshes and imports run on a
/// worker thread (RefreshService); loads run off the GUI thread too.
class CatalogsPage final : public QWidget
{
    Q_OBJECT
public:
    explicit CatalogsPage(CatalogService *catalog, QWidget *parent = nullptr);
    ~CatalogsPage() override;

    /// Reloads the status table and the history choosers (off the GUI thread).
    void reload();
    /// "What changed since the last refresh" for one provider (empty: all).
    void showChanges(const QString &provider = {});
    void refreshProviders(const QStringList &providers);
    void importFiles(const QStringList &paths);
    void cancel();
    bool isBusy() const;
    /// The database cannot be written: refresh and import are off, their tooltips say why.
    void setReadOnly(bool readOnly);
    bool isReadOnly() const { return m_readOnly; }

    /// Seams for tests (no modal dialog): which files "Import file…" imports, and which provider a
    /// SkyPilot CSV belongs to (empty = cancel).
    void setFileChooser(std::function<QStringList()> chooser) { m_fileChooser = std::move(chooser); }
    void setProviderChooser(std::function<QString(const QString &file)> chooser)
    {
        m_providerChooser = std::move(chooser);
    }

    // Widgets and models, for tests and the main window.
    CatalogStatusModel *statusModel() const { return m_model; }
    QTableView *statusView() const { return m_view; }
    QPushButton *refreshButton(const QString &provider) const { return m_refresh.value(provider); }
    QProgressBar *progressBar(const QString &provider) const { return m_bars.value(provider); }
    QLabel *rowStatus(const QString &provider) const { return m_rowStatus.value(provider); }
    QPushButton *refreshAllButton() const { return m_refreshAll; }
    QPushButton *cancelButton() const { return m_cancel; }
    QPushButton *importButton() const { return m_import; }
    QPushButton *changesButton() const { return m_changes; }
    QLineEdit *baseUrlEdit(const QString &provider) const { return m_urls.value(provider); }
    /// The live source of a provider that has two (its own API, SkyPilot's catalog); nullptr for the others.
    QComboBox *sourceChooser(const QString &provider) const { return m_sources.value(provider); }
    QLineEdit *gcpKeyEdit() const { return m_gcpKey; }
    /// Where the GCP API key is kept: the desktop keychain, or a warning about the 0600 fallback file.
    QLabel *gcpKeyStatus() const { return m_keyStatus; }
    /// "Move to keychain": shown while the key is kept in the fallback file and a keychain may be used.
    QPushButton *gcpKeyMoveButton() const { return m_moveKey; }
    QLineEdit *awsRegionsEdit() const { return m_awsRegions; }
    QComboBox *historyProvider() const { return m_histProvider; }
    QComboBox *historyInstance() const { return m_histInstance; }
    QComboBox *historyRegion() const { return m_histRegion; }
    HistoryChart *historyChart() const { return m_chart; }
    RefreshService *service() const { return m_service; }
    CatalogService *catalogService() const { return m_catalog; }
    /// The secret store calls of the page (the GCP API key), off the GUI thread.
    SecretService *secretService() const { return m_secrets; }
    QString statusText() const;

Q_SIGNALS:
    /// A refresh or import created a new snapshot: the offers must be reloaded.
    void catalogChanged();
    /// The status table was (re)loaded.
    void statusLoaded();
    /// The history chart shows a new selection.
    void historyLoaded();
    /// A refresh or import job ended (whatever the outcome).
    void jobEnded();
    /// After a job that imported: the status line says what the new snapshots changed.
    void changesSummarised();
    /// The secret store has answered every call the page made (the key field and its status are current).
    void secretsSettled();

private:
    void buildUi();
    void saveSettings();
    void loadSettings();
    /// Stores the key typed when it differs from the stored one (on the secret service's thread).
    void saveKey();
    void showSettingsErrors();
    void showKeyProgress(const QString &text);
    void showKeyOutcome(const SecretOutcome &outcome);
    void onSecretAnswered(const SecretAnswer &answer);
    /// Starts refreshing `providers` with the settings saved (refreshProviders saves them first).
    void startRefresh(const QStringList &providers);
    void moveKeyToKeychain();
    /// What the user can do on this page about a refresh failure of this code (RefreshOutcome::code).
    static QString adviceFor(const QString &code);
    void onStatusLoaded(quint64 request, const CatalogStatusLoad &load);
    void onFilesIdentified(quint64 request, const QList<FileIdentity> &files);
    void onRequestFailed(quint64 request, const QString &message);
    void onProgress(int permille, const QString &message);
    void onProviderStarted(const QString &provider);
    void onFinished(const QString &provider, const RefreshOutcome &outcome);
    void onJobFinished();
    void updateButtons();
    void chooseAndImport();
    void fillHistoryChoosers();
    void loadHistory();
    void onHistoryLoaded(quint64 request, const QList<Offer> &rows);

    CatalogService *m_catalog = nullptr;
    RefreshService *m_service = nullptr;
    CatalogStatusModel *m_model = nullptr;
    QTableView *m_view = nullptr;
    QHash<QString, QPushButton *> m_refresh;
    QHash<QString, QProgressBar *> m_bars;
    QHash<QString, QLabel *> m_rowStatus;
    QHash<QString, QLineEdit *> m_urls;
    QHash<QString, QComboBox *> m_sources;
    QPushButton *m_refreshAll = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_import = nullptr;
    QPushButton *m_changes = nullptr;
    bool m_readOnly = false;
    QString m_savedImportTip;
    QProgressBar *m_overall = nullptr;
    QLabel *m_status = nullptr;
    QLineEdit *m_gcpKey = nullptr;
    QLabel *m_keyStatus = nullptr;
    QPushButton *m_moveKey = nullptr;
    SecretService *m_secrets = nullptr;
    QString m_storedKey; ///< the key as last read from or written to the secret store
    SecretLocation m_storedLocation = SecretLocation::None; ///< where m_storedKey is kept
    SecretOutcome m_shownOutcome;                           ///< what the key status line shows
    std::optional<QString> m_writingKey;                    ///< the key being stored now
    QString m_keyError;            ///< the last key write or settings move failed: why
    QStringList m_settingsErrors;  ///< the other settings refused, with why
    QStringList m_deferredRefresh; ///< providers to refresh once the secret store has answered
    QLineEdit *m_awsRegions = nullptr;
    QLineEdit *m_caBundle = nullptr;
    QLabel *m_settingsError = nullptr;
    QLabel *m_paperspaceNote = nullptr;
    QComboBox *m_histProvider = nullptr;
    QComboBox *m_histInstance = nullptr;
    QComboBox *m_histRegion = nullptr;
    HistoryChart *m_chart = nullptr;
    QString m_runningProvider;
    bool m_importedInJob = false;
    QStringList m_updatedInJob; ///< providers with a new snapshot in the job
    quint64 m_changesRequest = 0;
    QStringList m_failedInJob;    ///< display names of the providers whose refresh or import failed
    QStringList m_cancelledInJob; ///< display names of the providers cancelled
    CatalogStatusLoad m_load;
    quint64 m_statusRequest = 0;
    quint64 m_historyRequest = 0;
    quint64 m_identifyRequest = 0;
    QString m_historyTitle;
    bool m_reloadAgain = false;
    std::function<QStringList()> m_fileChooser;
    std::function<QString(const QString &)> m_providerChooser;
};

} // namespace gf

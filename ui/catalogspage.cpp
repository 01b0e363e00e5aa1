#include "catalogspage.h"
#include "changesdialog.h"
#include "refresh/paperspacepricesource.h"
#include "refresh/pricesource.h"
#include "uistyle.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "historychart.h"
#include "refresh/refreshservice.h"
#include "refresh/refreshsettings.h"

#include <QApplication>
#include <QColor>
#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIdentityProxyModel>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>

namespace gf {

namespace {

/// Turns the model's flags into what a view shows: a warning badge on stale ages, red errors.
class StatusBadgeProxy final : public QIdentityProxyModel
{
public:
    explicit StatusBadgeProxy(QObject *parent) : QIdentityProxyModel(parent) {}
    QVariant data(const QModelIndex &index, int role) const override
    {
        if (role == Qt::DecorationRole && index.column() == CatalogStatusModel::Age &&
            index.data(CatalogStatusModel::StaleRole).toBool())
            return qApp->style()->standardIcon(QStyle::SP_MessageBoxWarning);
        if (role == Qt::ForegroundRole && index.column() == CatalogStatusModel::LastError &&
            index.data(CatalogStatusModel::FailedRole).toBool())
            return errorColor(qApp->palette());
        return QIdentityProxyModel::data(index, role);
    }
};

} // namespace

CatalogsPage::CatalogsPage(CatalogService *catalog, QWidget *parent)
    : QWidget(parent), m_catalog(catalog), m_service(catalog->refresher())
{
    m_model = new CatalogStatusModel(this);
    m_secrets = new SecretService(this);
    connect(m_secrets, &SecretService::answered, this,
            [this](quint64, const SecretAnswer &answer) { onSecretAnswered(answer); });
    buildUi();
    loadSettings();
    connect(m_service, &RefreshService::progress, this, &CatalogsPage::onProgress);
    connect(m_service, &RefreshService::providerStarted, this, &CatalogsPage::onProviderStarted);
    connect(m_service, &RefreshService::finished, this, &CatalogsPage::onFinished);
    connect(m_service, &RefreshService::jobFinished, this, &CatalogsPage::onJobFinished);
    connect(m_catalog, &CatalogService::statusesLoaded, this, &CatalogsPage::onStatusLoaded);
    connect(m_catalog, &CatalogService::historyLoaded, this, &CatalogsPage::onHistoryLoaded);
    connect(m_catalog, &CatalogService::changesLoaded, this,
            [this](quint64 request, const QList<SnapshotChanges> &changes) {
                if (request != m_changesRequest)
                    return;
                QStringList parts;
                for (const SnapshotChanges &c : changes)
                    if (m_updatedInJob.contains(c.provider))
                        parts.append(QStringLiteral("%1: %2").arg(providerDisplayName(c.provider),
                                                                  changesSummaryText(c)));
                if (!parts.isEmpty())
                    m_status->setText(m_status->text() + u' ' +
                                      tr("What changed — %1.").arg(parts.join(QStringLiteral("; "))));
                Q_EMIT changesSummarised();
            });
    connect(m_catalog, &CatalogService::filesIdentified, this, &CatalogsPage::onFilesIdentified);
    connect(m_catalog, &CatalogService::failed, this, &CatalogsPage::onRequestFailed);
    m_fileChooser = [this] {
        return QFileDialog::getOpenFileNames(this, tr("Import price files"), QString(),
                                             tr("Price files (*.csv *.json *.js *.txt);;All files (*)"));
    };
    m_providerChooser = [this](const QString &file) {
        QStringList names;
        for (const QString &p : knownProviders())
            names.append(providerDisplayName(p));
        bool ok = false;
        const QString chosen =
            QInputDialog::getItem(this, tr("Which provider?"),
                                  tr("%1 is a SkyPilot catalog. Which provider's prices are these?")
                                      .arg(QFileInfo(file).fileName()),
                                  names, 0, false, &ok);
        const qsizetype i = names.indexOf(chosen);
        return ok && i >= 0 ? knownProviders().at(i) : QString();
    };
    updateButtons();
    // Once the constructors are done: the window that builds this page asks for the catalog first, and
    // the one database thread reads it before the statuses (which take a while over 200,000 offers and
    // would otherwise hold the first answer back).
    QTimer::singleShot(0, this, &CatalogsPage::reload);
}

// The services belong to the main window's CatalogService, which cancels and waits for them.
CatalogsPage::~CatalogsPage() = default;

void CatalogsPage::buildUi()
{
    auto *title = new QLabel(tr("<b>Price catalogs</b> — one snapshot per refresh; the previous one stays "
                                "current if anything goes wrong."),
                             this);
    title->setWordWrap(true);
    m_import = new QPushButton(tr("Import file…"), this);
    m_import->setToolTip(
        tr("Import price files you downloaded (provider formats, SkyPilot or GPU Frontier CSV)"));
    m_refreshAll = new QPushButton(tr("Refresh all"), this);
    m_changes = new QPushButton(tr("What changed…"), this);
    m_changes->setObjectName(QStringLiteral("catalogChanges"));
    m_changes->setToolTip(
        tr("Each provider's current prices against its previous snapshot: new and gone offers "
           "and every price change"));
    connect(m_changes, &QPushButton::clicked, this, [this] { showChanges(); });
    m_cancel = new QPushButton(tr("Cancel"), this);
    connect(m_import, &QPushButton::clicked, this, &CatalogsPage::chooseAndImport);
    connect(m_refreshAll, &QPushButton::clicked, this, [this] { refreshProviders(knownProviders()); });
    connect(m_cancel, &QPushButton::clicked, this, &CatalogsPage::cancel);
    auto *top = new QHBoxLayout;
    top->addWidget(title, 1);
    top->addWidget(m_changes);
    top->addWidget(m_import);
    top->addWidget(m_refreshAll);
    top->addWidget(m_cancel);

    m_overall = new QProgressBar(this);
    m_overall->setRange(0, 1000);
    m_overall->setTextVisible(false);
    m_overall->setVisible(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);

    m_view = new QTableView(this);
    auto *proxy = new StatusBadgeProxy(this);
    proxy->setSourceModel(m_model);
    m_view->setModel(proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->verticalHeader()->setVisible(false);
    m_view->horizontalHeader()->setStretchLastSection(true);
    m_view->setWordWrap(false);
    m_view->setMinimumHeight(170);

    // Per provider: Refresh, a progress bar and what happened last.
    auto *actions = new QGroupBox(tr("Refresh"), this);
    auto *grid = new QGridLayout(actions);
    int row = 0;
    for (const QString &p : knownProviders()) {
        auto *name = new QLabel(providerDisplayName(p), actions);
        auto *button = new QPushButton(tr("Refresh"), actions);
        button->setObjectName(QStringLiteral("refresh-") + p);
        button->setAccessibleName(tr("Refresh %1").arg(providerDisplayName(p)));
        auto *bar = new QProgressBar(actions);
        bar->setRange(0, 1000);
        bar->setValue(0);
        bar->setTextVisible(false);
        bar->setVisible(false);
        bar->setMaximumHeight(14);
        auto *status = new QLabel(actions);
        status->setWordWrap(true);
        status->setTextInteractionFlags(Qt::TextSelectableByMouse);
        connect(button, &QPushButton::clicked, this, [this, p] { refreshProviders({p}); });
        grid->addWidget(name, row, 0);
        grid->addWidget(button, row, 1);
        grid->addWidget(bar, row, 2);
        grid->addWidget(status, row, 3);
        m_refresh.insert(p, button);
        m_bars.insert(p, bar);
        m_rowStatus.insert(p, status);
        ++row;
    }
    grid->setColumnStretch(3, 1);
    grid->setColumnMinimumWidth(2, 120);

    // Source settings.
    auto *sources = new QGroupBox(tr("Sources"), this);
    auto *form = new QFormLayout(sources);
    for (const QString &p : knownProviders()) {
        auto *edit = new QLineEdit(sources);
        edit->setObjectName(QStringLiteral("url-") + p);
        const QString def = priceSource(p)->defaultBaseUrl();
        const ProviderInfo *info = providerInfo(p);
        edit->setPlaceholderText(
            def.isEmpty()
                ? tr("curated table shipped with GPU Frontier (a mirror URL serves <url>/paperspace.csv)")
            : info && info->live == LiveSource::SkypilotCatalog && info->directSource.isEmpty()
                ? tr("default: SkyPilot's hosted catalog, %1/skypilot-org/skypilot-catalog (%2)")
                      .arg(def, info->skypilotCatalog)
                : tr("default: %1").arg(def));
        edit->setClearButtonEnabled(true);
        edit->setToolTip(tr("Base URL replacing %1's endpoints (mirror or proxy); empty = the provider's own")
                             .arg(providerDisplayName(p)));
        connect(edit, &QLineEdit::editingFinished, this, &CatalogsPage::saveSettings);
        form->addRow(tr("%1 base URL").arg(providerDisplayName(p)), edit);
        m_urls.insert(p, edit);
        if (info && !info->directSource.isEmpty()) {
            // Two live sources: the provider's own keyless API (default) or SkyPilot's hosted catalog.
            auto *source = new QComboBox(sources);
            source->setObjectName(QStringLiteral("source-") + p);
            source->addItem(tr("%1 (default)").arg(info->directSource), QStringLiteral("direct"));
            source->addItem(tr("SkyPilot's hosted catalog (%1/vms.csv)").arg(info->skypilotCatalog),
                            QStringLiteral("skypilot"));
            source->setToolTip(
                tr("Where a refresh of %1 reads its prices: its own keyless API, or SkyPilot's "
                   "hosted catalog (per data centre, refreshed by SkyPilot every few hours). The "
                   "base URL above replaces the chosen source's host.")
                    .arg(info->displayName));
            connect(source, &QComboBox::activated, this, &CatalogsPage::saveSettings);
            form->addRow(tr("%1 source").arg(info->displayName), source);
            m_sources.insert(p, source);
        }
    }
    m_gcpKey = new QLineEdit(sources);
    m_gcpKey->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_gcpKey->setObjectName(QStringLiteral("gcpKey"));
    m_gcpKey->setPlaceholderText(tr("Cloud Billing Catalog API key (or $GPUFRONTIER_GCP_API_KEY)"));
    m_gcpKey->setToolTip(tr("Kept in the desktop's keychain (GNOME Keyring, KWallet, …), never in the "
                            "settings file; $GPUFRONTIER_GCP_API_KEY takes precedence."));
    connect(m_gcpKey, &QLineEdit::editingFinished, this, &CatalogsPage::saveSettings);
    form->addRow(tr("GCP API key"), m_gcpKey);
    m_keyStatus = new QLabel(sources);
    m_keyStatus->setObjectName(QStringLiteral("gcpKeyStatus"));
    m_keyStatus->setWordWrap(true);
    m_keyStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_keyStatus->setVisible(false);
    m_moveKey = new QPushButton(tr("Move to keychain"), sources);
    m_moveKey->setObjectName(QStringLiteral("gcpKeyMove"));
    m_moveKey->setToolTip(tr("Moves the key from its fallback file into the desktop's keychain (start a "
                             "keyring first) and deletes the file."));
    m_moveKey->setVisible(false);
    connect(m_moveKey, &QPushButton::clicked, this, &CatalogsPage::moveKeyToKeychain);
    auto *keyStatusRow = new QHBoxLayout;
    keyStatusRow->addWidget(m_keyStatus, 1);
    keyStatusRow->addWidget(m_moveKey, 0, Qt::AlignTop);
    form->addRow(QString(), keyStatusRow);
    m_awsRegions = new QLineEdit(sources);
    m_awsRegions->setPlaceholderText(tr("all regions (e.g. us-east-1, us-west-2, eu-west-1)"));
    connect(m_awsRegions, &QLineEdit::editingFinished, this, &CatalogsPage::saveSettings);
    form->addRow(tr("AWS regions"), m_awsRegions);
    m_caBundle = new QLineEdit(sources);
    m_caBundle->setObjectName(QStringLiteral("caBundle"));
    m_caBundle->setPlaceholderText(tr("system certificates (or $GPUFRONTIER_CA_BUNDLE)"));
    m_caBundle->setClearButtonEnabled(true);
    m_caBundle->setToolTip(tr("A PEM file with the certificate authorities to trust instead of the system's, "
                              "e.g. a company proxy that inspects TLS. Certificates are always verified."));
    connect(m_caBundle, &QLineEdit::editingFinished, this, &CatalogsPage::saveSettings);
    auto *browseCa = new QPushButton(tr("Browse…"), sources);
    connect(browseCa, &QPushButton::clicked, this, [this] {
        const QString f =
            QFileDialog::getOpenFileName(this, tr("CA certificates (PEM)"), m_caBundle->text(),
                                         tr("PEM certificates (*.pem *.crt *.cer);;All files (*)"));
        if (!f.isEmpty()) {
            m_caBundle->setText(f);
            saveSettings();
        }
    });
    auto *caRow = new QHBoxLayout;
    caRow->addWidget(m_caBundle, 1);
    caRow->addWidget(browseCa);
    form->addRow(tr("CA certificates"), caRow);
    m_settingsError = new QLabel(sources);
    m_settingsError->setObjectName(QStringLiteral("settingsError"));
    m_settingsError->setWordWrap(true);
    setErrorStyle(m_settingsError);
    m_settingsError->setVisible(false);
    form->addRow(m_settingsError);
    const QDate paperspace = PaperspacePriceSource::tableDate();
    m_paperspaceNote = new QLabel(
        tr("Paperspace has no public price API: its prices come from a curated table (the one shipped "
           "is dated %1, %2 days old). Use “Import file…” to load a newer table.")
            .arg(paperspace.toString(Qt::ISODate),
                 QString::number(paperspace.isValid() ? paperspace.daysTo(QDate::currentDate()) : 0)),
        sources);
    m_paperspaceNote->setWordWrap(true);
    form->addRow(m_paperspaceNote);

    // Price history of one offer.
    auto *history = new QGroupBox(tr("Price history"), this);
    auto *hl = new QVBoxLayout(history);
    auto *choosers = new QGridLayout;
    m_histProvider = new QComboBox(history);
    for (const QString &p : knownProviders())
        m_histProvider->addItem(providerDisplayName(p), p);
    m_histInstance = new QComboBox(history);
    m_histInstance->setEditable(true);
    m_histInstance->setInsertPolicy(QComboBox::NoInsert);
    m_histInstance->setMinimumContentsLength(14);
    m_histRegion = new QComboBox(history);
    m_histRegion->setMinimumContentsLength(10);
    // Two rows, so that the page fits beside the workload dock on a 1366 px wide screen.
    choosers->addWidget(new QLabel(tr("Provider"), history), 0, 0);
    choosers->addWidget(m_histProvider, 0, 1);
    choosers->addWidget(new QLabel(tr("Region"), history), 0, 2);
    choosers->addWidget(m_histRegion, 0, 3);
    choosers->addWidget(new QLabel(tr("Instance"), history), 1, 0);
    choosers->addWidget(m_histInstance, 1, 1, 1, 3);
    choosers->setColumnStretch(1, 1);
    choosers->setColumnStretch(3, 1);
    m_chart = new HistoryChart(history);
    hl->addLayout(choosers);
    hl->addWidget(m_chart, 1);
    connect(m_histProvider, &QComboBox::currentIndexChanged, this, &CatalogsPage::fillHistoryChoosers);
    connect(m_histInstance, &QComboBox::currentTextChanged, this, &CatalogsPage::loadHistory);
    connect(m_histRegion, &QComboBox::currentIndexChanged, this, &CatalogsPage::loadHistory);

    auto *left = new QWidget(this);
    auto *ll = new QVBoxLayout(left);
    ll->setContentsMargins(0, 0, 0, 0);
    ll->addWidget(m_view, 1);
    ll->addWidget(actions);
    ll->addWidget(sources);
    // The table, the refresh rows and the source settings scroll when the window is short.
    auto *leftScroll = new QScrollArea(this);
    leftScroll->setWidget(left);
    leftScroll->setWidgetResizable(true);
    leftScroll->setFrameShape(QFrame::NoFrame);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(leftScroll);
    split->addWidget(history);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_overall);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
}

void CatalogsPage::loadSettings()
{
    const QSettings s;
    for (const QString &p : knownProviders())
        m_urls.value(p)->setText(RefreshSettings::baseUrl(s, p));
    for (auto it = m_sources.cbegin(); it != m_sources.cend(); ++it)
        it.value()->setCurrentIndex(RefreshSettings::source(s, it.key()) == SourceChoice::Skypilot ? 1 : 0);
    // The key lives in the secret store (read off the GUI thread); an older version's plain setting moves
    // there first. The field waits for the answer.
    m_gcpKey->setEnabled(false);
    m_moveKey->setVisible(false);
    showKeyProgress(tr("Reading the stored GCP API key…"));
    m_secrets->read(kGcpApiKeySecret);
    m_awsRegions->setText(RefreshSettings::awsRegions(s).join(QStringLiteral(", ")));
    m_caBundle->setText(RefreshSettings::caBundle(s));
}

void CatalogsPage::saveSettings()
{
    QSettings s;
    QStringList errors;
    for (const QString &p : knownProviders()) {
        const QString url = m_urls.value(p)->text().trimmed();
        if (const QString bad = RefreshSettings::validateBaseUrl(url); !bad.isEmpty()) {
            errors.append(tr("%1: %2").arg(providerDisplayName(p), bad));
            continue;
        }
        RefreshSettings::setBaseUrl(s, p, url);
    }
    for (auto it = m_sources.cbegin(); it != m_sources.cend(); ++it)
        RefreshSettings::setSource(
            s, it.key(), it.value()->currentIndex() == 1 ? SourceChoice::Skypilot : SourceChoice::Default);
    saveKey();
    QStringList regions;
    for (const QString &r : m_awsRegions->text().split(u',', Qt::SkipEmptyParts))
        regions.append(r.trimmed());
    RefreshSettings::setAwsRegions(s, regions);
    if (const QString bad = RefreshSettings::validateCaBundle(m_caBundle->text()); !bad.isEmpty())
        errors.append(bad);
    else
        RefreshSettings::setCaBundle(s, m_caBundle->text());
    m_settingsErrors = errors;
    showSettingsErrors();
}

void CatalogsPage::saveKey()
{
    if (!m_gcpKey->isEnabled())
        return; // still reading the stored key: the field shows nothing to store yet
    // A key typed again while it is kept in the fallback file is written again too: the keychain takes it
    // now if one has started since (the status line asks for exactly that).
    const QString key = m_gcpKey->text().trimmed();
    const bool retypedIntoFile = m_gcpKey->isModified() && !key.isEmpty() &&
                                 m_storedLocation == SecretLocation::File &&
                                 SecretStore::modeFromEnvironment() != SecretStore::Mode::File;
    if (key == m_storedKey && !retypedIntoFile) {
        m_keyError.clear();
        return;
    }
    if (m_writingKey && *m_writingKey == key)
        return; // the same key is being stored already
    m_writingKey = key;
    showKeyProgress(tr("Storing the GCP API key…"));
    m_secrets->write(kGcpApiKeySecret, key);
}

void CatalogsPage::showSettingsErrors()
{
    QStringList errors = m_settingsErrors;
    if (!m_keyError.isEmpty())
        errors.append(m_keyError);
    m_settingsError->setText(errors.join(u'\n'));
    m_settingsError->setVisible(!errors.isEmpty());
}

void CatalogsPage::showKeyProgress(const QString &text)
{
    m_keyStatus->setText(text);
    setErrorStyle(m_keyStatus, false);
    m_keyStatus->setVisible(true);
}

void CatalogsPage::onSecretAnswered(const SecretAnswer &answer)
{
    switch (answer.kind) {
    case SecretAnswer::Kind::Read:
        if (!answer.migrationError.isEmpty())
            m_keyError =
                tr("Cannot move the GCP API key out of the settings file: %1").arg(answer.migrationError);
        if (answer.ok) {
            m_storedKey = answer.outcome.value;
            showKeyOutcome(answer.outcome);
        } else {
            m_storedKey.clear();
            m_storedLocation = SecretLocation::None;
            m_keyStatus->setText(tr("Cannot read the stored GCP API key: %1").arg(answer.error));
            setErrorStyle(m_keyStatus);
            m_keyStatus->setVisible(true);
        }
        m_gcpKey->setText(m_storedKey);
        m_gcpKey->setEnabled(true);
        break;
    case SecretAnswer::Kind::Write:
        if (m_writingKey && *m_writingKey == answer.written)
            m_writingKey.reset();
        if (answer.ok) {
            m_storedKey = answer.written;
            if (m_gcpKey->text().trimmed() == answer.written)
                m_gcpKey->setModified(false);
            m_keyError.clear();
            showKeyOutcome(answer.outcome);
        } else {
            m_keyError = tr("GCP API key: %1").arg(answer.error);
            showKeyOutcome(m_shownOutcome); // where the key still is
        }
        break;
    case SecretAnswer::Kind::MoveToKeychain:
        m_moveKey->setEnabled(true);
        if (answer.ok) {
            m_storedKey = answer.outcome.value;
            showKeyOutcome(answer.outcome);
        } else {
            // Still in the file: say why, keep the button for another try.
            m_keyStatus->setText(tr("⚠ The key is still in its file: %1. Start a keyring (GNOME Keyring, "
                                    "KWallet) and try again.")
                                     .arg(answer.error));
            setErrorStyle(m_keyStatus);
            m_keyStatus->setVisible(true);
        }
        break;
    }
    showSettingsErrors();
    if (m_secrets->pending() == 0) {
        Q_EMIT secretsSettled();
        // The settings were saved when the refresh was asked for: start it as it was (saving again would
        // write a key the store refused again, and wait again).
        if (!m_deferredRefresh.isEmpty())
            startRefresh(std::exchange(m_deferredRefresh, {}));
    }
}

void CatalogsPage::showKeyOutcome(const SecretOutcome &outcome)
{
    m_shownOutcome = outcome;
    m_storedLocation = outcome.location;
    const bool keychainPossible = SecretStore::modeFromEnvironment() != SecretStore::Mode::File;
    m_moveKey->setVisible(outcome.location == SecretLocation::File && keychainPossible);
    switch (outcome.location) {
    case SecretLocation::None:
        m_keyStatus->setVisible(false);
        return;
    case SecretLocation::Keychain:
        m_keyStatus->setText(tr("Kept in the desktop keychain."));
        setErrorStyle(m_keyStatus, false);
        break;
    case SecretLocation::File:
        m_keyStatus->setText(
            keychainPossible ? tr("⚠ Not in a keychain: %1. Start a keyring (GNOME Keyring, KWallet), then "
                                  "press Move to keychain.")
                                   .arg(outcome.warning)
                             : tr("⚠ Not in a keychain: %1.").arg(outcome.warning));
        setErrorStyle(m_keyStatus);
        break;
    }
    m_keyStatus->setVisible(true);
}

void CatalogsPage::moveKeyToKeychain()
{
    m_moveKey->setEnabled(false);
    showKeyProgress(tr("Moving the GCP API key into the keychain…"));
    m_secrets->moveToKeychain(kGcpApiKeySecret);
}

void CatalogsPage::reload()
{
    if (m_statusRequest) {
        m_reloadAgain = true;
        return;
    }
    m_statusRequest = m_catalog->loadStatuses();
}

void CatalogsPage::onStatusLoaded(quint64 request, const CatalogStatusLoad &load)
{
    if (request != m_statusRequest)
        return;
    m_statusRequest = 0;
    m_load = load;
    const int selected = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : -1;
    m_model->setStatuses(m_load.statuses);
    m_view->resizeColumnsToContents();
    if (selected >= 0)
        m_view->selectRow(selected);
    fillHistoryChoosers();
    Q_EMIT statusLoaded();
    if (std::exchange(m_reloadAgain, false))
        reload();
}

void CatalogsPage::onRequestFailed(quint64 request, const QString &message)
{
    if (request == m_statusRequest) {
        m_statusRequest = 0;
        m_status->setText(tr("Cannot read the catalog: %1").arg(message));
        Q_EMIT statusLoaded();
        if (std::exchange(m_reloadAgain, false))
            reload();
    } else if (request == m_historyRequest) {
        m_chart->clear(tr("Cannot read the price history: %1").arg(message));
        Q_EMIT historyLoaded();
    } else if (request == m_identifyRequest) {
        m_identifyRequest = 0;
        m_status->setText(message);
        updateButtons();
    }
}

void CatalogsPage::refreshProviders(const QStringList &providers)
{
    if (isBusy() || providers.isEmpty())
        return;
    saveSettings();
    if (m_secrets->pending() > 0) {
        // The refresh reads the key from the store: it starts once the store has answered the calls made.
        m_deferredRefresh = providers;
        m_status->setText(tr("Waiting for the secret store…"));
        updateButtons();
        return;
    }
    startRefresh(providers);
}

void CatalogsPage::startRefresh(const QStringList &providers)
{
    m_service->setOptionsFromSettings(true); // the keychain is read on the refresh's worker thread
    const QSettings s;
    for (const QString &p : knownProviders()) {
        m_service->setBaseUrl(p, RefreshSettings::baseUrl(s, p));
        m_service->setSource(p, RefreshSettings::source(s, p));
    }
    m_importedInJob = false;
    m_updatedInJob.clear();
    m_failedInJob.clear();
    m_cancelledInJob.clear();
    setErrorStyle(m_status, false);
    for (const QString &p : providers) {
        m_bars.value(p)->setValue(0);
        m_bars.value(p)->setVisible(true);
        m_rowStatus.value(p)->setText(tr("waiting…"));
    }
    m_overall->setValue(0);
    m_overall->setVisible(true);
    m_status->setText(
        tr("Refreshing %1…")
            .arg(providers.size() == 1 ? providerDisplayName(providers.first()) : tr("all providers")));
    m_service->refresh(providers);
    updateButtons();
}

void CatalogsPage::importFiles(const QStringList &paths)
{
    if (isBusy() || paths.isEmpty())
        return;
    // Which provider the files belong to is read from them on the catalog service's worker.
    m_status->setText(tr("Reading %n file(s)…", nullptr, static_cast<int>(paths.size())));
    m_identifyRequest = m_catalog->identifyFiles(paths);
    updateButtons();
}

void CatalogsPage::onFilesIdentified(quint64 request, const QList<FileIdentity> &files)
{
    if (request != m_identifyRequest)
        return;
    m_identifyRequest = 0;
    updateButtons();
    QString provider;
    QStringList paths;
    for (const FileIdentity &file : files) {
        QString p = file.provider;
        if (file.needsProvider)
            p = m_providerChooser ? m_providerChooser(file.path) : QString();
        if (p.isEmpty()) {
            m_status->setText(!file.recognised
                                  ? tr("%1: not a price file GPU Frontier reads (provider formats, "
                                       "SkyPilot or GPU Frontier CSV)")
                                        .arg(QFileInfo(file.path).fileName())
                                  : tr("Import cancelled."));
            return;
        }
        if (!provider.isEmpty() && p != provider) {
            m_status->setText(
                tr("The files belong to different providers (%1 and %2): import them one provider at a time.")
                    .arg(providerDisplayName(provider), providerDisplayName(p)));
            return;
        }
        provider = p;
        paths.append(file.path);
    }
    m_importedInJob = false;
    m_updatedInJob.clear();
    m_failedInJob.clear();
    m_cancelledInJob.clear();
    setErrorStyle(m_status, false);
    m_bars.value(provider)->setValue(0);
    m_bars.value(provider)->setVisible(true);
    m_overall->setValue(0);
    m_overall->setVisible(true);
    m_status->setText(tr("Importing %1 file(s) of %2…").arg(paths.size()).arg(providerDisplayName(provider)));
    m_service->importFiles(provider, paths);
    updateButtons();
}

void CatalogsPage::chooseAndImport()
{
    const QStringList files = m_fileChooser ? m_fileChooser() : QStringList();
    if (!files.isEmpty())
        importFiles(files);
}

void CatalogsPage::cancel()
{
    if (!isBusy())
        return;
    if (!m_deferredRefresh.isEmpty() && !m_service->isRunning()) {
        m_deferredRefresh.clear();
        m_status->setText(tr("Refresh cancelled."));
        updateButtons();
        return;
    }
    m_service->cancel();
    m_status->setText(tr("Cancelling…"));
}

bool CatalogsPage::isBusy() const
{
    return m_service->isRunning() || m_identifyRequest != 0 || !m_deferredRefresh.isEmpty();
}

QString CatalogsPage::statusText() const
{
    return m_status->text();
}

void CatalogsPage::onProviderStarted(const QString &provider)
{
    m_runningProvider = provider;
    m_rowStatus.value(provider)->setText(tr("starting…"));
}

void CatalogsPage::onProgress(int permille, const QString &message)
{
    m_overall->setValue(permille);
    m_status->setText(message);
    if (QProgressBar *bar = m_bars.value(m_runningProvider)) {
        // The service reports over the whole job; the row bar follows the provider's own share.
        bar->setValue(std::min(1000, std::max(bar->value(), permille)));
        m_rowStatus.value(m_runningProvider)->setText(message);
    }
}

QString CatalogsPage::adviceFor(const QString &code)
{
    if (code == u"gcp-api-key")
        return tr("Enter a Cloud Billing Catalog API key under Sources on this page (or set "
                  "GPUFRONTIER_GCP_API_KEY).");
    if (code == u"tls-untrusted")
        return tr("Behind a proxy that inspects TLS, choose its CA certificate (a PEM file) as CA "
                  "certificates on this page.");
    if (code == u"ca-bundle-unreadable")
        return tr("Fix or clear the CA certificates file on this page.");
    if (code == u"no-public-api")
        return tr("Import a newer table with Import file... on this page.");
    return {};
}

void CatalogsPage::onFinished(const QString &provider, const RefreshOutcome &outcome)
{
    if (QProgressBar *bar = m_bars.value(provider)) {
        bar->setValue(1000);
        bar->setVisible(false);
    }
    QString text = outcome.message.section(u'\n', 0, 0);
    if (!outcome.warnings.isEmpty())
        text += tr(" (%n warning(s))", nullptr, static_cast<int>(outcome.warnings.size()));
    if (QLabel *l = m_rowStatus.value(provider)) {
        l->setText(text);
        const QString advice = adviceFor(outcome.code);
        l->setToolTip(outcome.message + (advice.isEmpty() ? QString() : u'\n' + advice) +
                      (outcome.warnings.isEmpty() ? QString() : u'\n' + outcome.warnings.join(u'\n')));
        setErrorStyle(l, !outcome.ok());
    }
    if (outcome.status == RefreshStatus::Imported) {
        m_importedInJob = true;
        m_updatedInJob.append(provider);
    } else if (outcome.status == RefreshStatus::Failed)
        m_failedInJob.append(providerDisplayName(provider));
    else if (outcome.status == RefreshStatus::Cancelled)
        m_cancelledInJob.append(providerDisplayName(provider));
}

void CatalogsPage::onJobFinished()
{
    m_overall->setVisible(false);
    m_runningProvider.clear();
    for (QProgressBar *bar : std::as_const(m_bars))
        bar->setVisible(false);
    // What happened, never a bare "Done." after a failure: each provider's row says why.
    QStringList parts;
    if (m_importedInJob)
        parts.append(tr("Catalog updated."));
    if (!m_failedInJob.isEmpty())
        parts.append(tr("Failed: %1 (its previous prices stay current; the row says why).")
                         .arg(m_failedInJob.join(QStringLiteral(", "))));
    if (!m_cancelledInJob.isEmpty())
        parts.append(tr("Cancelled: %1.").arg(m_cancelledInJob.join(QStringLiteral(", "))));
    if (parts.isEmpty())
        parts.append(tr("No new prices: the current snapshot is up to date."));
    m_status->setText(parts.join(u' '));
    setErrorStyle(m_status, !m_failedInJob.isEmpty());
    updateButtons();
    reload();
    if (m_importedInJob) {
        // What the new snapshots changed, said on the status line when the comparison is read.
        m_changesRequest = m_catalog->loadChanges(m_updatedInJob); // only the providers with a new snapshot
        Q_EMIT catalogChanged();
    }
    Q_EMIT jobEnded();
}

void CatalogsPage::showChanges(const QString &provider)
{
    auto *dialog = new ChangesDialog(m_catalog, provider, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show(); // not modal: it can stay open beside the page
}

void CatalogsPage::setReadOnly(bool readOnly)
{
    if (readOnly == m_readOnly)
        return;
    m_readOnly = readOnly;
    const QString why = tr("The catalog database is read-only (no write access to it or its folder): "
                           "nothing can be imported into it.");
    for (QPushButton *b : std::as_const(m_refresh))
        b->setToolTip(readOnly ? why : QString());
    m_refreshAll->setToolTip(readOnly ? why : QString());
    if (readOnly) {
        m_savedImportTip = m_import->toolTip();
        m_import->setToolTip(why);
    } else {
        m_import->setToolTip(m_savedImportTip);
    }
    updateButtons();
}

void CatalogsPage::updateButtons()
{
    const bool busy = isBusy();
    const bool canWrite = !busy && !m_readOnly;
    for (QPushButton *b : std::as_const(m_refresh))
        b->setEnabled(canWrite);
    m_refreshAll->setEnabled(canWrite);
    m_import->setEnabled(canWrite);
    m_cancel->setEnabled(busy);
}

void CatalogsPage::fillHistoryChoosers()
{
    const QString provider = m_histProvider->currentData().toString();
    const QString instance = m_histInstance->currentText();
    const QString region = m_histRegion->currentData().toString();
    {
        const QSignalBlocker a(m_histInstance);
        const QSignalBlocker b(m_histRegion);
        m_histInstance->clear();
        m_histInstance->addItems(m_load.instances.value(provider));
        m_histRegion->clear();
        m_histRegion->addItem(tr("All regions"), QString());
        for (const QString &r : m_load.regions.value(provider))
            m_histRegion->addItem(r, r);
        const int i = m_histInstance->findText(instance);
        m_histInstance->setCurrentIndex(i >= 0 ? i : (m_histInstance->count() ? 0 : -1));
        const int j = m_histRegion->findData(region);
        m_histRegion->setCurrentIndex(j >= 0 ? j : 0);
    }
    loadHistory();
}

void CatalogsPage::loadHistory()
{
    const QString provider = m_histProvider->currentData().toString();
    const QString instance = m_histInstance->currentText().trimmed();
    const QString region = m_histRegion->currentData().toString();
    if (instance.isEmpty()) {
        m_chart->clear(tr("Choose an instance type to see its price history."));
        return;
    }
    m_historyTitle =
        QStringLiteral("%1 %2%3").arg(providerDisplayName(provider), instance,
                                      region.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(region));
    m_historyRequest = m_catalog->loadHistory(provider, instance, region);
}

void CatalogsPage::onHistoryLoaded(quint64 request, const QList<Offer> &rows)
{
    if (request != m_historyRequest) // a newer selection is on its way: drop this one
        return;
    m_chart->setHistory(m_historyTitle, HistoryChart::pointsFrom(rows));
    Q_EMIT historyLoaded();
}

} // namespace gf

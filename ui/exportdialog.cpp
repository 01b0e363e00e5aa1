#include "exportdialog.h"
#include "frontierchart.h"
#include "uistyle.h"
#include "viewmodels/displaycurrency.h"

#include <QBuffer>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace gf {

namespace {

const QList<ExportKind> &allKinds()
{
    static const QList<ExportKind> kinds{ExportKind::Html,    ExportKind::Pdf,      ExportKind::Csv,
                                         ExportKind::Json,    ExportKind::Markdown, ExportKind::ChartPng,
                                         ExportKind::ChartSvg};
    return kinds;
}

bool isChart(ExportKind k)
{
    return k == ExportKind::ChartPng || k == ExportKind::ChartSvg;
}

std::optional<ReportFormat> reportFormat(ExportKind k)
{
    switch (k) {
    case ExportKind::Html:
        return ReportFormat::Html;
    case ExportKind::Pdf:
        return ReportFormat::Pdf;
    case ExportKind::Csv:
        return ReportFormat::Csv;
    case ExportKind::Json:
        return ReportFormat::Json;
    case ExportKind::Markdown:
        return ReportFormat::Markdown;
    case ExportKind::ChartPng:
    case ExportKind::ChartSvg:
        break;
    }
    return std::nullopt;
}

} // namespace

QString exportKindSuffix(ExportKind kind)
{
    if (kind == ExportKind::ChartPng)
        return QStringLiteral("png");
    if (kind == ExportKind::ChartSvg)
        return QStringLiteral("svg");
    return reportFormatName(*reportFormat(kind));
}

QString exportKindLabel(ExportKind kind)
{
    switch (kind) {
    case ExportKind::Html:
        return QObject::tr("HTML report (one self-contained file)");
    case ExportKind::Pdf:
        return QObject::tr("PDF report (A4, printable)");
    case ExportKind::Csv:
        return QObject::tr("CSV table (one row per offer, for spreadsheets)");
    case ExportKind::Json:
        return QObject::tr("JSON data (versioned schema)");
    case ExportKind::Markdown:
        return QObject::tr("Markdown (for issues and wikis)");
    case ExportKind::ChartPng:
        return QObject::tr("Chart image (PNG, as on screen)");
    case ExportKind::ChartSvg:
        return QObject::tr("Chart image (SVG, vector)");
    }
    return {};
}

Status writeChartImage(ExportKind kind, const QImage &image, const ProjectionResultsPtr &results,
                       const QString &path, const Currency &currency)
{
    if (kind == ExportKind::ChartSvg) {
        if (!results)
            return makeError(
                QObject::tr("There is no projection to draw yet: wait until the projection has finished."));
        const QString title = QObject::tr("%1: cost of the run versus time").arg(results->workload.name);
        return writeFileAtomically(path,
                                   frontierChartSvgDocument(*results, title, 880, 520, &currency).toUtf8());
    }
    if (image.isNull())
        return makeError(QObject::tr("The chart could not be captured (open the Frontier page first)."));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!image.save(&buffer, "PNG"))
        return makeError(QObject::tr("The chart could not be encoded as PNG."));
    return writeFileAtomically(path, png);
}

Status runExportJob(const ExportJob &job)
{
    if (isChart(job.kind))
        return writeChartImage(job.kind, job.chartImage, job.context.results, job.path, job.currency);
    if (!job.context.results)
        return makeError(
            QObject::tr("There is no projection to report on yet: wait until the projection has finished."));
    ReportInput in;
    in.results = job.context.results;
    in.snapshots = job.context.snapshots;
    in.offerSet = job.offers;
    in.generatedAt = job.generatedAt;
    in.title = job.title;
    in.currency = job.currency;
    const ProjectionResults &r = *job.context.results;
    auto projectAll = [&] {
        // The whole catalog, same workload, options, calibration and measurements, no filter.
        ProjectionRequest request = requestOf(r);
        request.filter = OfferFilter{};
        return std::make_shared<const ProjectionResults>(projectCatalog(job.context.catalog, request));
    };
    if (job.offers == ReportOfferSet::All && !r.filter.isEmpty() && !job.context.catalog.isEmpty())
        in.results = projectAll();
    if (job.offers == ReportOfferSet::Selected) {
        bool allInResults = true;
        for (int row : job.context.selectedCatalogRows) {
            const qsizetype i = r.catalogIndex.indexOf(row);
            if (i < 0)
                allInResults = false;
            else
                in.selectedOffers.append(i);
        }
        if (!allInResults && !job.context.catalog.isEmpty()) {
            // A selected offer is filtered out of the projection: project the whole catalog.
            in.results = projectAll();
            in.selectedOffers.clear();
            for (int row : job.context.selectedCatalogRows)
                if (row >= 0 && row < job.context.catalog.size())
                    in.selectedOffers.append(row);
        }
    }
    return writeReport(in, *reportFormat(job.kind), job.path);
}

// ------------------------------------------------------------------------------------------------

ExportDialog::ExportDialog(ExportContext context, QWidget *parent)
    : QDialog(parent), m_context(std::move(context))
{
    setWindowTitle(tr("Export report"));
    setObjectName(QStringLiteral("exportDialog"));
    m_chooser = [](QWidget *p, const QString &caption, const QString &path, const QString &filter) {
        return QFileDialog::getSaveFileName(p, caption, path, filter);
    };

    auto *form = new QFormLayout;
    m_format = new QComboBox(this);
    m_format->setObjectName(QStringLiteral("exportFormat"));
    for (ExportKind k : allKinds())
        m_format->addItem(exportKindLabel(k), static_cast<int>(k));
    form->addRow(tr("&Format:"), m_format);

    m_offers = new QComboBox(this);
    m_offers->setObjectName(QStringLiteral("exportOffers"));
    const qsizetype catalogSize = m_context.catalog.size();
    const qsizetype filtered = m_context.results ? m_context.results->offers.size() : 0;
    const qsizetype frontier = m_context.results ? m_context.results->frontierCount : 0;
    m_offers->addItem(tr("All offers of the catalog (%1)").arg(catalogSize),
                      static_cast<int>(ReportOfferSet::All));
    m_offers->addItem(tr("Filtered offers, as in the Offers table (%1)").arg(filtered),
                      static_cast<int>(ReportOfferSet::Filtered));
    m_offers->addItem(tr("Offers on the efficiency frontier (%1 points)").arg(frontier),
                      static_cast<int>(ReportOfferSet::Frontier));
    m_offers->addItem(m_context.selectedCatalogRows.isEmpty()
                          ? tr("Selected offers (none selected)")
                          : tr("Selected offers (%1)").arg(m_context.selectedCatalogRows.size()),
                      static_cast<int>(ReportOfferSet::Selected));
    form->addRow(tr("&Offers:"), m_offers);

    m_title = new QLineEdit(this);
    m_title->setObjectName(QStringLiteral("exportTitle"));
    m_title->setPlaceholderText(m_context.results
                                    ? tr("GPU Frontier report: %1").arg(m_context.results->workload.name)
                                    : tr("GPU Frontier report"));
    form->addRow(tr("&Title:"), m_title);

    auto *pathRow = new QHBoxLayout;
    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("exportPath"));
    m_path->setMinimumWidth(380);
    m_browse = new QPushButton(tr("&Browse…"), this);
    m_browse->setObjectName(QStringLiteral("exportBrowse"));
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_browse);
    auto *pathLabel = new QLabel(tr("&Save to:"), this);
    pathLabel->setBuddy(m_path);
    form->addRow(pathLabel, pathRow);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("exportStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0);
    m_busy->setMaximumHeight(10);
    m_busy->setTextVisible(false);
    m_busy->hide();

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    m_export = buttons->addButton(tr("&Export"), QDialogButtonBox::AcceptRole);
    m_export->setObjectName(QStringLiteral("exportButton"));
    m_export->setDefault(true);
    // Export keeps the dialog open (the outcome is shown in it); Close closes.
    connect(m_export, &QPushButton::clicked, this, [this] { startExport(); });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_busy);
    layout->addWidget(m_status);
    layout->addStretch(1);
    layout->addWidget(buttons);

    // Remembered choices.
    QSettings s;
    const int kind = s.value(QStringLiteral("export/format"), static_cast<int>(ExportKind::Html)).toInt();
    const int offers =
        s.value(QStringLiteral("export/offers"), static_cast<int>(ReportOfferSet::Filtered)).toInt();
    m_format->setCurrentIndex(std::max(0, m_format->findData(kind)));
    m_offers->setCurrentIndex(std::max(0, m_offers->findData(offers)));
    m_title->setText(s.value(QStringLiteral("export/title")).toString());
    QString dir = s.value(QStringLiteral("export/dir")).toString();
    if (dir.isEmpty() || !QFileInfo(dir).isDir())
        dir = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (dir.isEmpty())
        dir = QDir::homePath();
    const QString base =
        s.value(QStringLiteral("export/basename"), QStringLiteral("gpufrontier-report")).toString();
    m_path->setText(QDir(dir).filePath(base + u'.' + exportKindSuffix(this->kind())));
    onKindChanged();

    connect(m_format, &QComboBox::currentIndexChanged, this, &ExportDialog::onKindChanged);
    connect(m_browse, &QPushButton::clicked, this, &ExportDialog::browse);
    connect(&m_watcher, &QFutureWatcher<Status>::finished, this, &ExportDialog::onFinished);
    if (!m_context.results)
        setStatus(tr("The projection has not finished yet: only the chart image of the last results can be "
                     "exported."),
                  true);
}

ExportDialog::~ExportDialog()
{
    m_watcher.waitForFinished();
}

void ExportDialog::setKind(ExportKind kind)
{
    m_format->setCurrentIndex(std::max(0, m_format->findData(static_cast<int>(kind))));
}

ExportKind ExportDialog::kind() const
{
    return static_cast<ExportKind>(m_format->currentData().toInt());
}

void ExportDialog::setOfferSet(ReportOfferSet set)
{
    m_offers->setCurrentIndex(std::max(0, m_offers->findData(static_cast<int>(set))));
}

ReportOfferSet ExportDialog::offerSet() const
{
    return static_cast<ReportOfferSet>(m_offers->currentData().toInt());
}

void ExportDialog::setPath(const QString &path)
{
    m_path->setText(path);
}

QString ExportDialog::path() const
{
    return m_path->text().trimmed();
}

QString ExportDialog::statusText() const
{
    return m_status->text();
}

void ExportDialog::onKindChanged()
{
    const bool chart = isChart(kind());
    m_offers->setEnabled(!chart);
    m_title->setEnabled(!chart);
    setWindowTitle(chart ? tr("Export chart image") : tr("Export report"));
    // Keep the file name, change its suffix.
    const QString p = path();
    if (!p.isEmpty()) {
        const QFileInfo fi(p);
        const QString stem = fi.suffix().isEmpty() ? fi.fileName() : fi.completeBaseName();
        m_path->setText(QDir(fi.path()).filePath(stem + u'.' + exportKindSuffix(kind())));
    }
}

void ExportDialog::browse()
{
    const QString suffix = exportKindSuffix(kind());
    const QString filter = tr("%1 (*.%2)").arg(exportKindLabel(kind()), suffix);
    QString chosen = m_chooser(this, windowTitle(), path(), filter);
    if (chosen.isEmpty())
        return;
    if (QFileInfo(chosen).suffix().isEmpty())
        chosen += u'.' + suffix;
    m_path->setText(QDir::toNativeSeparators(chosen));
}

void ExportDialog::setStatus(const QString &text, bool error)
{
    m_status->setText(text);
    setErrorStyle(m_status, error);
}

bool ExportDialog::startExport()
{
    if (isBusy())
        return false;
    const QString target = QDir::fromNativeSeparators(path());
    if (target.isEmpty()) {
        setStatus(tr("Choose a file to save to."), true);
        Q_EMIT failed(m_status->text());
        return false;
    }
    // The default folder (Documents) may not exist yet on a fresh profile: make it. Any other missing
    // folder is an error the export reports (a typo should not create folders).
    const QString folder = QFileInfo(target).absolutePath();
    const QString documents = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (!documents.isEmpty() && !QFileInfo::exists(folder) &&
        QDir::cleanPath(folder) == QDir::cleanPath(documents))
        QDir().mkpath(folder);
    ExportJob job;
    job.context = m_context;
    job.kind = kind();
    job.offers = offerSet();
    job.path = target;
    job.title = m_title->text().trimmed();
    job.generatedAt = m_generatedAt;
    job.currency = DisplayCurrency::instance().current();
    if (job.kind == ExportKind::ChartPng) {
        // Widgets are grabbed on the GUI thread; encoding and writing happen on the worker.
        if (FrontierChart *chart = m_context.chartWidget)
            job.chartImage = chart->grabImage();
    }
    m_runningPath = target;
    saveSettings();
    m_export->setEnabled(false);
    m_busy->show();
    setStatus(tr("Exporting to %1 …").arg(QDir::toNativeSeparators(target)), false);
    m_watcher.setFuture(QtConcurrent::run(runExportJob, job));
    return true;
}

void ExportDialog::onFinished()
{
    m_busy->hide();
    m_export->setEnabled(true);
    const Status st = m_watcher.result();
    if (!st) {
        setStatus(tr("Export failed: %1").arg(st.error().text()), true);
        Q_EMIT failed(st.error().text());
        return;
    }
    setStatus(tr("Saved %1").arg(QDir::toNativeSeparators(m_runningPath)), false);
    Q_EMIT exported(m_runningPath);
}

void ExportDialog::saveSettings() const
{
    QSettings s;
    s.setValue(QStringLiteral("export/format"), static_cast<int>(kind()));
    s.setValue(QStringLiteral("export/offers"), static_cast<int>(offerSet()));
    s.setValue(QStringLiteral("export/title"), m_title->text().trimmed());
    const QFileInfo fi(QDir::fromNativeSeparators(path()));
    s.setValue(QStringLiteral("export/dir"), fi.absolutePath());
    s.setValue(QStringLiteral("export/basename"), fi.completeBaseName());
}

} // namespace gf

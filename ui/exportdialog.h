#pragma once

#include "domain/offerfilter.h"
#include "report/report.h"
#include "viewmodels/projectioncontroller.h"

#include <QDateTime>
#include <QDialog>
#include <QFutureWatcher>
#include <QImage>
#include <QPointer>

#include <functional>

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;

namespace gf {

class FrontierChart;

/// What the main window hands to the Export dialog (a snapshot of the GUI state when it opened).
struct ExportContext
{
    ProjectionResultsPtr results; ///< the current projection (of the filtered catalog)
    QList<Offer> catalog;         ///< the whole catalog: "All offers" projects it again off the GUI thread
    QList<Snapshot> snapshots;
    QList<int> selectedCatalogRows;      ///< rows of the Offers table's model (catalog order)
    OfferFilter filter;                  ///< the Offers page filter (for the description of "filtered")
    QPointer<FrontierChart> chartWidget; ///< the chart to grab for a PNG image
};

/// What one export writes.
enum class ExportKind : quint8
{
    Html,
    Pdf,
    Csv,
    Json,
    Markdown,
    ChartPng,
    ChartSvg
};
QString exportKindSuffix(ExportKind kind); ///< "html", ..., "png", "svg"
QString exportKindLabel(ExportKind kind);  ///< for the format box

/// Writes the chart image atomically: PNG from `image`, SVG drawn from `results` (the report's chart).
/// Safe on any thread.
Status writeChartImage(ExportKind kind, const QImage &image, const ProjectionResultsPtr &results,
                       const QString &path, const Currency &currency = usdCurrency());

/// Runs one export (the dialog's worker; also usable synchronously): re-projects the whole catalog for
/// "All offers" when the results are filtered, maps the selection, renders and writes atomically.
struct ExportJob
{
    ExportContext context;
    ExportKind kind = ExportKind::Html;
    ReportOfferSet offers = ReportOfferSet::Filtered;
    QString path;
    QString title;
    QDateTime generatedAt; ///< invalid = now
    QImage chartImage;     ///< grabbed on the GUI thread for ChartPng
    Currency currency;     ///< the display currency the documents show prices in (USD = the stored unit)
};
Status runExportJob(const ExportJob &job);

/// File > Export report: format, which offers, title and path (remembered in QSettings); the export runs
/// off the GUI thread, the dialog stays responsive and shows the outcome (a failure names the reason).
class ExportDialog final : public QDialog
{
    Q_OBJECT
public:
    /// A seam for tests: returns the chosen path or an empty string (default: QFileDialog).
    using FileChooser = std::function<QString(QWidget *parent, const QString &caption, const QString &path,
                                              const QString &filter)>;

    explicit ExportDialog(ExportContext context, QWidget *parent = nullptr);
    ~ExportDialog() override;

    void setFileChooser(FileChooser chooser) { m_chooser = std::move(chooser); }
    /// Pins the generated-at time (tests; the GUI uses the current time).
    void setGeneratedAt(const QDateTime &when) { m_generatedAt = when; }

    void setKind(ExportKind kind);
    ExportKind kind() const;
    void setOfferSet(ReportOfferSet set);
    ReportOfferSet offerSet() const;
    void setPath(const QString &path);
    QString path() const;

    /// Starts the export (the Export button). Returns false when nothing was started (busy, no path).
    bool startExport();
    /// Opens the file chooser (the "Browse…" button).
    void browse();
    bool isBusy() const { return m_watcher.isRunning(); }
    QString statusText() const;

    QComboBox *formatBox() const { return m_format; }
    QComboBox *offersBox() const { return m_offers; }
    QLineEdit *pathEdit() const { return m_path; }
    QLineEdit *titleEdit() const { return m_title; }
    QPushButton *exportButton() const { return m_export; }

Q_SIGNALS:
    void exported(const QString &path);
    void failed(const QString &message);

private:
    void onKindChanged();
    void onFinished();
    void setStatus(const QString &text, bool error);
    void saveSettings() const;

    ExportContext m_context;
    QComboBox *m_format = nullptr;
    QComboBox *m_offers = nullptr;
    QLineEdit *m_title = nullptr;
    QLineEdit *m_path = nullptr;
    QPushButton *m_browse = nullptr;
    QPushButton *m_export = nullptr;
    QLabel *m_status = nullptr;
    QProgressBar *m_busy = nullptr;
    QFutureWatcher<Status> m_watcher;
    QString m_runningPath;
    FileChooser m_chooser;
    QDateTime m_generatedAt;
};

} // namespace gf

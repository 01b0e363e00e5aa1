#include "measurementspage.h"
#include "uistyle.h"

#include "domain/workload.h"
#include "launch/measurementcompare.h"
#include "projection/speedmodel.h"
#include "projection/stepfloor.h"
#include "viewmodels/catalogservice.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QTableWidget>
#include <QVBoxLayout>

namespace gf {

namespace {

enum Column
{
    Id,
    WorkloadCol,
    Gpu,
    Measured,
    Projected,
    ErrorPct,
    GpuBusy,
    OfferCol,
    MeasuredAt,
    Source,
    ColumnCount
};

/// A number shown with fixed decimals that sorts by its value.
class NumberItem final : public QTableWidgetItem
{
public:
    NumberItem(double v, int decimals) : QTableWidgetItem(QString::number(v, 'f', decimals)), m_value(v)
    {
        setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    }
    bool operator<(const QTableWidgetItem &other) const override
    {
        if (const auto *n = dynamic_cast<const NumberItem *>(&other))
            return m_value < n->m_value;
        return QTableWidgetItem::operator<(other);
    }

private:
    double m_value;
};

QTableWidgetItem *numberItem(double v, int decimals)
{
    return new NumberItem(v, decimals);
}

} // namespace

MeasurementsPage::MeasurementsPage(CatalogService *service, QWidget *parent)
    : QWidget(parent), m_service(service)
{
    setObjectName(QStringLiteral("measurementsPage"));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(
        tr("Training throughput measured on rented offers (a launch plan with the probe or a validation "
           "sweep "
           "writes one JSON file per task). From the import on, that workload on that GPU is projected from "
           "the "
           "newest measurement (flag \"measured\"). Projected: the model's figure without the measurement, "
           "at the "
           "measured batch."),
        this);
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *buttons = new QHBoxLayout;
    auto *import = new QPushButton(tr("&Import…"), this);
    import->setObjectName(QStringLiteral("importMeasurements"));
    import->setToolTip(tr("Measurement files of a launch plan (results/*.json) or saved job logs."));
    m_delete = new QPushButton(tr("&Delete"), this);
    m_delete->setObjectName(QStringLiteral("deleteMeasurement"));
    m_delete->setEnabled(false);
    buttons->addWidget(import);
    buttons->addWidget(m_delete);
    buttons->addStretch(1);
    layout->addLayout(buttons);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("measurementsTable"));
    m_table->setHorizontalHeaderLabels(
        {tr("ID"), tr("Workload"), tr("GPU"), tr("Measured\n(samples/s per GPU)"),
         tr("Projected\n(samples/s per GPU)"), tr("Error\n(%)"), tr("GPU busy\n(%)"), tr("Offer"),
         tr("Measured at (UTC)"), tr("Source")});
    m_table->horizontalHeaderItem(Measured)->setToolTip(
        tr("Samples per second per GPU that the run measured (its figure over all GPUs / GPU count)."));
    m_table->horizontalHeaderItem(Projected)->setToolTip(
        tr("The model's single-GPU samples/s for this workload on this GPU, with the calibration in use, "
           "ignoring the measurement, at the batch the run measured."));
    m_table->horizontalHeaderItem(ErrorPct)->setToolTip(
        tr("(projected − measured) / measured × 100: positive = the model was optimistic."));
    m_table->horizontalHeaderItem(GpuBusy)->setToolTip(
        tr("The share of each measured step in which the GPU worked (gf_measure.py). Under %1 % the GPU "
           "waited for the host: the CPU or the input pipeline set the speed (host-bound), and carried to "
           "other GPUs that step stays a floor. By nvidia-smi (which reads high; a user command's share) "
           "%1 % to under %2 % is \"maybe host-bound\": carried as GPU-bound, with ranges that reach that "
           "floor. "
           "Empty: the run did not measure it.")
            .arg(QString::number(kHostBoundBusy * 100, 'f', 0),
                 QString::number(kSmiGpuBoundBusy * 100, 'f', 0)));
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->setVisible(false);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSortingEnabled(true);
    layout->addWidget(m_table, 1);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("measurementsStatus"));
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_status);

    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_delete->setEnabled(!m_table->selectionModel()->selectedRows().isEmpty()); });
    connect(import, &QPushButton::clicked, this, &MeasurementsPage::chooseFilesToImport);
    connect(m_delete, &QPushButton::clicked, this, [this] {
        const QModelIndexList rows = m_table->selectionModel()->selectedRows(Id);
        if (rows.isEmpty())
            return;
        const qint64 id = rows.first().data(Qt::DisplayRole).toString().toLongLong();
        if (QMessageBox::question(
                this, tr("Delete measurement"),
                tr("Delete measurement %1? Projections use the model again where it was the "
                   "only one.")
                    .arg(id)) != QMessageBox::Yes)
            return;
        m_emptyHint = false;
        m_changeRequest = m_service->deleteMeasurement(id);
    });
    connect(m_service, &CatalogService::measurementsLoaded, this,
            [this](quint64 request, const QList<UserMeasurementRecord> &records) {
                if (request != m_loadRequest)
                    return;
                m_records = records;
                m_loaded = true;
                fill();
            });
    connect(m_service, &CatalogService::measurementsImported, this,
            [this](quint64 request, const MeasurementImport &result) {
                if (request != m_changeRequest)
                    return;
                m_status->setStyleSheet(QString());
                m_status->setText(
                    tr("Imported: %1 new, %2 already stored.").arg(result.added).arg(result.duplicates) +
                    u'\n' + result.lines.join(u'\n'));
                reload();
                Q_EMIT measurementsChanged();
            });
    connect(m_service, &CatalogService::measurementDeleted, this, [this](quint64 request, qint64 id) {
        if (request != m_changeRequest)
            return;
        m_status->setStyleSheet(QString());
        m_status->setText(tr("Deleted measurement %1.").arg(id));
        reload();
        Q_EMIT measurementsChanged();
    });
    connect(m_service, &CatalogService::failed, this, [this](quint64 request, const QString &message) {
        if (request != m_changeRequest && request != m_loadRequest)
            return;
        m_status->setStyleSheet(QStringLiteral("color: %1").arg(errorColor(palette()).name()));
        m_status->setText(tr("Nothing was imported or changed: %1").arg(message));
    });
    reload();
}

void MeasurementsPage::setCalibration(const Calibration &calibration)
{
    m_calibration = calibration;
    fill();
}

void MeasurementsPage::chooseFilesToImport()
{
    QSettings s;
    const QStringList files = QFileDialog::getOpenFileNames(
        this, tr("Import measurements"), s.value(QStringLiteral("measurements/lastDir")).toString(),
        tr("Measurements (*.json *.log *.txt);;All files (*)"));
    if (files.isEmpty())
        return;
    s.setValue(QStringLiteral("measurements/lastDir"), QFileInfo(files.first()).absolutePath());
    importFiles(files);
}

void MeasurementsPage::importFiles(const QStringList &paths)
{
    m_emptyHint = false; // the status line now tells how the import went
    m_status->setStyleSheet(QString());
    m_status->setText(tr("Importing %n file(s)…", nullptr, static_cast<int>(paths.size())));
    m_changeRequest = m_service->importMeasurements(paths);
}

void MeasurementsPage::reload()
{
    m_loadRequest = m_service->loadMeasurements();
}

QString MeasurementsPage::statusText() const
{
    return m_status->text();
}

void MeasurementsPage::fill()
{
    ThroughputMeasurements list;
    for (const UserMeasurementRecord &r : std::as_const(m_records))
        list.append(r.measurement);
    const QList<MeasurementComparison> rows = compareMeasurements(list, builtinWorkloads(), m_calibration);
    m_table->setSortingEnabled(false);
    m_table->setRowCount(static_cast<int>(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        const MeasurementComparison &c = rows.at(i);
        const UserMeasurementRecord &r = m_records.at(i);
        m_table->setItem(i, Id, numberItem(static_cast<double>(r.id), 0));
        m_table->setItem(i, WorkloadCol, new QTableWidgetItem(c.measurement.workloadId));
        m_table->setItem(i, Gpu, new QTableWidgetItem(c.measurement.gpuId));
        auto *measured = numberItem(c.measurement.samplesPerSPerGpu, 2);
        measured->setToolTip(tr("%1 GPU(s), batch %2 per GPU, %3")
                                 .arg(c.measurement.gpuCount)
                                 .arg(c.measurement.batchPerGpu)
                                 .arg(c.measurement.precision));
        m_table->setItem(i, Measured, measured);
        if (c.projectedPerGpu) {
            m_table->setItem(i, Projected, numberItem(*c.projectedPerGpu, 2));
        } else {
            auto *none = new QTableWidgetItem(tr("–"));
            none->setToolTip(c.why);
            m_table->setItem(i, Projected, none);
        }
        if (const auto e = c.errorPct()) {
            auto *err = numberItem(*e, 1);
            err->setToolTip(tr("The model projects %1 samples/s per GPU; measured %2.")
                                .arg(QString::number(*c.projectedPerGpu, 'f', 2),
                                     QString::number(c.measurement.samplesPerSPerGpu, 'f', 2)));
            m_table->setItem(i, ErrorPct, err);
        } else {
            m_table->setItem(i, ErrorPct, new QTableWidgetItem(tr("–")));
        }
        if (c.measurement.gpuBusyFraction > 0) {
            auto *busy = numberItem(c.measurement.gpuBusyFraction * 100, 0);
            if (c.measurement.gpuBusyFraction < kHostBoundBusy ||
                SpeedModel::builtin().busyMayBeHostBound(c.measurement))
                busy->setText(gpuBusyText(c.measurement));
            busy->setToolTip(gpuBusyExplanation(c.measurement));
            m_table->setItem(i, GpuBusy, busy);
        } else {
            m_table->setItem(i, GpuBusy, new QTableWidgetItem(tr("–")));
        }
        const QString offer = offerLabel(c.measurement);
        m_table->setItem(i, OfferCol, new QTableWidgetItem(offer.isEmpty() ? tr("–") : offer));
        m_table->setItem(i, MeasuredAt,
                         new QTableWidgetItem(c.measurement.measuredAt.isValid()
                                                  ? c.measurement.measuredAt.toString(Qt::ISODate)
                                                  : tr("unknown")));
        auto *source = new QTableWidgetItem(c.measurement.source);
        source->setToolTip(tr("Imported %1 from %2").arg(r.importedAt.toString(Qt::ISODate), r.origin));
        m_table->setItem(i, Source, source);
    }
    m_table->setSortingEnabled(true);
    m_table->resizeColumnsToContents();
    if (!rows.isEmpty() && m_emptyHint) {
        m_status->clear();
        m_emptyHint = false;
    }
    if (rows.isEmpty() && m_loaded && m_status->text().isEmpty()) {
        m_emptyHint = true;
        m_status->setText(
            tr("No measurements yet. Write a launch plan (File > Launch plan…) with the probe or a "
               "validation sweep, run it, then Import… its results/*.json."));
    }
}

} // namespace gf

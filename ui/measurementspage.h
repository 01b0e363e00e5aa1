#pragma once

#include "projection/projection.h"
#include "viewmodels/catalogservice.h"

#include <QList>
#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace gf {

class CatalogService;

/// The Measurements page: imported measurements of a workload's samples/s on a GPU (from launch plans)
/// beside what the model projects for them, with the model's error. Import… and Delete go through the
/// catalog service; measurementsChanged() tells the window to project again.
class MeasurementsPage final : public QWidget
{
    Q_OBJECT
public:
    explicit MeasurementsPage(CatalogService *service, QWidget *parent = nullptr);

    /// The calibration the comparison uses (the projection's).
    void setCalibration(const Calibration &calibration);
    /// Stores the measurements of these files (as Import… does, without the file dialog).
    void importFiles(const QStringList &paths);
    /// Asks for measurement files (a file dialog) and imports them: the Import button and File menu.
    void chooseFilesToImport();
    void reload();
    QTableWidget *table() const { return m_table; }
    QString statusText() const;

Q_SIGNALS:
    void measurementsChanged();

private:
    void fill();

    CatalogService *m_service = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_status = nullptr;
    QPushButton *m_delete = nullptr;
    QList<UserMeasurementRecord> m_records;
    Calibration m_calibration;
    quint64 m_loadRequest = 0;
    quint64 m_changeRequest = 0;
    bool m_loaded = false;    ///< the records were read at least once
    bool m_emptyHint = false; ///< the status line shows the "no measurements yet" hint
};

} // namespace gf

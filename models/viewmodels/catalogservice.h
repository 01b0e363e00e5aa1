#pragma once

#include "domain/offer.h"
#include "domain/throughputmeasurement.h"
#include "projection/projection.h"
#include "store/catalogstore.h"
#include "util/result.h"
#include "viewmodels/catalogstatusmodel.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>

class QThread;

namespace gf {

class RefreshService;

/// The whole catalog as the pages start from it.
struct CatalogLoad
{
    QList<Offer> offers;       ///< the current snapshot of every provider
    QList<Snapshot> snapshots; ///< every snapshot, newest first per provider
    int bundledImported = 0;   ///< providers imported from the bundled snapshot by this load
    qint64 elapsedMs = 0;
    Calibration calibration; ///< from the stored probe runs (newest readable), else the defaults
    /// Why the stored probe runs could not be read (the defaults calibrate then); empty when they were.
    QString calibrationProblem;
    bool readOnly = false; ///< the database cannot be written: opened for reading only
    /// Imported user measurements (ProjectionOptions::measurements: the measured speed of a workload on a
    /// GPU)
    ThroughputMeasurements measurements;
};

/// How an import of measurement files went (every file is read and checked before anything is stored).
struct MeasurementImport
{
    int added = 0;
    int duplicates = 0; ///< stored before: not stored again
    QStringList lines;  ///< one line per measurement: workload, GPU, samples/s per GPU, source
};

/// What the Catalogs page shows: per provider its status, instance types and regions.
struct CatalogStatusLoad
{
    QList<ProviderStatus> statuses;
    QHash<QString, QStringList> instances; ///< provider -> instance types of its current snapshot
    QHash<QString, QStringList> regions;   ///< provider -> regions of its current snapshot
};

/// Which provider a price file belongs to, learned by reading it (off the GUI thread).
struct FileIdentity
{
    QString path;
    QString provider;           ///< empty when the file does not say (SkyPilot CSV) or is unreadable
    bool recognised = false;    ///< a price format GPU Frontier reads
    bool needsProvider = false; ///< recognised, but the user must name the provider (SkyPilot CSV)
};

/// The one way the GUI reads and writes the catalog database. Requests run one at a time on a
/// worker thread that owns its own SQLite connection; answers arrive as signals on the thread of
/// the service (the GUI thread), each carrying the number its request returned, so a page can drop
/// answers to requests it has superseded. Refreshes and file imports run through the
/// RefreshService it owns (their own worker). Nothing here blocks the caller.
class CatalogService final : public QObject
{
    Q_OBJECT
public:
    explicit CatalogService(QString dbPath, QObject *parent = nullptr);
    ~CatalogService() override; ///< finishes the request in progress, drops the queued ones

    QString dbPath() const { return m_dbPath; }
    /// Live refreshes and file imports (progress, per-provider outcomes, cancel).
    RefreshService *refresher() const { return m_refresher; }
    /// Requests queued or running.
    int pending() const { return m_pending; }

    quint64 loadCatalog();  ///< -> catalogLoaded
    quint64 loadStatuses(); ///< -> statusesLoaded
    quint64 loadHistory(const QString &provider, const QString &instanceType,
                        const QString &region); ///< -> historyLoaded
    /// What changed between each provider's two newest good snapshots: these providers' (every provider's
    /// when empty), so that a refresh of one provider reads only its snapshots. -> changesLoaded
    quint64 loadChanges(const QStringList &providers = {});
    quint64 loadProbeRuns();                        ///< -> probeRunsLoaded
    quint64 addProbeRun(const ProbeRunRecord &run); ///< -> probeRunAdded
    /// Stores a probe result (a local run or an imported document) with where it came from. -> probeRunAdded
    quint64 addProbeResult(const ProbeResult &result, const QString &origin, const QByteArray &json);
    quint64 identifyFiles(const QStringList &paths); ///< -> filesIdentified
    quint64 loadMeasurements();                      ///< -> measurementsLoaded (newest measured first)
    /// Reads measurement files (gf_measure.py JSON or job logs) and stores what they hold. A file that is
    /// not readable or not a measurement stores nothing and fails the request. -> measurementsImported
    quint64 importMeasurements(const QStringList &paths);
    quint64 deleteMeasurement(qint64 id); ///< -> measurementDeleted

    /// Test seam: every request waits this long on the worker before it runs (a slow disk, a
    /// database locked by another process). A new service starts with $GPUFRONTIER_TEST_STORE_DELAY_MS.
    void setRequestDelayForTesting(int ms) { m_delayMs = ms; }

Q_SIGNALS:
    void catalogLoaded(quint64 request, const gf::CatalogLoad &load);
    void statusesLoaded(quint64 request, const gf::CatalogStatusLoad &load);
    void historyLoaded(quint64 request, const QList<gf::Offer> &rows);
    void changesLoaded(quint64 request, const QList<gf::SnapshotChanges> &changes);
    void probeRunsLoaded(quint64 request, const QList<gf::ProbeRunRecord> &runs);
    void probeRunAdded(quint64 request, qint64 runId);
    void filesIdentified(quint64 request, const QList<gf::FileIdentity> &files);
    void measurementsLoaded(quint64 request, const QList<gf::UserMeasurementRecord> &records);
    void measurementsImported(quint64 request, const gf::MeasurementImport &result);
    void measurementDeleted(quint64 request, qint64 id);
    /// A request failed; message names the database and what could not be done.
    void failed(quint64 request, const QString &message);
    /// pending() went from 0 to more or back.
    void busyChanged(bool busy);

private:
    class Worker;
    /// Runs work on the worker; its answer (called on the service's thread) emits the signal.
    template <class T>
    quint64 post(std::function<Result<T>(Worker &)> work, std::function<void(quint64, const T &)> answer);
    void finishOne();

    QString m_dbPath;
    QThread *m_thread = nullptr;
    Worker *m_worker = nullptr;
    RefreshService *m_refresher = nullptr;
    quint64 m_nextRequest = 1;
    int m_pending = 0;
    std::atomic_int m_delayMs{0};
    std::atomic_bool m_closing{false};
};

} // namespace gf

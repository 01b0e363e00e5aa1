#include "viewmodels/catalogservice.h"

#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "launch/measurementcompare.h"
#include "launch/measurementjson.h"
#include "probe/calibrationchoice.h"
#include "probe/probejson.h"
#include "providers/providerimport.h"
#include "providers/snapshotfile.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/refreshservice.h"
#include "store/proberecord.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QThread>

namespace gf {

/// Lives on the service's worker thread and owns the SQLite connection of that thread.
class CatalogService::Worker final : public QObject
{
public:
    explicit Worker(QString dbPath) : m_dbPath(std::move(dbPath)) {}

    /// The store, opened on first use (and filled with the bundled snapshot when empty).
    Result<CatalogStore *> store()
    {
        if (m_store)
            return m_store.get();
        if (CatalogStore::isWriteProtected(m_dbPath)) {
            // Reading needs no write access: show the catalog, writes say why they cannot.
            auto readOnly = CatalogStore::openReadOnly(m_dbPath);
            if (!readOnly)
                return readOnly.error();
            m_store = std::move(readOnly).value();
            return m_store.get();
        }
        auto opened = CatalogStore::open(m_dbPath);
        if (!opened)
            return opened.error();
        auto bundled = importBundledIfEmpty(*opened.value(), GpuCatalog::builtin());
        if (!bundled)
            return bundled.error().prefixed(QStringLiteral("Cannot import the bundled price snapshot: "));
        m_bundledImported += bundled.value();
        m_store = std::move(opened).value();
        return m_store.get();
    }

    bool isReadOnly() const { return m_store && m_store->isReadOnly(); }

    /// Providers imported from the bundled snapshot since the last call.
    int takeBundledImported() { return std::exchange(m_bundledImported, 0); }

    void close() { m_store.reset(); }

private:
    QString m_dbPath;
    std::unique_ptr<CatalogStore> m_store;
    int m_bundledImported = 0;
};

namespace {

FileIdentity identify(const QString &path)
{
    FileIdentity id;
    id.path = path;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return id;
    QByteArray head = f.read(64 * 1024);
    const ProviderFormat format = detectProviderFormat(head);
    id.recognised = format != ProviderFormat::Unknown;
    if (format == ProviderFormat::GpuFrontierCsv) {
        // The provider column of the first rows is enough: parse whole lines of the head only.
        if (!f.atEnd())
            head.truncate(head.lastIndexOf('\n') + 1);
        auto parsed = parseSnapshotCsv(QString::fromUtf8(head), QFileInfo(path).fileName());
        if (parsed)
            id.provider = parsed.value().provider;
        return id;
    }
    id.provider = providerOfFormat(format);
    id.needsProvider = format == ProviderFormat::SkypilotCsv && id.provider.isEmpty();
    return id;
}

} // namespace

CatalogService::CatalogService(QString dbPath, QObject *parent) : QObject(parent), m_dbPath(std::move(dbPath))
{
    m_thread = new QThread(this);
    m_thread->setObjectName(QStringLiteral("catalog-service"));
    m_worker = new Worker(m_dbPath);
    m_worker->moveToThread(m_thread);
    m_thread->start();
    m_refresher = new RefreshService(m_dbPath, this);
    // Test seam for whole windows built by a test: GPUFRONTIER_TEST_STORE_DELAY_MS slows every request.
    m_delayMs = qEnvironmentVariableIntValue("GPUFRONTIER_TEST_STORE_DELAY_MS");
}

CatalogService::~CatalogService()
{
    m_closing = true;
    // The connection belongs to the worker thread: close it there, then stop the thread.
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->close(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker;
}

template <class T>
quint64 CatalogService::post(std::function<Result<T>(Worker &)> work,
                             std::function<void(quint64, const T &)> answer)
{
    const quint64 request = m_nextRequest++;
    if (m_pending++ == 0)
        Q_EMIT busyChanged(true);
    QMetaObject::invokeMethod(
        m_worker,
        [this, request, work = std::move(work), answer = std::move(answer)] {
            if (m_closing)
                return;
            if (const int delay = m_delayMs.load(); delay > 0)
                QThread::msleep(static_cast<unsigned long>(delay));
            auto result = std::make_shared<Result<T>>(work(*m_worker));
            QMetaObject::invokeMethod(
                this,
                [this, request, result, answer] {
                    if (result->ok())
                        answer(request, result->value());
                    else
                        Q_EMIT failed(request, result->error().text());
                    finishOne();
                },
                Qt::QueuedConnection);
        },
        Qt::QueuedConnection);
    return request;
}

void CatalogService::finishOne()
{
    if (--m_pending == 0)
        Q_EMIT busyChanged(false);
}

quint64 CatalogService::loadCatalog()
{
    return post<CatalogLoad>(
        [](Worker &w) -> Result<CatalogLoad> {
            QElapsedTimer timer;
            timer.start();
            auto store = w.store();
            if (!store)
                return store.error();
            CatalogLoad load;
            load.bundledImported = w.takeBundledImported();
            load.readOnly = w.isReadOnly();
            auto offers = store.value()->currentOffers();
            if (!offers)
                return offers.error();
            auto snaps = store.value()->snapshots();
            if (!snaps)
                return snaps.error();
            load.offers = std::move(offers).value();
            load.snapshots = std::move(snaps).value();
            auto runs = store.value()->probeRuns();
            load.calibration = chooseCalibration(runs ? runs.value() : QList<ProbeRunRecord>{}).calibration;
            if (!runs) // the offers are still worth showing; the caller says which calibration they get
                load.calibrationProblem = runs.error().text();
            auto measured = store.value()->userMeasurements();
            if (!measured)
                return measured.error();
            for (const UserMeasurementRecord &r : measured.value())
                load.measurements.append(r.measurement);
            load.elapsedMs = timer.elapsed();
            return load;
        },
        [this](quint64 request, const CatalogLoad &load) { Q_EMIT catalogLoaded(request, load); });
}

quint64 CatalogService::loadStatuses()
{
    return post<CatalogStatusLoad>(
        [](Worker &w) -> Result<CatalogStatusLoad> {
            auto store = w.store();
            if (!store)
                return store.error();
            CatalogStatusLoad load;
            auto statuses = loadProviderStatuses(*store.value());
            if (!statuses)
                return statuses.error();
            load.statuses = statuses.value();
            auto names = store.value()->currentNames(); // not the offers: a 100,000-row catalog stays cheap
            if (!names)
                return names.error();
            load.instances = std::move(names.value().instances);
            load.regions = std::move(names.value().regions);
            return load;
        },
        [this](quint64 request, const CatalogStatusLoad &load) { Q_EMIT statusesLoaded(request, load); });
}

quint64 CatalogService::loadHistory(const QString &provider, const QString &instanceType,
                                    const QString &region)
{
    return post<QList<Offer>>(
        [=](Worker &w) -> Result<QList<Offer>> {
            auto store = w.store();
            if (!store)
                return store.error();
            return store.value()->history(provider, instanceType, region);
        },
        [this](quint64 request, const QList<Offer> &rows) { Q_EMIT historyLoaded(request, rows); });
}

quint64 CatalogService::loadChanges(const QStringList &providers)
{
    return post<QList<SnapshotChanges>>(
        [=](Worker &w) -> Result<QList<SnapshotChanges>> {
            auto store = w.store();
            if (!store)
                return store.error();
            if (providers.isEmpty())
                return store.value()->latestChanges();
            QList<SnapshotChanges> out;
            for (const QString &p : providers) {
                auto one = store.value()->latestChanges(p);
                if (!one)
                    return one.error();
                out += one.value();
            }
            return out;
        },
        [this](quint64 request, const QList<SnapshotChanges> &changes) {
            Q_EMIT changesLoaded(request, changes);
        });
}

quint64 CatalogService::loadProbeRuns()
{
    return post<QList<ProbeRunRecord>>(
        [](Worker &w) -> Result<QList<ProbeRunRecord>> {
            auto store = w.store();
            if (!store)
                return store.error();
            return store.value()->probeRuns();
        },
        [this](quint64 request, const QList<ProbeRunRecord> &runs) {
            Q_EMIT probeRunsLoaded(request, runs);
        });
}

quint64 CatalogService::addProbeRun(const ProbeRunRecord &run)
{
    return post<qint64>(
        [run](Worker &w) -> Result<qint64> {
            auto store = w.store();
            if (!store)
                return store.error();
            return store.value()->addProbeRun(run);
        },
        [this](quint64 request, const qint64 &id) { Q_EMIT probeRunAdded(request, id); });
}

quint64 CatalogService::addProbeResult(const ProbeResult &result, const QString &origin,
                                       const QByteArray &json)
{
    return addProbeRun(makeProbeRunRecord(result, origin, json));
}

quint64 CatalogService::loadMeasurements()
{
    return post<QList<UserMeasurementRecord>>(
        [](Worker &w) -> Result<QList<UserMeasurementRecord>> {
            auto store = w.store();
            if (!store)
                return store.error();
            return store.value()->userMeasurements();
        },
        [this](quint64 request, const QList<UserMeasurementRecord> &records) {
            Q_EMIT measurementsLoaded(request, records);
        });
}

quint64 CatalogService::importMeasurements(const QStringList &paths)
{
    return post<MeasurementImport>(
        [paths](Worker &w) -> Result<MeasurementImport> {
            QList<std::pair<QString, QList<MeasurementDocument>>> docs;
            for (const QString &path : paths) {
                auto parsed = readMeasurementFile(path, GpuCatalog::builtin());
                if (!parsed)
                    return parsed.error();
                if (auto st = checkMeasurementsPlausible(parsed.value(), path, builtinWorkloads()); !st)
                    return st.error();
                docs.append({QFileInfo(path).absoluteFilePath(), parsed.value()});
            }
            auto store = w.store();
            if (!store)
                return store.error();
            MeasurementImport out;
            for (const auto &[path, list] : docs) {
                for (const MeasurementDocument &d : list) {
                    auto r = store.value()->addUserMeasurement(d.measurement, path, d.json);
                    if (!r)
                        return r.error();
                    (r.value().duplicate ? out.duplicates : out.added) += 1;
                    out.lines.append(
                        QStringLiteral("%1 on %2: %3 samples/s per GPU (%4)%5")
                            .arg(d.measurement.workloadId, d.measurement.gpuId,
                                 QString::number(d.measurement.samplesPerSPerGpu, 'f', 2),
                                 d.measurement.source,
                                 r.value().duplicate ? QStringLiteral(", already stored") : QString()));
                }
            }
            return out;
        },
        [this](quint64 request, const MeasurementImport &result) {
            Q_EMIT measurementsImported(request, result);
        });
}

quint64 CatalogService::deleteMeasurement(qint64 id)
{
    return post<qint64>(
        [id](Worker &w) -> Result<qint64> {
            auto store = w.store();
            if (!store)
                return store.error();
            if (auto st = store.value()->deleteUserMeasurement(id); !st)
                return st.error();
            return id;
        },
        [this](quint64 request, const qint64 &deleted) { Q_EMIT measurementDeleted(request, deleted); });
}

quint64 CatalogService::identifyFiles(const QStringList &paths)
{
    return post<QList<FileIdentity>>(
        [paths](Worker &) -> Result<QList<FileIdentity>> {
            QList<FileIdentity> out;
            for (const QString &p : paths)
                out.append(identify(p));
            return out;
        },
        [this](quint64 request, const QList<FileIdentity> &files) {
            Q_EMIT filesIdentified(request, files);
        });
}

} // namespace gf

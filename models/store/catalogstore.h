#pragma once

#include "domain/offer.h"
#include "domain/offertable.h"
#include "domain/proberesult.h"
#include "domain/snapshotchanges.h"
#include "domain/snapshotdata.h"
#include "domain/throughputmeasurement.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace gf {

class GpuCatalog;

/// How one import went.
struct ImportOutcome
{
    qint64 snapshotId = 0;
    int rows = 0;
    int unrecognised = 0;
    bool unchanged = false; ///< same payload as the current snapshot: nothing new was written
    QStringList warnings;
};

struct ImportOptions
{
    bool validate = true; ///< tests switch it off to exercise the database's own constraints
    ValidationLimits limits;
    /// The payload's SHA-256 (raw) when the caller computed it while streaming; the payload is then not
    /// hashed (it may be empty).
    QByteArray payloadSha256;
};

/// A stored user measurement (measurementrecord.cpp).
struct UserMeasurementRecord
{
    qint64 id = 0;
    ThroughputMeasurement measurement; ///< kind User
    QDateTime importedAt;              ///< UTC
    QString origin;                    ///< the file it was imported from
    QByteArray json;                   ///< the document as imported
};

/// How one user measurement import went.
struct UserMeasurementAdded
{
    qint64 id = 0;
    bool duplicate = false; ///< the same measurement was stored before: nothing new was written
};

class SnapshotImport;

/// The SQLite catalog: snapshots, offers, canonical GPUs, probe runs.
/// One instance owns one named connection and must be used on the thread that opened it.
class CatalogStore
{
public:
    ~CatalogStore();
    CatalogStore(const CatalogStore &) = delete;
    CatalogStore &operator=(const CatalogStore &) = delete;

    /// Opens (creating if needed) and migrates the database to the current schema.
    static Result<std::unique_ptr<CatalogStore>> open(const QString &path);
    /// Opens an existing database for reading only (a read-only folder or file, another user's
    /// database): nothing is created or changed next to it, and every write fails with a message that
    /// says the database is read-only. The schema must be the current one (an upgrade needs to write).
    static Result<std::unique_ptr<CatalogStore>> openReadOnly(const QString &path);
    /// Whether an existing database cannot be written by this user: the file or its folder (where SQLite
    /// keeps its journal) is not writable.
    static bool isWriteProtected(const QString &path);
    /// Opens without migrating past `targetVersion` (tests build older schemas with it).
    static Result<std::unique_ptr<CatalogStore>> openAtVersion(const QString &path, int targetVersion);

    /// The default database path: $GPUFRONTIER_DB, else the app-data folder.
    static QString defaultPath();
    static int latestSchemaVersion();

    QString path() const { return m_path; }
    /// Name of this store's QSqlDatabase connection, for helpers that share it (same thread).
    QString connectionName() const { return m_connection; }
    int schemaVersion() const;
    /// Opened by openReadOnly: every write is refused.
    bool isReadOnly() const { return m_readOnly; }
    /// Before the first write of this connection (every write of the store and of RefreshState calls it):
    /// not read-only, PRAGMA quick_check finds no damage and the schema is still the expected one.
    Status checkBeforeWrite() const;

    /// Imports one provider's catalog as a new snapshot, in ONE transaction.
    /// On any failure the database is exactly as before.
    Result<ImportOutcome> importSnapshot(SnapshotData data, SourceKind kind, const QString &origin,
                                         const QByteArray &payload, const GpuCatalog &gpus,
                                         const ImportOptions &options = {});
    /// A streamed import of one provider's catalog (its parser gives the offers to the returned sink as it
    /// reads them): still ONE transaction, and on any failure, or when the import is dropped unfinished,
    /// the database is exactly as before. `cancel` set: the import stops with an error at the next chunk.
    Result<std::unique_ptr<SnapshotImport>> beginImport(SourceKind kind, const QString &origin,
                                                        const GpuCatalog &gpus,
                                                        const ImportOptions &options = {},
                                                        const std::atomic_bool *cancel = nullptr);
    /// The providers that have at least one snapshot (good or failed).
    Result<QStringList> providersWithSnapshots() const;

    Result<QList<Snapshot>> snapshots(const QString &provider = {}) const;
    /// Offers of the current (newest good) snapshot of every provider, with the price-sanity flags
    /// recomputed over them as one population (domain/pricesanity.h).
    Result<QList<Offer>> currentOffers() const;
    /// The same offers, flags and medians held compactly (the CLI's `offers` and `frontier` over a
    /// million offers).
    Result<OfferTable> currentOfferTable() const;
    /// The offers of one snapshot (current or past) in stored order, without the price-sanity flags.
    Result<QList<Offer>> snapshotOffers(qint64 snapshotId) const;
    /// What changed in each provider's catalog between its two newest good snapshots
    /// (snapshotchangesread.cpp), every provider with a good snapshot in provider-table order, or one
    /// provider.
    Result<QList<SnapshotChanges>> latestChanges(const QString &provider = {}) const;
    /// The instance types and the regions of every provider's current snapshot, each sorted and distinct
    /// (what the price-history choosers list), read without loading the offers.
    struct CurrentNames
    {
        QHash<QString, QStringList> instances; ///< provider -> instance types
        QHash<QString, QStringList> regions;   ///< provider -> regions
    };
    Result<CurrentNames> currentNames() const;
    /// Every stored price of one instance type across snapshots, oldest first.
    Result<QList<Offer>> history(const QString &provider, const QString &instanceType,
                                 const QString &region = {}) const;

    /// SQLite's plan (EXPLAIN QUERY PLAN, one line per step) for each query that reads offers: "current
    /// offers" (one snapshot's rows), "history" (one instance type in every snapshot), "history in a region"
    /// and "current names". For the scale benchmarks and a test that every one of them uses an index.
    Result<QList<std::pair<QString, QStringList>>> offerQueryPlans() const;

    /// Stores a probe run; the same document again (kind and JSON) gives the stored run's id. A run dated
    /// in the future (beyond store::kClockSkewS) is refused.
    Result<qint64> addProbeRun(const ProbeRunRecord &run);
    Result<QList<ProbeRunRecord>> probeRuns() const;

    /// User measurements (measurementrecord.cpp): stores one (kind User, workload and GPU id set,
    /// samples/s per GPU > 0); the same measurement twice is stored once.
    Result<UserMeasurementAdded> addUserMeasurement(const ThroughputMeasurement &m, const QString &origin,
                                                    const QByteArray &json);
    /// Every user measurement, newest measured first.
    Result<QList<UserMeasurementRecord>> userMeasurements() const;
    /// Removes one; an error when there is no such id.
    Status deleteUserMeasurement(qint64 id);

private:
    friend class SnapshotImport;
    explicit CatalogStore(QString path, QString connection);
    Status migrate(int targetVersion);
    Status syncGpuModels(const GpuCatalog &gpus);
    /// The tables and indexes are the current schema's, and nothing else is there (a trigger, a view).
    Status checkSchema() const;
    Result<QList<Offer>> queryOffers(const QString &where, const QVariantList &binds) const;
    /// The current offers, before the price-sanity flags, each handed to `sink`; `reserve` first gets
    /// their number.
    Status readCurrentOffers(const std::function<void(qsizetype)> &reserve,
                             const std::function<void(Offer &&)> &sink) const;

    /// The error of a write to a read-only database (null when writable).
    std::optional<Error> readOnlyError() const;

    QString m_path;
    QString m_connection;
    bool m_readOnly = false;
    mutable bool m_intact = false; ///< checkBeforeWrite passed
};

/// One streamed import (CatalogStore::beginImport). The offers are validated (SnapshotValidator) and
/// inserted a chunk of kChunkRows at a time inside the import's one transaction, so that what is held does
/// not grow with the catalog: identical rows and offer ids are looked up in temporary tables. finish()
/// commits; dropping the import unfinished rolls it back.
class SnapshotImport final : public OfferSink
{
public:
    static constexpr qsizetype kChunkRows = 2048;
    /// SQLite's page caches while an import runs (KiB): the offers' pages and those of the temporary
    /// tables of repeats. With SQLite's default (2 MiB) a large import writes its pages out and reads them
    /// back many times over; the import sets these at its first chunk and gives the connection its
    /// earlier sizes back when it ends.
    static constexpr int kImportCacheKiB = 32 * 1024;
    static constexpr int kImportTempCacheKiB = 16 * 1024;

    ~SnapshotImport() override;
    SnapshotImport(const SnapshotImport &) = delete;
    SnapshotImport &operator=(const SnapshotImport &) = delete;

    Status begin(const SnapshotData &head) override;
    Status add(Offer &&offer) override;
    /// add() with the row's prepareRow, made on the reading thread: its texts' check and its digest are not
    /// made again.
    Status addPrepared(Offer &&offer, const PreparedRow &prepared) override;
    /// After the last offer: `meta` holds the catalog's description and the parser's warnings (its offers
    /// are ignored; provider and date are begin()'s; begin() is called with `meta` when no offer came).
    /// `payloadSha256` is the snapshot's checksum (raw SHA-256): the same as the provider's current
    /// snapshot's, nothing new is written and the outcome says unchanged.
    Result<ImportOutcome> finish(SnapshotData meta, const QByteArray &payloadSha256);

    /// The most offers this import held at once (a chunk at most).
    qsizetype peakRowsHeld() const { return m_peakHeld; }
    /// Every offer given to add().
    qint64 rowsReceived() const { return m_received; }

private:
    friend class CatalogStore;
    class PageCache;
    class Seen;
    SnapshotImport(CatalogStore &store, SourceKind kind, QString origin, const GpuCatalog &gpus,
                   ImportOptions options, const std::atomic_bool *cancel);
    Status flush(bool last);
    Status start();
    Status insert(const QList<Offer> &rows);

    CatalogStore &m_store;
    SourceKind m_kind;
    QString m_origin;
    const GpuCatalog &m_gpus;
    ImportOptions m_options;
    const std::atomic_bool *m_cancel;
    std::unique_ptr<PageCache> m_cache; ///< before m_seen and m_tx: restored after they are gone
    std::unique_ptr<Seen> m_seen;
    std::unique_ptr<SnapshotValidator> m_validator;
    struct Tx;
    std::unique_ptr<Tx> m_tx;
    SnapshotData m_head;
    bool m_begun = false;
    bool m_validating = false;
    bool m_unchanged = false; ///< the checksum given up front is the current snapshot's: nothing is inserted
    qint64 m_currentId = 0;
    QString m_currentChecksum;
    qint64 m_snapshotId = 0;
    QList<Offer> m_chunk;
    std::vector<PreparedRow> m_prepared; ///< one per offer of m_chunk
    qsizetype m_peakHeld = 0;
    qint64 m_received = 0;
    qint64 m_inserted = 0;
    int m_unrecognised = 0;
};

} // namespace gf

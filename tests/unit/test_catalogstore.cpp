#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "refresh/bundledsnapshot.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSet>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

/// A fingerprint of every row of every table: equal before and after = nothing changed.
QByteArray dumpDatabase(const QString &path)
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    const QString name = QStringLiteral("dump");
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open())
            return {};
        QSqlQuery q(db);
        for (const QString &table : {QStringLiteral("snapshot"), QStringLiteral("offer"),
                                     QStringLiteral("gpu_model"), QStringLiteral("probe_run")}) {
            q.exec(QStringLiteral("SELECT * FROM %1 ORDER BY 1").arg(table));
            while (q.next())
                for (int i = 0; i < q.record().count(); ++i)
                    h.addData(QByteArray(q.value(i).toString().toUtf8() + '\x1f'));
        }
    }
    QSqlDatabase::removeDatabase(name);
    return h.result();
}

SnapshotData parsed(const QByteArray &csv, const QString &origin = QStringLiteral("test.csv"))
{
    auto r = parseSnapshotCsv(QString::fromUtf8(csv), origin);
    if (!r)
        qFatal("fixture does not parse: %s", qPrintable(r.error().text()));
    return std::move(r).value();
}

} // namespace

class TestCatalogStore final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void migratesEmptyDatabase()
    {
        TempDb db;
        auto store = db.open();
        QCOMPARE(store->schemaVersion(), CatalogStore::latestSchemaVersion());
        QCOMPARE(countRows(db.path(), QStringLiteral("provider")), int(knownProviders().size()));
        // WAL and foreign keys are on.
        QSqlDatabase check = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("walcheck"));
        check.setDatabaseName(db.path());
        QVERIFY(check.open());
        QSqlQuery q(check);
        QVERIFY(q.exec(QStringLiteral("PRAGMA journal_mode")) && q.next());
        QCOMPARE(q.value(0).toString(), QStringLiteral("wal"));
        check.close();
        check = {};
        QSqlDatabase::removeDatabase(QStringLiteral("walcheck"));
    }

    void migratesFromOlderSchema()
    {
        TempDb db;
        {
            auto r = CatalogStore::openAtVersion(db.path(), 1);
            QVERIFY(r.ok());
            QCOMPARE(r.value()->schemaVersion(), 1);
            QCOMPARE(countRows(db.path(), QStringLiteral("probe_run")), -1); // table does not exist yet
        }
        {
            // Rows as the first version of the app wrote them (its own INSERT, version-1 columns).
            QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("v1"));
            raw.setDatabaseName(db.path());
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec(QStringLiteral(
                "INSERT INTO snapshot(id, provider, source_kind, origin, fetched_at, data_date, checksum, "
                "row_count) "
                "VALUES(1, 'aws', 'file', 'v1.csv', '2026-11-01T00:00:00Z', '2026-11-01', 'v1', 5)")));
            for (int i = 1; i <= 5; ++i)
                QVERIFY2(q.exec(QStringLiteral(
                                    "INSERT INTO offer(snapshot_id, provider, instance_type, region, "
                                    "gpu_raw_name, gpu_id, gpu_count, ondemand_usd_h, reliability, source) "
                                    "VALUES(1, 'aws', 'type-%1', 'us-east-1', 'A100', 'a100-80gb-sxm4', "
                                    "8, %1.5, NULL, 'v1')")
                                    .arg(i)),
                         qPrintable(q.lastError().text()));
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("v1"));
        auto store = db.open();
        QCOMPARE(store->schemaVersion(), CatalogStore::latestSchemaVersion());
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), 5); // data kept
        QCOMPARE(countRows(db.path(), QStringLiteral("probe_run")), 0);
        auto offers = store->currentOffers();
        QVERIFY(offers.ok());
        QCOMPARE(offers.value().size(), 5);
        QCOMPARE(*offers.value().first().onDemandUsdH, 1.5);
        QVERIFY(!offers.value().first().dlperf && !offers.value().first().uploadGbps); // columns added, empty
        // And the migrated database takes new imports with the new columns.
        SnapshotData more = parsed(makeCatalogCsv(QStringLiteral("vastai"), 5));
        more.offers.first().dlperf = 141.77;
        more.offers.first().uploadGbps = 2.24;
        QVERIFY(store
                    ->importSnapshot(std::move(more), SourceKind::File, QStringLiteral("v4.csv"), "v4",
                                     GpuCatalog::builtin())
                    .ok());
        const auto vast = store->currentOffers();
        QVERIFY(vast.ok());
        bool found = false;
        for (const Offer &o : vast.value())
            if (o.provider == u"vastai" && o.dlperf) {
                QCOMPARE(*o.dlperf, 141.77);
                QCOMPARE(*o.uploadGbps, 2.24);
                found = true;
            }
        QVERIFY(found);
    }

    void readsFilesWithoutTheNewerColumns()
    {
        // A catalog CSV written before upload_gbps/dlperf existed (and one without "source") still reads.
        const QByteArray old =
            "# provider: vastai\n"
            "provider,instance_type,region,zone,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,"
            "network_gbps,interconnect,ondemand_usd_h,spot_usd_h,spot_label,interruption,"
            "reliability,billing_increment_s,billing_minimum_s\n"
            "vastai,42,\"Texas, US\",,RTX 4090,1,24,16,64,0.5,,0.35,0.2,interruptible,,0.99,1,0\n";
        const SnapshotData d = parsed(old);
        QCOMPARE(d.offers.size(), 1);
        QCOMPARE(*d.offers.first().networkGbps, 0.5);
        QVERIFY(!d.offers.first().uploadGbps && !d.offers.first().dlperf);
        // With them, they are read; a bad value is named.
        QByteArray now = makeCatalogCsv(QStringLiteral("vastai"), 1);
        now.replace("fixture,,", "fixture,2.24,141.77");
        const SnapshotData n = parsed(now);
        QCOMPARE(*n.offers.first().uploadGbps, 2.24);
        QCOMPARE(*n.offers.first().dlperf, 141.77);
        now.replace("141.77", "fast");
        const auto bad = parseSnapshotCsv(QString::fromUtf8(now), QStringLiteral("bad.csv"));
        QVERIFY(!bad);
        QVERIFY2(bad.error().text().contains(QStringLiteral("dlperf is not a number")),
                 qPrintable(bad.error().text()));
    }

    void rejectsNewerSchema()
    {
        TempDb db;
        {
            auto store = db.open();
        }
        {
            QSqlDatabase raw = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("raw"));
            raw.setDatabaseName(db.path());
            QVERIFY(raw.open());
            QSqlQuery(raw).exec(QStringLiteral("PRAGMA user_version = 99"));
            raw.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("raw"));
        auto r = CatalogStore::open(db.path());
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("newer")), qPrintable(r.error().message));
    }

    void rejectsNonDatabaseFile()
    {
        TempDb db;
        QFile f(db.path());
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray(4096, 'x'));
        f.close();
        auto r = CatalogStore::open(db.path());
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(db.path()));
    }

    void rejectsFolderPath()
    {
        TempDb db;
        auto r = CatalogStore::open(db.dir());
        QVERIFY(!r.ok());
        QVERIFY(r.error().message.contains(QStringLiteral("folder")));
    }

    void importCreatesSnapshot()
    {
        TempDb db;
        auto store = db.open();
        const QByteArray csv = makeCatalogCsv(QStringLiteral("gcp"), 7);
        auto r = store->importSnapshot(parsed(csv), SourceKind::File, QStringLiteral("gcp.csv"), csv,
                                       GpuCatalog::builtin());
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        QCOMPARE(r.value().rows, 7);
        auto snaps = store->snapshots();
        QVERIFY(snaps.ok());
        QCOMPARE(snaps.value().size(), 1);
        const Snapshot &s = snaps.value().first();
        QCOMPARE(s.provider, QStringLiteral("gcp"));
        QCOMPARE(s.kind, SourceKind::File);
        QCOMPARE(s.origin, QStringLiteral("gcp.csv"));
        QCOMPARE(s.rowCount, 7);
        QCOMPARE(s.dataDate, QDate(2026, 11, 1));
        QVERIFY(s.current);
        QCOMPARE(s.checksum,
                 QString::fromLatin1(QCryptographicHash::hash(csv, QCryptographicHash::Sha256).toHex()));
        QVERIFY(qAbs(s.fetchedAt.secsTo(QDateTime::currentDateTimeUtc())) < 600);
        auto offers = store->currentOffers();
        QVERIFY(offers.ok());
        const Offer &o = offers.value().first();
        QCOMPARE(o.gpuId, QStringLiteral("a100-80gb-sxm4"));
        QCOMPARE(o.snapshotId, s.id);
        QCOMPARE(*o.onDemandUsdH, 1.0);
        QCOMPARE(*o.spotUsdH, 0.4);
        QVERIFY(!offers.value().at(1).spotUsdH.has_value());
    }

    /// A failure in the middle of an import leaves the database exactly as before.
    void failingImportRollsBack()
    {
        TempDb db;
        auto store = db.open();
        const QByteArray good = makeCatalogCsv(QStringLiteral("aws"), 4);
        QVERIFY(store
                    ->importSnapshot(parsed(good), SourceKind::File, QStringLiteral("good.csv"), good,
                                     GpuCatalog::builtin())
                    .ok());
        const QByteArray before = dumpDatabase(db.path());
        QVERIFY(!before.isEmpty());

        // The database's own CHECK rejects the last row (gpu_count 0): validation is switched off to get
        // there.
        SnapshotData bad = parsed(makeCatalogCsv(QStringLiteral("aws"), 50));
        bad.offers.last().gpuCount = 0;
        ImportOptions noValidation;
        noValidation.validate = false;
        auto r = store->importSnapshot(bad, SourceKind::File, QStringLiteral("bad.csv"), "bad",
                                       GpuCatalog::builtin(), noValidation);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("bad.csv")), qPrintable(r.error().message));
        QVERIFY(r.error().message.contains(QStringLiteral("nothing was imported")));
        QCOMPARE(dumpDatabase(db.path()), before);
        auto offers = store->currentOffers();
        QCOMPARE(offers.value().size(), 4);
    }

    void validationRejects_data()
    {
        QTest::addColumn<QString>("from");
        QTest::addColumn<QString>("to");
        QTest::addColumn<QString>("message");
        // makeCatalogCsv row 2: "aws,type-2,region-2,,A100-80GB,3,80,24,192,,,2.00,,spot,,,1,60,fixture,,,,"
        QTest::newRow("negative price")
            << QStringLiteral(",2.00,") << QStringLiteral(",-2.00,") << QStringLiteral("on-demand price -2");
        QTest::newRow("absurd price")
            << QStringLiteral(",2.00,") << QStringLiteral(",20000,") << QStringLiteral("not plausible");
        QTest::newRow("gpu count") << QStringLiteral("A100-80GB,3,") << QStringLiteral("A100-80GB,0,")
                                   << QStringLiteral("GPU count");
        QTest::newRow("not a number")
            << QStringLiteral(",2.00,") << QStringLiteral(",two,") << QStringLiteral("not a number");
        QTest::newRow("empty region") << QStringLiteral("type-2,region-2,") << QStringLiteral("type-2,,")
                                      << QStringLiteral("region is empty");
        QTest::newRow("other provider")
            << QStringLiteral("aws,type-2") << QStringLiteral("gcp,type-2") << QStringLiteral("differs");
        QTest::newRow("truncated row") << QStringLiteral(",2.00,,spot,,,1,60,fixture,,,,\n")
                                       << QStringLiteral(",2.00\n") << QStringLiteral("fields");
    }
    void validationRejects()
    {
        QFETCH(QString, from);
        QFETCH(QString, to);
        QFETCH(QString, message);
        TempDb db;
        auto store = db.open();
        const QByteArray good = makeCatalogCsv(QStringLiteral("aws"), 3);
        QVERIFY(store
                    ->importSnapshot(parsed(good), SourceKind::File, QStringLiteral("good.csv"), good,
                                     GpuCatalog::builtin())
                    .ok());
        const QByteArray before = dumpDatabase(db.path());

        QString text = QString::fromUtf8(makeCatalogCsv(QStringLiteral("aws"), 3));
        const qsizetype row2 = text.indexOf(QStringLiteral("aws,type-2"));
        const qsizetype at = text.indexOf(from, row2);
        QVERIFY(at > 0);
        text.replace(at, from.size(), to);
        QString error;
        auto p = parseSnapshotCsv(text, QStringLiteral("broken.csv"));
        if (!p) {
            error = p.error().text();
        } else {
            auto r =
                store->importSnapshot(std::move(p).value(), SourceKind::File, QStringLiteral("broken.csv"),
                                      text.toUtf8(), GpuCatalog::builtin());
            QVERIFY(!r.ok());
            error = r.error().text();
        }
        QVERIFY2(error.contains(message), qPrintable(error));
        QVERIFY2(error.contains(QStringLiteral("broken.csv")), qPrintable(error));
        QCOMPARE(dumpDatabase(db.path()), before);
    }

    void unrecognisedGpuKeptAndCounted()
    {
        TempDb db;
        auto store = db.open();
        const QByteArray csv =
            makeCatalogCsv(QStringLiteral("vastai"), 3, QStringLiteral("Mystery Accelerator X"));
        auto r = store->importSnapshot(parsed(csv), SourceKind::File, QStringLiteral("v.csv"), csv,
                                       GpuCatalog::builtin());
        QVERIFY(r.ok());
        QCOMPARE(r.value().unrecognised, 3);
        auto offers = store->currentOffers().value();
        QCOMPARE(offers.size(), 3);
        QVERIFY(offers.first().gpuId.isEmpty());
        QCOMPARE(offers.first().gpuRawName, QStringLiteral("Mystery Accelerator X"));
        QVERIFY(hasFlag(offers.first().flags, OfferFlag::UnrecognisedGpu));
        QCOMPARE(store->snapshots().value().first().unrecognisedCount, 3);
    }

    void spotAboveOnDemandFlagged()
    {
        TempDb db;
        auto store = db.open();
        QString text = QString::fromUtf8(makeCatalogCsv(QStringLiteral("aws"), 1));
        text.replace(QStringLiteral(",1.00,0.40,"), QStringLiteral(",1.00,1.50,"));
        auto r = store->importSnapshot(parsed(text.toUtf8()), SourceKind::File, QStringLiteral("s.csv"),
                                       text.toUtf8(), GpuCatalog::builtin());
        QVERIFY(r.ok());
        QCOMPARE(r.value().warnings.size(), 1);
        QVERIFY(hasFlag(store->currentOffers().value().first().flags, OfferFlag::SpotAboveOnDemand));
    }

    void historyKeepsOldSnapshots()
    {
        TempDb db;
        auto store = db.open();
        const QByteArray first = makeCatalogCsv(QStringLiteral("aws"), 2);
        QString second = QString::fromUtf8(first);
        second.replace(QStringLiteral(",1.00,"), QStringLiteral(",1.25,"));
        QVERIFY(store
                    ->importSnapshot(parsed(first), SourceKind::File, QStringLiteral("a"), first,
                                     GpuCatalog::builtin())
                    .ok());
        QTest::qWait(5); // distinct fetched_at
        QVERIFY(store
                    ->importSnapshot(parsed(second.toUtf8()), SourceKind::Live, QStringLiteral("b"),
                                     second.toUtf8(), GpuCatalog::builtin())
                    .ok());
        auto snaps = store->snapshots(QStringLiteral("aws")).value();
        QCOMPARE(snaps.size(), 2);
        QVERIFY(snaps.at(0).current);
        QVERIFY(!snaps.at(1).current);
        QCOMPARE(snaps.at(0).kind, SourceKind::Live);
        // Current offers come from the newest snapshot only.
        auto offers = store->currentOffers().value();
        QCOMPARE(offers.size(), 2);
        QCOMPARE(*offers.first().onDemandUsdH, 1.25);
        auto hist = store->history(QStringLiteral("aws"), QStringLiteral("type-1")).value();
        QCOMPARE(hist.size(), 2);
        QCOMPARE(*hist.at(0).onDemandUsdH, 1.0);
        QCOMPARE(*hist.at(1).onDemandUsdH, 1.25);
    }

    /// The names the price-history choosers list come from the current snapshots, distinct and sorted,
    /// without loading the offers; every offer read uses an index (no scan of the history).
    void currentNamesAndQueryPlans()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        auto names = store->currentNames();
        QVERIFY(names.ok());
        const QStringList aws = names.value().instances.value(QStringLiteral("aws"));
        QVERIFY(aws.contains(QStringLiteral("p4d.24xlarge")));
        QStringList sorted = aws;
        sorted.sort();
        QCOMPARE(aws, sorted);
        QCOMPARE(QSet<QString>(aws.begin(), aws.end()).size(), aws.size());
        QVERIFY(names.value().regions.value(QStringLiteral("aws")).contains(QStringLiteral("us-east-1")));
        // The same as reading every current offer.
        QHash<QString, QSet<QString>> fromOffers;
        for (const Offer &o : store->currentOffers().value())
            fromOffers[o.provider].insert(o.instanceType);
        for (auto it = fromOffers.cbegin(); it != fromOffers.cend(); ++it) {
            const QStringList listed = names.value().instances.value(it.key());
            QCOMPARE(QSet<QString>(listed.begin(), listed.end()), it.value());
        }

        auto plans = store->offerQueryPlans();
        QVERIFY2(plans.ok(), qPrintable(plans.ok() ? QString() : plans.error().text()));
        QCOMPARE(plans.value().size(), 4);
        for (const auto &[name, steps] : plans.value()) {
            const QString text = steps.join(u'\n');
            qInfo("%s:\n%s", qPrintable(name), qPrintable(text));
            QVERIFY2(!text.contains(QStringLiteral("SCAN o")),
                     qPrintable(name + u": " + text)); // no full scan
            QVERIFY2(text.contains(QStringLiteral("USING INDEX offer_")) ||
                         text.contains(QStringLiteral("USING COVERING INDEX offer_")),
                     qPrintable(name + u": " + text));
        }
    }

    void samePayloadIsUnchanged()
    {
        TempDb db;
        auto store = db.open();
        const QByteArray csv = makeCatalogCsv(QStringLiteral("azure"), 2);
        QVERIFY(store
                    ->importSnapshot(parsed(csv), SourceKind::File, QStringLiteral("a"), csv,
                                     GpuCatalog::builtin())
                    .ok());
        auto again = store->importSnapshot(parsed(csv), SourceKind::File, QStringLiteral("a"), csv,
                                           GpuCatalog::builtin());
        QVERIFY(again.ok());
        QVERIFY(again.value().unchanged);
        QCOMPARE(store->snapshots().value().size(), 1);
    }

    void bundledImportedOnceForAllProviders()
    {
        TempDb db;
        auto store = db.open();
        auto first = importBundledIfEmpty(*store, GpuCatalog::builtin());
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().text()));
        QCOMPARE(first.value(), int(knownProviders().size()));
        auto snaps = store->snapshots().value();
        QStringList providers;
        for (const Snapshot &s : snaps) {
            providers.append(s.provider);
            QCOMPARE(s.kind, SourceKind::Bundled);
            QVERIFY(s.dataDate.isValid());
            QVERIFY(s.rowCount > 0);
        }
        providers.sort();
        QStringList all = knownProviders(); // every provider of the table ships bundled prices
        all.sort();
        QCOMPARE(providers, all);
        const int offers = countRows(db.path(), QStringLiteral("offer"));
        QVERIFY(offers > 2000);
        // A later start does not import again.
        auto second = importBundledIfEmpty(*store, GpuCatalog::builtin());
        QVERIFY(second.ok());
        QCOMPARE(second.value(), 0);
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), offers);
        // Every bundled row keeps its source.
        for (const Offer &o : store->currentOffers().value())
            QVERIFY2(!o.source.isEmpty(), qPrintable(o.instanceType));
    }

    void bundledCoversRequiredFamilies()
    {
        TempDb db;
        auto store = db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()).ok());
        QSet<QString> families;
        QHash<QString, QSet<QString>> regions;
        int spot = 0;
        for (const Offer &o : store->currentOffers().value()) {
            if (o.provider == u"aws")
                families.insert(o.instanceType.section(u'.', 0, 0));
            regions[o.provider].insert(o.region);
            spot += o.spotUsdH ? 1 : 0;
        }
        for (const char *f : {"g4dn", "g5", "g6", "g6e", "p3", "p4d", "p5"})
            QVERIFY2(families.contains(QString::fromLatin1(f)), f);
        QVERIFY(regions.value(QStringLiteral("aws")).size() >= 5);
        QVERIFY(regions.value(QStringLiteral("gcp")).size() >= 5);
        QVERIFY(regions.value(QStringLiteral("azure")).size() >= 5);
        QVERIFY(regions.value(QStringLiteral("vastai")).size() >= 5);
        QVERIFY(spot > 1000);
    }

    void probeRunsStored()
    {
        TempDb db;
        auto store = db.open();
        ProbeRunRecord run;
        run.kind = QStringLiteral("cpu");
        run.origin = QStringLiteral("local");
        run.deviceName = QStringLiteral("Test CPU");
        run.schemaVersion = 1;
        run.json = "{}";
        auto id = store->addProbeRun(run);
        QVERIFY(id.ok());
        auto runs = store->probeRuns();
        QVERIFY(runs.ok());
        QCOMPARE(runs.value().size(), 1);
        QCOMPARE(runs.value().first().deviceName, QStringLiteral("Test CPU"));
    }
};

QTEST_GUILESS_MAIN(TestCatalogStore)
#include "test_catalogstore.moc"

// Streamed imports (CatalogStore::beginImport, SnapshotImport): the offers go into the import's one
// transaction a chunk at a time, so what is held does not grow with the catalog, and a failure after many
// rows still leaves the previous catalog exactly as it was.
#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "domain/providertables.h"
#include "domain/snapshotdata.h"
#include "providers/providerimport.h"
#include "providers/snapshotfile.h"
#include "refresh/catalogrefresher.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QBuffer>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

constexpr qsizetype kChunk = SnapshotImport::kChunkRows;

/// A GPU Frontier catalog CSV of `rows` plausible offers (prices stay within the validation's range).
QByteArray bigCatalog(const QString &provider, int rows, const QString &source = QStringLiteral("big"))
{
    QString s =
        QStringLiteral("# provider: %1\n# snapshot_date: 2026-11-01\n# source: %2\n").arg(provider, source);
    s += snapshotCsvColumns().join(u',') + u'\n';
    for (int i = 1; i <= rows; ++i)
        s += QStringLiteral("%1,type-%2,region-%3,,A100-80GB,%4,80,%5,%6,,,%7,,,,,1,60,fixture,,,,\n")
                 .arg(provider)
                 .arg(i)
                 .arg(i % 7)
                 .arg((i % 4) + 1)
                 .arg(8 * ((i % 4) + 1))
                 .arg(64 * ((i % 4) + 1))
                 .arg(QString::number(1 + (i % 300) * 0.25, 'f', 2));
    return s.toUtf8();
}

/// The current offers' fields that an import sets, one line per offer, in database order.
QStringList currentRows(CatalogStore &store)
{
    QStringList out;
    const auto offers = store.currentOffers();
    if (!offers)
        return {QStringLiteral("error: ") + offers.error().text()};
    for (const Offer &o : offers.value())
        out.append(QStringList{o.provider, o.instanceType, o.region, o.gpuId, QString::number(o.gpuCount),
                               QString::number(o.onDemandUsdH.value_or(-1)), QString::number(o.flags)}
                       .join(u'|'));
    return out;
}

/// Every field of the current offers that an import sets, one line per offer, in database order.
QStringList offerFields(CatalogStore &store)
{
    QStringList out;
    const auto offers = store.currentOffers();
    if (!offers)
        return {QStringLiteral("error: ") + offers.error().text()};
    auto n = [](const std::optional<double> &v) {
        return v ? QString::number(*v, 'g', 17) : QStringLiteral("-");
    };
    for (const Offer &o : offers.value())
        out.append(QStringList{o.provider,
                               o.instanceType,
                               o.region,
                               o.zone,
                               o.gpuRawName,
                               o.gpuId,
                               QString::number(o.gpuCount, 'g', 17),
                               n(o.gpuMemGb),
                               n(o.vcpus),
                               n(o.ramGb),
                               n(o.networkGbps),
                               o.interconnect,
                               n(o.onDemandUsdH),
                               n(o.spotUsdH),
                               o.spotLabel,
                               o.interruption,
                               n(o.reliability),
                               QString::number(o.billingIncrementS),
                               QString::number(o.billingMinimumS),
                               o.source,
                               QString::number(o.flags),
                               n(o.uploadGbps),
                               n(o.dlperf),
                               o.priceDate.toString(Qt::ISODate),
                               o.listingEnd.toString(Qt::ISODate)}
                       .join(u'|'));
    return out;
}

/// The snapshot `streamedId` of `streamed` (in `streamedDb`) has the checksum (`fingerprint`), date, note and
/// row count of `wholeId` in `whole`; importing `path` again is unchanged and writes nothing. Empty when so,
/// else what differs; `before`: the streamed database's dump.
QString sameSnapshot(CatalogStore &whole, qint64 wholeId, CatalogStore &streamed, qint64 streamedId,
                     const TempDb &streamedDb, const QByteArray &fingerprint, CatalogRefresher &r,
                     const QString &provider, const QString &path, QByteArray *before)
{
    auto snapshot = [&](CatalogStore &store, qint64 id) {
        for (const Snapshot &s : store.snapshots(provider).value())
            if (s.id == id)
                return QStringList{s.checksum, s.dataDate.toString(Qt::ISODate), s.note,
                                   QString::number(s.rowCount)};
        return QStringList();
    };
    const QStringList got = snapshot(streamed, streamedId);
    if (got != snapshot(whole, wholeId) || got.value(0) != QString::fromLatin1(fingerprint.toHex()))
        return QStringLiteral("snapshots differ: ") + got.join(u'|');
    *before = dumpCatalog(streamedDb.path());
    const RefreshOutcome again = r.importFiles(provider, {path});
    if (again.status != RefreshStatus::Unchanged)
        return QStringLiteral("not unchanged: ") + again.message;
    if (dumpCatalog(streamedDb.path()) != *before)
        return QStringLiteral("the unchanged import wrote");
    return {};
}

/// A vast.ai answer of `offers` offers in the API's shape, with assorted GPUs, places, shares and prices
/// (some repeated rows, one rented, one without a price); `repeatId`: offer `repeatId` takes offer 5's id
/// (on another machine: a different offer under the same id).
QByteArray vastAnswer(int offers, int repeatId = 0)
{
    static const char *const gpus[][2] = {{"RTX 4090", "24564"},
                                          {"H100 SXM", "81559"},
                                          {"RTX 3090", "24576"},
                                          {"L40S", "46068"},
                                          {"Tesla V100", "16384"}};
    static const char *const places[] = {"Quebec, CA", "Texas, US", "  Oslo, NO ", "", "Tokyo, JP"};
    QByteArray s = R"({"url":"/offers","offers":[)";
    for (int i = 1; i <= offers; ++i) {
        const int id = i == repeatId ? 5 : (i % 97 == 0 ? i - 1 : i); // every 97th repeats the one before
        const int n = (id % 4) + 1;
        const auto *gpu = gpus[id % 5];
        QByteArray o =
            R"({"id":)" + QByteArray::number(1000 + id) + R"(,"num_gpus":)" + QByteArray::number(n) +
            R"(,"gpu_name":")" + gpu[0] + R"(","gpu_ram":)" + gpu[1] +
            R"(,"cpu_cores":64,"cpu_cores_effective":)" + QByteArray::number(16 * n) +
            R"(,"cpu_ram":257000,"inet_down":)" + QByteArray::number(100 + id % 900) + R"(,"inet_up":)" +
            QByteArray::number(50 + id % 400) + R"(,"dph_total":)" +
            QByteArray::number(0.15 + (id % 300) * 0.0137, 'g', 12) + R"(,"min_bid":)" +
            QByteArray::number(0.1 + (id % 300) * 0.005, 'g', 12) + R"(,"dlperf":)" +
            QByteArray::number(20 + (id % 70) * 1.25) + R"(,"reliability2":0.99)" +
            QByteArray::number(id % 10) + R"(,"rentable":true,"rented":)" + (id == 77 ? "true" : "false") +
            R"(,"end_date":1900000000.5,"duration":86400,"machine_id":)" +
            QByteArray::number(i == repeatId ? 999999 : id / 3) + R"(,"geolocation":")" + places[id % 5] +
            R"(","verification":")" + (id % 2 ? "verified" : "unverified") + R"(","search":{"totalHour":)" +
            (id == 78 ? "0" : "1") + R"(},"unread":{"a":[1,2,{"b":null}]}})";
        if (id == 78)
            o.replace(R"("dph_total":)", R"("dph_total_x":)");
        s += o;
        s += i < offers ? ",\n" : "\n";
    }
    s += R"(],"timestamp":"2026-11-20T10:00:00Z"})";
    return s;
}

/// `answer` (vastAnswer's, one offer a line) with texts the import cleans: the GPU name of offer line `at`
/// ending in BEL, then that offer again with U+FFFD there (the two rows are identical only once cleaned: the
/// second is a repeat), and the next offer's place with an ESC and a right-to-left override.
QByteArray withUnprintableTexts(const QByteArray &answer, int at)
{
    QList<QByteArray> lines = answer.split('\n');
    const QByteArray line = lines.at(at);
    const qsizetype name = line.indexOf("\"gpu_name\":\"") + 12;
    const qsizetype end = line.indexOf('"', name);
    QByteArray bel = line, replaced = line;
    bel.insert(end, "\\u0007");
    replaced.insert(end, "\\ufffd");
    lines[at] = bel;
    lines.insert(at + 1, replaced);
    QByteArray &next = lines[at + 2];
    next.replace("\"geolocation\":\"", "\"geolocation\":\"\\u001b[31m\\u202e");
    return lines.join('\n');
}

} // namespace

class TestStreamedImport final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void holdsAChunkAtMost()
    {
        TempDb db;
        auto store = db.open();
        const int rows = static_cast<int>(kChunk * 5 + 17);
        QByteArray csv = bigCatalog(QStringLiteral("aws"), rows);
        QBuffer in(&csv);
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto session = store->beginImport(SourceKind::File, QStringLiteral("big.csv"), GpuCatalog::builtin());
        QVERIFY2(session.ok(), qPrintable(session.ok() ? QString() : session.error().text()));
        SnapshotImport &import = *session.value();
        auto meta = parseSnapshotCsv(in, QStringLiteral("big.csv"), InputLimits{}, import);
        QVERIFY2(meta.ok(), qPrintable(meta.ok() ? QString() : meta.error().text()));
        QVERIFY(meta.value().offers.isEmpty());
        auto outcome = import.finish(std::move(meta).value(), QByteArray(32, 'x'));
        QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().text()));
        QCOMPARE(outcome.value().rows, rows);
        QCOMPARE(import.rowsReceived(), qint64(rows));
        // Never more than a chunk of offers held, whatever the catalog's size.
        QVERIFY2(import.peakRowsHeld() <= kChunk, qPrintable(QString::number(import.peakRowsHeld())));
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), rows);
    }

    void sameSnapshotAsTheWholeCatalog()
    {
        // A row identical to one three chunks earlier, and one GPU name unknown: the streamed import drops
        // and flags exactly as validating the whole catalog at once does.
        QByteArray csv = bigCatalog(QStringLiteral("aws"), static_cast<int>(kChunk * 3 + 5));
        const QList<QByteArray> lines = csv.split('\n');
        csv += lines.at(10) + '\n'; // line 7 + 4 header lines: a repeat of an early row
        csv +=
            QByteArrayLiteral("aws,odd-1,region-1,,Mystery GPU 9000,1,16,8,64,,,2.00,,,,,1,60,fixture,,,,\n");
        TempDb whole, streamed;
        auto a = whole.open();
        auto b = streamed.open();
        auto data = parseSnapshotCsv(QString::fromUtf8(csv), QStringLiteral("c.csv"));
        QVERIFY(data.ok());
        auto one = a->importSnapshot(std::move(data).value(), SourceKind::File, QStringLiteral("c.csv"), csv,
                                     GpuCatalog::builtin());
        QVERIFY2(one.ok(), qPrintable(one.ok() ? QString() : one.error().text()));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("c.csv"));
        writeFile(path, csv);
        CatalogRefresher r(*b, RefreshOptions{});
        const RefreshOutcome two = r.importFiles(QStringLiteral("aws"), {path});
        QVERIFY2(two.status == RefreshStatus::Imported, qPrintable(two.message));
        QCOMPARE(two.rows, one.value().rows);
        QCOMPARE(two.unrecognised, one.value().unrecognised);
        QCOMPARE(two.unrecognised, 1);
        QCOMPARE(two.rows, static_cast<int>(kChunk * 3 + 6));
        QCOMPARE(two.warnings, one.value().warnings);
        QVERIFY2(two.warnings.join(u'\n').contains(QStringLiteral("1 rows identical to an earlier row")),
                 qPrintable(two.warnings.join(u'\n')));
        QCOMPARE(currentRows(*b), currentRows(*a));
        // The same file again: unchanged, nothing new written.
        const QByteArray before = dumpCatalog(streamed.path());
        const RefreshOutcome again = r.importFiles(QStringLiteral("aws"), {path});
        QVERIFY2(again.status == RefreshStatus::Unchanged, qPrintable(again.message));
        QCOMPARE(dumpCatalog(streamed.path()), before);
    }

    // A SkyPilot catalog file (vms.csv) streams into the import, a chunk held at most: the same rows, date,
    // warnings and checksum as reading the file whole and importing it (readProviderFiles + composeProvider,
    // the fingerprint as checksum); the same file again is unchanged; a row refused after two chunks leaves
    // the database as it was.
    void skypilotFileStreamsLikeTheWholeImport()
    {
        const int rows = static_cast<int>(kChunk * 2 + 900);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("vms.csv"));
        writeFile(path, skypilotLambdaCatalog(rows));
        const QString lambda = QStringLiteral("lambda");

        TempDb whole, streamed, counted;
        auto a = whole.open();
        auto b = streamed.open();
        auto parts = readProviderFiles(lambda, {path}, ProviderTables::builtin());
        QVERIFY(parts.ok());
        auto data = composeProvider(std::move(parts).value(), ProviderTables::builtin());
        QVERIFY(data.ok());
        ImportOptions options;
        options.payloadSha256 = snapshotFingerprintSha256(data.value());
        const QByteArray fingerprint = options.payloadSha256;
        const QStringList warnings = data.value().warnings;
        auto one = a->importSnapshot(std::move(data).value(), SourceKind::File, QStringLiteral("vms.csv"), {},
                                     GpuCatalog::builtin(), options);
        QVERIFY2(one.ok(), qPrintable(one.ok() ? QString() : one.error().text()));

        CatalogRefresher r(*b, RefreshOptions{});
        const RefreshOutcome two = r.importFiles(lambda, {path});
        QVERIFY2(two.status == RefreshStatus::Imported, qPrintable(two.message));
        QCOMPARE(two.rows, rows);
        QCOMPARE(two.rows, one.value().rows);
        QCOMPARE(two.warnings, one.value().warnings + warnings);
        QCOMPARE(currentRows(*b), currentRows(*a));
        QByteArray before;
        const QString problem = sameSnapshot(*a, one.value().snapshotId, *b, two.snapshotId, streamed,
                                             fingerprint, r, lambda, path, &before);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // What the import held: a chunk at most.
        auto c = counted.open();
        auto session = c->beginImport(SourceKind::File, QStringLiteral("vms.csv"), GpuCatalog::builtin());
        QVERIFY(session.ok());
        QByteArray sha256;
        auto meta = streamCatalogFile(lambda, path, *session.value(), InputLimits{}, &sha256,
                                      ProviderTables::builtin());
        QVERIFY2(meta.ok(), qPrintable(meta.ok() ? QString() : meta.error().text()));
        QCOMPARE(sha256, fingerprint);
        auto three = session.value()->finish(std::move(meta).value(), sha256);
        QVERIFY(three.ok());
        QCOMPARE(three.value().rows, rows);
        QVERIFY2(session.value()->peakRowsHeld() <= kChunk,
                 qPrintable(QString::number(session.value()->peakRowsHeld())));

        // A row the import refuses after two chunks went in.
        writeFile(path, skypilotLambdaCatalog(rows, rows - 3));
        const QByteArray unchanged = dumpCatalog(streamed.path());
        const RefreshOutcome bad = r.importFiles(lambda, {path});
        QCOMPARE(bad.status, RefreshStatus::Failed);
        QVERIFY2(bad.message.contains(QStringLiteral("vCPU count 99999")), qPrintable(bad.message));
        QCOMPARE(dumpCatalog(streamed.path()), unchanged);
    }

    void vastFileStreamsLikeTheWholeImport_data()
    {
        QTest::addColumn<bool>("unprintable");
        QTest::newRow("printable texts") << false;
        // The reading thread works out each row's digest where its texts are printable (prepareRow); a row
        // whose texts are cleaned is digested as cleaned, so that it repeats a row it equals only then.
        QTest::newRow("texts cleaned") << true;
    }

    void vastFileStreamsLikeTheWholeImport()
    {
        // A vast.ai answer file is read on a thread of its own while the import runs (OfferPipe): the same
        // snapshot as parsing it whole and importing that, the same checksum, "unchanged" the second time.
        QFETCH(bool, unprintable);
        const int offers = static_cast<int>(kChunk * 2 + 700);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("answer.json"));
        writeFile(path, unprintable ? withUnprintableTexts(vastAnswer(offers), 2500) : vastAnswer(offers));
        const QString vast = QStringLiteral("vastai");

        TempDb whole, streamed;
        auto a = whole.open();
        auto b = streamed.open();
        auto parts = readProviderFiles(vast, {path}, ProviderTables::builtin());
        QVERIFY2(parts.ok(), qPrintable(parts.ok() ? QString() : parts.error().text()));
        auto data = composeProvider(std::move(parts).value(), ProviderTables::builtin());
        QVERIFY(data.ok());
        QVERIFY(data.value().offers.size() > kChunk * 2);
        ImportOptions options;
        options.payloadSha256 = snapshotFingerprintSha256(data.value());
        const QByteArray fingerprint = options.payloadSha256;
        auto one = a->importSnapshot(std::move(data).value(), SourceKind::File, QStringLiteral("answer.json"),
                                     {}, GpuCatalog::builtin(), options);
        QVERIFY2(one.ok(), qPrintable(one.ok() ? QString() : one.error().text()));

        CatalogRefresher r(*b, RefreshOptions{});
        const RefreshOutcome two = r.importFiles(vast, {path});
        QVERIFY2(two.status == RefreshStatus::Imported, qPrintable(two.message));
        QCOMPARE(two.rows, one.value().rows);
        QCOMPARE(two.warnings, one.value().warnings);
        if (unprintable) // the cleaned texts and their repeat, as the whole import counts them
            QVERIFY2(two.warnings.join(u'|').contains(QStringLiteral("texts held control or bidirectional")),
                     qPrintable(two.warnings.join(u'|')));
        QCOMPARE(currentRows(*b), currentRows(*a));
        QCOMPARE(offerFields(*b), offerFields(*a));
        QByteArray before;
        const QString problem = sameSnapshot(*a, one.value().snapshotId, *b, two.snapshotId, streamed,
                                             fingerprint, r, vast, path, &before);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));

        // An offer the import refuses after two chunks went in (an offer id used before, at offer 5):
        // refused with the whole import's message, nothing changed.
        writeFile(path, vastAnswer(offers, offers - 3));
        auto badParts = readProviderFiles(vast, {path}, ProviderTables::builtin());
        QVERIFY(badParts.ok());
        auto badData = composeProvider(std::move(badParts).value(), ProviderTables::builtin());
        QVERIFY(badData.ok());
        auto refused = a->importSnapshot(std::move(badData).value(), SourceKind::File,
                                         QStringLiteral("answer.json"), {}, GpuCatalog::builtin(), {});
        QVERIFY(!refused.ok());
        const RefreshOutcome bad = r.importFiles(vast, {path});
        QCOMPARE(bad.status, RefreshStatus::Failed);
        QVERIFY2(bad.message.contains(QStringLiteral("offer id 1005 names two different offers")),
                 qPrintable(bad.message));
        QVERIFY2(bad.message.contains(refused.error().text()),
                 qPrintable(bad.message + QStringLiteral(" / ") + refused.error().text()));
        QCOMPARE(dumpCatalog(streamed.path()), before);
    }

    void savedApiPagesFoldFileByFile_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QStringList>("pages");
        QTest::newRow("azure") << QStringLiteral("azure")
                               << QStringList{QStringLiteral("providers/azure/page1.json"),
                                              QStringLiteral("providers/azure/page2.json")};
        QTest::newRow("gcp") << QStringLiteral("gcp")
                             << QStringList{QStringLiteral("providers/gcp/skus-page1.json"),
                                            QStringLiteral("providers/gcp/skus-page2.json")};
    }

    void savedApiPagesFoldFileByFile()
    {
        // Saved Azure / Google API pages (import --file of several pages) are folded into the live refresh's
        // composer file by file: no item is kept past its own file, the held prices do not grow with repeated
        // pages, and the snapshot is the composition of every item held whole.
        QFETCH(QString, provider);
        QFETCH(QStringList, pages);
        QTemporaryDir dir;
        QStringList files;
        QList<QByteArray> bodies;
        for (int round = 0; round < 2; ++round) {
            for (const QString &page : pages) {
                files.append(dir.filePath(QStringLiteral("page-%1.json").arg(files.size() + 1)));
                bodies.append(readFixture(page));
                writeFile(files.last(), bodies.last());
            }
        }
        const ProviderTables &tables = ProviderTables::builtin();
        auto firstRound = readProviderFiles(provider, files.mid(0, pages.size()), tables);
        QVERIFY(firstRound.ok());
        auto parts = readProviderFiles(provider, files, tables);
        QVERIFY2(parts.ok(), qPrintable(parts.ok() ? QString() : parts.error().text()));
        const bool azure = provider == u"azure";
        QVERIFY(parts.value().azureItems.isEmpty() && parts.value().gcpSkus.isEmpty());
        const qsizetype held =
            azure ? parts.value().azureComposer->pricesHeld() : parts.value().gcpComposer->pricesHeld();
        const qsizetype heldAfterOneRound = azure ? firstRound.value().azureComposer->pricesHeld()
                                                  : firstRound.value().gcpComposer->pricesHeld();
        QVERIFY(held > 0);
        QCOMPARE(held, heldAfterOneRound);

        // The whole composition, every page's items held.
        ProviderParts whole;
        whole.provider = provider;
        qsizetype items = 0;
        for (const QByteArray &body : std::as_const(bodies)) {
            if (azure) {
                auto page = parseAzureRetailPage(body, QStringLiteral("page"));
                QVERIFY(page.ok());
                whole.azureItems += page.value().items;
                items += page.value().items.size();
            } else {
                auto page = parseGcpSkuPage(body, QStringLiteral("page"));
                QVERIFY(page.ok());
                whole.gcpSkus += page.value().skus;
                items += page.value().skus.size();
            }
        }
        QVERIFY(held < items);
        whole.descriptions = parts.value().descriptions;
        whole.dataDate = parts.value().dataDate;
        auto expected = composeProvider(std::move(whole), tables);
        auto got = composeProvider(std::move(parts).value(), tables);
        QVERIFY(expected.ok() && got.ok());
        QVERIFY(!got.value().offers.isEmpty());
        QCOMPARE(snapshotFingerprint(got.value()), snapshotFingerprint(expected.value()));
        QCOMPARE(got.value().warnings, expected.value().warnings);
        QCOMPARE(got.value().description, expected.value().description);
        QCOMPARE(got.value().dataDate, expected.value().dataDate);
        for (qsizetype i = 0; i < got.value().offers.size(); ++i) {
            QCOMPARE(got.value().offers.at(i).id, expected.value().offers.at(i).id);
            QCOMPARE(got.value().offers.at(i).source, expected.value().offers.at(i).source);
        }

        // Imported; then a bad third page: refused, the catalog byte for byte as it was.
        TempDb db;
        auto store = db.open();
        CatalogRefresher r(*store, RefreshOptions{});
        const RefreshOutcome o = r.importFiles(provider, files);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, expected.value().offers.size());
        const QByteArray before = dumpCatalog(db.path());
        writeFile(files.at(2), bodies.at(2).left(bodies.at(2).size() / 2));
        const RefreshOutcome bad = r.importFiles(provider, files);
        QCOMPARE(bad.status, RefreshStatus::Failed);
        QVERIFY2(bad.message.contains(QStringLiteral("page-3.json")), qPrintable(bad.message));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    void failureAfterManyRowsChangesNothing_data()
    {
        QTest::addColumn<QByteArray>("tail");
        QTest::addColumn<QString>("expected");
        QTest::newRow("truncated last line")
            << QByteArrayLiteral("aws,type-x,region-1,,A100-80GB,1,80") << QStringLiteral("truncated file?");
        QTest::newRow("bad last row")
            << QByteArrayLiteral("aws,type-x,region-1,,A100-80GB,1,80,8,64,,,-3.00,,,,,1,60,f,,,,\n")
            << QStringLiteral("on-demand price -3 USD/h is not plausible");
    }

    void failureAfterManyRowsChangesNothing()
    {
        QFETCH(QByteArray, tail);
        QFETCH(QString, expected);
        TempDb db;
        auto store = db.open();
        QTemporaryDir dir;
        const QString good = dir.filePath(QStringLiteral("good.csv"));
        writeFile(good, bigCatalog(QStringLiteral("aws"), 50, QStringLiteral("first")));
        CatalogRefresher r(*store, RefreshOptions{});
        const RefreshOutcome first = r.importFiles(QStringLiteral("aws"), {good});
        QVERIFY2(first.status == RefreshStatus::Imported, qPrintable(first.message));
        const QByteArray before = dumpCatalog(db.path());
        const QStringList currentBefore = currentRows(*store);

        // Several chunks went into the transaction before the end of the file fails.
        const QString bad = dir.filePath(QStringLiteral("bad.csv"));
        writeFile(bad, bigCatalog(QStringLiteral("aws"), static_cast<int>(kChunk * 4)) + tail);
        const RefreshOutcome o = r.importFiles(QStringLiteral("aws"), {bad});
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(expected) && o.message.contains(QStringLiteral("bad.csv")) &&
                     o.message.contains(QStringLiteral("Nothing was imported")),
                 qPrintable(o.message));
        QCOMPARE(dumpCatalog(db.path()), before);
        QCOMPARE(currentRows(*store), currentBefore);
        // The connection is usable again: the next import goes through.
        const QString next = dir.filePath(QStringLiteral("next.csv"));
        writeFile(next,
                  bigCatalog(QStringLiteral("aws"), static_cast<int>(kChunk + 3), QStringLiteral("next")));
        const RefreshOutcome after = r.importFiles(QStringLiteral("aws"), {next});
        QVERIFY2(after.status == RefreshStatus::Imported, qPrintable(after.message));
        QCOMPARE(after.rows, static_cast<int>(kChunk + 3));
    }

    void cancelledStreamChangesNothing()
    {
        TempDb db;
        auto store = db.open();
        QByteArray csv = bigCatalog(QStringLiteral("aws"), static_cast<int>(kChunk * 3));
        QBuffer in(&csv);
        QVERIFY(in.open(QIODevice::ReadOnly));
        const QByteArray before = dumpCatalog(db.path());
        std::atomic_bool cancel = false;
        auto session = store->beginImport(SourceKind::File, QStringLiteral("big.csv"), GpuCatalog::builtin(),
                                          {}, &cancel);
        QVERIFY(session.ok());
        SnapshotImport &import = *session.value();
        // Cancelled once the first chunk is in.
        class CancellingSink final : public OfferSink
        {
        public:
            CancellingSink(SnapshotImport &next, std::atomic_bool &flag) : m_next(next), m_flag(flag) {}
            Status begin(const SnapshotData &head) override { return m_next.begin(head); }
            Status add(Offer &&offer) override
            {
                if (m_next.rowsReceived() == kChunk + 1)
                    m_flag = true;
                return m_next.add(std::move(offer));
            }

        private:
            SnapshotImport &m_next;
            std::atomic_bool &m_flag;
        } sink(import, cancel);
        auto meta = parseSnapshotCsv(in, QStringLiteral("big.csv"), InputLimits{}, sink);
        QVERIFY(!meta.ok());
        QVERIFY2(meta.error().text().contains(QStringLiteral("cancelled")), qPrintable(meta.error().text()));
        QVERIFY(import.rowsReceived() < csv.count('\n'));
        session = makeError(QString()); // dropped unfinished: rolled back
        QCOMPARE(dumpCatalog(db.path()), before);
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), 0);
    }

    void importSizesThePageCachesAndGivesThemBack()
    {
        // A large import works in a page cache of kImportCacheKiB (its temporary tables in one of
        // kImportTempCacheKiB); when it ends, committed or dropped, the connection has its own sizes back.
        TempDb db;
        auto store = db.open();
        auto cacheSizes = [&] {
            QSqlQuery q(QSqlDatabase::database(store->connectionName()));
            QList<qint64> out;
            for (const char *schema : {"main", "temp"})
                out.append(q.exec(QStringLiteral("PRAGMA %1.cache_size").arg(QLatin1StringView(schema))) &&
                                   q.next()
                               ? q.value(0).toLongLong()
                               : qint64(0));
            return out;
        };
        {
            QSqlQuery q(QSqlDatabase::database(store->connectionName()));
            QVERIFY(q.exec(QStringLiteral("PRAGMA main.cache_size = -1234")));
            QVERIFY(q.exec(QStringLiteral("PRAGMA temp.cache_size = 777")));
        }
        const QList<qint64> own = cacheSizes();
        QCOMPARE(own, (QList<qint64>{-1234, 777}));
        const QList<qint64> during{-SnapshotImport::kImportCacheKiB, -SnapshotImport::kImportTempCacheKiB};
        for (const bool commit : {true, false}) {
            QByteArray csv = bigCatalog(QStringLiteral("aws"), static_cast<int>(kChunk * 2 + 5),
                                        commit ? QStringLiteral("a") : QStringLiteral("b"));
            QBuffer in(&csv);
            QVERIFY(in.open(QIODevice::ReadOnly));
            auto session =
                store->beginImport(SourceKind::File, QStringLiteral("big.csv"), GpuCatalog::builtin());
            QVERIFY(session.ok());
            SnapshotImport &import = *session.value();
            class Watch final : public OfferSink
            {
            public:
                Watch(SnapshotImport &next, const std::function<QList<qint64>()> &read)
                    : m_next(next), m_read(read)
                {
                }
                Status begin(const SnapshotData &head) override { return m_next.begin(head); }
                Status add(Offer &&offer) override
                {
                    if (m_next.rowsReceived() == kChunk + 1) // a chunk is in
                        seen = m_read();
                    return m_next.add(std::move(offer));
                }
                QList<qint64> seen;

            private:
                SnapshotImport &m_next;
                std::function<QList<qint64>()> m_read;
            } watch(import, cacheSizes);
            auto meta = parseSnapshotCsv(in, QStringLiteral("big.csv"), InputLimits{}, watch);
            QVERIFY(meta.ok());
            QCOMPARE(watch.seen, during);
            if (commit) {
                auto outcome = import.finish(std::move(meta).value(), QByteArray(32, 'y'));
                QVERIFY2(outcome.ok(), qPrintable(outcome.ok() ? QString() : outcome.error().text()));
                QCOMPARE(cacheSizes(), during); // still the import's until it is gone
            }
            session = makeError(QString());
            QCOMPARE(cacheSizes(), own);
        }
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), static_cast<int>(kChunk * 2 + 5));
    }

    void keyedRowsAnswerAsRowsAndIds_data()
    {
        QTest::addColumn<bool>("foreign");
        QTest::newRow("repeats kept out") << false;
        QTest::newRow("repeats of a conflict after a foreign row") << true;
    }

    void keyedRowsAnswerAsRowsAndIds()
    {
        // vast.ai rows with offer ids are looked up once by id (with the row's digest): the same rows are
        // dropped and kept as by the rows' and the ids' tables apart. `foreign`: a row named like AWS's comes
        // first, so a later id conflict is not refused but counted; a row identical to the conflicting row
        // (not to the one its id was first recorded with) is still an identical repeat, and the naming
        // error counts the kept rows.
        QFETCH(bool, foreign);
        QString s = QStringLiteral("# provider: vastai\n# snapshot_date: 2026-11-01\n# source: t\n");
        s += snapshotCsvColumns().join(u',') + u'\n';
        const int rows = static_cast<int>(kChunk * 2 + 40);
        auto row = [](const QString &type, double price) {
            return QStringLiteral("vastai,%1,\"Quebec, CA\",,RTX 4090,1,24,8,32,,,%2,,,,,1,60,t,,,,\n")
                .arg(type, QString::number(price, 'f', 2));
        };
        int written = 0, expectedKept = 0;
        auto add = [&](const QString &line, bool kept) {
            s += line;
            ++written;
            expectedKept += kept ? 1 : 0;
        };
        if (foreign)
            add(QStringLiteral(
                    "vastai,p4d.24xlarge,\"Quebec, CA\",,A100-40GB,8,40,96,1152,,,32.77,,,,,1,60,t,,,,\n"),
                true);
        for (int i = 1; i <= rows; ++i) {
            add(row(QString::number(1000 + i), 0.3 + (i % 50) * 0.01), true);
            if (i % 9 == 0) // the row again at once; every 300th: the row 900 back (chunks apart)
                add(row(QString::number(1000 + i), 0.3 + (i % 50) * 0.01), false);
            if (i % 300 == 0 && i > 900)
                add(row(QString::number(1000 + i - 900), 0.3 + ((i - 900) % 50) * 0.01), false);
            if (i % 11 == 0) // not an offer id: only the rows' table
                add(row(QStringLiteral("x%1").arg(i % 77), 0.5), i <= 77);
        }
        if (foreign) {
            // Offer 1005 again at another price (a conflict, not refused: the catalog is refused for its
            // naming), then that row again twice: identical repeats of the conflicting row.
            add(row(QStringLiteral("1005"), 9.99), true);
            add(row(QStringLiteral("1005"), 9.99), false);
            add(row(QStringLiteral("1007"), 0.3 + 7 * 0.01), false);
            add(row(QStringLiteral("1005"), 9.99), false);
        }
        TempDb db;
        auto store = db.open();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.csv"));
        writeFile(path, s.toUtf8());
        // The whole catalog, validated in memory (a row's digest and its id in separate sets): the oracle.
        const QByteArray bytes = s.toUtf8();
        QBuffer in;
        in.setData(bytes);
        QVERIFY(in.open(QIODevice::ReadOnly));
        auto whole = parseSnapshotCsv(in, QStringLiteral("v.csv"), InputLimits{});
        QVERIFY(whole.ok());
        SnapshotData data = std::move(whole).value();
        const Status oracle = validateSnapshot(data, GpuCatalog::builtin(), QStringLiteral("v.csv"));
        CatalogRefresher r(*store, RefreshOptions{});
        const RefreshOutcome o = r.importFiles(QStringLiteral("vastai"), {path});
        if (foreign) {
            QVERIFY(!oracle.ok());
            QCOMPARE(o.status, RefreshStatus::Failed);
            const QString counted = QStringLiteral("1 of %1 rows are named like").arg(expectedKept);
            QVERIFY2(oracle.error().text().contains(counted), qPrintable(oracle.error().text()));
            QVERIFY2(o.message.contains(counted), qPrintable(o.message));
            QCOMPARE(countRows(db.path(), QStringLiteral("offer")), 0);
            return;
        }
        QVERIFY2(oracle.ok(), qPrintable(oracle.ok() ? QString() : oracle.error().text()));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, expectedKept);
        QCOMPARE(data.offers.size(), qsizetype(expectedKept));
        QCOMPARE(o.warnings, data.warnings);
        QVERIFY2(o.warnings.join(u'\n').contains(
                     QStringLiteral("%1 rows identical to an earlier row").arg(written - expectedKept)),
                 qPrintable(o.warnings.join(u'\n')));
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), expectedKept);
    }

    void offerIdsAreUniqueAcrossChunks()
    {
        // vast.ai offers are named by their id: the same id for two different offers, chunks apart, is
        // refused naming both lines.
        QString s = QStringLiteral("# provider: vastai\n# snapshot_date: 2026-11-01\n# source: t\n");
        s += snapshotCsvColumns().join(u',') + u'\n';
        const int rows = static_cast<int>(kChunk * 2 + 10);
        for (int i = 1; i <= rows; ++i)
            s += QStringLiteral("vastai,%1,\"Quebec, CA\",,RTX 4090,1,24,8,32,,,%2,,,,,1,60,t,,,,\n")
                     .arg(i == rows ? 3 : 1000 + i)
                     .arg(QString::number(0.3 + (i % 50) * 0.01, 'f', 2));
        s.replace(QStringLiteral("vastai,1003,"), QStringLiteral("vastai,3,")); // row 3 has id 3 too
        TempDb db;
        auto store = db.open();
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("v.csv"));
        writeFile(path, s.toUtf8());
        CatalogRefresher r(*store, RefreshOptions{});
        const RefreshOutcome o = r.importFiles(QStringLiteral("vastai"), {path});
        QCOMPARE(o.status, RefreshStatus::Failed);
        QVERIFY2(o.message.contains(
                     QStringLiteral("offer id 3 names two different offers (rows 7 and %1)").arg(rows + 4)),
                 qPrintable(o.message));
        QCOMPARE(countRows(db.path(), QStringLiteral("offer")), 0);
    }
};

QTEST_GUILESS_MAIN(TestStreamedImport)
#include "test_streamedimport.moc"

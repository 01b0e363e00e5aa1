// Live refreshes that stream their pages into the import (issue 26): the same catalog as reading every page
// first, one page held at a time, and a failure mid-stream changes nothing.
#include "catalogdump.h"
#include "domain/gpucatalog.h"
#include "domain/providertables.h"
#include "fixtureserver.h"
#include "providers/azureretail.h"
#include "providers/gcpbilling.h"
#include "providers/providerimport.h"
#include "providers/skypilotcatalog.h"
#include "providers/vastai.h"
#include "refresh/bundledsnapshot.h"
#include "refresh/catalogrefresher.h"
#include "refresh/pricesource.h"
#include "refreshfixture.h"
#include "store/catalogstore.h"
#include "testsupport.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <functional>

using namespace gf;
using namespace gf::test;

namespace {

const QByteArray kVast = "/api/v0/bundles/";

RefreshOptions fastOptions(const QString &base)
{
    RefreshOptions o = fastRefreshOptions(base);
    o.minRows = 1;
    return o;
}

/// Page `p` (0-based) of a search paged by price: `count` offers with ids p*1000 + i, cheapest first; a
/// later page starts with the previous page's dearest offer again (the cursor is inclusive). Page 1 has a
/// malformed offer, page 2 one already rented.
QByteArray vastPage(int p, int count)
{
    QJsonArray offers;
    auto offer = [](int id, double price) {
        return QJsonObject{
            {QStringLiteral("id"), id},          {QStringLiteral("gpu_name"), QStringLiteral("RTX 4090")},
            {QStringLiteral("num_gpus"), 1},     {QStringLiteral("geolocation"), QStringLiteral("Texas, US")},
            {QStringLiteral("cpu_cores"), 64},   {QStringLiteral("cpu_cores_effective"), 16.0},
            {QStringLiteral("cpu_ram"), 128000}, {QStringLiteral("min_bid"), price / 2},
            {QStringLiteral("dph_total"), price}};
    };
    const double from = 0.2 + p * 0.1;
    if (p > 0)
        offers.append(offer((p - 1) * 1000 + 63, 0.2 + (p - 1) * 0.1 + 63 * 0.001));
    for (int i = offers.size(); i < count; ++i)
        offers.append(offer(p * 1000 + i, from + i * 0.001));
    if (p == 1)
        offers.replace(5, QJsonObject{{QStringLiteral("id"), 77},
                                      {QStringLiteral("gpu_name"), QStringLiteral("RTX 4090")},
                                      {QStringLiteral("dph_total"), QStringLiteral("0.5")}});
    if (p == 2) {
        QJsonObject rented = offers.at(7).toObject();
        rented.insert(QStringLiteral("rented"), true);
        offers.replace(7, rented);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("offers"), offers}}).toJson(QJsonDocument::Compact);
}

/// Four full pages (vast.ai's 64) and a short fifth: the search pages on four times.
QList<QByteArray> fivePages()
{
    QList<QByteArray> pages;
    for (int p = 0; p < 4; ++p)
        pages.append(vastPage(p, kVastDefaultLimit));
    pages.append(vastPage(4, 20));
    return pages;
}

/// The catalog as the refresh composed it before it streamed (every page parsed, then imported whole):
/// the first page's offers all, a later page's only those not seen before, numbered in order.
SnapshotData wholeCatalog(const QList<QByteArray> &pages, const QString &origin)
{
    SnapshotData all;
    QSet<QString> seen;
    for (qsizetype p = 0; p < pages.size(); ++p) {
        auto page = parseVastOfferPage(pages.at(p), origin);
        if (!page)
            return {};
        if (p == 0)
            all = page.value().data;
        for (Offer &o : page.value().data.offers) {
            if (seen.contains(o.instanceType))
                continue;
            seen.insert(o.instanceType);
            if (p > 0)
                all.offers.append(std::move(o));
        }
    }
    all.provider = QStringLiteral("vastai");
    all.dataDate = QDateTime::currentDateTimeUtc().date();
    numberRows(all);
    return all;
}

/// Keeps the offers, and for each the number of pages the server had answered when it arrived.
class RecordingSink final : public OfferSink
{
public:
    RecordingSink(SnapshotData &data, const FixtureServer &server) : m_collect(data), m_server(server) {}
    Status begin(const SnapshotData &head) override { return m_collect.begin(head); }
    Status add(Offer &&offer) override
    {
        requestsAtArrival.append(m_server.count(kVast));
        return m_collect.add(std::move(offer));
    }
    QList<int> requestsAtArrival;

private:
    CollectingSink m_collect;
    const FixtureServer &m_server;
};

const QByteArray kLambdaCatalog = "/skypilot-org/skypilot-catalog/master/catalogs/v9/lambda/vms.csv";

const QByteArray kAzure = "/api/retail/prices";
const QByteArray kGcp = "/v1/services/6F81-5844-456A/skus";

/// A fixture JSON page with one key replaced (NextPageLink, nextPageToken).
QByteArray withKey(const QString &fixture, const QString &key, const QJsonValue &value)
{
    QJsonObject o = QJsonDocument::fromJson(readFixture(fixture)).object();
    o.insert(key, value);
    return QJsonDocument(o).toJson();
}

/// Azure answers over four pages: the two fixture pages, then the same two again (repeated meters).
QList<QByteArray> azurePages()
{
    const QString p1 = QStringLiteral("providers/azure/page1.json");
    const QString p2 = QStringLiteral("providers/azure/page2.json");
    const QString next = QStringLiteral("NextPageLink");
    return {withKey(p1, next, QStringLiteral("{{BASE}}/api/retail/prices/p2")),
            withKey(p2, next, QStringLiteral("{{BASE}}/api/retail/prices/p3")),
            withKey(p1, next, QStringLiteral("{{BASE}}/api/retail/prices/p4")),
            withKey(p2, next, QJsonValue())};
}

/// Google Cloud SKU pages: the two fixture pages, then the first again.
QList<QByteArray> gcpPages()
{
    const QString p1 = QStringLiteral("providers/gcp/skus-page1.json");
    const QString p2 = QStringLiteral("providers/gcp/skus-page2.json");
    const QString token = QStringLiteral("nextPageToken");
    return {withKey(p1, token, QStringLiteral("T2")), withKey(p2, token, QStringLiteral("T3")),
            withKey(p1, token, QString())};
}

/// The offers of a snapshot, as fingerprint text with the gpu ids and flags.
QStringList snapshotRows(CatalogStore &store, qint64 snapshotId)
{
    QStringList rows;
    const auto offers = store.snapshotOffers(snapshotId);
    if (!offers)
        return {offers.error().text()};
    for (const Offer &o : offers.value()) {
        SnapshotData one;
        one.provider = o.provider;
        one.offers = {o};
        rows.append(QString::fromUtf8(snapshotFingerprint(one)) + u'|' + o.gpuId + u'|' +
                    QString::number(o.flags));
    }
    return rows;
}

FixtureResponse csvFile(const QByteArray &body)
{
    FixtureResponse r = FixtureResponse::json(body);
    r.contentType = "text/plain; charset=utf-8";
    return r;
}

} // namespace

class TestStreamedRefresh final : public QObject
{
    Q_OBJECT

    RefreshHarness m_h;
    FixtureServer &m_server = m_h.server();

    void servePages(const QList<QByteArray> &pages, const QList<FixtureResponse> &after = {})
    {
        QList<FixtureResponse> answers;
        for (const QByteArray &p : pages)
            answers.append(FixtureResponse::json(p));
        answers += after;
        m_server.route(kVast, answers);
    }

    RefreshOutcome refresh(const QString &provider, const RefreshOptions &options)
    {
        return m_h.refresh(provider, options);
    }

    /// A refresh that must fail mid-stream: its message, and the catalog byte for byte as before.
    void expectNothingChanged(const QString &expected)
    {
        const RefreshOutcome o =
            m_h.expectFailure(QStringLiteral("vastai"), fastOptions(m_server.baseUrl()), expected);
        QVERIFY2(o.message.contains(QStringLiteral("previous vast.ai snapshot stays current")),
                 qPrintable(o.message));
    }

    /// The refresh `o` imported what the whole composition of `parts` imports (the refresh before it
    /// streamed): the same offers, gpu ids and flags, and its warnings.
    void expectSameAsWholeImport(const RefreshOutcome &o, ProviderParts parts)
    {
        auto whole = composeProvider(std::move(parts), ProviderTables::builtin());
        QVERIFY(whole.ok());
        QCOMPARE(o.rows, whole.value().offers.size());
        const QStringList wholeWarnings = whole.value().warnings;
        auto otherDb = std::make_unique<TempDb>();
        auto other = otherDb->open();
        auto old = other->importSnapshot(std::move(whole).value(), SourceKind::Live, o.origin, {},
                                         GpuCatalog::builtin());
        QVERIFY2(old.ok(), qPrintable(old.ok() ? QString() : old.error().text()));
        QCOMPARE(snapshotRows(m_h.store(), o.snapshotId), snapshotRows(*other, old.value().snapshotId));
        for (const QString &w : wholeWarnings)
            QVERIFY2(o.warnings.contains(w), qPrintable(w));
    }

    /// HTTP 500 on the third page, then a third page cut in half: each refresh fails and changes nothing.
    /// `serve` routes the first two pages and the given third answer.
    void expectThirdPageFailuresChangeNothing(const QString &provider, const RefreshOptions &options,
                                              const QByteArray &thirdPage,
                                              const std::function<void(const FixtureResponse &)> &serve)
    {
        for (const FixtureResponse &third : {FixtureResponse::json("{\"message\":\"error\"}", 500),
                                             FixtureResponse::json(thirdPage.left(thirdPage.size() / 2))}) {
            m_server.clearRoutes();
            serve(third);
            m_h.expectFailure(provider, options,
                              third.status == 500 ? QStringLiteral("HTTP 500") : QStringLiteral("JSON"));
            if (QTest::currentTestFailed())
                return;
        }
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_h.start()); }
    void init() { QVERIFY(m_h.reset()); }
    void cleanup() { m_h.close(); }

    // The live vast.ai search gives each page's offers to the import as the page is read, before the next
    // page is asked for: the same offers, ids and checksum as the whole catalog composed from every page.
    void vastaiPagesStreamOneAtATime()
    {
        const QList<QByteArray> pages = fivePages();
        servePages(pages);
        const RefreshOptions options = fastOptions(m_server.baseUrl());
        const PriceSource *source = priceSource(QStringLiteral("vastai"));
        QVERIFY(source);
        const RefreshProgress progress;
        const SourceContext ctx(options, m_h.store(), ProviderTables::builtin(), nullptr, progress);
        auto fetched = source->fetch(ctx);
        QVERIFY2(fetched.ok(), qPrintable(fetched.ok() ? QString() : fetched.error().text()));
        FetchedCatalog &f = fetched.value();
        QVERIFY(f.streamed);
        QCOMPARE(m_server.count(kVast), 1); // only the first page before the import starts
        QCOMPARE(f.requests, 1);
        SnapshotData streamed;
        RecordingSink sink(streamed, m_server);
        QByteArray sha256;
        auto meta = f.streamed(sink, &sha256, f);
        QVERIFY2(meta.ok(), qPrintable(meta.ok() ? QString() : meta.error().text()));
        QCOMPARE(m_server.count(kVast), 5);
        QCOMPARE(f.requests, 5);
        QVERIFY(f.bytes > 0);

        const SnapshotData whole = wholeCatalog(pages, f.origin);
        QCOMPARE(whole.offers.size(), 64 + 62 + 62 + 63 + 19); // repeats, one malformed, one rented out
        QCOMPARE(streamed.offers.size(), whole.offers.size());
        QCOMPARE(snapshotFingerprint(streamed), snapshotFingerprint(whole));
        QCOMPARE(sha256, snapshotFingerprintSha256(whole));
        for (qsizetype i = 0; i < whole.offers.size(); ++i) {
            QCOMPARE(streamed.offers.at(i).id, whole.offers.at(i).id);
            QCOMPARE(streamed.offers.at(i).instanceType, whole.offers.at(i).instanceType);
            QCOMPARE(streamed.offers.at(i).source, whole.offers.at(i).source);
            // Each offer reached the import while its own page was the last one asked for: the pages before
            // it were read and let go, the later ones not yet downloaded.
            const int page = static_cast<int>(streamed.offers.at(i).instanceType.toInt() / 1000) + 1;
            const bool repeat = streamed.offers.at(i).instanceType.toInt() % 1000 == 63 && i > 0 &&
                                sink.requestsAtArrival.at(i) > page;
            QVERIFY2(sink.requestsAtArrival.at(i) == page || repeat,
                     qPrintable(QStringLiteral("offer %1 arrived after %2 requests")
                                    .arg(streamed.offers.at(i).instanceType)
                                    .arg(sink.requestsAtArrival.at(i))));
        }
        const SnapshotData head = std::move(meta).value();
        QCOMPARE(head.description, QStringLiteral("vast.ai offer search (5 pages)"));
        QCOMPARE(head.dataDate, QDateTime::currentDateTimeUtc().date());
        QCOMPARE(
            head.warnings,
            QStringList({QStringLiteral("vast.ai answered exactly 64 offers (its default limit) to a query "
                                        "for 10000: paged by price, 5 requests, 270 offers"),
                         QStringLiteral("1 malformed offers skipped (first: offers[5].dph_total is not a "
                                        "number)"),
                         QStringLiteral("1 offers not rentable or already rented skipped")}));
    }

    // Through the refresher: imported as one snapshot; a snapshot the whole-catalog import wrote (the refresh
    // before it streamed) has the same checksum, so the same prices again are "unchanged".
    void vastaiStreamedMatchesTheWholeImport()
    {
        const QList<QByteArray> pages = fivePages();
        const RefreshOptions options = fastOptions(m_server.baseUrl());
        const QString origin = m_server.baseUrl() + QString::fromLatin1(kVast);
        SnapshotData whole = wholeCatalog(pages, origin);
        whole.description = QStringLiteral("vast.ai offer search (5 pages)");
        ImportOptions io;
        io.payloadSha256 = snapshotFingerprintSha256(whole);
        auto old = m_h.store().importSnapshot(whole, SourceKind::Live, origin, {}, GpuCatalog::builtin(), io);
        QVERIFY2(old.ok(), qPrintable(old.ok() ? QString() : old.error().text()));
        QCOMPARE(old.value().rows, 270);
        servePages(pages);
        const QString good = QStringLiteral("provider='vastai' AND status='ok'");
        const int goodBefore = countWhere(m_h.dbPath(), QStringLiteral("snapshot"), good);
        RefreshOutcome o = refresh(QStringLiteral("vastai"), options);
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QCOMPARE(o.snapshotId, old.value().snapshotId);
        QCOMPARE(o.requests, 5);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("snapshot"), good), goodBefore);
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("offer"), QStringLiteral("provider='vastai'")),
                 countWhere(m_h.dbPath(), QStringLiteral("offer"),
                            QStringLiteral("snapshot_id IN (SELECT id FROM snapshot WHERE provider='vastai' "
                                           "AND status='ok')")));

        // A fresh database: the streamed import writes the rows the whole import wrote.
        auto otherDb = std::make_unique<TempDb>();
        auto other = otherDb->open();
        QVERIFY(importBundledIfEmpty(*other, GpuCatalog::builtin()).ok());
        m_server.clearRequests();
        servePages(pages);
        CatalogRefresher r(*other, options);
        o = r.refresh(QStringLiteral("vastai"));
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, 270);
        QCOMPARE(o.requests, 5);
        QVERIFY(o.bytes > 0);
        auto a = m_h.store().snapshotOffers(old.value().snapshotId);
        auto b = other->snapshotOffers(o.snapshotId);
        QVERIFY(a.ok() && b.ok());
        QCOMPARE(b.value().size(), a.value().size());
        SnapshotData sa, sb;
        sa.provider = sb.provider = QStringLiteral("vastai");
        sa.offers = a.value();
        sb.offers = b.value();
        QCOMPARE(snapshotFingerprint(sb), snapshotFingerprint(sa));
        for (qsizetype i = 0; i < sa.offers.size(); ++i) {
            QCOMPARE(sb.offers.at(i).instanceType, sa.offers.at(i).instanceType);
            QCOMPARE(sb.offers.at(i).gpuId, sa.offers.at(i).gpuId);
            QCOMPARE(sb.offers.at(i).flags, sa.offers.at(i).flags);
        }
        auto snaps = other->snapshots(QStringLiteral("vastai"));
        QVERIFY(snaps.ok());
        bool found = false;
        for (const Snapshot &s : snaps.value())
            if (s.id == o.snapshotId) {
                found = true;
                QCOMPARE(QByteArray::fromHex(s.checksum.toLatin1()), snapshotFingerprintSha256(whole));
                QCOMPARE(s.rowCount, 270);
            }
        QVERIFY(found);
    }

    // A SkyPilot catalog streams from the downloaded file into the import: the rows, checksum and "unchanged"
    // of the whole-catalog import (parse, then import), for a catalog of several import chunks.
    void skypilotStreamedMatchesTheWholeImport()
    {
        const int rows = 5000; // more than two of the import's 2048-row chunks
        const QByteArray body = skypilotLambdaCatalog(rows);
        m_server.route(kLambdaCatalog, {csvFile(body)});
        const RefreshOptions options = fastOptions(m_server.baseUrl());
        RefreshOutcome o = refresh(QStringLiteral("lambda"), options);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.rows, rows);
        QCOMPARE(o.requests, 1);
        QCOMPARE(o.bytes, body.size());

        // The whole-catalog import of the same file (what the refresh did before it streamed).
        auto otherDb = std::make_unique<TempDb>();
        auto other = otherDb->open();
        QVERIFY(importBundledIfEmpty(*other, GpuCatalog::builtin()).ok());
        const QString url = m_server.baseUrl() + QString::fromLatin1(kLambdaCatalog);
        ProviderParts parts;
        parts.provider = QStringLiteral("lambda");
        auto parsed =
            parseSkypilotCsv(QString::fromUtf8(body), parts.provider, ProviderTables::builtin(), url);
        QVERIFY(parsed.ok());
        parts.complete = std::move(parsed).value();
        parts.dataDate = QDateTime::currentDateTimeUtc().date();
        parts.descriptions.append(QStringLiteral("SkyPilot catalog v9 lambda/vms.csv"));
        auto whole = composeProvider(std::move(parts), ProviderTables::builtin());
        QVERIFY(whole.ok());
        const QStringList wholeWarnings = whole.value().warnings;
        auto old = other->importSnapshot(std::move(whole).value(), SourceKind::Live, url, body,
                                         GpuCatalog::builtin());
        QVERIFY2(old.ok(), qPrintable(old.ok() ? QString() : old.error().text()));
        QCOMPARE(old.value().rows, rows);
        auto a = other->snapshotOffers(old.value().snapshotId);
        auto b = m_h.store().snapshotOffers(o.snapshotId);
        QVERIFY(a.ok() && b.ok());
        SnapshotData sa, sb;
        sa.provider = sb.provider = QStringLiteral("lambda");
        sa.offers = a.value();
        sb.offers = b.value();
        QCOMPARE(sb.offers.size(), sa.offers.size());
        QCOMPARE(snapshotFingerprint(sb), snapshotFingerprint(sa));
        for (qsizetype i = 0; i < sa.offers.size(); ++i) {
            QCOMPARE(sb.offers.at(i).id - sb.offers.first().id, sa.offers.at(i).id - sa.offers.first().id);
            QCOMPARE(sb.offers.at(i).gpuId, sa.offers.at(i).gpuId);
            QCOMPARE(sb.offers.at(i).flags, sa.offers.at(i).flags);
            QCOMPARE(sb.offers.at(i).dataDate, sa.offers.at(i).dataDate);
        }
        for (const QString &w : wholeWarnings)
            QVERIFY2(o.warnings.contains(w), qPrintable(w));
        auto checksum = [](CatalogStore &store, qint64 id) {
            for (const Snapshot &s : store.snapshots(QStringLiteral("lambda")).value())
                if (s.id == id)
                    return s.checksum;
            return QString();
        };
        QCOMPARE(checksum(m_h.store(), o.snapshotId), checksum(*other, old.value().snapshotId));
        QCOMPARE(checksum(m_h.store(), o.snapshotId),
                 QString::fromLatin1(QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex()));

        // The same file again: unchanged, decided before a row is written.
        const QString offers = QStringLiteral("provider='lambda'");
        const int offersBefore = countWhere(m_h.dbPath(), QStringLiteral("offer"), offers);
        o = refresh(QStringLiteral("lambda"), options);
        QVERIFY2(o.status == RefreshStatus::Unchanged, qPrintable(o.message));
        QCOMPARE(countWhere(m_h.dbPath(), QStringLiteral("offer"), offers), offersBefore);
    }

    // A row the import refuses near the end of a SkyPilot catalog: two chunks were inserted already in the
    // import's transaction, which is rolled back.
    void skypilotRowRefusedLateChangesNothing()
    {
        m_server.route(kLambdaCatalog, {csvFile(skypilotLambdaCatalog(5000, 4990))});
        const RefreshOutcome o = m_h.expectFailure(QStringLiteral("lambda"), fastOptions(m_server.baseUrl()),
                                                   QStringLiteral("vCPU count 99999"));
        QVERIFY2(o.message.contains(QStringLiteral("previous Lambda snapshot stays current")),
                 qPrintable(o.message));
    }

    // Azure's pages are folded into the offers as they are read (held: one price per size, region and meter
    // kind, however many pages repeat them): the snapshot the whole composition of every page's items gives.
    void azurePagesFoldAsTheyAreRead()
    {
        const QList<QByteArray> pages = azurePages();
        m_server.route(kAzure, {FixtureResponse::json(pages.at(0))});
        for (int p = 1; p < pages.size(); ++p)
            m_server.route(kAzure + "/p" + QByteArray::number(p + 1), {FixtureResponse::json(pages.at(p))});
        const RefreshOptions options = fastOptions(m_server.baseUrl());
        const RefreshOutcome o = refresh(QStringLiteral("azure"), options);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.requests, 4);
        QCOMPARE(o.rows, 13);

        // The whole composition: every page's items held, then composed.
        ProviderParts parts;
        parts.provider = QStringLiteral("azure");
        AzureOfferComposer composer(ProviderTables::builtin());
        qsizetype heldAfterTwo = 0;
        for (qsizetype p = 0; p < pages.size(); ++p) {
            QByteArray body = pages.at(p);
            body.replace("{{BASE}}", m_server.baseUrl().toUtf8());
            auto page = parseAzureRetailPage(body, QStringLiteral("page"));
            QVERIFY(page.ok());
            parts.azureItems += page.value().items;
            for (const AzureRetailItem &i : page.value().items)
                composer.add(i);
            if (p == 1)
                heldAfterTwo = composer.pricesHeld();
        }
        QVERIFY(heldAfterTwo > 0);
        QCOMPARE(composer.pricesHeld(), heldAfterTwo); // the repeated pages add no price
        QVERIFY(composer.pricesHeld() < parts.azureItems.size());
        parts.dataDate = QDateTime::currentDateTimeUtc().date();
        parts.descriptions.append(QStringLiteral("Azure Retail Prices API, 4 pages"));
        expectSameAsWholeImport(o, parts);
        QCOMPARE(composer.finish(QString()).offers.size(), 13);
        QCOMPARE(composer.pricesHeld(), 0);
    }

    // HTTP 500 on Azure's third page, or a truncated third page: nothing imported, the catalog as it was.
    void azureFailureOnPage3ChangesNothing()
    {
        const QList<QByteArray> pages = azurePages();
        const RefreshOptions options = fastOptions(m_server.baseUrl());
        expectThirdPageFailuresChangeNothing(
            QStringLiteral("azure"), options, pages.at(2), [&](const FixtureResponse &third) {
                m_server.route(kAzure, {FixtureResponse::json(pages.at(0))});
                m_server.route(kAzure + "/p2", {FixtureResponse::json(pages.at(1))});
                m_server.route(kAzure + "/p3", {third});
            });
    }

    // Google Cloud's SKU pages are folded as they are read: the snapshot of the whole composition; a failure
    // on the third page changes nothing.
    void gcpPagesFoldAsTheyAreRead()
    {
        const QList<QByteArray> pages = gcpPages();
        m_server.route(kGcp, {FixtureResponse::json(pages.at(0))});
        m_server.route(kGcp, {FixtureResponse::json(pages.at(1))}, "pageToken=T2");
        m_server.route(kGcp, {FixtureResponse::json(pages.at(2))}, "pageToken=T3");
        RefreshOptions options = fastOptions(m_server.baseUrl());
        options.gcpApiKey = QStringLiteral("AIzaSy-test-key");
        const RefreshOutcome o = refresh(QStringLiteral("gcp"), options);
        QVERIFY2(o.status == RefreshStatus::Imported, qPrintable(o.message));
        QCOMPARE(o.requests, 3);

        ProviderParts parts;
        parts.provider = QStringLiteral("gcp");
        GcpOfferComposer composer(ProviderTables::builtin());
        qsizetype heldAfterTwo = 0;
        for (qsizetype p = 0; p < pages.size(); ++p) {
            auto page = parseGcpSkuPage(pages.at(p), QStringLiteral("page"));
            QVERIFY(page.ok());
            parts.gcpSkus += page.value().skus;
            for (const GcpSku &sku : page.value().skus)
                composer.add(sku);
            if (p == 1)
                heldAfterTwo = composer.pricesHeld();
        }
        QVERIFY(heldAfterTwo > 0);
        QCOMPARE(composer.pricesHeld(), heldAfterTwo);
        parts.dataDate = QDateTime::currentDateTimeUtc().date();
        parts.descriptions.append(QStringLiteral("GCP Cloud Billing Catalog, 16 SKUs on 3 pages"));
        expectSameAsWholeImport(o, parts);
        expectThirdPageFailuresChangeNothing(
            QStringLiteral("gcp"), options, pages.at(2), [&](const FixtureResponse &third) {
                m_server.route(kGcp, {FixtureResponse::json(pages.at(0))});
                m_server.route(kGcp, {FixtureResponse::json(pages.at(1))}, "pageToken=T2");
                m_server.route(kGcp, {third}, "pageToken=T3");
            });
    }

    // HTTP 500 on the third page (after its retries): the first two pages went into the import's
    // transaction, which is rolled back: the catalog is byte for byte as before.
    void vastaiServerErrorOnPage3ChangesNothing()
    {
        const QList<QByteArray> pages = fivePages();
        servePages(pages.mid(0, 2), {FixtureResponse::json("{\"message\":\"error\"}", 500)});
        expectNothingChanged(QStringLiteral("HTTP 500"));
        QCOMPARE(m_server.count(kVast), 2 + fastOptions(QString()).http.maxAttempts);
    }

    // Every offer of the answer already rented: refused as empty, naming why the offers were skipped.
    void vastaiNothingUsableNamesTheSkips()
    {
        QByteArray page = vastPage(0, 10);
        page.replace("\"dph_total\"", "\"rented\":true,\"dph_total\"");
        servePages({page});
        expectNothingChanged(QStringLiteral("10 offers not rentable or already rented skipped"));
    }

    // A truncated third page (the JSON ends halfway): nothing imported.
    void vastaiTruncatedPage3ChangesNothing()
    {
        const QList<QByteArray> pages = fivePages();
        servePages(pages.mid(0, 2), {FixtureResponse::json(pages.at(2).left(pages.at(2).size() / 2))});
        expectNothingChanged(QStringLiteral("vast.ai: "));
    }
};

QTEST_GUILESS_MAIN(TestStreamedRefresh)
#include "test_streamedrefresh.moc"

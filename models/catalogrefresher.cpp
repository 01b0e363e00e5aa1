#include "catalogrefresher.h"

#include "awsoffers.h"
#include "catalogstore.h"
#include "csv.h"
#include "gpucatalog.h"
#include "providerimport.h"
#include "providertables.h"
#include "refreshstate.h"
#include "resourcefiles.h"
#include "skypilotcatalog.h"
#include "vastai.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

namespace gf {

namespace {

/// API keys never reach a message, a log row or the database.
QString redact(QString s)
{
    static const QRegularExpression key(QStringLiteral("([?&]key=)[^&\\s)\"]+"));
    return s.replace(key, QStringLiteral("\\1REDACTED"));
}

QString withoutQuery(const QString &url)
{
    QUrl u(url);
    u.setQuery(QString());
    return u.toString();
}

/// Moves an absolute URL onto the override base (mirror): same path and query, the base's scheme/host/port.
QString rebase(const QString &url, const QString &base)
{
    if (base.isEmpty())
        return url;
    QUrl u(url);
    const QUrl b(base);
    if (u.isRelative())
        return b.resolved(u).toString();
    u.setScheme(b.scheme());
    u.setHost(b.host());
    u.setPort(b.port());
    return u.toString();
}

QString offersToCsv(const QList<Offer> &offers)
{
    QString s = snapshotCsvColumns().join(u',') + u'\n';
    auto n = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 12) : QString(); };
    for (const Offer &o : offers) {
        s += QStringList{csvQuote(o.provider),
                         csvQuote(o.instanceType),
                         csvQuote(o.region),
                         csvQuote(o.zone),
                         csvQuote(o.gpuRawName),
                         QString::number(o.gpuCount, 'g', 12),
                         n(o.gpuMemGb),
                         n(o.vcpus),
                         n(o.ramGb),
                         n(o.networkGbps),
                         csvQuote(o.interconnect),
                         n(o.onDemandUsdH),
                         n(o.spotUsdH),
                         csvQuote(o.spotLabel),
                         csvQuote(o.interruption),
                         n(o.reliability),
                         QString::number(o.billingIncrementS),
                         QString::number(o.billingMinimumS),
                         csvQuote(o.source),
                         n(o.uploadGbps),
                         n(o.dlperf)}
                 .join(u',') +
             u'\n';
    }
    return s;
}

QByteArray readHead(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.read(64 * 1024) : QByteArray();
}

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

QString megabytes(qint64 bytes)
{
    return QString::number(static_cast<double>(bytes) / 1e6, 'f', bytes < 10000000 ? 1 : 0);
}

} // namespace

QString refreshStatusName(RefreshStatus status)
{
    switch (status) {
    case RefreshStatus::Imported:
        return QStringLiteral("imported");
    case RefreshStatus::Unchanged:
        return QStringLiteral("unchanged");
    case RefreshStatus::Failed:
        return QStringLiteral("failed");
    case RefreshStatus::Cancelled:
        return QStringLiteral("cancelled");
    }
    return {};
}

struct CatalogRefresher::Fetched
{
    ProviderParts parts;
    bool notModified = false; ///< every source answered 304
    bool recordCheck = true;  ///< record an "unchanged" row when nothing changed
    QString origin;
    QList<FetchState> states; ///< stored after a successful import
    SourceKind kind = SourceKind::Live;
    QByteArray rawPayload; ///< checksum input when the source is a whole catalog file
    qint64 bytes = 0;
    int requests = 0;
    QString note; ///< extra line for the outcome message
};

namespace {

/// A small document (index, spot feed, advisor) with a conditional request; a 304 reuses the copy
/// stored with the current snapshot.
struct Doc
{
    QByteArray body;
    bool notModified = false;
};

} // namespace

CatalogRefresher::CatalogRefresher(CatalogStore &store, RefreshOptions options)
    : CatalogRefresher(store, std::move(options), ProviderTables::builtin(), GpuCatalog::builtin())
{
}

CatalogRefresher::CatalogRefresher(CatalogStore &store, RefreshOptions options, const ProviderTables &tables,
                                   const GpuCatalog &gpus)
    : m_store(store), m_options(std::move(options)), m_tables(tables), m_gpus(gpus)
{
}

QString CatalogRefresher::defaultBaseUrl(const QString &provider)
{
    if (provider == u"aws")
        return QStringLiteral("https://pricing.us-east-1.amazonaws.com");
    if (provider == u"azure")
        return QStringLiteral("https://prices.azure.com");
    if (provider == u"gcp")
        return QStringLiteral("https://cloudbilling.googleapis.com");
    if (provider == u"vastai")
        return QStringLiteral("https://console.vast.ai");
    return {}; // paperspace: no public price API
}

QDate CatalogRefresher::paperspaceTableDate()
{
    auto parsed = parseSnapshotCsv(readResourceText(QStringLiteral("catalog/paperspace.csv")),
                                   QStringLiteral("bundled:paperspace.csv"));
    return parsed ? parsed.value().dataDate : QDate();
}

QString CatalogRefresher::endpoint(const QString &provider, const QString &defaultUrl) const
{
    if (m_options.baseUrl.isEmpty())
        return defaultUrl;
    QString base = m_options.baseUrl.trimmed();
    while (base.endsWith(u'/'))
        base.chop(1);
    const QUrl d(defaultUrl);
    Q_UNUSED(provider);
    return base + d.path(QUrl::FullyEncoded) +
           (d.hasQuery() ? u'?' + d.query(QUrl::FullyEncoded) : QString());
}

void CatalogRefresher::report(int permille, const QString &message) const
{
    if (m_progress)
        m_progress(std::clamp(permille, 0, 1000), message);
}

namespace {

Result<Doc> getDoc(HttpClient &http, RefreshState &state, const QString &provider, const QString &url,
                   bool conditional, QList<FetchState> &states, qint64 &bytes, int &requests)
{
    std::optional<FetchState> old;
    if (conditional) {
        auto st = state.fetchState(url);
        if (st && st.value() && st.value()->cacheKind == u"raw")
            old = st.value();
    }
    HttpRequest req;
    req.url = url;
    if (old) {
        req.ifNoneMatch = old->etag;
        req.ifModifiedSince = old->lastModified;
    }
    auto resp = http.fetch(req);
    ++requests;
    if (!resp)
        return resp.error();
    Doc doc;
    if (resp.value().notModified) {
        if (!old) { // a 304 we did not ask for: ask again without validators
            req.ifNoneMatch.clear();
            req.ifModifiedSince.clear();
            resp = http.fetch(req);
            ++requests;
            if (!resp)
                return resp.error();
        } else {
            doc.body = old->cache;
            doc.notModified = true;
            states.append(*old);
            return doc;
        }
    }
    doc.body = resp.value().body;
    bytes += resp.value().bytes;
    if (!resp.value().etag.isEmpty() || !resp.value().lastModified.isEmpty())
        states.append({url, provider, resp.value().etag, resp.value().lastModified,
                       QDateTime::currentDateTimeUtc(), QStringLiteral("raw"), doc.body});
    return doc;
}

} // namespace

Result<CatalogRefresher::Fetched> CatalogRefresher::fetchAws()
{
    Fetched f;
    f.parts.provider = QStringLiteral("aws");
    HttpClient http(m_options.http);
    http.setCancelFlag(m_cancel);
    RefreshState state(m_store);
    const QString indexUrl = endpoint(
        QStringLiteral("aws"), defaultBaseUrl(QStringLiteral("aws")) +
                                   QStringLiteral("/offers/v1.0/aws/AmazonEC2/current/region_index.json"));
    f.origin = indexUrl;
    report(0, QStringLiteral("AWS: reading the region index"));
    auto index =
        getDoc(http, state, f.parts.provider, indexUrl, m_options.conditional, f.states, f.bytes, f.requests);
    if (!index)
        return makeError(QStringLiteral("AWS: ") + index.error().text());
    bool allNotModified = index.value().notModified;
    auto regions = parseAwsRegionIndex(index.value().body, indexUrl);
    if (!regions)
        return makeError(QStringLiteral("AWS: ") + regions.error().text());
    QList<QPair<QString, QString>> selected;
    if (!m_options.awsRegions.isEmpty()) {
        for (const QString &r : m_options.awsRegions) {
            auto it = std::find_if(regions.value().regions.cbegin(), regions.value().regions.cend(),
                                   [&](const auto &p) { return p.first == r; });
            if (it == regions.value().regions.cend())
                return makeError(
                    QStringLiteral("AWS: region \"%1\" is not in the region index %2").arg(r, indexUrl));
            selected.append(*it);
        }
    } else {
        for (const auto &p : regions.value().regions)
            if (!p.first.startsWith(QStringLiteral("cn-"))) // the China partition is priced in CNY
                selected.append(p);
    }
    QString version;
    const int n = static_cast<int>(selected.size());
    for (int i = 0; i < n; ++i) {
        if (cancelled())
            return makeError(QStringLiteral("AWS: cancelled"));
        const QString region = selected.at(i).first;
        const QString url =
            rebase(QUrl(indexUrl).resolved(QUrl(selected.at(i).second)).toString(), m_options.baseUrl);
        std::optional<FetchState> old;
        if (m_options.conditional) {
            auto st = state.fetchState(url);
            if (st && st.value() && st.value()->cacheKind == u"offers-csv")
                old = st.value();
        }
        const int from = 20 + 800 * i / std::max(1, n);
        const int span = 800 / std::max(1, n);
        report(from, QStringLiteral("AWS: %1 offer file (region %2 of %3)").arg(region).arg(i + 1).arg(n));
        http.setProgress([&, from, span, region](qint64 received, qint64 total) {
            const int p =
                total > 0 ? from + static_cast<int>(span * std::min<qint64>(received, total) / total) : from;
            report(p, total > 0 ? QStringLiteral("AWS: %1 offer file, %2 of %3 MB (region %4 of %5)")
                                      .arg(region, megabytes(received), megabytes(total))
                                      .arg(i + 1)
                                      .arg(n)
                                : QStringLiteral("AWS: %1 offer file, %2 MB (region %3 of %4)")
                                      .arg(region, megabytes(received))
                                      .arg(i + 1)
                                      .arg(n));
        });
        HttpRequest req;
        req.url = url;
        if (old) {
            req.ifNoneMatch = old->etag;
            req.ifModifiedSince = old->lastModified;
        }
        AwsOfferStream sink(m_tables, url, region);
        auto resp = http.fetch(req, sink);
        ++f.requests;
        http.setProgress({});
        if (!resp)
            return makeError(QStringLiteral("AWS: ") + resp.error().text());
        if (resp.value().notModified && old) {
            auto cached = parseSnapshotCsv(QString::fromUtf8(old->cache), url);
            if (!cached)
                return makeError(QStringLiteral("AWS: the stored copy of %1 is unreadable: %2")
                                     .arg(url, cached.error().text()));
            f.parts.awsOnDemand += cached.value().offers;
            f.states.append(*old);
            continue;
        }
        if (resp.value().notModified)
            return makeError(
                QStringLiteral("AWS: %1 answered 304 Not Modified to a request without validators").arg(url));
        allNotModified = false;
        auto parsed = sink.finish();
        if (!parsed)
            return makeError(QStringLiteral("AWS: ") + parsed.error().text());
        f.bytes += resp.value().bytes;
        version = parsed.value().version;
        f.parts.warnings += parsed.value().warnings;
        if (!resp.value().etag.isEmpty() || !resp.value().lastModified.isEmpty())
            f.states.append({url, f.parts.provider, resp.value().etag, resp.value().lastModified,
                             QDateTime::currentDateTimeUtc(), QStringLiteral("offers-csv"),
                             offersToCsv(parsed.value().offers).toUtf8()});
        f.parts.awsOnDemand += parsed.value().offers;
    }
    f.parts.haveAwsOffers = true;

    report(840, QStringLiteral("AWS: spot prices"));
    const QString spotUrl = m_options.baseUrl.isEmpty()
                                ? QStringLiteral("https://website.spot.ec2.aws.a2z.com/spot.json")
                                : endpoint(f.parts.provider, QStringLiteral("https://x/spot.json"));
    auto spot =
        getDoc(http, state, f.parts.provider, spotUrl, m_options.conditional, f.states, f.bytes, f.requests);
    if (!spot)
        return makeError(QStringLiteral("AWS: ") + spot.error().text());
    auto spotPrices = parseAwsSpotFeed(spot.value().body, spotUrl);
    if (!spotPrices)
        return makeError(QStringLiteral("AWS: ") + spotPrices.error().text());
    f.parts.awsSpot = std::move(spotPrices).value();
    allNotModified = allNotModified && spot.value().notModified;

    report(900, QStringLiteral("AWS: spot interruption advisor"));
    const QString advisorUrl =
        m_options.baseUrl.isEmpty()
            ? QStringLiteral("https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json")
            : endpoint(f.parts.provider, QStringLiteral("https://x/spot-advisor-data.json"));
    auto advisor = getDoc(http, state, f.parts.provider, advisorUrl, m_options.conditional, f.states, f.bytes,
                          f.requests);
    if (!advisor)
        return makeError(QStringLiteral("AWS: ") + advisor.error().text());
    auto advice = parseAwsSpotAdvisor(advisor.value().body, advisorUrl);
    if (!advice)
        return makeError(QStringLiteral("AWS: ") + advice.error().text());
    f.parts.awsAdvisor = std::move(advice).value();
    allNotModified = allNotModified && advisor.value().notModified;

    f.notModified = allNotModified;
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("AWS price list %1 (%2 regions) + spot feed + spot advisor")
                                    .arg(version.isEmpty() ? QStringLiteral("(cached)") : version)
                                    .arg(n));
    return f;
}

Result<CatalogRefresher::Fetched> CatalogRefresher::fetchAzure()
{
    Fetched f;
    f.parts.provider = QStringLiteral("azure");
    HttpClient http(m_options.http);
    http.setCancelFlag(m_cancel);
    const QString base =
        endpoint(f.parts.provider, defaultBaseUrl(f.parts.provider) + QStringLiteral("/api/retail/prices"));
    f.origin = base;
    const QStringList filters = azureGpuFilters(m_tables, std::max(1, m_options.azureSizesPerQuery));
    int pages = 0;
    for (qsizetype fi = 0; fi < filters.size(); ++fi) {
        // As documented: ?$filter=<OData expression>, the expression percent-encoded.
        QString url =
            base + QStringLiteral("?$filter=") + QString::fromLatin1(QUrl::toPercentEncoding(filters.at(fi)));
        QSet<QString> seen;
        int page = 0;
        while (!url.isEmpty()) {
            if (cancelled())
                return makeError(QStringLiteral("Azure: cancelled"));
            if (++pages > m_options.maxPages)
                return makeError(
                    QStringLiteral("Azure: more than %1 pages: stopping (pagination loop?) at %2")
                        .arg(m_options.maxPages)
                        .arg(url));
            seen.insert(url);
            ++page;
            report(static_cast<int>(900 * fi / filters.size()) + std::min(80, page),
                   QStringLiteral("Azure: price page %1 (query %2 of %3), %4 meters so far")
                       .arg(page)
                       .arg(fi + 1)
                       .arg(filters.size())
                       .arg(f.parts.azureItems.size()));
            HttpRequest req;
            req.url = url;
            auto resp = http.fetch(req);
            ++f.requests;
            if (!resp)
                return makeError(QStringLiteral("Azure: ") + resp.error().text());
            f.bytes += resp.value().bytes;
            auto parsed = parseAzureRetailPage(resp.value().body, url);
            if (!parsed)
                return makeError(QStringLiteral("Azure: ") + parsed.error().text());
            if (!parsed.value().currency.isEmpty() && parsed.value().currency != u"USD")
                return makeError(
                    QStringLiteral("Azure: %1 bills in %2, not USD").arg(url, parsed.value().currency));
            f.parts.azureItems += parsed.value().items;
            QString next = parsed.value().nextPageLink;
            if (!next.isEmpty())
                next = rebase(next, m_options.baseUrl);
            if (!next.isEmpty() && seen.contains(next))
                return makeError(
                    QStringLiteral("Azure: the page %1 links back to %2 (pagination loop)").arg(url, next));
            url = next;
        }
    }
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("Azure Retail Prices API, %1 pages").arg(pages));
    return f;
}

Result<CatalogRefresher::Fetched> CatalogRefresher::fetchGcp()
{
    Fetched f;
    f.parts.provider = QStringLiteral("gcp");
    if (m_options.gcpApiKey.trimmed().isEmpty())
        return makeError(QStringLiteral(
            "Google Cloud: the Cloud Billing Catalog API needs an API key. Pass --api-key KEY, set "
            "GPUFRONTIER_GCP_API_KEY, or enter it in the settings of the Catalogs page. The current GCP "
            "prices (bundled or last refresh) are kept."));
    HttpClient http(m_options.http);
    http.setCancelFlag(m_cancel);
    const QString base = endpoint(f.parts.provider, defaultBaseUrl(f.parts.provider) +
                                                        QStringLiteral("/v1/services/6F81-5844-456A/skus"));
    f.origin = base;
    QString token;
    QSet<QString> seen;
    int pages = 0;
    do {
        if (cancelled())
            return makeError(QStringLiteral("Google Cloud: cancelled"));
        if (++pages > m_options.maxPages)
            return makeError(QStringLiteral("Google Cloud: more than %1 pages: stopping (pagination loop?)")
                                 .arg(m_options.maxPages));
        QUrlQuery query;
        query.addQueryItem(QStringLiteral("key"),
                           QString::fromLatin1(QUrl::toPercentEncoding(m_options.gcpApiKey.trimmed())));
        query.addQueryItem(QStringLiteral("currencyCode"), QStringLiteral("USD"));
        query.addQueryItem(QStringLiteral("pageSize"), QStringLiteral("5000"));
        if (!token.isEmpty())
            query.addQueryItem(QStringLiteral("pageToken"),
                               QString::fromLatin1(QUrl::toPercentEncoding(token)));
        const QString url = base + u'?' + query.toString(QUrl::FullyEncoded);
        report(std::min(900, pages * 60), QStringLiteral("Google Cloud: SKU page %1, %2 SKUs so far")
                                              .arg(pages)
                                              .arg(f.parts.gcpSkus.size()));
        HttpRequest req;
        req.url = url;
        auto resp = http.fetch(req);
        ++f.requests;
        if (!resp)
            return makeError(QStringLiteral("Google Cloud: ") + resp.error().text());
        f.bytes += resp.value().bytes;
        auto parsed = parseGcpSkuPage(resp.value().body, withoutQuery(url));
        if (!parsed)
            return makeError(QStringLiteral("Google Cloud: ") + parsed.error().text());
        f.parts.gcpSkus += parsed.value().skus;
        token = parsed.value().nextPageToken;
        if (!token.isEmpty() && seen.contains(token))
            return makeError(
                QStringLiteral("Google Cloud: the same page token came back twice (pagination loop)"));
        seen.insert(token);
    } while (!token.isEmpty());
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("GCP Cloud Billing Catalog, %1 SKUs on %2 pages")
                                    .arg(f.parts.gcpSkus.size())
                                    .arg(pages));
    return f;
}

Result<CatalogRefresher::Fetched> CatalogRefresher::fetchVast()
{
    Fetched f;
    f.parts.provider = QStringLiteral("vastai");
    HttpClient http(m_options.http);
    http.setCancelFlag(m_cancel);
    const QString url =
        endpoint(f.parts.provider, defaultBaseUrl(f.parts.provider) + QStringLiteral("/api/v0/bundles/"));
    f.origin = url;
    report(50, QStringLiteral("vast.ai: searching offers"));
    http.setProgress([this](qint64 received, qint64) {
        report(100 + static_cast<int>(std::min<qint64>(700, received / 20000)),
               QStringLiteral("vast.ai: offers, %1 MB").arg(megabytes(received)));
    });
    HttpRequest req;
    req.url = url;
    req.method = "POST";
    req.body = vastSearchQuery();
    req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
    if (!m_options.vastApiKey.isEmpty())
        req.headers.append(
            qMakePair(QByteArray("Authorization"), QByteArray("Bearer " + m_options.vastApiKey.toUtf8())));
    auto resp = http.fetch(req);
    ++f.requests;
    if (!resp)
        return makeError(QStringLiteral("vast.ai: ") + resp.error().text());
    f.bytes += resp.value().bytes;
    auto parsed = parseVastOffers(resp.value().body, url);
    if (!parsed)
        return makeError(QStringLiteral("vast.ai: ") + parsed.error().text());
    f.parts.complete = std::move(parsed).value();
    f.parts.dataDate = QDateTime::currentDateTimeUtc().date();
    f.parts.descriptions.append(QStringLiteral("vast.ai offer search"));
    return f;
}

Result<CatalogRefresher::Fetched> CatalogRefresher::fetchPaperspace()
{
    Fetched f;
    f.parts.provider = QStringLiteral("paperspace");
    const QDate tableDate = paperspaceTableDate();
    const qint64 age = tableDate.isValid() ? tableDate.daysTo(QDate::currentDate()) : -1;
    f.note = QStringLiteral("Paperspace has no public price API: the source is a curated table (the one "
                            "shipped with GPU Frontier "
                            "is dated %1, %2 days old). Import a newer table with: gpufrontier-cli import "
                            "--provider paperspace --file FILE")
                 .arg(tableDate.toString(Qt::ISODate))
                 .arg(age);
    if (m_options.baseUrl.isEmpty()) {
        const QByteArray payload = readResource(QStringLiteral("catalog/paperspace.csv"));
        auto parsed = parseSnapshotCsv(QString::fromUtf8(payload), QStringLiteral("bundled:paperspace.csv"));
        if (!parsed)
            return parsed.error();
        f.parts.complete = std::move(parsed).value();
        f.kind = SourceKind::Bundled;
        f.origin = QStringLiteral("bundled:paperspace.csv");
        f.rawPayload = payload;
        f.recordCheck = false;
        return f;
    }
    HttpClient http(m_options.http);
    http.setCancelFlag(m_cancel);
    const QString url = endpoint(f.parts.provider, QStringLiteral("https://x/paperspace.csv"));
    f.origin = url;
    HttpRequest req;
    req.url = url;
    req.expectJson = false;
    auto resp = http.fetch(req);
    ++f.requests;
    if (!resp)
        return makeError(QStringLiteral("Paperspace: ") + resp.error().text());
    const QByteArray body = resp.value().body;
    f.bytes += resp.value().bytes;
    const ProviderFormat format = detectProviderFormat(body.left(64 * 1024));
    Result<SnapshotData> parsed = makeError(QString());
    if (format == ProviderFormat::GpuFrontierCsv)
        parsed = parseSnapshotCsv(QString::fromUtf8(body), url);
    else if (format == ProviderFormat::SkypilotCsv)
        parsed = parseSkypilotCsv(QString::fromUtf8(body), f.parts.provider, m_tables, url);
    else
        return makeError(
            QStringLiteral("Paperspace: %1 is neither a GPU Frontier nor a SkyPilot catalog CSV").arg(url));
    if (!parsed)
        return makeError(QStringLiteral("Paperspace: ") + parsed.error().text());
    if (parsed.value().provider != f.parts.provider)
        return makeError(QStringLiteral("Paperspace: %1 holds %2 prices").arg(url, parsed.value().provider));
    f.parts.complete = std::move(parsed).value();
    f.rawPayload = body;
    return f;
}

RefreshOutcome CatalogRefresher::conclude(const QString &provider, QDateTime started, Result<Fetched> fetched,
                                          bool live)
{
    RefreshOutcome out;
    out.provider = provider;
    RefreshState state(m_store);
    auto finishLog = [&](RefreshOutcome &o) {
        o.message = redact(o.message);
        RefreshLogEntry e;
        e.provider = provider;
        e.startedAt = started;
        e.finishedAt = QDateTime::currentDateTimeUtc();
        e.outcome = refreshStatusName(o.status);
        e.origin = redact(o.origin);
        e.snapshotId = o.snapshotId;
        e.message = o.message;
        if (auto r = state.log(e); !r)
            o.warnings.append(r.error().text());
        return o;
    };
    if (!fetched) {
        out.status = cancelled() ? RefreshStatus::Cancelled : RefreshStatus::Failed;
        out.message = fetched.error().text();
        if (out.status == RefreshStatus::Failed)
            out.message += QStringLiteral(" Nothing was imported; the previous %1 snapshot stays current.")
                               .arg(providerDisplayName(provider));
        return finishLog(out);
    }
    Fetched &f = fetched.value();
    out.origin = redact(f.origin);
    out.bytes = f.bytes;
    out.requests = f.requests;
    if (cancelled()) {
        out.status = RefreshStatus::Cancelled;
        out.message =
            QStringLiteral("%1: cancelled; nothing was imported").arg(providerDisplayName(provider));
        return finishLog(out);
    }
    auto currentId = [&]() -> qint64 {
        auto snaps = m_store.snapshots(provider);
        if (snaps)
            for (const Snapshot &s : snaps.value())
                if (s.current)
                    return s.id;
        return 0;
    };
    if (f.notModified) {
        auto rec = state.recordUnchanged(provider, sourceKindName(f.kind), out.origin,
                                         QStringLiteral("not modified (HTTP 304)"));
        if (!rec) {
            out.status = RefreshStatus::Failed;
            out.message = rec.error().text();
            return finishLog(out);
        }
        if (auto st = state.saveFetchStates(f.states); !st)
            out.warnings.append(st.error().text());
        out.status = RefreshStatus::Unchanged;
        out.snapshotId = currentId();
        out.message =
            QStringLiteral("%1: not modified since the last refresh (HTTP 304); snapshot %2 stays current")
                .arg(providerDisplayName(provider))
                .arg(out.snapshotId);
        return finishLog(out);
    }
    report(960, QStringLiteral("%1: checking and importing").arg(providerDisplayName(provider)));
    std::optional<QList<Offer>> currentAws;
    if (provider == u"aws" && !f.parts.haveAwsOffers && !f.parts.complete) {
        auto cur = m_store.currentOffers();
        if (cur) {
            currentAws = QList<Offer>();
            for (const Offer &o : cur.value())
                if (o.provider == provider)
                    currentAws->append(o);
        }
    }
    auto composed = composeProvider(std::move(f.parts), m_tables, currentAws ? &*currentAws : nullptr);
    if (!composed) {
        out.status = RefreshStatus::Failed;
        out.message = composed.error().text() +
                      QStringLiteral(" Nothing was imported; the previous snapshot stays current.");
        return finishLog(out);
    }
    SnapshotData data = std::move(composed).value();
    if (live && !data.dataDate.isValid())
        data.dataDate = QDateTime::currentDateTimeUtc().date();
    const QByteArray payload = f.rawPayload.isEmpty() ? snapshotFingerprint(data) : f.rawPayload;
    ImportOptions options;
    options.limits.minRows = std::max(1, m_options.minRows);
    const QStringList warnings = data.warnings;
    auto imported = m_store.importSnapshot(std::move(data), f.kind, out.origin, payload, m_gpus, options);
    if (!imported) {
        out.status = RefreshStatus::Failed;
        const QString who = providerDisplayName(provider);
        const QString text = imported.error().text();
        out.message =
            (text.contains(u'(' + who + u')') || text.startsWith(who) ? text
                                                                      : who + QStringLiteral(": ") + text) +
            QStringLiteral(" Nothing was imported; the previous %1 snapshot stays current.").arg(who);
        return finishLog(out);
    }
    const ImportOutcome &io = imported.value();
    out.warnings = io.warnings;
    for (const QString &w : warnings)
        if (!out.warnings.contains(w))
            out.warnings.append(w);
    out.snapshotId = io.snapshotId;
    if (auto st = state.saveFetchStates(f.states); !st)
        out.warnings.append(st.error().text());
    if (io.unchanged) {
        if (live && f.recordCheck) {
            if (auto rec = state.recordUnchanged(provider, sourceKindName(f.kind), out.origin,
                                                 QStringLiteral("same prices as the current snapshot"));
                !rec)
                out.warnings.append(rec.error().text());
        }
        out.status = RefreshStatus::Unchanged;
        out.message = QStringLiteral("%1: unchanged (same prices as the current snapshot %2)")
                          .arg(providerDisplayName(provider))
                          .arg(io.snapshotId);
    } else {
        out.status = RefreshStatus::Imported;
        out.rows = io.rows;
        out.unrecognised = io.unrecognised;
        out.message = QStringLiteral("%1: imported %2 offers as snapshot %3")
                          .arg(providerDisplayName(provider))
                          .arg(io.rows)
                          .arg(io.snapshotId);
        if (io.unrecognised)
            out.message += QStringLiteral(" (%1 with an unrecognised GPU)").arg(io.unrecognised);
    }
    if (!f.note.isEmpty())
        out.message += u'\n' + f.note;
    report(1000, out.message.section(u'\n', 0, 0));
    return finishLog(out);
}

RefreshOutcome CatalogRefresher::refresh(const QString &provider)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    if (!knownProviders().contains(provider)) {
        RefreshOutcome out;
        out.provider = provider;
        out.message = QStringLiteral("Unknown provider \"%1\" (known: %2)")
                          .arg(provider, knownProviders().join(QStringLiteral(", ")));
        return out;
    }
    Result<Fetched> fetched = makeError(QString());
    if (provider == u"aws")
        fetched = fetchAws();
    else if (provider == u"azure")
        fetched = fetchAzure();
    else if (provider == u"gcp")
        fetched = fetchGcp();
    else if (provider == u"vastai")
        fetched = fetchVast();
    else
        fetched = fetchPaperspace();
    return conclude(provider, started, std::move(fetched), true);
}

RefreshOutcome CatalogRefresher::importFiles(const QString &provider, const QStringList &paths)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    Result<Fetched> fetched = makeError(QString());
    auto parts = readProviderFiles(
        provider, paths, m_tables,
        [this](int permille, const QString &message) { report(permille * 9 / 10, message); }, m_cancel);
    if (!parts) {
        fetched = parts.error();
    } else {
        Fetched f;
        f.kind = SourceKind::File;
        QStringList names;
        for (const QString &p : paths)
            names.append(QFileInfo(p).fileName());
        f.origin = names.join(QStringLiteral(", "));
        // A GPU Frontier CSV is checksummed as it is (as the bundled snapshot is).
        if (paths.size() == 1 && parts.value().complete &&
            detectProviderFormat(readHead(paths.first())) == ProviderFormat::GpuFrontierCsv)
            f.rawPayload = readAll(paths.first());
        f.parts = std::move(parts).value();
        fetched = std::move(f);
    }
    return conclude(provider, started, std::move(fetched), false);
}

} // namespace gf

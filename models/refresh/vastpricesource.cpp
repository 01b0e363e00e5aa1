#include "refresh/vastpricesource.h"

#include "providers/vastai.h"

#include <QThread>

#include <memory>
#include <unordered_set>

namespace gf {

namespace {

/// The offer search paged by price (provider-sources.md), one page at a time: each page's usable offers go
/// to the import as the page is read, so that what is held is one page's body, not every page's offers.
class VastPager
{
public:
    VastPager(const SourceContext &ctx, QString url) : m_ctx(ctx), m_url(std::move(url)), m_http(ctx.http())
    {
        m_maxPages = std::max(1, ctx.options().vastMaxPages);
    }

    /// Downloads the next page into m_body (the first one before the import starts: its errors and final URL
    /// are the fetch's).
    Result<HttpResponse> download(FetchedCatalog &f)
    {
        ++m_pages;
        const int pages = m_pages;
        const int maxPages = m_maxPages;
        m_ctx.report(50 + 800 * (pages - 1) / maxPages,
                     pages == 1 ? QStringLiteral("vast.ai: searching offers")
                                : QStringLiteral("vast.ai: offers from %1 USD/h (page %2, %3 offers so far)")
                                      .arg(*m_cursor)
                                      .arg(pages)
                                      .arg(m_offers));
        m_http.setProgress([ctx = &m_ctx, pages, maxPages](qint64 received, qint64) {
            ctx->report(50 + 800 * (pages - 1) / maxPages +
                            static_cast<int>(std::min<qint64>(800 / maxPages, received / 20000)),
                        QStringLiteral("vast.ai: offers, %1 MB").arg(megabytesText(received)));
        });
        HttpRequest req;
        req.url = m_url;
        req.method = "POST";
        req.body = vastSearchQuery(10000, m_cursor);
        req.headers.append(qMakePair(QByteArray("Content-Type"), QByteArray("application/json")));
        if (!m_ctx.options().vastApiKey.isEmpty())
            req.headers.append(qMakePair(QByteArray("Authorization"),
                                         QByteArray("Bearer " + m_ctx.options().vastApiKey.toUtf8())));
        auto resp = m_http.fetch(req);
        ++f.requests;
        if (!resp)
            return resp.error().prefixed(QStringLiteral("vast.ai: "));
        f.bytes += resp.value().bytes;
        m_body = std::move(resp.value().body);
        return resp;
    }

    /// Reads the first page (downloaded already) and pages on, every usable offer into `sink`; the header
    /// and warnings at the end; the fingerprint of every offer given in `*sha256`.
    Result<SnapshotData> stream(OfferSink &next, QByteArray *sha256, FetchedCatalog &f)
    {
        FingerprintingSink sink(next);
        SnapshotData head;
        head.provider = QStringLiteral("vastai");
        head.description = QStringLiteral("vast.ai offer search");
        head.dataDate = QDateTime::currentDateTimeUtc().date();
        if (auto st = sink.begin(head); !st)
            return st.error();
        PageSink pageSink(*this, sink);
        VastOfferPage skipped; // the skip counts over every page
        QStringList warnings;
        bool cut = false;
        while (true) {
            pageSink.added = 0;
            auto parsed = streamVastOfferPage(m_body, m_url, pageSink);
            m_body = QByteArray();
            if (pageSink.failed) // the import's own error (a refused row, a cancel), as it words it
                return parsed.error();
            if (!parsed)
                return parsed.error().prefixed(QStringLiteral("vast.ai: "));
            const VastOfferPage &page = parsed.value();
            skipped.malformed += page.malformed;
            if (skipped.firstMalformed.isEmpty())
                skipped.firstMalformed = page.firstMalformed;
            skipped.notRentable += page.notRentable;
            skipped.noPrice += page.noPrice;
            // An answer of exactly the default limit was cut short (provider-sources.md): page on by price.
            cut = page.answered == kVastDefaultLimit;
            if (!cut)
                break;
            if (pageSink.added == 0 || !page.maxPrice) {
                warnings.append(
                    QStringLiteral("paging stopped at %1 USD/h: a whole page of %2 offers at that price was "
                                   "seen already")
                        .arg(m_cursor.value_or(0))
                        .arg(kVastDefaultLimit));
                break;
            }
            m_cursor = page.maxPrice;
            if (m_pages >= m_maxPages)
                break;
            if (m_ctx.cancelled())
                return makeError(QStringLiteral("vast.ai: cancelled"));
            for (int waited = 0; waited < m_ctx.options().vastPageDelayMs; waited += 100) {
                if (m_ctx.cancelled())
                    return makeError(QStringLiteral("vast.ai: cancelled"));
                QThread::msleep(
                    static_cast<unsigned long>(std::min(100, m_ctx.options().vastPageDelayMs - waited)));
            }
            if (auto resp = download(f); !resp)
                return resp.error();
        }
        if (m_pages > 1 || cut) {
            QString w =
                QStringLiteral("vast.ai answered exactly %1 offers (its default limit) to a query for "
                               "10000: paged by price, %2 requests, %3 offers")
                    .arg(kVastDefaultLimit)
                    .arg(m_pages)
                    .arg(m_offers);
            if (cut && m_pages >= m_maxPages)
                w += QStringLiteral("; stopped after %1 pages at %2 USD/h: the dearer offers are not in this "
                                    "snapshot")
                         .arg(m_maxPages)
                         .arg(m_cursor.value_or(0));
            warnings.prepend(w);
        }
        warnings += vastPageWarnings(skipped);
        head.warnings = warnings;
        head.description = m_pages > 1 ? QStringLiteral("vast.ai offer search (%1 pages)").arg(m_pages)
                                       : QStringLiteral("vast.ai offer search");
        if (sha256)
            *sha256 = sink.sha256(head.provider);
        return head;
    }

private:
    /// Takes a page's usable offers: the first page's all, a later page's only those not seen before (the
    /// cursor is inclusive: the previous page's last price comes again), numbered across the pages.
    class PageSink final : public OfferSink
    {
    public:
        PageSink(VastPager &pager, OfferSink &next) : m_pager(pager), m_next(next) {}
        Status begin(const SnapshotData &) override { return Ok{}; } // the search's head was given already
        Status add(Offer &&offer) override
        {
            const bool first = m_pager.m_pages == 1;
            if (m_pager.m_seen.insert(offer.instanceType.toLongLong()).second)
                ++added;
            else if (!first)
                return Ok{};
            offer.id = ++m_pager.m_offers;
            auto st = m_next.add(std::move(offer));
            failed = failed || !st;
            return st;
        }
        int added = 0;       ///< offers of this page not seen before
        bool failed = false; ///< the import refused an offer

    private:
        VastPager &m_pager;
        OfferSink &m_next;
    };

    const SourceContext &m_ctx;
    QString m_url;
    HttpClient m_http;
    int m_maxPages = 1;
    int m_pages = 0;
    std::optional<double> m_cursor;
    qint64 m_offers = 0;               ///< offers given to the import
    std::unordered_set<qint64> m_seen; ///< the offer ids seen on every page (ids are integers)
    QByteArray m_body;                 ///< the page being read
};

} // namespace

Result<FetchedCatalog> VastPriceSource::fetch(const SourceContext &ctx) const
{
    FetchedCatalog f;
    f.parts.provider = QStringLiteral("vastai");
    const QString url = ctx.endpoint(defaultBaseUrl() + QStringLiteral("/api/v0/bundles/"));
    auto pager = std::make_shared<VastPager>(ctx, url);
    auto first = pager->download(f);
    if (!first)
        return first.error();
    f.origin = responseOrigin(first.value(), url); // the final URL after any redirect
    f.streamed = [pager](OfferSink &sink, QByteArray *sha256, FetchedCatalog &self) {
        return pager->stream(sink, sha256, self);
    };
    return f;
}

} // namespace gf

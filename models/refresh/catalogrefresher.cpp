#include "refresh/catalogrefresher.h"

#include "refresh/pricesource.h"
#include "refresh/redact.h"

#include "domain/gpucatalog.h"
#include "domain/providertables.h"
#include "providers/awsoffers.h"
#include "providers/providerimport.h"
#include "providers/skypilotcatalog.h"
#include "providers/vastai.h"
#include "store/catalogstore.h"
#include "store/refreshstate.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QFileInfo>
#include <QSet>
#include <QUrl>
#include <QUrlQuery>

namespace gf {

namespace {

/// A failed import's message: what went wrong, as a sentence, and that the provider's current snapshot
/// is untouched.
QString nothingImported(QString what, const QString &provider)
{
    what = what.trimmed();
    if (!what.isEmpty() && !what.endsWith(u'.') && !what.endsWith(u'!') && !what.endsWith(u'?'))
        what += u'.';
    return what +
           QStringLiteral(" Nothing was imported; the previous %1 snapshot stays current.").arg(provider);
}

/// Passes a streamed catalog on to the import with its description free of the refresh's secrets.
class RedactingSink final : public OfferSink
{
public:
    RedactingSink(OfferSink &next, std::function<QString(const QString &)> redact)
        : m_next(next), m_redact(std::move(redact))
    {
    }
    Status begin(const SnapshotData &head) override
    {
        SnapshotData h = head;
        h.description = m_redact(h.description);
        for (QString &w : h.warnings)
            w = m_redact(w);
        return m_next.begin(h);
    }
    Status add(Offer &&offer) override { return m_next.add(std::move(offer)); }
    Status addPrepared(Offer &&offer, const PreparedRow &prepared) override // the offer passes unchanged
    {
        return m_next.addPrepared(std::move(offer), prepared);
    }

private:
    OfferSink &m_next;
    std::function<QString(const QString &)> m_redact;
};

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

CatalogRefresher::CatalogRefresher(CatalogStore &store, RefreshOptions options)
    : CatalogRefresher(store, std::move(options), ProviderTables::builtin(), GpuCatalog::builtin())
{
}

CatalogRefresher::CatalogRefresher(CatalogStore &store, RefreshOptions options, const ProviderTables &tables,
                                   const GpuCatalog &gpus)
    : m_store(store), m_options(std::move(options)), m_tables(tables), m_gpus(gpus),
      m_secrets(refreshSecrets(m_options))
{
}

void CatalogRefresher::report(int permille, const QString &message) const
{
    if (m_progress)
        m_progress(std::clamp(permille, 0, 1000), redactSecrets(message, m_secrets));
}

RefreshOutcome CatalogRefresher::conclude(const QString &provider, QDateTime started,
                                          Result<FetchedCatalog> fetched, bool live)
{
    RefreshOutcome out;
    out.provider = provider;
    RefreshState state(m_store);
    // API keys and URL passwords never reach a message, a warning, a log row or the database.
    const auto redact = [this](const QString &text) { return redactSecrets(text, m_secrets); };
    auto finishLog = [&](RefreshOutcome &o) {
        o.message = redact(o.message);
        o.origin = redact(o.origin);
        for (QString &w : o.warnings)
            w = redact(w);
        RefreshLogEntry e;
        e.provider = provider;
        e.startedAt = started;
        e.finishedAt = QDateTime::currentDateTimeUtc();
        e.outcome = refreshStatusName(o.status);
        e.origin = o.origin;
        e.snapshotId = o.snapshotId;
        e.message = o.message;
        if (auto r = state.log(e); !r)
            o.warnings.append(redact(r.error().text()));
        return o;
    };
    if (!fetched) {
        out.status = cancelled() ? RefreshStatus::Cancelled : RefreshStatus::Failed;
        out.message = fetched.error().text();
        out.code = fetched.error().code;
        if (out.status == RefreshStatus::Failed)
            out.message = nothingImported(out.message, providerDisplayName(provider));
        return finishLog(out);
    }
    FetchedCatalog &f = fetched.value();
    out.origin = redact(f.origin);
    for (FetchState &st : f.states) // the key of a conditional request is its URL
        st.url = redact(st.url);
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
                .arg(providerDisplayName(provider), QString::number(out.snapshotId));
        return finishLog(out);
    }
    ImportOptions options;
    options.limits.minRows = std::max(1, m_options.minRows);
    Result<ImportOutcome> imported = makeError(QString());
    QStringList warnings;
    if (f.streamed) {
        // The offers go into the import's transaction as they are read: nothing holds them all.
        report(100, QStringLiteral("%1: reading and importing").arg(providerDisplayName(provider)));
        options.payloadSha256 = f.payloadSha256; // a checksum known before the rows: "unchanged" writes none
        auto session = m_store.beginImport(f.kind, out.origin, m_gpus, options, m_cancel);
        if (!session) {
            imported = session.error();
        } else {
            RedactingSink sink(*session.value(), redact);
            QByteArray sha256;
            auto meta = f.streamed(sink, &sha256, f);
            out.bytes = f.bytes; // and the pages downloaded while it streamed
            out.requests = f.requests;
            if (!meta) {
                out.code = meta.error().code;
                imported = meta.error();
            } else {
                SnapshotData head = std::move(meta).value();
                head.description = redact(head.description);
                for (QString &w : head.warnings)
                    w = redact(w);
                imported = session.value()->finish(std::move(head), sha256);
            }
        }
        if (!imported && cancelled()) {
            out.status = RefreshStatus::Cancelled;
            out.message =
                QStringLiteral("%1: cancelled; nothing was imported").arg(providerDisplayName(provider));
            return finishLog(out);
        }
    } else {
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
            out.message = nothingImported(composed.error().text(), providerDisplayName(provider));
            return finishLog(out);
        }
        SnapshotData data = std::move(composed).value();
        data.description = redact(data.description);
        for (QString &w : data.warnings)
            w = redact(w);
        if (live && !data.dataDate.isValid())
            data.dataDate = QDateTime::currentDateTimeUtc().date();
        options.payloadSha256 = !f.payloadSha256.isEmpty() ? f.payloadSha256
                                : f.rawPayload.isEmpty()   ? snapshotFingerprintSha256(data)
                                                           : QByteArray();
        const QByteArray &payload = f.rawPayload;
        warnings = data.warnings;
        imported = m_store.importSnapshot(std::move(data), f.kind, out.origin, payload, m_gpus, options);
    }
    if (!imported) {
        out.status = RefreshStatus::Failed;
        const QString who = providerDisplayName(provider);
        const QString text = imported.error().text();
        out.message = nothingImported(text.contains(u'(' + who + u')') || text.startsWith(who)
                                          ? text
                                          : who + QStringLiteral(": ") + text,
                                      who);
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
                          .arg(providerDisplayName(provider), QString::number(io.snapshotId));
    } else {
        out.status = RefreshStatus::Imported;
        out.rows = io.rows;
        out.unrecognised = io.unrecognised;
        out.message =
            QStringLiteral("%1: imported %2 offers as snapshot %3")
                .arg(providerDisplayName(provider), QString::number(io.rows), QString::number(io.snapshotId));
        if (io.unrecognised)
            out.message += QStringLiteral(" (%1 with an unrecognised GPU)").arg(io.unrecognised);
    }
    if (!f.note.isEmpty())
        out.message += u'\n' + f.note;
    out.code = f.noteCode;
    report(1000, out.message.section(u'\n', 0, 0));
    return finishLog(out);
}

RefreshOutcome CatalogRefresher::refresh(const QString &provider)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    const PriceSource *source = priceSource(provider, m_options.source);
    if (!source) {
        RefreshOutcome out;
        out.provider = provider;
        out.message = sourceChoiceError(provider, m_options.source);
        return out;
    }
    const SourceContext context(m_options, m_store, m_tables, m_cancel, m_progress);
    return conclude(provider, started, source->fetch(context), true);
}

RefreshOutcome CatalogRefresher::importFiles(const QString &provider, const QStringList &paths)
{
    const QDateTime started = QDateTime::currentDateTimeUtc();
    if (streamsAsCatalog(paths)) {
        // A whole catalog streams from the file into the import.
        FetchedCatalog f;
        f.kind = SourceKind::File;
        f.origin = QFileInfo(paths.first()).fileName();
        f.parts.provider = provider;
        f.streamed = [provider, path = paths.first(), limits = m_options.inputLimits,
                      tables = &m_tables](OfferSink &sink, QByteArray *sha256, FetchedCatalog &) {
            return streamCatalogFile(provider, path, sink, limits, sha256, *tables);
        };
        return conclude(provider, started, std::move(f), false);
    }
    Result<FetchedCatalog> fetched = makeError(QString());
    auto parts = readProviderFiles(
        provider, paths, m_tables,
        [this](int permille, const QString &message) { report(permille * 9 / 10, message); }, m_cancel,
        m_options.inputLimits);
    if (!parts) {
        fetched = parts.error();
    } else {
        FetchedCatalog f;
        f.kind = SourceKind::File;
        QStringList names;
        for (const QString &p : paths)
            names.append(QFileInfo(p).fileName());
        f.origin = names.join(QStringLiteral(", "));
        // A GPU Frontier CSV is checksummed as it is (as the bundled snapshot is), hashed while it streamed.
        if (paths.size() == 1 && parts.value().complete)
            f.payloadSha256 = parts.value().fileSha256;
        f.parts = std::move(parts).value();
        fetched = std::move(f);
    }
    return conclude(provider, started, std::move(fetched), false);
}

} // namespace gf

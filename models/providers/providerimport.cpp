#include "providers/providerimport.h"

#include "domain/providertables.h"
#include "providers/awsoffers.h"
#include "providers/offerpipe.h"
#include "providers/skypilotcatalog.h"
#include "providers/vastai.h"
#include "util/csv.h"
#include "util/hashingreader.h"
#include "util/jsondocument.h"
#include "util/jsonstream.h"
#include "util/numbertext.h"
#include "util/printable.h"

#include <QCryptographicHash>
#include <QFile>
#include <QFileInfo>

#include <openssl/evp.h>

#include <algorithm>
#include <cctype>
#include <memory>
#include <system_error>
#include <thread>

namespace gf {

namespace {

QString firstLine(QByteArrayView head)
{
    qsizetype end = head.indexOf('\n');
    if (end < 0)
        end = head.size();
    return QString::fromUtf8(head.first(end)).trimmed();
}

/// "an AWS ...", "an Azure ...", "a vast.ai ...", "a GCP ...": the article for a format's name.
QString withArticle(const QString &name)
{
    const QChar c = name.isEmpty() ? QChar() : name.at(0);
    const bool vowel = c == u'A' || c == u'E' || c == u'I' || c == u'O' || c == u'a' || c == u'e' ||
                       c == u'i' || c == u'o' || c == u'u';
    return (vowel ? QStringLiteral("an ") : QStringLiteral("a ")) + name;
}

Error unknownProvider(const QString &provider)
{
    return makeError(QStringLiteral("Unknown provider \"%1\" (known: %2)")
                         .arg(provider, knownProviders().join(QStringLiteral(", "))));
}

Error tooLarge(const QString &who, const QString &name, const InputLimits &limits, ProviderFormat format)
{
    return makeError(QStringLiteral("%1: %2 is larger than %3 MB, too large for %4")
                         .arg(who, name, QString::number(std::max<qint64>(1, limits.maxFileBytes >> 20)),
                              withArticle(providerFormatName(format))));
}

Error providerMismatch(const QString &provider, const QString &name, const QString &found)
{
    return makeError(QStringLiteral("%1: %2 holds %3 prices, not %1")
                         .arg(providerDisplayName(provider), name, providerDisplayName(found)));
}

} // namespace

QString providerFormatName(ProviderFormat format)
{
    switch (format) {
    case ProviderFormat::Unknown:
        return QStringLiteral("unknown format");
    case ProviderFormat::GpuFrontierCsv:
        return QStringLiteral("GPU Frontier catalog CSV");
    case ProviderFormat::SkypilotCsv:
        return QStringLiteral("SkyPilot catalog CSV (vms.csv)");
    case ProviderFormat::AwsOfferJson:
        return QStringLiteral("AWS EC2 price list offer file (JSON)");
    case ProviderFormat::AwsOfferCsv:
        return QStringLiteral("AWS EC2 price list offer file (CSV)");
    case ProviderFormat::AwsSpotFeed:
        return QStringLiteral("AWS spot price feed (spot.js/spot.json)");
    case ProviderFormat::AwsSpotAdvisor:
        return QStringLiteral("AWS Spot Instance Advisor data");
    case ProviderFormat::AzureRetail:
        return QStringLiteral("Azure Retail Prices API page");
    case ProviderFormat::GcpSkus:
        return QStringLiteral("GCP Cloud Billing SKU page");
    case ProviderFormat::VastOffers:
        return QStringLiteral("vast.ai offer search answer");
    }
    return {};
}

QString providerOfFormat(ProviderFormat format)
{
    switch (format) {
    case ProviderFormat::AwsOfferJson:
    case ProviderFormat::AwsOfferCsv:
    case ProviderFormat::AwsSpotFeed:
    case ProviderFormat::AwsSpotAdvisor:
        return QStringLiteral("aws");
    case ProviderFormat::AzureRetail:
        return QStringLiteral("azure");
    case ProviderFormat::GcpSkus:
        return QStringLiteral("gcp");
    case ProviderFormat::VastOffers:
        return QStringLiteral("vastai");
    default:
        return {};
    }
}

ProviderFormat detectProviderFormat(QByteArrayView head)
{
    qsizetype i = 0;
    if (head.size() >= 3 && head.first(3) == QByteArrayView("\xEF\xBB\xBF"))
        i = 3;
    while (i < head.size() && (head[i] == ' ' || head[i] == '\n' || head[i] == '\r' || head[i] == '\t'))
        ++i;
    const QByteArrayView body = head.sliced(i);
    if (body.isEmpty())
        return ProviderFormat::Unknown;
    const char c = body[0];
    if (c == '#' || body.startsWith("provider,"))
        return ProviderFormat::GpuFrontierCsv;
    if (body.startsWith("\"FormatVersion\"") || body.startsWith("FormatVersion,"))
        return ProviderFormat::AwsOfferCsv;
    if (c != '{' && c != '[') {
        // JSONP: name({...  (the head may end before the closing parenthesis)
        qsizetype k = 0;
        while (k < body.size() && (std::isalnum(static_cast<unsigned char>(body[k])) || body[k] == '_' ||
                                   body[k] == '$' || body[k] == '.'))
            ++k;
        while (k < body.size() && (body[k] == ' ' || body[k] == '\n' || body[k] == '\r' || body[k] == '\t'))
            ++k;
        if (k > 0 && k < body.size() && body[k] == '(') {
            ++k;
            while (k < body.size() &&
                   (body[k] == ' ' || body[k] == '\n' || body[k] == '\r' || body[k] == '\t'))
                ++k;
            if (k < body.size() && body[k] == '{')
                return ProviderFormat::AwsSpotFeed;
        }
        const QStringList header = firstLine(body).split(u',');
        if (isSkypilotHeader(header))
            return ProviderFormat::SkypilotCsv;
        if (header.contains(QStringLiteral("instance_type")) &&
            header.contains(QStringLiteral("ondemand_usd_h")))
            return ProviderFormat::GpuFrontierCsv;
        return ProviderFormat::Unknown;
    }
    if (c == '[')
        return body.contains("\"gpu_name\"") || body.contains("\"dph_total\"") ? ProviderFormat::VastOffers
                                                                               : ProviderFormat::Unknown;
    // A JSON object: look at the keys near the start.
    if (body.contains("\"offerCode\"") || body.contains("\"products\""))
        return ProviderFormat::AwsOfferJson;
    if (body.contains("\"Items\"") &&
        (body.contains("\"BillingCurrency\"") || body.contains("\"NextPageLink\"") ||
         body.contains("\"CustomerEntityId\"")))
        return ProviderFormat::AzureRetail;
    if (body.contains("\"skus\"") || body.contains("\"nextPageToken\""))
        return ProviderFormat::GcpSkus;
    if (body.contains("\"offers\"") && (body.contains("\"gpu_name\"") || body.contains("\"num_gpus\"") ||
                                        body.contains("\"offers\":[]") || body.contains("\"offers\": []")))
        return ProviderFormat::VastOffers;
    if (body.contains("\"spot_advisor\"") || body.contains("\"instance_types\"") ||
        body.contains("\"global_rate\""))
        return ProviderFormat::AwsSpotAdvisor;
    if (body.contains("\"config\"") && body.contains("\"valueColumns\""))
        return ProviderFormat::AwsSpotFeed;
    if (body.contains("\"Items\""))
        return ProviderFormat::AzureRetail;
    return ProviderFormat::Unknown;
}

void numberRows(SnapshotData &data)
{
    // A parser that knows the file line of each row (the CSV readers) has set it: keep it, messages name
    // the line of the file.
    if (std::any_of(data.offers.cbegin(), data.offers.cend(), [](const Offer &o) { return o.id > 0; }))
        return;
    qint64 n = 0;
    for (Offer &o : data.offers)
        o.id = ++n;
}

namespace {

/// Appends a text's UTF-8 bytes; false when it holds a character at or above U+D800.
bool appendUtf8(std::string &out, const QString &s)
{
    bool plain = true;
    bool ascii = true;
    for (const QChar c : s) {
        if (c.unicode() >= 0x80) {
            ascii = false;
            plain = plain && c.unicode() < 0xd800;
        }
    }
    if (ascii) {
        for (const QChar c : s)
            out += static_cast<char>(c.unicode());
    } else {
        const QByteArray utf8 = s.toUtf8();
        out.append(utf8.constData(), static_cast<std::size_t>(utf8.size()));
    }
    return plain;
}

/// An optional number as QString::number(v, 'g', 12) writes it; nothing when unset.
void appendNumber(std::string &out, const std::optional<double> &v)
{
    if (v)
        appendNumberG(out, *v, 12);
}

/// One offer's row of the fingerprint (fields separated by U+001F) as UTF-8 in `out` (emptied first);
/// false when a text holds a character at or above U+D800 (its bytes do not sort as the text).
bool fingerprintRowUtf8(const Offer &o, std::string &out)
{
    out.clear();
    bool plain = true;
    auto text = [&](const QString &s) {
        plain = appendUtf8(out, s) && plain;
        out += '\x1f';
    };
    auto number = [&](const std::optional<double> &v) {
        appendNumber(out, v);
        out += '\x1f';
    };
    text(o.provider);
    text(o.instanceType);
    text(o.region);
    text(o.zone);
    text(o.gpuRawName);
    appendNumberG(out, o.gpuCount, 12);
    out += '\x1f';
    number(o.gpuMemGb);
    number(o.vcpus);
    number(o.ramGb);
    number(o.networkGbps);
    text(o.interconnect);
    number(o.onDemandUsdH);
    number(o.spotUsdH);
    text(o.spotLabel);
    text(o.interruption);
    number(o.reliability);
    out += std::to_string(o.billingIncrementS);
    out += '\x1f';
    out += std::to_string(o.billingMinimumS);
    // vast.ai's metrics (schema 4) only where present, so that the fingerprints of the other
    // providers' snapshots stay what they were before and an upgrade does not count as a change.
    if (o.uploadGbps || o.dlperf) {
        out += '\x1f';
        appendNumber(out, o.uploadGbps);
        out += '\x1f';
        appendNumber(out, o.dlperf);
    }
    return plain;
}

/// SHA-256 through libcrypto, which uses the processor's SHA instructions where it has them (several times
/// faster than Qt's SHA-256 in software: the fingerprint of 400,000 offers is ~60 MB), with what is added
/// gathered into large pieces (the rows are short). Qt's SHA-256 when libcrypto cannot start one.
class Sha256
{
public:
    Sha256()
    {
        m_buffer.reserve(kBuffer);
        if (m_ctx && EVP_DigestInit_ex(m_ctx.get(), EVP_sha256(), nullptr) != 1)
            m_ctx.reset();
        if (!m_ctx)
            m_qt = std::make_unique<QCryptographicHash>(QCryptographicHash::Sha256);
    }
    void addData(QByteArrayView bytes)
    {
        if (m_buffer.size() + static_cast<std::size_t>(bytes.size()) > kBuffer)
            drain();
        if (static_cast<std::size_t>(bytes.size()) >= kBuffer)
            update(bytes);
        else
            m_buffer.append(bytes.data(), static_cast<std::size_t>(bytes.size()));
    }
    QByteArray result()
    {
        drain();
        if (m_qt)
            return m_qt->result();
        QByteArray digest(EVP_MAX_MD_SIZE, Qt::Uninitialized);
        unsigned int size = 0;
        if (EVP_DigestFinal_ex(m_ctx.get(), reinterpret_cast<unsigned char *>(digest.data()), &size) != 1)
            return {};
        digest.resize(static_cast<qsizetype>(size));
        return digest;
    }

private:
    static constexpr std::size_t kBuffer = 1 << 16;
    struct CtxFree
    {
        void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); }
    };
    void drain()
    {
        update(QByteArrayView(m_buffer.data(), static_cast<qsizetype>(m_buffer.size())));
        m_buffer.clear();
    }
    void update(QByteArrayView bytes)
    {
        if (bytes.isEmpty())
            return;
        if (m_qt)
            m_qt->addData(bytes);
        else // SHA-256 in memory does not fail once started
            (void)EVP_DigestUpdate(m_ctx.get(), bytes.data(), static_cast<std::size_t>(bytes.size()));
    }

    std::unique_ptr<EVP_MD_CTX, CtxFree> m_ctx{EVP_MD_CTX_new()};
    std::unique_ptr<QCryptographicHash> m_qt;
    std::string m_buffer;
};

/// One offer's row of the fingerprint as text.
QString fingerprintRow(const Offer &o)
{
    std::string row;
    fingerprintRowUtf8(o, row);
    return QString::fromUtf8(row.data(), static_cast<qsizetype>(row.size()));
}

/// The fingerprint's rows (one per offer), sorted.
QStringList fingerprintRows(const SnapshotData &data)
{
    QStringList rows;
    rows.reserve(data.offers.size());
    for (const Offer &o : data.offers)
        rows.append(fingerprintRow(o));
    std::sort(rows.begin(), rows.end());
    return rows;
}

QString fingerprintHead(const SnapshotData &data)
{
    return QStringLiteral("gpufrontier-offers-v1\n") + data.provider + u'\n';
}

} // namespace

QByteArray snapshotFingerprint(const SnapshotData &data)
{
    return (fingerprintHead(data) + fingerprintRows(data).join(u'\n')).toUtf8();
}

QByteArray snapshotFingerprintSha256(const SnapshotData &data)
{
    // Hashed row by row: the same digest as hashing snapshotFingerprint, without the joined copies.
    Sha256 hash;
    hash.addData(fingerprintHead(data).toUtf8());
    const QStringList rows = fingerprintRows(data);
    for (qsizetype i = 0; i < rows.size(); ++i) {
        if (i > 0)
            hash.addData(QByteArrayView("\n"));
        hash.addData(rows.at(i).toUtf8());
    }
    return hash.result();
}

Result<SnapshotData> composeProvider(ProviderParts parts, const ProviderTables &tables,
                                     const QList<Offer> *currentAws)
{
    SnapshotData data;
    const QString &p = parts.provider;
    if (parts.complete) {
        data = std::move(*parts.complete);
    } else if (p == u"aws") {
        data.provider = p;
        if (parts.haveAwsOffers) {
            data.offers = std::move(parts.awsOnDemand);
        } else if (currentAws && (parts.awsSpot || parts.awsAdvisor)) {
            // Spot/advisor files alone update the current snapshot's spot columns.
            for (const Offer &o : *currentAws) {
                Offer c = o;
                c.id = 0;
                c.snapshotId = 0;
                if (parts.awsSpot && c.zone.isEmpty()) {
                    c.spotUsdH.reset();
                    c.spotLabel.clear();
                }
                c.interruption.clear();
                data.offers.append(c);
            }
            parts.descriptions.prepend(QStringLiteral("current AWS offers"));
        } else {
            return makeError(QStringLiteral(
                "AWS: no offer file (price list JSON or CSV) among the inputs, and no current AWS "
                "snapshot to apply spot prices to"));
        }
        if (parts.awsSpot || parts.awsAdvisor) {
            const int withSpot = applyAwsSpot(data.offers, parts.awsSpot ? &*parts.awsSpot : nullptr,
                                              parts.awsAdvisor ? &*parts.awsAdvisor : nullptr);
            if (parts.awsSpot)
                parts.warnings.append(QStringLiteral("%1 of %2 offers have a spot price")
                                          .arg(withSpot)
                                          .arg(data.offers.size()));
        }
    } else if (p == u"azure") {
        data = parts.azureComposer ? parts.azureComposer->compose(parts.azureItems, QString())
                                   : composeAzureOffers(parts.azureItems, tables, QString());
    } else if (p == u"gcp") {
        data = parts.gcpComposer ? parts.gcpComposer->compose(parts.gcpSkus, QString())
                                 : composeGcpOffers(parts.gcpSkus, tables, QString());
    } else {
        return makeError(QStringLiteral("%1: nothing to import").arg(providerDisplayName(p)));
    }
    data.provider = p;
    if (!parts.descriptions.isEmpty())
        data.description = parts.descriptions.join(QStringLiteral(" + "));
    if (parts.dataDate.isValid())
        data.dataDate = parts.dataDate;
    data.warnings = parts.warnings + data.warnings;
    numberRows(data);
    return data;
}

bool streamsAsCatalog(const QStringList &paths)
{
    if (paths.size() != 1)
        return false;
    QFile f(paths.first());
    if (!f.open(QIODevice::ReadOnly))
        return false;
    const ProviderFormat format = detectProviderFormat(f.peek(64 * 1024));
    return format == ProviderFormat::GpuFrontierCsv || format == ProviderFormat::VastOffers ||
           format == ProviderFormat::SkypilotCsv;
}

namespace {

/// Passes the offers on once the catalog's provider is known to be the one imported.
class ProviderCheckingSink final : public OfferSink
{
public:
    ProviderCheckingSink(OfferSink &next, QString provider, QString name)
        : m_next(next), m_provider(std::move(provider)), m_name(std::move(name))
    {
    }
    Status begin(const SnapshotData &head) override
    {
        if (head.provider != m_provider)
            return providerMismatch(m_provider, m_name, head.provider);
        return m_next.begin(head);
    }
    Status add(Offer &&offer) override { return m_next.add(std::move(offer)); }

private:
    OfferSink &m_next;
    QString m_provider;
    QString m_name;
};

} // namespace

Status CatalogHeadSink::begin(const SnapshotData &head)
{
    SnapshotData h = head;
    h.description = m_description;
    h.dataDate = m_dataDate;
    return m_next.begin(h);
}

Status CatalogHeadSink::add(Offer &&offer)
{
    ++m_offers;
    return m_next.add(std::move(offer));
}

Status FingerprintingSink::begin(const SnapshotData &head)
{
    m_provider = head.provider;
    return m_next.begin(head);
}

Status FingerprintingSink::add(Offer &&offer)
{
    const bool plain = fingerprintRowUtf8(offer, m_row);
    // The rows' bytes go into blocks of 1 MiB, one after the other: no allocation per row.
    if (m_blockUsed + m_row.size() > m_blockSize) {
        m_blockSize = std::max<std::size_t>(std::size_t(1) << 20, m_row.size());
        m_blocks.push_back(std::make_unique<char[]>(m_blockSize));
        m_blockUsed = 0;
    }
    char *at = m_blocks.back().get() + m_blockUsed;
    std::copy(m_row.cbegin(), m_row.cend(), at);
    m_blockUsed += m_row.size();
    m_rows.push_back({std::string_view(at, m_row.size()), plain});
    return m_next.add(std::move(offer));
}

QByteArray FingerprintingSink::sha256(const QString &provider)
{
    // UTF-8 bytes sort as UTF-16 code units below U+D800; a row with anything above is compared as text.
    auto text = [](std::string_view s) {
        return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
    };
    std::sort(m_rows.begin(), m_rows.end(), [&](const Row &a, const Row &b) {
        if (a.plain && b.plain)
            return a.text < b.text;
        return text(a.text) < text(b.text);
    });
    SnapshotData head;
    head.provider = m_provider.isEmpty() ? provider : m_provider;
    Sha256 hash;
    hash.addData(fingerprintHead(head).toUtf8());
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (i > 0)
            hash.addData(QByteArrayView("\n"));
        hash.addData(QByteArrayView(m_rows[i].text.data(), static_cast<qsizetype>(m_rows[i].text.size())));
    }
    return hash.result();
}

/// A vast.ai answer file streamed into `sink` (VastAnswerReader: read twice, one offer held at a time),
/// with the rules and messages of readProviderFiles + parseVastOffers; `*sha256` is its fingerprint.
Result<SnapshotData> streamVastFile(const QString &provider, const QString &path, QFile &f, OfferSink &sink,
                                    const InputLimits &limits, QByteArray *sha256)
{
    const QString who = providerDisplayName(provider);
    const QString name = QFileInfo(path).fileName();
    if (provider != providerOfFormat(ProviderFormat::VastOffers))
        return makeError(QStringLiteral("%1: %2 looks like %3, which belongs to %4, not %1")
                             .arg(who, name, withArticle(providerFormatName(ProviderFormat::VastOffers)),
                                  providerDisplayName(providerOfFormat(ProviderFormat::VastOffers))));
    if (limits.maxFileBytes > 0 && f.size() > limits.maxFileBytes)
        return tooLarge(who, name, limits, ProviderFormat::VastOffers);
    const QString origin = QStringLiteral("%1 (%2)").arg(name, who);
    const QDate mtime = QFileInfo(path).lastModified().toUTC().date();
    // The second pass reads and parses on a thread of its own while this one imports (the database
    // connection's thread): the pipe carries the offers over in order.
    OfferPipe pipe(sink);
    FingerprintingSink fingerprint(pipe);
    VastAnswerReader reader(origin, QStringLiteral(" (") + name + u')', mtime, fingerprint);
    // The JSON error as the whole-document parser words it (the file is within the size limit).
    auto jsonError = [&](const JsonStreamParser &parser) -> Error {
        if (f.seek(0)) {
            auto doc = parseJsonDocument(f.readAll(), origin);
            if (!doc)
                return doc.error();
        }
        return makeError(QStringLiteral("%1: invalid JSON: %2").arg(origin, parser.errorString()));
    };
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    {
        // First pass: valid UTF-8 (checked first, as before), the answer's form and timestamp.
        Utf8Validator utf8;
        JsonStreamParser parser(reader.scan());
        bool jsonOk = true;
        qint64 total = 0;
        while (true) {
            const qint64 n = f.read(buffer.data(), buffer.size());
            if (n < 0)
                return makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
            if (n == 0)
                break;
            total += n;
            if (limits.maxFileBytes > 0 && total > limits.maxFileBytes)
                return tooLarge(who, name, limits, ProviderFormat::VastOffers);
            if (!utf8.feed(buffer.constData(), static_cast<std::size_t>(n)))
                break;
            if (jsonOk)
                jsonOk = parser.feed(buffer.constData(), static_cast<std::size_t>(n));
        }
        if (!utf8.finish())
            return makeError(QStringLiteral("%1: %2 is not valid UTF-8 (at byte %3)")
                                 .arg(who, name, QString::number(utf8.errorOffset())));
        if (!jsonOk || !parser.finish())
            return jsonError(parser);
        if (auto st = reader.scanned(); !st)
            return st.error();
    }
    if (!f.seek(0))
        return makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
    JsonStreamParser parser(reader.offers());
    std::optional<Error> readError;
    auto readRest = [&] {
        while (true) {
            const qint64 n = f.read(buffer.data(), buffer.size());
            if (n < 0) {
                readError =
                    makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
                break;
            }
            if (n == 0 || !parser.feed(buffer.constData(), static_cast<std::size_t>(n)))
                break;
        }
        pipe.close();
    };
    std::thread producer;
    try {
        producer = std::thread(readRest);
    } catch (const std::system_error &) { // no thread to be had: read on this one, straight into the sink
    }
    if (producer.joinable()) {
        pipe.consume();
        producer.join();
        pipe.direct();
    } else {
        pipe.direct();
        readRest();
    }
    // The import's error comes first: it stopped the reading at that offer when both ran on one thread.
    if (auto failed = pipe.error())
        return *failed;
    if (readError)
        return *readError;
    if (reader.error())
        return *reader.error();
    if (parser.failed() || !parser.finish())
        return jsonError(parser);
    auto meta = reader.finish();
    if (!meta)
        return meta.error();
    if (sha256)
        *sha256 = fingerprint.sha256(provider);
    return meta;
}

/// A SkyPilot catalog file streamed into `sink` (parseSkypilotCsv, read twice), with the rules and messages
/// of readProviderFiles + composeProvider: dated by the file's time; `*sha256` is its fingerprint.
Result<SnapshotData> streamSkypilotFile(const QString &provider, const QString &path, QFile &f,
                                        OfferSink &sink, const InputLimits &limits, QByteArray *sha256,
                                        const ProviderTables &tables)
{
    const QString who = providerDisplayName(provider);
    const QString name = QFileInfo(path).fileName();
    if (limits.maxFileBytes > 0 && f.size() > limits.maxFileBytes)
        return tooLarge(who, name, limits, ProviderFormat::SkypilotCsv);
    const QString origin = QStringLiteral("%1 (%2)").arg(name, who);
    const QDate mtime = QFileInfo(path).lastModified().toUTC().date();
    FingerprintingSink fingerprint(sink);
    // The parser's head with the file's date (the download date is the best estimate of the price date).
    CatalogHeadSink dated(fingerprint,
                          QStringLiteral("SkyPilot catalog %1 (%2 vms.csv)").arg(origin, provider), mtime);
    auto meta = parseSkypilotCsv(f, provider, tables, origin, limits, dated);
    if (!meta)
        return meta.error();
    SnapshotData head = std::move(meta).value();
    head.dataDate = mtime;
    if (sha256)
        *sha256 = fingerprint.sha256(provider);
    return head;
}

Result<SnapshotData> streamCatalogFile(const QString &provider, const QString &path, OfferSink &sink,
                                       const InputLimits &limits, QByteArray *fileSha256,
                                       const ProviderTables &tables)
{
    if (!knownProviders().contains(provider))
        return unknownProvider(provider);
    {
        QFile f(path);
        if (f.open(QIODevice::ReadOnly)) {
            const ProviderFormat format = detectProviderFormat(f.peek(64 * 1024));
            if (format == ProviderFormat::VastOffers)
                return streamVastFile(provider, path, f, sink, limits, fileSha256);
            if (format == ProviderFormat::SkypilotCsv)
                return streamSkypilotFile(provider, path, f, sink, limits, fileSha256, tables);
        }
    }
    if (!knownProviders().contains(provider))
        return unknownProvider(provider);
    const QString who = providerDisplayName(provider);
    const QString name = QFileInfo(path).fileName();
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
    if (limits.maxFileBytes > 0 && f.size() > limits.maxFileBytes)
        return tooLarge(who, name, limits, ProviderFormat::GpuFrontierCsv);
    HashingReader hashed(f);
    ProviderCheckingSink checked(sink, provider, name);
    auto r = parseSnapshotCsv(hashed, QStringLiteral("%1 (%2)").arg(name, who), limits, checked);
    if (!r)
        return r.error();
    if (r.value().provider != provider)
        return providerMismatch(provider, name, r.value().provider);
    if (!hashed.drain())
        return makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, hashed.errorString()));
    if (fileSha256)
        *fileSha256 = hashed.result();
    return r;
}

Result<ProviderParts> readProviderFiles(const QString &provider, const QStringList &paths,
                                        const ProviderTables &tables, const PartProgress &progress,
                                        const std::atomic_bool *cancel, const InputLimits &limits)
{
    if (!knownProviders().contains(provider))
        return unknownProvider(provider);
    if (paths.isEmpty())
        return makeError(QStringLiteral("%1: no file to import").arg(providerDisplayName(provider)));
    ProviderParts parts;
    parts.provider = provider;
    const QString who = providerDisplayName(provider);
    qint64 total = 0;
    for (const QString &path : paths)
        total += std::max<qint64>(1, QFileInfo(path).size());
    qint64 done = 0;
    QDate newestMtime;
    for (const QString &path : paths) {
        const QString name = QFileInfo(path).fileName();
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly))
            return makeError(QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
        const QByteArray head = f.peek(64 * 1024);
        const ProviderFormat format = detectProviderFormat(head);
        if (format == ProviderFormat::Unknown)
            return makeError(
                QStringLiteral(
                    "%1: %2 is not in a format GPU Frontier reads for this provider (GPU Frontier CSV, "
                    "SkyPilot vms.csv, or the provider's own price format)")
                    .arg(who, name));
        const QString owner = providerOfFormat(format);
        if (!owner.isEmpty() && owner != provider)
            return makeError(
                QStringLiteral("%1: %2 looks like %3, which belongs to %4, not %1")
                    .arg(who, name, withArticle(providerFormatName(format)), providerDisplayName(owner)));
        const QDate mtime = QFileInfo(path).lastModified().toUTC().date();
        if (!newestMtime.isValid() || mtime > newestMtime)
            newestMtime = mtime;
        auto report = [&](qint64 fileBytes, const QString &what) {
            if (progress)
                progress(static_cast<int>(
                             std::min<qint64>(1000, (done + fileBytes) * 1000 / std::max<qint64>(1, total))),
                         what);
        };
        const QString origin = QStringLiteral("%1 (%2)").arg(name, who);
        if (format == ProviderFormat::AwsOfferJson || format == ProviderFormat::AwsOfferCsv) {
            AwsOfferStream stream(tables, origin);
            stream.begin();
            QByteArray buffer(1 << 20, Qt::Uninitialized);
            qint64 read = 0;
            while (true) {
                if (cancel && cancel->load())
                    return makeError(QStringLiteral("%1: import of %2 cancelled").arg(who, name));
                const qint64 n = f.read(buffer.data(), buffer.size());
                if (n < 0)
                    return makeError(
                        QStringLiteral("%1: cannot read %2: %3").arg(who, path, f.errorString()));
                if (n == 0)
                    break;
                if (!stream.write(buffer.constData(), static_cast<std::size_t>(n)))
                    return makeError(stream.errorString());
                read += n;
                report(read, QStringLiteral("%1: reading %2, %3 of %4 MB")
                                 .arg(who, name, QString::number(read / 1000000),
                                      QString::number(std::max<qint64>(1, f.size() / 1000000))));
            }
            auto r = stream.finish();
            if (!r)
                return r.error();
            parts.haveAwsOffers = true;
            parts.awsOnDemand += r.value().offers;
            parts.warnings += r.value().warnings;
            parts.descriptions.append(QStringLiteral("AWS price list %1 (%2)").arg(r.value().version, name));
            const QDate pub = QDateTime::fromString(r.value().publicationDate, Qt::ISODate).date();
            if (pub.isValid() && (!parts.dataDate.isValid() || pub > parts.dataDate))
                parts.dataDate = pub;
        } else {
            if (limits.maxFileBytes > 0 && f.size() > limits.maxFileBytes)
                return tooLarge(who, name, limits, format);
            const bool csv =
                format == ProviderFormat::GpuFrontierCsv || format == ProviderFormat::SkypilotCsv;
            // The CSV catalogs stream from the file (one field at a time); the JSON pages are read whole,
            // within the file limit (their parsers bound every token).
            const QByteArray data =
                csv ? QByteArray() : f.read(limits.maxFileBytes > 0 ? limits.maxFileBytes + 1 : f.size());
            if (limits.maxFileBytes > 0 && data.size() > limits.maxFileBytes)
                return tooLarge(who, name, limits, format);
            report(csv ? 0 : data.size(), QStringLiteral("%1: reading %2").arg(who, name));
            if (!csv) {
                Utf8Validator utf8;
                if (!utf8.feed(data.constData(), static_cast<std::size_t>(data.size())) || !utf8.finish())
                    return makeError(QStringLiteral("%1: %2 is not valid UTF-8 (at byte %3)")
                                         .arg(who, name, QString::number(utf8.errorOffset())));
            }
            switch (format) {
            case ProviderFormat::GpuFrontierCsv:
            case ProviderFormat::SkypilotCsv: {
                if (parts.complete || paths.size() > 1)
                    return makeError(
                        QStringLiteral("%1: %2 is a whole catalog; import it on its own").arg(who, name));
                // A GPU Frontier CSV is checksummed as it is (as the bundled snapshot is): hashed while it
                // streams, never read a second time.
                HashingReader hashed(f);
                Result<SnapshotData> r = format == ProviderFormat::GpuFrontierCsv
                                             ? parseSnapshotCsv(hashed, origin, limits)
                                             : parseSkypilotCsv(f, provider, tables, origin, limits);
                if (!r)
                    return r.error();
                if (format == ProviderFormat::GpuFrontierCsv) {
                    if (!hashed.drain())
                        return makeError(
                            QStringLiteral("%1: cannot read %2: %3").arg(who, path, hashed.errorString()));
                    parts.fileSha256 = hashed.result();
                }
                if (r.value().provider != provider)
                    return providerMismatch(provider, name, r.value().provider);
                parts.complete = std::move(r).value();
                if (format == ProviderFormat::GpuFrontierCsv)
                    return parts; // the file states its own date and source
                parts.descriptions.append(parts.complete->description);
                break;
            }
            case ProviderFormat::AwsSpotFeed: {
                auto r = parseAwsSpotFeed(data, origin);
                if (!r)
                    return r.error();
                parts.warnings += r.value().warnings;
                parts.awsSpot = std::move(r).value();
                parts.descriptions.append(QStringLiteral("AWS spot feed (%1)").arg(name));
                break;
            }
            case ProviderFormat::AwsSpotAdvisor: {
                auto r = parseAwsSpotAdvisor(data, origin);
                if (!r)
                    return r.error();
                parts.awsAdvisor = std::move(r).value();
                parts.descriptions.append(QStringLiteral("AWS spot advisor (%1)").arg(name));
                break;
            }
            case ProviderFormat::AzureRetail: {
                auto r = parseAzureRetailPage(data, origin);
                if (!r)
                    return r.error();
                // Folded into the composer: the page's items are not kept past this file.
                if (!parts.azureComposer)
                    parts.azureComposer = std::make_shared<AzureOfferComposer>(tables);
                parts.azureComposer->addAll(r.value().items);
                if (parts.descriptions.isEmpty())
                    parts.descriptions.append(QStringLiteral("Azure Retail Prices API pages"));
                break;
            }
            case ProviderFormat::GcpSkus: {
                auto r = parseGcpSkuPage(data, origin);
                if (!r)
                    return r.error();
                if (!parts.gcpComposer)
                    parts.gcpComposer = std::make_shared<GcpOfferComposer>(tables);
                parts.gcpComposer->addAll(r.value().skus);
                if (parts.descriptions.isEmpty())
                    parts.descriptions.append(QStringLiteral("GCP Cloud Billing Catalog SKU pages"));
                break;
            }
            case ProviderFormat::VastOffers: {
                if (parts.complete)
                    return makeError(QStringLiteral("%1: import one vast.ai offer file at a time").arg(who));
                auto r = parseVastOffers(data, origin);
                if (!r)
                    return r.error();
                parts.complete = std::move(r).value();
                parts.descriptions.append(parts.complete->description + QStringLiteral(" (") + name + u')');
                if (parts.complete->dataDate.isValid())
                    parts.dataDate = parts.complete->dataDate;
                break;
            }
            default:
                return makeError(QStringLiteral("%1: %2: %3 cannot be imported here")
                                     .arg(who, name, providerFormatName(format)));
            }
        }
        done += std::max<qint64>(1, QFileInfo(path).size());
    }
    if (!parts.dataDate.isValid())
        parts.dataDate = newestMtime; // the download date is the best estimate of the price date
    return parts;
}

} // namespace gf

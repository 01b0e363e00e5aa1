#include "domain/snapshotchecks.h"

#include "domain/provider.h"
#include "util/printable.h"

#include <QCryptographicHash>
#include <QHash>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace gf {

namespace {

/// The texts of an offer that the cleaning looks at, with the names its warning gives them.
struct CleanedText
{
    QString Offer::*member;
    const char *what;
};
constexpr std::array<CleanedText, 9> kCleanedTexts{{{&Offer::provider, "provider"},
                                                    {&Offer::instanceType, "instance type"},
                                                    {&Offer::region, "region"},
                                                    {&Offer::zone, "zone"},
                                                    {&Offer::gpuRawName, "GPU name"},
                                                    {&Offer::interconnect, "interconnect"},
                                                    {&Offer::spotLabel, "spot label"},
                                                    {&Offer::interruption, "interruption"},
                                                    {&Offer::source, "source"}}};

/// Replaces the unprintable characters of texts, counting them and keeping the first as an example.
struct TextCleaner
{
    qsizetype changed = 0;
    QString first;

    void clean(QString &s, qint64 line, const char *what)
    {
        if (!hasUnprintable(s))
            return;
        s = printableText(s);
        if (changed++ == 0)
            first = line > 0 ? QStringLiteral("line %1, %2 \"%3\"").arg(line).arg(QLatin1StringView(what), s)
                             : QStringLiteral("%1 \"%2\"").arg(QLatin1StringView(what), s);
    }
    /// `prepared` (optional, one per row): a ready row's texts are printable already.
    void offers(QList<Offer> &rows, const std::vector<PreparedRow> *prepared = nullptr)
    {
        for (qsizetype i = 0; i < rows.size(); ++i) {
            if (prepared && (*prepared)[static_cast<std::size_t>(i)].ready)
                continue;
            Offer &o = rows[i];
            for (const CleanedText &t : kCleanedTexts)
                clean(o.*t.member, o.id, t.what);
        }
    }
    /// The description and the warnings, then the warning about what changed.
    void finish(SnapshotData &data)
    {
        clean(data.description, 0, "description");
        for (QString &w : data.warnings)
            clean(w, 0, "warning");
        if (changed > 0)
            data.warnings.append(
                QStringLiteral("%1 texts held control or bidirectional formatting characters, "
                               "replaced by U+FFFD (line breaks and tabs by a space); the "
                               "first: %2")
                    .arg(changed)
                    .arg(first.left(120)));
    }
};

} // namespace

qsizetype normaliseSnapshotText(SnapshotData &data)
{
    TextCleaner cleaner;
    cleaner.offers(data.offers);
    cleaner.finish(data);
    return cleaner.changed;
}

QString providerOfNaming(const QString &instanceType, const QString &region)
{
    static const QRegularExpression awsType(
        QStringLiteral("^[a-z][a-z0-9-]*\\.(\\d*x?large|metal(-\\d+xl)?|nano|micro|small|medium)$"));
    static const QRegularExpression awsRegion(
        QStringLiteral("^(us|eu|ap|sa|ca|me|af|il|mx|cn)(-gov|-iso[a-z]*)?-[a-z]+-\\d+$"));
    static const QRegularExpression azureType(QStringLiteral("^(Standard|Basic)_[A-Za-z0-9_-]+$"));
    static const QRegularExpression gcpType(
        QStringLiteral("^[a-z][a-z0-9]*-(highgpu|megagpu|ultragpu|edgegpu|standard|highmem|highcpu|ultramem|"
                       "megamem)(-\\d+g?)?(-[a-z]+)?$"));
    static const QRegularExpression gcpRegion(
        QStringLiteral("^(us|europe|asia|australia|northamerica|southamerica|me|africa)-[a-z]+\\d+$"));
    static const QRegularExpression vastType(QStringLiteral("^\\d+x-[A-Za-z0-9_]+-\\d+-\\d+$"));
    static const QRegularExpression vastRegion(QStringLiteral(", [A-Z]{2}(, [A-Z]{2})?$"));
    static const QRegularExpression paperspaceRegion(QStringLiteral("^[A-Za-z ]+ \\([A-Z]{2,3}\\d\\)$"));
    // Each pattern is tried only where the text holds what it needs (a dot, a dash, ...): the same answers
    // without a regular expression match per row for most rows.
    auto matches = [](const QRegularExpression &re, const QString &s, bool possible) {
        return possible && re.match(s).hasMatch();
    };
    const bool typeDot = instanceType.contains(u'.');
    const bool typeDash = instanceType.contains(u'-');
    const bool regionDash = region.contains(u'-');
    if (matches(awsType, instanceType, typeDot) || matches(awsRegion, region, regionDash))
        return QStringLiteral("aws");
    if (matches(azureType, instanceType, instanceType.contains(u'_')))
        return QStringLiteral("azure");
    if (matches(gcpType, instanceType, typeDash) || matches(gcpRegion, region, regionDash))
        return QStringLiteral("gcp");
    if (matches(vastType, instanceType, typeDash) || matches(vastRegion, region, region.contains(u',')))
        return QStringLiteral("vastai");
    if (matches(paperspaceRegion, region, region.contains(u'(')))
        return QStringLiteral("paperspace");
    return {};
}

namespace {

/// Clouds read through SkyPilot's catalog share region names with AWS ("us-east-1" at Lambda) and
/// instance-type shapes with vast.ai ("1x-H100-75-722" at Hyperbolic): for them only the distinctive
/// AWS, Azure and Google Cloud instance-type names count.
bool namingByTypesOnly(const QString &provider)
{
    const ProviderInfo *info = providerInfo(provider);
    return info && info->live == LiveSource::SkypilotCatalog;
}

/// The other provider whose naming a row follows; empty when none.
QString foreignOwner(const Offer &o, const QString &provider, bool typesOnly)
{
    QString owner = providerOfNaming(o.instanceType, typesOnly ? QString() : o.region);
    if (typesOnly && owner == u"vastai")
        owner.clear();
    return owner == provider ? QString() : owner;
}

Error namingError(const QString &provider, const QString &origin, int foreign, qint64 rows,
                  const QString &other, const Offer &first)
{
    const QString who = providerDisplayName(provider);
    const QString where =
        origin.contains(u'(' + who + u')') ? origin : origin + QStringLiteral(" (") + who + u')';
    return makeError(QStringLiteral("%1: %3 of %4 rows are named like %5's offers, not %2's (first at "
                                    "line %6: instance type \"%7\", region \"%8\"); this file holds another "
                                    "provider's prices")
                         .arg(where, who, QString::number(foreign), QString::number(rows),
                              providerDisplayName(other), QString::number(first.id),
                              first.instanceType.left(80), first.region.left(80)));
}

} // namespace

Status checkProviderNaming(const SnapshotData &data, const QString &origin)
{
    ProviderNaming naming(data.provider);
    for (const Offer &o : data.offers)
        naming.add(o);
    return naming.finish(origin);
}

ProviderNaming::ProviderNaming(QString provider)
    : m_provider(std::move(provider)), m_typesOnly(namingByTypesOnly(m_provider))
{
}

void ProviderNaming::add(const Offer &row)
{
    ++m_rows;
    const QString owner = foreignOwner(row, m_provider, m_typesOnly);
    if (owner.isEmpty())
        return;
    if (m_foreign == 0) {
        m_other = owner;
        m_firstForeign = row;
    }
    if (owner == m_other)
        ++m_foreign;
}

Status ProviderNaming::finish(const QString &origin) const
{
    if (m_foreign == 0)
        return Ok{};
    return namingError(m_provider, origin, m_foreign, m_rows, m_other, m_firstForeign);
}

namespace {

/// Every field of a row in one buffer (two rows are identical when their keys are): each text with its
/// length, each number as its bits (NaN as one value, -0 as 0), an unset number apart from every set one.
class RowKey
{
public:
    explicit RowKey(const Offer &o)
    {
        for (const QString *t : {&o.provider, &o.instanceType, &o.region, &o.zone, &o.gpuRawName})
            text(*t);
        number(o.gpuCount);
        for (const std::optional<double> *v : {&o.gpuMemGb, &o.vcpus, &o.ramGb, &o.networkGbps})
            number(*v);
        text(o.interconnect);
        number(o.onDemandUsdH);
        number(o.spotUsdH);
        text(o.spotLabel);
        text(o.interruption);
        for (const std::optional<double> *v : {&o.reliability, &o.uploadGbps, &o.dlperf})
            number(*v);
        bytes(&o.billingIncrementS, sizeof o.billingIncrementS);
        bytes(&o.billingMinimumS, sizeof o.billingMinimumS);
        text(o.source);
    }
    QByteArrayView view() const { return {m_bytes.data(), static_cast<qsizetype>(m_bytes.size())}; }

private:
    void bytes(const void *p, std::size_t n)
    {
        const auto *c = static_cast<const char *>(p);
        m_bytes.insert(m_bytes.end(), c, c + n);
    }
    void text(const QString &s)
    {
        const auto n = static_cast<std::uint32_t>(s.size());
        bytes(&n, sizeof n);
        bytes(s.constData(), static_cast<std::size_t>(s.size()) * sizeof(QChar));
    }
    void number(double v)
    {
        if (std::isnan(v)) // the rows' text writes every NaN as "nan" and -0 as "0"
            v = std::numeric_limits<double>::quiet_NaN();
        else if (v == 0)
            v = 0.0;
        bytes(&v, sizeof v);
    }
    void number(const std::optional<double> &v)
    {
        const char set = v ? 1 : 0;
        bytes(&set, 1);
        if (v)
            number(*v);
    }

    std::vector<char> m_bytes;
};

} // namespace

QByteArray rowDigest(const Offer &o)
{
    // BLAKE2b is faster than SHA-256 in Qt's own code; 128 bits keep an accidental match out of reach.
    return QCryptographicHash::hash(RowKey(o).view(), QCryptographicHash::Blake2b_160).first(16);
}

PreparedRow prepareRow(const Offer &o)
{
    PreparedRow p;
    for (const CleanedText &t : kCleanedTexts)
        if (hasUnprintable(o.*t.member))
            return p;
    const QByteArray digest = rowDigest(o);
    std::copy_n(digest.constData(), std::min<std::size_t>(p.digest.size(), std::size_t(digest.size())),
                p.digest.begin());
    p.ready = true;
    return p;
}

Result<bool> SeenRowsInMemory::addRow(QByteArrayView digest)
{
    const qsizetype before = m_rows.size();
    m_rows.insert(digest.toByteArray());
    return m_rows.size() != before;
}

Result<qint64> SeenRowsInMemory::addOfferId(const QString &id, qint64 line)
{
    const auto it = m_ids.constFind(id);
    if (it != m_ids.cend())
        return *it;
    m_ids.insert(id, line);
    return qint64(0);
}

Result<SeenRows::Keyed> SeenRowsInMemory::addKeyedRow(const QString &id, QByteArrayView digest, qint64 line)
{
    Keyed k;
    k.fresh = addRow(digest).value();
    if (k.fresh)
        k.earlier = addOfferId(id, line).value();
    return k;
}

Error tooFewRows(qsizetype rows, const QStringList &warnings, const QString &origin, int minRows)
{
    const QString head = QStringLiteral("%1: only %2 offers, at least %3 expected")
                             .arg(origin, QString::number(rows), QString::number(minRows));
    if (warnings.isEmpty())
        return makeError(head + QStringLiteral(" (truncated or empty download?)"));
    return makeError(head + QStringLiteral(": ") + warnings.join(QStringLiteral("; ")));
}

Error tooFewRows(const SnapshotData &data, const QString &origin, int minRows)
{
    return tooFewRows(data.offers.size(), data.warnings, origin, minRows);
}

namespace {

/// A vast.ai offer id: a number, what ^[0-9]+$ matches (its $ also matches before a last line break).
bool isOfferId(const QString &s)
{
    const qsizetype n = s.endsWith(u'\n') ? s.size() - 1 : s.size();
    return n > 0 && std::all_of(s.cbegin(), s.cbegin() + n, [](QChar c) { return c >= u'0' && c <= u'9'; });
}

/// Removes the rows identical to an earlier one (of this chunk or one before), counting them. `idConflict`
/// given (vast.ai): the offer ids of the kept rows are recorded too, and it gets the first kept row whose
/// id an earlier row holds, with that row's line. `prepared` (optional, one per row as given): the digests
/// of the ready rows (made before, their texts unchanged since).
Status dropRepeats(QList<Offer> &rows, SeenRows &seen, qsizetype &dropped, qint64 &firstLine,
                   std::optional<std::pair<qint64, Offer>> *idConflict = nullptr,
                   const std::vector<PreparedRow> *prepared = nullptr)
{
    qsizetype out = 0;
    QByteArray made;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const Offer &row = rows.at(i);
        const PreparedRow *ready = prepared ? &(*prepared)[static_cast<std::size_t>(i)] : nullptr;
        if (ready && !ready->ready)
            ready = nullptr;
        if (!ready)
            made = rowDigest(row);
        const QByteArrayView digest = ready ? ready->digestView() : QByteArrayView(made);
        Result<bool> fresh = true;
        if (idConflict && isOfferId(row.instanceType)) {
            auto keyed = seen.addKeyedRow(row.instanceType, digest, row.id);
            if (!keyed)
                return keyed.error();
            fresh = keyed.value().fresh;
            if (keyed.value().earlier != 0 && !*idConflict)
                *idConflict = std::pair{keyed.value().earlier, row};
        } else {
            fresh = seen.addRow(digest);
        }
        if (!fresh)
            return fresh.error();
        if (!fresh.value()) {
            if (dropped++ == 0)
                firstLine = rows.at(i).id;
            continue;
        }
        if (out != i)
            rows[out] = std::move(rows[i]);
        ++out;
    }
    rows.resize(out);
    return Ok{};
}

QString droppedWarning(qsizetype dropped, qint64 firstLine)
{
    return QStringLiteral("%1 rows identical to an earlier row were imported once (the first at line %2)")
        .arg(dropped)
        .arg(firstLine);
}

Error offerIdError(const QString &provider, const QString &origin, const Offer &o, qint64 earlier)
{
    return makeError(QStringLiteral("%1 (%2): offer id %3 names two different offers (rows %4 and %5); an "
                                    "offer id must be unique")
                         .arg(origin, providerDisplayName(provider), o.instanceType, QString::number(earlier),
                              QString::number(o.id)));
}

Status checkOfferIds(const QString &provider, const QList<Offer> &rows, const QString &origin, SeenRows &seen)
{
    if (provider != u"vastai")
        return Ok{};
    for (const Offer &o : rows) {
        if (!isOfferId(o.instanceType))
            continue;
        auto earlier = seen.addOfferId(o.instanceType, o.id);
        if (!earlier)
            return earlier.error();
        if (earlier.value() != 0)
            return offerIdError(provider, origin, o, earlier.value());
    }
    return Ok{};
}

} // namespace

qsizetype dropIdenticalRows(SnapshotData &data)
{
    SeenRowsInMemory seen;
    qsizetype dropped = 0;
    qint64 firstLine = 0;
    (void)dropRepeats(data.offers, seen, dropped, firstLine); // in memory: cannot fail
    if (dropped > 0)
        data.warnings.append(droppedWarning(dropped, firstLine));
    return dropped;
}

Status checkUniqueOfferIds(const SnapshotData &data, const QString &origin)
{
    SeenRowsInMemory seen;
    return checkOfferIds(data.provider, data.offers, origin, seen);
}

Status checkMinimumPrices(const SnapshotData &data, const QString &origin)
{
    for (const Offer &o : data.offers) {
        for (const auto &[price, name] : {std::pair{o.onDemandUsdH, QStringLiteral("on-demand price")},
                                          std::pair{o.spotUsdH, QStringLiteral("spot price")}}) {
            if (price && *price > 0 && *price < kMinPlausibleUsdPerHour)
                return makeError(QStringLiteral("%1 (%2): row at line %3, %4: %5 %6 USD/h is not plausible "
                                                "(expected at least %7)")
                                     .arg(origin, providerDisplayName(data.provider), QString::number(o.id),
                                          o.instanceType.left(80), name, QString::number(*price),
                                          QString::number(kMinPlausibleUsdPerHour)));
        }
    }
    return Ok{};
}

SnapshotChunkChecks::SnapshotChunkChecks(QString provider, QString origin, SeenRows &seen)
    : m_provider(std::move(provider)), m_origin(std::move(origin)), m_seen(seen), m_naming(m_provider)
{
}

Status SnapshotChunkChecks::add(QList<Offer> &rows, const std::vector<PreparedRow> *prepared)
{
    if (prepared && prepared->size() != static_cast<std::size_t>(rows.size()))
        prepared = nullptr; // not this chunk's: everything is worked out here
    TextCleaner cleaner{m_changed, m_firstChanged};
    cleaner.offers(rows, prepared);
    m_changed = cleaner.changed;
    m_firstChanged = cleaner.first;
    // vast.ai: the rows and their offer ids in one look-up each; an id held by another row is refused after
    // the naming check, as checkOfferIds over the kept rows would.
    const bool ids = m_provider == u"vastai";
    m_idConflict.reset();
    if (auto st =
            dropRepeats(rows, m_seen, m_dropped, m_firstDropped, ids ? &m_idConflict : nullptr, prepared);
        !st)
        return st;
    m_kept += rows.size();
    for (const Offer &o : std::as_const(rows))
        m_naming.add(o);
    if (m_naming.foreignFound()) { // refused in finish(): the rest is only counted
        rows.clear();
        return Ok{};
    }
    if (m_idConflict)
        return offerIdError(m_provider, m_origin, m_idConflict->second, m_idConflict->first);
    SnapshotData chunk;
    chunk.provider = m_provider;
    chunk.offers.swap(rows);
    const Status st = checkMinimumPrices(chunk, m_origin);
    rows.swap(chunk.offers);
    return st;
}

Status SnapshotChunkChecks::finish(SnapshotData &meta)
{
    TextCleaner cleaner{m_changed, m_firstChanged};
    cleaner.finish(meta);
    if (m_dropped > 0)
        meta.warnings.append(droppedWarning(m_dropped, m_firstDropped));
    return m_naming.finish(m_origin);
}

} // namespace gf

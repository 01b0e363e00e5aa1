#include "providers/vastai.h"

#include "util/jsondocument.h"
#include "util/printable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimeZone>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <limits>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gf {

namespace {

double round2(double v)
{
    return std::round(v * 100) / 100;
}

/// An offer that is not an object: skipped and counted.
void vastMalformedElement(VastOfferPage &page, qsizetype i)
{
    if (page.malformed++ == 0)
        page.firstMalformed = QStringLiteral("offers[%1] is not an object").arg(i);
}

/// The offer fields that vastOffer() reads (kVastFieldNames: their keys).
enum class VastField : std::uint8_t
{
    Id,
    NumGpus,
    GpuRam,
    CpuCores,
    CpuCoresEffective,
    CpuRam,
    InetDown,
    InetUp,
    DphTotal,
    MinBid,
    Dlperf,
    EndDate,
    Duration,
    GpuFrac,
    Reliability2,
    Reliability,
    GpuName,
    Rentable,
    Rented,
    Search,
    Geolocation,
    MachineId,
    Verification,
    Count
};

constexpr std::string_view kVastFieldNames[] = {
    "id",          "num_gpus",   "gpu_ram",     "cpu_cores", "cpu_cores_effective",
    "cpu_ram",     "inet_down",  "inet_up",     "dph_total", "min_bid",
    "dlperf",      "end_date",   "duration",    "gpu_frac",  "reliability2",
    "reliability", "gpu_name",   "rentable",    "rented",    "search",
    "geolocation", "machine_id", "verification"};
static_assert(std::size(kVastFieldNames) == static_cast<std::size_t>(VastField::Count));

/// The field named `k`, or VastField::Count when vastOffer() does not read it.
VastField vastField(std::string_view k)
{
    for (std::size_t i = 0; i < std::size(kVastFieldNames); ++i)
        if (kVastFieldNames[i].size() == k.size() && kVastFieldNames[i] == k)
            return static_cast<VastField>(i);
    return VastField::Count;
}

/// A parsed offer object as vastOffer() reads it.
class JsonOfferFields
{
public:
    explicit JsonOfferFields(const QJsonObject &o) : m_o(o) {}
    QJsonValue value(VastField f) const
    {
        const std::string_view name = kVastFieldNames[static_cast<std::size_t>(f)];
        return m_o.value(QLatin1String(name.data(), static_cast<qsizetype>(name.size())));
    }
    /// search.totalHour (undefined when search is not an object).
    QJsonValue searchTotalHour() const
    {
        return value(VastField::Search).toObject().value(QStringLiteral("totalHour"));
    }

private:
    const QJsonObject &m_o;
};

/// One offer of an answer (`i` its index): the usable offer, or nothing with the reason counted in `page`.
/// `dataDate` unset: the first usable offer that states end_date and duration dates the answer. `Fields`
/// gives the offer's fields as QJsonValue does (JsonOfferFields, or the stream reader's StreamOfferFields).
template <class Fields>
std::optional<Offer> vastOffer(const Fields &o, qsizetype i, VastOfferPage &page, QDate &dataDate)
{
    // One malformed offer is skipped and counted; the first one's fault is reported.
    auto malformed = [&](const QString &what) {
        if (page.malformed++ == 0)
            page.firstMalformed = QStringLiteral("offers[%1]%2").arg(i).arg(what);
    };
    // Numbers must be numbers when present: a string here means a changed or broken API.
    auto num = [&](VastField name, std::optional<double> *v) -> bool {
        const auto &x = o.value(name);
        if (x.isUndefined() || x.isNull())
            return true;
        if (!x.isDouble() || !std::isfinite(x.toDouble()))
            return false;
        *v = x.toDouble();
        return true;
    };
    std::optional<double> id, numGpus, gpuRam, cpuCores, cpuCoresEffective, gpuFrac, cpuRam, inetDown, inetUp,
        dph, minBid, reliability, dlperf, totalHour, endDate, duration;
    std::optional<VastField> bad;
    using F = VastField;
    for (const auto &[name, slot] :
         {std::pair{F::Id, &id}, std::pair{F::NumGpus, &numGpus}, std::pair{F::GpuRam, &gpuRam},
          std::pair{F::CpuCores, &cpuCores}, std::pair{F::CpuCoresEffective, &cpuCoresEffective},
          std::pair{F::CpuRam, &cpuRam}, std::pair{F::InetDown, &inetDown}, std::pair{F::InetUp, &inetUp},
          std::pair{F::DphTotal, &dph}, std::pair{F::MinBid, &minBid}, std::pair{F::Dlperf, &dlperf}}) {
        if (!num(name, slot)) {
            bad = name;
            break;
        }
    }
    // Listing dates and the GPU share: informative only, so a non-number is ignored rather than rejected.
    if (!num(F::EndDate, &endDate))
        endDate.reset();
    if (!num(F::Duration, &duration))
        duration.reset();
    if (!num(F::GpuFrac, &gpuFrac))
        gpuFrac.reset();
    if (!bad && !num(F::Reliability2, &reliability))
        bad = F::Reliability2;
    if (!bad && !reliability && !num(F::Reliability, &reliability))
        bad = F::Reliability;
    if (bad) {
        const std::string_view name = kVastFieldNames[static_cast<std::size_t>(*bad)];
        malformed(QStringLiteral(".%1 is not a number")
                      .arg(QLatin1String(name.data(), static_cast<qsizetype>(name.size()))));
        return std::nullopt;
    }
    const auto &gpuName = o.value(F::GpuName);
    if (!gpuName.isString() || gpuName.toString().trimmed().isEmpty()) {
        malformed(gpuName.isUndefined() || gpuName.isNull() ? QStringLiteral(" has no gpu_name")
                  : gpuName.isString()                      ? QStringLiteral(".gpu_name is empty")
                                                            : QStringLiteral(".gpu_name is not a string"));
        return std::nullopt;
    }
    if (!id) {
        malformed(QStringLiteral(" has no id"));
        return std::nullopt;
    }
    if (std::abs(*id) > 9007199254740992.0 || *id != std::floor(*id)) { // 2^53: ids are integers
        malformed(QStringLiteral(".id is not an integer"));
        return std::nullopt;
    }
    const auto &rentable = o.value(F::Rentable);
    const auto &rented = o.value(F::Rented);
    if ((rentable.isBool() && !rentable.toBool()) || (rented.isBool() && rented.toBool())) {
        ++page.notRentable;
        return std::nullopt;
    }
    if (!dph && o.value(F::Search).isObject()) {
        const auto &t = o.searchTotalHour();
        if (t.isDouble())
            totalHour = t.toDouble();
    }
    const std::optional<double> price = dph ? dph : totalHour;
    if (!price || !(*price > 0)) {
        ++page.noPrice;
        return std::nullopt;
    }
    if (!page.maxPrice || *price > *page.maxPrice)
        page.maxPrice = price;
    Offer x;
    x.provider = QStringLiteral("vastai");
    x.instanceType = QString::number(static_cast<qint64>(*id));
    x.region = o.value(F::Geolocation).toString().trimmed();
    if (x.region.isEmpty())
        x.region = QStringLiteral("(location not given)");
    x.gpuRawName = gpuName.toString();
    x.gpuCount = numGpus.value_or(0);
    if (gpuRam)
        x.gpuMemGb = round2(*gpuRam / 1024.0);
    // An offer may rent part of a machine: cpu_cores_effective is the offer's share of the host's
    // cpu_cores (vast.ai gives it in proportion to the GPUs rented, gpu_frac), and the offer gets the
    // same share of the host's RAM (cpu_ram is the whole machine's).
    std::optional<double> share;
    if (cpuCoresEffective && *cpuCoresEffective > 0) {
        x.vcpus = cpuCoresEffective;
        if (cpuCores && *cpuCores > 0)
            share = std::min(1.0, *cpuCoresEffective / *cpuCores);
    } else if (cpuCores && *cpuCores > 0 && gpuFrac && *gpuFrac > 0 && *gpuFrac <= 1) {
        x.vcpus = std::round(*cpuCores * *gpuFrac * 10) / 10;
        share = *gpuFrac;
    }
    if (cpuRam && *cpuRam > 0)
        x.ramGb = std::round(*cpuRam * share.value_or(1.0) / 1000.0 * 10) / 10;
    if (inetDown)
        x.networkGbps = round2(*inetDown / 1000.0);
    x.onDemandUsdH = price;
    if (minBid && *minBid > 0) {
        x.spotUsdH = minBid;
        x.spotLabel = QStringLiteral("interruptible");
    }
    x.reliability = reliability;
    if (inetUp && *inetUp >= 0)
        x.uploadGbps = round2(*inetUp / 1000.0); // Mb/s -> Gbit/s
    if (dlperf && *dlperf >= 0)
        x.dlperf = std::round(*dlperf * 100) / 100;
    x.billingIncrementS = 1;
    x.billingMinimumS = 0;
    // The listing's end (epoch seconds): an offer whose listing ended is flagged stale.
    if (endDate && *endDate > 0 && *endDate < 253402300800.0)
        x.listingEnd = QDateTime::fromSecsSinceEpoch(static_cast<qint64>(*endDate), QTimeZone::utc()).date();
    // Without a capture timestamp, the CLI's end_date - duration (duration = end_date - now) dates it.
    if (!dataDate.isValid() && endDate && duration && *endDate > *duration && *endDate < 253402300800.0)
        dataDate =
            QDateTime::fromSecsSinceEpoch(static_cast<qint64>(*endDate - *duration), QTimeZone::utc()).date();
    // "vast.ai offer ID, machine M, S of C host vCPUs, verified": the parts that are known.
    x.source = QStringLiteral("vast.ai offer ") + x.instanceType;
    if (const auto &m = o.value(F::MachineId); m.isDouble() && std::abs(m.toDouble()) < 9007199254740992.0)
        x.source += QStringLiteral(", machine ") + QString::number(m.toDouble(), 'f', 0);
    if (share && *share < 1.0 && cpuCores)
        x.source += QStringLiteral(", ") + QStringLiteral("%1 of %2 host vCPUs").arg(*x.vcpus).arg(*cpuCores);
    const QString verification = o.value(F::Verification).toString();
    if (!verification.isEmpty())
        x.source += QStringLiteral(", ") + verification;
    return x;
}

} // namespace

QByteArray vastSearchQuery(int limit, std::optional<double> minPrice)
{
    QJsonObject q;
    q.insert(QStringLiteral("rentable"), QJsonObject{{QStringLiteral("eq"), true}});
    q.insert(QStringLiteral("rented"), QJsonObject{{QStringLiteral("eq"), false}});
    q.insert(QStringLiteral("type"), QStringLiteral("on-demand"));
    // Cheapest first: an answer cut short keeps the offers that matter most, and its last price is the
    // cursor of the next page (provider-sources.md).
    q.insert(QStringLiteral("order"),
             QJsonArray{QJsonArray{QStringLiteral("dph_total"), QStringLiteral("asc")}});
    if (minPrice)
        q.insert(QStringLiteral("dph_total"), QJsonObject{{QStringLiteral("gte"), *minPrice}});
    q.insert(QStringLiteral("allocated_storage"), 10.0);
    q.insert(QStringLiteral("limit"), limit);
    return QJsonDocument(q).toJson(QJsonDocument::Compact);
}

Result<VastOfferPage> parseVastOfferPage(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonDocument doc = std::move(parsed).value();
    QJsonArray offers;
    QString timestamp;
    if (doc.isArray()) {
        offers = doc.array();
    } else if (doc.isObject() && doc.object().value(QStringLiteral("offers")).isArray()) {
        offers = doc.object().value(QStringLiteral("offers")).toArray();
        timestamp = doc.object().value(QStringLiteral("timestamp")).toString();
    } else {
        return makeError(QStringLiteral("%1: not a vast.ai offer list (no \"offers\" array)").arg(origin));
    }
    VastOfferPage page;
    page.answered = static_cast<int>(offers.size());
    SnapshotData &out = page.data;
    out.provider = QStringLiteral("vastai");
    out.description = QStringLiteral("vast.ai offer search") +
                      (timestamp.isEmpty() ? QString() : QStringLiteral(" at ") + timestamp);
    out.dataDate = QDateTime::fromString(timestamp, Qt::ISODate).date();
    for (qsizetype i = 0; i < offers.size(); ++i) {
        if (!offers.at(i).isObject()) {
            vastMalformedElement(page, i);
            continue;
        }
        const QJsonObject o = offers.at(i).toObject();
        if (auto x = vastOffer(JsonOfferFields(o), i, page, out.dataDate))
            out.offers.append(std::move(*x));
    }
    // Every offer malformed: not one bad offer but a changed API; importing nothing would hide it.
    if (page.answered > 0 && page.malformed == page.answered)
        return makeError(QStringLiteral("%1: every one of the %2 offers is malformed (first: %3): the "
                                        "vast.ai offer format has changed")
                             .arg(origin, QString::number(page.answered), page.firstMalformed));
    return page;
}

QStringList vastPageWarnings(const VastOfferPage &page)
{
    QStringList w;
    if (page.malformed)
        w.append(QStringLiteral("%1 malformed offers skipped (first: %2)")
                     .arg(page.malformed)
                     .arg(page.firstMalformed));
    if (page.notRentable)
        w.append(QStringLiteral("%1 offers not rentable or already rented skipped").arg(page.notRentable));
    if (page.noPrice)
        w.append(QStringLiteral("%1 offers without an hourly price skipped").arg(page.noPrice));
    return w;
}

Result<SnapshotData> parseVastOffers(QByteArrayView data, const QString &origin)
{
    auto page = parseVastOfferPage(data, origin);
    if (!page)
        return page.error();
    VastOfferPage p = std::move(page).value();
    p.data.warnings = vastPageWarnings(p);
    if (p.answered == kVastDefaultLimit)
        p.data.warnings.append(
            QStringLiteral("the answer holds exactly %1 offers, vast.ai's default limit: it is probably cut "
                           "short (the live refresh pages by price)")
                .arg(kVastDefaultLimit));
    return std::move(p.data);
}

} // namespace gf

namespace gf {

/// The first pass: the answer's form and its capture timestamp; the offers are skipped.
class VastAnswerReader::Scan final : public JsonHandler
{
public:
    Action startObject() override { return open(false); }
    Action startArray() override { return open(true); }
    Action endObject() override { return close(); }
    Action endArray() override { return close(); }
    Action key(std::string_view k) override
    {
        m_key = k == "offers" ? Key::Offers : k == "timestamp" ? Key::Timestamp : Key::Other;
        if (m_key == Key::Offers)
            ++offersKeys;
        if (m_key == Key::Other)
            return Action::SkipValue;
        return Action::Continue;
    }
    Action string(std::string_view s) override
    {
        if (m_depth == 0)
            m_form = Form::Other;
        else if (m_key == Key::Timestamp)
            timestamp = QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
        else if (m_key == Key::Offers)
            m_offersArray = false;
        return Action::Continue;
    }
    Action number(std::string_view) override { return scalar(); }
    Action boolean(bool) override { return scalar(); }
    Action null() override { return scalar(); }

    bool offerList() const { return m_form == Form::List || (m_form == Form::Object && m_offersArray); }
    bool isObject() const { return m_form == Form::Object; }
    QString timestamp;
    int offersKeys = 0; ///< how many "offers" keys the answer object has (the last one counts)

private:
    enum class Form : std::uint8_t
    {
        None,
        List,
        Object,
        Other
    };
    enum class Key : std::uint8_t
    {
        Offers,
        Timestamp,
        Other
    };
    Action open(bool array)
    {
        if (m_depth == 0) {
            m_form = array ? Form::List : Form::Object;
            if (array)
                return Action::SkipValue; // a bare offer list: nothing else to find
            ++m_depth;
            return Action::Continue;
        }
        // A value of "offers" or "timestamp" (the object's other keys were skipped).
        if (m_key == Key::Offers)
            m_offersArray = array; // the last "offers" counts, as in QJsonDocument
        else if (m_key == Key::Timestamp)
            timestamp.clear();
        return Action::SkipValue;
    }
    Action close()
    {
        --m_depth;
        return Action::Continue;
    }
    Action scalar()
    {
        if (m_depth == 0)
            m_form = Form::Other;
        else if (m_key == Key::Offers)
            m_offersArray = false;
        else if (m_key == Key::Timestamp)
            timestamp.clear();
        return Action::Continue;
    }

    int m_depth = 0;
    Form m_form = Form::None;
    Key m_key = Key::Other;
    bool m_offersArray = false;
};

/// One field of an offer read by the stream reader, with the part of QJsonValue's interface that
/// vastOffer() uses (a string is kept as UTF-8 until it is asked for).
class StreamValue
{
public:
    enum class Type : std::uint8_t
    {
        Undefined,
        Null,
        Bool,
        Double,
        String,
        Object,
        Array
    };
    bool isUndefined() const { return m_type == Type::Undefined; }
    bool isNull() const { return m_type == Type::Null; }
    bool isBool() const { return m_type == Type::Bool; }
    bool isDouble() const { return m_type == Type::Double; }
    bool isString() const { return m_type == Type::String; }
    bool isObject() const { return m_type == Type::Object; }
    bool toBool() const { return m_type == Type::Bool && m_bool; }
    double toDouble() const { return m_type == Type::Double ? m_double : 0.0; }
    QString toString() const
    {
        if (m_type != Type::String)
            return QString();
        // The texts of a field repeat from offer to offer (GPU names, places, "verified"): the last few are
        // kept, so that a repeated one is shared rather than converted and allocated again.
        for (const auto &[utf8, text] : m_recent)
            if (utf8 == m_text)
                return text;
        QString text = QString::fromUtf8(m_text.data(), static_cast<qsizetype>(m_text.size()));
        if (m_text.size() <= 64) {
            if (m_recent.size() < 16)
                m_recent.emplace_back(m_text, text);
            else
                m_recent[m_nextRecent++ % m_recent.size()] = {m_text, text};
        }
        return text;
    }

    void clear() { m_type = Type::Undefined; }
    void set(Type t) { m_type = t; }
    void setBool(bool b)
    {
        m_type = Type::Bool;
        m_bool = b;
    }
    void setDouble(double d)
    {
        m_type = Type::Double;
        m_double = d;
    }
    void setString(std::string_view s)
    {
        m_type = Type::String;
        m_text.assign(s.data(), s.size()); // keeps its capacity from offer to offer
    }

private:
    Type m_type = Type::Undefined;
    bool m_bool = false;
    double m_double = 0;
    std::string m_text;
    mutable std::vector<std::pair<std::string, QString>> m_recent; ///< texts converted lately
    mutable std::size_t m_nextRecent = 0;
};

/// The fields of the offer being read, as vastOffer() reads them (JsonOfferFields' interface): each field
/// holds the last value its key had in the offer, as in a QJsonObject.
class StreamOfferFields
{
public:
    const StreamValue &value(VastField f) const { return m_values[static_cast<std::size_t>(f)]; }
    const StreamValue &searchTotalHour() const { return m_totalHour; }

    StreamValue &slot(VastField f) { return m_values[static_cast<std::size_t>(f)]; }
    StreamValue &totalHour() { return m_totalHour; }
    void clear()
    {
        for (StreamValue &v : m_values)
            v.clear();
        m_totalHour.clear();
    }

private:
    StreamValue m_values[static_cast<std::size_t>(VastField::Count)];
    StreamValue m_totalHour; ///< search.totalHour of the last "search" object
};

/// The second pass: the fields vastOffer() reads are kept for one offer at a time (the others are parsed,
/// so checked, and dropped), then the offer is judged by vastOffer().
class VastAnswerReader::Offers final : public JsonHandler
{
public:
    Offers(QString origin, QString descriptionSuffix, QDate fallbackDate, OfferSink &sink)
        : m_origin(std::move(origin)), m_suffix(std::move(descriptionSuffix)), m_fallbackDate(fallbackDate),
          m_sink(sink)
    {
    }

    void setHead(bool isObject, const QString &timestamp, int offersKeys)
    {
        m_isObject = isObject;
        m_offersWanted = offersKeys;
        m_timestamp = timestamp;
        m_date = QDateTime::fromString(timestamp, Qt::ISODate).date();
    }

    Action startObject() override
    {
        if (m_inOffer > 0)
            return open(StreamValue::Type::Object);
        if (atElement()) {
            m_fields.clear();
            m_pending = nullptr;
            m_inOffer = 1;
            return Action::Continue;
        }
        return outside(false);
    }
    Action startArray() override
    {
        if (m_inOffer > 0)
            return open(StreamValue::Type::Array);
        if (atElement()) {
            vastMalformedElement(m_page, m_page.answered++);
            return Action::SkipValue;
        }
        return outside(true);
    }
    Action endObject() override { return m_inOffer > 0 ? close() : closeOutside(); }
    Action endArray() override { return m_inOffer > 0 ? close() : closeOutside(); }
    Action key(std::string_view k) override
    {
        if (m_inOffer == 1) {
            const VastField f = vastField(k);
            m_pending = f == VastField::Count ? nullptr : &m_fields.slot(f);
            m_pendingSearch = f == VastField::Search;
            return Action::Continue;
        }
        if (m_inOffer > 0) {
            m_pending = m_inSearch && m_inOffer == 2 && k == "totalHour" ? &m_fields.totalHour() : nullptr;
            m_pendingSearch = false;
            return Action::Continue;
        }
        // The answer object's keys: only the offers are read (the last "offers" when there are several, as
        // in QJsonDocument: an earlier one is skipped).
        if (k == "offers" && ++m_offersSeen == m_offersWanted) {
            m_offersKeyNext = true;
            return Action::Continue;
        }
        return Action::SkipValue;
    }
    Action string(std::string_view s) override
    {
        if (m_inOffer > 0) {
            if (StreamValue *v = takePending())
                v->setString(s);
            return Action::Continue;
        }
        return scalar();
    }
    Action number(std::string_view s) override
    {
        if (m_inOffer > 0) {
            if (StreamValue *v = takePending()) {
                double d = 0;
                if (!parseJsonNumber(s, &d))
                    d = std::numeric_limits<double>::quiet_NaN();
                v->setDouble(d);
            }
            return Action::Continue;
        }
        return scalar();
    }
    Action boolean(bool b) override
    {
        if (m_inOffer > 0) {
            if (StreamValue *v = takePending())
                v->setBool(b);
            return Action::Continue;
        }
        return scalar();
    }
    Action null() override
    {
        if (m_inOffer > 0) {
            if (StreamValue *v = takePending())
                v->set(StreamValue::Type::Null);
            return Action::Continue;
        }
        return scalar();
    }

    Result<SnapshotData> finish()
    {
        if (m_error)
            return *m_error;
        if (page().answered > 0 && page().malformed == page().answered)
            return makeError(QStringLiteral("%1: every one of the %2 offers is malformed (first: %3): the "
                                            "vast.ai offer format has changed")
                                 .arg(m_origin, QString::number(page().answered), page().firstMalformed));
        if (!m_begun && !m_date.isValid())
            m_date = m_fallbackDate;
        if (!m_begun && !m_held.isEmpty()) {
            if (auto st = beginSink(); !st)
                return st.error();
        }
        SnapshotData meta = head();
        meta.warnings = vastPageWarnings(m_page);
        if (m_page.answered == kVastDefaultLimit)
            meta.warnings.append(
                QStringLiteral("the answer holds exactly %1 offers, vast.ai's default limit: "
                               "it is probably cut short (the live refresh pages by price)")
                    .arg(kVastDefaultLimit));
        return meta;
    }
    const VastOfferPage &page() const { return m_page; }
    const std::optional<Error> &error() const { return m_error; }
    const QString &origin() const { return m_origin; }

private:
    /// The next value is an element of the offer list.
    bool atElement() const { return m_inOffers && m_inOffer == 0; }
    StreamValue *takePending()
    {
        m_pendingSearch = false;
        return std::exchange(m_pending, nullptr);
    }

    /// An object or array inside the offer: a kept field (or search.totalHour) takes its type; the
    /// "search" object is looked into for its totalHour.
    Action open(StreamValue::Type type)
    {
        const bool search = m_pendingSearch && type == StreamValue::Type::Object;
        if (m_pendingSearch)
            m_fields.totalHour().clear(); // a later "search" replaces an earlier one
        if (StreamValue *v = takePending())
            v->set(type);
        ++m_inOffer;
        if (search)
            m_inSearch = true;
        return Action::Continue;
    }
    Action close()
    {
        if (--m_inOffer == 1)
            m_inSearch = false;
        m_pending = nullptr;
        m_pendingSearch = false;
        return m_inOffer == 0 ? judge() : Action::Continue;
    }

    Action outside(bool array)
    {
        // The answer itself (an object, or the bare list), or the array of "offers".
        if (m_depth == 0 && array && !m_isObject) {
            m_inOffers = true;
        } else if (m_depth == 1 && m_offersKeyNext) {
            m_offersKeyNext = false;
            if (!array)
                return Action::SkipValue;
            m_inOffers = true;
        }
        ++m_depth;
        return Action::Continue;
    }
    Action closeOutside()
    {
        --m_depth;
        m_inOffers = false;
        return Action::Continue;
    }
    Action scalar()
    {
        m_offersKeyNext = false;
        if (atElement())
            vastMalformedElement(m_page, m_page.answered++);
        return Action::Continue;
    }
    /// The offer just read.
    Action judge()
    {
        const qsizetype i = m_page.answered++;
        QDate date = m_date;
        std::optional<Offer> x = vastOffer(m_fields, i, m_page, date);
        if (!x)
            return Action::Continue;
        x->id = ++m_usable;
        if (!m_begun) {
            if (!m_date.isValid() && date.isValid())
                m_date = date;
            if (!m_date.isValid()) {
                m_held.append(std::move(*x)); // held until the answer's date is known
                return Action::Continue;
            }
            if (auto st = beginSink(); !st) {
                m_error = st.error();
                return Action::Abort;
            }
        }
        if (auto st = m_sink.add(std::move(*x)); !st) {
            m_error = st.error();
            return Action::Abort;
        }
        return Action::Continue;
    }
    SnapshotData head() const
    {
        SnapshotData h;
        h.provider = QStringLiteral("vastai");
        h.description = QStringLiteral("vast.ai offer search") +
                        (m_timestamp.isEmpty() ? QString() : QStringLiteral(" at ") + m_timestamp) + m_suffix;
        h.dataDate = m_date;
        return h;
    }
    Status beginSink()
    {
        m_begun = true;
        if (auto st = m_sink.begin(head()); !st)
            return st;
        for (Offer &o : m_held)
            if (auto st = m_sink.add(std::move(o)); !st)
                return st;
        m_held.clear();
        return Ok{};
    }

    QString m_origin;
    QString m_suffix;
    QDate m_fallbackDate;
    OfferSink &m_sink;
    bool m_isObject = false;
    QString m_timestamp;
    QDate m_date;
    int m_depth = 0;
    int m_offersWanted = 0;
    int m_offersSeen = 0;
    bool m_offersKeyNext = false;
    bool m_inOffers = false;
    int m_inOffer = 0;                ///< depth inside the offer being read (1: its own fields)
    StreamOfferFields m_fields;       ///< the offer being read
    StreamValue *m_pending = nullptr; ///< where the next value goes (nullptr: a field that is not kept)
    bool m_pendingSearch = false;     ///< the next value is the offer's "search"
    bool m_inSearch = false;          ///< inside the "search" object (its own fields)
    VastOfferPage m_page;
    qint64 m_usable = 0;
    bool m_begun = false;
    QList<Offer> m_held;
    std::optional<Error> m_error;
};

VastAnswerReader::VastAnswerReader(QString origin, QString descriptionSuffix, QDate fallbackDate,
                                   OfferSink &sink)
    : m_scan(std::make_unique<Scan>()),
      m_offers(std::make_unique<Offers>(std::move(origin), std::move(descriptionSuffix), fallbackDate, sink))
{
}

VastAnswerReader::~VastAnswerReader() = default;

JsonHandler &VastAnswerReader::scan()
{
    return *m_scan;
}

Status VastAnswerReader::scanned()
{
    if (!m_scan->offerList())
        return makeError(
            QStringLiteral("%1: not a vast.ai offer list (no \"offers\" array)").arg(m_offers->origin()));
    m_offers->setHead(m_scan->isObject(), m_scan->isObject() ? m_scan->timestamp : QString(),
                      m_scan->offersKeys);
    return Ok{};
}

JsonHandler &VastAnswerReader::offers()
{
    return *m_offers;
}

const std::optional<Error> &VastAnswerReader::error() const
{
    return m_offers->error();
}

Result<SnapshotData> VastAnswerReader::finish()
{
    return m_offers->finish();
}

const VastOfferPage &VastAnswerReader::page() const
{
    return m_offers->page();
}

Result<VastOfferPage> streamVastOfferPage(QByteArrayView data, const QString &origin, OfferSink &sink)
{
    // What the stream parser would read or word differently from QJsonDocument (invalid UTF-8, a JSON
    // error): the whole-document parser reads it, as before, and its offers go to the sink.
    auto whole = [&]() -> Result<VastOfferPage> {
        auto parsed = parseVastOfferPage(data, origin);
        if (!parsed)
            return parsed.error();
        VastOfferPage page = std::move(parsed).value();
        QList<Offer> offers = std::exchange(page.data.offers, {});
        if (!offers.isEmpty()) {
            if (auto st = sink.begin(page.data); !st)
                return st.error();
            qint64 n = 0;
            for (Offer &o : offers) {
                o.id = ++n;
                if (auto st = sink.add(std::move(o)); !st)
                    return st.error();
            }
        }
        return page;
    };
    const auto size = static_cast<std::size_t>(data.size());
    Utf8Validator utf8;
    if (!utf8.feed(data.data(), size) || !utf8.finish())
        return whole();
    VastAnswerReader reader(origin, QString(), QDate(), sink);
    {
        JsonStreamParser scan(reader.scan());
        if (!scan.feed(data.data(), size) || !scan.finish())
            return whole();
    }
    if (auto st = reader.scanned(); !st)
        return st.error();
    JsonStreamParser parser(reader.offers());
    const bool read = parser.feed(data.data(), size) && parser.finish();
    if (reader.error())
        return *reader.error();
    if (!read) // the same bytes passed the first pass: only a handler's abort stops the second
        return makeError(QStringLiteral("%1: invalid JSON: %2").arg(origin, parser.errorString()));
    if (auto meta = reader.finish(); !meta)
        return meta.error();
    return reader.page();
}

} // namespace gf

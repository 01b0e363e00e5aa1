#include "domain/offertable.h"

#include "util/hugepages.h"

#include <cmath>
#include <limits>

namespace gf {

namespace {

/// Distinct texts a column shares before it packs the rest (a column past it holds unique values).
constexpr qsizetype kShared = 16384;
constexpr quint32 kPacked = 0x80000000u;
constexpr quint32 kNull = 0x7FFFFFFFu; ///< a null text (an SQL NULL), told apart from an empty one

double figureOf(const std::optional<double> &v)
{
    return v ? *v : std::numeric_limits<double>::quiet_NaN();
}

std::optional<double> optionalOf(double v)
{
    return std::isnan(v) ? std::nullopt : std::optional<double>(v);
}

bool sameDateTime(const QDateTime &a, const QDateTime &b)
{
    return a.isValid() == b.isValid() && a == b && a.timeSpec() == b.timeSpec() &&
           a.offsetFromUtc() == b.offsetFromUtc();
}

} // namespace

quint32 OfferTable::TextColumn::add(const QString &text)
{
    if (text.isNull())
        return kNull;
    // A text the reader shares (util/sharedtexts) comes as the very string this column holds: found by
    // its address, without hashing its characters. A shared string lives as long as the column, so no
    // other live text has its address.
    if (const auto it = m_byAddress.constFind(text.constData());
        it != m_byAddress.constEnd() && m_shared.at(it.value()).size() == text.size())
        return it.value();
    if (const auto it = m_ids.constFind(text); it != m_ids.constEnd())
        return it.value();
    if (m_shared.size() < kShared) {
        const auto id = static_cast<quint32>(m_shared.size());
        m_shared.append(text);
        m_ids.insert(text, id);
        if (!text.isEmpty())
            m_byAddress.insert(m_shared.last().constData(), id);
        return id;
    }
    const auto id = static_cast<quint32>(m_starts.size() - 1);
    Q_ASSERT(id < kNull);
    const auto *chars = reinterpret_cast<const char16_t *>(text.constData());
    m_chars.insert(m_chars.end(), chars, chars + text.size());
    m_starts.push_back(m_chars.size());
    return id | kPacked;
}

QString OfferTable::TextColumn::text(quint32 id) const
{
    if (id == kNull)
        return {};
    if (!(id & kPacked))
        return m_shared.at(id);
    const std::size_t k = id & ~kPacked;
    const quint64 begin = m_starts[k];
    if (m_starts[k + 1] == begin)
        return QStringLiteral("");
    return QString(reinterpret_cast<const QChar *>(m_chars.data() + begin),
                   static_cast<qsizetype>(m_starts[k + 1] - begin));
}

QString OfferTable::TextColumn::view(quint32 id) const
{
    if (id == kNull)
        return {};
    if (!(id & kPacked)) {
        const QString &s = m_shared.at(id);
        return QString::fromRawData(s.constData(), s.size()); // constData(): never null, so never a null text
    }
    const std::size_t k = id & ~kPacked;
    const quint64 begin = m_starts[k];
    if (m_starts[k + 1] == begin)
        return QStringLiteral("");
    return QString::fromRawData(reinterpret_cast<const QChar *>(m_chars.data() + begin),
                                static_cast<qsizetype>(m_starts[k + 1] - begin));
}

OfferTable::OfferTable() = default;

void OfferTable::reserve(qsizetype rows)
{
    m_rows.reserve(static_cast<std::size_t>(rows));
    // Rows are read in a random order (the frontier's points in time order): huge pages spare the TLB.
    adviseHugePages(m_rows.data(), m_rows.capacity() * sizeof(Row));
}

quint32 OfferTable::snapshotIndex(const Offer &o)
{
    // Offers come a snapshot at a time: the previous row's facts are nearly always this row's.
    auto same = [&](const SnapshotFacts &s) {
        return s.snapshotId == o.snapshotId && s.dataDate == o.dataDate &&
               sameDateTime(s.fetchedAt, o.fetchedAt);
    };
    if (!m_rows.empty()) {
        const quint32 last = m_rows.back().snapshot;
        if (same(m_snapshots.at(last)))
            return last;
    }
    for (qsizetype k = 0; k < m_snapshots.size(); ++k)
        if (same(m_snapshots.at(k)))
            return static_cast<quint32>(k);
    m_snapshots.append({o.snapshotId, o.fetchedAt, o.dataDate});
    return static_cast<quint32>(m_snapshots.size() - 1);
}

void OfferTable::append(const Offer &o)
{
    Row r;
    r.id = o.id;
    r.text[Provider] = m_texts[Provider].add(o.provider);
    r.text[InstanceType] = m_texts[InstanceType].add(o.instanceType);
    r.text[Region] = m_texts[Region].add(o.region);
    r.text[Zone] = m_texts[Zone].add(o.zone);
    r.text[GpuRawName] = m_texts[GpuRawName].add(o.gpuRawName);
    r.text[GpuId] = m_texts[GpuId].add(o.gpuId);
    r.text[Interconnect] = m_texts[Interconnect].add(o.interconnect);
    r.text[SpotLabel] = m_texts[SpotLabel].add(o.spotLabel);
    r.text[Interruption] = m_texts[Interruption].add(o.interruption);
    r.text[Source] = m_texts[Source].add(o.source);
    r.figure[GpuMemGb] = figureOf(o.gpuMemGb);
    r.figure[Vcpus] = figureOf(o.vcpus);
    r.figure[RamGb] = figureOf(o.ramGb);
    r.figure[NetworkGbps] = figureOf(o.networkGbps);
    r.figure[OnDemandUsdH] = figureOf(o.onDemandUsdH);
    r.figure[SpotUsdH] = figureOf(o.spotUsdH);
    r.figure[Reliability] = figureOf(o.reliability);
    r.figure[UploadGbps] = figureOf(o.uploadGbps);
    r.figure[Dlperf] = figureOf(o.dlperf);
    r.gpuCount = o.gpuCount;
    r.median = o.medianUsdPerGpuH;
    r.priceDate = o.priceDate.toJulianDay();
    r.listingEnd = o.listingEnd.toJulianDay();
    r.billingIncrementS = o.billingIncrementS;
    r.billingMinimumS = o.billingMinimumS;
    r.flags = o.flags;
    r.snapshot = snapshotIndex(o);
    m_rows.push_back(r);
}

template <class Text> Offer OfferTable::offerAt(qsizetype i, Text text) const
{
    const Row &r = m_rows[static_cast<std::size_t>(i)];
    const SnapshotFacts &s = m_snapshots.at(r.snapshot);
    Offer o;
    o.id = r.id;
    o.snapshotId = s.snapshotId;
    o.provider = text(Provider, r.text[Provider]);
    o.instanceType = text(InstanceType, r.text[InstanceType]);
    o.region = text(Region, r.text[Region]);
    o.zone = text(Zone, r.text[Zone]);
    o.gpuRawName = text(GpuRawName, r.text[GpuRawName]);
    o.gpuId = text(GpuId, r.text[GpuId]);
    o.gpuCount = r.gpuCount;
    o.gpuMemGb = optionalOf(r.figure[GpuMemGb]);
    o.vcpus = optionalOf(r.figure[Vcpus]);
    o.ramGb = optionalOf(r.figure[RamGb]);
    o.networkGbps = optionalOf(r.figure[NetworkGbps]);
    o.interconnect = text(Interconnect, r.text[Interconnect]);
    o.onDemandUsdH = optionalOf(r.figure[OnDemandUsdH]);
    o.spotUsdH = optionalOf(r.figure[SpotUsdH]);
    o.spotLabel = text(SpotLabel, r.text[SpotLabel]);
    o.interruption = text(Interruption, r.text[Interruption]);
    o.reliability = optionalOf(r.figure[Reliability]);
    o.uploadGbps = optionalOf(r.figure[UploadGbps]);
    o.dlperf = optionalOf(r.figure[Dlperf]);
    o.billingIncrementS = r.billingIncrementS;
    o.billingMinimumS = r.billingMinimumS;
    o.source = text(Source, r.text[Source]);
    o.flags = r.flags;
    o.priceDate = QDate::fromJulianDay(r.priceDate);
    o.listingEnd = QDate::fromJulianDay(r.listingEnd);
    o.medianUsdPerGpuH = r.median;
    o.fetchedAt = s.fetchedAt;
    o.dataDate = s.dataDate;
    return o;
}

Offer OfferTable::at(qsizetype i) const
{
    return offerAt(i, [this](std::size_t column, quint32 id) { return m_texts[column].text(id); });
}

Offer OfferTable::view(qsizetype i) const
{
    return offerAt(i, [this](std::size_t column, quint32 id) { return m_texts[column].view(id); });
}

QList<Offer> OfferTable::toList() const
{
    QList<Offer> out;
    out.reserve(size());
    for (qsizetype i = 0; i < size(); ++i)
        out.append(at(i));
    return out;
}

} // namespace gf

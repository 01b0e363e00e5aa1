#include "providers/skypilotcatalog.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "domain/providertables.h"
#include "domain/snapshotchecks.h"
#include "util/csv.h"

#include <QBuffer>
#include <QHash>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <functional>

namespace gf {

namespace {

class PyParser
{
public:
    explicit PyParser(QStringView s) : m_s(s) {}

    std::optional<QVariant> parse()
    {
        auto v = value(0);
        ws();
        if (!v || m_i != m_s.size())
            return std::nullopt;
        return v;
    }

private:
    void ws()
    {
        while (m_i < m_s.size() && m_s[m_i].isSpace())
            ++m_i;
    }
    bool eat(QChar c)
    {
        ws();
        if (m_i < m_s.size() && m_s[m_i] == c) {
            ++m_i;
            return true;
        }
        return false;
    }
    std::optional<QVariant> value(int depth)
    {
        if (depth > 32)
            return std::nullopt;
        ws();
        if (m_i >= m_s.size())
            return std::nullopt;
        const QChar c = m_s[m_i];
        if (c == u'{') {
            ++m_i;
            QVariantMap map;
            if (eat(u'}'))
                return QVariant(map);
            while (true) {
                auto k = value(depth + 1);
                if (!k || !eat(u':'))
                    return std::nullopt;
                auto v = value(depth + 1);
                if (!v)
                    return std::nullopt;
                map.insert(k->toString(), *v);
                if (eat(u',')) {
                    if (eat(u'}'))
                        return QVariant(map);
                    continue;
                }
                if (eat(u'}'))
                    return QVariant(map);
                return std::nullopt;
            }
        }
        if (c == u'[' || c == u'(') {
            const QChar close = c == u'[' ? u']' : u')';
            ++m_i;
            QVariantList list;
            if (eat(close))
                return QVariant(list);
            while (true) {
                auto v = value(depth + 1);
                if (!v)
                    return std::nullopt;
                list.append(*v);
                if (eat(u',')) {
                    if (eat(close))
                        return QVariant(list);
                    continue;
                }
                if (eat(close))
                    return QVariant(list);
                return std::nullopt;
            }
        }
        if (c == u'\'' || c == u'"') {
            ++m_i;
            QString out;
            while (m_i < m_s.size() && m_s[m_i] != c) {
                if (m_s[m_i] == u'\\' && m_i + 1 < m_s.size())
                    ++m_i;
                out.append(m_s[m_i++]);
            }
            if (m_i >= m_s.size())
                return std::nullopt;
            ++m_i;
            return QVariant(out);
        }
        const qsizetype start = m_i;
        while (m_i < m_s.size() && (m_s[m_i].isLetterOrNumber() || m_s[m_i] == u'.' || m_s[m_i] == u'-' ||
                                    m_s[m_i] == u'+' || m_s[m_i] == u'_'))
            ++m_i;
        const QString word = m_s.sliced(start, m_i - start).toString();
        if (word == u"True")
            return QVariant(true);
        if (word == u"False")
            return QVariant(false);
        if (word == u"None")
            return QVariant();
        bool ok = false;
        const double d = word.toDouble(&ok);
        if (ok && std::isfinite(d))
            return QVariant(d);
        return std::nullopt;
    }

    QStringView m_s;
    qsizetype m_i = 0;
};

std::optional<double> num(const QString &s)
{
    const QString t = s.trimmed();
    if (t.isEmpty())
        return std::nullopt;
    bool ok = false;
    const double v = t.toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return std::nullopt;
    return v;
}

/// GCP GPU prices below this share of the accelerator's upper-quartile regional price are a discounted
/// tier (resources/tools/build_snapshot.py GCP_TIER_RATIO; regional list prices span at most ~1.6x).
constexpr double kGcpTierRatio = 0.6;

double round2(double v)
{
    return std::round(v * 100) / 100;
}

/// Memory of one GPU in GB from GpuInfo: per-GPU SizeInMiB, or TotalGpuMemoryInMiB / count.
std::optional<double> gpuMemFromInfo(const QString &info, std::optional<double> count,
                                     bool totalIsPerInstance)
{
    if (info.trimmed().isEmpty() || !info.trimmed().startsWith(u'{'))
        return std::nullopt;
    const auto v = parsePythonLiteral(info);
    if (!v)
        return std::nullopt;
    const QVariantMap m = v->toMap();
    if (totalIsPerInstance && m.contains(QStringLiteral("TotalGpuMemoryInMiB")) && count && *count > 0) {
        const double total = m.value(QStringLiteral("TotalGpuMemoryInMiB")).toDouble();
        if (total > 0)
            return round2(total / *count / 1024.0);
    }
    const QVariantList gpus = m.value(QStringLiteral("Gpus")).toList();
    if (!gpus.isEmpty()) {
        const double mib = gpus.first()
                               .toMap()
                               .value(QStringLiteral("MemoryInfo"))
                               .toMap()
                               .value(QStringLiteral("SizeInMiB"))
                               .toDouble();
        if (mib > 0)
            return round2(mib / 1024.0);
    }
    return std::nullopt;
}

} // namespace

std::optional<QVariant> parsePythonLiteral(QStringView text)
{
    return PyParser(text).parse();
}

bool isSkypilotHeader(const QStringList &header)
{
    return header.contains(QStringLiteral("InstanceType")) &&
           header.contains(QStringLiteral("AcceleratorName")) && header.contains(QStringLiteral("Price")) &&
           header.contains(QStringLiteral("Region"));
}

Result<SnapshotData> parseSkypilotCsv(const QString &text, const QString &provider,
                                      const ProviderTables &tables, const QString &origin)
{
    QByteArray bytes = text.toUtf8();
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::ReadOnly);
    InputLimits limits;
    limits.maxFileBytes = 0; // already in memory
    return parseSkypilotCsv(buffer, provider, tables, origin, limits);
}

namespace {

/// One row of vms.csv, with the columns GPU Frontier reads.
struct SkyRow
{
    int line;
    QString type, acc, region, zone, info;
    std::optional<double> count, vcpus, mem, price, spot;
    QString priceText; ///< as written (messages)
};

/// What was skipped or corrected while composing offers (the snapshot's warnings).
struct SkyCounts
{
    int zeroPrice = 0;
    QStringList zeroExamples;
    int skippedNoPrice = 0, skippedCpu = 0, skippedTpu = 0, fixedCount = 0, spotEqual = 0, promo = 0,
        spotZero = 0, skippedNoRegion = 0;
};

/// The rows of the CSV, each given to `take` in file order: columns found by header name; a row with another
/// number of fields or a price or count that is not a number refuses the file. An error of `take` stops
/// the reading with it.
Status readSkypilotRows(QIODevice &in, const QString &provider, const QString &origin,
                        const InputLimits &limits, const std::function<Status(SkyRow &&)> &take)
{
    int cType = -1, cAcc = -1, cCount = -1, cVcpus = -1, cMem = -1, cInfo = -1, cPrice = -1, cSpot = -1,
        cRegion = -1, cZone = -1;
    qsizetype headerSize = 0;
    QString error;
    std::optional<Error> taken;
    CsvStream stream(
        [&](const QStringList &, const QStringList &header) {
            if (!isSkypilotHeader(header)) {
                error = QStringLiteral("%1: not a SkyPilot catalog (InstanceType, AcceleratorName, Price "
                                       "and Region columns expected)")
                            .arg(origin);
                return false;
            }
            auto column = [&](const char *name) {
                return static_cast<int>(header.indexOf(QLatin1StringView(name)));
            };
            headerSize = header.size();
            cType = column("InstanceType");
            cAcc = column("AcceleratorName");
            cCount = column("AcceleratorCount");
            cVcpus = column("vCPUs");
            cMem = column("MemoryGiB");
            cInfo = column("GpuInfo");
            cPrice = column("Price");
            cSpot = column("SpotPrice");
            cRegion = column("Region");
            cZone = column("AvailabilityZone");
            if (provider == u"gcp" && cZone < 0) {
                error = QStringLiteral("%1: a SkyPilot GCP catalog needs the AvailabilityZone column")
                            .arg(origin);
                return false;
            }
            return true;
        },
        [&](const QStringList &fields, qint64 line64) {
            const int line = static_cast<int>(line64);
            if (fields.size() != headerSize) {
                error = QStringLiteral("%1: line %2 has %3 fields, the header has %4 (truncated file?)")
                            .arg(origin, QString::number(line), QString::number(fields.size()),
                                 QString::number(headerSize));
                return false;
            }
            auto f = [&](int c) { return c >= 0 ? fields.at(c).trimmed() : QString(); };
            SkyRow row{line,         f(cType),       f(cAcc),        f(cRegion),
                       f(cZone),     f(cInfo),       num(f(cCount)), num(f(cVcpus)),
                       num(f(cMem)), num(f(cPrice)), num(f(cSpot)),  f(cPrice).left(40)};
            for (const auto &[c, v] :
                 {std::pair{cPrice, row.price}, std::pair{cSpot, row.spot}, std::pair{cCount, row.count}})
                if (!f(c).isEmpty() && !v) {
                    error = QStringLiteral("%1: line %2: \"%3\" is not a number")
                                .arg(origin, QString::number(line), f(c).left(30));
                    return false;
                }
            if (auto st = take(std::move(row)); !st) {
                taken = st.error();
                return false;
            }
            return true;
        },
        false, limits.maxFieldBytes);
    if (auto st = readCsvStream(in, stream, limits, origin); !st)
        return st.error();
    if (taken)
        return *taken;
    if (!error.isEmpty())
        return makeError(error);
    return Ok{};
}

/// The offer a row describes as written, before the provider's own rules.
Offer baseOffer(const SkyRow &r, const QString &provider, const QString &source)
{
    Offer o;
    o.provider = provider;
    o.instanceType = r.type;
    o.region = r.region;
    o.zone = r.zone;
    o.gpuRawName = r.acc;
    o.gpuCount = r.count.value_or(0);
    o.vcpus = r.vcpus;
    o.ramGb = r.mem;
    o.onDemandUsdH = r.price;
    if (r.spot && *r.spot > 0) {
        o.spotUsdH = r.spot;
        o.spotLabel = QStringLiteral("spot");
    }
    o.source = source;
    o.id = r.line;
    return o;
}

/// GCP's rows: host machine rows by zone and type, GPU-only rows by zone, GPU and count.
struct GcpRows
{
    QHash<QString, const SkyRow *> hosts;   // zone \x1f type
    QHash<QString, const SkyRow *> gpuRows; // zone \x1f gpu \x1f count
    QStringList zones;                      // in file order
};

GcpRows indexGcpRows(const QList<SkyRow> &rows, SkyCounts &counts)
{
    GcpRows g;
    for (const SkyRow &r : rows) {
        if (!r.type.isEmpty())
            g.hosts.insert(r.zone + u'\x1f' + r.type, &r);
        else if (r.acc.startsWith(QStringLiteral("tpu")))
            ++counts.skippedTpu;
        else if (!r.acc.isEmpty() && r.count) {
            const QString key = r.zone + u'\x1f' + r.acc + u'\x1f' + QString::number(*r.count);
            if (!g.gpuRows.contains(key)) // a duplicate GPU-only row: the first is kept
                g.gpuRows.insert(key, &r);
        }
    }
    for (const SkyRow &r : rows)
        if (!g.zones.contains(r.zone))
            g.zones.append(r.zone);
    return g;
}

/// GPU-only rows whose Price is not an on-demand price (resources/catalog/SOURCES.md, "gcp.csv"):
/// R2: below kGcpTierRatio x the upper quartile (nearest rank) of that accelerator's per-region
/// on-demand prices per GPU (region value = the median of its zones and counts) = a discounted
/// (commitment / reservation) tier: offers composed on it are not imported. R1: below the row's
/// own spot price: flagged gpu-below-spot. This gives each accelerator's upper quartile.
QHash<QString, double> gcpUpperQuartiles(const QHash<QString, const SkyRow *> &gpuRows)
{
    QHash<QString, QHash<QString, QList<double>>> perRegion; // accelerator -> region -> USD/GPU-h
    for (const SkyRow *g : gpuRows)
        if (g->price && *g->price > 0 && *g->count > 0)
            perRegion[g->acc][g->region].append(*g->price / *g->count);
    QHash<QString, double> upperQuartile;
    for (auto it = perRegion.cbegin(); it != perRegion.cend(); ++it) {
        QList<double> regional;
        for (QList<double> v : it.value()) {
            std::sort(v.begin(), v.end());
            const qsizetype n = v.size();
            regional.append(n % 2 ? v.at(n / 2) : (v.at(n / 2 - 1) + v.at(n / 2)) / 2.0);
        }
        std::sort(regional.begin(), regional.end());
        const auto k = std::max<qsizetype>(1, static_cast<qsizetype>(std::ceil(0.75 * regional.size())));
        upperQuartile.insert(it.key(), regional.at(k - 1));
    }
    return upperQuartile;
}

/// One GCP offer: the host machine row plus the GPU-only row of its zone.
Offer composeGcpOffer(const MachineShape &m, const SkyRow &host, const SkyRow &gpu, const QString &provider,
                      const QString &source)
{
    Offer o = baseOffer(host, provider, source);
    o.instanceType = m.name;
    o.gpuRawName = m.gpuName;
    o.gpuCount = m.gpuCount;
    o.gpuMemGb = gpuMemFromInfo(gpu.info, gpu.count, false);
    if (!o.gpuMemGb)
        o.gpuMemGb = m.gpuMemGb;
    o.vcpus = host.vcpus ? host.vcpus : m.vcpus;
    o.ramGb = host.mem ? host.mem : m.ramGb;
    o.networkGbps = m.networkGbps;
    o.interconnect = m.interconnect;
    o.onDemandUsdH = std::round((*host.price + *gpu.price) * 1e5) / 1e5;
    o.spotUsdH.reset();
    o.spotLabel.clear();
    if (host.spot && gpu.spot && *host.spot > 0 && *gpu.spot > 0) {
        o.spotUsdH = std::round((*host.spot + *gpu.spot) * 1e5) / 1e5;
        o.spotLabel = QStringLiteral("spot");
    }
    o.billingIncrementS = 1;
    o.billingMinimumS = 60;
    o.source = source + QStringLiteral(" (host + GPU rows)");
    return o;
}

/// The host machine row's type of a GCP shape: the shape itself (a2/a3/g2), or the N1 host of "n1-...+gpu".
QString gcpHostType(const MachineShape &m)
{
    return m.series == u"n1" ? m.name.section(u'+', 0, 0) : m.name;
}

/// GCP: GPU-only rows price only the GPUs; each is added to the host machine row of the same zone
/// (a2/a3/g2 by name, N1 hosts per the project's shape table).
void composeGcpOffers(const QList<SkyRow> &rows, const ProviderTables &tables, const QString &provider,
                      const QString &source, SnapshotData &data, SkyCounts &counts)
{
    const GcpRows g = indexGcpRows(rows, counts);
    const QHash<QString, double> upperQuartile = gcpUpperQuartiles(g.gpuRows);
    int composed = 0, discountedGpu = 0, hostBelowSpot = 0, gpuBelowSpot = 0;
    for (const MachineShape &m : tables.gcpMachines()) {
        const QString hostType = gcpHostType(m);
        for (const QString &zone : g.zones) {
            const SkyRow *host = g.hosts.value(zone + u'\x1f' + hostType);
            const SkyRow *gpu =
                g.gpuRows.value(zone + u'\x1f' + m.gpuName + u'\x1f' + QString::number(m.gpuCount));
            if (!host || !gpu)
                continue;
            if (!host->price || !gpu->price) {
                ++counts.skippedNoPrice;
                continue;
            }
            if (host->spot && *host->price < *host->spot) {
                ++hostBelowSpot; // not an on-demand host price
                continue;
            }
            const double perGpu = *gpu->price / m.gpuCount;
            if (perGpu < kGcpTierRatio * upperQuartile.value(gpu->acc, 0)) {
                ++discountedGpu;
                continue;
            }
            Offer o = composeGcpOffer(m, *host, *gpu, provider, source);
            if (gpu->spot && *gpu->price < *gpu->spot) {
                o.flags |= static_cast<int>(OfferFlag::GpuBelowSpot);
                ++gpuBelowSpot;
            }
            data.offers.append(std::move(o));
            ++composed;
        }
    }
    if (discountedGpu)
        data.warnings.append(
            QStringLiteral("%1 machine/zone offers not imported: their GPU price is below %2x the upper "
                           "quartile of the GPU's regional on-demand prices (a discounted tier, not "
                           "on-demand)")
                .arg(discountedGpu)
                .arg(kGcpTierRatio));
    if (hostBelowSpot)
        data.warnings.append(QStringLiteral("%1 machine/zone offers not imported: their host on-demand price "
                                            "is below its spot price")
                                 .arg(hostBelowSpot));
    if (gpuBelowSpot)
        data.warnings.append(QStringLiteral("%1 offers whose GPU on-demand price is below its spot price "
                                            "(flagged gpu-below-spot)")
                                 .arg(gpuBelowSpot));
    if (counts.skippedTpu)
        data.warnings.append(QStringLiteral("%1 TPU rows skipped (not GPUs)").arg(counts.skippedTpu));
    if (composed == 0 && !g.gpuRows.isEmpty())
        data.warnings.append(
            QStringLiteral("no GPU row could be joined with a host machine row of its zone"));
}

/// Drops a spot price equal to the on-demand price (a known data error); true when it did.
bool dropSpotEqualToOnDemand(Offer &o)
{
    if (o.spotUsdH && o.onDemandUsdH && std::abs(*o.spotUsdH - *o.onDemandUsdH) < 1e-9) {
        o.spotUsdH.reset();
        o.spotLabel.clear();
        return true;
    }
    return false;
}

/// The datasheet memory of the GPU the row names, when it is recognised.
void setDatasheetMemory(Offer &o, const QString &provider, const SkyRow &r)
{
    if (auto id = GpuCatalog::builtin().resolve(provider, r.acc))
        if (const GpuModel *m = GpuCatalog::builtin().model(*id))
            o.gpuMemGb = m->memoryGb;
}

void applyAwsRules(Offer &o, const SkyRow &r, const ProviderTables &tables)
{
    o.gpuMemGb = gpuMemFromInfo(r.info, r.count, true);
    if (const MachineShape *s = tables.awsInstance(r.type)) {
        o.networkGbps = s->networkGbps;
        o.interconnect = s->interconnect;
        if (!o.gpuMemGb)
            o.gpuMemGb = s->gpuMemGb;
    }
    o.billingIncrementS = 1;
    o.billingMinimumS = 60;
}

/// False when the row is not imported (an expired promotional price).
bool applyAzureRules(Offer &o, const SkyRow &r, const ProviderTables &tables, SkyCounts &counts)
{
    if (r.type.endsWith(QStringLiteral("_Promo"))) {
        ++counts.promo;
        return false;
    }
    if (const MachineShape *s = tables.azureVmSize(r.type)) {
        if (std::abs(s->gpuCount - o.gpuCount) > 1e-9) {
            ++counts.fixedCount; // e.g. ND96isr_H100_v5 written with 12 GPUs; NVv4 partitions written as 1
            o.gpuCount = s->gpuCount;
        }
        o.gpuMemGb = s->gpuMemGb;
        o.interconnect = s->interconnect;
    }
    if (dropSpotEqualToOnDemand(o))
        ++counts.spotEqual;
    o.billingIncrementS = 60;
    o.billingMinimumS = 60;
    return true;
}

void applyVastaiRules(Offer &o, const SkyRow &r, SkyCounts &counts)
{
    // InstanceType is "<n>x-<vast.ai gpu_name with '_' for ' '>-<cpus>-<ram>": keep vast.ai's own name.
    const QStringList parts = r.type.split(u'-');
    if (parts.size() >= 4 && parts.first().endsWith(u'x'))
        o.gpuRawName = parts.mid(1, parts.size() - 3).join(u'-').replace(u'_', u' ');
    o.gpuMemGb = gpuMemFromInfo(r.info, r.count, true);
    o.vcpus.reset(); // SkyPilot's request size, not the host's
    o.ramGb.reset();
    if (r.spot && !(*r.spot > 0))
        ++counts.spotZero;
    o.billingIncrementS = 1;
    o.billingMinimumS = 0;
}

/// A cloud read only through SkyPilot's catalog. False when the row is not imported (no region).
bool applyCatalogOnlyRules(Offer &o, const SkyRow &r, const QString &provider, const ProviderInfo &info,
                           SkyCounts &counts)
{
    if (o.region.isEmpty()) {
        ++counts.skippedNoRegion; // Seeweb writes some GPU rows without a region: not orderable as read
        return false;
    }
    // Its GpuInfo memory is written in MiB, GB, per GPU or per instance depending on the cloud and the
    // schema, so the datasheet memory of the recognised GPU wins; GpuInfo's per-GPU figure only when the
    // GPU is not recognised.
    setDatasheetMemory(o, provider, r);
    if (!o.gpuMemGb)
        if (auto mem = gpuMemFromInfo(r.info, r.count, false); mem && *mem >= 1)
            o.gpuMemGb = mem;
    if (dropSpotEqualToOnDemand(o))
        ++counts.spotEqual; // RunPod writes its on-demand price as SpotPrice on every row
    else if (o.spotUsdH)
        o.spotLabel = info.spotLabel.isEmpty() ? QStringLiteral("spot") : info.spotLabel;
    o.billingIncrementS = info.billingIncrementS > 0 ? info.billingIncrementS : 1;
    o.billingMinimumS = std::max(0, info.billingMinimumS);
    return true;
}

void applyPaperspaceRules(Offer &o, const SkyRow &r, const QString &provider)
{
    setDatasheetMemory(o, provider, r);
    o.spotUsdH.reset();
    o.spotLabel.clear();
    o.billingIncrementS = 1;
}

/// Several GPUs that only come as PCIe cards and no interconnect named: PCIe.
void setPcieForPcieOnlyGpus(Offer &o)
{
    static const QStringList pcieOnly{QStringLiteral("T4"),    QStringLiteral("T4g"),  QStringLiteral("A10G"),
                                      QStringLiteral("A10"),   QStringLiteral("L4"),   QStringLiteral("L40S"),
                                      QStringLiteral("P4"),    QStringLiteral("K80"),  QStringLiteral("M60"),
                                      QStringLiteral("P4000"), QStringLiteral("A4000")};
    if (o.gpuCount > 1 && o.interconnect.isEmpty() && pcieOnly.contains(o.gpuRawName))
        o.interconnect = QStringLiteral("PCIe");
}

/// The offer of one row of a cloud other than GCP; nullopt when the row is skipped (counted).
std::optional<Offer> offerFromRow(const SkyRow &r, const ProviderTables &tables, const QString &provider,
                                  const QString &source, SkyCounts &counts)
{
    if (r.acc.isEmpty()) {
        ++counts.skippedCpu;
        return std::nullopt;
    }
    if (r.acc.startsWith(QStringLiteral("tpu"))) {
        ++counts.skippedTpu;
        return std::nullopt;
    }
    if (!r.price) {
        ++counts.skippedNoPrice;
        return std::nullopt;
    }
    if (!(*r.price > 0)) {
        if (counts.zeroPrice++ < 3)
            counts.zeroExamples.append(QStringLiteral("line %1: \"%2\"").arg(r.line).arg(r.priceText));
        return std::nullopt;
    }
    Offer o = baseOffer(r, provider, source);
    if (provider == u"aws") {
        applyAwsRules(o, r, tables);
    } else if (provider == u"azure") {
        if (!applyAzureRules(o, r, tables, counts))
            return std::nullopt;
    } else if (provider == u"vastai") {
        applyVastaiRules(o, r, counts);
    } else if (const ProviderInfo *info = providerInfo(provider);
               info && info->live == LiveSource::SkypilotCatalog) {
        if (!applyCatalogOnlyRules(o, r, provider, *info, counts))
            return std::nullopt;
    } else { // paperspace
        applyPaperspaceRules(o, r, provider);
    }
    if (provider != u"vastai")
        setPcieForPcieOnlyGpus(o);
    return o;
}

/// The warnings for the rows skipped or corrected, in a fixed order.
void appendSkipWarnings(SnapshotData &data, const SkyCounts &c, const QString &provider)
{
    if (c.zeroPrice)
        data.warnings.append(QStringLiteral("Price is zero or negative on %1 rows, skipped (%2)")
                                 .arg(c.zeroPrice)
                                 .arg(c.zeroExamples.join(QStringLiteral(", "))));
    if (c.skippedNoPrice)
        data.warnings.append(
            QStringLiteral("%1 rows without an on-demand price skipped").arg(c.skippedNoPrice));
    if (c.skippedNoRegion)
        data.warnings.append(QStringLiteral("%1 rows without a region skipped").arg(c.skippedNoRegion));
    if (c.skippedCpu)
        data.warnings.append(QStringLiteral("%1 rows without an accelerator skipped").arg(c.skippedCpu));
    if (c.skippedTpu && provider != u"gcp")
        data.warnings.append(QStringLiteral("%1 TPU rows skipped").arg(c.skippedTpu));
    if (c.fixedCount)
        data.warnings.append(
            QStringLiteral(
                "%1 rows had a GPU count that differs from the project's VM-size table (table used)")
                .arg(c.fixedCount));
    if (c.spotEqual)
        data.warnings.append(QStringLiteral("%1 spot prices equal to on-demand dropped (a known data error)")
                                 .arg(c.spotEqual));
    if (c.promo)
        data.warnings.append(
            QStringLiteral("%1 *_Promo rows skipped (expired promotional prices)").arg(c.promo));
    if (c.spotZero)
        data.warnings.append(
            QStringLiteral("%1 SpotPrice 0.00 values dropped (not a price)").arg(c.spotZero));
}

} // namespace

Result<SnapshotData> parseSkypilotCsv(QIODevice &in, const QString &provider, const ProviderTables &tables,
                                      const QString &origin, const InputLimits &limits)
{
    return collectOffers(
        [&](OfferSink &sink) { return parseSkypilotCsv(in, provider, tables, origin, limits, sink); });
}

Result<SnapshotData> parseSkypilotCsv(QIODevice &in, const QString &provider, const ProviderTables &tables,
                                      const QString &origin, const InputLimits &limits, OfferSink &sink)
{
    if (!knownProviders().contains(provider))
        return makeError(
            QStringLiteral("%1: SkyPilot's \"%2\" catalog is not one of GPU Frontier's providers (%3)")
                .arg(origin, provider, knownProviders().join(QStringLiteral(", "))));
    // A stream that cannot be read twice is read into memory first.
    QByteArray copy;
    QBuffer buffer;
    QIODevice *device = &in;
    if (in.isSequential()) {
        copy = in.readAll();
        buffer.setBuffer(&copy);
        buffer.open(QIODevice::ReadOnly);
        device = &buffer;
    }
    const qint64 start = device->pos();
    const bool gcp = provider == u"gcp";
    // First pass: every row is read and checked (fields, numbers, the naming of another cloud), none is
    // kept, except GCP's rows that compose offers: its GPU-only rows, the host rows of its machine shapes
    // and the first row of each zone (the zones' order is the offers' order).
    ProviderNaming naming(provider);
    QSet<QString> hostTypes, zones;
    if (gcp)
        for (const MachineShape &m : tables.gcpMachines())
            hostTypes.insert(gcpHostType(m));
    QList<SkyRow> gcpRows;
    auto check = [&](SkyRow &&r) -> Status {
        Offer names;
        names.instanceType = r.type;
        names.region = r.region;
        names.id = r.line;
        naming.add(names);
        if (gcp) {
            const bool newZone = !zones.contains(r.zone);
            if (newZone)
                zones.insert(r.zone);
            if (newZone || r.type.isEmpty() || hostTypes.contains(r.type))
                gcpRows.append(std::move(r));
        }
        return Ok{};
    };
    if (auto st = readSkypilotRows(*device, provider, origin, limits, check); !st)
        return st.error();
    if (auto st = naming.finish(origin); !st)
        return st.error();

    SnapshotData head;
    head.provider = provider;
    head.description = QStringLiteral("SkyPilot catalog %1 (%2 vms.csv)").arg(origin, provider);
    if (auto st = sink.begin(head); !st)
        return st.error();
    const QString source = QStringLiteral("SkyPilot catalog (%1 vms.csv)").arg(provider);
    SkyCounts counts;
    if (gcp) {
        SnapshotData composed;
        composeGcpOffers(gcpRows, tables, provider, source, composed, counts);
        gcpRows.clear();
        for (Offer &o : composed.offers)
            if (auto st = sink.add(std::move(o)); !st)
                return st.error();
        head.warnings = std::move(composed.warnings);
    } else {
        // Second pass: each row's offer goes to the sink as it is read.
        if (!device->seek(start))
            return makeError(
                QStringLiteral("%1: cannot read it a second time: %2").arg(origin, device->errorString()));
        auto offer = [&](SkyRow &&r) -> Status {
            if (auto o = offerFromRow(r, tables, provider, source, counts))
                return sink.add(std::move(*o));
            return Ok{};
        };
        if (auto st = readSkypilotRows(*device, provider, origin, limits, offer); !st)
            return st.error();
    }
    appendSkipWarnings(head, counts, provider);
    return head;
}

} // namespace gf

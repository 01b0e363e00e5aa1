#include "providers/skypilotcatalog.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "domain/providertables.h"
#include "domain/snapshotchecks.h"
#include "util/csv.h"

#include <QBuffer>
#include <QHash>

#include <algorithm>
#include <cmath>

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

Result<SnapshotData> parseSkypilotCsv(QIODevice &in, const QString &provider, const ProviderTables &tables,
                                      const QString &origin, const InputLimits &limits)
{
    if (!knownProviders().contains(provider))
        return makeError(
            QStringLiteral("%1: SkyPilot's \"%2\" catalog is not one of GPU Frontier's providers (%3)")
                .arg(origin, provider, knownProviders().join(QStringLiteral(", "))));
    int cType = -1, cAcc = -1, cCount = -1, cVcpus = -1, cMem = -1, cInfo = -1, cPrice = -1, cSpot = -1,
        cRegion = -1, cZone = -1;
    qsizetype headerSize = 0;
    QString error;

    SnapshotData data;
    data.provider = provider;
    data.description = QStringLiteral("SkyPilot catalog %1 (%2 vms.csv)").arg(origin, provider);
    const QString source = QStringLiteral("SkyPilot catalog (%1 vms.csv)").arg(provider);
    int zeroPrice = 0;
    QStringList zeroExamples;
    int skippedNoPrice = 0, skippedCpu = 0, skippedTpu = 0, fixedCount = 0, spotEqual = 0, promo = 0,
        spotZero = 0, skippedNoRegion = 0;

    struct Row
    {
        int line;
        QString type, acc, region, zone, info;
        std::optional<double> count, vcpus, mem, price, spot;
        QString priceText; ///< as written (messages)
    };
    QList<Row> rows;
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
            Row row{line,         f(cType),       f(cAcc),        f(cRegion),
                    f(cZone),     f(cInfo),       num(f(cCount)), num(f(cVcpus)),
                    num(f(cMem)), num(f(cPrice)), num(f(cSpot)),  f(cPrice).left(40)};
            for (const auto &[c, v] :
                 {std::pair{cPrice, row.price}, std::pair{cSpot, row.spot}, std::pair{cCount, row.count}})
                if (!f(c).isEmpty() && !v) {
                    error = QStringLiteral("%1: line %2: \"%3\" is not a number")
                                .arg(origin, QString::number(line), f(c).left(30));
                    return false;
                }
            rows.append(std::move(row));
            return true;
        },
        false, limits.maxFieldBytes);
    if (auto st = readCsvStream(in, stream, limits, origin); !st)
        return st.error();
    if (!error.isEmpty())
        return makeError(error);
    {
        // SkyPilot has one catalog per cloud: another cloud's rows (named like its instance types or
        // regions) are refused before they are composed, whatever the provider asked for.
        SnapshotData names;
        names.provider = provider;
        names.offers.reserve(rows.size());
        for (const Row &r : std::as_const(rows)) {
            Offer o;
            o.instanceType = r.type;
            o.region = r.region;
            o.id = r.line;
            names.offers.append(std::move(o));
        }
        if (auto st = checkProviderNaming(names, origin); !st)
            return st.error();
    }

    auto base = [&](const Row &r) {
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
    };

    if (provider == u"gcp") {
        QHash<QString, const Row *> hosts;   // zone \x1f type
        QHash<QString, const Row *> gpuRows; // zone \x1f gpu \x1f count
        for (const Row &r : rows) {
            if (!r.type.isEmpty())
                hosts.insert(r.zone + u'\x1f' + r.type, &r);
            else if (r.acc.startsWith(QStringLiteral("tpu")))
                ++skippedTpu;
            else if (!r.acc.isEmpty() && r.count) {
                const QString key = r.zone + u'\x1f' + r.acc + u'\x1f' + QString::number(*r.count);
                if (!gpuRows.contains(key)) // a duplicate GPU-only row: the first is kept
                    gpuRows.insert(key, &r);
            }
        }
        // GPU-only rows whose Price is not an on-demand price (resources/catalog/SOURCES.md, "gcp.csv"):
        // R2: below kGcpTierRatio x the upper quartile (nearest rank) of that accelerator's per-region
        // on-demand prices per GPU (region value = the median of its zones and counts) = a discounted
        // (commitment / reservation) tier: offers composed on it are not imported. R1: below the row's
        // own spot price: flagged gpu-below-spot.
        QHash<QString, QHash<QString, QList<double>>> perRegion; // accelerator -> region -> USD/GPU-h
        for (const Row *g : std::as_const(gpuRows))
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
        QStringList zones;
        for (const Row &r : rows)
            if (!zones.contains(r.zone))
                zones.append(r.zone);
        int composed = 0, discountedGpu = 0, hostBelowSpot = 0, gpuBelowSpot = 0;
        for (const MachineShape &m : tables.gcpMachines()) {
            const QString hostType = m.series == u"n1" ? m.name.section(u'+', 0, 0) : m.name;
            for (const QString &zone : std::as_const(zones)) {
                const Row *host = hosts.value(zone + u'\x1f' + hostType);
                const Row *gpu =
                    gpuRows.value(zone + u'\x1f' + m.gpuName + u'\x1f' + QString::number(m.gpuCount));
                if (!host || !gpu)
                    continue;
                if (!host->price || !gpu->price) {
                    ++skippedNoPrice;
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
                Offer o = base(*host);
                o.instanceType = m.name;
                o.gpuRawName = m.gpuName;
                o.gpuCount = m.gpuCount;
                o.gpuMemGb = gpuMemFromInfo(gpu->info, gpu->count, false);
                if (!o.gpuMemGb)
                    o.gpuMemGb = m.gpuMemGb;
                o.vcpus = host->vcpus ? host->vcpus : m.vcpus;
                o.ramGb = host->mem ? host->mem : m.ramGb;
                o.networkGbps = m.networkGbps;
                o.interconnect = m.interconnect;
                o.onDemandUsdH = std::round((*host->price + *gpu->price) * 1e5) / 1e5;
                o.spotUsdH.reset();
                o.spotLabel.clear();
                if (host->spot && gpu->spot && *host->spot > 0 && *gpu->spot > 0) {
                    o.spotUsdH = std::round((*host->spot + *gpu->spot) * 1e5) / 1e5;
                    o.spotLabel = QStringLiteral("spot");
                }
                if (gpu->spot && *gpu->price < *gpu->spot) {
                    o.flags |= static_cast<int>(OfferFlag::GpuBelowSpot);
                    ++gpuBelowSpot;
                }
                o.billingIncrementS = 1;
                o.billingMinimumS = 60;
                o.source = source + QStringLiteral(" (host + GPU rows)");
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
            data.warnings.append(
                QStringLiteral("%1 machine/zone offers not imported: their host on-demand price "
                               "is below its spot price")
                    .arg(hostBelowSpot));
        if (gpuBelowSpot)
            data.warnings.append(QStringLiteral("%1 offers whose GPU on-demand price is below its spot price "
                                                "(flagged gpu-below-spot)")
                                     .arg(gpuBelowSpot));
        if (skippedTpu)
            data.warnings.append(QStringLiteral("%1 TPU rows skipped (not GPUs)").arg(skippedTpu));
        if (composed == 0 && !gpuRows.isEmpty())
            data.warnings.append(
                QStringLiteral("no GPU row could be joined with a host machine row of its zone"));
    } else {
        for (const Row &r : rows) {
            if (r.acc.isEmpty()) {
                ++skippedCpu;
                continue;
            }
            if (r.acc.startsWith(QStringLiteral("tpu"))) {
                ++skippedTpu;
                continue;
            }
            if (!r.price) {
                ++skippedNoPrice;
                continue;
            }
            if (!(*r.price > 0)) {
                if (zeroPrice++ < 3)
                    zeroExamples.append(QStringLiteral("line %1: \"%2\"").arg(r.line).arg(r.priceText));
                continue;
            }
            Offer o = base(r);
            if (provider == u"aws") {
                o.gpuMemGb = gpuMemFromInfo(r.info, r.count, true);
                if (const MachineShape *s = tables.awsInstance(r.type)) {
                    o.networkGbps = s->networkGbps;
                    o.interconnect = s->interconnect;
                    if (!o.gpuMemGb)
                        o.gpuMemGb = s->gpuMemGb;
                }
                o.billingIncrementS = 1;
                o.billingMinimumS = 60;
            } else if (provider == u"azure") {
                if (r.type.endsWith(QStringLiteral("_Promo"))) {
                    ++promo;
                    continue;
                }
                if (const MachineShape *s = tables.azureVmSize(r.type)) {
                    if (std::abs(s->gpuCount - o.gpuCount) > 1e-9) {
                        ++fixedCount; // e.g. ND96isr_H100_v5 written with 12 GPUs; NVv4 partitions written as
                                      // 1
                        o.gpuCount = s->gpuCount;
                    }
                    o.gpuMemGb = s->gpuMemGb;
                    o.interconnect = s->interconnect;
                }
                if (o.spotUsdH && o.onDemandUsdH && std::abs(*o.spotUsdH - *o.onDemandUsdH) < 1e-9) {
                    ++spotEqual;
                    o.spotUsdH.reset();
                    o.spotLabel.clear();
                }
                o.billingIncrementS = 60;
                o.billingMinimumS = 60;
            } else if (provider == u"vastai") {
                // InstanceType is "<n>x-<vast.ai gpu_name with '_' for ' '>-<cpus>-<ram>": keep vast.ai's own
                // name.
                const QStringList parts = r.type.split(u'-');
                if (parts.size() >= 4 && parts.first().endsWith(u'x'))
                    o.gpuRawName = parts.mid(1, parts.size() - 3).join(u'-').replace(u'_', u' ');
                o.gpuMemGb = gpuMemFromInfo(r.info, r.count, true);
                o.vcpus.reset(); // SkyPilot's request size, not the host's
                o.ramGb.reset();
                if (r.spot && !(*r.spot > 0))
                    ++spotZero;
                o.billingIncrementS = 1;
                o.billingMinimumS = 0;
            } else if (const ProviderInfo *info = providerInfo(provider);
                       info && info->live == LiveSource::SkypilotCatalog) {
                if (o.region.isEmpty()) {
                    ++skippedNoRegion; // Seeweb writes some GPU rows without a region: not orderable as read
                    continue;
                }
                // A cloud read only through SkyPilot's catalog: its GpuInfo memory is written in MiB, GB,
                // per GPU or per instance depending on the cloud and the schema, so the datasheet memory of
                // the recognised GPU wins; GpuInfo's per-GPU figure only when the GPU is not recognised.
                if (auto id = GpuCatalog::builtin().resolve(provider, r.acc))
                    if (const GpuModel *m = GpuCatalog::builtin().model(*id))
                        o.gpuMemGb = m->memoryGb;
                if (!o.gpuMemGb)
                    if (auto mem = gpuMemFromInfo(r.info, r.count, false); mem && *mem >= 1)
                        o.gpuMemGb = mem;
                if (o.spotUsdH && o.onDemandUsdH && std::abs(*o.spotUsdH - *o.onDemandUsdH) < 1e-9) {
                    ++spotEqual; // RunPod writes its on-demand price as SpotPrice on every row
                    o.spotUsdH.reset();
                    o.spotLabel.clear();
                } else if (o.spotUsdH) {
                    o.spotLabel = info->spotLabel.isEmpty() ? QStringLiteral("spot") : info->spotLabel;
                }
                o.billingIncrementS = info->billingIncrementS > 0 ? info->billingIncrementS : 1;
                o.billingMinimumS = std::max(0, info->billingMinimumS);
            } else { // paperspace
                if (auto id = GpuCatalog::builtin().resolve(provider, r.acc))
                    if (const GpuModel *m = GpuCatalog::builtin().model(*id))
                        o.gpuMemGb = m->memoryGb;
                o.spotUsdH.reset();
                o.spotLabel.clear();
                o.billingIncrementS = 1;
            }
            if (o.gpuCount > 1 && o.interconnect.isEmpty() && provider != u"vastai") {
                static const QStringList pcieOnly{
                    QStringLiteral("T4"),    QStringLiteral("T4g"),  QStringLiteral("A10G"),
                    QStringLiteral("A10"),   QStringLiteral("L4"),   QStringLiteral("L40S"),
                    QStringLiteral("P4"),    QStringLiteral("K80"),  QStringLiteral("M60"),
                    QStringLiteral("P4000"), QStringLiteral("A4000")};
                if (pcieOnly.contains(o.gpuRawName))
                    o.interconnect = QStringLiteral("PCIe");
            }
            data.offers.append(std::move(o));
        }
    }
    if (zeroPrice)
        data.warnings.append(QStringLiteral("Price is zero or negative on %1 rows, skipped (%2)")
                                 .arg(zeroPrice)
                                 .arg(zeroExamples.join(QStringLiteral(", "))));
    if (skippedNoPrice)
        data.warnings.append(
            QStringLiteral("%1 rows without an on-demand price skipped").arg(skippedNoPrice));
    if (skippedNoRegion)
        data.warnings.append(QStringLiteral("%1 rows without a region skipped").arg(skippedNoRegion));
    if (skippedCpu)
        data.warnings.append(QStringLiteral("%1 rows without an accelerator skipped").arg(skippedCpu));
    if (skippedTpu && provider != u"gcp")
        data.warnings.append(QStringLiteral("%1 TPU rows skipped").arg(skippedTpu));
    if (fixedCount)
        data.warnings.append(
            QStringLiteral(
                "%1 rows had a GPU count that differs from the project's VM-size table (table used)")
                .arg(fixedCount));
    if (spotEqual)
        data.warnings.append(
            QStringLiteral("%1 spot prices equal to on-demand dropped (a known data error)").arg(spotEqual));
    if (promo)
        data.warnings.append(
            QStringLiteral("%1 *_Promo rows skipped (expired promotional prices)").arg(promo));
    if (spotZero)
        data.warnings.append(QStringLiteral("%1 SpotPrice 0.00 values dropped (not a price)").arg(spotZero));
    return data;
}

} // namespace gf

#include "projection/projection.h"

#include "domain/gpucatalog.h"
#include "domain/proberesult.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>

namespace gf {

QJsonObject calibrationToJson(const Calibration &c)
{
    QJsonObject eff;
    for (int i = 0; i < kPrecisionCount; ++i)
        eff.insert(precisionName(static_cast<Precision>(i)),
                   c.computeEfficiency[static_cast<std::size_t>(i)]);
    QJsonObject o;
    o.insert(u"source", c.source);
    o.insert(u"measured", c.measured);
    o.insert(u"probed_gpu",
             c.probedGpuId.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(c.probedGpuId));
    o.insert(u"compute_efficiency", eff);
    o.insert(u"memory_efficiency", c.memoryEfficiency);
    o.insert(u"notes", QJsonArray::fromStringList(c.notes));
    return o;
}

Calibration defaultCalibration()
{
    Calibration c;
    c.source = QStringLiteral("datasheet-only defaults (no probe)");
    return c;
}

Calibration calibrationFromProbe(const ProbeResult &probe, const GpuSpecTable &specs, const GpuCatalog &gpus)
{
    Calibration c = defaultCalibration();
    const QString when =
        probe.createdAt.isValid() ? probe.createdAt.toString(Qt::ISODate) : QStringLiteral("unknown date");
    if (probe.kind != u"cuda") {
        c.source =
            QStringLiteral("datasheet-only defaults (the probe ran on a CPU: %1, %2)")
                .arg(probe.deviceName.isEmpty() ? QStringLiteral("unknown CPU") : probe.deviceName, when);
        c.notes.append(QStringLiteral("datasheet-only: a CPU probe cannot calibrate GPU efficiencies"));
        return c;
    }
    const auto id = gpus.resolve(QString(), probe.deviceName);
    if (!id) {
        c.source = QStringLiteral("datasheet-only defaults (probed GPU \"%1\" is not in the GPU table)")
                       .arg(probe.deviceName);
        c.notes.append(
            QStringLiteral("datasheet-only: the probed GPU \"%1\" does not resolve to a known GPU model")
                .arg(probe.deviceName));
        return c;
    }
    const GpuSpec *spec = specs.spec(*id);
    if (!spec) {
        c.source = QStringLiteral("datasheet-only defaults (GPU %1 has no spec row)").arg(*id);
        c.notes.append(
            QStringLiteral("datasheet-only: GPU %1 has no datasheet figures to compare with").arg(*id));
        return c;
    }
    c.probedGpuId = *id;

    auto ratio = [&](const QString &what, std::optional<double> measured, double datasheet, double fallback,
                     double *out) {
        if (!measured || !std::isfinite(*measured) || *measured <= 0) {
            c.notes.append(
                QStringLiteral("%1: not measured, default %2").arg(what, QString::number(fallback)));
            return;
        }
        if (datasheet <= 0) {
            c.notes.append(QStringLiteral("%1: no datasheet figure for %2, default %3")
                               .arg(what, *id, QString::number(fallback)));
            return;
        }
        const double r = *measured / datasheet;
        const double clamped = std::clamp(r, kMinEfficiency, kMaxEfficiency);
        if (clamped != r)
            c.notes.append(QStringLiteral("%1: measured/datasheet = %2, clamped to %3")
                               .arg(what, QString::number(r, 'f', 3), QString::number(clamped, 'f', 3)));
        else
            c.notes.append(QStringLiteral("%1: %2 of %3 = %4")
                               .arg(what, QString::number(*measured, 'g', 4),
                                    QString::number(datasheet, 'g', 4), QString::number(r, 'f', 3)));
        *out = clamped;
        c.measured = true;
    };
    const std::array<std::optional<double>, kPrecisionCount> measured{
        probe.fp32Tflops, probe.tf32Tflops, probe.fp16Tflops, probe.bf16Tflops, probe.fp8Tflops};
    auto usable = [](std::optional<double> v) { return v && std::isfinite(*v) && *v > 0; };
    for (int i = 0; i < kPrecisionCount; ++i) {
        const auto p = static_cast<Precision>(i);
        const auto k = static_cast<std::size_t>(i);
        ratio(precisionName(p) + QStringLiteral(" TFLOP/s"), measured[k], spec->peak(p),
              kDefaultComputeEfficiency[k], &c.computeEfficiency[k]);
        if (usable(measured[k]) && spec->peak(p) > 0)
            c.measuredTflops[k] = *measured[k];
    }
    ratio(QStringLiteral("memory GB/s"), probe.memBandwidthGbs, spec->memBandwidthGbs,
          kDefaultMemoryEfficiency, &c.memoryEfficiency);
    if (usable(probe.memBandwidthGbs) && spec->memBandwidthGbs > 0)
        c.measuredMemBandwidthGbs = *probe.memBandwidthGbs;
    if (c.measured)
        c.source = QStringLiteral("probe of %1 (%2), %3").arg(probe.deviceName, *id, when);
    else
        c.source = QStringLiteral("datasheet-only defaults (the probe of %1 measured nothing usable)")
                       .arg(probe.deviceName);
    return c;
}

GpuThroughput rooflineThroughput(const GpuSpec &gpu, double flops, double bytes, Precision precision,
                                 const Calibration &cal)
{
    GpuThroughput t;
    const auto used = gpu.effectivePrecision(precision);
    if (!used || !(flops >= 0) || !(bytes >= 0) || (flops == 0 && bytes == 0))
        return t;
    t.precisionUsed = *used;
    t.precisionFallback = *used != precision;
    const double peak = gpu.peak(*used) * 1e12 * cal.compute(*used);
    const double bw = gpu.memBandwidthGbs * 1e9 * cal.memoryEfficiency;
    if (!(peak > 0) || (bytes > 0 && !(bw > 0)))
        return t;
    t.computeSPerSample = flops / peak;
    t.memorySPerSample = bytes > 0 ? bytes / bw : 0.0;
    const double s = std::max(t.computeSPerSample, t.memorySPerSample);
    if (!(s > 0) || !std::isfinite(s))
        return t;
    t.computeBound = t.computeSPerSample >= t.memorySPerSample;
    t.samplesPerS = 1.0 / s;
    t.ok = std::isfinite(t.samplesPerS);
    return t;
}

double pcieGbsPerDirection(int gen)
{
    switch (gen) {
    case 1:
        return 4;
    case 2:
        return 8;
    case 4:
        return 32;
    case 5:
        return 64;
    case 6:
        return 128;
    case 7:
        return 256;
    default:
        return 16; // gen3, and unknown
    }
}

double nvlinkEffectiveGBps(const GpuSpec &gpu)
{
    return gpu.interconnectGbs > 0 ? gpu.interconnectGbs / 2.0 * kNvlinkEfficiency : pcieEffectiveGBps(gpu);
}

double pcieEffectiveGBps(const GpuSpec &gpu)
{
    return pcieGbsPerDirection(gpu.pcieGen) * kPcieEfficiency;
}

double networkEffectiveGBps(double gbps)
{
    return gbps > 0 && std::isfinite(gbps) ? gbps / 8.0 * kNetworkEfficiency : 0.0;
}

} // namespace gf

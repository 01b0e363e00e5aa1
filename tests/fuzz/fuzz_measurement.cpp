// libFuzzer target: measurement documents coming back from launch plans (gf_measure.py JSON or a job log),
// with absurd figures. Whatever is read must be a finite positive speed within the reader's limit, and a
// measurement the plausibility bounds let through may move another GPU's projection by at most their
// factor (PROJECTION.md 3.3): an absurd figure never reaches the transfer.
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "fuzzsupport.h"
#include "launch/measurementcompare.h"
#include "launch/measurementjson.h"
#include "projection/speedmodel.h"

#include <cmath>

namespace {

/// Another GPU's single-GPU speed of `w`, with and without `extra`.
void checkTransfer(const gf::Workload &w, const gf::ThroughputMeasurements &extra)
{
    const gf::SpeedModel &model = gf::SpeedModel::builtin();
    const gf::GpuSpecTable &specs = gf::GpuSpecTable::builtin();
    const gf::WorkloadAnchors without = model.anchorsFor(w, {}, specs);
    const gf::WorkloadAnchors with = model.anchorsFor(w, extra, specs);
    for (const char *id : {"l4", "a100-80gb-sxm4", "t4"}) {
        const gf::GpuSpec *spec = specs.spec(QString::fromLatin1(id));
        if (!spec)
            continue;
        const gf::SingleGpuSpeed a = model.project(*spec, w, without, gf::defaultCalibration());
        const gf::SingleGpuSpeed b = model.project(*spec, w, with, gf::defaultCalibration());
        if (!a.ok)
            continue;
        if (!b.ok || !std::isfinite(b.samplesPerS))
            __builtin_trap();
        const double ratio = b.samplesPerS / a.samplesPerS;
        const double bound = gf::SpeedModel::kImplausibleFactor * 1.0001;
        if (!(ratio <= bound && ratio >= 1.0 / bound))
            __builtin_trap();
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    auto r = gf::parseMeasurementFile(bytes, QStringLiteral("fuzz.json"), gf::GpuCatalog::builtin());
    if (!r)
        return 0;
    for (const gf::MeasurementDocument &d : r.value()) {
        const double v = d.measurement.samplesPerSPerGpu;
        if (!(v > 0) || !std::isfinite(v) || v > gf::kMaxMeasuredSamplesPerS)
            __builtin_trap();
        const gf::Workload *w = gf::findWorkload(gf::builtinWorkloads(), d.measurement.workloadId);
        if (!w)
            continue;
        // Compared with the model (the measure listing) and, through the store's rule, projected.
        (void)gf::compareMeasurements({d.measurement}, gf::builtinWorkloads(), gf::defaultCalibration());
        (void)gf::measurementImplausibility(d.measurement, gf::builtinWorkloads());
        checkTransfer(*w, {d.measurement});
    }
    return 0;
}

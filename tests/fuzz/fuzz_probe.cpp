// libFuzzer target: probe run documents (gpufrontier-probe / gpufrontier-cpuprobe JSON, `probe --import`),
// with absurd figures. A document read must carry only finite, non-negative figures, and the calibration
// made from it must be usable: factors finite and inside the clamp PROJECTION.md section 2 gives.
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "fuzzsupport.h"
#include "probe/probejson.h"
#include "projection/projection.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size));
    auto r = gf::parseProbeJson(bytes);
    if (!r)
        return 0;
    const gf::ProbeResult &p = r.value();
    if (!std::isfinite(p.elapsedS) || p.elapsedS < 0)
        __builtin_trap();
    for (const std::optional<double> &v :
         {p.fp32Tflops, p.tf32Tflops, p.fp16Tflops, p.bf16Tflops, p.fp8Tflops, p.fp64Tflops,
          p.memBandwidthGbs, p.h2dGbs, p.d2hGbs, p.launchOverheadUs})
        if (v && (!std::isfinite(*v) || *v < 0))
            __builtin_trap();
    const gf::Calibration c =
        gf::calibrationFromProbe(p, gf::GpuSpecTable::builtin(), gf::GpuCatalog::builtin());
    auto inClamp = [](double e) { return e >= gf::kMinEfficiency && e <= gf::kMaxEfficiency; };
    for (const double e : c.computeEfficiency)
        if (!inClamp(e))
            __builtin_trap();
    if (!inClamp(c.memoryEfficiency) || !std::isfinite(c.measuredMemBandwidthGbs) ||
        c.measuredMemBandwidthGbs < 0)
        __builtin_trap();
    for (const double t : c.measuredTflops)
        if (!std::isfinite(t) || t < 0)
            __builtin_trap();
    if (gf::calibrationToJson(c).isEmpty())
        __builtin_trap();
    return 0;
}

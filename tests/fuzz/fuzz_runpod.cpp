// libFuzzer target: RunPod GraphQL answers (gpuTypes with lowestPrice per GPU count).
#include "fuzzsupport.h"
#include "providers/runpodgraphql.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    auto r = gf::parseRunpodGpuTypes(
        QByteArrayView(reinterpret_cast<const char *>(data), static_cast<qsizetype>(size)),
        QStringLiteral("fuzz"));
    if (r)
        for (const gf::Offer &o : r.value().data.offers)
            if (!o.onDemandUsdH || !(*o.onDemandUsdH > 0) || !(o.gpuCount >= 1))
                __builtin_trap();
    return 0;
}

#include "store/proberecord.h"

#include "domain/gpucatalog.h"

namespace gf {

ProbeRunRecord makeProbeRunRecord(const ProbeResult &r, const QString &origin, const QByteArray &json)
{
    ProbeRunRecord rec;
    rec.createdAt = r.createdAt;
    rec.origin = origin;
    rec.kind = r.kind;
    rec.deviceName = r.deviceName;
    if (r.kind == u"cuda") {
        if (const auto id = GpuCatalog::builtin().resolve({}, r.deviceName))
            rec.gpuId = *id;
    }
    rec.schemaVersion = r.schemaVersion;
    rec.json = json.trimmed();
    return rec;
}

} // namespace gf

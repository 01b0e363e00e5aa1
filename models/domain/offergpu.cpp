#include "domain/offergpu.h"

#include "domain/gpucatalog.h"
#include "domain/providertables.h"

#include <cmath>

namespace gf {

namespace {

bool memoryMatches(double offerGb, double rowGb)
{
    return std::abs(offerGb - rowGb) <= kMemoryTolerance * rowGb;
}

/// Step 3 of the rule: another row of the same family when the offer's memory does not match.
QString tieBreak(const GpuCatalog &gpus, const Offer &o, const GpuModel &r, bool *differs)
{
    *differs = false;
    if (!o.gpuMemGb || !(*o.gpuMemGb > 0) || memoryMatches(*o.gpuMemGb, r.memoryGb))
        return r.id;
    QList<const GpuModel *> candidates;
    for (const GpuModel *c : gpus.family(r.family))
        if (memoryMatches(*o.gpuMemGb, c->memoryGb))
            candidates.append(c);
    if (candidates.size() == 1)
        return candidates.first()->id;
    if (candidates.size() > 1) {
        const GpuModel *sameForm = nullptr;
        int sameForms = 0;
        for (const GpuModel *c : std::as_const(candidates))
            if (c->formFactor == r.formFactor) {
                sameForm = c;
                ++sameForms;
            }
        if (sameForms == 1)
            return sameForm->id;
        if (const auto def = gpus.resolve(QString(), o.gpuRawName))
            for (const GpuModel *c : std::as_const(candidates))
                if (c->id == *def)
                    return c->id;
    }
    *differs = true;
    return r.id;
}

} // namespace

bool isGpuFabric(QStringView ic)
{
    return ic.startsWith(u"NVLink", Qt::CaseInsensitive) || ic.startsWith(u"NVSwitch", Qt::CaseInsensitive) ||
           ic.startsWith(u"Infinity Fabric", Qt::CaseInsensitive);
}

OfferGpu resolveOfferGpu(const Offer &o, const GpuCatalog &gpus, const ProviderTables &tables)
{
    OfferGpu out;
    if (const MachineShape *m = tables.machine(o.provider, o.instanceType);
        m && !m->gpuId.isEmpty() && gpus.model(m->gpuId)) {
        const GpuModel *model = gpus.model(m->gpuId);
        out.id = m->gpuId;
        out.viaTable = true;
        out.gpuCount = m->gpuCount;
        out.memGb =
            o.gpuMemGb ? o.gpuMemGb : (m->gpuMemGb ? m->gpuMemGb : std::optional<double>(model->memoryGb));
        out.interconnect = m->interconnect.isEmpty() ? o.interconnect : m->interconnect;
        return out;
    }
    out.gpuCount = o.gpuCount;
    out.memGb = o.gpuMemGb;
    out.interconnect = o.interconnect;
    // An AWS size the instance table does not list yet: its family's GPU (the count is the offer's).
    if (const MachineShape *f = o.provider == u"aws" ? tables.awsFamily(o.instanceType) : nullptr;
        f && !f->gpuId.isEmpty() && gpus.model(f->gpuId)) {
        out.id = f->gpuId;
        if (!out.memGb)
            out.memGb = f->gpuMemGb ? f->gpuMemGb : std::optional<double>(gpus.model(f->gpuId)->memoryGb);
        if (out.interconnect.isEmpty() && out.gpuCount >= 2)
            out.interconnect = f->interconnect;
        return out;
    }
    const auto named = gpus.resolve(o.provider, o.gpuRawName);
    const GpuModel *r = named ? gpus.model(*named) : nullptr;
    if (!r)
        return out;
    const QString id = tieBreak(gpus, o, *r, &out.memoryDiffers);
    const GpuModel *chosen = gpus.model(id);
    out.id = id;
    if (!out.memGb)
        out.memGb = chosen->memoryGb;
    static const QStringList fabricForms{QStringLiteral("SXM"), QStringLiteral("OAM"),
                                         QStringLiteral("Superchip")};
    if (out.gpuCount >= 2 && out.interconnect.isEmpty()) {
        for (const QString &f : fabricForms)
            if (chosen->formFactor.startsWith(f))
                out.interconnect = QStringLiteral("NVLink");
    }
    return out;
}

} // namespace gf

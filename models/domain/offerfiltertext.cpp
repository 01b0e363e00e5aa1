#include "domain/offerfiltertext.h"

#include "domain/provider.h"
#include "util/format.h"

#include <QStringList>

namespace gf {

QString describeFilter(const OfferFilter &f)
{
    QStringList parts;
    if (!f.providers.isEmpty()) {
        QStringList names;
        for (const QString &p : f.providers)
            names.append(providerDisplayName(p));
        parts.append(QStringLiteral("providers %1").arg(names.join(QStringLiteral(", "))));
    }
    if (!f.gpu.isEmpty())
        parts.append(QStringLiteral("GPU matches \"%1\"").arg(f.gpu));
    if (f.minGpus)
        parts.append(QStringLiteral("at least %1 GPUs").arg(formatNumber(*f.minGpus)));
    if (f.minGpuMemGb)
        parts.append(QStringLiteral("at least %1 GB per GPU").arg(formatNumber(*f.minGpuMemGb)));
    if (f.maxPriceUsdH)
        parts.append(QStringLiteral("%1 price at most %2 USD/h")
                         .arg(f.spotOnly ? QStringLiteral("spot") : QStringLiteral("on-demand"),
                              formatUsdPerHour(*f.maxPriceUsdH)));
    if (f.spotOnly)
        parts.append(QStringLiteral("with a spot price"));
    if (!f.region.isEmpty())
        parts.append(QStringLiteral("region matches \"%1\"").arg(f.region));
    if (!f.text.isEmpty())
        parts.append(QStringLiteral("text matches \"%1\"").arg(f.text));
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral("; "));
}

} // namespace gf

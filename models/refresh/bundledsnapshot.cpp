#include "refresh/bundledsnapshot.h"

#include "providers/snapshotfile.h"
#include "store/catalogstore.h"
#include "util/resourcefiles.h"

namespace gf {

Result<int> importBundledIfEmpty(CatalogStore &store, const GpuCatalog &gpus)
{
    auto have = store.providersWithSnapshots();
    if (!have)
        return have.error();
    int imported = 0;
    for (const QString &file : listResources(QStringLiteral("catalog"))) {
        if (!file.endsWith(QStringLiteral(".csv")))
            continue;
        const QString provider = file.chopped(4);
        if (have.value().contains(provider))
            continue;
        const QByteArray payload = readResource(QStringLiteral("catalog/") + file);
        const QString origin = QStringLiteral("bundled:") + file;
        auto parsed = parseSnapshotCsv(QString::fromUtf8(payload), origin);
        if (!parsed)
            return parsed.error();
        auto r = store.importSnapshot(std::move(parsed).value(), SourceKind::Bundled, origin, payload, gpus);
        if (!r)
            return r.error();
        ++imported;
    }
    return imported;
}

} // namespace gf

#include "refresh/bundledsnapshot.h"

#include "providers/snapshotfile.h"
#include "store/catalogstore.h"
#include "util/resourcefiles.h"

#include <QCryptographicHash>

namespace gf {

Result<int> importBundledIfEmpty(CatalogStore &store, const GpuCatalog &gpus)
{
    auto have = store.providersWithSnapshots();
    if (!have)
        return have.error();
    auto snapshots = store.snapshots();
    if (!snapshots)
        return snapshots.error();
    int imported = 0;
    for (const QString &file : listResources(QStringLiteral("catalog"))) {
        if (!file.endsWith(QStringLiteral(".csv")))
            continue;
        const QString provider = file.chopped(4);
        const QByteArray payload = readResource(QStringLiteral("catalog/") + file);
        if (have.value().contains(provider)) {
            const QString checksum =
                QString::fromLatin1(QCryptographicHash::hash(payload, QCryptographicHash::Sha256).toHex());
            bool olderBundle = false;
            for (const Snapshot &s : snapshots.value())
                if (s.provider == provider && s.current)
                    olderBundle = s.kind == SourceKind::Bundled && s.checksum != checksum;
            if (!olderBundle)
                continue;
        }
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

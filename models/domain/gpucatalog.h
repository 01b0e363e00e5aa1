#pragma once

#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// One real GPU variant (A100 40GB SXM4 and A100 80GB PCIe are different models).
struct GpuModel
{
    QString id; ///< stable slug, e.g. a100-80gb-sxm4
    QString vendor;
    QString name; ///< display name
    double memoryGb = 0;
    QString formFactor;
    QString family; ///< rows a provider may label with the same bare name (memory tie-break); else the id
    QString capacityClass; ///< "flagship" or "standard": selects the spot interruption default
    QStringList aliases;   ///< provider spellings; "provider:alias" applies to that provider only
};

/// The canonical GPU list with the aliases each provider uses.
/// Names that match nothing stay unrecognised: never guessed.
class GpuCatalog
{
public:
    GpuCatalog() = default;

    /// Parses resources/gpus.csv (columns id,vendor,name,memory_gb,form_factor,family,capacity_class,aliases;
    /// family and capacity_class are optional: the id and "standard" when absent).
    static Result<GpuCatalog> fromCsv(const QString &text);
    /// The list shipped inside the application.
    static const GpuCatalog &builtin();

    /// Lower case, runs of spaces, '-' and '_' collapsed to one space, trimmed.
    static QString normalise(QStringView name);

    /// Canonical id for a provider's GPU name, provider-qualified aliases first.
    std::optional<QString> resolve(const QString &provider, const QString &rawName) const;
    const GpuModel *model(const QString &id) const;
    const QList<GpuModel> &models() const { return m_models; }
    /// The rows of one family (resources/GPUS.md), in file order; empty when unknown.
    QList<const GpuModel *> family(const QString &family) const;

    static bool knownProvider(const QString &name);

private:
    QList<GpuModel> m_models;
    QHash<QString, qsizetype> m_byId;
    QHash<QString, QList<qsizetype>> m_byFamily;
    QHash<QString, QString> m_aliases; ///< key "provider\x1fnormalised" (provider may be empty) -> id
};

} // namespace gf

#include "domain/gpucatalog.h"

#include "domain/provider.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

namespace gf {

namespace {
QString aliasKey(const QString &provider, const QString &normalised)
{
    return provider + QChar(0x1f) + normalised;
}
} // namespace

QString GpuCatalog::normalise(QStringView name)
{
    QString out;
    out.reserve(name.size());
    bool pendingSpace = false;
    for (QChar c : name) {
        if (c.isSpace() || c == u'-' || c == u'_') {
            pendingSpace = !out.isEmpty();
            continue;
        }
        if (pendingSpace) {
            out.append(u' ');
            pendingSpace = false;
        }
        out.append(c.toLower());
    }
    return out;
}

Result<GpuCatalog> GpuCatalog::fromCsv(const QString &text)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("GPU table: %1").arg(parsed.error().message));
    const CsvDocument &doc = parsed.value();
    const int cId = doc.column(QStringLiteral("id"));
    const int cVendor = doc.column(QStringLiteral("vendor"));
    const int cName = doc.column(QStringLiteral("name"));
    const int cMem = doc.column(QStringLiteral("memory_gb"));
    const int cForm = doc.column(QStringLiteral("form_factor"));
    const int cAliases = doc.column(QStringLiteral("aliases"));
    const int cFamily = doc.column(QStringLiteral("family"));
    const int cClass = doc.column(QStringLiteral("capacity_class"));
    if (cId < 0 || cName < 0 || cAliases < 0)
        return makeError(QStringLiteral("GPU table: the header must have id, name and aliases columns"));

    GpuCatalog cat;
    for (const CsvRecord &rec : doc.records) {
        auto field = [&](int c) {
            return c >= 0 && c < rec.fields.size() ? rec.fields.at(c).trimmed() : QString();
        };
        GpuModel m;
        m.id = field(cId);
        m.vendor = field(cVendor);
        m.name = field(cName);
        m.memoryGb = field(cMem).toDouble();
        m.formFactor = field(cForm);
        if (m.id.isEmpty())
            return makeError(QStringLiteral("GPU table line %1: empty id").arg(rec.line));
        m.family = field(cFamily);
        if (m.family.isEmpty())
            m.family = m.id;
        m.capacityClass = cClass >= 0 ? field(cClass) : QStringLiteral("standard");
        if (m.capacityClass != u"flagship" && m.capacityClass != u"standard")
            return makeError(
                QStringLiteral("GPU table line %1: capacity_class \"%2\" is not flagship or standard")
                    .arg(rec.line)
                    .arg(m.capacityClass));
        if (cat.m_byId.contains(m.id))
            return makeError(QStringLiteral("GPU table line %1: duplicate id %2").arg(rec.line).arg(m.id));
        const QStringList aliases = field(cAliases).split(u'|', Qt::SkipEmptyParts);
        QStringList all = aliases;
        all << m.id << m.name;
        for (const QString &raw : std::as_const(all)) {
            QString provider;
            QString alias = raw.trimmed();
            const qsizetype colon = alias.indexOf(u':');
            if (colon > 0 && knownProvider(alias.left(colon))) {
                provider = alias.left(colon);
                alias = alias.mid(colon + 1);
            }
            const QString key = aliasKey(provider, normalise(alias));
            auto it = cat.m_aliases.constFind(key);
            if (it != cat.m_aliases.constEnd() && *it != m.id)
                return makeError(QStringLiteral("GPU table line %1: alias \"%2\" already maps to %3")
                                     .arg(rec.line)
                                     .arg(raw, *it));
            cat.m_aliases.insert(key, m.id);
        }
        m.aliases = aliases;
        cat.m_byFamily[m.family].append(cat.m_models.size());
        cat.m_byId.insert(m.id, cat.m_models.size());
        cat.m_models.append(m);
    }
    return cat;
}

bool GpuCatalog::knownProvider(const QString &name)
{
    return providerInfo(name) != nullptr;
}

const GpuCatalog &GpuCatalog::builtin()
{
    static const GpuCatalog cat = [] {
        auto r = fromCsv(readResourceText(QStringLiteral("gpus.csv")));
        if (!r)
            qFatal("The built-in GPU table is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return cat;
}

std::optional<QString> GpuCatalog::resolve(const QString &provider, const QString &rawName) const
{
    const QString norm = normalise(rawName);
    if (norm.isEmpty())
        return std::nullopt;
    auto it = m_aliases.constFind(aliasKey(provider, norm));
    if (it == m_aliases.constEnd())
        it = m_aliases.constFind(aliasKey(QString(), norm));
    if (it == m_aliases.constEnd())
        return std::nullopt;
    return *it;
}

const GpuModel *GpuCatalog::model(const QString &id) const
{
    auto it = m_byId.constFind(id);
    return it == m_byId.constEnd() ? nullptr : &m_models.at(*it);
}

QList<const GpuModel *> GpuCatalog::family(const QString &family) const
{
    QList<const GpuModel *> out;
    for (qsizetype i : m_byFamily.value(family))
        out.append(&m_models.at(i));
    return out;
}

} // namespace gf

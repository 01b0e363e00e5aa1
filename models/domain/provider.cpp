#include "domain/provider.h"

#include <algorithm>

namespace gf {

const QList<ProviderInfo> &providers()
{
    static const QList<ProviderInfo> list{
        {QStringLiteral("aws"), QStringLiteral("AWS"), 0xe8890c},
        {QStringLiteral("gcp"), QStringLiteral("Google Cloud"), 0x3b78e7},
        {QStringLiteral("azure"), QStringLiteral("Azure"), 0x00a3a3},
        {QStringLiteral("paperspace"), QStringLiteral("Paperspace"), 0x8e44ad},
        {QStringLiteral("vastai"), QStringLiteral("vast.ai"), 0xd6336c},
    };
    return list;
}

QStringList knownProviders()
{
    QStringList ids;
    for (const ProviderInfo &p : providers())
        ids.append(p.id);
    return ids;
}

namespace {

const ProviderInfo *find(const QString &id)
{
    const auto &list = providers();
    const auto it = std::find_if(list.begin(), list.end(), [&](const ProviderInfo &p) { return p.id == id; });
    return it == list.end() ? nullptr : &*it;
}

} // namespace

QString providerDisplayName(const QString &provider)
{
    const ProviderInfo *p = find(provider);
    return p ? p->displayName : provider;
}

quint32 providerColourRgb(const QString &provider)
{
    const ProviderInfo *p = find(provider);
    return p ? p->colourRgb : kOtherProviderColourRgb;
}

} // namespace gf

#include "domain/provider.h"

#include <algorithm>

namespace gf {

const QList<ProviderInfo> &providers()
{
    static const QList<ProviderInfo> list{
        {ProviderKind::Aws, QStringLiteral("aws"), QStringLiteral("AWS"), 0xe8890c, QStringLiteral("aws")},
        {ProviderKind::Gcp, QStringLiteral("gcp"), QStringLiteral("Google Cloud"), 0x3b78e7,
         QStringLiteral("gcp")},
        {ProviderKind::Azure, QStringLiteral("azure"), QStringLiteral("Azure"), 0x00a3a3,
         QStringLiteral("azure")},
        {ProviderKind::Paperspace, QStringLiteral("paperspace"), QStringLiteral("Paperspace"), 0x8e44ad,
         QStringLiteral("paperspace")},
        {ProviderKind::Vastai, QStringLiteral("vastai"), QStringLiteral("vast.ai"), 0xd6336c,
         QStringLiteral("vast")},
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

const ProviderInfo *providerInfo(QStringView id)
{
    const auto &list = providers();
    const auto it = std::find_if(list.begin(), list.end(), [&](const ProviderInfo &p) { return p.id == id; });
    return it == list.end() ? nullptr : &*it;
}

ProviderKind providerKind(QStringView provider)
{
    const ProviderInfo *p = providerInfo(provider);
    return p ? p->kind : ProviderKind::Other;
}

QString providerDisplayName(const QString &provider)
{
    const ProviderInfo *p = providerInfo(provider);
    return p ? p->displayName : provider;
}

quint32 providerColourRgb(const QString &provider)
{
    const ProviderInfo *p = providerInfo(provider);
    return p ? p->colourRgb : kOtherProviderColourRgb;
}

} // namespace gf

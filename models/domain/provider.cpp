#include "domain/provider.h"

#include <algorithm>

namespace gf {

namespace {

ProviderInfo own(ProviderKind kind, const char *id, const char *name, quint32 colour, const char *cloud,
                 int increment, int minimum, const char *basis, const char *spot, const char *behaviour,
                 const char *regions)
{
    return {kind,
            QString::fromUtf8(id),
            QString::fromUtf8(name),
            colour,
            QString::fromUtf8(cloud),
            LiveSource::OwnApi,
            {},
            increment,
            minimum,
            QString::fromUtf8(basis),
            QString::fromUtf8(spot),
            QString::fromUtf8(behaviour),
            QString::fromUtf8(regions),
            {}};
}

ProviderInfo sky(ProviderKind kind, const char *id, const char *name, quint32 colour, const char *cloud,
                 int increment, int minimum, const char *basis, const char *spot, const char *behaviour,
                 const char *regions)
{
    ProviderInfo p = own(kind, id, name, colour, cloud, increment, minimum, basis, spot, behaviour, regions);
    p.live = LiveSource::SkypilotCatalog;
    p.skypilotCatalog = p.skypilotCloud;
    return p;
}

/// A cloud with a keyless direct price API (read by default) that SkyPilot's catalog also covers.
ProviderInfo direct(ProviderInfo p, const char *source)
{
    p.directSource = QString::fromUtf8(source);
    return p;
}

} // namespace

const QList<ProviderInfo> &providers()
{
    // Colours: 14 hues that stay apart on a white and on a dark chart background (ui/frontierchart.cpp
    // draws spot points as squares and on-demand points as circles on top of the colour).
    static const QList<ProviderInfo> list{
        own(ProviderKind::Aws, "aws", "AWS", 0xe8890c, "aws", 1, 60, "EC2 Linux: per second, 60 s minimum",
            "spot", "EC2 Spot: reclaimed with a 2-minute notice when AWS needs the capacity back",
            "about 30 regions; on-demand priced per region, spot per availability zone"),
        own(ProviderKind::Gcp, "gcp", "Google Cloud", 0x3b78e7, "gcp", 1, 60,
            "Compute Engine: per second after a 1-minute minimum", "spot",
            "Spot VMs: preempted with a 30-second notice; the older preemptible VMs also stop after 24 h",
            "about 40 regions; machine and GPU priced separately per region"),
        own(ProviderKind::Azure, "azure", "Azure", 0x00a3a3, "azure", 60, 60,
            "per-minute metering (resources/catalog/SOURCES.md)", "spot",
            "Spot VMs: evicted with a 30-second notice when Azure needs the capacity or the price cap is hit",
            "about 60 regions; priced per region"),
        own(ProviderKind::Paperspace, "paperspace", "Paperspace", 0x8e44ad, "paperspace", 1, -1,
            "per second (Paperspace pricing page); minimum not documented", "", "no spot capacity",
            "East Coast (NY2) in the bundled table"),
        own(ProviderKind::Vastai, "vastai", "vast.ai", 0xd6336c, "vast", 1, 0, "per second, no minimum",
            "interruptible", "interruptible: outbid or displaced by an on-demand renter of the same machine",
            "a marketplace of hosts in about 40 countries"),
        sky(ProviderKind::Lambda, "lambda", "Lambda", 0x2f9e44, "lambda", 60, -1,
            "unknown, default: per minute (Lambda bills on-demand instances by the minute), minimum unknown",
            "", "no spot capacity: on-demand and reserved only",
            "17 regions (US, Europe, Asia, Middle East), "
            "one price everywhere"),
        direct(sky(ProviderKind::Runpod, "runpod", "RunPod", 0x6741d9, "runpod", 60, -1,
                   "unknown, default: per minute (RunPod bills pods by the minute), minimum unknown", "spot",
                   "spot (interruptible) pods: stopped without notice when an on-demand renter takes the GPU",
                   "about 48 data centres in about 15 countries (secure and community cloud)"),
               "RunPod GraphQL API (api.runpod.io/graphql, gpuTypes)"),
        sky(ProviderKind::Nebius, "nebius", "Nebius", 0xc5a100, "nebius", 1, -1,
            "unknown, default: per second, minimum unknown", "preemptible",
            "preemptible VMs: stopped at any time when Nebius needs the capacity",
            "eu-north1 (Finland), eu-west1 (Paris), us-central1 (Kansas City) and others"),
        sky(ProviderKind::Fluidstack, "fluidstack", "Fluidstack", 0x4dabf7, "fluidstack", 1, -1,
            "unknown, default: per second, minimum unknown", "", "no spot capacity",
            "Finland and other data centres"),
        sky(ProviderKind::Seeweb, "seeweb", "Seeweb", 0xa0522d, "seeweb", 3600, 3600,
            "unknown, default: per hour (Seeweb lists hourly prices), 1 h minimum", "", "no spot capacity",
            "Italy (it-fr2, it-mi2) and Switzerland (ch-lug1)"),
        sky(ProviderKind::Verda, "verda", "Verda (ex DataCrunch)", 0x94d82d, "verda", 600, 600,
            "unknown, default: 10-minute increments (DataCrunch's published billing)", "spot",
            "spot instances: terminated without notice when Verda needs the capacity",
            "Finland (FIN-01..03) and Iceland (ICE-01)"),
        sky(ProviderKind::Hyperbolic, "hyperbolic", "Hyperbolic", 0xf783ac, "hyperbolic", 60, -1,
            "unknown, default: per minute, minimum unknown", "", "no spot capacity in SkyPilot's catalog",
            "one region (\"default\")"),
        direct(
            sky(ProviderKind::Oci, "oci", "Oracle Cloud", 0xc92a2a, "oci", 1, 60,
                "unknown, default: per second with a 1-minute minimum (OCI's published compute billing, not "
                "in provider-sources.md)",
                "preemptible",
                "preemptible instances at 50 % of the pay-as-you-go price: terminated when Oracle needs the "
                "capacity",
                "about 40 regions, one price everywhere"),
            "Oracle Cloud price list (cloud estimator shapes.json + products.json)"),
        sky(ProviderKind::Cudo, "cudo", "Cudo Compute", 0xb197fc, "cudo", 1, -1,
            "unknown, default: per second, minimum unknown", "", "no spot capacity in SkyPilot's catalog",
            "about 12 data centres (Canada, US, Europe, Asia)"),
    };
    return list;
}

QList<const ProviderInfo *> skypilotCatalogProviders()
{
    QList<const ProviderInfo *> out;
    for (const ProviderInfo &p : providers())
        if (p.live == LiveSource::SkypilotCatalog)
            out.append(&p);
    return out;
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

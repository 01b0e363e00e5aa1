#pragma once

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>

namespace gf {

/// The providers as a type (array indexes, switches), in the order of providers(); Other for any id that
/// is not one of them.
enum class ProviderKind : quint8
{
    Aws,
    Gcp,
    Azure,
    Paperspace,
    Vastai,
    Lambda,
    Runpod,
    Nebius,
    Fluidstack,
    Seeweb,
    Verda,
    Hyperbolic,
    Oci,
    Cudo,
    Other
};
inline constexpr int kProviderKindCount = 15;

/// Where a provider's live prices come from.
enum class LiveSource : quint8
{
    OwnApi,          ///< a PriceSource of its own (AWS, Azure, Google Cloud, vast.ai, Paperspace's table)
    SkypilotCatalog, ///< SkyPilot's hosted catalog (catalogs/v9..v7/<skypilotCatalog>/vms.csv)
};

/// A provider GPU Frontier knows: the one list every part of the application uses.
struct ProviderInfo
{
    ProviderKind kind;
    QString id;            ///< "aws", as stored in the catalog and written in JSON and CSV
    QString displayName;   ///< "AWS", "Google Cloud", ...
    quint32 colourRgb;     ///< 0xRRGGBB: its colour in the chart, the reports and the legends
    QString skypilotCloud; ///< the cloud's name in a SkyPilot task ("vast" for vast.ai)
    LiveSource live = LiveSource::OwnApi;
    /// Folder of the cloud in SkyPilot's hosted catalog (catalogs/<schema>/<folder>/vms.csv).
    QString skypilotCatalog;
    int billingIncrementS = 1; ///< billing increment in seconds; 0 when unknown
    int billingMinimumS = -1;  ///< minimum billed seconds; -1 when unknown
    QString billingBasis;      ///< where the billing figures come from, or "unknown, default ..."
    QString spotLabel;         ///< what its interruptible capacity is called ("spot", ...); empty: none sold
    QString spotBehaviour;     ///< how that capacity behaves (one sentence), or why there is none
    QString regions;           ///< where it sells GPUs, in words
    /// A keyless API of the provider's own that a refresh reads by default ("RunPod GraphQL API"), SkyPilot's
    /// catalog (skypilotCatalog) being the alternative; empty when there is none.
    QString directSource;
};

/// The providers, in the order tables, legends and refreshes use.
const QList<ProviderInfo> &providers();

/// The providers whose live source is SkyPilot's hosted catalog, in order.
QList<const ProviderInfo *> skypilotCatalogProviders();

/// The provider ids, in order.
QStringList knownProviders();

/// Exact match on the provider ids ("aws", ...); Other for anything else.
ProviderKind providerKind(QStringView provider);
/// The provider of an id, nullptr when unknown.
const ProviderInfo *providerInfo(QStringView provider);

/// "AWS", "Google Cloud", ...; an unknown id is returned as it is.
QString providerDisplayName(const QString &provider);

/// The provider's colour (0xRRGGBB); grey for an unknown id.
quint32 providerColourRgb(const QString &provider);

/// The colour of points whose provider is not one of providers().
inline constexpr quint32 kOtherProviderColourRgb = 0x777777;

} // namespace gf

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
    Other
};
inline constexpr int kProviderKindCount = 6;

/// A provider GPU Frontier knows: the one list every part of the application uses.
struct ProviderInfo
{
    ProviderKind kind;
    QString id;            ///< "aws", as stored in the catalog and written in JSON and CSV
    QString displayName;   ///< "AWS", "Google Cloud", ...
    quint32 colourRgb;     ///< 0xRRGGBB: its colour in the chart, the reports and the legends
    QString skypilotCloud; ///< the cloud's name in a SkyPilot task ("vast" for vast.ai)
};

/// The providers, in the order tables, legends and refreshes use.
const QList<ProviderInfo> &providers();

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

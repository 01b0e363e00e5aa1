#pragma once

#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// A provider GPU Frontier knows: the one list every part of the application uses.
struct ProviderInfo
{
    QString id;          ///< "aws", as stored in the catalog and written in JSON and CSV
    QString displayName; ///< "AWS", "Google Cloud", ...
    quint32 colourRgb;   ///< 0xRRGGBB: its colour in the chart, the reports and the legends
};

/// The providers, in the order tables, legends and refreshes use.
const QList<ProviderInfo> &providers();

/// The provider ids, in order.
QStringList knownProviders();

/// "AWS", "Google Cloud", ...; an unknown id is returned as it is.
QString providerDisplayName(const QString &provider);

/// The provider's colour (0xRRGGBB); grey for an unknown id.
quint32 providerColourRgb(const QString &provider);

/// The colour of points whose provider is not one of providers().
inline constexpr quint32 kOtherProviderColourRgb = 0x777777;

} // namespace gf

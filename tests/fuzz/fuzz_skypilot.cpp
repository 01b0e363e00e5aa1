// libFuzzer target: SkyPilot vms.csv (per provider), its GpuInfo Python literals, and format detection.
#include "domain/provider.h"
#include "fuzzsupport.h"
#include "providers/providerimport.h"
#include "providers/skypilotcatalog.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    const QStringList providers = gf::knownProviders(); // every provider, the SkyPilot-read clouds too
    const QString provider = providers.at(data[0] % providers.size());
    const QByteArrayView rest(reinterpret_cast<const char *>(data) + 1, static_cast<qsizetype>(size - 1));
    const QString text = QString::fromUtf8(rest);
    (void)gf::parseSkypilotCsv(text, provider, gf::fuzz::tables(), QStringLiteral("fuzz"));
    (void)gf::parsePythonLiteral(text);
    (void)gf::detectProviderFormat(rest);
    return 0;
}

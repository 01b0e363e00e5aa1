#include "providers/runpodgraphql.h"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "util/jsondocument.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <optional>

namespace gf {

namespace {

double round4(double v)
{
    return std::round(v * 10000) / 10000;
}

} // namespace

QList<int> runpodGpuCounts()
{
    return {1, 2, 3, 4, 5, 6, 7, 8};
}

QByteArray runpodGpuTypesQuery()
{
    QString q =
        QStringLiteral("query GpuTypes { gpuTypes { id displayName memoryInGb securePrice communityPrice "
                       "secureSpotPrice communitySpotPrice");
    for (int n : runpodGpuCounts())
        q += QStringLiteral(" gpuCount%1: lowestPrice(input: {gpuCount: %1}) { uninterruptablePrice "
                            "minimumBidPrice minVcpu minMemory stockStatus }")
                 .arg(n);
    q += QStringLiteral(" } }");
    return QJsonDocument(QJsonObject{{QStringLiteral("query"), q}}).toJson(QJsonDocument::Compact);
}

Result<RunpodAnswer> parseRunpodGpuTypes(QByteArrayView data, const QString &origin)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonObject root = parsed.value().object();
    const QJsonValue types = root.value(QStringLiteral("data")).toObject().value(QStringLiteral("gpuTypes"));
    if (!types.isArray()) {
        // GraphQL reports a refused query as {"errors": [{"message": ...}]} (often with HTTP 200).
        const QJsonArray errors = root.value(QStringLiteral("errors")).toArray();
        if (!errors.isEmpty())
            return makeError(
                QStringLiteral("%1: the RunPod API answered with an error: %2")
                    .arg(origin, errors.first().toObject().value(QStringLiteral("message")).toString()));
        return makeError(
            QStringLiteral("%1: not a RunPod GraphQL answer (no data.gpuTypes array)").arg(origin));
    }
    const QJsonArray list = types.toArray();
    const ProviderInfo *info = providerInfo(u"runpod");
    const GpuCatalog &gpus = GpuCatalog::builtin();
    RunpodAnswer answer;
    answer.gpuTypes = static_cast<int>(list.size());
    SnapshotData &out = answer.data;
    out.provider = QStringLiteral("runpod");
    out.description = QStringLiteral("RunPod GraphQL API (gpuTypes, lowestPrice per GPU count)");
    for (qsizetype i = 0; i < list.size(); ++i) {
        auto malformed = [&](const QString &what) {
            answer.malformed.add(QStringLiteral("gpuTypes[%1]%2").arg(i).arg(what));
        };
        if (!list.at(i).isObject()) {
            malformed(QStringLiteral(" is not an object"));
            continue;
        }
        const QJsonObject t = list.at(i).toObject();
        const QJsonValue idValue = t.value(QStringLiteral("id"));
        if (!idValue.isString() || idValue.toString().trimmed().isEmpty()) {
            malformed(QStringLiteral(" has no id"));
            continue;
        }
        std::optional<double> memory, secure, community, secureSpot, communitySpot;
        const char *bad = nullptr;
        for (const auto &[name, slot] :
             {std::pair{"memoryInGb", &memory}, std::pair{"securePrice", &secure},
              std::pair{"communityPrice", &community}, std::pair{"secureSpotPrice", &secureSpot},
              std::pair{"communitySpotPrice", &communitySpot}})
            if (!bad && !optionalNumber(t, name, slot))
                bad = name;
        struct Count
        {
            int n;
            std::optional<double> price, bid, vcpu, memory;
            QString stock;
        };
        QList<Count> counts;
        for (int n : runpodGpuCounts()) {
            if (bad)
                break;
            const QJsonValue lp = t.value(QStringLiteral("gpuCount%1").arg(n));
            if (lp.isUndefined() || lp.isNull())
                continue; // not sold with this many GPUs
            if (!lp.isObject()) {
                malformed(QStringLiteral(".gpuCount%1 is not an object").arg(n));
                bad = "";
                break;
            }
            const QJsonObject o = lp.toObject();
            Count c{n, {}, {}, {}, {}, o.value(QStringLiteral("stockStatus")).toString()};
            for (const auto &[name, slot] :
                 {std::pair{"uninterruptablePrice", &c.price}, std::pair{"minimumBidPrice", &c.bid},
                  std::pair{"minVcpu", &c.vcpu}, std::pair{"minMemory", &c.memory}})
                if (!optionalNumber(o, name, slot)) {
                    malformed(
                        QStringLiteral(".gpuCount%1.%2 is not a number").arg(n).arg(QLatin1String(name)));
                    bad = "";
                    break;
                }
            if (bad)
                break;
            if (c.price && *c.price > 0)
                counts.append(c);
        }
        if (bad) {
            if (*bad)
                malformed(QStringLiteral(".%1 is not a number").arg(QLatin1String(bad)));
            continue;
        }
        const QString id = idValue.toString().trimmed();
        const QString display = t.value(QStringLiteral("displayName")).toString().trimmed();
        // The raw name the GPU list recognises: RunPod's id ("NVIDIA A100 80GB PCIe"), else its display name.
        QString raw = id;
        if (!gpus.resolve(out.provider, id) && !display.isEmpty() && gpus.resolve(out.provider, display))
            raw = display;
        QString typeName = display.isEmpty() ? id : display;
        typeName.replace(u' ', u'-');
        int offers = 0;
        for (const Count &c : std::as_const(counts)) {
            struct Cloud
            {
                const char *name;
                std::optional<double> price, spot;
            };
            for (const Cloud &cloud :
                 {Cloud{"SECURE", secure, secureSpot}, Cloud{"COMMUNITY", community, communitySpot}}) {
                if (!cloud.price || !(*cloud.price > 0))
                    continue;
                Offer x;
                x.provider = out.provider;
                x.instanceType =
                    QStringLiteral("%1x_%2_%3").arg(c.n).arg(typeName, QLatin1String(cloud.name));
                x.region =
                    cloud.name[0] == 'S' ? QStringLiteral("Secure Cloud") : QStringLiteral("Community Cloud");
                x.gpuRawName = raw;
                x.gpuCount = c.n;
                if (memory && *memory > 0)
                    x.gpuMemGb = memory;
                if (c.vcpu && *c.vcpu > 0)
                    x.vcpus = *c.vcpu * c.n;
                if (c.memory && *c.memory > 0)
                    x.ramGb = *c.memory * c.n;
                x.onDemandUsdH = round4(*cloud.price * c.n);
                if (cloud.spot && *cloud.spot > 0) {
                    x.spotUsdH = round4(*cloud.spot * c.n);
                    x.spotLabel =
                        info && !info->spotLabel.isEmpty() ? info->spotLabel : QStringLiteral("spot");
                }
                x.billingIncrementS = info && info->billingIncrementS > 0 ? info->billingIncrementS : 1;
                x.billingMinimumS = info ? std::max(0, info->billingMinimumS) : 0;
                x.source = QStringLiteral("RunPod GraphQL %1 (%2 USD/GPU-h x %3%4)")
                               .arg(id, QString::number(*cloud.price), QString::number(c.n),
                                    c.stock.isEmpty() ? QString() : QStringLiteral(", stock ") + c.stock);
                out.offers.append(std::move(x));
                ++offers;
            }
        }
        if (offers == 0)
            ++answer.notSold;
    }
    if (answer.gpuTypes > 0 && answer.malformed.count == answer.gpuTypes)
        return makeError(
            QStringLiteral("%1: every one of the %2 GPU types is malformed (first: %3): the RunPod "
                           "API's format has changed")
                .arg(origin, QString::number(answer.gpuTypes), answer.malformed.first));
    if (answer.malformed.count)
        out.warnings.append(QStringLiteral("%1 malformed GPU types skipped (first: %2)")
                                .arg(answer.malformed.count)
                                .arg(answer.malformed.first));
    if (answer.notSold)
        out.warnings.append(
            QStringLiteral("%1 GPU types without a price for any GPU count skipped").arg(answer.notSold));
    return answer;
}

} // namespace gf

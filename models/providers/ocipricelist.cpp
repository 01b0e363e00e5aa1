#include "providers/ocipricelist.h"

#include "domain/provider.h"
#include "util/jsondocument.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace gf {

namespace {

double round4(double v)
{
    return std::round(v * 10000) / 10000;
}

/// The "value" of a {"value": "..."} field (Oracle's type and sub_type), or the string itself.
QString typeValue(const QJsonValue &v)
{
    return (v.isObject() ? v.toObject().value(QStringLiteral("value")) : v).toString().trimmed().toLower();
}

struct Part
{
    double usd = 0;
    QString metric;
};

/// products.json: part number -> USD pay-as-you-go unit price.
Result<QHash<QString, Part>> readProducts(QByteArrayView data, const QString &origin,
                                          SkippedEntries *malformed)
{
    auto parsed = parseJsonDocument(data, origin);
    if (!parsed)
        return parsed.error();
    const QJsonValue items = parsed.value().object().value(QStringLiteral("items"));
    if (!items.isArray())
        return makeError(
            QStringLiteral("%1: not Oracle's product price list (no \"items\" array)").arg(origin));
    QHash<QString, Part> out;
    const QJsonArray list = items.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QJsonObject p = list.at(i).toObject();
        const QString part = p.value(QStringLiteral("partNumber")).toString().trimmed();
        auto bad = [&](const QString &what) {
            malformed->add(QStringLiteral("products items[%1]%2").arg(i).arg(what));
        };
        if (!list.at(i).isObject() || part.isEmpty()) {
            bad(QStringLiteral(" has no partNumber"));
            continue;
        }
        std::optional<double> usd;
        bool wrong = false;
        for (const QJsonValue &loc : p.value(QStringLiteral("currencyCodeLocalizations")).toArray()) {
            if (loc.toObject().value(QStringLiteral("currencyCode")).toString() != u"USD")
                continue;
            for (const QJsonValue &price : loc.toObject().value(QStringLiteral("prices")).toArray()) {
                const QJsonObject pr = price.toObject();
                if (pr.value(QStringLiteral("model")).toString() != u"PAY_AS_YOU_GO")
                    continue;
                const QJsonValue v = pr.value(QStringLiteral("value"));
                if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0)
                    wrong = true;
                else
                    usd = v.toDouble();
            }
        }
        if (wrong && !usd) {
            bad(QStringLiteral(" (%1): the USD pay-as-you-go value is not a number").arg(part));
            continue;
        }
        if (usd)
            out.insert(part, {*usd, p.value(QStringLiteral("metricName")).toString()});
    }
    return out;
}

} // namespace

QString ociShapeGpu(const QString &shape)
{
    static const QRegularExpression re(
        QStringLiteral("^(?:BM|VM)\\.GPU(\\d*)\\.(?:([A-Za-z0-9-]+)\\.)?\\d+$"));
    const auto m = re.match(shape);
    if (!m.hasMatch())
        return {};
    const QString generation = m.captured(1);
    const QString model = m.captured(2);
    if (model.isEmpty()) {
        if (generation == u"2")
            return QStringLiteral("P100");
        if (generation == u"3")
            return QStringLiteral("V100");
        if (generation == u"4")
            return QStringLiteral("A100");
        return {};
    }
    if (model.compare(u"A100-v2", Qt::CaseInsensitive) == 0)
        return QStringLiteral("A100-80GB");
    return model;
}

Result<OciPriceList> parseOciPriceList(QByteArrayView shapes, QByteArrayView products,
                                       const QString &shapesOrigin, const QString &productsOrigin)
{
    OciPriceList list;
    auto prices = readProducts(products, productsOrigin, &list.malformed);
    if (!prices)
        return prices.error();
    auto parsed = parseJsonDocument(shapes, shapesOrigin);
    if (!parsed)
        return parsed.error();
    const QJsonValue items = parsed.value().object().value(QStringLiteral("items"));
    if (!items.isArray())
        return makeError(
            QStringLiteral("%1: not Oracle's shape list (no \"items\" array)").arg(shapesOrigin));
    const ProviderInfo *info = providerInfo(u"oci");
    SnapshotData &out = list.data;
    out.provider = QStringLiteral("oci");
    out.description = QStringLiteral("Oracle Cloud price list (cloud estimator shapes.json + products.json)");
    QString firstUnpriced;
    const QJsonArray array = items.toArray();
    for (qsizetype i = 0; i < array.size(); ++i) {
        auto bad = [&](const QString &what) {
            list.malformed.add(QStringLiteral("shapes items[%1]%2").arg(i).arg(what));
        };
        if (!array.at(i).isObject()) {
            bad(QStringLiteral(" is not an object"));
            continue;
        }
        const QJsonObject s = array.at(i).toObject();
        const QString name = s.value(QStringLiteral("name")).toString().trimmed();
        const QString gpu = ociShapeGpu(name);
        const bool gpuType = typeValue(s.value(QStringLiteral("sub_type"))) == u"gpu";
        if (gpu.isEmpty() && !gpuType)
            continue; // a CPU shape
        if (s.value(QStringLiteral("hidden")).toBool() ||
            (s.contains(QStringLiteral("status")) &&
             s.value(QStringLiteral("status")).toString() != u"ACTIVE"))
            continue;
        ++list.gpuShapes;
        if (gpu.isEmpty()) {
            bad(QStringLiteral(" (%1): not a BM.GPU/VM.GPU shape name")
                    .arg(name.isEmpty() ? QStringLiteral("no name") : name));
            continue;
        }
        std::optional<double> gpuQty, gpuMem, memory;
        const char *wrong = nullptr;
        for (const auto &[field, slot] : {std::pair{"gpuQty", &gpuQty}, std::pair{"gpuMemoryQty", &gpuMem},
                                          std::pair{"bundleMemoryQty", &memory}}) {
            const QJsonValue v = s.value(QLatin1String(field));
            if (v.isUndefined() || v.isNull())
                continue;
            if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0) {
                wrong = field;
                break;
            }
            *slot = v.toDouble();
        }
        if (wrong) {
            bad(QStringLiteral(" (%1).%2 is not a number").arg(name, QLatin1String(wrong)));
            continue;
        }
        const double count = gpuQty && *gpuQty > 0 ? *gpuQty : name.section(u'.', -1).toDouble();
        if (!(count > 0)) {
            bad(QStringLiteral(" (%1) has no GPU count").arg(name));
            continue;
        }
        double total = 0;
        std::optional<double> ocpus;
        QStringList parts;
        QString missing;
        const QJsonArray shapeParts = s.value(QStringLiteral("products")).toArray();
        for (const QJsonValue &pv : shapeParts) {
            const QJsonObject p = pv.toObject();
            const QString number = p.value(QStringLiteral("partNumber")).toString().trimmed();
            const QString kind = typeValue(p.value(QStringLiteral("type")));
            const QJsonValue q = p.value(QStringLiteral("qty"));
            const double qty = q.isDouble() ? q.toDouble() : kind == u"gpu" ? count : -1;
            if (number.isEmpty() || !(qty >= 0)) {
                missing = number.isEmpty() ? QStringLiteral("a part without a partNumber")
                                           : QStringLiteral("part %1 without a qty").arg(number);
                break;
            }
            const auto it = prices.value().constFind(number);
            if (it == prices.value().cend()) {
                missing =
                    QStringLiteral("part %1 has no USD pay-as-you-go price in products.json").arg(number);
                break;
            }
            total += it->usd * qty;
            if (kind == u"ocpu")
                ocpus = qty;
            parts.append(
                QStringLiteral("%1 %2 x %3").arg(number, QString::number(it->usd), QString::number(qty)) +
                (it->metric.isEmpty() ? QString() : QStringLiteral(" (") + it->metric + u')'));
        }
        if (shapeParts.isEmpty())
            missing = QStringLiteral("no priced part");
        if (!missing.isEmpty() || !(total > 0)) {
            if (list.unpriced++ == 0)
                firstUnpriced = QStringLiteral("%1: %2").arg(
                    name, missing.isEmpty() ? QStringLiteral("price 0") : missing);
            continue;
        }
        Offer x;
        x.provider = out.provider;
        x.instanceType = name;
        x.region = QStringLiteral("all regions");
        x.gpuRawName = gpu;
        x.gpuCount = count;
        if (gpuMem && *gpuMem > 0)
            x.gpuMemGb = round4(*gpuMem / count);
        if (ocpus && *ocpus > 0) {
            const bool arm =
                s.value(QStringLiteral("processorType")).toString().contains(u"ampere", Qt::CaseInsensitive);
            x.vcpus = *ocpus * (arm ? 1 : 2);
        }
        if (memory && *memory > 0)
            x.ramGb = memory;
        x.onDemandUsdH = round4(total);
        x.spotUsdH = round4(total * kOciPreemptibleShare);
        x.spotLabel = info && !info->spotLabel.isEmpty() ? info->spotLabel : QStringLiteral("preemptible");
        x.billingIncrementS = info && info->billingIncrementS > 0 ? info->billingIncrementS : 1;
        x.billingMinimumS = info ? std::max(0, info->billingMinimumS) : 60;
        x.source = QStringLiteral("Oracle price list: %1; preemptible derived (%2 % of pay-as-you-go)")
                       .arg(parts.join(QStringLiteral(" + ")))
                       .arg(kOciPreemptibleShare * 100);
        out.offers.append(std::move(x));
    }
    if (list.gpuShapes > 0 && list.data.offers.isEmpty())
        return makeError(QStringLiteral("%1: none of the %2 GPU shapes could be priced (first: %3): Oracle's "
                                        "price list format has changed")
                             .arg(shapesOrigin, QString::number(list.gpuShapes),
                                  list.malformed.count ? list.malformed.first : firstUnpriced));
    if (list.malformed.count)
        out.warnings.append(QStringLiteral("%1 malformed shapes or products skipped (first: %2)")
                                .arg(list.malformed.count)
                                .arg(list.malformed.first));
    if (list.unpriced)
        out.warnings.append(QStringLiteral("%1 GPU shapes without a USD price skipped (first: %2)")
                                .arg(list.unpriced)
                                .arg(firstUnpriced));
    return list;
}

} // namespace gf

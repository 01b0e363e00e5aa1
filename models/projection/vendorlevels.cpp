#include "projection/vendorlevels.h"

#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>
#include <utility>

namespace gf {

namespace {

/// A level (ln) as the file gives it: a number from -2 to 2; NaN for anything else.
double levelOf(const QJsonValue &v)
{
    const double x = v.isDouble() ? v.toDouble() : std::nan("");
    return x >= -2 && x <= 2 ? x : std::nan("");
}

} // namespace

Result<VendorLevels> VendorLevels::fromJson(const QByteArray &json)
{
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(
            QStringLiteral("other_vendor_levels.json is not a JSON object: %1").arg(err.errorString()));
    const QJsonValue levels = doc.object().value(u"levels");
    if (!levels.isObject())
        return makeError(QStringLiteral("other_vendor_levels.json: levels must be an object"));
    VendorLevels out;
    const QJsonObject byGpu = levels.toObject();
    for (auto it = byGpu.begin(); it != byGpu.end(); ++it) {
        const QString where = QStringLiteral("other_vendor_levels.json: levels.%1").arg(it.key());
        if (it.key().trimmed().isEmpty() || !it.value().isObject())
            return makeError(where + QStringLiteral(" must be an object named by a GPU id"));
        const QJsonObject o = it.value().toObject();
        VendorLevel v;
        v.logLevel = levelOf(o.value(u"log_level"));
        if (std::isnan(v.logLevel))
            return makeError(where + QStringLiteral(".log_level must be a number from -2 to 2"));
        const QJsonValue pairs = o.value(u"pairs");
        v.pairs = pairs.toInt(0);
        if (!pairs.isDouble() || v.pairs < 1 || pairs.toDouble() != v.pairs)
            return makeError(where + QStringLiteral(".pairs must be a whole number of 1 or more"));
        v.evidence = o.value(u"evidence").toString().trimmed();
        if (v.evidence.isEmpty())
            return makeError(where + QStringLiteral(".evidence must be a non-empty text"));
        out.levels.insert(it.key(), v);
    }
    const QJsonValue split = doc.object().value(u"time_split");
    if (split.isUndefined())
        return out;
    const QString where = QStringLiteral("other_vendor_levels.json: time_split");
    if (!split.isObject())
        return makeError(where + QStringLiteral(" must be an object"));
    const QJsonObject o = split.toObject();
    for (const auto &[key, list] : {std::pair{QStringLiteral("derive_rounds"), &out.heldOutDeriveRounds},
                                    std::pair{QStringLiteral("test_rounds"), &out.heldOutTestRounds}}) {
        const QJsonValue rounds = o.value(key);
        if (!rounds.isArray() || rounds.toArray().isEmpty())
            return makeError(QStringLiteral("%1.%2 must be a non-empty list of rounds").arg(where, key));
        for (const QJsonValue &r : rounds.toArray()) {
            if (!r.isString() || r.toString().trimmed().isEmpty())
                return makeError(QStringLiteral("%1.%2 must list rounds as non-empty texts").arg(where, key));
            list->append(r.toString().trimmed());
        }
    }
    const QJsonValue derived = o.value(u"derived_levels");
    if (!derived.isObject())
        return makeError(where + QStringLiteral(".derived_levels must be an object"));
    const QJsonObject byGpu2 = derived.toObject();
    for (auto it = byGpu2.begin(); it != byGpu2.end(); ++it) {
        const double v = levelOf(it.value());
        if (std::isnan(v))
            return makeError(
                QStringLiteral("%1.derived_levels.%2 must be a number from -2 to 2").arg(where, it.key()));
        out.heldOutLevels.insert(it.key(), v);
    }
    return out;
}

const VendorLevels &VendorLevels::builtin()
{
    static const VendorLevels v = [] {
        auto r = fromJson(readResource(QStringLiteral("benchmarks/other_vendor_levels.json")));
        if (!r)
            qFatal("The built-in other-vendor levels are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return v;
}

} // namespace gf

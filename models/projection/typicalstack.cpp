#include "projection/typicalstack.h"

#include "util/resourcefiles.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>

namespace gf {

double TypicalStack::overheadTflops(const QString &presetId, bool custom) const
{
    if (custom)
        return overheadTflopsCustom;
    return overheadTflopsByPreset.value(presetId, overheadTflopsCustom);
}

Result<TypicalStack> TypicalStack::fromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("typical_stack.json: not a JSON object (%1)").arg(pe.errorString()));
    const QJsonObject o = doc.object();
    if (o.value(u"schema_version").toInt() != 1)
        return makeError(QStringLiteral("typical_stack.json: schema_version must be 1"));
    auto positive = [](const QJsonValue &v) {
        return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() > 0;
    };
    TypicalStack t;
    const QJsonObject rates = o.value(u"overhead_tflops").toObject();
    for (auto it = rates.begin(); it != rates.end(); ++it) {
        if (!positive(it.value()))
            return makeError(
                QStringLiteral("typical_stack.json: overhead_tflops of %1 must be a positive number")
                    .arg(it.key()));
        t.overheadTflopsByPreset.insert(it.key(), it.value().toDouble());
    }
    if (!positive(o.value(u"overhead_tflops_custom")))
        return makeError(
            QStringLiteral("typical_stack.json: overhead_tflops_custom must be a positive number"));
    t.overheadTflopsCustom = o.value(u"overhead_tflops_custom").toDouble();
    const QJsonObject r = o.value(u"range").toObject();
    if (!r.value(u"p10").isDouble() || !r.value(u"p90").isDouble() ||
        r.value(u"p10").toDouble() > r.value(u"p90").toDouble())
        return makeError(QStringLiteral("typical_stack.json: range needs p10 <= p90"));
    t.range = {r.value(u"p10").toDouble(), r.value(u"p90").toDouble()};
    t.basis = o.value(u"basis").toString();
    return t;
}

const TypicalStack &TypicalStack::builtin()
{
    static const TypicalStack t = [] {
        auto r = fromJson(readResource(QStringLiteral("benchmarks/typical_stack.json")));
        if (!r)
            qFatal("The built-in typical-stack conversion is broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return t;
}

} // namespace gf

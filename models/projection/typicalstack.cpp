#include "projection/typicalstack.h"

#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <cmath>
#include <tuple>

namespace gf {

double TypicalStack::overheadTflops(const QString &presetId, bool custom, WorkloadClass c) const
{
    if (!pooledOverhead(presetId, custom))
        return overheadTflopsByPreset.value(presetId);
    return overheadTflopsCustomByClass.value(workloadClassName(c), overheadTflopsCustom);
}

std::optional<double> TypicalStack::classLogFactor(const QString &architecture, WorkloadClass c) const
{
    if (c == WorkloadClass::Unknown)
        return std::nullopt;
    const auto it = classLogFactors.constFind(architecture + u'/' + workloadClassName(c));
    if (it == classLogFactors.constEnd())
        return std::nullopt;
    return *it;
}

bool TypicalStack::architectureMeasured(const QString &architecture, WorkloadClass c) const
{
    if (c != WorkloadClass::Unknown)
        return classLogFactor(architecture, c).has_value();
    const QString prefix = architecture + u'/';
    for (auto it = classLogFactors.constBegin(); it != classLogFactors.constEnd(); ++it)
        if (it.key().startsWith(prefix))
            return true;
    return false;
}

TypicalStack TypicalStack::withFit(const TypicalStackFit &fit) const
{
    TypicalStack t = *this;
    t.overheadTflopsByPreset = fit.overheadTflopsByPreset;
    t.overheadTflopsCustom = fit.overheadTflopsCustom;
    t.overheadTflopsCustomByClass = fit.overheadTflopsCustomByClass;
    t.classLogFactors = fit.classLogFactors;
    t.defaultBytesPerFlop = fit.defaultBytesPerFlop;
    t.trafficFactor = fit.trafficFactor;
    return t;
}

namespace {

/// A {workload class: number in [lo, hi]} object (absent: nothing) into `out`; the error text, or empty.
QString classNumbersFromJson(const QJsonValue &value, const QString &key, const QString &where, double lo,
                             double hi, QHash<QString, double> &out)
{
    if (!value.isUndefined() && !value.isObject())
        return QStringLiteral("%1%2 must be an object").arg(where, key);
    const QJsonObject byClass = value.toObject();
    for (auto it = byClass.begin(); it != byClass.end(); ++it) {
        if (!workloadClassFromName(it.key()))
            return QStringLiteral("%1%2: \"%3\" is not a workload class").arg(where, key, it.key());
        const double v = it.value().toDouble(std::nan(""));
        if (!it.value().isDouble() || !(v >= lo && v <= hi))
            return QStringLiteral("%1%2.%3 must be a number from %4 to %5")
                .arg(where, key, it.key(), QString::number(lo), QString::number(hi));
        out.insert(it.key(), v);
    }
    return {};
}

/// R_o and class factors of `o` (the file's top level or a fold); `where` prefixes the error.
Result<TypicalStackFit> fitFromJson(const QJsonObject &o, const QString &where)
{
    TypicalStackFit f;
    const QJsonObject rates = o.value(u"overhead_tflops").toObject();
    for (auto it = rates.begin(); it != rates.end(); ++it) {
        if (!isPositiveNumber(it.value()))
            return makeError(
                QStringLiteral("%1overhead_tflops of %2 must be a positive number").arg(where, it.key()));
        f.overheadTflopsByPreset.insert(it.key(), it.value().toDouble());
    }
    if (!isPositiveNumber(o.value(u"overhead_tflops_custom")))
        return makeError(QStringLiteral("%1overhead_tflops_custom must be a positive number").arg(where));
    f.overheadTflopsCustom = o.value(u"overhead_tflops_custom").toDouble();
    const QJsonValue factors = o.value(u"class_factors");
    if (!factors.isUndefined() && !factors.isObject())
        return makeError(QStringLiteral("%1class_factors must be an object").arg(where));
    const QJsonObject byArch = factors.toObject();
    for (auto a = byArch.begin(); a != byArch.end(); ++a) {
        if (!a.value().isObject())
            return makeError(QStringLiteral("%1class_factors.%2 must be an object").arg(where, a.key()));
        const QJsonObject byClass = a.value().toObject();
        for (auto c = byClass.begin(); c != byClass.end(); ++c) {
            const auto cls = workloadClassFromName(c.key());
            if (!cls || *cls == WorkloadClass::Unknown)
                return makeError(QStringLiteral("%1class_factors.%2: \"%3\" is not a workload class")
                                     .arg(where, a.key(), c.key()));
            const double v = c.value().toDouble(std::nan(""));
            if (!c.value().isDouble() || !std::isfinite(v) || std::abs(v) > 3.0)
                return makeError(
                    QStringLiteral("%1class_factors.%2.%3 must be a number from -3 to 3 (ln eta)")
                        .arg(where, a.key(), c.key()));
            f.classLogFactors.insert(a.key() + u'/' + c.key(), v);
        }
    }
    for (auto [key, lo, hi, out] :
         {std::tuple{QStringLiteral("default_bytes_per_flop"), 0.0, 1.0, &f.defaultBytesPerFlop},
          std::tuple{QStringLiteral("typical_traffic_factor"), 1.0, 100.0, &f.trafficFactor},
          std::tuple{QStringLiteral("overhead_tflops_custom_by_class"), 1.0, 1e6,
                     &f.overheadTflopsCustomByClass}}) {
        if (auto bad = classNumbersFromJson(o.value(key), key, where, lo, hi, *out); !bad.isEmpty())
            return makeError(bad);
    }
    return f;
}

Result<LogRange> rangeFromJson(const QJsonObject &o, QStringView key, bool required)
{
    const QJsonValue v = o.value(key);
    if (v.isUndefined() && !required)
        return LogRange{};
    if (auto r = logRangeOfObject(v.toObject()))
        return *r;
    return makeError(QStringLiteral("typical_stack.json: %1 needs p10 <= p90").arg(key.toString()));
}

} // namespace

Result<TypicalStack> TypicalStack::fromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("typical_stack.json: not a JSON object (%1)").arg(pe.errorString()));
    const QJsonObject o = doc.object();
    if (o.value(u"schema_version").toInt() != 1)
        return makeError(QStringLiteral("typical_stack.json: schema_version must be 1"));
    TypicalStack t;
    auto fit = fitFromJson(o, QStringLiteral("typical_stack.json: "));
    if (!fit)
        return fit.error();
    t = t.withFit(fit.value());
    auto range = rangeFromJson(o, u"range", true);
    auto rangeCustom = rangeFromJson(o, u"range_custom", false);
    auto unknown = rangeFromJson(o, u"unknown_class_range", false);
    auto newArch = rangeFromJson(o, u"new_architecture_range", false);
    auto newArchTransfer = rangeFromJson(o, u"new_architecture_range_transfer", false);
    for (const auto *r : {&range, &rangeCustom, &unknown, &newArch, &newArchTransfer})
        if (!*r)
            return r->error();
    t.range = range.value();
    t.rangeCustom = o.contains(u"range_custom") ? rangeCustom.value() : range.value();
    t.unknownClassRange = unknown.value();
    t.newArchitectureRange = newArch.value();
    // A file without the transfer's own range (written before section 3.10) gives both kinds one range.
    t.newArchitectureRangeTransfer =
        o.contains(u"new_architecture_range_transfer") ? newArchTransfer.value() : newArch.value();
    // Rule AD (section 3.30): the range of a figure carried across a batch change, and the ratio that selects
    // it.
    if (o.contains(u"batch_change_range_transfer")) {
        auto r = rangeFromJson(o, u"batch_change_range_transfer", true);
        if (!r)
            return r.error();
        const double k =
            o.value(u"batch_change_range_transfer").toObject().value(u"min_batch_ratio").toDouble(0);
        if (!(k > 1) || !std::isfinite(k))
            return makeError(
                QStringLiteral("typical_stack.json: batch_change_range_transfer needs min_batch_ratio > 1"));
        t.batchChangeRangeTransfer = r.value();
        t.batchChangeMinRatio = k;
    }
    for (auto [key, name, out] :
         {std::tuple{QStringLiteral("leave_one_source_out"), QStringLiteral("source"), &t.sourceFolds},
          std::tuple{QStringLiteral("leave_one_architecture_out"), QStringLiteral("architecture"),
                     &t.architectureFolds}}) {
        const QJsonValue folds = o.value(key);
        if (!folds.isUndefined() && !folds.isArray())
            return makeError(QStringLiteral("typical_stack.json: %1 must be an array").arg(key));
        const QJsonArray arr = folds.toArray();
        for (qsizetype i = 0; i < arr.size(); ++i) {
            const QJsonObject f = arr.at(i).toObject();
            TypicalStackFold fold;
            fold.heldOut = f.value(name).toString();
            const QString where =
                QStringLiteral("typical_stack.json: %1[%2] (%3): ").arg(key).arg(i).arg(fold.heldOut);
            if (fold.heldOut.isEmpty())
                return makeError(where + QStringLiteral("%1 must be a non-empty string").arg(name));
            auto ff = fitFromJson(f, where);
            if (!ff)
                return ff.error();
            fold.fit = ff.value();
            out->append(fold);
        }
    }
    const QJsonValue refs = o.value(u"class_reference_preset");
    if (!refs.isUndefined() && !refs.isObject())
        return makeError(QStringLiteral("typical_stack.json: class_reference_preset must be an object"));
    const QJsonObject refObject = refs.toObject();
    for (auto it = refObject.begin(); it != refObject.end(); ++it) {
        const auto cls = workloadClassFromName(it.key());
        if (!cls || *cls == WorkloadClass::Unknown)
            return makeError(QStringLiteral("typical_stack.json: class_reference_preset: \"%1\" is not a "
                                            "workload class")
                                 .arg(it.key()));
        if (!it.value().isString() || !findWorkload(builtinWorkloads(), it.value().toString().trimmed()))
            return makeError(
                QStringLiteral("typical_stack.json: class_reference_preset.%1 must be a preset id")
                    .arg(it.key()));
        t.classReferencePreset.insert(it.key(), it.value().toString().trimmed());
    }
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

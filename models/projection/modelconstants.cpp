#include "projection/modelconstants.h"

#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

namespace gf {

QString projectionTierName(ProjectionTier tier)
{
    switch (tier) {
    case ProjectionTier::None:
        return {};
    case ProjectionTier::Measured:
        return QStringLiteral("measured");
    case ProjectionTier::MeasuredConverted:
        return QStringLiteral("measured-converted");
    case ProjectionTier::Transferred:
        return QStringLiteral("transferred");
    case ProjectionTier::TransferredCrossArch:
        return QStringLiteral("transferred-cross-arch");
    case ProjectionTier::TransferredOtherVendor:
        return QStringLiteral("transferred-other-vendor");
    case ProjectionTier::Roofline:
        return QStringLiteral("roofline");
    }
    return {};
}

QString projectionTierDescription(ProjectionTier tier)
{
    switch (tier) {
    case ProjectionTier::None:
        return {};
    case ProjectionTier::Measured:
        return QStringLiteral("Measured: this workload was measured on this GPU model.");
    case ProjectionTier::MeasuredConverted:
        return QStringLiteral("Measured on this GPU model in another software stack (or at another level) "
                              "and converted with a factor from GPUs measured in both.");
    case ProjectionTier::Transferred:
        return QStringLiteral("Transferred: measured on other GPU models (one of this architecture) and "
                              "carried over by the fitted model's GPU-to-GPU ratio.");
    case ProjectionTier::TransferredCrossArch:
        return QStringLiteral("Transferred: measured on other GPU models, none of this architecture, and "
                              "carried over by the fitted model's GPU-to-GPU ratio.");
    case ProjectionTier::TransferredOtherVendor:
        return QStringLiteral("Transferred from NVIDIA measurements to another vendor's part: no "
                              "measurement validates it, so it carries the roofline range.");
    case ProjectionTier::Roofline:
        return QStringLiteral("Roofline: no measurement of this workload anywhere; the fitted model's "
                              "absolute speed.");
    }
    return {};
}

namespace {

Result<LogRange> rangeOf(const QJsonValue &v, const QString &what)
{
    if (v.isArray()) {
        const QJsonArray a = v.toArray();
        if (a.size() == 2 && a.at(0).isDouble() && a.at(1).isDouble() &&
            a.at(0).toDouble() <= a.at(1).toDouble())
            return LogRange{a.at(0).toDouble(), a.at(1).toDouble()};
    } else if (v.isObject()) {
        if (auto r = logRangeOfObject(v.toObject()))
            return *r;
    }
    return makeError(
        QStringLiteral("model constants: %1 must be a [p10, p90] range with p10 <= p90").arg(what));
}

} // namespace

bool isPositiveNumber(const QJsonValue &v, bool orZero)
{
    if (!v.isDouble() || !std::isfinite(v.toDouble()))
        return false;
    return orZero ? v.toDouble() >= 0 : v.toDouble() > 0;
}

std::optional<LogRange> logRangeOfObject(const QJsonObject &o)
{
    const QJsonValue p10 = o.value(u"p10"), p90 = o.value(u"p90");
    if (!p10.isDouble() || !p90.isDouble() || p10.toDouble() > p90.toDouble())
        return std::nullopt;
    return LogRange{p10.toDouble(), p90.toDouble()};
}

QString readModelConstants(const QJsonObject &c, ModelConstants &m)
{
    QString bad;
    auto number = [&](const QJsonObject &o, QStringView key, double lo, double hi) -> double {
        const QJsonValue v = o.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < lo || v.toDouble() > hi) {
            if (bad.isEmpty())
                bad = key.toString();
            return 0;
        }
        return v.toDouble();
    };
    m.beta = number(c, u"beta", 0, 100);
    m.epsTflopsPerW = number(c, u"eps_tflops_per_w", 0, 1e6);
    m.p = number(c, u"p", 1, 1e6);
    m.gamma = number(c, u"gamma_half_rate", 0.1, 10);
    m.phi = number(c, u"phi", 1e-3, 10);
    m.sameArchWeight = number(c, u"same_arch_weight", 0, 1e3);
    m.bytesPerParamPerStep = number(c, u"bytes_per_param_per_step", 0, 1e3);
    m.kappa = number(c, u"kappa_bytes_per_param_per_step", 0, 1e4);
    const QJsonObject rho = c.value(u"rho").toObject();
    const QJsonObject ops = c.value(u"power_ops").toObject();
    for (int i = 0; i < kPrecisionCount; ++i) {
        const QString name = precisionName(static_cast<Precision>(i));
        m.rho[static_cast<std::size_t>(i)] = number(rho, name, 1e-3, 100);
        m.powerOps[static_cast<std::size_t>(i)] = ops.contains(name) ? number(ops, name, 0, 100) : 0.0;
    }
    return bad;
}

const ModelConstants *ModelConstants::fold(const QString &gpuId) const
{
    const qsizetype i = foldGpuIds.indexOf(gpuId);
    return i >= 0 && std::size_t(i) < folds.size() ? &folds[std::size_t(i)] : nullptr;
}

Result<ModelConstants> ModelConstants::fromJson(const QByteArray &json)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("model constants: not a JSON object"), pe.errorString());
    const QJsonObject root = doc.object();
    if (root.value(u"schema_version").toInt(-1) != 1)
        return makeError(QStringLiteral("model constants: unsupported schema_version (expected 1)"));
    const QJsonObject c = root.value(u"constants").toObject();
    ModelConstants m;
    const QString bad = readModelConstants(c, m);
    if (!bad.isEmpty())
        return makeError(QStringLiteral("model constants: \"%1\" is missing or out of range").arg(bad));

    const QJsonObject ranges = root.value(u"tier_ranges").toObject();
    for (int i = 1; i < kProjectionTierCount; ++i) {
        const auto tier = static_cast<ProjectionTier>(i);
        auto r = rangeOf(ranges.value(projectionTierName(tier)),
                         QStringLiteral("tier_ranges.") + projectionTierName(tier));
        if (!r)
            return r.error();
        m.tierRanges[static_cast<std::size_t>(i)] = r.value();
    }
    auto single =
        rangeOf(ranges.value(u"transferred-tf32-fp32"), QStringLiteral("tier_ranges.transferred-tf32-fp32"));
    if (!single)
        return single.error();
    m.singlePrecisionTransfer = single.value();
    const QJsonObject unc = root.value(u"uncertainty").toObject();
    auto prec = rangeOf(unc.value(u"precision_scaled"), QStringLiteral("uncertainty.precision_scaled"));
    auto batch = rangeOf(unc.value(u"batch_scaled"), QStringLiteral("uncertainty.batch_scaled"));
    if (!prec)
        return prec.error();
    if (!batch)
        return batch.error();
    m.precisionScaled = prec.value();
    m.batchScaled = batch.value();
    // Leave-one-GPU-out folds: the shipped ranges, the constants refitted without the GPU.
    const QJsonObject folds = root.value(u"validation_folds").toObject();
    const ModelConstants base = m; // no folds of its own
    for (auto it = folds.constBegin(); it != folds.constEnd(); ++it) {
        ModelConstants f = base;
        const QString foldBad = readModelConstants(it.value().toObject(), f);
        if (!foldBad.isEmpty())
            return makeError(QStringLiteral("model constants: validation_folds.%1: \"%2\" is missing or out "
                                            "of range")
                                 .arg(it.key(), foldBad));
        m.foldGpuIds.append(it.key());
        m.folds.push_back(std::move(f));
    }
    return m;
}

const ModelConstants &ModelConstants::builtin()
{
    static const ModelConstants c = [] {
        auto r = fromJson(readResource(QStringLiteral("benchmarks/model_v2.json")));
        if (!r)
            qFatal("The built-in projection model constants are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return c;
}

} // namespace gf

#include "projection/splitvalidation.h"

#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonParseError>

#include <algorithm>
#include <cmath>

namespace gf {

namespace {

const char *const kSplitIds[] = {"leave_one_gpu_out", "leave_one_source_out", "time_split"};

/// One observation; the first bad key, else empty.
QString readObservation(const QJsonObject &o, SplitObservation &out)
{
    for (const char *key : {"workload", "stack", "gpu"})
        if (o.value(QLatin1String(key)).toString().trimmed().isEmpty())
            return QString::fromLatin1(key);
    const auto precision = precisionFromName(o.value(u"precision").toString());
    if (!precision)
        return QStringLiteral("precision");
    if (!isPositiveNumber(o.value(u"flops")))
        return QStringLiteral("flops");
    if (!isPositiveNumber(o.value(u"activation_bytes"), true))
        return QStringLiteral("activation_bytes");
    if (!isPositiveNumber(o.value(u"params_per_sample"), true))
        return QStringLiteral("params_per_sample");
    if (!isPositiveNumber(o.value(u"measured")))
        return QStringLiteral("measured");
    out.workload = o.value(u"workload").toString();
    out.stack = o.value(u"stack").toString();
    out.gpuId = o.value(u"gpu").toString().trimmed();
    out.rowId = o.value(u"row").toString();
    out.precision = *precision;
    out.flops = o.value(u"flops").toDouble();
    out.activationBytes = o.value(u"activation_bytes").toDouble();
    out.paramsPerSample = o.value(u"params_per_sample").toDouble();
    out.measured = o.value(u"measured").toDouble();
    return {};
}

/// A case's observation index, or -1 when `v` is not an index into `count` observations.
int indexOf(const QJsonValue &v, qsizetype count)
{
    if (!v.isDouble())
        return -1;
    const double d = v.toDouble();
    return d >= 0 && d < double(count) && d == std::floor(d) ? int(d) : -1;
}

Result<SplitFold> readFold(const QJsonObject &f, qsizetype observations, const ModelConstants &base)
{
    SplitFold fold;
    fold.heldOut = f.value(u"held_out").toString().trimmed();
    if (fold.heldOut.isEmpty())
        return makeError(QStringLiteral("\"held_out\" is missing"));
    fold.constants = base;
    fold.constants.foldGpuIds.clear();
    fold.constants.folds.clear();
    if (!f.value(u"constants").isObject())
        return makeError(QStringLiteral("\"constants\" is missing"));
    const QString bad = readModelConstants(f.value(u"constants").toObject(), fold.constants);
    if (!bad.isEmpty())
        return makeError(QStringLiteral("constants: \"%1\" is missing or out of range").arg(bad));
    const QJsonValue range = f.value(u"range");
    if (range.isArray()) {
        const QJsonArray a = range.toArray();
        if (a.size() != 2 || !a.at(0).isDouble() || !a.at(1).isDouble() ||
            a.at(0).toDouble() > a.at(1).toDouble())
            return makeError(QStringLiteral("\"range\" must be [p10, p90] with p10 <= p90, or null"));
        fold.range = LogRange{a.at(0).toDouble(), a.at(1).toDouble()};
    } else if (!range.isNull() && !range.isUndefined()) {
        return makeError(QStringLiteral("\"range\" must be [p10, p90] with p10 <= p90, or null"));
    }
    const QJsonArray cases = f.value(u"cases").toArray();
    if (cases.isEmpty())
        return makeError(QStringLiteral("\"cases\" is missing or empty"));
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const QJsonObject c = cases.at(i).toObject();
        SplitCase sc;
        sc.target = indexOf(c.value(u"target"), observations);
        if (sc.target < 0)
            return makeError(QStringLiteral("case %1: \"target\" is not an observation index (0-%2)")
                                 .arg(i)
                                 .arg(observations - 1));
        const QJsonArray refs = c.value(u"references").toArray();
        if (refs.isEmpty())
            return makeError(QStringLiteral("case %1: \"references\" is missing or empty").arg(i));
        for (const QJsonValue &r : refs) {
            const int k = indexOf(r, observations);
            if (k < 0 || k == sc.target)
                return makeError(QStringLiteral("case %1: a reference is not another observation's index "
                                                "(0-%2)")
                                     .arg(i)
                                     .arg(observations - 1));
            sc.references.append(k);
        }
        fold.cases.append(sc);
    }
    return fold;
}

Result<HeldOutSplit> readSplit(const QString &id, const QJsonObject &s, const ModelConstants &base)
{
    HeldOutSplit split;
    split.id = id;
    split.title = s.value(u"title").toString();
    const QJsonArray obs = s.value(u"observations").toArray();
    for (qsizetype i = 0; i < obs.size(); ++i) {
        SplitObservation o;
        const QString bad = readObservation(obs.at(i).toObject(), o);
        if (!bad.isEmpty())
            return makeError(QStringLiteral("observation %1: \"%2\" is missing or invalid").arg(i).arg(bad));
        split.observations.append(o);
    }
    const QJsonArray folds = s.value(u"folds").toArray();
    if (folds.isEmpty())
        return makeError(QStringLiteral("\"folds\" is missing or empty"));
    for (qsizetype i = 0; i < folds.size(); ++i) {
        auto fold = readFold(folds.at(i).toObject(), split.observations.size(), base);
        if (!fold) {
            const QString name = folds.at(i).toObject().value(u"held_out").toString();
            return fold.error().prefixed(name.isEmpty() ? QStringLiteral("fold %1: ").arg(i)
                                                        : QStringLiteral("fold %1 (%2): ").arg(i).arg(name));
        }
        split.folds.append(std::move(fold).value());
    }
    const QJsonObject t = s.value(u"fit_projection_summary").toObject();
    split.toolSummary.n = t.value(u"n").toInt();
    split.toolSummary.median = t.value(u"median_abs_log_error").toDouble();
    split.toolSummary.max = t.value(u"max_abs_log_error").toDouble();
    split.toolSummary.coverageShipped = t.value(u"coverage_shipped_ranges").toDouble();
    if (t.value(u"coverage_fold_ranges").isDouble())
        split.toolSummary.coverageFoldRange = t.value(u"coverage_fold_ranges").toDouble();
    return split;
}

SplitSummary summarize(const QList<SplitRow> &rows)
{
    SplitSummary s;
    QList<double> a;
    int inside = 0, foldN = 0, foldInside = 0;
    for (const SplitRow &r : rows) {
        a.append(std::abs(r.logError));
        inside += r.insideShipped ? 1 : 0;
        if (r.insideFoldRange) {
            ++foldN;
            foldInside += *r.insideFoldRange ? 1 : 0;
        }
    }
    s.n = int(a.size());
    if (a.isEmpty())
        return s;
    s.median = sampleMedian(a);
    s.max = *std::max_element(a.begin(), a.end());
    s.coverageShipped = double(inside) / double(s.n);
    if (foldN > 0)
        s.coverageFoldRange = double(foldInside) / double(foldN);
    return s;
}

} // namespace

Result<HeldOutSplits> HeldOutSplits::fromJson(const QByteArray &json, const ModelConstants &base)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(QStringLiteral("held-out splits: not a JSON object"), pe.errorString());
    const QJsonObject root = doc.object().value(u"held_out_splits").toObject();
    if (root.isEmpty())
        return makeError(QStringLiteral("held-out splits: the document has no \"held_out_splits\" object "
                                        "(resources/tools/fit_projection.py --write writes it)"));
    HeldOutSplits out;
    for (const char *id : kSplitIds) {
        const QString key = QString::fromLatin1(id);
        if (!root.value(key).isObject())
            return makeError(QStringLiteral("held-out splits: \"%1\" is missing").arg(key));
        auto split = readSplit(key, root.value(key).toObject(), base);
        if (!split)
            return split.error().prefixed(QStringLiteral("held-out splits: %1: ").arg(key));
        out.splits.append(std::move(split).value());
    }
    return out;
}

const HeldOutSplits &HeldOutSplits::builtin()
{
    static const HeldOutSplits s = [] {
        auto r =
            fromJson(readResource(QStringLiteral("benchmarks/model_v2.json")), ModelConstants::builtin());
        if (!r)
            qFatal("The built-in held-out splits are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return s;
}

Result<QList<SplitValidation>> validateHeldOutSplits(const SpeedModel &model, const GpuSpecTable &specs,
                                                     const HeldOutSplits &splits)
{
    QList<SplitValidation> out;
    for (const HeldOutSplit &split : splits.splits) {
        SplitValidation v;
        v.id = split.id;
        v.title = split.title;
        v.toolSummary = split.toolSummary;
        v.folds = int(split.folds.size());
        for (const SplitFold &fold : split.folds) {
            const SpeedModel m = model.withConstants(fold.constants);
            // r_rel of an observation with the fold's constants (its kappa for the per-step traffic).
            auto relative = [&](const SplitObservation &o) -> Result<double> {
                const GpuSpec *spec = specs.spec(o.gpuId);
                if (!spec)
                    spec = model.arch().fitOnlySpecs().spec(o.gpuId);
                if (!spec)
                    return makeError(QStringLiteral("held-out splits: %1: fold %2: GPU \"%3\" has no "
                                                    "datasheet row")
                                         .arg(split.id, fold.heldOut, o.gpuId));
                const double bytes = o.activationBytes + fold.constants.kappa * o.paramsPerSample;
                const SpeedTerms t = m.relativeSpeed(*spec, o.precision, o.flops, bytes);
                if (!t.ok)
                    return makeError(
                        QStringLiteral("held-out splits: %1: fold %2: the model cannot project "
                                       "%3 on %4 in %5")
                            .arg(split.id, fold.heldOut, o.workload, o.gpuId, precisionName(o.precision)));
                return t.relative;
            };
            for (const SplitCase &c : fold.cases) {
                const SplitObservation &t = split.observations.at(c.target);
                const GpuArch *ta = model.arch().arch(t.gpuId);
                const QString targetArch = ta ? ta->arch : QString();
                QList<SpeedAnchor> anchors;
                for (int k : c.references) {
                    const SplitObservation &r = split.observations.at(k);
                    auto rel = relative(r);
                    if (!rel)
                        return rel.error();
                    SpeedAnchor a;
                    a.gpuId = r.gpuId;
                    const GpuArch *ra = model.arch().arch(r.gpuId);
                    a.arch = ra ? ra->arch : QString();
                    a.logLevel = std::log(r.measured / rel.value());
                    anchors.append(a);
                }
                auto rel = relative(t);
                if (!rel)
                    return rel.error();
                int count = 0, same = 0;
                const double level = m.level(anchors, targetArch, t.gpuId, &count, &same);
                if (count == 0)
                    continue; // every reference was the target GPU itself (the fitter skips it too)
                SplitRow row;
                row.heldOut = fold.heldOut;
                row.workload = t.workload;
                row.stack = t.stack;
                row.gpuId = t.gpuId;
                row.tier = same > 0 ? ProjectionTier::Transferred : ProjectionTier::TransferredCrossArch;
                row.references = count;
                row.measured = t.measured;
                row.projected = std::exp(level) * rel.value();
                row.logError = std::log(row.projected / row.measured);
                const LogRange shipped = model.constants().range(row.tier);
                row.insideShipped = shipped.p10 <= row.logError && row.logError <= shipped.p90;
                if (fold.range)
                    row.insideFoldRange = fold.range->p10 <= row.logError && row.logError <= fold.range->p90;
                v.rows.append(row);
            }
        }
        v.summary = summarize(v.rows);
        out.append(v);
    }
    return out;
}

} // namespace gf

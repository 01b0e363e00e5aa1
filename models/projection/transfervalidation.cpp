#include "projection/transfervalidation.h"

#include "domain/workloadbuilder.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

namespace gf {

namespace {

TransferSummary summarize(const QString &label, const QList<const TransferPair *> &pairs)
{
    QList<double> a;
    int inside = 0;
    for (const TransferPair *p : pairs) {
        a.append(std::abs(p->logError));
        inside += p->inside ? 1 : 0;
    }
    return summarizeErrors(label, a, inside);
}

} // namespace

Result<TransferData> TransferData::parse(const QString &workloadsCsv, const QString &rowsCsv,
                                         const QString &workloadsFile, const QString &rowsFile)
{
    const QString &wf = workloadsFile, &rf = rowsFile;
    auto wd = parseCsvWithColumns(workloadsCsv, wf, {"workload", "class", "unit", "flops_per_sample"});
    if (!wd)
        return wd.error();
    auto rd = parseCsvWithColumns(rowsCsv, rf,
                                  {"source_id", "workload", "gpu_id", "batch_per_gpu", "samples_per_s"});
    if (!rd)
        return rd.error();
    TransferData out;
    int line = 0;
    for (const CsvRecord &r : wd.value().records) {
        ++line;
        TransferWorkload w;
        w.id = csvField(wd.value(), r, "workload");
        w.workloadClass = csvField(wd.value(), r, "class");
        w.unit = csvField(wd.value(), r, "unit");
        bool ok = false;
        w.flopsPerSample = csvField(wd.value(), r, "flops_per_sample").toDouble(&ok);
        if (w.id.isEmpty() || w.workloadClass.isEmpty())
            return makeError(
                QStringLiteral("%1, record %2: workload and class must not be empty").arg(wf).arg(line));
        if (!ok || !(w.flopsPerSample > 0) || !std::isfinite(w.flopsPerSample))
            return makeError(QStringLiteral("%1, record %2: flops_per_sample \"%3\" is not a positive number")
                                 .arg(wf)
                                 .arg(line)
                                 .arg(csvField(wd.value(), r, "flops_per_sample")));
        out.workloads.append(w);
    }
    line = 0;
    for (const CsvRecord &r : rd.value().records) {
        ++line;
        TransferRow row;
        row.sourceId = csvField(rd.value(), r, "source_id");
        row.workload = csvField(rd.value(), r, "workload");
        row.gpuId = csvField(rd.value(), r, "gpu_id");
        bool okBatch = false, okSpeed = false;
        const QString batch = csvField(rd.value(), r, "batch_per_gpu");
        row.batchPerGpu = batch.isEmpty() ? 0 : batch.toInt(&okBatch);
        okBatch = batch.isEmpty() || (okBatch && row.batchPerGpu >= 1); // empty: not stated by the source
        row.samplesPerS = csvField(rd.value(), r, "samples_per_s").toDouble(&okSpeed);
        if (std::none_of(out.workloads.cbegin(), out.workloads.cend(),
                         [&](const TransferWorkload &w) { return w.id == row.workload; }))
            return makeError(QStringLiteral("%1, record %2: workload \"%3\" is not in %4")
                                 .arg(rf)
                                 .arg(line)
                                 .arg(row.workload, wf));
        if (row.gpuId.isEmpty())
            return makeError(QStringLiteral("%1, record %2: gpu_id is empty").arg(rf).arg(line));
        if (!okBatch)
            return makeError(
                QStringLiteral("%1, record %2: batch_per_gpu \"%3\" is not a positive whole number "
                               "(or empty: not stated)")
                    .arg(rf)
                    .arg(line)
                    .arg(csvField(rd.value(), r, "batch_per_gpu")));
        if (!okSpeed || !(row.samplesPerS > 0) || !std::isfinite(row.samplesPerS))
            return makeError(QStringLiteral("%1, record %2: samples_per_s \"%3\" is not a positive number")
                                 .arg(rf)
                                 .arg(line)
                                 .arg(csvField(rd.value(), r, "samples_per_s")));
        out.rows.append(row);
    }
    return out;
}

bool transferSourceScoredApart(const QString &sourceId)
{
    return sourceId == u"RYU-PT-2025";
}

bool batchesApart(const TransferPair &p, double minRatio)
{
    return TypicalStack::batchesApart(p.fromBatch, p.toBatch) >= minRatio;
}

TransferData TransferData::scoredApart(bool apart) const
{
    TransferData out;
    for (const TransferRow &r : rows)
        if (transferSourceScoredApart(r.sourceId) == apart)
            out.rows.append(r);
    // A workload is its rows' source's: the apart side takes those with an apart row, the other the rest
    // (a workload without rows included, in its place).
    for (const TransferWorkload &w : workloads) {
        const bool hasApart = std::any_of(rows.cbegin(), rows.cend(), [&](const TransferRow &r) {
            return r.workload == w.id && transferSourceScoredApart(r.sourceId);
        });
        if (hasApart == apart)
            out.workloads.append(w);
    }
    return out;
}

const TransferData &TransferData::builtin()
{
    static const TransferData data = [] {
        auto r = parse(readResourceText(QStringLiteral("benchmarks/transfer_workloads.csv")),
                       readResourceText(QStringLiteral("benchmarks/transfer_rows.csv")));
        if (!r)
            qFatal("The built-in transfer validation data are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return data;
}

const TransferData &TransferData::mlperfExtra()
{
    static const TransferData data = [] {
        const QString wf = QStringLiteral("mlperf_extra_workloads.csv"),
                      rf = QStringLiteral("mlperf_extra_rows.csv");
        auto r = parse(readResourceText(QStringLiteral("benchmarks/") + wf),
                       readResourceText(QStringLiteral("benchmarks/") + rf), wf, rf);
        if (!r)
            qFatal("The built-in MLPerf transfer data are broken: %s", qPrintable(r.error().text()));
        return std::move(r).value();
    }();
    return data;
}

namespace {

/// What the user gives beside the figure: its FLOPs and class (transfer_workloads.csv), the FLOPs without
/// the class (the unknown class, section 3.16) or the class without the FLOPs (the figure alone, 3.18).
enum class UserGives
{
    FlopsAndClass,
    FlopsOnly,
    ClassOnly,
};

/// Every figure of `data` as the user's, carried to the workload's other GPUs, described as `gives` says.
QList<TransferPair> transferPairs(const SpeedModel &model, const GpuSpecTable &specs,
                                  const TransferData &data, UserGives gives, QStringList *skipped = nullptr,
                                  SoftwareStack stack = SoftwareStack::Typical)
{
    QList<TransferPair> pairs;
    auto skip = [skipped](const QString &why) {
        if (skipped)
            skipped->append(why);
    };
    for (const TransferWorkload &tw : data.workloads) {
        QList<const TransferRow *> rows;
        for (const TransferRow &r : data.rows)
            if (r.workload == tw.id)
                rows.append(&r);
        for (const TransferRow *from : std::as_const(rows)) {
            const QString where = QStringLiteral("%1 / %2").arg(tw.id, from->gpuId);
            if (!specs.spec(from->gpuId)) {
                skip(where + QStringLiteral(": no spec row for the GPU"));
                continue;
            }
            // What the user types: --workload-name W --flops-per-sample F --measured S --measured-on GPU,
            // and, where the target's figure is of another stated batch, --measured-batch (the figure's)
            // --batch (the target's): rule Y (section 3.25), the pair asked as the user would ask it. One
            // workload per batch.
            struct Built
            {
                Workload workload;
                WorkloadAnchors anchors;
            };
            QHash<int, std::optional<Built>> byBatch;
            auto build = [&](int batch) -> const std::optional<Built> & {
                if (auto it = byBatch.constFind(batch); it != byBatch.constEnd())
                    return *it;
                WorkloadSpec spec;
                spec.name = tw.id;
                WorkloadOverrides &o = spec.overrides;
                o.samplesPerEpoch = 1e6;
                if (gives != UserGives::ClassOnly)
                    o.flopsPerSample = tw.flopsPerSample;
                o.precision = Precision::Fp16;
                if (from->batchPerGpu > 0)
                    o.batchPerGpu = from->batchPerGpu;
                if (batch > 0 && batch != from->batchPerGpu) {
                    o.batchPerGpu = batch;
                    o.measuredBatchPerGpu = from->batchPerGpu;
                }
                o.measuredSamplesPerS = from->samplesPerS;
                o.referenceGpu = from->gpuId;
                o.stack = stack;
                o.workloadClass = gives == UserGives::FlopsOnly ? WorkloadClass::Unknown
                                                                : workloadClassFromName(tw.workloadClass);
                auto built = buildWorkloadSpec(spec);
                if (!built) {
                    skip(where + QStringLiteral(": ") + built.error().message);
                    return *byBatch.insert(batch, std::nullopt);
                }
                WorkloadAnchors anchors = model.anchorsFor(built.value(), {}, specs);
                if (anchors.user.isEmpty()) {
                    skip(where + QStringLiteral(": the app does not use the figure"));
                    return *byBatch.insert(batch, std::nullopt);
                }
                return *byBatch.insert(batch, Built{std::move(built).value(), std::move(anchors)});
            };
            if (!build(from->batchPerGpu))
                continue;
            for (const TransferRow *to : std::as_const(rows)) {
                const GpuSpec *target = specs.spec(to->gpuId);
                if (to == from || !target)
                    continue;
                const bool otherBatch = from->batchPerGpu > 0 && to->batchPerGpu > 0;
                const auto &b = build(otherBatch ? to->batchPerGpu : from->batchPerGpu);
                if (!b)
                    continue;
                const SingleGpuSpeed s =
                    model.project(*target, b->workload, b->anchors, defaultCalibration());
                if (!s.ok)
                    continue;
                TransferPair p;
                p.sourceId = from->sourceId;
                p.workload = tw.id;
                p.workloadClass = tw.workloadClass;
                p.fromGpu = from->gpuId;
                p.toGpu = to->gpuId;
                p.fromBatch = from->batchPerGpu;
                p.toBatch = to->batchPerGpu;
                p.tier = s.tier;
                p.measured = to->samplesPerS;
                p.projected = s.samplesPerS;
                p.logError = std::log(p.projected / p.measured);
                p.range = s.range;
                p.inside = s.samplesPerSLow() <= p.measured && p.measured <= s.samplesPerSHigh();
                pairs.append(p);
            }
        }
    }
    return pairs;
}

/// Every pair and those from `headlineGpu`.
std::pair<QList<const TransferPair *>, QList<const TransferPair *>>
allAndFrom(const QList<TransferPair> &pairs, const QString &headlineGpu)
{
    QList<const TransferPair *> all, headline;
    for (const TransferPair &p : pairs) {
        all.append(&p);
        if (p.fromGpu == headlineGpu)
            headline.append(&p);
    }
    return {all, headline};
}

/// One summary per distinct key of `pairs` (in `keys` order), of the pairs with that key.
template <class Key>
QList<TransferSummary> summariesBy(const QList<const TransferPair *> &pairs, const QStringList &keys, Key key)
{
    QList<TransferSummary> out;
    for (const QString &k : keys) {
        QList<const TransferPair *> mine;
        for (const TransferPair *p : pairs)
            if (key(*p) == k)
                mine.append(p);
        out.append(summarize(k, mine));
    }
    return out;
}

} // namespace

TransferValidation validateUserTransfer(const SpeedModel &model, const GpuSpecTable &specs,
                                        const TransferData &everything, const QString &headlineGpu)
{
    TransferValidation v;
    v.headlineGpu = headlineGpu;
    // Rule V: the sources scored apart get their own lines and no place in any figure below.
    const TransferData data = everything.scoredApart(false);
    v.apartPairs =
        transferPairs(model, specs, everything.scoredApart(true), UserGives::FlopsAndClass, &v.skipped);
    {
        QHash<QString, double> flops;
        for (const TransferWorkload &tw : everything.workloads)
            flops.insert(tw.id, tw.flopsPerSample);
        QList<const TransferPair *> all, heavy, light;
        QStringList gpuPairs;
        for (const TransferPair &p : std::as_const(v.apartPairs)) {
            all.append(&p);
            (flops.value(p.workload) >= kApartHeavyFlopsPerSample ? heavy : light).append(&p);
            const QString key = p.fromGpu + QStringLiteral(" -> ") + p.toGpu;
            if (!gpuPairs.contains(key))
                gpuPairs.append(key);
        }
        if (!all.isEmpty()) {
            gpuPairs.sort();
            v.apart.append(summarize(QStringLiteral("all"), all));
            const QString gflops = QString::number(kApartHeavyFlopsPerSample / 1e9);
            v.apart.append(summarize(QStringLiteral("heavy (>= %1 GFLOPs per sample)").arg(gflops), heavy));
            v.apart.append(summarize(QStringLiteral("light (< %1 GFLOPs per sample)").arg(gflops), light));
            v.apart += summariesBy(all, gpuPairs, [](const TransferPair &p) -> QString {
                return p.fromGpu + QStringLiteral(" -> ") + p.toGpu;
            });
        }
    }
    v.pairs = transferPairs(model, specs, data, UserGives::FlopsAndClass, &v.skipped);
    const auto [all, headline] = allAndFrom(v.pairs, headlineGpu);
    v.all = summarize(QStringLiteral("every GPU as the user's"), all);
    v.fromHeadline = summarize(QStringLiteral("from ") + headlineGpu, headline);
    QList<const TransferPair *> sameBatch;
    for (const TransferPair *p : all)
        if (p->fromBatch > 0 && p->fromBatch == p->toBatch)
            sameBatch.append(p);
    v.sameBatch = summarize(QStringLiteral("every GPU as the user's, the same batch on both"), sameBatch);
    // Rule AD (section 3.30): the pairs whose range is widened for a batch change.
    if (const double k = model.typicalStack().batchChangeMinRatio; k > 1) {
        QList<const TransferPair *> far;
        for (const TransferPair *p : all)
            if (batchesApart(*p, k))
                far.append(p);
        v.batchChange = summarize(QStringLiteral("every GPU as the user's, batches %1x or more apart")
                                      .arg(QString::number(k, 'g', 3)),
                                  far);
    }
    // The same figures with the class left out (section 3.16): the path of a user who does not give it.
    const QList<TransferPair> unknown = transferPairs(model, specs, data, UserGives::FlopsOnly);
    const auto [allU, headlineU] = allAndFrom(unknown, headlineGpu);
    v.allClassNotGiven = summarize(QStringLiteral("every GPU as the user's, class not given"), allU);
    v.fromHeadlineClassNotGiven =
        summarize(QStringLiteral("from ") + headlineGpu + QStringLiteral(", class not given"), headlineU);
    // The figure alone, without FLOPs per sample (the workload panel's default custom workload).
    const QList<TransferPair> shapeless = transferPairs(model, specs, data, UserGives::ClassOnly);
    const auto [allS, headlineS] = allAndFrom(shapeless, headlineGpu);
    v.allWithoutFlops = summarize(QStringLiteral("every GPU as the user's, no FLOPs given"), allS);
    v.fromHeadlineWithoutFlops =
        summarize(QStringLiteral("from ") + headlineGpu + QStringLiteral(", no FLOPs given"), headlineS);
    QStringList workloads, classes, sources;
    for (const TransferWorkload &tw : data.workloads) {
        workloads.append(tw.id);
        if (!classes.contains(tw.workloadClass))
            classes.append(tw.workloadClass);
    }
    for (const TransferPair &p : std::as_const(v.pairs))
        if (!sources.contains(p.sourceId))
            sources.append(p.sourceId);
    sources.sort();
    v.byWorkload = summariesBy(headline, workloads, [](const TransferPair &p) { return p.workload; });
    v.byClass = summariesBy(headline, classes, [](const TransferPair &p) { return p.workloadClass; });
    v.bySource = summariesBy(all, sources, [](const TransferPair &p) { return p.sourceId; });
    v.bySourceWithoutFlops = summariesBy(allS, sources, [](const TransferPair &p) { return p.sourceId; });
    return v;
}

QList<int> typicalStackReferenceRows(const QList<TypicalStackRow> &rows, const GpuSpecTable &specs,
                                     const QString &headlineGpu,
                                     const std::function<bool(const TypicalStackRow &)> &projectable)
{
    const auto takesPart = [&](const TypicalStackRow &r) {
        return r.use && findWorkload(builtinWorkloads(), r.presetId) && specs.spec(r.gpuId) &&
               (!projectable || projectable(r));
    };
    QHash<QString, QHash<QString, int>> perSource; // source -> GPU -> rows
    for (const TypicalStackRow &r : rows)
        if (takesPart(r))
            ++perSource[r.sourceId][r.gpuId];
    const auto rowOf = [&](const QString &source, const QString &preset, const QString &gpu) {
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const TypicalStackRow &r = rows.at(i);
            if (takesPart(r) && r.sourceId == source && r.presetId == preset && r.gpuId == gpu)
                return int(i);
        }
        return -1;
    };
    QList<int> out;
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const TypicalStackRow &r = rows.at(i);
        int ref = -1;
        if (takesPart(r)) {
            ref = rowOf(r.sourceId, r.presetId, headlineGpu);
            if (ref < 0) {
                const QHash<QString, int> &counts = perSource.value(r.sourceId);
                QString best;
                for (auto it = counts.cbegin(); it != counts.cend(); ++it)
                    if (best.isEmpty() || it.value() > counts.value(best) ||
                        (it.value() == counts.value(best) && it.key() < best))
                        best = it.key();
                ref = rowOf(r.sourceId, r.presetId, best);
            }
        }
        out.append(ref == int(i) ? -1 : ref);
    }
    return out;
}

namespace {

/// A typical-stack row (in use, of a built-in preset, of a GPU with a spec) projected by `model` at its own
/// batch in the typical stack, as the app projects the preset.
SingleGpuSpeed projectTypicalRow(const SpeedModel &model, const GpuSpecTable &specs, const TypicalStackRow &r)
{
    Workload w = withBatch(*findWorkload(builtinWorkloads(), r.presetId), r.batchPerGpu);
    w.stack = SoftwareStack::Typical;
    return model.project(*specs.spec(r.gpuId), w, model.anchorsFor(w, {}, specs), defaultCalibration());
}

/// The folds' held-out pairs and rows, each projected with its fold's fit (see the header's two callers).
FoldValidation validateFolds(const SpeedModel &model, const GpuSpecTable &specs,
                             const TransferData &everything, const QList<TypicalStackRow> &rows,
                             const QList<TypicalStackFold> &folds,
                             const std::function<bool(const QString &, const TransferPair &)> &pairHeld,
                             const std::function<bool(const QString &, const TypicalStackRow &)> &rowHeld,
                             const QString &headlineGpu)
{
    FoldValidation v;
    const TransferData data = everything.scoredApart(false); // rule V: no fold holds them
    // As the fitter does: a row the model cannot project (a GPU without a rate at the precision) takes no
    // part.
    const QList<int> reference =
        typicalStackReferenceRows(rows, specs, headlineGpu, [&](const TypicalStackRow &r) {
            return projectTypicalRow(model, specs, r).ok;
        });
    QList<TransferPair> allPairs, allRows, allRelative; // kept alive for the pointers below
    QList<QPair<int, int>> pairSpans, rowSpans, relativeSpans;
    for (const TypicalStackFold &fold : folds) {
        const SpeedModel m = model.withTypicalStack(model.typicalStack().withFit(fold.fit));
        const int p0 = int(allPairs.size());
        for (const TransferPair &p : transferPairs(m, specs, data, UserGives::FlopsAndClass))
            if (pairHeld(fold.heldOut, p))
                allPairs.append(p);
        pairSpans.append({p0, int(allPairs.size())});
        // Rule Z: a reference row's ln(projected / measured) with this fold's fit, once per fold (NaN: no
        // projection).
        QHash<int, double> referenceLog;
        const auto referenceError = [&](int index) {
            auto it = referenceLog.constFind(index);
            if (it == referenceLog.constEnd()) {
                const TypicalStackRow &ref = rows.at(index);
                const SingleGpuSpeed sr = projectTypicalRow(m, specs, ref);
                it = referenceLog.insert(index, sr.ok ? std::log(sr.samplesPerS / ref.samplesPerS)
                                                      : std::numeric_limits<double>::quiet_NaN());
            }
            return *it;
        };
        const int r0 = int(allRows.size()), z0 = int(allRelative.size());
        for (qsizetype i = 0; i < rows.size(); ++i) {
            const TypicalStackRow &r = rows.at(i);
            const Workload *preset = findWorkload(builtinWorkloads(), r.presetId);
            const GpuSpec *spec = specs.spec(r.gpuId);
            if (!r.use || !preset || !spec || !rowHeld(fold.heldOut, r))
                continue;
            const SingleGpuSpeed s = projectTypicalRow(m, specs, r);
            if (!s.ok)
                continue;
            TransferPair p;
            p.sourceId = r.sourceId;
            p.workload = r.presetId;
            p.workloadClass = workloadClassName(preset->workloadClass);
            p.fromGpu = r.sourceId;
            p.toGpu = r.gpuId;
            p.tier = s.tier;
            p.measured = r.samplesPerS;
            p.projected = s.samplesPerS;
            p.logError = std::log(p.projected / p.measured);
            p.range = s.range;
            p.inside = s.samplesPerSLow() <= p.measured && p.measured <= s.samplesPerSHigh();
            allRows.append(p);
            // Rule Z: the same row against its reference row, both with this fold's fit.
            if (const int ref = reference.at(i); ref >= 0 && !std::isnan(referenceError(ref))) {
                TransferPair z = p;
                z.fromGpu = rows.at(ref).gpuId;
                z.logError = p.logError - referenceError(ref);
                z.inside = false;
                allRelative.append(z);
            }
        }
        rowSpans.append({r0, int(allRows.size())});
        relativeSpans.append({z0, int(allRelative.size())});
    }
    const auto pointers = [](const QList<TransferPair> &list, int from, int to, const QString *onlyFrom) {
        QList<const TransferPair *> out;
        for (int i = from; i < to; ++i)
            if (!onlyFrom || list.at(i).fromGpu == *onlyFrom)
                out.append(&list.at(i));
        return out;
    };
    for (qsizetype i = 0; i < folds.size(); ++i) {
        HeldOutFold f;
        f.heldOut = folds.at(i).heldOut;
        f.pairs =
            summarize(f.heldOut, pointers(allPairs, pairSpans.at(i).first, pairSpans.at(i).second, nullptr));
        f.fromHeadline = summarize(
            f.heldOut, pointers(allPairs, pairSpans.at(i).first, pairSpans.at(i).second, &headlineGpu));
        f.rows =
            summarize(f.heldOut, pointers(allRows, rowSpans.at(i).first, rowSpans.at(i).second, nullptr));
        f.rowsRelative = summarize(
            f.heldOut, pointers(allRelative, relativeSpans.at(i).first, relativeSpans.at(i).second, nullptr));
        v.folds.append(f);
    }
    v.pairs = summarize(QStringLiteral("pairs"), pointers(allPairs, 0, int(allPairs.size()), nullptr));
    v.fromHeadline = summarize(QStringLiteral("from ") + headlineGpu,
                               pointers(allPairs, 0, int(allPairs.size()), &headlineGpu));
    v.rows = summarize(QStringLiteral("rows"), pointers(allRows, 0, int(allRows.size()), nullptr));
    v.rowsRelative = summarize(QStringLiteral("rows, relative"),
                               pointers(allRelative, 0, int(allRelative.size()), nullptr));
    return v;
}

} // namespace

TunedTransferValidation validateTunedTransfer(const SpeedModel &model, const GpuSpecTable &specs,
                                              const TransferData &data)
{
    TunedTransferValidation v;
    v.pairs = transferPairs(model, specs, data, UserGives::FlopsAndClass, &v.skipped, SoftwareStack::Tuned);
    const auto archOf = [&](const QString &gpu) {
        const GpuArch *a = model.arch().arch(gpu);
        return a ? a->arch : QString();
    };
    // An MLPerf workload of a group "WORKLOAD@ROUND:NODESxGPUS".
    const auto workloadOf = [](const TransferPair &p) { return p.workload.section(QLatin1Char('@'), 0, 0); };
    QList<const TransferPair *> all, fromAmpere, hopperToBlackwell, nvidiaToAmd;
    QStringList archs, workloads;
    const QStringList later{QStringLiteral("ada"), QStringLiteral("hopper"), QStringLiteral("blackwell"),
                            QStringLiteral("blackwell-gb20x")};
    for (const TransferPair &p : std::as_const(v.pairs)) {
        all.append(&p);
        const QString from = archOf(p.fromGpu), to = archOf(p.toGpu);
        if (!archs.contains(to))
            archs.append(to);
        if (!workloads.contains(workloadOf(p)))
            workloads.append(workloadOf(p));
        if (from == u"ampere" && later.contains(to))
            fromAmpere.append(&p);
        if (from == u"hopper" && to.startsWith(u"blackwell"))
            hopperToBlackwell.append(&p);
        if (!from.startsWith(u"cdna") && to.startsWith(u"cdna"))
            nvidiaToAmd.append(&p);
    }
    v.lines.append(summarize(QStringLiteral("all"), all));
    for (const TransferSummary &s :
         summariesBy(all, archs, [&](const TransferPair &p) { return archOf(p.toGpu); })) {
        TransferSummary labelled = s;
        labelled.label = QStringLiteral("to ") + s.label;
        v.lines.append(labelled);
    }
    v.lines.append(summarize(QStringLiteral("from Ampere to a later NVIDIA architecture"), fromAmpere));
    v.lines.append(summarize(QStringLiteral("from Hopper to Blackwell"), hopperToBlackwell));
    v.lines.append(summarize(QStringLiteral("from an NVIDIA GPU to an AMD one"), nvidiaToAmd));
    v.lines += summariesBy(all, workloads, workloadOf);

    // Rule AG's time split: the levels of the earlier rounds alone, scored on the later rounds' pairs of
    // another vendor's GPU.
    const VendorLevels &levels = model.vendorLevels();
    if (!levels.heldOutTestRounds.isEmpty()) {
        VendorLevels derived;
        for (auto it = levels.heldOutLevels.constBegin(); it != levels.heldOutLevels.constEnd(); ++it)
            derived.levels.insert(it.key(), VendorLevel{*it, 1, levels.heldOutDeriveRounds.join(u", ")});
        const auto otherVendor = [&](const QString &gpu) {
            const GpuArch *a = model.arch().arch(gpu);
            return a && a->otherVendor();
        };
        // Only the test rounds' groups are projected again ("WORKLOAD@ROUND:LAYOUT").
        const auto inTest = [&](const QString &group) {
            return levels.heldOutTestRounds.contains(
                group.section(QLatin1Char('@'), 1).section(QLatin1Char(':'), 0, 0));
        };
        TransferData testRounds;
        for (const TransferWorkload &w : data.workloads)
            if (inTest(w.id))
                testRounds.workloads.append(w);
        for (const TransferRow &r : data.rows)
            if (inTest(r.workload))
                testRounds.rows.append(r);
        const auto test = [&](const QList<TransferPair> &pairs) {
            QList<const TransferPair *> out;
            for (const TransferPair &p : pairs)
                if (otherVendor(p.fromGpu) || otherVendor(p.toGpu))
                    out.append(&p);
            return out;
        };
        const QString rounds = levels.heldOutTestRounds.join(u", ");
        const QList<TransferPair> none =
            transferPairs(model.withVendorLevels({}), specs, testRounds, UserGives::FlopsAndClass, nullptr,
                          SoftwareStack::Tuned);
        const QList<TransferPair> earlier =
            transferPairs(model.withVendorLevels(derived), specs, testRounds, UserGives::FlopsAndClass,
                          nullptr, SoftwareStack::Tuned);
        v.heldOutLevels.append(
            summarize(QStringLiteral("%1, another vendor's GPU, no level").arg(rounds), test(none)));
        v.heldOutLevels.append(summarize(
            QStringLiteral("%1, the same, levels of %2").arg(rounds, levels.heldOutDeriveRounds.join(u", ")),
            test(earlier)));
    }
    return v;
}

FoldValidation validateLeaveOneArchitectureOut(const SpeedModel &model, const GpuSpecTable &specs,
                                               const TransferData &data, const QList<TypicalStackRow> &rows,
                                               const QString &headlineGpu)
{
    const auto archOf = [&](const QString &gpu) {
        const GpuArch *a = model.arch().arch(gpu);
        return a ? a->arch : QString();
    };
    return validateFolds(
        model, specs, data, rows, model.typicalStack().architectureFolds,
        [&](const QString &held, const TransferPair &p) {
            return archOf(p.toGpu) == held && archOf(p.fromGpu) != held;
        },
        [&](const QString &held, const TypicalStackRow &r) { return archOf(r.gpuId) == held; }, headlineGpu);
}

FoldValidation validateLeaveOneSourceOut(const SpeedModel &model, const GpuSpecTable &specs,
                                         const TransferData &data, const QList<TypicalStackRow> &rows,
                                         const QString &headlineGpu)
{
    return validateFolds(
        model, specs, data, rows, model.typicalStack().sourceFolds,
        [](const QString &held, const TransferPair &p) { return p.sourceId == held; },
        [](const QString &held, const TypicalStackRow &r) { return r.sourceId == held; }, headlineGpu);
}

} // namespace gf

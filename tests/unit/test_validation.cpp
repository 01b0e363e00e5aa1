// Held-out validation, held out for real: `gpufrontier-cli validate` (SpeedModel::validate) projects a
// measured GPU without any of its own measurements: the constants of its fold (fitted without it), the other
// GPUs' anchors and the stack conversion factors recomputed without it. These tests change the held-out GPU's
// figures and the fold constants and check what moves; and they check the figures against the
// prototype's own end-to-end validation (resources/benchmarks/validation.csv).
#include "domain/benchmarktable.h"
#include "domain/gpuarch.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/modelconstants.h"
#include "projection/speedmodel.h"
#include "util/csv.h"
#include "util/resourcefiles.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace Qt::StringLiterals;

namespace {

const Workload &preset(const QString &id)
{
    const Workload *w = findWorkload(builtinWorkloads(), id);
    if (!w)
        qFatal("no preset %s", qPrintable(id));
    return *w;
}

/// The multiplier of a held-out GPU's figures in the stack of rank `rank`: different per stack, so that a
/// stack factor computed from the GPU's own figures changes too (a uniform one would cancel in the ratio).
double multiplier(int rank)
{
    return 1.37 * std::pow(0.83, rank);
}

/// A shipped benchmark CSV with every figure of `gpu` multiplied (columns named in `columns`): by
/// multiplier(stack_rank) where the file has that column, else by multiplier(0).
QString scaled(const QString &file, const QString &gpu, const QStringList &columns)
{
    const QString text = readResourceText(u"benchmarks/"_s + file);
    const auto doc = parseCsv(text);
    if (!doc)
        qFatal("cannot parse %s", qPrintable(file));
    const CsvDocument &d = doc.value();
    QStringList lines{d.header.join(u',')};
    const int gpuCol = d.column(u"gpu_id"_s);
    const int rankCol = d.column(u"stack_rank"_s);
    for (const CsvRecord &r : d.records) {
        QStringList f = r.fields;
        const double factor = multiplier(rankCol >= 0 ? f.value(rankCol).toInt() : 0);
        if (f.value(gpuCol) == gpu)
            for (const QString &c : columns)
                f[d.column(c)] = QString::number(f.at(d.column(c)).toDouble() * factor, 'g', 10);
        lines.append(f.join(u','));
    }
    return lines.join(u'\n') + u'\n';
}

/// The shipped benchmark table with every measured figure of `gpu` (anchors.csv and anchor_candidates.csv)
/// multiplied by multiplier(rank of its stack).
BenchmarkTable tableWithGpuScaled(const QString &gpu)
{
    auto t =
        BenchmarkTable::fromCsv(scaled(u"anchors.csv"_s, gpu, {u"samples_per_s"_s, u"measured_per_gpu"_s}),
                                readResourceText(u"benchmarks/sources.csv"_s),
                                readResourceText(u"benchmarks/training_throughput.csv"_s),
                                scaled(u"anchor_candidates.csv"_s, gpu, {u"samples_per_s"_s}));
    if (!t)
        qFatal("%s", qPrintable(t.error().text()));
    return t.value();
}

const ValidationRow *rowOf(const QList<ValidationRow> &rows, const QString &gpu)
{
    for (const ValidationRow &r : rows)
        if (r.gpuId == gpu)
            return &r;
    return nullptr;
}

QStringList validatedGpus(const QList<ValidationRow> &rows)
{
    QStringList out;
    for (const ValidationRow &r : rows)
        if (r.validated)
            out.append(r.gpuId);
    return out;
}

} // namespace

class TestValidation final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The anchors recomputed from anchor_candidates.csv with every GPU are the shipped anchors.csv: the
    // validation holds out GPUs from the same data and by the same rules the app's projection uses.
    void candidatesGiveTheShippedAnchors()
    {
        const SpeedModel &m = SpeedModel::builtin();
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        int checked = 0;
        for (const Workload &w : builtinWorkloads()) {
            const CandidateAnchors a = m.candidateAnchors(
                w, QString(), [&](const AnchorCandidate &c) { return m.candidateRelative(w, c, specs); });
            int shipped = 0;
            for (const BenchmarkAnchor &b : m.benchmarks().anchors())
                shipped += b.measurement.workloadId == w.id;
            QCOMPARE(a.anchors.size(), shipped);
            for (const CandidateAnchors::Anchor &x : a.anchors) {
                const BenchmarkAnchor *b = m.benchmarks().anchor(w.id, x.candidate.gpuId);
                const QString where = w.id + u' ' + x.candidate.gpuId;
                QVERIFY2(b, qPrintable(where));
                QCOMPARE(x.candidate.stack, b->stack);
                QCOMPARE(x.factor.method, b->factorMethod);
                QCOMPARE(x.factor.sharedGpus, b->factorGpus);
                QVERIFY2(std::abs(x.factor.factor / b->stackFactor - 1) < 2e-4, qPrintable(where));
                QVERIFY2(std::abs(x.value / b->measurement.samplesPerSPerGpu - 1) < 1e-3, qPrintable(where));
                ++checked;
            }
        }
        QVERIFY(checked >= 20);
    }

    // No leakage: every figure of the held-out GPU multiplied (its anchors, and every stack it was measured
    // in by a different factor, so that stack factors resting on it change: the MLPerf -> DLE PyTorch
    // factor rests on the A100 80GB alone) changes its "measured" by exactly its stack's factor and its
    // projection not at all, for every validated GPU of every preset; the other GPUs' rows do move (the
    // change took effect: the GPU is one of their references).
    void heldOutFiguresDoNotReachTheirProjection_data()
    {
        QTest::addColumn<QString>("workload");
        QTest::addColumn<QString>("gpu");
        for (const QString &id : {u"resnet50"_s, u"bert-large-squad"_s})
            for (const QString &g :
                 validatedGpus(SpeedModel::builtin().validate(preset(id), GpuSpecTable::builtin())))
                QTest::addRow("%s %s", qPrintable(id), qPrintable(g)) << id << g;
    }
    void heldOutFiguresDoNotReachTheirProjection()
    {
        QFETCH(QString, workload);
        QFETCH(QString, gpu);
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        const SpeedModel &shipped = SpeedModel::builtin();
        const QList<ValidationRow> before = shipped.validate(preset(workload), specs);
        const SpeedModel changed(shipped.constants(), shipped.arch(), tableWithGpuScaled(gpu));
        const QList<ValidationRow> after = changed.validate(preset(workload), specs);
        const ValidationRow *b = rowOf(before, gpu);
        const ValidationRow *a = rowOf(after, gpu);
        QVERIFY(b && a && b->validated && a->validated);
        QCOMPARE(a->projected, b->projected);
        QCOMPARE(a->projectedV1, b->projectedV1);
        QCOMPARE(a->referenceGpus, b->referenceGpus);
        int rank = -1;
        for (const AnchorCandidate &c : shipped.benchmarks().candidates())
            if (c.presetId == workload && c.gpuId == gpu && c.stack == b->stack)
                rank = c.stackRank;
        QVERIFY(rank >= 0);
        QVERIFY(std::abs(a->measured / b->measured - multiplier(rank)) < 1e-9);
        QVERIFY(std::abs((a->logError - b->logError) + std::log(multiplier(rank))) < 1e-9);
        int moved = 0;
        for (const ValidationRow &r : after)
            if (const ValidationRow *o = rowOf(before, r.gpuId); o && r.gpuId != gpu && r.validated)
                moved += std::abs(r.projected / o->projected - 1) > 1e-6;
        QVERIFY2(moved > 0, "changing the GPU's figures moved no other row: the change did not take effect");
    }

    // The fitted constants of a held-out GPU's projection are its fold's (fitted without it): changing one
    // fold moves exactly that GPU's row; the shipped all-data constants do not matter for it.
    void foldConstantsProjectTheHeldOutGpu()
    {
        const GpuSpecTable &specs = GpuSpecTable::builtin();
        const SpeedModel &shipped = SpeedModel::builtin();
        const Workload &w = preset(u"resnet50"_s);
        const QList<ValidationRow> before = shipped.validate(w, specs);
        const QString gpu = u"h100-80gb-sxm"_s;
        QVERIFY(shipped.constants().fold(gpu));
        QVERIFY(shipped.constants().fold(gpu)->beta != shipped.constants().beta);

        ModelConstants c = shipped.constants();
        c.fold(gpu)->beta *= 2; // the H100 SXM fold only
        const QList<ValidationRow> foldChanged = shipped.withConstants(c).validate(w, specs);
        ModelConstants d = shipped.constants();
        d.beta *= 2; // the all-data constants only
        d.gamma *= 1.1;
        const QList<ValidationRow> allChanged = shipped.withConstants(d).validate(w, specs);
        for (const ValidationRow &r : before) {
            if (!r.validated)
                continue;
            const double f = rowOf(foldChanged, r.gpuId)->projected;
            const double a = rowOf(allChanged, r.gpuId)->projected;
            QCOMPARE(a, r.projected);
            if (r.gpuId == gpu)
                QVERIFY(std::abs(f / r.projected - 1) > 1e-3);
            else
                QCOMPARE(f, r.projected);
        }
    }

    // Every anchor GPU of a preset with >= 2 anchors has a fold, refitted: its constants are not the
    // all-data ones.
    void everyMeasuredGpuHasItsFold()
    {
        const SpeedModel &m = SpeedModel::builtin();
        for (const QString &id : {u"resnet50"_s, u"bert-large-squad"_s}) {
            const QList<ValidationRow> rows = m.validate(preset(id), GpuSpecTable::builtin());
            QVERIFY(rows.size() >= 4);
            for (const ValidationRow &r : rows) {
                const ModelConstants *f = m.constants().fold(r.gpuId);
                QVERIFY2(f, qPrintable(r.gpuId));
                QVERIFY2(f->beta != m.constants().beta || f->epsTflopsPerW != m.constants().epsTflopsPerW ||
                             f->gamma != m.constants().gamma,
                         qPrintable(r.gpuId));
                QVERIFY2(!r.note.contains(u"no constants"_s), qPrintable(r.gpuId));
            }
        }
    }

    // The figures are what the rows say, and what the prototype's end-to-end validation computed
    // independently (resources/benchmarks/validation.csv, kind end-to-end: fit_projection.py's refit per
    // held-out GPU and its own anchors_for/conversion_factors): same GPUs, measured, projected (v2 and
    // today's model) within the CSV's 5 significant digits and the folds' rounding.
    void figuresMatchThePrototype()
    {
        const auto doc = parseCsv(readResourceText(u"benchmarks/validation.csv"_s));
        QVERIFY(doc.ok());
        const CsvDocument &d = doc.value();
        auto col = [&](const char *name) { return d.column(QLatin1StringView(name)); };
        QHash<QString, QStringList> expectedGpus;
        int checked = 0;
        QHash<QString, QList<ValidationRow>> rows;
        for (const QString &id : {u"resnet50"_s, u"bert-large-squad"_s})
            rows.insert(id, SpeedModel::builtin().validate(preset(id), GpuSpecTable::builtin()));
        auto close = [](double a, double b, double tol) { return std::abs(a / b - 1) <= tol; };
        for (const CsvRecord &r : d.records) {
            if (r.fields.at(col("kind")) != u"end-to-end")
                continue;
            const QString id = r.fields.at(col("workload"));
            const QString gpu = r.fields.at(col("gpu"));
            expectedGpus[id].append(gpu);
            const ValidationRow *v = rowOf(rows.value(id), gpu);
            const QString where = id + u' ' + gpu;
            QVERIFY2(v && v->validated, qPrintable(where));
            QCOMPARE(v->stack, r.fields.at(col("stack")));
            const double measured = r.fields.at(col("measured")).toDouble();
            const double projected = r.fields.at(col("projected_v2")).toDouble();
            const double today = r.fields.at(col("projected_today")).toDouble();
            QVERIFY2(close(v->measured, measured, 1e-4),
                     qPrintable(u"%1: measured %2 vs %3"_s.arg(where).arg(v->measured).arg(measured)));
            QVERIFY2(close(v->projected, projected, 1e-3),
                     qPrintable(u"%1: projected %2 vs %3"_s.arg(where).arg(v->projected).arg(projected)));
            QVERIFY2(close(v->projectedV1, today, 1e-3),
                     qPrintable(u"%1: v1 %2 vs %3"_s.arg(where).arg(v->projectedV1).arg(today)));
            QVERIFY(std::abs(v->logError - std::log(v->projected / v->measured)) < 1e-12);
            QVERIFY(std::abs(v->logErrorV1 - std::log(v->projectedV1 / v->measured)) < 1e-12);
            QVERIFY(v->truthFactor.method == u"reference" || v->truthFactor.method == u"shared-gpu");
            QVERIFY(!v->truthFactor.sharedGpus.contains(gpu));
            ++checked;
        }
        for (auto it = rows.cbegin(); it != rows.cend(); ++it) {
            QStringList expected = expectedGpus.value(it.key());
            expected.sort();
            QCOMPARE(validatedGpus(it.value()), expected);
            const ValidationSummary s = summarizeValidation(it.value());
            QCOMPARE(s.n, int(expected.size()));
            double mx = 0;
            for (const ValidationRow &v : it.value())
                if (v.validated)
                    mx = std::max(mx, std::abs(v.logError));
            QCOMPARE(s.max, mx);
        }
        QVERIFY(checked >= 15);
    }

    // A GPU whose own figure reaches the reference stack only through the model (no other GPU measured in
    // both stacks) is listed with the reason, not scored: its "truth" would be the model's own level.
    void modelConvertedFiguresAreNotScored()
    {
        const QList<ValidationRow> rows =
            SpeedModel::builtin().validate(preset(u"resnet50"_s), GpuSpecTable::builtin());
        const ValidationRow *r = rowOf(rows, u"rtx4090"_s);
        QVERIFY(r);
        QVERIFY(!r->validated);
        QVERIFY(r->note.contains(u"through the model"_s));
        QCOMPARE(r->projected, 0.0);
        QVERIFY(summarizeValidation(rows).n < rows.size());
    }
};

QTEST_GUILESS_MAIN(TestValidation)
#include "test_validation.moc"

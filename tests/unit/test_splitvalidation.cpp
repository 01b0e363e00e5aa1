#include "projection/splitvalidation.h"
#include "util/resourcefiles.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>
#include <functional>

using namespace gf;

// The held-out splits of model_v2.json (issue 22 item 4) projected through the app's own model: the figures
// must be fit_projection.py's for the same cases (to the printed precision), every figure must come from
// its fold's constants, and a file with a broken entry must say which entry.
class TestSplitValidation final : public QObject
{
    Q_OBJECT

    static QJsonObject shippedDocument()
    {
        return QJsonDocument::fromJson(readResource(QStringLiteral("benchmarks/model_v2.json"))).object();
    }

    /// The shipped document with `edit` applied to its held_out_splits.<split> object.
    static QByteArray edited(const QString &split, const std::function<void(QJsonObject &)> &edit)
    {
        QJsonObject root = shippedDocument();
        QJsonObject splits = root.value(u"held_out_splits").toObject();
        QJsonObject s = splits.value(split).toObject();
        edit(s);
        splits.insert(split, s);
        root.insert(u"held_out_splits", splits);
        return QJsonDocument(root).toJson(QJsonDocument::Compact);
    }

    /// Applies `edit` to element `index` of the array `key` of `parent`, in place.
    static void editElement(QJsonObject &parent, QStringView key, int index,
                            const std::function<void(QJsonObject &)> &edit)
    {
        QJsonArray a = parent.value(key).toArray();
        QJsonObject o = a.at(index).toObject();
        edit(o);
        a.replace(index, o);
        parent.insert(key, a);
    }

    static QString errorOf(const QByteArray &json)
    {
        auto r = HeldOutSplits::fromJson(json, ModelConstants::builtin());
        return r ? QString() : r.error().text();
    }

private Q_SLOTS:
    void shippedSplitsMatchTheFitter()
    {
        const auto v =
            validateHeldOutSplits(SpeedModel::builtin(), GpuSpecTable::builtin(), HeldOutSplits::builtin());
        QVERIFY2(v, v ? "" : qPrintable(v.error().text()));
        QCOMPARE(v.value().size(), 3);
        const QStringList ids{QStringLiteral("leave_one_gpu_out"), QStringLiteral("leave_one_source_out"),
                              QStringLiteral("time_split")};
        for (int i = 0; i < 3; ++i) {
            const SplitValidation &s = v.value().at(i);
            QCOMPARE(s.id, ids.at(i));
            QVERIFY(s.summary.n > 0);
            QCOMPARE(s.summary.n, s.toolSummary.n);
            // fit_projection_summary is rounded to 4 decimals; validate prints 3.
            QVERIFY2(std::abs(s.summary.median - s.toolSummary.median) < 5e-4, qPrintable(s.id));
            QVERIFY2(std::abs(s.summary.max - s.toolSummary.max) < 5e-4, qPrintable(s.id));
            QCOMPARE(std::lround(s.summary.coverageShipped * s.summary.n),
                     std::lround(s.toolSummary.coverageShipped * s.toolSummary.n));
            QCOMPARE(s.summary.coverageFoldRange.has_value(), s.toolSummary.coverageFoldRange.has_value());
            // Every split's folds carry their own range, leave one GPU out's too (a nested refit per GPU).
            QVERIFY2(s.summary.coverageFoldRange.has_value(), qPrintable(s.id));
            if (s.summary.coverageFoldRange)
                QVERIFY(std::abs(*s.summary.coverageFoldRange - *s.toolSummary.coverageFoldRange) < 1e-3);
            for (const SplitRow &r : s.rows) {
                QVERIFY(r.measured > 0 && r.projected > 0);
                QVERIFY(std::abs(r.logError - std::log(r.projected / r.measured)) < 1e-12);
                QVERIFY(r.tier == ProjectionTier::Transferred ||
                        r.tier == ProjectionTier::TransferredCrossArch);
                QVERIFY(r.references >= 1);
                const LogRange range = ModelConstants::builtin().range(r.tier);
                QCOMPARE(r.insideShipped, range.p10 <= r.logError && r.logError <= range.p90);
            }
        }
        // The time split projects the later architectures only.
        for (const SplitRow &r : v.value().at(2).rows) {
            const GpuArch *a = GpuArchTable::builtin().arch(r.gpuId);
            QVERIFY(a);
            QVERIFY2(a->arch == u"ada" || a->arch == u"hopper" || a->arch.startsWith(u"blackwell"),
                     qPrintable(r.gpuId));
        }
    }

    // A fold's own constants project its cases: the same cases with the shipped (all-data) constants give
    // other figures.
    void foldConstantsAreUsed()
    {
        HeldOutSplits splits = HeldOutSplits::builtin();
        const auto before =
            validateHeldOutSplits(SpeedModel::builtin(), GpuSpecTable::builtin(), splits).value();
        for (HeldOutSplit &s : splits.splits)
            for (SplitFold &f : s.folds) {
                f.constants.beta *= 2;
                f.constants.sameArchWeight = 1;
            }
        const auto after =
            validateHeldOutSplits(SpeedModel::builtin(), GpuSpecTable::builtin(), splits).value();
        QCOMPARE(after.size(), before.size());
        int moved = 0;
        for (qsizetype i = 0; i < after.size(); ++i)
            for (qsizetype k = 0; k < after.at(i).rows.size(); ++k)
                moved +=
                    std::abs(after.at(i).rows.at(k).projected - before.at(i).rows.at(k).projected) > 1e-9;
        QVERIFY(moved > 10);
    }

    void brokenEntriesAreNamed()
    {
        // a fold constant missing
        QString e = errorOf(edited(QStringLiteral("leave_one_source_out"), [](QJsonObject &s) {
            editElement(s, u"folds", 1, [](QJsonObject &f) {
                QJsonObject c = f.value(u"constants").toObject();
                c.remove(u"beta");
                f.insert(u"constants", c);
            });
        }));
        QVERIFY2(e.contains(u"leave_one_source_out") && e.contains(u"fold 1") && e.contains(u"\"beta\""),
                 qPrintable(e));
        // a case whose target is no observation
        e = errorOf(edited(QStringLiteral("time_split"), [](QJsonObject &s) {
            editElement(s, u"folds", 0, [](QJsonObject &f) {
                editElement(f, u"cases", 2, [](QJsonObject &c) { c.insert(u"target", 100000); });
            });
        }));
        QVERIFY2(e.contains(u"time_split") && e.contains(u"case 2") && e.contains(u"\"target\""),
                 qPrintable(e));
        // an observation with an unknown precision
        e = errorOf(edited(QStringLiteral("leave_one_gpu_out"), [](QJsonObject &s) {
            editElement(s, u"observations", 3,
                        [](QJsonObject &o) { o.insert(u"precision", QStringLiteral("fp12")); });
        }));
        QVERIFY2(e.contains(u"leave_one_gpu_out") && e.contains(u"observation 3") && e.contains(u"precision"),
                 qPrintable(e));
        // a range the wrong way round
        e = errorOf(edited(QStringLiteral("time_split"), [](QJsonObject &s) {
            editElement(s, u"folds", 0, [](QJsonObject &f) { f.insert(u"range", QJsonArray{0.2, -0.2}); });
        }));
        QVERIFY2(e.contains(u"\"range\""), qPrintable(e));
        // a split missing, and no splits at all
        QJsonObject root = shippedDocument();
        QJsonObject splits = root.value(u"held_out_splits").toObject();
        splits.remove(u"time_split");
        root.insert(u"held_out_splits", splits);
        e = errorOf(QJsonDocument(root).toJson());
        QVERIFY2(e.contains(u"\"time_split\" is missing"), qPrintable(e));
        root.remove(u"held_out_splits");
        e = errorOf(QJsonDocument(root).toJson());
        QVERIFY2(e.contains(u"no \"held_out_splits\""), qPrintable(e));
        QVERIFY(!errorOf("not json").isEmpty());
    }

    // A GPU that the app does not know is an error at projection time that names it.
    void unknownGpuIsNamed()
    {
        auto parsed =
            HeldOutSplits::fromJson(edited(QStringLiteral("time_split"),
                                           [](QJsonObject &s) {
                                               editElement(s, u"observations", 0, [](QJsonObject &o) {
                                                   o.insert(u"gpu", QStringLiteral("no-such-gpu"));
                                               });
                                           }),
                                    ModelConstants::builtin());
        QVERIFY(parsed);
        const auto v = validateHeldOutSplits(SpeedModel::builtin(), GpuSpecTable::builtin(), parsed.value());
        QVERIFY(!v);
        QVERIFY2(v.error().text().contains(u"no-such-gpu") && v.error().text().contains(u"time_split"),
                 qPrintable(v.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestSplitValidation)
#include "test_splitvalidation.moc"

#include "projection/transfervalidation.h"

#include <QTest>

#include <cmath>

using namespace gf;

// A user's own figure carried across GPUs (issue 22 item 5): every pair is a real projection of the shipped
// data, the summaries are those of the pairs, and a broken data file says which record is wrong.
class TestTransferValidation final : public QObject
{
    Q_OBJECT

    static const QString workloads()
    {
        return QStringLiteral("workload,class,unit,flops_per_sample,flops_basis\n"
                              "w1,convolutional,images,24600000000,preset\n"
                              "w2,transformer,sequences,739300000000,preset\n");
    }

private Q_SLOTS:
    void shippedData()
    {
        const TransferData &data = TransferData::builtin();
        QCOMPARE(data.workloads.size(), 10);
        QVERIFY(data.rows.size() >= 100);
        const TransferValidation v =
            validateUserTransfer(SpeedModel::builtin(), GpuSpecTable::builtin(), data);
        QVERIFY(v.skipped.isEmpty());
        int fromHeadline = 0;
        for (const TransferPair &p : v.pairs) {
            QVERIFY(p.fromGpu != p.toGpu);
            QVERIFY(p.measured > 0 && p.projected > 0);
            QVERIFY(std::abs(p.logError - std::log(p.projected / p.measured)) < 1e-12);
            // the user's figure is the only measurement: the other GPUs are transferred from it
            QVERIFY(p.tier == ProjectionTier::Transferred || p.tier == ProjectionTier::TransferredCrossArch);
            fromHeadline += p.fromGpu == v.headlineGpu ? 1 : 0;
        }
        QCOMPARE(v.all.n, int(v.pairs.size()));
        QCOMPARE(v.fromHeadline.n, fromHeadline);
        int perWorkload = 0, perClass = 0;
        for (const TransferSummary &s : v.byWorkload)
            perWorkload += s.n;
        for (const TransferSummary &s : v.byClass)
            perClass += s.n;
        QCOMPARE(perWorkload, fromHeadline);
        QCOMPARE(perClass, fromHeadline);
        QStringList classes;
        for (const TransferSummary &s : v.byClass)
            classes.append(s.label);
        classes.sort();
        QCOMPARE(classes, (QStringList{QStringLiteral("convolutional"), QStringLiteral("detection"),
                                       QStringLiteral("recurrent-speech"), QStringLiteral("transformer")}));
        QVERIFY(v.all.median <= v.all.max);
        QVERIFY(v.all.coverage > 0 && v.all.coverage <= 1);
    }

    // A GPU's figure that is exactly what the app projects from the user's figure scores 0, inside the range;
    // twice as fast scores -ln 2.
    void exactTransferScoresZero()
    {
        const SpeedModel &model = SpeedModel::builtin();
        auto first =
            TransferData::parse(workloads(), QStringLiteral("source_id,workload,gpu_id,batch_per_gpu,"
                                                            "samples_per_s\n"
                                                            "s,w1,a100-80gb-sxm4,256,2000\n"
                                                            "s,w1,rtx3090,,1\n"));
        QVERIFY2(first, first ? "" : qPrintable(first.error().text()));
        TransferValidation v = validateUserTransfer(model, GpuSpecTable::builtin(), first.value());
        double projected = 0;
        for (const TransferPair &p : v.pairs)
            if (p.fromGpu == u"a100-80gb-sxm4")
                projected = p.projected;
        QVERIFY(projected > 0);
        TransferData data = first.value();
        data.rows[1].samplesPerS = projected;
        v = validateUserTransfer(model, GpuSpecTable::builtin(), data);
        QCOMPARE(v.pairs.size(), 2);
        for (const TransferPair &p : v.pairs) {
            QVERIFY(std::abs(p.logError) < 1e-9);
            QVERIFY(p.inside);
        }
        data.rows[1].samplesPerS = 2 * projected;
        v = validateUserTransfer(model, GpuSpecTable::builtin(), data);
        QVERIFY(std::abs(v.fromHeadline.median - std::log(2.0)) < 1e-9);
        QCOMPARE(v.byWorkload.at(1).n, 0); // w2 has no rows
    }

    void brokenFilesAreNamed()
    {
        const QString header = QStringLiteral("source_id,workload,gpu_id,batch_per_gpu,samples_per_s\n");
        auto r = TransferData::parse(workloads(), header + QStringLiteral("s,w9,a40,8,10\n"));
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"record 1") && r.error().text().contains(u"\"w9\""),
                 qPrintable(r.error().text()));
        r = TransferData::parse(workloads(), header + QStringLiteral("s,w1,a40,8,10\ns,w1,a40,eight,10\n"));
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"record 2") && r.error().text().contains(u"batch_per_gpu"),
                 qPrintable(r.error().text()));
        r = TransferData::parse(workloads(), header + QStringLiteral("s,w1,a40,8,-3\n"));
        QVERIFY(!r);
        QVERIFY(r.error().text().contains(u"samples_per_s"));
        r = TransferData::parse(workloads(), QStringLiteral("source_id,workload,gpu_id,samples_per_s\n"));
        QVERIFY(!r);
        QVERIFY(r.error().text().contains(u"batch_per_gpu is missing"));
        r = TransferData::parse(QStringLiteral("workload,class,unit,flops_per_sample\nw1,conv,images,zero\n"),
                                header);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(u"transfer_workloads.csv, record 1") &&
                     r.error().text().contains(u"flops_per_sample"),
                 qPrintable(r.error().text()));
    }
};

QTEST_GUILESS_MAIN(TestTransferValidation)
#include "test_transfervalidation.moc"

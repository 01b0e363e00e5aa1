// The measurements of 2026-11-26 from a lent H100 and H200 (probes/run_on_gpu.sh running
// resources/launch/gf_measure.py per preset; tests/fixtures/probe/<gpu>-2026-11-26/measure-*.json,
// shipped as resources/benchmarks/measured/): `measure --import` takes them as written, resolves the GPU
// from the name the device reports when no plan set GF_GPU_ID, and the frontier then shows the measured
// speed on that GPU.
#include "cli.h"
#include "clirun.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QStringList measurementFiles(const QString &run)
{
    QStringList files;
    const QDir dir(fixturePath(u"probe/"_s + run));
    for (const QString &name : dir.entryList({u"measure-*.json"_s}, QDir::Files, QDir::Name))
        if (!name.contains(u"superseded"_s))
            files.append(dir.filePath(name));
    return files;
}

QJsonObject readObject(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

QJsonObject singleGpuPoint(const QString &db, const QString &workload, const QString &gpuId)
{
    const CliRun r =
        cli(db, {u"frontier"_s, u"--workload"_s, workload, u"--on-demand"_s, u"--format"_s, u"json"_s});
    if (r.rc != 0)
        qWarning("%s", qPrintable(r.err));
    const QJsonArray points = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"points").toArray();
    for (const QJsonValue &v : points) {
        const QJsonObject p = v.toObject();
        if (p.value(u"gpu").toString() == gpuId && p.value(u"gpu_count").toDouble() == 1 &&
            p.value(u"nodes").toInt() == 1 && p.value(u"projected").toBool())
            return p;
    }
    return {};
}

} // namespace

class TestGpuMeasurements final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void importAsWritten_data()
    {
        QTest::addColumn<QString>("run");
        QTest::addColumn<QString>("gpuId");
        QTest::addColumn<int>("count");
        QTest::newRow("h100") << u"h100-2026-11-26"_s << u"h100-80gb-sxm"_s << 5;
        QTest::newRow("h200") << u"h200-2026-11-26"_s << u"h200-141gb-sxm"_s << 4;
    }

    void importAsWritten()
    {
        QFETCH(QString, run);
        QFETCH(QString, gpuId);
        QFETCH(int, count);
        const QStringList files = measurementFiles(run);
        QCOMPARE(files.size(), count);
        TempDb db;
        QStringList args{u"measure"_s, u"--import"_s};
        args += files;
        CliRun r = cli(db.path(), args);
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"%1 new, 0 already stored"_s.arg(count)), qPrintable(r.out));

        r = cli(db.path(), {u"measure"_s, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonArray list =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"measurements").toArray();
        QCOMPARE(list.size(), count);
        for (const QJsonValue &v : list) {
            const QJsonObject m = v.toObject();
            QCOMPARE(m.value(u"gpu_id"_s).toString(), gpuId);
            QVERIFY(m.value(u"measured_samples_per_s_per_gpu"_s).toDouble() > 0);
        }

        // ResNet-50 on that GPU, one GPU: the frontier's point is the measured figure.
        const QString rn = files.filter(u"measure-resnet50"_s).value(0);
        QVERIFY(!rn.isEmpty());
        const double measured = readObject(rn).value(u"samples_per_s_per_gpu"_s).toDouble();
        const QJsonObject p = singleGpuPoint(db.path(), u"resnet50"_s, gpuId);
        QVERIFY2(!p.isEmpty(), "no single-GPU point of that GPU in the bundled catalog");
        QVERIFY(p.value(u"flags"_s).toArray().contains(u"measured"_s));
        QCOMPARE(p.value(u"projection_tier"_s).toString(), u"measured"_s);
        const double speed = p.value(u"samples_per_s"_s).toDouble();
        if (p.value(u"flags"_s).toArray().contains(u"cpu-bound"_s)) // the offer's input pipeline caps it
            QVERIFY2(speed <= measured, qPrintable(u"%1 vs %2"_s.arg(speed).arg(measured)));
        else
            QVERIFY2(qAbs(speed - measured) < 1e-6 * measured,
                     qPrintable(u"%1 vs %2"_s.arg(speed).arg(measured)));
    }

    // Written without a plan (no GF_GPU_ID) and without GF_ACCELERATOR: the device's own name resolves;
    // a name that is no known GPU is refused with both names quoted.
    void gpuFromDeviceName()
    {
        QJsonObject doc = readObject(fixturePath(u"probe/h200-2026-11-26/measure-vit-b16.json"_s));
        QVERIFY(!doc.isEmpty());
        doc.insert(u"gpu_id"_s, u""_s);
        doc.insert(u"accelerator"_s, u""_s);
        QTemporaryDir dir;
        const QString file = dir.filePath(u"vit.json"_s);
        auto write = [&](const QJsonObject &o) {
            QFile f(file);
            return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
                   f.write(QJsonDocument(o).toJson()) > 0;
        };
        QVERIFY(write(doc));
        TempDb db;
        CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, file});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        r = cli(db.path(), {u"measure"_s, u"--format"_s, u"json"_s});
        const QJsonArray list =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"measurements").toArray();
        QCOMPARE(list.size(), 1);
        QCOMPARE(list.at(0).toObject().value(u"gpu_id"_s).toString(), u"h200-141gb-sxm"_s);

        doc.insert(u"device_name"_s, u"Banana GPU 9000"_s);
        doc.insert(u"accelerator"_s, u"Kiwi:8"_s);
        QVERIFY(write(doc));
        TempDb db2;
        r = cli(db2.path(), {u"measure"_s, u"--import"_s, file});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"Banana GPU 9000"_s) && r.err.contains(u"Kiwi:8"_s), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestGpuMeasurements)
#include "test_gpumeasurements.moc"

#include "fixtures.h"
#include "probe/probejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gf;
using namespace gf::test;

namespace {

const QString kCuda = QStringLiteral("probe/cuda_h100.json");
const QString kCpu = QStringLiteral("probe/cpu_quick.json");

QJsonValue replaced(const QJsonValue &node, QStringList path, const QJsonValue &value)
{
    const QString key = path.takeFirst();
    if (node.isArray()) {
        QJsonArray a = node.toArray();
        const qsizetype i = key.toInt();
        if (path.isEmpty()) {
            if (value.isUndefined())
                a.removeAt(i);
            else
                a[i] = value;
        } else {
            a[i] = replaced(a.at(i), path, value);
        }
        return a;
    }
    QJsonObject o = node.toObject();
    if (path.isEmpty()) {
        if (value.isUndefined())
            o.remove(key);
        else
            o.insert(key, value);
    } else {
        o.insert(key, replaced(o.value(key), path, value));
    }
    return o;
}

/// The fixture with the value at a dotted path ("device.name", "gemm.1.tflops") replaced;
/// an undefined value removes the field.
QByteArray with(const QString &path, const QJsonValue &value, const QString &fixture = kCuda)
{
    const QJsonObject root = QJsonDocument::fromJson(readFixture(fixture)).object();
    return QJsonDocument(replaced(root, path.split(u'.'), value).toObject()).toJson(QJsonDocument::Compact);
}

QByteArray without(const QString &path, const QString &fixture = kCuda)
{
    return with(path, QJsonValue(QJsonValue::Undefined), fixture);
}

} // namespace

class TestProbeResult final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void validCuda()
    {
        const auto r = parseProbeJson(readFixture(kCuda));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const ProbeResult &p = r.value();
        QCOMPARE(p.schemaVersion, 1);
        QCOMPARE(p.kind, QStringLiteral("cuda"));
        QCOMPARE(p.probeVersion, QStringLiteral("0.1.0"));
        QCOMPARE(p.createdAt.toString(Qt::ISODate), QStringLiteral("2026-11-22T10:15:02Z"));
        QCOMPARE(p.createdAt.offsetFromUtc(), 0);
        QCOMPARE(p.hostName, QStringLiteral("gpu-node-7"));
        QCOMPARE(p.quick, false);
        QCOMPARE(p.deviceName, QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(p.computeCapability, QStringLiteral("9.0"));
        QCOMPARE(p.smCount, 132);
        QCOMPARE(p.memoryGb, 85.0973);
        QCOMPARE(p.smClockMhz, 1980.0);
        QCOMPARE(p.memClockMhz, 2619.0);
        QCOMPARE(p.memBusWidthBits, 5120);
        QCOMPARE(p.peakMemBandwidthGbs, 3352.32);
        QCOMPARE(p.pcieGen, 5);
        QCOMPARE(p.pcieWidth, 16);
        QCOMPARE(p.driverVersion, QStringLiteral("580.159.04"));
        QCOMPARE(p.cudaVersion, QStringLiteral("13.0"));
        QCOMPARE(p.gemms.size(), 4);
        QCOMPARE(p.gemms.at(1).dtype, QStringLiteral("bf16"));
        QCOMPARE(p.gemms.at(1).m, 8192);
        QCOMPARE(p.gemms.at(2).n, 11008);
        QCOMPARE(p.gemms.at(2).k, 4096);
        QCOMPARE(p.gemms.at(1).tflops, 745.2);
        QCOMPARE(p.gemms.at(1).maxRelError.value_or(-1), 0.00195);
        QVERIFY(!p.gemms.at(3).maxRelError); // null = not checked
        QCOMPARE(p.fp32Tflops.value_or(0), 50.9);
        QCOMPARE(p.tf32Tflops.value_or(0), 378.2);
        QCOMPARE(p.fp16Tflops.value_or(0), 748.8);
        QCOMPARE(p.bf16Tflops.value_or(0), 745.2);
        QCOMPARE(p.fp8Tflops.value_or(0), 1310.5);
        QVERIFY(!p.fp64Tflops);
        QCOMPARE(p.memBandwidthGbs.value_or(0), 3005.7);
        QCOMPARE(p.h2dGbs.value_or(0), 53.1);
        QCOMPARE(p.d2hGbs.value_or(0), 52.4);
        QCOMPARE(p.launchOverheadUs.value_or(0), 2.31);
        QCOMPARE(p.elapsedS, 21.3);
    }

    void validCpu()
    {
        const auto r = parseProbeJson(readFixture(kCpu));
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().text()));
        const ProbeResult &p = r.value();
        QCOMPARE(p.kind, QStringLiteral("cpu"));
        QVERIFY(p.computeCapability.isEmpty());
        QCOMPARE(p.smCount, 2); // threads used
        QVERIFY(p.memoryGb > 0);
        QVERIFY(p.fp32Tflops.value_or(0) > 0);
        QVERIFY(p.fp64Tflops.value_or(0) > 0);
        QVERIFY(p.memBandwidthGbs.value_or(0) > 0);
        QVERIFY(!p.bf16Tflops && !p.h2dGbs && !p.launchOverheadUs);
        QCOMPARE(p.gemms.size(), 2);
        QCOMPARE(p.gemms.at(0).dtype, QStringLiteral("fp32"));
        QCOMPARE(p.gemms.at(1).dtype, QStringLiteral("fp64"));
        QVERIFY(p.quick);
    }

    void optionalFieldsMayBeNullOrAbsent()
    {
        QVERIFY(parseProbeJson(with(QStringLiteral("summary.fp8_tflops"), QJsonValue::Null)).ok());
        QVERIFY(parseProbeJson(without(QStringLiteral("summary.fp8_tflops"))).ok());
        QVERIFY(parseProbeJson(with(QStringLiteral("device.pcie_gen"), QJsonValue::Null)).ok());
        QVERIFY(parseProbeJson(without(QStringLiteral("gemm"))).ok());
        QVERIFY(parseProbeJson(without(QStringLiteral("host_name"))).ok());
        QVERIFY(
            parseProbeJson(with(QStringLiteral("created_at"), QStringLiteral("2026-11-22T11:15:02+01:00")))
                .ok());
        // Unknown fields are ignored (later probes may add some within schema 1).
        const auto r = parseProbeJson(with(QStringLiteral("device.future_field"), QStringLiteral("x")));
        QVERIFY(r.ok());
        const auto shifted =
            parseProbeJson(with(QStringLiteral("created_at"), QStringLiteral("2026-11-22T11:15:02+01:00")));
        QCOMPARE(shifted.value().createdAt.toString(Qt::ISODate), QStringLiteral("2026-11-22T10:15:02Z"));
    }

    void rejects_data()
    {
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QString>("expected");

        // Not a document at all.
        QTest::newRow("empty") << QByteArray() << QStringLiteral("it is empty");
        QTest::newRow("whitespace") << QByteArray(" \n\t ") << QStringLiteral("it is empty");
        QTest::newRow("text") << QByteArray("probe failed") << QStringLiteral("not valid JSON");
        QTest::newRow("truncated") << readFixture(kCuda).left(300) << QStringLiteral("not valid JSON");
        QTest::newRow("binary") << QByteArray("\xff\xfe\x00{\x01", 5) << QStringLiteral("not valid JSON");
        QTest::newRow("NaN literal") << QByteArray(R"({"schema_version": NaN})")
                                     << QStringLiteral("not valid JSON");
        QTest::newRow("array") << QByteArray("[1, 2, 3]") << QStringLiteral("not a JSON object");
        QTest::newRow("scalar") << QByteArray("42") << QStringLiteral("Invalid probe document");
        QTest::newRow("deep nesting") << QByteArray(200000, '[') << QStringLiteral("Invalid probe document");
        QTest::newRow("too large") << with(QStringLiteral("host_name"), QString(5 * 1024 * 1024, u'x'))
                                   << QStringLiteral("too large");

        // Schema version.
        QTest::newRow("no version") << QByteArray("{}")
                                    << QStringLiteral("Missing required field \"schema_version\"");
        QTest::newRow("version string") << with(QStringLiteral("schema_version"), QStringLiteral("1"))
                                        << QStringLiteral("\"schema_version\" must be a number");
        QTest::newRow("version 2") << with(QStringLiteral("schema_version"), 2)
                                   << QStringLiteral("unsupported schema_version 2");
        QTest::newRow("version 0") << with(QStringLiteral("schema_version"), 0)
                                   << QStringLiteral("unsupported schema_version 0");
        QTest::newRow("version 1.5") << with(QStringLiteral("schema_version"), 1.5)
                                     << QStringLiteral("must be a whole number");
        QTest::newRow("version huge") << with(QStringLiteral("schema_version"), 1e300)
                                      << QStringLiteral("\"schema_version\" is out of range");
        QTest::newRow("version overflow")
            << QByteArray(R"({"schema_version": 1e999})") << QStringLiteral("Invalid probe document");

        // Header.
        QTest::newRow("no kind") << without(QStringLiteral("kind"))
                                 << QStringLiteral("Missing required field \"kind\"");
        QTest::newRow("kind number") << with(QStringLiteral("kind"), 5)
                                     << QStringLiteral("\"kind\" must be a string");
        QTest::newRow("kind tpu") << with(QStringLiteral("kind"), QStringLiteral("tpu"))
                                  << QStringLiteral("\"kind\" must be \"cuda\" or \"cpu\"");
        QTest::newRow("no probe_version") << without(QStringLiteral("probe_version"))
                                          << QStringLiteral("Missing required field \"probe_version\"");
        QTest::newRow("no created_at") << without(QStringLiteral("created_at"))
                                       << QStringLiteral("Missing required field \"created_at\"");
        QTest::newRow("created_at text") << with(QStringLiteral("created_at"), QStringLiteral("yesterday"))
                                         << QStringLiteral("\"created_at\" is not an ISO 8601 date-time");
        QTest::newRow("created_at no zone")
            << with(QStringLiteral("created_at"), QStringLiteral("2026-11-22T10:15:02"))
            << QStringLiteral("\"created_at\" is not an ISO 8601 date-time");
        QTest::newRow("created_at 1970")
            << with(QStringLiteral("created_at"), QStringLiteral("1970-01-01T00:00:00Z"))
            << QStringLiteral("\"created_at\" is out of range");
        QTest::newRow("quick string") << with(QStringLiteral("quick"), QStringLiteral("yes"))
                                      << QStringLiteral("\"quick\" must be true or false");
        QTest::newRow("elapsed negative")
            << with(QStringLiteral("elapsed_s"), -3) << QStringLiteral("\"elapsed_s\" is out of range");
        QTest::newRow("host control chars")
            << with(QStringLiteral("host_name"), QStringLiteral("a\u001b[31mred"))
            << QStringLiteral("\"host_name\" contains control characters");

        // Device.
        QTest::newRow("no device") << without(QStringLiteral("device"))
                                   << QStringLiteral("Missing required field \"device\"");
        QTest::newRow("device array") << with(QStringLiteral("device"), QJsonArray{1, 2})
                                      << QStringLiteral("\"device\" must be an object");
        QTest::newRow("no name") << without(QStringLiteral("device.name"))
                                 << QStringLiteral("Missing required field \"device.name\"");
        QTest::newRow("empty name") << with(QStringLiteral("device.name"), QString())
                                    << QStringLiteral("\"device.name\" is empty");
        QTest::newRow("huge name") << with(QStringLiteral("device.name"), QString(100000, u'H'))
                                   << QStringLiteral(
                                          "\"device.name\" is too long (100000 characters, at most 256)");
        QTest::newRow("name bell") << with(QStringLiteral("device.name"), QStringLiteral("H100\u0007"))
                                   << QStringLiteral("\"device.name\" contains control characters");
        QTest::newRow("name object") << with(QStringLiteral("device.name"),
                                             QJsonObject{{QStringLiteral("a"), 1}})
                                     << QStringLiteral("\"device.name\" must be a string");
        QTest::newRow("no cc (cuda)")
            << without(QStringLiteral("device.compute_capability"))
            << QStringLiteral("Missing required field \"device.compute_capability\"");
        QTest::newRow("cc word") << with(QStringLiteral("device.compute_capability"), QStringLiteral("nine"))
                                 << QStringLiteral("\"device.compute_capability\" must look like \"9.0\"");
        QTest::newRow("no sm_count") << without(QStringLiteral("device.sm_count"))
                                     << QStringLiteral("Missing required field \"device.sm_count\"");
        QTest::newRow("sm_count negative") << with(QStringLiteral("device.sm_count"), -5)
                                           << QStringLiteral("\"device.sm_count\" is out of range: -5");
        QTest::newRow("sm_count absurd") << with(QStringLiteral("device.sm_count"), 1e12)
                                         << QStringLiteral("\"device.sm_count\" is out of range");
        QTest::newRow("sm_count fraction") << with(QStringLiteral("device.sm_count"), 12.5)
                                           << QStringLiteral("\"device.sm_count\" must be a whole number");
        QTest::newRow("memory string") << with(QStringLiteral("device.memory_gb"), QStringLiteral("80"))
                                       << QStringLiteral("\"device.memory_gb\" must be a number");
        QTest::newRow("memory negative") << with(QStringLiteral("device.memory_gb"), -80)
                                         << QStringLiteral("\"device.memory_gb\" is out of range");
        QTest::newRow("pcie gen 99") << with(QStringLiteral("device.pcie_gen"), 99)
                                     << QStringLiteral("\"device.pcie_gen\" is out of range");
        QTest::newRow("threads zero (cpu)") << with(QStringLiteral("device.threads"), 0, kCpu)
                                            << QStringLiteral("\"device.threads\" is out of range");
        QTest::newRow("driver huge") << with(QStringLiteral("device.driver_version"), QString(1000, u'5'))
                                     << QStringLiteral("\"device.driver_version\" is too long");

        // GEMM entries.
        QJsonArray many;
        for (int i = 0; i < 5000; ++i)
            many.append(QJsonObject{{QStringLiteral("dtype"), QStringLiteral("fp32")},
                                    {QStringLiteral("m"), 1},
                                    {QStringLiteral("n"), 1},
                                    {QStringLiteral("k"), 1},
                                    {QStringLiteral("tflops"), 1}});
        QTest::newRow("gemm object") << with(QStringLiteral("gemm"), QJsonObject{})
                                     << QStringLiteral("\"gemm\" must be an array");
        QTest::newRow("gemm too many")
            << with(QStringLiteral("gemm"), many)
            << QStringLiteral("\"gemm\" has too many entries (5000, at most 1000)");
        QTest::newRow("gemm entry number")
            << with(QStringLiteral("gemm.1"), 7) << QStringLiteral("\"gemm[1]\" must be an object");
        QTest::newRow("gemm dtype") << with(QStringLiteral("gemm.0.dtype"), QStringLiteral("int4"))
                                    << QStringLiteral("\"gemm[0].dtype\" is not a known type: \"int4\"");
        QTest::newRow("gemm no dtype") << without(QStringLiteral("gemm.2.dtype"))
                                       << QStringLiteral("Missing required field \"gemm[2].dtype\"");
        QTest::newRow("gemm m zero") << with(QStringLiteral("gemm.0.m"), 0)
                                     << QStringLiteral("\"gemm[0].m\" is out of range");
        QTest::newRow("gemm k huge") << with(QStringLiteral("gemm.0.k"), 1e15)
                                     << QStringLiteral("\"gemm[0].k\" is out of range");
        QTest::newRow("gemm tflops negative") << with(QStringLiteral("gemm.0.tflops"), -1)
                                              << QStringLiteral("\"gemm[0].tflops\" is out of range");
        QTest::newRow("gemm tflops zero") << with(QStringLiteral("gemm.0.tflops"), 0)
                                          << QStringLiteral("\"gemm[0].tflops\" must be greater than zero");
        QTest::newRow("gemm tflops absurd") << with(QStringLiteral("gemm.3.tflops"), 1e300)
                                            << QStringLiteral("\"gemm[3].tflops\" is out of range");
        QTest::newRow("gemm tflops missing") << without(QStringLiteral("gemm.1.tflops"))
                                             << QStringLiteral("Missing required field \"gemm[1].tflops\"");
        QTest::newRow("gemm tflops string") << with(QStringLiteral("gemm.1.tflops"), QStringLiteral("fast"))
                                            << QStringLiteral("\"gemm[1].tflops\" must be a number");
        QTest::newRow("gemm error negative") << with(QStringLiteral("gemm.0.max_rel_error"), -0.1)
                                             << QStringLiteral("\"gemm[0].max_rel_error\" is out of range");

        // Summary.
        QTest::newRow("no summary") << without(QStringLiteral("summary"))
                                    << QStringLiteral("Missing required field \"summary\"");
        QTest::newRow("summary string") << with(QStringLiteral("summary"), QStringLiteral("fast"))
                                        << QStringLiteral("\"summary\" must be an object");
        QTest::newRow("bf16 string") << with(QStringLiteral("summary.bf16_tflops"), QStringLiteral("fast"))
                                     << QStringLiteral("\"summary.bf16_tflops\" must be a number");
        QTest::newRow("bf16 bool") << with(QStringLiteral("summary.bf16_tflops"), true)
                                   << QStringLiteral("\"summary.bf16_tflops\" must be a number");
        QTest::newRow("bf16 negative") << with(QStringLiteral("summary.bf16_tflops"), -745.2)
                                       << QStringLiteral("\"summary.bf16_tflops\" is out of range");
        QTest::newRow("bf16 absurd")
            << with(QStringLiteral("summary.bf16_tflops"), 1e7)
            << QStringLiteral("\"summary.bf16_tflops\" is out of range: 10000000 (expected 0 to 100000)");
        QTest::newRow("bandwidth absurd") << with(QStringLiteral("summary.mem_bandwidth_gbs"), 1e9)
                                          << QStringLiteral("\"summary.mem_bandwidth_gbs\" is out of range");
        QTest::newRow("bandwidth zero")
            << with(QStringLiteral("summary.mem_bandwidth_gbs"), 0)
            << QStringLiteral("\"summary.mem_bandwidth_gbs\" must be greater than zero");
        QTest::newRow("launch negative") << with(QStringLiteral("summary.launch_overhead_us"), -2)
                                         << QStringLiteral("\"summary.launch_overhead_us\" is out of range");
        QTest::newRow("h2d absurd") << with(QStringLiteral("summary.h2d_gbs"), 1e6)
                                    << QStringLiteral("\"summary.h2d_gbs\" is out of range");
        QTest::newRow("summary empty") << with(QStringLiteral("summary"), QJsonObject{})
                                       << QStringLiteral("\"summary\" holds no measurement");
        QJsonObject nulls;
        for (const char16_t *k : {u"fp32_tflops", u"tf32_tflops", u"fp16_tflops", u"bf16_tflops",
                                  u"fp8_tflops", u"mem_bandwidth_gbs", u"h2d_gbs"})
            nulls.insert(QString::fromUtf16(k), QJsonValue::Null);
        QTest::newRow("summary all null")
            << with(QStringLiteral("summary"), nulls) << QStringLiteral("\"summary\" holds no measurement");

        // The error object.
        QTest::newRow("error string") << with(QStringLiteral("error"), QStringLiteral("boom"))
                                      << QStringLiteral("\"error\" must be an object");
        QTest::newRow("error document") << readFixture(QStringLiteral("probe/nodevice.json"))
                                        << QStringLiteral("The probe reported an error: No usable CUDA GPU");
        QTest::newRow("error without message")
            << with(QStringLiteral("error"), QJsonObject{{QStringLiteral("code"), 3}})
            << QStringLiteral("The probe reported an error: unknown error");
    }

    void rejects()
    {
        QFETCH(QByteArray, input);
        QFETCH(QString, expected);
        const auto r = parseProbeJson(input);
        QVERIFY2(!r.ok(), "a malformed document was accepted");
        QVERIFY2(
            r.error().message.contains(expected),
            qPrintable(
                QStringLiteral("message \"%1\" lacks \"%2\"").arg(r.error().message.left(300), expected)));
        QVERIFY(r.error().message.size() < 600); // never echoes a huge input back
    }

    void errorDocumentKeepsTheProbeDetail()
    {
        const auto r = parseProbeJson(readFixture(QStringLiteral("probe/nodevice.json")));
        QVERIFY(!r.ok());
        QVERIFY(r.error().detail.startsWith(QStringLiteral("no_device: cudaErrorInsufficientDriver")));
    }

    void probeJsonError()
    {
        const auto e = gf::probeJsonError(readFixture(QStringLiteral("probe/nodevice.json")));
        QVERIFY(e);
        QVERIFY(e->message.startsWith(QStringLiteral("No usable CUDA GPU")));
        QVERIFY(e->detail.contains(QStringLiteral("no_device")));
        QVERIFY(!gf::probeJsonError(readFixture(kCuda)));
        QVERIFY(!gf::probeJsonError("not json"));
        QVERIFY(!gf::probeJsonError(with(QStringLiteral("error"), 5)));
        // A huge message is cut down.
        const auto huge = gf::probeJsonError(
            with(QStringLiteral("error"), QJsonObject{{QStringLiteral("message"), QString(100000, u'x')}}));
        QVERIFY(huge && huge->message.size() < 2100);
    }
};

QTEST_APPLESS_MAIN(TestProbeResult)
#include "test_proberesult.moc"

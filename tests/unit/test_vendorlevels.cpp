// Rule AG (PROJECTION.md section 3.31): another vendor's GPU takes the level its MLPerf Training figures ran
// at against the model's projection from NVIDIA GPUs' (resources/benchmarks/other_vendor_levels.json, written
// by resources/tools/score_mlperf_extra.py --levels --write-levels): the file, its parsing, and what the
// level does to a projection, a user's figure on such a GPU, and protocol AB's pairs.
#include "domain/gpuarch.h"
#include "domain/gpuspecs.h"
#include "domain/workload.h"
#include "projection/speedmodel.h"
#include "projection/transfervalidation.h"
#include "projection/vendorlevels.h"
#include "util/resourcefiles.h"

#include "speedfixture.h"

#include <QHash>
#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Workload preset(const QString &id, SoftwareStack stack)
{
    return presetIn(id, stack);
}

SingleGpuSpeed speed(const SpeedModel &m, const Workload &w, const QString &gpu,
                     const ThroughputMeasurements &extra = {})
{
    return projectedSpeed(m, w, gpu, extra);
}

ThroughputMeasurement userFigure(const Workload &w, const QString &gpu, double samplesPerS)
{
    return userFigureOf(w.id, gpu, samplesPerS, w.batchPerGpu);
}

bool near(double a, double b, double rel = 1e-9)
{
    return std::abs(a - b) <= rel * std::abs(b);
}

} // namespace

class TestVendorLevels final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The shipped file: the AMD GPUs protocol AB measures, each with a level, its pairs and their evidence;
    // no NVIDIA GPU has one.
    void shippedFile()
    {
        const VendorLevels &v = VendorLevels::builtin();
        QVERIFY(!v.levels.isEmpty());
        for (auto it = v.levels.constBegin(); it != v.levels.constEnd(); ++it) {
            const GpuArch *arch = GpuArchTable::builtin().arch(it.key());
            QVERIFY2(arch && arch->otherVendor(), qPrintable(it.key()));
            QVERIFY(it->pairs >= 1);
            QVERIFY2(it->evidence.contains(u"MLPerf Training"_s), qPrintable(it->evidence));
        }
        const VendorLevel *mi300x = v.find(u"mi300x"_s);
        QVERIFY(mi300x);
        QVERIFY2(mi300x->logLevel < -0.2, "the MI300X's figures ran well below the model's projection");
        QVERIFY(mi300x->evidence.contains(u"Llama 2 70B LoRA"_s));
        QVERIFY(!v.find(u"h100-80gb-sxm"_s));
        QVERIFY(SpeedModel::builtin().vendorLevels().find(u"mi300x"_s));
    }

    // The in-app guide quotes the MI300X's factor: the shipped one.
    void theGuideQuotesTheShippedFactor()
    {
        const QString guide = readResourceText(u"help/guide.html"_s).simplified();
        const double level = VendorLevels::builtin().find(u"mi300x"_s)->logLevel;
        const QString quoted =
            u"the MI300X at %1x of its datasheet's projection"_s.arg(std::exp(level), 0, 'f', 2);
        QVERIFY2(guide.contains(quoted), qPrintable(quoted));
    }

    void badFilesAreRefusedNamingTheKey_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("names");
        QTest::newRow("not json") << QByteArray("{") << u"not a JSON object"_s;
        QTest::newRow("no levels") << QByteArray("{}") << u"levels must be an object"_s;
        QTest::newRow("level not an object")
            << QByteArray(R"({"levels": {"mi300x": 1}})") << u"levels.mi300x"_s;
        QTest::newRow("level a string")
            << QByteArray(R"({"levels": {"mi300x": {"log_level": "-0.4", "pairs": 2, "evidence": "e"}}})")
            << u"levels.mi300x.log_level"_s;
        QTest::newRow("level too far")
            << QByteArray(R"({"levels": {"mi300x": {"log_level": -3, "pairs": 2, "evidence": "e"}}})")
            << u"levels.mi300x.log_level"_s;
        QTest::newRow("no pairs") << QByteArray(
                                         R"({"levels": {"mi300x": {"log_level": -0.4, "evidence": "e"}}})")
                                  << u"levels.mi300x.pairs"_s;
        QTest::newRow("half a pair")
            << QByteArray(R"({"levels": {"mi300x": {"log_level": -0.4, "pairs": 1.5, "evidence": "e"}}})")
            << u"levels.mi300x.pairs"_s;
        QTest::newRow("no evidence")
            << QByteArray(R"({"levels": {"mi300x": {"log_level": -0.4, "pairs": 2, "evidence": " "}}})")
            << u"levels.mi300x.evidence"_s;
    }
    void badFilesAreRefusedNamingTheKey()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, names);
        const auto r = VendorLevels::fromJson(json);
        QVERIFY(!r);
        QVERIFY2(r.error().text().contains(names), qPrintable(r.error().text()));
    }

    void aGoodFileParses()
    {
        const auto r = VendorLevels::fromJson(
            R"({"levels": {"mi300x": {"log_level": -0.5, "pairs": 3, "evidence": "X, MLPerf Training v5.0"}}})");
        QVERIFY(r);
        QCOMPARE(r.value().levels.size(), 1);
        QCOMPARE(r.value().find(u"mi300x"_s)->logLevel, -0.5);
        QCOMPARE(r.value().find(u"mi300x"_s)->pairs, 3);
    }

    // The level multiplies the GPU's relative speed: in the tuned stack a preset's projection moves by
    // exactly e^L, every NVIDIA GPU's stays; in the typical stack the overhead takes part of it. The basis
    // says so.
    void aLevelMovesItsGpuAndNoOther()
    {
        const SpeedModel &with = SpeedModel::builtin();
        const SpeedModel without = with.withVendorLevels({});
        const double level = with.vendorLevels().find(u"mi300x"_s)->logLevel;
        for (const char *id : {"resnet50", "bert-large-squad", "llm7b-lora"}) {
            const Workload tuned = preset(QString::fromLatin1(id), SoftwareStack::Tuned);
            const SingleGpuSpeed a = speed(with, tuned, u"mi300x"_s), b = speed(without, tuned, u"mi300x"_s);
            QVERIFY2(near(a.samplesPerS, b.samplesPerS * std::exp(level)), id);
            QCOMPARE(a.tier, b.tier);
            QVERIFY(near(a.samplesPerSLow() / a.samplesPerS, b.samplesPerSLow() / b.samplesPerS));
            QVERIFY2(a.basis.contains(u"rule AG"_s) && a.basis.contains(u"x0.67"_s), qPrintable(a.basis));
            QCOMPARE(a.vendorLogLevel, level);
            QCOMPARE(b.vendorLogLevel, 0.0);
            QVERIFY(!b.basis.contains(u"rule AG"_s));
            for (const char *gpu : {"h100-80gb-sxm", "a100-80gb-sxm4", "rtx4090", "b200"}) {
                const QString g = QString::fromLatin1(gpu);
                QCOMPARE(speed(with, tuned, g).samplesPerS, speed(without, tuned, g).samplesPerS);
                QVERIFY(!speed(with, tuned, g).basis.contains(u"rule AG"_s));
            }
            const Workload typical = preset(QString::fromLatin1(id), SoftwareStack::Typical);
            const double t = speed(with, typical, u"mi300x"_s).samplesPerS;
            const double u = speed(without, typical, u"mi300x"_s).samplesPerS;
            QVERIFY2(t < u && t >= u * std::exp(level) * (1 - 1e-12), id);
        }
    }

    // A user's figure on the MI300X is read against its level: carried to an NVIDIA GPU it projects e^-L
    // faster than without the level, and the basis says why; the MI300X itself stays at the figure.
    void aUsersFigureOnTheGpuIsReadAgainstItsLevel()
    {
        const SpeedModel &with = SpeedModel::builtin();
        const SpeedModel without = with.withVendorLevels({});
        const double level = with.vendorLevels().find(u"mi300x"_s)->logLevel;
        const Workload tuned = preset(u"bert-large-squad"_s, SoftwareStack::Tuned);
        const ThroughputMeasurements mine{userFigure(tuned, u"mi300x"_s, 150)};
        const SingleGpuSpeed a = speed(with, tuned, u"h200-141gb-sxm"_s, mine);
        const SingleGpuSpeed b = speed(without, tuned, u"h200-141gb-sxm"_s, mine);
        QVERIFY(near(a.samplesPerS, b.samplesPerS * std::exp(-level)));
        QVERIFY2(a.basis.contains(u"your figure on mi300x is read against"_s), qPrintable(a.basis));
        QCOMPARE(speed(with, tuned, u"mi300x"_s, mine).samplesPerS, 150.0);
        QCOMPARE(speed(with, tuned, u"mi300x"_s, mine).vendorLogLevel, 0.0);
        QCOMPARE(a.vendorLogLevel, 0.0);
        QVERIFY(!speed(with, tuned, u"mi300x"_s, mine).basis.contains(u"rule AG"_s));
    }

    // Protocol AB's pairs through validate: an NVIDIA pair is the same with or without the levels, a pair of
    // an AMD GPU moves by L(to) - L(from) exactly (what score_mlperf_extra.py's backing out assumes).
    void protocolAbPairsMoveByTheLevelsAlone()
    {
        const SpeedModel &with = SpeedModel::builtin();
        const SpeedModel without = with.withVendorLevels({});
        const auto &levels = with.vendorLevels();
        const TunedTransferValidation a =
            validateTunedTransfer(with, GpuSpecTable::builtin(), TransferData::mlperfExtra());
        const TunedTransferValidation b =
            validateTunedTransfer(without, GpuSpecTable::builtin(), TransferData::mlperfExtra());
        QCOMPARE(a.pairs.size(), b.pairs.size());
        int moved = 0;
        for (qsizetype i = 0; i < a.pairs.size(); ++i) {
            const TransferPair &p = a.pairs.at(i), &q = b.pairs.at(i);
            QCOMPARE(p.toGpu, q.toGpu);
            QCOMPARE(p.fromGpu, q.fromGpu);
            const VendorLevel *to = levels.find(p.toGpu), *from = levels.find(p.fromGpu);
            const double d = (to ? to->logLevel : 0.0) - (from ? from->logLevel : 0.0);
            QVERIFY2(std::abs(p.logError - q.logError - d) < 1e-9,
                     qPrintable(u"%1 -> %2 (%3)"_s.arg(p.fromGpu, p.toGpu, p.workload)));
            moved += d != 0 ? 1 : 0;
        }
        QVERIFY(moved >= 30);
    }
};

QTEST_GUILESS_MAIN(TestVendorLevels)
#include "test_vendorlevels.moc"

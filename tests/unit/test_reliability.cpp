// Reliability: dates from the future, poisoned measurements, full disks, FIFOs,
// formula cells, offer IDs with commas, data as format strings, misleading messages and a database whose
// own schema was changed. One test per item of the issue; each failed on the code before the fix.
#include "catalogdump.h"
#include "cli.h"
#include "clirun.h"
#include "domain/gpucatalog.h"
#include "domain/gpuspecs.h"
#include "domain/offercsv.h"
#include "domain/pricesanity.h"
#include "domain/snapshotdata.h"
#include "launch/launchplan.h"
#include "launch/measurementcompare.h"
#include "launch/measurementjson.h"
#include "launch/offerid.h"
#include "projection/speedmodel.h"
#include "providers/snapshotfile.h"
#include "refresh/bundledsnapshot.h"
#include "store/catalogstore.h"
#include "testsupport.h"
#include "util/csv.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <csignal>
#include <functional>
#include <thread>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

/// What a child process returned: its exit code and what it wrote to the pipe.
struct ChildRun
{
    int exitCode = -1;
    QByteArray text;
};

/// Runs `body` in a child process whose files cannot grow beyond `maxBytes` (RLIMIT_FSIZE with SIGXFSZ
/// ignored: a write past the limit fails with EFBIG, as writes on a full disk fail). `body` returns the
/// exit code and a text for the parent (sent through a pipe, which the limit does not touch).
ChildRun withFileSizeLimit(rlim_t maxBytes, const std::function<std::pair<int, QByteArray>()> &body)
{
    int fds[2];
    if (::pipe(fds) != 0)
        qFatal("pipe failed");
    const pid_t pid = ::fork();
    if (pid == 0) {
        ::close(fds[0]);
        std::signal(SIGXFSZ, SIG_IGN);
        const rlimit limit{maxBytes, maxBytes};
        ::setrlimit(RLIMIT_FSIZE, &limit);
        const auto [code, text] = body();
        qsizetype done = 0;
        while (done < text.size()) {
            const ssize_t n =
                ::write(fds[1], text.constData() + done, static_cast<size_t>(text.size() - done));
            if (n <= 0)
                break;
            done += n;
        }
        ::_exit(code);
    }
    ::close(fds[1]);
    ChildRun r;
    char buffer[4096];
    ssize_t n;
    while ((n = ::read(fds[0], buffer, sizeof buffer)) > 0)
        r.text.append(buffer, static_cast<qsizetype>(n));
    ::close(fds[0]);
    int status = 0;
    ::waitpid(pid, &status, 0);
    r.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return r;
}

/// Three rows of the bundled Paperspace catalog, dated `date` (the issue's file).
QByteArray paperspaceCatalog(const QString &date)
{
    return "# provider: paperspace\n# snapshot_date: " + date.toUtf8() +
           "\n# source: test\nprovider,instance_type,region,zone,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,"
           "network_gbps,interconnect,ondemand_usd_h,spot_usd_h,spot_label,interruption,reliability,"
           "billing_increment_s,billing_minimum_s,source,upload_gbps,dlperf\n"
           "paperspace,H100x8,East Coast (NY2),,H100,8,80,128,640,,,73.0,,,,,1,,test,,\n"
           "paperspace,A100-80Gx8,East Coast (NY2),,A100-80GB,8,80,96,640,,,25.44,,,,,1,,test,,\n"
           "paperspace,A100-80G,East Coast (NY2),,A100-80GB,1,80,12,80,,,3.18,,,,,1,,test,,\n";
}

QByteArray measurementDoc(const QByteArray &samplesPerSPerGpu, const QByteArray &gpu = "h100-80gb-sxm",
                          const QByteArray &workload = "resnet50", const QByteArray &measuredAt = {})
{
    QByteArray doc = "{\"schema\": \"gpufrontier-measurement\", \"schema_version\": 1, \"workload\": \"" +
                     workload + "\", \"gpu_id\": \"" + gpu +
                     "\", \"samples_per_s_per_gpu\": " + samplesPerSPerGpu;
    if (!measuredAt.isEmpty())
        doc += ", \"measured_at\": \"" + measuredAt + '"';
    return doc + ", \"offer\": {\"key\": \"aws/p5.48xlarge/us-east-1\"}}";
}

/// resnet50 in the tuned stack: a user's level then moves another GPU by exactly its ratio (the typical
/// stack's overhead bends that on purpose: test_typicalstack).
const Workload &resnet50()
{
    static const Workload w = [] {
        Workload t = *findWorkload(builtinWorkloads(), u"resnet50");
        t.stack = SoftwareStack::Tuned;
        return t;
    }();
    return w;
}

/// The model's single-GPU speed of resnet50 on `gpu` with the user's `measurements`.
double projected(const QString &gpu, const ThroughputMeasurements &measurements)
{
    const SpeedModel &model = SpeedModel::builtin();
    const GpuSpec *spec = GpuSpecTable::builtin().spec(gpu);
    if (!spec)
        return 0;
    const SingleGpuSpeed s =
        model.project(*spec, resnet50(), model.anchorsFor(resnet50(), measurements, GpuSpecTable::builtin()),
                      defaultCalibration());
    return s.ok ? s.samplesPerS : 0;
}

ThroughputMeasurement userMeasurement(const QString &gpu, double perGpu)
{
    ThroughputMeasurement m;
    m.kind = MeasurementKind::User;
    m.workloadId = u"resnet50"_s;
    m.gpuId = gpu;
    m.samplesPerSPerGpu = perGpu;
    m.measuredAt = QDateTime::currentDateTimeUtc();
    return m;
}

/// A writable database filled with the bundled catalog.
std::unique_ptr<CatalogStore> filled(const TempDb &db)
{
    auto store = db.open();
    if (!importBundledIfEmpty(*store, GpuCatalog::builtin()))
        qFatal("bundled import failed");
    return store;
}

QString builtCli()
{
    return builtExecutable(u"gpufrontier-cli"_s);
}

bool isFifo(const QString &path)
{
    struct stat st;
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 && S_ISFIFO(st.st_mode);
}

} // namespace

class TestReliability final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // 1. A catalog dated in the future is refused and never makes another provider stale.
    void futureSnapshotDateRefused()
    {
        TempDb db;
        filled(db);
        const QByteArray before = dumpCatalog(db.path());
        const QString path = db.dir() + u"/paperspace-2099.csv"_s;
        writeFile(path, paperspaceCatalog(u"2099-01-01"_s));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"2099-01-01"_s) && r.err.contains(u"future"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
        // Tomorrow is accepted (a provider's local date may run ahead of UTC).
        const QString tomorrow = QDateTime::currentDateTimeUtc().date().addDays(1).toString(Qt::ISODate);
        writeFile(path, paperspaceCatalog(tomorrow));
        const CliRun ok = cli(db.path(), {u"import"_s, u"--file"_s, path});
        QVERIFY2(ok.rc == 0, qPrintable(ok.err));
        // A row's own price date in the future is refused by the validation too.
        auto parsed = parseSnapshotCsv(QString::fromUtf8(paperspaceCatalog(u"2026-11-01"_s)), u"x.csv"_s);
        QVERIFY(parsed);
        SnapshotData data = parsed.value();
        data.offers[1].priceDate = QDate(2099, 1, 1);
        ValidationLimits limits;
        limits.importDate = QDate(2026, 11, 26);
        const Status st = validateSnapshot(data, GpuCatalog::builtin(), u"x.csv"_s, limits);
        QVERIFY(!st);
        QVERIFY2(st.error().message.contains(u"2099-01-01"_s), qPrintable(st.error().message));
    }

    void futureDateInTheDatabaseMakesNoOneStale()
    {
        // A database written before the refusal: one provider's prices dated 2099. The others stay fresh.
        QList<Offer> offers;
        for (const QString &p : {u"aws"_s, u"gcp"_s, u"paperspace"_s}) {
            Offer o;
            o.provider = p;
            o.instanceType = p + u"-x"_s;
            o.region = u"r"_s;
            o.gpuId = u"a100-80gb-sxm4"_s;
            o.gpuCount = 1;
            o.onDemandUsdH = 3.0;
            o.fetchedAt = QDateTime(QDate(2026, 11, 20), QTime(12, 0), Qt::UTC);
            o.dataDate = p == u"paperspace" ? QDate(2099, 1, 1) : QDate(2026, 11, 1);
            offers.append(o);
        }
        applyPriceSanity(offers);
        for (const Offer &o : offers)
            QVERIFY2(!hasFlag(o.flags, OfferFlag::Stale), qPrintable(o.provider));
        QCOMPARE(priceAgeDays(offers.at(2), QDateTime(QDate(2026, 11, 26), QTime(0, 0), Qt::UTC)), 0);
    }

    // 2. An absurd measurement is refused at import and quarantined in the projection; a plausible one
    //    moves other GPUs only through the transfer model (PROJECTION.md 3.3).
    void absurdMeasurementRefused()
    {
        const QString h100 = u"h100-80gb-sxm"_s;
        const QString physics = SpeedModel::builtin().implausibility(userMeasurement(h100, 1e8), resnet50(),
                                                                     GpuSpecTable::builtin());
        QVERIFY2(physics.contains(u"TFLOP/s"_s) && physics.contains(u"datasheet"_s), qPrintable(physics));
        const QString tiny = SpeedModel::builtin().implausibility(userMeasurement(h100, 1e-300), resnet50(),
                                                                  GpuSpecTable::builtin());
        QVERIFY2(tiny.contains(u"below"_s) && tiny.contains(u"10 times"_s), qPrintable(tiny));
        const double model = projected(h100, {});
        QVERIFY(model > 0);
        QVERIFY(SpeedModel::builtin()
                    .implausibility(userMeasurement(h100, model * 1.5), resnet50(), GpuSpecTable::builtin())
                    .isEmpty());

        TempDb db;
        filled(db);
        const QString path = db.dir() + u"/absurd.json"_s;
        for (const QByteArray &v : {QByteArray("1e8"), QByteArray("1e-300"), QByteArray("1e12")}) {
            writeFile(path, measurementDoc(v));
            const CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, path});
            QCOMPARE(r.rc, 1);
            QVERIFY2(r.err.contains(u"Nothing was imported"_s), qPrintable(r.err));
            QVERIFY2(r.err.contains(u"TFLOP/s"_s) || r.err.contains(u"times below"_s) ||
                         r.err.contains(u"beyond what any GPU"_s),
                     qPrintable(r.err));
        }
        QCOMPARE(countRows(db.path(), u"user_measurement"_s), 0);
    }

    void absurdMeasurementMovesNoProjection()
    {
        const QString h100 = u"h100-80gb-sxm"_s;
        const QString l4 = u"l4"_s;
        const double h100Model = projected(h100, {});
        const double l4Model = projected(l4, {});
        QVERIFY(h100Model > 0 && l4Model > 0);
        // Stored before the bounds existed: quarantined, nothing moves.
        for (const double absurd : {1e12, 1e8, 1e-300})
            QCOMPARE(projected(l4, {userMeasurement(h100, absurd)}), l4Model);
        // An older plausible measurement of the same GPU still counts behind a newer absurd one.
        ThroughputMeasurement older = userMeasurement(h100, h100Model * 1.5);
        older.measuredAt = older.measuredAt.addDays(-3);
        QVERIFY(qAbs(projected(h100, {older, userMeasurement(h100, 1e12)}) / (h100Model * 1.5) - 1) < 1e-9);
        // A plausible one: the H100 becomes what was measured, and the L4 moves by exactly the user's level
        // relative to the shipped data on the H100 (one user anchor: the transfer's weighted mean is it).
        const double measured = h100Model * 1.5;
        QVERIFY(qAbs(projected(h100, {userMeasurement(h100, measured)}) / measured - 1) < 1e-9);
        const double l4After = projected(l4, {userMeasurement(h100, measured)});
        QVERIFY2(qAbs(l4After / l4Model - measured / h100Model) < 1e-9,
                 qPrintable(u"%1 -> %2"_s.arg(l4Model).arg(l4After)));
        // The listing says why a stored one is not used.
        const QList<MeasurementComparison> rows =
            compareMeasurements({userMeasurement(h100, 1e-300)}, builtinWorkloads(), defaultCalibration());
        QVERIFY2(rows.first().why.contains(u"quarantined"_s), qPrintable(rows.first().why));
    }

    // 3. Probes and measurements dated in the future are refused; the same probe file is stored once.
    void futureProbeAndMeasurementRefused()
    {
        TempDb db;
        auto store = db.open();
        ProbeRunRecord run;
        run.kind = u"cuda"_s;
        run.origin = u"test"_s;
        run.createdAt = QDateTime(QDate(2099, 1, 1), QTime(0, 0), Qt::UTC);
        run.json = "{\"probe\": 1}";
        auto r = store->addProbeRun(run);
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(u"future"_s) && r.error().message.contains(u"2099"_s),
                 qPrintable(r.error().message));
        ThroughputMeasurement m = userMeasurement(u"h100-80gb-sxm"_s, 2000);
        m.measuredAt = run.createdAt;
        auto added = store->addUserMeasurement(m, u"x.json"_s, "{}");
        QVERIFY(!added);
        QVERIFY2(added.error().message.contains(u"future"_s), qPrintable(added.error().message));
        QCOMPARE(countRows(db.path(), u"probe_run"_s) + countRows(db.path(), u"user_measurement"_s), 0);
    }

    void sameProbeImportedOnce()
    {
        TempDb db;
        filled(db);
        const QString fixture = fixturePath(u"probe/cuda_h100.json"_s);
        for (int i = 0; i < 3; ++i) {
            const CliRun r = cli(db.path(), {u"probe"_s, u"--import"_s, fixture});
            QVERIFY2(r.rc == 0, qPrintable(r.err));
        }
        QCOMPARE(countRows(db.path(), u"probe_run"_s), 1);
    }

    // 4. A plan on a full file system fails and leaves nothing half-written.
    void planOnAFullDiskLeavesNothing()
    {
        LaunchOptions o;
        o.sweep = true;
        o.probe = true;
        Offer offer;
        offer.provider = u"aws"_s;
        offer.instanceType = u"p4d.24xlarge"_s;
        offer.region = u"us-east-1"_s;
        offer.gpuId = u"a100-40gb-sxm4"_s;
        offer.gpuRawName = offer.gpuId;
        offer.gpuCount = 8;
        offer.onDemandUsdH = 21.96;
        QTemporaryDir packageDir; // a measuring plan carries the package
        o.packagePath = packageDir.filePath(u"gpufrontier-0.1.0-linux-x86_64.tar.gz"_s);
        writeFile(o.packagePath, "a package\n");
        auto plan = buildLaunchPlan(resnet50(), {{offer, false, std::nullopt, {}}}, o);
        QVERIFY2(plan, qPrintable(plan ? QString() : plan.error().text()));
        QTemporaryDir parent;
        const QString dir = parent.filePath(u"plan"_s);
        const ChildRun child = withFileSizeLimit(4096, [&] {
            auto written = writeLaunchPlan(plan.value(), dir);
            return std::pair{written ? 1 : 0, written ? QByteArray() : written.error().text().toUtf8()};
        });
        QVERIFY2(child.exitCode == 0, "the plan was reported written on a full disk");
        QVERIFY2(child.text.contains("Cannot write"), child.text.constData());
        QVERIFY2(!QFileInfo::exists(dir), "a half-written plan folder was left");
        QCOMPARE(QDir(parent.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
        // Written into an existing folder: the old files stay as they were.
        QVERIFY(QDir().mkpath(dir));
        writeFile(dir + u"/README.txt"_s, "the previous plan\n");
        const ChildRun again = withFileSizeLimit(4096, [&] {
            auto written = writeLaunchPlan(plan.value(), dir);
            return std::pair{written ? 1 : 0, QByteArray()};
        });
        QCOMPARE(again.exitCode, 0);
        QCOMPARE(QDir(dir).entryList(QDir::Files), QStringList{u"README.txt"_s});
        QFile readme(dir + u"/README.txt"_s);
        QVERIFY(readme.open(QIODevice::ReadOnly));
        QCOMPARE(readme.readAll(), QByteArray("the previous plan\n"));
        // Without the limit the whole plan lands.
        auto ok = writeLaunchPlan(plan.value(), dir);
        QVERIFY2(ok, qPrintable(ok ? QString() : ok.error().text()));
        QCOMPARE(ok.value().size(), 5); // task, package, gf_measure.py, sweep.sh, README
        QVERIFY(QFileInfo(dir + u"/sweep.sh"_s).size() > 100);
    }

    // 5. report -o onto a FIFO writes into it, never replaces it.
    void reportIntoAFifo()
    {
        TempDb db;
        filled(db);
        const QString fifo = db.dir() + u"/report.fifo"_s;
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        QByteArray received;
        std::thread reader([&] {
            const int fd = ::open(QFile::encodeName(fifo).constData(), O_RDONLY);
            char buffer[65536];
            ssize_t n;
            while (fd >= 0 && (n = ::read(fd, buffer, sizeof buffer)) > 0)
                received.append(buffer, static_cast<qsizetype>(n));
            if (fd >= 0)
                ::close(fd);
        });
        const CliRun r = cli(
            db.path(), {u"report"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s, u"csv"_s, u"-o"_s, fifo});
        reader.join();
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(isFifo(fifo), "the FIFO was replaced by a regular file");
        QVERIFY2(received.startsWith("provider,instance_type"), received.left(200).constData());
        QCOMPARE(QDir(db.dir()).entryList({u"*report*"_s}, QDir::AllEntries | QDir::Hidden | QDir::System),
                 QStringList{u"report.fifo"_s});
        // A character device: written, left as it is.
        const CliRun null = cli(db.path(), {u"report"_s, u"--workload"_s, u"resnet50"_s, u"--format"_s,
                                            u"json"_s, u"-o"_s, u"/dev/null"_s});
        QVERIFY2(null.rc == 0, qPrintable(null.err));
        QVERIFY(QFileInfo(u"/dev/null"_s).exists() && !QFileInfo(u"/dev/null"_s).isFile());
    }

    // 6. No formula start after any separator a spreadsheet may split on.
    void formulaAfterASeparatorNeutralised()
    {
        const QString hostile = u"x;=cmd|' /C calc'!A0;"_s;
        for (const QString &text : {hostile, u"a,+1"_s, u"a\t@SUM(A1)"_s, u"a; -2+3"_s, u"=1"_s}) {
            const QString cell = csvQuoteSafe(text);
            // Every piece a spreadsheet could make of it, whatever it splits on, starts as text.
            QString bare = cell;
            if (bare.startsWith(u'"'))
                bare = bare.mid(1, bare.size() - 2).replace(u"\"\""_s, u"\""_s);
            for (const QString &piece : bare.split(QRegularExpression(u"[,;\\t]"_s))) {
                const QString t = piece.trimmed();
                QVERIFY2(t.isEmpty() || !QStringLiteral("=+-@").contains(t.front()),
                         qPrintable(u"%1 -> %2"_s.arg(text, cell)));
            }
            // Quoted when a separator other than the comma is inside: one cell for any reader.
            if (text.contains(u';') || text.contains(u'\t'))
                QVERIFY(cell.startsWith(u'"'));
        }
        Offer o;
        o.provider = u"vastai"_s;
        o.instanceType = hostile;
        QVERIFY(!offerCsvCell(o, OfferField::InstanceType).contains(u";="_s));
        QCOMPARE(csvQuoteSafe(u"us-east-1"_s), u"us-east-1"_s);
    }

    // 7. Every command fails when its output cannot be written.
    void everyCommandFailsOnAFullDisk_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("catalogs") << QStringList{u"catalogs"_s};
        QTest::newRow("measure") << QStringList{u"measure"_s};
        QTest::newRow("probe --list") << QStringList{u"probe"_s, u"--list"_s};
        QTest::newRow("workloads") << QStringList{u"workloads"_s};
        QTest::newRow("gpus") << QStringList{u"gpus"_s, u"--workload"_s, u"resnet50"_s};
        QTest::newRow("validate") << QStringList{u"validate"_s, u"--workload"_s, u"resnet50"_s};
        QTest::newRow("history") << QStringList{u"history"_s, u"--provider"_s, u"aws"_s, u"--instance"_s,
                                                u"p4d.24xlarge"_s};
        QTest::newRow("--help") << QStringList{u"--help"_s};
        QTest::newRow("offers --help") << QStringList{u"offers"_s, u"--help"_s};
    }

    void everyCommandFailsOnAFullDisk()
    {
        QFETCH(QStringList, args);
        if (!QFileInfo::exists(u"/dev/full"_s))
            QSKIP("no /dev/full on this system");
        TempDb db;
        filled(db);
        QProcess p;
        p.setStandardOutputFile(u"/dev/full"_s);
        p.start(builtCli(), QStringList{u"--db"_s, db.path()} + args);
        QVERIFY(p.waitForFinished(60000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 1, qPrintable(err));
        QVERIFY2(err.contains(u"cannot write the output"_s) && err.contains(u"No space left"_s),
                 qPrintable(err));
    }

    // 8. The IDs the app prints are accepted back, commas and all.
    void offerIdsWithCommas()
    {
        QCOMPARE(splitOfferIds({u"vastai/1x-H200/Taiwan, TW, AS"_s}),
                 QStringList{u"vastai/1x-H200/Taiwan, TW, AS"_s});
        QCOMPARE(splitOfferIds({u"vastai/a/Taiwan, TW, AS,aws/p4d.24xlarge/us-east-1:spot"_s,
                                u"gcp/a2/us-central1 , azure/b/eastus"_s}),
                 (QStringList{u"vastai/a/Taiwan, TW, AS"_s, u"aws/p4d.24xlarge/us-east-1:spot"_s,
                              u"gcp/a2/us-central1"_s, u"azure/b/eastus"_s}));
        TempDb db;
        filled(db);
        const CliRun offers =
            cli(db.path(), {u"offers"_s, u"--provider"_s, u"vastai"_s, u"--format"_s, u"json"_s});
        QCOMPARE(offers.rc, 0);
        QString region;
        QString type;
        for (const QJsonValue &v : QJsonDocument::fromJson(offers.out.toUtf8()).array()) {
            const QJsonObject o = v.toObject();
            if (o.value(u"region").toString().contains(u',') && o.value(u"ondemand_usd_h").isDouble() &&
                o.value(u"gpu").isString()) {
                region = o.value(u"region").toString();
                type = o.value(u"instance_type").toString();
                break;
            }
        }
        QVERIFY2(!region.isEmpty(), "no bundled vast.ai offer has a comma in its region");
        Offer named;
        named.provider = u"vastai"_s;
        named.instanceType = type;
        named.region = region;
        const QString id = offerIdText(named, false);
        QTemporaryDir dir;
        const CliRun plan = cli(db.path(), {u"plan"_s, u"--workload"_s, u"resnet50"_s, u"--offer"_s, id,
                                            u"-o"_s, dir.path() + u"/plan"_s});
        QVERIFY2(plan.rc == 0, qPrintable(plan.err + plan.out));
    }

    // 9. Provider data is never a format string.
    void percentPlaceholdersStayData()
    {
        Offer offer;
        offer.provider = u"aws"_s;
        offer.instanceType = u"x%1y%2z"_s;
        offer.region = u"us-east-1"_s;
        offer.gpuId = u"a100-40gb-sxm4"_s;
        offer.gpuRawName = offer.gpuId;
        offer.gpuCount = 8;
        offer.onDemandUsdH = 21.96;
        auto plan = buildLaunchPlan(resnet50(), {{offer, false, std::nullopt, {}}}, LaunchOptions{});
        QVERIFY(plan);
        const QString readme = planReadme(plan.value());
        QVERIFY2(readme.contains(u"x%1y%2z in us-east-1"_s), qPrintable(readme));
        // A file name with placeholders in a parser's message.
        const auto parsed = parseMeasurementFile("[1]", u"run%1-%2.json"_s, GpuCatalog::builtin());
        QVERIFY(!parsed);
        QVERIFY2(parsed.error().message.contains(u"run%1-%2.json, entry 1"_s),
                 qPrintable(parsed.error().message));
    }

    // 10. Messages that say what happened and what to do.
    void measurementMessagesSayWhatIsWrong_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("huge") << QByteArray("1e308") << u"beyond what any GPU can do"_s;
        QTest::newRow("zero") << QByteArray("0") << u"measured no progress"_s;
        QTest::newRow("string") << QByteArray("\"fast\"") << u"is not a number but the text \"fast\""_s;
        QTest::newRow("missing") << QByteArray("null") << u"neither"_s;
    }

    void measurementMessagesSayWhatIsWrong()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, expected);
        const auto r = parseMeasurementFile(measurementDoc(value), u"m.json"_s, GpuCatalog::builtin());
        QVERIFY(!r);
        QVERIFY2(r.error().message.contains(expected), qPrintable(r.error().message));
        QVERIFY(!r.error().message.contains(u"(the run reported: nothing)"_s));
    }

    void fullDiskMessagesNameTheDisk()
    {
        QTemporaryDir dir;
        const QString fresh = dir.filePath(u"new/catalog.sqlite"_s);
        // A new database on a file system with no room.
        const ChildRun created = withFileSizeLimit(16384, [&] {
            auto store = CatalogStore::open(fresh);
            if (store)
                return std::pair{1, QByteArray("opened")};
            return std::pair{0, store.error().text().toUtf8()};
        });
        QCOMPARE(created.exitCode, 0);
        QVERIFY2(!created.text.contains("could not be committed") && created.text.contains("disk"),
                 created.text.constData());
        QVERIFY2(created.text.contains("free some space") || created.text.contains("check it"),
                 created.text.constData());
        // An existing database opened when nothing can grow any more.
        TempDb db;
        filled(db);
        const ChildRun opened = withFileSizeLimit(0, [&] {
            QFile::remove(db.path() + u"-shm"_s);
            auto store = CatalogStore::open(db.path());
            if (!store)
                return std::pair{0, store.error().text().toUtf8()};
            auto imported = store.value()->importSnapshot(
                parseSnapshotCsv(QString::fromUtf8(paperspaceCatalog(u"2026-11-01"_s)), u"p.csv"_s).value(),
                SourceKind::File, u"p.csv"_s, paperspaceCatalog(u"2026-11-01"_s), GpuCatalog::builtin());
            return imported ? std::pair{1, QByteArray("imported")}
                            : std::pair{0, imported.error().text().toUtf8()};
        });
        QCOMPARE(opened.exitCode, 0);
        QVERIFY2(!opened.text.contains("not a SQLite database") && opened.text.contains("disk"),
                 opened.text.constData());
    }

    // 11. The database's own schema is not trusted: a foreign trigger or damaged pages are refused.
    void foreignTriggerRefused()
    {
        TempDb db;
        filled(db);
        const int before = countRows(db.path(), u"offer"_s);
        {
            QSqlDatabase raw = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"attacker"_s);
            raw.setDatabaseName(db.path());
            QVERIFY(raw.open());
            QSqlQuery q(raw);
            QVERIFY(q.exec(u"CREATE TRIGGER wipe_aws AFTER INSERT ON offer BEGIN DELETE FROM offer WHERE "
                           u"provider = 'aws'; END"_s));
            raw.close();
        }
        QSqlDatabase::removeDatabase(u"attacker"_s);
        const QString path = db.dir() + u"/paperspace.csv"_s;
        writeFile(path, paperspaceCatalog(u"2026-11-01"_s));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"trigger \"wipe_aws\""_s) && r.err.contains(u"did not create"_s),
                 qPrintable(r.err));
        QCOMPARE(countRows(db.path(), u"offer"_s), before);
    }

    void damagedDatabaseRefusesWrites()
    {
        TempDb db;
        filled(db).reset(); // closed: the write-ahead log is folded into the file
        QFile f(db.path());
        QVERIFY(f.open(QIODevice::ReadWrite));
        const qint64 size = f.size();
        QVERIFY(size > 64 * 4096);
        // Garbage over pages in the middle of the offer table (not the first page: the schema).
        f.seek(size / 2 - (size / 2) % 4096);
        QVERIFY(f.write(QByteArray(8 * 4096, '\xA5')) == 8 * 4096);
        f.close();
        const QByteArray damaged = [&] {
            QFile g(db.path());
            return g.open(QIODevice::ReadOnly) ? g.readAll() : QByteArray();
        }();
        const QString path = db.dir() + u"/paperspace.csv"_s;
        writeFile(path, paperspaceCatalog(u"2026-11-01"_s));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"damaged"_s) && r.err.contains(u"quick_check"_s), qPrintable(r.err));
        QFile g(db.path());
        QVERIFY(g.open(QIODevice::ReadOnly));
        QVERIFY(g.readAll() == damaged); // nothing was written, not even the failed import's log row
    }
};

QTEST_GUILESS_MAIN(TestReliability)
#include "test_reliability.moc"

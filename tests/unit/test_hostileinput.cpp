// Hostile and huge input: files too large or with one giant field, other providers' catalogs,
// control characters in names, messages that must name the cause, and bad data that must not get in.
#include "catalogdump.h"
#include "cli.h"
#include "clirun.h"
#include "domain/gpucatalog.h"
#include "launch/measurementjson.h"
#include "refresh/catalogrefresher.h"
#include "store/catalogstore.h"
#include "testsupport.h"
#include "viewmodels/offertablemodel.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

const QString kHeader = u"provider,instance_type,region,zone,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,"
                        u"network_gbps,interconnect,ondemand_usd_h,spot_usd_h,spot_label,interruption,"
                        u"reliability,billing_increment_s,billing_minimum_s,source,upload_gbps,dlperf"_s;

/// A GPU Frontier catalog CSV: the comment lines, the header, then `rows` as they are.
QByteArray catalog(const QString &provider, const QByteArrayList &rows)
{
    QByteArray s = "# provider: " + provider.toUtf8() + "\n# snapshot_date: 2026-11-01\n# source: test\n" +
                   kHeader.toUtf8() + '\n';
    for (const QByteArray &r : rows)
        s += r + '\n';
    return s;
}

/// One catalog row of `provider` (A100-80GB, 8 GPUs).
QByteArray row(const QString &provider, const QByteArray &type, const QByteArray &region,
               const QByteArray &price = "32.77", const QByteArray &source = "test")
{
    return provider.toUtf8() + ',' + type + ',' + region + ",,A100-80GB,8,80,96,1152,400,NVSwitch," + price +
           ",,,,,1,60," + source + ",,";
}

/// The characters a terminal, a table or a document must never get from a provider's string.
bool hasRawControls(const QString &s, bool allowLineBreaks = false)
{
    for (const QChar c : s) {
        const char16_t u = c.unicode();
        if ((u == u'\n' || u == u'\r' || u == u'\t') && allowLineBreaks)
            continue;
        if (u < 0x20 || u == 0x7F || (u >= 0x80 && u <= 0x9F) || (u >= 0x202A && u <= 0x202E) ||
            (u >= 0x2066 && u <= 0x2069) || u == 0x200E || u == 0x200F)
            return true;
    }
    return false;
}

QJsonArray jsonArray(const QString &text)
{
    return QJsonDocument::fromJson(text.toUtf8()).array();
}

/// The current offers of `provider`, as `offers --format json` lists them.
QJsonArray offersOf(const QString &db, const QString &provider)
{
    const CliRun r = cli(db, {u"offers"_s, u"--provider"_s, provider, u"--format"_s, u"json"_s});
    if (r.rc != 0)
        qWarning("offers failed: %s", qPrintable(r.err));
    return jsonArray(r.out);
}

} // namespace

class TestHostileInput final : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }

    /// A fresh database filled with the bundled snapshot.
    static void fill(const TempDb &db)
    {
        const CliRun r = cli(db.path(), {u"catalogs"_s});
        QCOMPARE(r.rc, 0);
    }

private Q_SLOTS:
    // ---- 2. huge input: every path streams, with limits on the file and on one field ------------------

    void giantFieldRefusedWithoutProvider()
    {
        // `import --file` without --provider read the whole file itself, without any limit.
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        const QByteArray giant(2 * 1024 * 1024, 'x');
        writeFile(file(u"giant.csv"_s), catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1"),
                                                           row(u"aws"_s, '"' + giant + '"', "us-east-1")}));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"giant.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"longer than"_s) && r.err.contains(u"line 6"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    void giantFieldRefusedWithProvider_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QByteArray>("content");
        const QByteArray giant(2 * 1024 * 1024, 'y');
        QTest::newRow("catalog csv") << u"aws"_s
                                     << catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1", "32.77",
                                                               '"' + giant + '"')});
        QByteArray sky = readFixture(u"providers/skypilot/paperspace.csv"_s);
        sky.replace("East Coast (NY2)", QByteArray("\"" + giant + "\""));
        QTest::newRow("skypilot csv") << u"paperspace"_s << sky;
    }

    void giantFieldRefusedWithProvider()
    {
        QFETCH(QString, provider);
        QFETCH(QByteArray, content);
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        writeFile(file(u"giant2.csv"_s), content);
        const CliRun r =
            cli(db.path(), {u"import"_s, u"--provider"_s, provider, u"--file"_s, file(u"giant2.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"longer than"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    // The 512 MB file limit, before anything is read: sparse files (QFile::resize), so the test takes
    // neither time nor disk. The head makes each one look like its format.
    void fileLimitRefusesHugeFiles_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QByteArray>("head");
        QTest::addColumn<bool>("withProvider");
        const QByteArray csv = catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1")});
        QTest::newRow("catalog csv") << u"aws"_s << csv << true;
        QTest::newRow("catalog csv, no --provider") << u"aws"_s << csv << false;
        QTest::newRow("skypilot csv")
            << u"paperspace"_s << readFixture(u"providers/skypilot/paperspace.csv"_s) << true;
        QTest::newRow("azure json") << u"azure"_s << readFixture(u"providers/azure/page1.json"_s) << true;
        QTest::newRow("gcp json") << u"gcp"_s << readFixture(u"providers/gcp/skus-page1.json"_s) << true;
        QTest::newRow("vast.ai json")
            << u"vastai"_s << readFixture(u"providers/vastai/offers.json"_s) << true;
        QTest::newRow("aws spot feed") << u"aws"_s << readFixture(u"providers/aws/spot.json"_s) << true;
    }

    void fileLimitRefusesHugeFiles()
    {
        QFETCH(QString, provider);
        QFETCH(QByteArray, head);
        QFETCH(bool, withProvider);
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        const QString path = file(u"huge-"_s + provider + u".dat"_s);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(f.write(head), head.size());
            QVERIFY(f.resize(qint64(512) * 1024 * 1024 + 1)); // sparse: a hole after the head
        }
        QStringList args{u"import"_s, u"--file"_s, path};
        if (withProvider)
            args += {u"--provider"_s, provider};
        const CliRun r = cli(db.path(), args);
        QFile::remove(path);
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"huge-"_s + provider + u".dat"_s) && r.err.contains(u"512 MB"_s),
                 qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    // The AWS price list CSV streams too: one field over 1 MB is refused, naming its line.
    void giantFieldInAwsOfferCsvRefused()
    {
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        QByteArrayList lines =
            readFixture(u"providers/aws/offer-index.csv.global-sample-20250912.ec2-priceit.csv"_s)
                .split('\n');
        QVERIFY(lines.size() > 12);
        // Line 9 (the third price row) starts with one quoted field of 2 MB.
        lines[8] = '"' + QByteArray(2 * 1024 * 1024, 'z') + "\"," + lines[8];
        writeFile(file(u"aws-giant.csv"_s), lines.join('\n'));
        const CliRun r =
            cli(db.path(), {u"import"_s, u"--provider"_s, u"aws"_s, u"--file"_s, file(u"aws-giant.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"longer than 1048576 bytes"_s) && r.err.contains(u"line 9"_s),
                 qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    // A GPU Frontier CSV's snapshot checksum is the SHA-256 of the file as it is, computed while it
    // streamed (not from a second whole-file read).
    void catalogCsvChecksumIsTheFiles()
    {
        TempDb db;
        const QByteArray csv = catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1"),
                                                  row(u"aws"_s, "p4d.24xlarge", "us-west-2", "33.00")});
        writeFile(file(u"sum.csv"_s), csv);
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"sum.csv"_s)});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        auto store = db.open();
        auto snaps = store->snapshots();
        QVERIFY(snaps);
        QString checksum;
        for (const Snapshot &s : snaps.value())
            if (s.provider == u"aws" && s.current)
                checksum = s.checksum;
        QCOMPARE(checksum,
                 QString::fromLatin1(QCryptographicHash::hash(csv, QCryptographicHash::Sha256).toHex()));
        // The same file again: the same checksum, so nothing new is stored.
        const CliRun again = cli(db.path(), {u"import"_s, u"--file"_s, file(u"sum.csv"_s)});
        QVERIFY2(again.rc == 0, qPrintable(again.err));
        QCOMPARE(store->snapshots().value().size(), snaps.value().size());
    }

    // Measurement files had no size limit at all: the CLI's and the GUI's import read them whole.
    void hugeMeasurementFileRefused()
    {
        TempDb db;
        const QString path = file(u"huge-measurement.json"_s);
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write("{\"schema\": \"gpufrontier-measurement\", \"notes\": \"");
            QVERIFY(f.resize(kMaxMeasurementFileBytes + 1)); // sparse
        }
        const CliRun r = cli(db.path(), {u"measure"_s, u"--import"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(path) && r.err.contains(u"64 MB"_s) &&
                     r.err.contains(u"Nothing was imported"_s),
                 qPrintable(r.err));
        // The reader itself: at the limit it reads, one byte over it refuses (without reading).
        const auto over = readMeasurementFile(path, GpuCatalog::builtin());
        QVERIFY(!over);
        QVERIFY(over.error().text().contains(u"larger than 64 MB"_s));
        QVERIFY(QFile::resize(path, 100));
        const auto small = readMeasurementFile(path, GpuCatalog::builtin(), 99);
        QVERIFY(!small);
        QVERIFY2(small.error().text().contains(u"larger than"_s), qPrintable(small.error().text()));
        const auto fits = readMeasurementFile(path, GpuCatalog::builtin(), 100);
        QVERIFY(!fits); // read, then refused as a document: not for its size
        QVERIFY2(!fits.error().text().contains(u"larger than"_s), qPrintable(fits.error().text()));
        QFile::remove(path);
    }

    // ---- 3. another provider's catalog is refused --------------------------------------------------

    void otherProvidersSkypilotCatalogRefused_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("owner");
        QTest::newRow("aws as azure") << u"azure"_s << u"aws.csv"_s << u"AWS"_s;
        QTest::newRow("aws as gcp") << u"gcp"_s << u"aws.csv"_s << u"AWS"_s;
        QTest::newRow("aws as vastai") << u"vastai"_s << u"aws.csv"_s << u"AWS"_s;
        QTest::newRow("aws as paperspace") << u"paperspace"_s << u"aws.csv"_s << u"AWS"_s;
        QTest::newRow("azure as aws") << u"aws"_s << u"azure.csv"_s << u"Azure"_s;
        QTest::newRow("gcp as aws") << u"aws"_s << u"gcp.csv"_s << u"Google Cloud"_s;
        QTest::newRow("vast as azure") << u"azure"_s << u"vast.csv"_s << u"vast.ai"_s;
        QTest::newRow("paperspace as aws") << u"aws"_s << u"paperspace.csv"_s << u"Paperspace"_s;
    }

    void otherProvidersSkypilotCatalogRefused()
    {
        QFETCH(QString, provider);
        QFETCH(QString, fixture);
        QFETCH(QString, owner);
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        const CliRun r = cli(db.path(), {u"import"_s, u"--provider"_s, provider, u"--file"_s,
                                         fixturePath(u"providers/skypilot/"_s + fixture)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(owner) && r.err.contains(u"line "_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    void ownSkypilotCatalogsStillAccepted()
    {
        TempDb db;
        fill(db);
        for (const auto &[provider, fixture] :
             {std::pair{u"aws"_s, u"aws.csv"_s}, std::pair{u"azure"_s, u"azure.csv"_s},
              std::pair{u"gcp"_s, u"gcp.csv"_s}, std::pair{u"vastai"_s, u"vast.csv"_s},
              std::pair{u"paperspace"_s, u"paperspace.csv"_s}}) {
            const CliRun r = cli(db.path(), {u"import"_s, u"--provider"_s, provider, u"--file"_s,
                                             fixturePath(u"providers/skypilot/"_s + fixture)});
            QVERIFY2(r.rc == 0, qPrintable(provider + u": "_s + r.err));
        }
    }

    void otherProvidersRowsInACatalogCsvRefused()
    {
        // The provider column says Azure, the instance types and regions are AWS's.
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        writeFile(file(u"relabelled.csv"_s),
                  catalog(u"azure"_s, {row(u"azure"_s, "p4d.24xlarge", "us-east-1"),
                                       row(u"azure"_s, "p5.48xlarge", "us-west-2")}));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"relabelled.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"AWS"_s) && r.err.contains(u"p4d.24xlarge"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    // ---- 5. control characters --------------------------------------------------------------------

    void controlCharactersNormalisedOnImport()
    {
        TempDb db;
        fill(db);
        const QByteArray nasty = "\"p4d.24xlarge\x1b]0;owned\x07\x1b[31mred\nsecond line\"";
        const QByteArray region = "us-east-1";
        QByteArray r1 = "aws," + nasty + ',' + region +
                        ",\"use1\xE2\x80\xAE-az1\",\"A100-80GB\",8,80,96,1152,400,NVSwitch,32.77,,,,,1,60,";
        r1 += QByteArray("\"src\0after nul\",,", 17); // with its NUL byte
        const QByteArray content = catalog(u"aws"_s, {r1});
        writeFile(file(u"controls.csv"_s), content);
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"controls.csv"_s)});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QJsonArray offers = offersOf(db.path(), u"aws"_s);
        QCOMPARE(offers.size(), 1);
        const QJsonObject o = offers.first().toObject();
        QCOMPARE(o.value(u"instance_type"_s).toString(),
                 u"p4d.24xlarge\uFFFD]0;owned\uFFFD\uFFFD[31mred second line"_s);
        QCOMPARE(o.value(u"zone"_s).toString(), u"use1\uFFFD-az1"_s);
        // A NUL does not cut the text: it is replaced like any other control character.
        QCOMPARE(o.value(u"source"_s).toString(), u"src\uFFFDafter nul"_s);
        QVERIFY2(r.err.contains(u"control"_s), qPrintable(r.err)); // a warning says what was replaced
        const CliRun table = cli(db.path(), {u"offers"_s, u"--provider"_s, u"aws"_s});
        QCOMPARE(table.rc, 0);
        QVERIFY(!hasRawControls(table.out, true));
        QCOMPARE(table.out.count(u'\n'), 4); // header, rule, one row, the count line
    }

    void controlCharactersEscapedOnOutput()
    {
        // A database written before normalisation (or by another tool) still holds the raw text:
        // every output escapes it.
        TempDb db;
        {
            auto store = db.open();
            SnapshotData data;
            data.provider = u"aws"_s;
            data.description = u"desc\x1b[2J"_s;
            Offer o;
            o.provider = u"aws"_s;
            o.instanceType = u"p4d.24xlarge\x1b[31m\x07\u202Eevil\nrow"_s;
            o.region = u"us-east-1\x1b]0;title\x07"_s;
            o.gpuRawName = u"A100-80GB"_s;
            o.gpuId = GpuCatalog::builtin().resolve(u"aws"_s, u"A100-80GB"_s).value_or(QString());
            o.gpuCount = 8;
            o.gpuMemGb = 80;
            o.onDemandUsdH = 32.77;
            o.source = u"source\u0085\u009b31m\u202Etxt.exe"_s;
            data.offers.append(o);
            ImportOptions options;
            options.validate = false;
            auto r = store->importSnapshot(data, SourceKind::File, u"evil\x1b[2J.csv"_s, "payload",
                                           GpuCatalog::builtin(), options);
            QVERIFY(r.ok());
        }
        auto check = [](const QString &what, const CliRun &r, bool allowLineBreaks) {
            QVERIFY2(r.rc == 0, qPrintable(what + u": "_s + r.err));
            QVERIFY2(!hasRawControls(r.out, allowLineBreaks), qPrintable(what));
            QVERIFY2(!hasRawControls(r.err, true), qPrintable(what));
        };
        check(u"table"_s, cli(db.path(), {u"offers"_s, u"--provider"_s, u"aws"_s}), true);
        check(u"csv"_s, cli(db.path(), {u"offers"_s, u"--provider"_s, u"aws"_s, u"--format"_s, u"csv"_s}),
              true);
        const CliRun json =
            cli(db.path(), {u"offers"_s, u"--provider"_s, u"aws"_s, u"--format"_s, u"json"_s});
        check(u"json"_s, json, true);
        QCOMPARE(jsonArray(json.out).size(), 1);
        check(u"catalogs"_s, cli(db.path(), {u"catalogs"_s}), true);
        check(u"history"_s,
              cli(db.path(), {u"history"_s, u"--provider"_s, u"aws"_s, u"--instance"_s,
                              u"p4d.24xlarge\x1b[31m\x07\u202Eevil\nrow"_s}),
              true);
        const CliRun table = cli(db.path(), {u"offers"_s, u"--provider"_s, u"aws"_s});
        QCOMPARE(table.out.count(u'\n'), 4);
        for (const QString &format : {u"md"_s, u"html"_s, u"csv"_s, u"json"_s}) {
            const QString out = file(u"report."_s + format);
            const CliRun r = cli(db.path(), {u"report"_s, u"--workload"_s, u"resnet50"_s, u"--provider"_s,
                                             u"aws"_s, u"--offers"_s, u"all"_s, u"--format"_s, format,
                                             u"-o"_s, out, u"--no-calibration"_s});
            QVERIFY2(r.rc == 0, qPrintable(format + u": "_s + r.err));
            const QString text = QString::fromUtf8(readFile(out));
            QVERIFY2(text.contains(u"evil"_s), qPrintable(format));
            QVERIFY2(!hasRawControls(text, true), qPrintable(format));
        }
        // The GUI's offer table: display text and tooltips.
        auto store = db.open();
        OfferTableModel model;
        model.setOffers(store->currentOffers().value());
        int row = -1;
        for (int i = 0; i < model.rowCount(); ++i)
            if (model.offerAt(i)->provider == u"aws")
                row = i;
        QVERIFY(row >= 0);
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex idx = model.index(row, c);
            const QString display = idx.data(Qt::DisplayRole).toString();
            const QString tip = idx.data(Qt::ToolTipRole).toString();
            QVERIFY2(!hasRawControls(display), qPrintable(QString::number(c)));
            QVERIFY2(!hasRawControls(tip, true), qPrintable(QString::number(c)));
        }
    }

    void providerStringsAreNotMarkupInTooltips()
    {
        TempDb db;
        {
            auto store = db.open();
            SnapshotData data;
            data.provider = u"aws"_s;
            Offer o;
            o.provider = u"aws"_s;
            o.instanceType = u"<img src=x><b>p4d</b>"_s;
            o.region = u"us-east-1"_s;
            o.gpuRawName = u"<i>A100</i>"_s;
            o.gpuCount = 8;
            o.onDemandUsdH = 32.77;
            o.source = u"<a href='http://x'>src</a>"_s;
            data.offers.append(o);
            QVERIFY(store->importSnapshot(data, SourceKind::File, u"x"_s, "x", GpuCatalog::builtin()).ok());
        }
        auto store = db.open();
        OfferTableModel model;
        model.setOffers(store->currentOffers().value());
        for (int c = 0; c < model.columnCount(); ++c) {
            const QString tip = model.index(0, c).data(Qt::ToolTipRole).toString();
            // Rich text tooltips escape the provider's text; plain ones cannot look like markup.
            QVERIFY2(!tip.contains(u"<img"_s) && !tip.contains(u"<b>p4d"_s) && !tip.contains(u"<a href"_s) &&
                         !tip.contains(u"<i>A100"_s),
                     qPrintable(tip));
        }
    }

    // ---- 8. messages -------------------------------------------------------------------------------

    void everyPriceBadNamesTheField()
    {
        TempDb db;
        fill(db);
        QByteArray sky = readFixture(u"providers/skypilot/paperspace.csv"_s);
        QByteArrayList lines = sky.split('\n');
        for (qsizetype i = 1; i < lines.size(); ++i)
            if (!lines[i].isEmpty())
                lines[i] = lines[i].left(lines[i].lastIndexOf(',') + 1) + "0.00";
        writeFile(file(u"zero.csv"_s), lines.join('\n'));
        CliRun r =
            cli(db.path(), {u"import"_s, u"--provider"_s, u"paperspace"_s, u"--file"_s, file(u"zero.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"Price"_s) && r.err.contains(u"14 rows"_s) &&
                     r.err.contains(u"line 2: \"0.00\""_s) && !r.err.contains(u"truncated or empty"_s),
                 qPrintable(r.err));

        QString text = QString::fromUtf8(readFixture(u"providers/aws/us-east-1.json"_s));
        text.replace(QRegularExpression(u"\"USD\": \"[0-9.]+\""_s), u"\"USD\": \"0.0000000000\""_s);
        writeFile(file(u"us-east-1.json"_s), text.toUtf8());
        r = cli(db.path(), {u"import"_s, u"--provider"_s, u"aws"_s, u"--file"_s, file(u"us-east-1.json"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"pricePerUnit"_s) && r.err.contains(u"rows"_s) &&
                     r.err.contains(u"0.0000000000"_s),
                 qPrintable(r.err));
    }

    void lineNumbersAreFileLines()
    {
        // Comment lines and a quoted field over three lines come before the bad row: the message must
        // name the line of the file (10), not the row's index (3).
        TempDb db;
        fill(db);
        const QByteArray content =
            catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1", "32.77", "\"multi\nline\nsource\""),
                               row(u"aws"_s, "p4d.24xlarge", "us-west-2"),
                               row(u"aws"_s, "p5.48xlarge", "us-east-1", "-3")});
        writeFile(file(u"lines.csv"_s), content);
        QCOMPARE(content.left(content.indexOf("p5.48xlarge")).count('\n') + 1, 9);
        for (const bool withProvider : {false, true}) {
            QStringList args{u"import"_s, u"--file"_s, file(u"lines.csv"_s)};
            if (withProvider)
                args << u"--provider"_s << u"aws"_s;
            const CliRun r = cli(db.path(), args);
            QCOMPARE(r.rc, 1);
            QVERIFY2(r.err.contains(u"line 9"_s), qPrintable(r.err));
        }
    }

    void lockedDatabaseNamesTheLock()
    {
        TempDb db;
        fill(db);
        writeFile(file(u"ok.csv"_s), makeCatalogCsv(u"aws"_s, 3));
        // Another connection holds the write lock.
        const QString name = u"holder"_s;
        {
            QSqlDatabase holder = QSqlDatabase::addDatabase(u"QSQLITE"_s, name);
            holder.setDatabaseName(db.path());
            QVERIFY(holder.open());
            QSqlQuery q(holder);
            QVERIFY(q.exec(u"BEGIN IMMEDIATE"_s));
            auto store = db.open();
            SnapshotData data;
            data.provider = u"aws"_s;
            Offer o;
            o.provider = u"aws"_s;
            o.instanceType = u"p4d.24xlarge"_s;
            o.region = u"us-east-1"_s;
            o.gpuRawName = u"A100"_s;
            o.gpuCount = 8;
            o.onDemandUsdH = 32.77;
            data.offers.append(o);
            auto r = store->importSnapshot(data, SourceKind::File, u"ok.csv"_s, "x", GpuCatalog::builtin());
            QVERIFY(!r.ok());
            const QString text = r.error().text();
            QVERIFY2(text.contains(u"locked"_s) && text.contains(db.path()), qPrintable(text));
            // What holds it: this very process (another of its connections).
            QVERIFY2(text.contains(QString::number(QCoreApplication::applicationPid())), qPrintable(text));
            QVERIFY(q.exec(u"ROLLBACK"_s));
        }
        QSqlDatabase::removeDatabase(name);
    }

    void importHelpNamesFilesThatExist()
    {
        const CliRun r = cli(u"/nonexistent/db.sqlite"_s, {u"import"_s, u"--help"_s});
        QCOMPARE(r.rc, 0);
        const QRegularExpression path(u"(resources|models|tests)/[A-Za-z0-9_./-]+\\.(md|csv|json)"_s);
        int found = 0;
        for (auto it = path.globalMatch(r.out); it.hasNext();) {
            const QString p = it.next().captured(0);
            QVERIFY2(QFile::exists(QStringLiteral(GF_SOURCE_DIR "/") + p), qPrintable(p));
            ++found;
        }
        QVERIFY(found > 0);
    }

    void formatNamesHaveTheRightArticle()
    {
        TempDb db;
        fill(db);
        const CliRun r = cli(db.path(), {u"import"_s, u"--provider"_s, u"aws"_s, u"--file"_s,
                                         fixturePath(u"providers/vastai/offers.json"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"a vast.ai offer search answer"_s) && !r.err.contains(u"an vast.ai"_s),
                 qPrintable(r.err));
    }

    // ---- 9. bad data -------------------------------------------------------------------------------

    void identicalRowsImportedOnce()
    {
        TempDb db;
        fill(db);
        const QByteArray a = row(u"aws"_s, "p4d.24xlarge", "us-east-1");
        writeFile(file(u"twice.csv"_s),
                  catalog(u"aws"_s, {a, row(u"aws"_s, "p4d.24xlarge", "us-west-2"), a}));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"twice.csv"_s)});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"imported 2 offers"_s), qPrintable(r.out));
        QVERIFY2(r.err.contains(u"identical"_s), qPrintable(r.err));
        QCOMPARE(offersOf(db.path(), u"aws"_s).size(), 2);
    }

    void vastOffersSharingAnIdRefused()
    {
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        auto offer = [](int id, double price) {
            return QJsonObject{{u"id"_s, id},
                               {u"gpu_name"_s, u"RTX 4090"_s},
                               {u"num_gpus"_s, 1},
                               {u"dph_total"_s, price},
                               {u"geolocation"_s, u"Sweden, SE"_s}};
        };
        writeFile(
            file(u"dup.json"_s),
            QJsonDocument(QJsonObject{{u"offers"_s, QJsonArray{offer(7, 0.3), offer(8, 0.4), offer(7, 0.5)}}})
                .toJson());
        CliRun r =
            cli(db.path(), {u"import"_s, u"--provider"_s, u"vastai"_s, u"--file"_s, file(u"dup.json"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"7"_s) && r.err.contains(u"id"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
        // The very same offer twice is one offer.
        writeFile(
            file(u"same.json"_s),
            QJsonDocument(QJsonObject{{u"offers"_s, QJsonArray{offer(7, 0.3), offer(8, 0.4), offer(7, 0.3)}}})
                .toJson());
        r = cli(db.path(), {u"import"_s, u"--provider"_s, u"vastai"_s, u"--file"_s, file(u"same.json"_s)});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains(u"imported 2 offers"_s), qPrintable(r.out));
    }

    void tinyPriceRefused()
    {
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        writeFile(file(u"tiny.csv"_s),
                  catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1"),
                                     row(u"aws"_s, "p5.48xlarge", "us-east-1", "1e-320")}));
        const CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, file(u"tiny.csv"_s)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"not plausible"_s) && r.err.contains(u"line 6"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }

    void invalidUtf8Refused_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QByteArray>("content");
        QTest::newRow("catalog csv") << u"aws"_s << u"latin1.csv"_s
                                     << catalog(u"aws"_s, {row(u"aws"_s, "p4d.24xlarge", "us-east-1"),
                                                           row(u"aws"_s, "p5.48xlarge", "S\xe3o Paulo")});
        QByteArray sky = readFixture(u"providers/skypilot/paperspace.csv"_s);
        sky.replace("East Coast (NY2)", "East Coast \xff (NY2)");
        QTest::newRow("skypilot csv") << u"paperspace"_s << u"sky.csv"_s << sky;
        QByteArray json = readFixture(u"providers/aws/us-east-1.json"_s);
        json.replace("US East (N. Virginia)", "US East (N. Virg\xednia)");
        QTest::newRow("aws json") << u"aws"_s << u"us-east-1.json"_s << json;
        QByteArray vast = readFixture(u"providers/vastai/offers.json"_s);
        vast.replace("Guangxi, CN", "Guangx\xef, CN");
        QTest::newRow("vast json") << u"vastai"_s << u"vast.json"_s << vast;
    }

    void invalidUtf8Refused()
    {
        QFETCH(QString, provider);
        QFETCH(QString, name);
        QFETCH(QByteArray, content);
        TempDb db;
        fill(db);
        const QByteArray before = dumpCatalog(db.path());
        writeFile(file(name), content);
        const CliRun r = cli(db.path(), {u"import"_s, u"--provider"_s, provider, u"--file"_s, file(name)});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"UTF-8"_s), qPrintable(r.err));
        QCOMPARE(dumpCatalog(db.path()), before);
    }
};

QTEST_GUILESS_MAIN(TestHostileInput)
#include "test_hostileinput.moc"

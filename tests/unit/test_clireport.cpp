#include "cli.h"
#include "clirun.h"
#include "filetext.h"
#include "jsonschemacheck.h"
#include "testsupport.h"
#include "util/csv.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

const QStringList kBase{u"report"_s, u"--workload"_s,      u"resnet50"_s, u"--deadline"_s,
                        u"24"_s,     u"--budget"_s,        u"500"_s,      u"--nodes"_s,
                        u"2,4"_s,    u"--no-calibration"_s};
} // namespace

class TestCliReport final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    QTemporaryDir m_dir;

    QString file(const QString &name) const { return m_dir.filePath(name); }

private Q_SLOTS:
    void initTestCase()
    {
        // Fill the database once (first use imports the bundled snapshot).
        const CliRun r = cli(m_db.path(), {u"catalogs"_s});
        QCOMPARE(r.rc, 0);
    }

    void helpListsTheSharedOptions()
    {
        const CliRun r = cli(m_db.path(), {u"report"_s, u"--help"_s});
        QCOMPARE(r.rc, 0);
        const CliRun f = cli(m_db.path(), {u"frontier"_s, u"--help"_s});
        QCOMPARE(f.rc, 0);
        for (const char *opt :
             {"--deadline", "--budget", "--spot", "--on-demand", "--checkpoint-minutes", "--setup-minutes",
              "--restore-minutes", "--nodes", "--weight", "--provider", "--workload", "--samples"}) {
            QVERIFY2(r.out.contains(QLatin1StringView(opt)), opt);
            QVERIFY2(f.out.contains(QLatin1StringView(opt)), opt);
        }
        for (const char *opt : {"--format", "--output", "--now", "--offers", "--title"})
            QVERIFY2(r.out.contains(QLatin1StringView(opt)), opt);
        const CliRun main = cli(m_db.path(), {u"--help"_s});
        QVERIFY(main.out.contains(u"report"));
    }

    void everyFormatIsDeterministicWithNow_data()
    {
        QTest::addColumn<QString>("format");
        for (const char *f : {"html", "pdf", "csv", "json", "md"})
            QTest::newRow(f) << QString::fromLatin1(f);
    }
    void everyFormatIsDeterministicWithNow()
    {
        QFETCH(QString, format);
        const QString a = file(u"a."_s + format);
        const QString b = file(u"b."_s + format);
        QStringList args = kBase;
        args << u"--format"_s << format << u"--now"_s << u"2024-07-15T12:00:00Z"_s << u"-o"_s;
        const CliRun r1 = cli(m_db.path(), args + QStringList{a});
        QVERIFY2(r1.rc == 0, qPrintable(r1.err));
        QVERIFY(r1.out.contains(u"Wrote"));
        const CliRun r2 = cli(m_db.path(), args + QStringList{b});
        QCOMPARE(r2.rc, 0);
        const QByteArray x = readAll(a);
        QVERIFY(x.size() > 1000);
        const QString c = file(u"c."_s + format);
        QStringList later = kBase;
        later << u"--format"_s << format << u"--now"_s << u"2024-07-15T12:30:00Z"_s << u"-o"_s << c;
        QCOMPARE(cli(m_db.path(), later).rc, 0);
        if (format == u"pdf") {
            // A PDF is compared by its text (Qt writes the bytes); its creation date is --now.
            QVERIFY(x.contains("/CreationDate (D:20240715120000"));
            if (QStandardPaths::findExecutable(u"pdftotext"_s).isEmpty())
                QSKIP("pdftotext (poppler-utils) is not installed");
            const QString text = pdfText(a);
            QVERIFY(text.contains(u"2024-07-15 12:00"));
            QCOMPARE(pdfText(b), text);
            QVERIFY(pdfText(c) != text);
        } else {
            QCOMPARE(x, readAll(b));
        }
        if (format != u"csv" && format != u"pdf") {
            // The generated-at time is the only thing that moves.
            QVERIFY(x.contains("2024-07-15"));
            QVERIFY(readAll(c) != x);
        }
        QVERIFY(QFile::remove(a) && QFile::remove(b));
    }

    void formatFromSuffixAndErrors()
    {
        const QString path = file(u"by-suffix.md"_s);
        QCOMPARE(cli(m_db.path(), kBase + QStringList{u"-o"_s, path}).rc, 0);
        QVERIFY(readAll(path).startsWith("# GPU Frontier report"));
        CliRun r = cli(m_db.path(), kBase + QStringList{u"-o"_s, file(u"noformat"_s)});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.contains(u"--format"));
        r = cli(m_db.path(), kBase + QStringList{u"--format"_s, u"docx"_s, u"-o"_s, file(u"x.docx"_s)});
        QCOMPARE(r.rc, 2);
        r = cli(m_db.path(), kBase + QStringList{u"--format"_s, u"html"_s});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.contains(u"-o FILE"));
        r = cli(m_db.path(), kBase + QStringList{u"--now"_s, u"yesterday"_s, u"-o"_s, file(u"x.html"_s)});
        QCOMPARE(r.rc, 2);
        QVERIFY(r.err.contains(u"--now"));
        r = cli(m_db.path(), kBase + QStringList{u"--offers"_s, u"selected"_s, u"-o"_s, file(u"x.html"_s)});
        QCOMPARE(r.rc, 2);
        r = cli(m_db.path(), {u"report"_s, u"--workload"_s, u"nope"_s, u"-o"_s, file(u"x.html"_s)});
        QCOMPARE(r.rc, 2);
        QVERIFY(!QFile::exists(file(u"x.html"_s)));
        QVERIFY(!QFile::exists(file(u"x.docx"_s)));
    }

    // Only a PDF report needs a QGuiApplication (main() starts an offscreen one for it).
    void onlyThePdfReportNeedsGui()
    {
        QVERIFY(cliNeedsGui({u"report"_s, u"--workload"_s, u"resnet50"_s, u"-o"_s, u"r.pdf"_s}));
        QVERIFY(
            cliNeedsGui({u"--db"_s, u"x.sqlite"_s, u"report"_s, u"--format"_s, u"pdf"_s, u"-o"_s, u"r"_s}));
        QVERIFY(cliNeedsGui({u"report"_s, u"--db"_s, u"x.sqlite"_s, u"--output"_s, u"R.PDF"_s}));
        QVERIFY(!cliNeedsGui({u"report"_s, u"--format"_s, u"html"_s, u"-o"_s, u"r.pdf"_s}));
        QVERIFY(!cliNeedsGui({u"report"_s, u"-o"_s, u"r.md"_s}));
        QVERIFY(!cliNeedsGui({u"report"_s, u"--help"_s, u"-o"_s, u"r.pdf"_s}));
        QVERIFY(!cliNeedsGui({u"offers"_s, u"-o"_s, u"r.pdf"_s}));
        QVERIFY(!cliNeedsGui({}));
    }

    // The real executable writes a PDF without any display (no X, no Wayland, no QT_QPA_PLATFORM).
    void realBinaryWritesPdfWithoutDisplay()
    {
        const QString pdf = file(u"nodisplay.pdf"_s);
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *v : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM", "XDG_SESSION_TYPE"})
            env.remove(QString::fromLatin1(v));
        p.setProcessEnvironment(env);
        p.start(builtExecutable(u"gpufrontier-cli"_s),
                QStringList{u"--db"_s, m_db.path()} + kBase + QStringList{u"-o"_s, pdf});
        QVERIFY(p.waitForFinished(120000));
        const QString err = QString::fromUtf8(p.readAllStandardError());
        QVERIFY2(p.exitCode() == 0, qPrintable(err));
        QVERIFY2(err.isEmpty(), qPrintable(err)); // no start-up warnings either
        QVERIFY(p.readAllStandardOutput().contains("pdf report"));
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
    }

    // Hostile input: an instance type of 100,000 characters (and a CJK host location) from a
    // provider. The PDF report is written, with the name cut for display; the JSON keeps it whole.
    void hugeProviderNameIsCutInThePdf()
    {
        TempDb db;
        const QString name = QString(100000, u'g');
        const QString csvPath = file(u"long.csv"_s);
        {
            QFile f(csvPath);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(
                "provider,instance_type,region,zone,gpu_name,gpu_count,gpu_mem_gb,vcpus,ram_gb,network_gbps,"
                "interconnect,ondemand_usd_h,spot_usd_h,spot_label,interruption,reliability,"
                "billing_increment_s,billing_minimum_s,source,upload_gbps,dlperf\n");
            // The cheapest H100 anywhere: it is on the frontier (and in the report's cards).
            f.write(u"vastai,%1,\"東京都, JP, AS\",,H100 SXM,1,80,16,64,10,,0.05,,,,,1,0,test,,\n"_s.arg(name)
                        .toUtf8());
        }
        CliRun r = cli(db.path(), {u"import"_s, u"--file"_s, csvPath});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QString pdf = file(u"long.pdf"_s);
        const QStringList args{u"report"_s, u"--workload"_s,           u"resnet50"_s, u"--no-calibration"_s,
                               u"--now"_s,  u"2024-07-15T12:00:00Z"_s, u"-o"_s};
        r = cli(db.path(), args + QStringList{pdf});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        QVERIFY(readAll(pdf).startsWith("%PDF-"));
        const QString json = file(u"long.json"_s);
        QCOMPARE(cli(db.path(), args + QStringList{json}).rc, 0);
        bool whole = false;
        for (const QJsonValue &v :
             QJsonDocument::fromJson(readAll(json)).object().value(u"frontier").toArray())
            whole = whole || v.toObject().value(u"instance_type").toString() == name;
        QVERIFY2(whole, "the JSON report keeps the whole name of the frontier offer");
        const QString md = file(u"long.md"_s);
        QCOMPARE(cli(db.path(), args + QStringList{md}).rc, 0);
        const QString mdText = QString::fromUtf8(readAll(md));
        QVERIFY(mdText.contains(QString(199, u'g') + u'…'));
        QVERIFY(!mdText.contains(QString(200, u'g')));
        if (QStandardPaths::findExecutable(u"pdftotext"_s).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString text = pdfText(pdf);
        QVERIFY(text.contains(u"東京都, JP, AS"));
        QVERIFY(text.contains(u"g…"));
        QVERIFY2(text.count(u'g') < 10000, "each occurrence of the name is cut to 199 characters");
    }

    void unwritablePathGivesAnErrorAndNoFile()
    {
        const QString path = file(u"missing/dir/r.pdf"_s);
        const CliRun r = cli(m_db.path(), kBase + QStringList{u"-o"_s, path});
        QCOMPARE(r.rc, 1);
        QVERIFY2(r.err.contains(u"Cannot write"), qPrintable(r.err));
        QVERIFY(!QFile::exists(path));
    }

    void jsonValidatesAndMatchesTheFrontierCommand()
    {
        const QString path = file(u"r.json"_s);
        CliRun r = cli(m_db.path(), kBase + QStringList{u"--provider"_s, u"aws,gcp"_s, u"-o"_s, path});
        QCOMPARE(r.rc, 0);
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(readAll(path), &pe);
        QCOMPARE(pe.error, QJsonParseError::NoError);
        const QJsonDocument schema =
            QJsonDocument::fromJson(readAll(QStringLiteral(GF_SOURCE_DIR "/resources/report.schema.json")));
        QVERIFY(schema.isObject());
        const QStringList errors = JsonSchemaCheck(schema.object()).validate(doc.object());
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 10).join(u'\n')));
        const QJsonObject root = doc.object();
        QCOMPARE(root.value(u"offer_set").toString(), u"all"_s); // the default for json
        QSet<QString> providers;
        for (const QJsonValue &p : root.value(u"points").toArray())
            providers.insert(p.toObject().value(u"provider").toString());
        QCOMPARE(providers, (QSet<QString>{u"aws"_s, u"gcp"_s}));
        QVERIFY(!root.value(u"multi_node").toArray().isEmpty());
        QVERIFY(!root.value(u"spot_savings").toArray().isEmpty());

        // The same frontier as `frontier --frontier-only`.
        r = cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--deadline"_s, u"24"_s,
                              u"--budget"_s, u"500"_s, u"--nodes"_s, u"2,4"_s, u"--no-calibration"_s,
                              u"--provider"_s, u"aws,gcp"_s, u"--frontier-only"_s, u"--format"_s, u"json"_s});
        QCOMPARE(r.rc, 0);
        const QJsonArray fp = QJsonDocument::fromJson(r.out.toUtf8()).object().value(u"points").toArray();
        const QJsonArray rp = root.value(u"frontier").toArray();
        QCOMPARE(rp.size(), fp.size());
        QMultiHash<QString, double> a, b;
        for (const QJsonValue &v : fp)
            a.insert(v.toObject().value(u"instance_type").toString(),
                     v.toObject().value(u"cost_usd").toDouble());
        for (const QJsonValue &v : rp)
            b.insert(v.toObject().value(u"instance_type").toString(),
                     v.toObject().value(u"cost_usd").toDouble());
        QCOMPARE(a, b);
    }

    void frontierOnlyAndCsvNumbers()
    {
        const QString json = file(u"f.json"_s);
        QCOMPARE(cli(m_db.path(), kBase + QStringList{u"--offers"_s, u"frontier"_s, u"-o"_s, json}).rc, 0);
        const QJsonObject root = QJsonDocument::fromJson(readAll(json)).object();
        QCOMPARE(root.value(u"offer_set").toString(), u"frontier"_s);
        const QJsonArray points = root.value(u"points").toArray();
        QVERIFY(!points.isEmpty());
        for (const QJsonValue &p : points)
            QVERIFY(p.toObject().value(u"on_frontier").toBool());

        const QString csvPath = file(u"f.csv"_s);
        QCOMPARE(cli(m_db.path(), kBase + QStringList{u"--offers"_s, u"frontier"_s, u"-o"_s, csvPath}).rc, 0);
        auto csv = parseCsv(QString::fromUtf8(readAll(csvPath)), false);
        QVERIFY(csv.ok());
        QCOMPARE(csv.value().records.size(), points.size());
        const int cost = csv.value().column(u"cost_usd"_s);
        const int hours = csv.value().column(u"total_h"_s);
        for (qsizetype i = 0; i < points.size(); ++i) {
            QCOMPARE(csv.value().records.at(i).fields.at(cost).toDouble(),
                     points.at(i).toObject().value(u"cost_usd").toDouble());
            QCOMPARE(csv.value().records.at(i).fields.at(hours).toDouble(),
                     points.at(i).toObject().value(u"total_h").toDouble());
        }
    }

    // The reproduce command of a preset at another batch names the batch (it was dropped: the comparison ran
    // against the preset already moved to that batch), not the bytes per sample that batch re-derives (rule
    // U), and keeps typed figures; run, it writes the same report. Also with checkpointing switched, and for
    // a measured preset (its checkpointing and its typed bytes were lost).
    void reproduceCommandRoundTrips_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("batch and memory") << QStringList{u"--workload"_s, u"bert-large-squad"_s, u"--batch"_s,
                                                         u"2"_s,          u"--memory-gb"_s,      u"9"_s}
                                          << QStringList{u" --batch 2 "_s, u" --memory-gb 9 "_s};
        QTest::newRow("checkpointing off at batch 3")
            << QStringList{u"--workload"_s, u"llm7b-lora"_s, u"--checkpointing"_s,
                           u"off"_s,        u"--batch"_s,    u"3"_s}
            << QStringList{u" --batch 3 "_s, u" --checkpointing off "_s};
        QTest::newRow("checkpointing and typed memory")
            << QStringList{u"--workload"_s, u"bert-large-squad"_s, u"--batch"_s, u"2"_s, u"--checkpointing"_s,
                           u"on"_s,         u"--memory-gb"_s,      u"9"_s}
            << QStringList{u" --memory-gb 9 "_s, u" --checkpointing on "_s};
        QTest::newRow("measured LoRA")
            << QStringList{u"--workload"_s, u"llm7b-lora"_s,    u"--measured"_s,
                           u"5"_s,          u"--measured-on"_s, u"a100-80gb-sxm4"_s}
            << QStringList{u" --measured 5 "_s};
        QTest::newRow("measured with typed bytes") << QStringList{u"--workload"_s,
                                                                  u"bert-large-squad"_s,
                                                                  u"--batch"_s,
                                                                  u"2"_s,
                                                                  u"--measured"_s,
                                                                  u"100"_s,
                                                                  u"--measured-on"_s,
                                                                  u"h100-80gb-sxm"_s,
                                                                  u"--bytes-per-sample"_s,
                                                                  u"1e9"_s}
                                                   << QStringList{u" --bytes-per-sample 1000000000 "_s};
    }

    void reproduceCommandRoundTrips()
    {
        QFETCH(QStringList, args);
        QFETCH(QStringList, expected);
        const QString md = file(u"rt.md"_s);
        const CliRun r = cli(m_db.path(), QStringList{u"report"_s} + args +
                                              QStringList{u"--no-calibration"_s, u"--offers"_s, u"frontier"_s,
                                                          u"--format"_s, u"md"_s, u"--now"_s,
                                                          u"2026-11-28T12:00:00Z"_s, u"-o"_s, md});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QString text = QString::fromUtf8(readAll(md));
        QString command;
        for (const QString &line : text.split(u'\n'))
            if (line.startsWith(u"gpufrontier-cli report "_s))
                command = line;
        for (const QString &e : expected)
            QVERIFY2(command.contains(e), qPrintable(command));
        if (!args.contains(u"--bytes-per-sample"_s))
            QVERIFY2(!command.contains(u"--bytes-per-sample"_s), qPrintable(command));
        QVERIFY2(!command.contains(u"--flops-per-sample"_s), qPrintable(command));
        const QString again = file(u"again.md"_s);
        QStringList rerun = command.split(u' ', Qt::SkipEmptyParts).mid(1);
        QCOMPARE(rerun.last(), u"FILE"_s);
        rerun.last() = again;
        const CliRun r2 = cli(m_db.path(), rerun);
        QVERIFY2(r2.rc == 0, qPrintable(r2.err));
        QCOMPARE(QString::fromUtf8(readAll(again)), text);
    }

    // With a probe run in the database the report names the device and its figures (and no datasheet caveat).
    void calibratedReportNamesTheProbe()
    {
        TempDb db;
        QCOMPARE(cli(db.path(), {u"probe"_s, u"--import"_s, fixturePath(u"probe/cuda_h100.json"_s)}).rc, 0);
        const QString path = file(u"cal.json"_s);
        const CliRun r = cli(db.path(), {u"report"_s, u"--workload"_s, u"resnet50"_s, u"-o"_s, path});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QJsonObject root = QJsonDocument::fromJson(readAll(path)).object();
        const QJsonObject cal = root.value(u"calibration").toObject();
        QVERIFY(cal.value(u"measured").toBool());
        QVERIFY(cal.value(u"probe").isObject());
        QVERIFY(cal.value(u"probe").toObject().value(u"device_name").toString().contains(u"H100"));
        QVERIFY(cal.value(u"probe").toObject().value(u"run_id").toInt() > 0);
        for (const QJsonValue &w : root.value(u"warnings").toArray())
            QVERIFY(w.toObject().value(u"code").toString() != u"datasheet-only");
        const QJsonDocument schema =
            QJsonDocument::fromJson(readAll(QStringLiteral(GF_SOURCE_DIR "/resources/report.schema.json")));
        const QStringList errors = JsonSchemaCheck(schema.object()).validate(root);
        QVERIFY2(errors.isEmpty(), qPrintable(errors.mid(0, 10).join(u'\n')));
        // --no-calibration: the datasheet caveat, no probe.
        QCOMPARE(cli(db.path(),
                     {u"report"_s, u"--workload"_s, u"resnet50"_s, u"--no-calibration"_s, u"-o"_s, path})
                     .rc,
                 0);
        const QJsonObject plain = QJsonDocument::fromJson(readAll(path)).object();
        QVERIFY(plain.value(u"calibration").toObject().value(u"probe").isNull());
        QCOMPARE(plain.value(u"warnings").toArray().first().toObject().value(u"code").toString(),
                 u"datasheet-only"_s);
    }

    void pdfTextHasTheFrontierTable()
    {
        const QString pdftotext = QStandardPaths::findExecutable(u"pdftotext"_s);
        if (pdftotext.isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString pdf = file(u"r.pdf"_s);
        const QString json = file(u"r2.json"_s);
        const QStringList pin{u"--now"_s, u"2024-07-15T12:00:00Z"_s, u"--offers"_s, u"frontier"_s, u"-o"_s};
        QCOMPARE(cli(m_db.path(), kBase + pin + QStringList{pdf}).rc, 0);
        QCOMPARE(cli(m_db.path(), kBase + pin + QStringList{json}).rc, 0);
        const QStringList lines = pdfText(pdf).split(u'\n');
        const QJsonArray frontier =
            QJsonDocument::fromJson(readAll(json)).object().value(u"frontier").toArray();
        QVERIFY(frontier.size() >= 3);
        for (const QJsonValue &v : frontier) {
            const QJsonObject o = v.toObject();
            const double c = o.value(u"cost_usd").toDouble();
            const QString cost = QLocale::c().toString(c, 'f', c < 100 ? 2 : 0);
            const QString instance = o.value(u"instance_type").toString();
            bool found = false;
            for (const QString &line : lines)
                found = found || (line.contains(instance) && line.contains(cost));
            QVERIFY2(found, qPrintable(instance + u' ' + cost));
        }
    }

    // The summary compares the recommendation with the same "fastest within limits" and "cheapest within
    // limits" the report's cards show (regression: "87 % less than the fastest offer (162 USD)" beside a
    // card of 126 USD).
    void summaryAndCardsAgree()
    {
        const QString md = file(u"agree.md"_s);
        const CliRun r = cli(m_db.path(), {u"report"_s, u"--workload"_s, u"llm7b-lora"_s, u"--deadline"_s,
                                           u"6"_s, u"--budget"_s, u"50"_s, u"--now"_s,
                                           u"2024-07-15T12:00:00Z"_s, u"--no-calibration"_s, u"-o"_s, md});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QStringList lines = QString::fromUtf8(readAll(md)).split(u'\n');
        auto cardCost = [&](const QString &card) {
            for (const QString &line : lines)
                if (line.startsWith(u"- **"_s + card)) {
                    static const QRegularExpression cost(u" — [^,]+, ([0-9.,]+) USD"_s);
                    return cost.match(line).captured(1);
                }
            return QString();
        };
        QString summary;
        for (const QString &line : lines)
            if (line.startsWith(u"Train on"_s))
                summary = line;
        QVERIFY(!summary.isEmpty());
        const QString fastest = cardCost(u"Fastest within limits"_s);
        const QString cheapest = cardCost(u"Cheapest within limits"_s);
        QVERIFY(!fastest.isEmpty() && !cheapest.isEmpty());
        if (summary.contains(u"than the fastest"_s))
            QVERIFY2(summary.contains(fastest + u" USD in"_s), qPrintable(summary + u" / "_s + fastest));
        if (summary.contains(u"than the cheapest"_s))
            QVERIFY2(summary.contains(cheapest + u" USD in"_s), qPrintable(summary + u" / "_s + cheapest));
        QVERIFY(summary.contains(u"than the fastest within limits"_s) ||
                summary.contains(u"than the cheapest within limits"_s));
    }

    // The PDF's point table reads its cells by column name: a feasible frontier row is not marked
    // "outside limits" and its Notes show the notes (recommended, frontier, flags), not the evidence tier.
    void pdfTableReadsColumnsByName()
    {
        if (QStandardPaths::findExecutable(u"pdftotext"_s).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString pdf = file(u"limits.pdf"_s);
        const QString json = file(u"limits.json"_s);
        const QStringList args{
            u"report"_s,   u"--workload"_s,       u"llm7b-lora"_s, u"--deadline"_s,           u"1000"_s,
            u"--budget"_s, u"100000"_s,           u"--now"_s,      u"2024-07-15T12:00:00Z"_s, u"--offers"_s,
            u"frontier"_s, u"--no-calibration"_s, u"-o"_s};
        QCOMPARE(cli(m_db.path(), args + QStringList{json}).rc, 0);
        const QJsonArray frontier =
            QJsonDocument::fromJson(readAll(json)).object().value(u"frontier").toArray();
        QVERIFY(!frontier.isEmpty());
        for (const QJsonValue &v : frontier)
            QVERIFY(v.toObject().value(u"feasible").toBool());
        const CliRun r = cli(m_db.path(), args + QStringList{pdf});
        QVERIFY2(r.rc == 0, qPrintable(r.err));
        const QString text = pdfText(pdf);
        QVERIFY2(!text.contains(u"outside limits"), qPrintable(text.left(3000)));
        QVERIFY2(text.contains(u"recommended"), qPrintable(text.left(3000)));
        for (const char *tier : {"measured-converted", "transferred-same-arch", "transferred-cross-arch"})
            QVERIFY2(!text.contains(QLatin1String(tier) + u", frontier"), tier);
    }
};

QTEST_MAIN(TestCliReport)
#include "test_clireport.moc"

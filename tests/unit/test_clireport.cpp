#include "cli.h"
#include "clirun.h"
#include "jsonschemacheck.h"
#include "testsupport.h"
#include "util/csv.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

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
        QCOMPARE(x, readAll(b));
        if (format != u"csv") {
            // The generated-at time is the only thing that moves.
            QVERIFY(x.contains("2024-07-15") || format == u"pdf");
            const QString c = file(u"c."_s + format);
            QStringList later = kBase;
            later << u"--format"_s << format << u"--now"_s << u"2024-07-15T12:30:00Z"_s << u"-o"_s << c;
            QCOMPARE(cli(m_db.path(), later).rc, 0);
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
        QProcess p;
        p.start(pdftotext, {u"-layout"_s, pdf, u"-"_s});
        QVERIFY(p.waitForFinished(60000));
        QCOMPARE(p.exitCode(), 0);
        const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
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
};

QTEST_GUILESS_MAIN(TestCliReport)
#include "test_clireport.moc"

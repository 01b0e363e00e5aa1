#include "cli.h"
#include "clirun.h"
#include "domain/currency.h"
#include "filetext.h"
#include "testsupport.h"
#include "util/csv.h"
#include "util/format.h"

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

const QStringList kReport{
    u"report"_s,   u"--workload"_s, u"resnet50"_s,         u"--deadline"_s, u"24"_s,
    u"--budget"_s, u"500"_s,        u"--no-calibration"_s, u"--now"_s,      u"2024-07-15T12:00:00Z"_s};
} // namespace

/// --currency on the commands that print prices, the currencies command, and reports in EUR.
class TestCliCurrency final : public QObject
{
    Q_OBJECT
private:
    TempDb m_db;
    QTemporaryDir m_dir;
    Currency m_eur;

private Q_SLOTS:
    void initTestCase()
    {
        QCOMPARE(cli(m_db.path(), {u"catalogs"_s}).rc, 0);
        m_eur = *CurrencyTable::shipped().find(u"EUR"_s);
    }

    void currenciesListsDatedRates()
    {
        const CliRun r = cli(m_db.path(), {u"currencies"_s});
        QCOMPARE(r.rc, 0);
        for (const Currency &c : CurrencyTable::shipped().currencies()) {
            bool found = false;
            for (const QString &line : r.out.split(u'\n'))
                found = found || (line.startsWith(c.code) && line.contains(c.date.toString(Qt::ISODate)) &&
                                  line.contains(QString::number(c.unitsPerUsd, 'g', 8)));
            QVERIFY2(found, qPrintable(c.code));
        }
        const CliRun csv = cli(m_db.path(), {u"currencies"_s, u"--format"_s, u"csv"_s});
        QCOMPARE(csv.rc, 0);
        QCOMPARE(csv.out, CurrencyTable::shipped().toCsv());
    }

    void unknownCodeListsTheKnownOnes()
    {
        for (const QString &cmd : {u"offers"_s, u"frontier"_s}) {
            QStringList args{cmd, u"--currency"_s, u"XYZ"_s};
            if (cmd == u"frontier")
                args += {u"--workload"_s, u"resnet50"_s};
            const CliRun r = cli(m_db.path(), args);
            QCOMPARE(r.rc, 2);
            QVERIFY2(r.err.contains(u"--currency: unknown currency \"XYZ\" (known: USD, EUR, GBP"_s),
                     qPrintable(r.err));
        }
    }

    void badRatesFileIsNamed()
    {
        const QString path = m_dir.filePath(u"rates.csv"_s);
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("code,symbol,name,units_per_usd,date,source\nEUR,E,Euro,zero,2026-11-01,me\n");
        f.close();
        const CliRun r = cli(m_db.path(), {u"offers"_s, u"--currency"_s, u"EUR"_s, u"--rates"_s, path});
        QCOMPARE(r.rc, 2);
        QVERIFY2(r.err.contains(path + u", line 2: EUR: the rate \"zero\" is not a number"_s),
                 qPrintable(r.err));
    }

    void offersTableConvertsAndNamesTheRate()
    {
        const QStringList base{u"offers"_s, u"--gpu"_s,    u"H100"_s, u"--limit"_s,
                               u"5"_s,      u"--format"_s, u"json"_s};
        const CliRun json = cli(m_db.path(), base);
        QCOMPARE(json.rc, 0);
        const QJsonArray offers = QJsonDocument::fromJson(json.out.toUtf8()).array();
        QVERIFY(!offers.isEmpty());
        const CliRun usd = cli(m_db.path(), base.mid(0, 5));
        const CliRun eur = cli(m_db.path(), base.mid(0, 5) + QStringList{u"--currency"_s, u"eur"_s});
        QCOMPARE(eur.rc, 0);
        QVERIFY(!usd.out.contains(u"Prices in"_s));
        QVERIFY(eur.out.startsWith(u"Prices in EUR: "_s + m_eur.rateText()));
        QVERIFY(eur.out.contains(u"On-demand EUR/h"_s) && eur.out.contains(u"EUR/GPU-h"_s));
        QVERIFY(!eur.out.contains(u"USD/h"_s));
        for (const QJsonValue &v : offers) {
            const QJsonObject o = v.toObject();
            if (!o.value(u"ondemand_usd_h"_s).isDouble())
                continue;
            const double usdH = o.value(u"ondemand_usd_h"_s).toDouble();
            const double perGpu = usdH / o.value(u"gpu_count"_s).toDouble();
            bool found = false;
            for (const QString &line : eur.out.split(u'\n'))
                found = found || (line.contains(o.value(u"instance_type"_s).toString()) &&
                                  line.contains(formatUsdPerHour(m_eur.fromUsd(usdH))) &&
                                  line.contains(formatUsdPerHour(m_eur.fromUsd(perGpu))));
            QVERIFY2(found, qPrintable(o.value(u"instance_type"_s).toString()));
        }
        // The data formats stay USD: --currency with csv/json is refused, not silently ignored.
        const CliRun refused = cli(m_db.path(), base + QStringList{u"--currency"_s, u"EUR"_s});
        QCOMPARE(refused.rc, 2);
        QVERIFY(refused.err.contains(u"--format json lists the stored USD prices"_s));
    }

    void frontierTableConverts()
    {
        const QStringList base{u"frontier"_s,        u"--workload"_s, u"resnet50"_s, u"--no-calibration"_s,
                               u"--frontier-only"_s, u"--limit"_s,    u"3"_s};
        const CliRun json =
            cli(m_db.path(), {u"frontier"_s, u"--workload"_s, u"resnet50"_s, u"--no-calibration"_s,
                              u"--frontier-only"_s, u"--limit"_s, u"3"_s, u"--format"_s, u"json"_s});
        QCOMPARE(json.rc, 0);
        const QJsonArray points =
            QJsonDocument::fromJson(json.out.toUtf8()).object().value(u"points"_s).toArray();
        QVERIFY(!points.isEmpty());
        const CliRun eur = cli(m_db.path(), base + QStringList{u"--currency"_s, u"EUR"_s});
        QCOMPARE(eur.rc, 0);
        QVERIFY(eur.out.startsWith(u"Prices in EUR: "_s));
        QVERIFY(eur.out.contains(u"Cost EUR"_s) && eur.out.contains(u"EUR/GPU-h"_s) &&
                eur.out.contains(u"Samples/EUR"_s));
        for (const QJsonValue &v : points) {
            const QJsonObject p = v.toObject();
            const double cost = p.value(u"cost_usd"_s).toDouble();
            const double perGpu = p.value(u"price_usd_per_gpu_h"_s).toDouble();
            QCOMPARE(perGpu, p.value(u"price_usd_per_h"_s).toDouble() /
                                 (p.value(u"gpu_count"_s).toDouble() * p.value(u"nodes"_s).toDouble()));
            bool found = false;
            for (const QString &line : eur.out.split(u'\n'))
                found = found || (line.contains(p.value(u"instance_type"_s).toString()) &&
                                  line.contains(formatUsd(m_eur.fromUsd(cost))) &&
                                  line.contains(formatUsdPerHour(m_eur.fromUsd(perGpu))));
            QVERIFY2(found, qPrintable(p.value(u"instance_type"_s).toString()));
        }
    }

    void historyConvertsAndHasPerGpuHour()
    {
        const QStringList base{u"history"_s, u"--provider"_s, u"aws"_s, u"--instance"_s, u"p3.8xlarge"_s};
        const CliRun json = cli(m_db.path(), base + QStringList{u"--format"_s, u"json"_s});
        QCOMPARE(json.rc, 0);
        const QJsonObject first = QJsonDocument::fromJson(json.out.toUtf8()).array().first().toObject();
        const double usdH = first.value(u"ondemand_usd_h"_s).toDouble();
        QVERIFY(usdH > 0);
        const CliRun usd = cli(m_db.path(), base);
        QCOMPARE(usd.rc, 0);
        QVERIFY(usd.out.contains(u"USD/GPU-h"_s) && usd.out.contains(formatUsdPerHour(usdH / 4)));
        const CliRun eur = cli(m_db.path(), base + QStringList{u"--currency"_s, u"EUR"_s});
        QCOMPARE(eur.rc, 0);
        QVERIFY(eur.out.startsWith(u"Prices in EUR: "_s));
        QVERIFY(eur.out.contains(u"(EUR/h, whole instance)"_s) && eur.out.contains(u"EUR/GPU-h"_s));
        QVERIFY(eur.out.contains(formatUsdPerHour(m_eur.fromUsd(usdH))));
        QVERIFY(eur.out.contains(formatUsdPerHour(m_eur.fromUsd(usdH / 4))));
    }

    void reportInEurKeepsUsdData()
    {
        const QString usdJson = m_dir.filePath(u"usd.json"_s), eurJson = m_dir.filePath(u"eur.json"_s);
        QCOMPARE(cli(m_db.path(), kReport + QStringList{u"-o"_s, usdJson}).rc, 0);
        QCOMPARE(cli(m_db.path(), kReport + QStringList{u"--currency"_s, u"EUR"_s, u"-o"_s, eurJson}).rc, 0);
        QJsonObject usd = QJsonDocument::fromJson(readAll(usdJson)).object();
        QJsonObject eur = QJsonDocument::fromJson(readAll(eurJson)).object();
        QCOMPARE(usd.value(u"schema_version"_s).toInt(), 6);
        QCOMPARE(usd.value(u"currency"_s).toObject().value(u"code"_s).toString(), u"USD"_s);
        const QJsonObject c = eur.value(u"currency"_s).toObject();
        QCOMPARE(c.value(u"code"_s).toString(), u"EUR"_s);
        QCOMPARE(c.value(u"units_per_usd"_s).toDouble(), m_eur.unitsPerUsd);
        QCOMPARE(c.value(u"rate_date"_s).toString(), m_eur.date.toString(Qt::ISODate));
        // Every data field is the same USD figure: only the currency block (and the reproduce line's
        // --currency) differ.
        usd.remove(u"currency"_s);
        eur.remove(u"currency"_s);
        QCOMPARE(eur.value(u"points"_s), usd.value(u"points"_s));
        QCOMPARE(eur.value(u"recommended"_s), usd.value(u"recommended"_s));
        QCOMPARE(eur.value(u"assumptions"_s), usd.value(u"assumptions"_s));
        QVERIFY(eur.value(u"points"_s).toArray().first().toObject().contains(u"price_usd_per_gpu_h"_s));
    }

    void documentsShowEurAndTheRate()
    {
        const QJsonObject rec = [&] {
            const QString j = m_dir.filePath(u"rec.json"_s);
            cli(m_db.path(), kReport + QStringList{u"-o"_s, j});
            return QJsonDocument::fromJson(readAll(j)).object().value(u"recommended"_s).toObject();
        }();
        QVERIFY(!rec.isEmpty());
        const QString cost = formatUsd(m_eur.fromUsd(rec.value(u"cost_usd"_s).toDouble()));
        const QString rate = m_eur.rateText();
        for (const QString &fmt : {u"html"_s, u"md"_s}) {
            const QString path = m_dir.filePath(u"eur."_s + fmt);
            QCOMPARE(cli(m_db.path(), kReport + QStringList{u"--currency"_s, u"EUR"_s, u"-o"_s, path}).rc, 0);
            const QString text = QString::fromUtf8(readAll(path));
            QVERIFY2(text.contains(u"Prices in EUR: "_s + (fmt == u"html" ? rate.toHtmlEscaped() : rate)),
                     qPrintable(fmt));
            QVERIFY2(text.contains(cost + u" EUR"_s), qPrintable(fmt + u": "_s + cost));
            QVERIFY(text.contains(u"EUR/GPU-h"_s) && text.contains(u"Cost (EUR)"_s));
            QVERIFY(!text.contains(u"Cost (USD)"_s));
        }
        // CSV: the USD columns and converted ones, with the rate and its date.
        const QString csvPath = m_dir.filePath(u"eur.csv"_s);
        QCOMPARE(cli(m_db.path(), kReport + QStringList{u"--currency"_s, u"EUR"_s, u"-o"_s, csvPath}).rc, 0);
        auto csv = parseCsv(QString::fromUtf8(readAll(csvPath)), false);
        QVERIFY(csv.ok());
        const CsvDocument &d = csv.value();
        for (const char *col : {"cost_usd", "price_usd_per_gpu_h", "eur_per_usd", "rate_date", "cost_eur",
                                "price_eur_per_gpu_h"})
            QVERIFY2(d.column(QLatin1StringView(col)) >= 0, col);
        const CsvRecord &row = d.records.first();
        const double costUsd = row.fields.at(d.column(u"cost_usd"_s)).toDouble();
        QCOMPARE(row.fields.at(d.column(u"cost_eur"_s)).toDouble(), m_eur.fromUsd(costUsd));
        QCOMPARE(row.fields.at(d.column(u"rate_date"_s)), m_eur.date.toString(Qt::ISODate));
        // PDF, read back by pdftotext.
        if (QStandardPaths::findExecutable(u"pdftotext"_s).isEmpty())
            QSKIP("pdftotext (poppler-utils) is not installed");
        const QString pdf = m_dir.filePath(u"eur.pdf"_s);
        QCOMPARE(cli(m_db.path(), kReport + QStringList{u"--currency"_s, u"EUR"_s, u"-o"_s, pdf}).rc, 0);
        const QString text = pdfText(pdf).simplified();
        QVERIFY2(text.contains(u"Prices in EUR: 1 USD = "_s), qPrintable(text.left(800)));
        QVERIFY(text.contains(m_eur.date.toString(Qt::ISODate)));
        QVERIFY2(text.contains(cost + u" EUR"_s), qPrintable(cost));
        // The point table's headers wrap in their narrow columns ("Cost" over "(EUR)").
        QVERIFY(text.contains(u"EUR/h"_s) && text.contains(u"(EUR)"_s) && !text.contains(u"(USD)"_s));
    }
};

QTEST_MAIN(TestCliCurrency)
#include "test_clicurrency.moc"

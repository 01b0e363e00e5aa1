#include "domain/currency.h"
#include "domain/offer.h"
#include "util/format.h"

#include <QTest>

using namespace gf;

/// The money type: conversion, formatting through util/format, the shipped dated rate table, parse errors
/// that name the file, line and problem, and rate edits that refuse bad input without changing anything.
class TestCurrency final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void usdIsTheIdentity()
    {
        const Currency &usd = usdCurrency();
        QVERIFY(usd.isUsd());
        QCOMPARE(usd.unitsPerUsd, 1.0);
        // USD formatting is util/format's, byte for byte: default output never changes.
        for (double v : {0.0123, 0.5, 3.06, 42.125, 1234.5, 98765.0}) {
            QCOMPARE(formatMoney(v, usd), formatUsd(v));
            QCOMPARE(formatMoneyPerHour(v, usd), formatUsdPerHour(v));
        }
        QCOMPARE(formatMoneyPerHour(std::nullopt, usd), QStringLiteral("–"));
        QCOMPARE(formatMoneyWithUnit(12.5, usd), QStringLiteral("12.50 USD"));
        QVERIFY(usd.rateFigure().isEmpty());
    }

    void convertsAndFormats()
    {
        Currency eur;
        eur.code = QStringLiteral("EUR");
        eur.symbol = QStringLiteral("€");
        eur.unitsPerUsd = 0.9;
        eur.date = QDate(2026, 11, 1);
        eur.source = QStringLiteral("test");
        QCOMPARE(eur.fromUsd(10.0), 9.0);
        QCOMPARE(eur.toUsd(9.0), 10.0);
        QCOMPARE(formatMoney(10.0, eur), QStringLiteral("9.00"));
        QCOMPARE(formatMoney(2000.0, eur), QStringLiteral("1800"));
        QCOMPARE(formatMoneyPerHour(3.0, eur), QStringLiteral("2.700"));
        QCOMPARE(formatMoneyWithUnit(10.0, eur), QStringLiteral("9.00 EUR"));
        QCOMPARE(eur.perHourUnit(), QStringLiteral("EUR/h"));
        QCOMPARE(eur.perGpuHourUnit(), QStringLiteral("EUR/GPU-h"));
        QCOMPARE(eur.rateText(), QStringLiteral("1 USD = 0.9 EUR (rate of 2026-11-01; source: test)"));
    }

    void shippedTableIsDatedAndSourced()
    {
        const CurrencyTable &t = CurrencyTable::shipped();
        QCOMPARE(t.currencies().first().code, QStringLiteral("USD"));
        for (const char *code : {"EUR", "GBP", "JPY", "CNY", "INR", "CAD", "AUD", "CHF", "KRW", "SGD"}) {
            const auto c = t.find(QLatin1StringView(code));
            QVERIFY2(c, code);
            QVERIFY(c->unitsPerUsd > 0);
            QVERIFY(c->date.isValid());
            QVERIFY(!c->source.isEmpty());
        }
        QVERIFY(t.find(QStringLiteral("eur"))); // case-insensitive
        QVERIFY(!t.find(QStringLiteral("XYZ")));
        // Plausibility of the figures, so that a typo in the file cannot pass: a euro is worth more than
        // half a dollar and less than two; 100-200 yen to the dollar.
        QVERIFY(t.find(QStringLiteral("EUR"))->unitsPerUsd > 0.5 &&
                t.find(QStringLiteral("EUR"))->unitsPerUsd < 2);
        QVERIFY(t.find(QStringLiteral("JPY"))->unitsPerUsd > 100 &&
                t.find(QStringLiteral("JPY"))->unitsPerUsd < 200);
        // The CSV round-trips.
        auto again = CurrencyTable::parse(t.toCsv(), QStringLiteral("again.csv"));
        QVERIFY2(again.ok(), qPrintable(again.ok() ? QString() : again.error().text()));
        QVERIFY(again.value() == t);
    }

    void parseErrorsAreNamed_data()
    {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<QString>("expected");
        const QString head = QStringLiteral("code,symbol,name,units_per_usd,date,source\n");
        QTest::newRow("missing column")
            << QStringLiteral("code,symbol,name,date,source\nEUR,€,Euro,2026-11-01,x\n")
            << QStringLiteral("rates.csv: the column \"units_per_usd\" is missing");
        QTest::newRow("not a number")
            << head + QStringLiteral("EUR,€,Euro,abc,2026-11-01,x\n")
            << QStringLiteral("rates.csv, line 2: EUR: the rate \"abc\" is not a number");
        QTest::newRow("zero") << head + QStringLiteral("EUR,€,Euro,0,2026-11-01,x\n")
                              << QStringLiteral("rates.csv, line 2: EUR: the rate \"0\" is not above 0");
        QTest::newRow("negative") << head + QStringLiteral("GBP,£,Pound,-1,2026-11-01,x\n")
                                  << QStringLiteral("line 2: GBP: the rate \"-1\" is not above 0");
        QTest::newRow("bad date") << head + QStringLiteral("EUR,€,Euro,0.9,01/11/2026,x\n")
                                  << QStringLiteral("line 2: EUR: the date \"01/11/2026\" is not a date");
        QTest::newRow("bad code") << head + QStringLiteral("EURO,€,Euro,0.9,2026-11-01,x\n")
                                  << QStringLiteral("line 2: the code \"EURO\" is not three letters");
        QTest::newRow("twice") << head + QStringLiteral(
                                             "EUR,€,Euro,0.9,2026-11-01,x\nEUR,€,Euro,0.9,2026-11-01,x\n")
                               << QStringLiteral("line 3: EUR is listed twice");
        QTest::newRow("usd not 1") << head + QStringLiteral("USD,$,US dollar,2,2026-11-01,x\n")
                                   << QStringLiteral("line 2: USD is the stored unit: its rate must be 1");
    }

    void parseErrorsAreNamed()
    {
        QFETCH(QString, csv);
        QFETCH(QString, expected);
        auto t = CurrencyTable::parse(csv, QStringLiteral("rates.csv"));
        QVERIFY(!t.ok());
        QVERIFY2(t.error().message.contains(expected), qPrintable(t.error().message));
    }

    void setRateRefusesBadInput()
    {
        CurrencyTable t = CurrencyTable::shipped();
        const CurrencyTable before = t;
        QVERIFY(!t.setRate(QStringLiteral("EUR"), 0, QDate(2026, 11, 1), QString()).ok());
        QVERIFY(!t.setRate(QStringLiteral("EUR"), -2, QDate(2026, 11, 1), QString()).ok());
        QVERIFY(!t.setRate(QStringLiteral("EUR"), std::nan(""), QDate(2026, 11, 1), QString()).ok());
        QVERIFY(!t.setRate(QStringLiteral("EUR"), 0.9, QDate(), QString()).ok());
        QVERIFY(!t.setRate(QStringLiteral("USD"), 0.9, QDate(2026, 11, 1), QString()).ok());
        const Status unknown = t.setRate(QStringLiteral("XYZ"), 0.9, QDate(2026, 11, 1), QString());
        QVERIFY(!unknown.ok());
        QVERIFY(
            unknown.error().message.contains(QStringLiteral("unknown currency \"XYZ\" (known: USD, EUR")));
        QVERIFY(t == before);
        QVERIFY(t.setRate(QStringLiteral("eur"), 0.95, QDate(2026, 11, 1), QStringLiteral("me")).ok());
        QCOMPARE(t.find(QStringLiteral("EUR"))->unitsPerUsd, 0.95);
        QCOMPARE(t.find(QStringLiteral("EUR"))->date, QDate(2026, 11, 1));
        QVERIFY(parseRate(QStringLiteral(" 1384.6 ")).ok());
        QVERIFY(!parseRate(QStringLiteral("1,5")).ok());
        QVERIFY(!parseRate(QStringLiteral("inf")).ok());
    }

    void pricePerGpuHour()
    {
        Offer o;
        o.gpuCount = 8;
        o.onDemandUsdH = 32.0;
        o.spotUsdH = 12.0;
        QCOMPARE(*o.usdPerGpuHour(), 4.0); // on-demand first
        o.onDemandUsdH.reset();
        QCOMPARE(*o.usdPerGpuHour(), 1.5); // else spot
        o.spotUsdH.reset();
        QVERIFY(!o.usdPerGpuHour());
        o.onDemandUsdH = 1.0;
        o.gpuCount = 0.125; // a shared eighth of a GPU
        QCOMPARE(*o.usdPerGpuHour(), 8.0);
    }
};

QTEST_GUILESS_MAIN(TestCurrency)
#include "test_currency.moc"

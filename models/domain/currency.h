#pragma once

#include "util/result.h"

#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// A currency prices are shown in. USD is the stored unit everywhere (database, JSON data fields, CSV
/// catalog); a Currency converts a USD amount for display only: amount = usd x unitsPerUsd.
struct Currency
{
    QString code = QStringLiteral("USD"); ///< ISO 4217, upper case: "EUR"
    QString symbol = QStringLiteral("$");
    QString name = QStringLiteral("US dollar");
    double unitsPerUsd = 1.0; ///< 1 USD = unitsPerUsd of this currency
    QDate date;               ///< the day the rate is of
    QString source;           ///< where the rate comes from ("ECB reference rates ...", "edited by the user")

    bool isUsd() const { return code == u"USD"; }
    double fromUsd(double usd) const { return usd * unitsPerUsd; }
    double toUsd(double amount) const { return amount / unitsPerUsd; }
    /// "EUR/h"
    QString perHourUnit() const { return code + QStringLiteral("/h"); }
    /// "EUR/GPU-h"
    QString perGpuHourUnit() const { return code + QStringLiteral("/GPU-h"); }
    /// "1 USD = 0.9341 EUR (rate of 2024-06-28; source: ...)"; for USD: "prices in USD (the stored unit)".
    QString rateText() const;
    /// "1 USD = 0.9341 EUR" (no date, no source); "" for USD.
    QString rateFigure() const;

    bool operator==(const Currency &) const = default;
};

/// The US dollar: the stored unit, rate 1.
const Currency &usdCurrency();

/// The exchange-rate table: one Currency per code, USD first. The shipped one is
/// resources/currency/rates.csv (dated, with its source); the user may edit rates (GUI) or give another
/// file (CLI --rates).
class CurrencyTable
{
public:
    CurrencyTable();
    /// Parses the rates CSV (code,symbol,name,units_per_usd,date,source; '#' comment lines first).
    /// Errors name the file, the line and what is wrong (unknown column, bad code, rate not a positive
    /// number, bad date, duplicate code); USD is added when the file lacks it and must have rate 1.
    static Result<CurrencyTable> parse(const QString &text, const QString &fileName);
    /// The shipped table (resources/currency/rates.csv).
    static const CurrencyTable &shipped();

    const QList<Currency> &currencies() const { return m_currencies; }
    QStringList codes() const;
    /// The currency of a code (case-insensitive), nullopt when unknown.
    std::optional<Currency> find(const QString &code) const;
    /// Changes one rate. Errors (nothing changed): unknown code, USD, a rate that is not a finite
    /// positive number, an invalid date.
    Status setRate(const QString &code, double unitsPerUsd, const QDate &date, const QString &source);
    /// The table as the rates CSV (parse() reads it back to an equal table).
    QString toCsv() const;

    bool operator==(const CurrencyTable &) const = default;

private:
    QList<Currency> m_currencies;
};

/// Parses a rate typed by a person ("0.93", " 1384.6 "): a finite number > 0, else an error naming the text.
Result<double> parseRate(const QString &text);
/// The one message for an unknown currency code: names the code and the known ones.
QString unknownCurrencyMessage(const QString &code, const CurrencyTable &table);

/// Money formatting: USD amounts converted to `c` and written as util/format writes USD (the same
/// decimals), without the unit. formatMoney(12.5, usd) == formatUsd(12.5).
QString formatMoney(double usd, const Currency &c);
/// A price per hour (or per GPU-hour) converted: formatUsdPerHour's digits; "–" when missing.
QString formatMoneyPerHour(std::optional<double> usdPerHour, const Currency &c);
/// formatMoney with the code: "1,234.50 EUR".
QString formatMoneyWithUnit(double usd, const Currency &c);

} // namespace gf

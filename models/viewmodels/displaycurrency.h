#pragma once

#include "domain/currency.h"

#include <QObject>

namespace gf {

/// The GUI's display currency: the one process-wide place every page, table, chart, dialog and the
/// export read the currency prices are shown in (`DisplayCurrency::instance().current()`), and connect
/// to (`changed`) to redraw. USD stays the stored unit: the database, the projection and the JSON data
/// never change; only what is shown is converted. The choice (QSettings "view/currency") and the user's
/// rate table (QSettings "view/currencyRates", the rates CSV) are remembered; without them the shipped
/// table (resources/currency/rates.csv) and USD.
class DisplayCurrency final : public QObject
{
    Q_OBJECT
public:
    static DisplayCurrency &instance();

    /// The currency prices are shown in, with its current rate.
    const Currency &current() const { return m_current; }
    /// The rate table (shipped, or as the user edited it).
    const CurrencyTable &table() const { return m_table; }

    /// Shows prices in `code`. An unknown code is refused with a message listing the known ones.
    Status setCode(const QString &code);
    /// Replaces the rate table (the user's edits). A table without the current code switches to USD.
    void setTable(const CurrencyTable &table);
    /// Changes one rate from what a person typed: "0.93", "2026-11-01". Refused (nothing changed) with a
    /// message naming the currency and what is wrong: not a number, not above 0, not a date, USD.
    Status setRate(const QString &code, const QString &rateText, const QString &dateText);
    /// Back to the shipped rates (the chosen currency is kept).
    void resetRates();
    /// Reads the saved choice and rates again (what a new process starts with).
    void reload();

    /// The header unit of a price per hour, "EUR/h"; of a total, "EUR".
    QString perHourUnit() const { return m_current.perHourUnit(); }
    QString code() const { return m_current.code; }
    /// A tooltip line: "1 USD = 0.9341 EUR (rate of 2024-06-28; source: ...). Prices are stored in USD."
    QString rateToolTip() const;

Q_SIGNALS:
    /// The currency or its rate changed: everything that shows prices redraws.
    void changed();

private:
    DisplayCurrency();
    void save() const;
    void apply(const QString &code);

    CurrencyTable m_table;
    Currency m_current;
};

} // namespace gf

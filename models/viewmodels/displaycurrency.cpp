#include "viewmodels/displaycurrency.h"

#include <QSettings>

namespace gf {

namespace {
const QString kCodeKey = QStringLiteral("view/currency");
const QString kRatesKey = QStringLiteral("view/currencyRates");
} // namespace

DisplayCurrency &DisplayCurrency::instance()
{
    static DisplayCurrency *self = new DisplayCurrency; // lives as long as the process
    return *self;
}

DisplayCurrency::DisplayCurrency()
{
    reload();
}

void DisplayCurrency::reload()
{
    QSettings s;
    m_table = CurrencyTable::shipped();
    if (const QString saved = s.value(kRatesKey).toString(); !saved.isEmpty()) {
        // A saved table that no longer reads (edited by hand) is ignored: the shipped rates apply.
        if (auto t = CurrencyTable::parse(saved, QStringLiteral("settings view/currencyRates")))
            m_table = t.value();
    }
    apply(s.value(kCodeKey, QStringLiteral("USD")).toString());
    Q_EMIT changed();
}

void DisplayCurrency::apply(const QString &code)
{
    m_current = m_table.find(code).value_or(usdCurrency());
}

void DisplayCurrency::save() const
{
    QSettings s;
    s.setValue(kCodeKey, m_current.code);
    if (m_table == CurrencyTable::shipped())
        s.remove(kRatesKey);
    else
        s.setValue(kRatesKey, m_table.toCsv());
}

Status DisplayCurrency::setCode(const QString &code)
{
    if (!m_table.find(code))
        return makeError(unknownCurrencyMessage(code, m_table));
    if (m_current.code == code.trimmed().toUpper())
        return Ok{};
    apply(code);
    save();
    Q_EMIT changed();
    return Ok{};
}

void DisplayCurrency::setTable(const CurrencyTable &table)
{
    if (table == m_table)
        return;
    m_table = table;
    apply(m_current.code);
    save();
    Q_EMIT changed();
}

Status DisplayCurrency::setRate(const QString &code, const QString &rateText, const QString &dateText)
{
    const QString upper = code.trimmed().toUpper();
    auto rate = parseRate(rateText);
    if (!rate)
        return makeError(QStringLiteral("%1: %2").arg(upper, rate.error().message));
    const QDate date = QDate::fromString(dateText.trimmed(), Qt::ISODate);
    if (!date.isValid())
        return makeError(
            QStringLiteral("%1: the date \"%2\" is not a date (YYYY-MM-DD)").arg(upper, dateText.trimmed()));
    const auto before = m_table.find(upper);
    if (before && before->unitsPerUsd == rate.value() && before->date == date)
        return Ok{};
    CurrencyTable t = m_table;
    if (auto st = t.setRate(upper, rate.value(), date, QStringLiteral("edited by the user")); !st)
        return st;
    setTable(t);
    return Ok{};
}

void DisplayCurrency::resetRates()
{
    setTable(CurrencyTable::shipped());
}

QString DisplayCurrency::rateToolTip() const
{
    if (m_current.isUsd())
        return QStringLiteral(
            "Prices in USD, the unit they are stored in (View > Currency to show another).");
    return m_current.rateText() + QStringLiteral(". Prices are stored in USD and converted for display.");
}

} // namespace gf

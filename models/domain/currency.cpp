#include "domain/currency.h"

#include "util/csv.h"
#include "util/format.h"
#include "util/resourcefiles.h"

#include <QRegularExpression>

#include <cmath>

namespace gf {

namespace {
const QStringList &rateColumns()
{
    static const QStringList columns{QStringLiteral("code"), QStringLiteral("symbol"),
                                     QStringLiteral("name"), QStringLiteral("units_per_usd"),
                                     QStringLiteral("date"), QStringLiteral("source")};
    return columns;
}

QString rateNumber(double v)
{
    // Enough digits for a rate as banks quote it (0.9341, 160.62, 1384.6), never exponent notation.
    return QString::number(v, 'g', 8);
}
} // namespace

QString Currency::rateFigure() const
{
    if (isUsd())
        return {};
    return QStringLiteral("1 USD = %1 %2").arg(rateNumber(unitsPerUsd), code);
}

QString Currency::rateText() const
{
    if (isUsd())
        return QStringLiteral("prices in USD (the stored unit)");
    QString t =
        rateFigure() + QStringLiteral(" (rate of %1")
                           .arg(date.isValid() ? date.toString(Qt::ISODate) : QStringLiteral("unknown date"));
    if (!source.isEmpty())
        t += QStringLiteral("; source: ") + source;
    return t + u')';
}

const Currency &usdCurrency()
{
    static const Currency usd;
    return usd;
}

CurrencyTable::CurrencyTable() : m_currencies{usdCurrency()} {}

Result<double> parseRate(const QString &text)
{
    bool ok = false;
    const double v = text.trimmed().toDouble(&ok);
    if (!ok || !std::isfinite(v))
        return makeError(QStringLiteral("the rate \"%1\" is not a number").arg(text.trimmed()));
    if (v <= 0)
        return makeError(QStringLiteral("the rate \"%1\" is not above 0").arg(text.trimmed()));
    return v;
}

Result<CurrencyTable> CurrencyTable::parse(const QString &text, const QString &fileName)
{
    auto doc = parseCsv(text);
    if (!doc)
        return doc.error().prefixed(fileName + QStringLiteral(": "));
    const CsvDocument &d = doc.value();
    QList<int> col;
    for (const QString &name : rateColumns()) {
        col.append(d.column(name));
        if (col.last() < 0)
            return makeError(QStringLiteral("%1: the column \"%2\" is missing (columns: %3)")
                                 .arg(fileName, name, rateColumns().join(QStringLiteral(","))));
    }
    static const QRegularExpression codeRe(QStringLiteral("^[A-Z]{3}$"));
    CurrencyTable t;
    t.m_currencies.clear();
    for (const CsvRecord &rec : d.records) {
        const auto field = [&](int i) { return rec.fields.value(col.at(i)).trimmed(); };
        const auto fail = [&](const QString &what) {
            return makeError(QStringLiteral("%1, line %2: %3").arg(fileName).arg(rec.line).arg(what));
        };
        Currency c;
        c.code = field(0).toUpper();
        if (!codeRe.match(c.code).hasMatch())
            return fail(
                QStringLiteral("the code \"%1\" is not three letters (ISO 4217, e.g. EUR)").arg(field(0)));
        for (const Currency &seen : std::as_const(t.m_currencies))
            if (seen.code == c.code)
                return fail(QStringLiteral("%1 is listed twice").arg(c.code));
        c.symbol = field(1).isEmpty() ? c.code : field(1);
        c.name = field(2).isEmpty() ? c.code : field(2);
        auto rate = parseRate(field(3));
        if (!rate)
            return fail(QStringLiteral("%1: %2").arg(c.code, rate.error().message));
        c.unitsPerUsd = rate.value();
        c.date = QDate::fromString(field(4), Qt::ISODate);
        if (!c.date.isValid())
            return fail(
                QStringLiteral("%1: the date \"%2\" is not a date (YYYY-MM-DD)").arg(c.code, field(4)));
        c.source = field(5);
        if (c.isUsd() && c.unitsPerUsd != 1.0)
            return fail(QStringLiteral("USD is the stored unit: its rate must be 1, not %1").arg(field(3)));
        if (c.isUsd())
            t.m_currencies.prepend(c);
        else
            t.m_currencies.append(c);
    }
    if (t.m_currencies.isEmpty() || !t.m_currencies.first().isUsd())
        t.m_currencies.prepend(usdCurrency());
    return t;
}

const CurrencyTable &CurrencyTable::shipped()
{
    static const CurrencyTable table = [] {
        const QString path = QStringLiteral("currency/rates.csv");
        auto t = parse(readResourceText(path), QStringLiteral("resources/") + path);
        Q_ASSERT_X(t.ok(), "CurrencyTable::shipped", qPrintable(t.ok() ? QString() : t.error().text()));
        return t.valueOr(CurrencyTable());
    }();
    return table;
}

QStringList CurrencyTable::codes() const
{
    QStringList out;
    for (const Currency &c : m_currencies)
        out.append(c.code);
    return out;
}

std::optional<Currency> CurrencyTable::find(const QString &code) const
{
    const QString upper = code.trimmed().toUpper();
    for (const Currency &c : m_currencies)
        if (c.code == upper)
            return c;
    return std::nullopt;
}

Status CurrencyTable::setRate(const QString &code, double unitsPerUsd, const QDate &date,
                              const QString &source)
{
    const QString upper = code.trimmed().toUpper();
    if (upper == u"USD")
        return makeError(QStringLiteral("USD is the stored unit: its rate is always 1"));
    if (!std::isfinite(unitsPerUsd) || unitsPerUsd <= 0)
        return makeError(QStringLiteral("the rate of %1 must be a number above 0, not %2")
                             .arg(upper, QString::number(unitsPerUsd)));
    if (!date.isValid())
        return makeError(QStringLiteral("the date of the %1 rate is not a valid date").arg(upper));
    for (Currency &c : m_currencies)
        if (c.code == upper) {
            c.unitsPerUsd = unitsPerUsd;
            c.date = date;
            c.source = source;
            return Ok{};
        }
    return makeError(unknownCurrencyMessage(code, *this));
}

QString CurrencyTable::toCsv() const
{
    QString out = rateColumns().join(u',') + u'\n';
    for (const Currency &c : m_currencies)
        out += QStringList{csvQuote(c.code),          csvQuote(c.symbol),           csvQuote(c.name),
                           rateNumber(c.unitsPerUsd), c.date.toString(Qt::ISODate), csvQuote(c.source)}
                   .join(u',') +
               u'\n';
    return out;
}

QString unknownCurrencyMessage(const QString &code, const CurrencyTable &table)
{
    return QStringLiteral("unknown currency \"%1\" (known: %2)")
        .arg(code, table.codes().join(QStringLiteral(", ")));
}

QString formatMoney(double usd, const Currency &c)
{
    return formatUsd(c.fromUsd(usd));
}

QString formatMoneyPerHour(std::optional<double> usdPerHour, const Currency &c)
{
    return formatUsdPerHour(usdPerHour ? std::optional<double>(c.fromUsd(*usdPerHour)) : std::nullopt);
}

QString formatMoneyWithUnit(double usd, const Currency &c)
{
    return formatMoney(usd, c) + u' ' + c.code;
}

} // namespace gf

#include "cli_currency.h"

#include "cli.h"
#include "util/bufferedoutput.h"

#include <QFile>

namespace gf {

void addCurrencyOptions(CliOptions &options)
{
    options.addValue(QStringLiteral("currency"), QStringLiteral("CODE"),
                     QStringLiteral("show prices in this currency (default USD, the stored unit; "
                                    "`gpufrontier-cli currencies` lists the rates)"));
    options.addValue(QStringLiteral("rates"), QStringLiteral("FILE"),
                     QStringLiteral("exchange rates to convert with (CSV as resources/currency/rates.csv) "
                                    "instead of the shipped ones"));
}

Result<CurrencyTable> currencyTableFromArgs(const CliArgs &args)
{
    if (!args.isSet(QStringLiteral("rates")))
        return CurrencyTable::shipped();
    const QString path = args.value(QStringLiteral("rates"));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return cliUsageError(QStringLiteral("--rates: cannot read %1 (%2)").arg(path, f.errorString()));
    auto table = CurrencyTable::parse(QString::fromUtf8(f.readAll()), path);
    if (!table)
        return cliUsageError(QStringLiteral("--rates: ") + table.error().message);
    return table;
}

Result<Currency> currencyFromArgs(const CliArgs &args)
{
    auto table = currencyTableFromArgs(args);
    if (!table)
        return table.error();
    if (!args.isSet(QStringLiteral("currency")))
        return usdCurrency();
    const QString code = args.value(QStringLiteral("currency"));
    const auto c = table.value().find(code);
    if (!c)
        return cliUsageError(QStringLiteral("--currency: ") + unknownCurrencyMessage(code, table.value()));
    return *c;
}

QString currencyLine(const Currency &currency)
{
    if (currency.isUsd())
        return {};
    return QStringLiteral("Prices in %1: %2; stored in USD.\n").arg(currency.code, currency.rateText());
}

namespace {

CliOptions currenciesOptions()
{
    CliOptions o;
    o.addValue(QStringLiteral("rates"), QStringLiteral("FILE"),
               QStringLiteral("list the rates of this file (CSV as resources/currency/rates.csv) instead"));
    o.addValue(
        QStringLiteral("format"), QStringLiteral("FMT"),
        QStringLiteral("table (default) or csv (the rates file's format, to edit and pass to --rates)"));
    return o;
}

class CurrenciesCommand final : public CliCommand
{
public:
    CurrenciesCommand()
        : CliCommand(
              {.name = QStringLiteral("currencies"),
               .summary = QStringLiteral("List the exchange rates --currency converts prices with"),
               .description = QStringLiteral(
                   "Lists the currencies prices can be shown in, with the rate (units per USD), the\n"
                   "day it is of and its source. Prices are stored in USD; --currency CODE on offers,\n"
                   "frontier, report and history converts what they show. The shipped rates are\n"
                   "dated and approximate: edit a copy (--format csv) and pass it with --rates FILE.")},
              currenciesOptions())
    {
    }

private:
    int run(CliContext &ctx, const CliArgs &args) const override
    {
        auto table = currencyTableFromArgs(args);
        if (!table)
            return fail(ctx, table.error());
        const auto format =
            formatFromArgs(ctx, name(), args, {QStringLiteral("table"), QStringLiteral("csv")});
        if (!format)
            return ExitUsage;
        const QList<Currency> &list = table.value().currencies();
        return writeStreamed(ctx, name(), [&](BufferedOutput &out) {
            if (*format == u"csv") {
                out.appendText(table.value().toCsv());
                return;
            }
            writeTable(out,
                       {QStringLiteral("Code"), QStringLiteral("Symbol"), QStringLiteral("Name"),
                        QStringLiteral("Per USD"), QStringLiteral("Date"), QStringLiteral("Source")},
                       list.size(),
                       [&](qsizetype r) {
                           const Currency &c = list.at(r);
                           return QStringList{c.code,
                                              c.symbol,
                                              c.name,
                                              QString::number(c.unitsPerUsd, 'g', 8),
                                              c.date.toString(Qt::ISODate),
                                              c.source};
                       },
                       {false, false, false, true, false, false});
        });
    }
};

} // namespace

std::unique_ptr<CliCommand> makeCurrenciesCommand()
{
    return std::make_unique<CurrenciesCommand>();
}

Result<Currency> currencyForFormat(const CliArgs &args, const QString &format, const QString &textFormat)
{
    auto currency = currencyFromArgs(args);
    if (currency && !currency.value().isUsd() && format != textFormat)
        return cliUsageError(
            QStringLiteral("--currency applies to the %1; --format %2 lists the stored USD prices")
                .arg(textFormat, format));
    return currency;
}

} // namespace gf

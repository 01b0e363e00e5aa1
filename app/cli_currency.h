#pragma once

// The display currency of the commands that print prices: --currency CODE and --rates FILE.

#include "clicommand.h"
#include "domain/currency.h"

namespace gf {

/// Adds --currency CODE and --rates FILE to a command's options.
void addCurrencyOptions(CliOptions &options);
/// The currency the arguments ask for: USD when --currency is not given; rates from --rates FILE or the
/// shipped table. A usage error names an unknown code and lists the known ones, or what is wrong in FILE.
Result<Currency> currencyFromArgs(const CliArgs &args);
/// The same for a command whose `textFormat` ("table", "text") shows prices and whose other formats list the
/// stored USD figures: another currency with another --format is a usage error that says so.
Result<Currency> currencyForFormat(const CliArgs &args, const QString &format, const QString &textFormat);
/// The rate table of --rates FILE, else the shipped one.
Result<CurrencyTable> currencyTableFromArgs(const CliArgs &args);
/// "Prices in EUR: 1 USD = 0.9341 EUR (rate of ...; source: ...); stored in USD.\n"; empty for USD (the
/// output stays as it always was).
QString currencyLine(const Currency &currency);

} // namespace gf

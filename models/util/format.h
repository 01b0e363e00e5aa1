#pragma once

#include <QString>

#include <optional>

namespace gf {

/// Formatting shared by the CLI, the GUI and the reports: every number carries its unit.
QString formatUsdPerHour(std::optional<double> usdPerHour); ///< "3.0600 USD/h" style without the unit: "3.06"
QString formatUsd(double usd);                              ///< "1,234.50"
QString formatNumber(std::optional<double> v, int decimals = 0);
QString formatHours(double hours); ///< "12.3 h", "45 min", "3.2 d"
/// Always in hours, for a table column that sorts by time: "0.75 h", "12.3 h", "796 h".
QString formatHoursColumn(double hours);
QString formatAgeDays(qint64 days); ///< "today", "3 days", "14 months"

} // namespace gf

#pragma once

#include <string>

namespace gf {

/// Appends the UTF-8 bytes of QString::number(v, 'g', precision) (precision 1-17) to `out`, without
/// Qt's conversions and allocations: std::to_chars, except where its rounding may differ from Qt's (a
/// value that may sit exactly halfway between two results: Qt rounds it away from zero, to_chars to
/// even) and for infinities and NaN, which are left to Qt.
void appendNumberG(std::string &out, double v, int precision);

} // namespace gf

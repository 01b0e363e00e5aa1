#include "util/numbertext.h"

#include <QString>

#include <charconv>
#include <cmath>
#include <system_error>

namespace gf {

void appendNumberG(std::string &out, double v, int precision)
{
    if (v == 0) { // Qt writes -0 as 0
        out += '0';
        return;
    }
    if (std::isfinite(v) && precision >= 1 && precision <= 17) {
        // The first precision + 1 significant digits, rounded: a digit 5 after the kept ones may be an
        // exact half, which Qt rounds differently; any other digit decides the rounding as the exact value.
        char digits[40];
        const auto sci = std::to_chars(digits, digits + sizeof digits, std::abs(v),
                                       std::chars_format::scientific, precision);
        // "d.ddd...e+XX": the digit after the kept ones is at 1 + precision (the point after the first).
        if (sci.ec == std::errc() && digits[precision + 1] != '5') {
            char text[40];
            const auto g = std::to_chars(text, text + sizeof text, v, std::chars_format::general, precision);
            if (g.ec == std::errc()) {
                out.append(text, g.ptr);
                return;
            }
        }
    }
    out += QString::number(v, 'g', precision).toStdString();
}

} // namespace gf

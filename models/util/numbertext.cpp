#include "util/numbertext.h"

#include <QString>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace gf {

namespace {

/// The fast path of appendNumberG for a normal v (not 0, not subnormal: its ulp is then at most 2^-52 of
/// it), precision at most 15: the shortest digits that read back as v (to_chars
/// without a precision, several times faster than with one). When there are at most `precision` of them,
/// they are what rounding v to `precision` (at most 15) digits gives: v lies within half an ulp of them,
/// less than half a unit of the 15th digit, so it is not halfway either (where Qt's rounding and the C++
/// library's differ). Only %g's layout is left: fixed from 1e-4 up to below 10^precision, else scientific, no
/// trailing zeros. False (nothing appended) when there are more digits.
bool appendShortest(std::string &out, double v, int precision)
{
    char sci[40];
    const auto r = std::to_chars(sci, sci + sizeof sci, std::abs(v), std::chars_format::scientific);
    if (r.ec != std::errc())
        return false;
    // "d[.ddd]e±XX"
    const char *e = std::find(sci, r.ptr, 'e');
    if (e == r.ptr)
        return false;
    char digits[20];
    int count = 0;
    for (const char *c = sci; c < e; ++c)
        if (*c != '.') {
            if (count == static_cast<int>(sizeof digits))
                return false;
            digits[count++] = *c;
        }
    if (count > precision)
        return false;
    int exponent = 0;
    if (std::from_chars(e + 2, r.ptr, exponent).ec != std::errc())
        return false;
    if (e[1] == '-')
        exponent = -exponent;
    if (v < 0)
        out += '-';
    if (exponent < -4 || exponent >= precision) { // scientific: as to_chars wrote it
        out.append(sci, r.ptr);
    } else if (exponent >= 0) { // digits, the point after exponent + 1 of them (zeros up to it)
        for (int i = 0; i <= exponent; ++i)
            out += i < count ? digits[i] : '0';
        if (count > exponent + 1) {
            out += '.';
            out.append(digits + exponent + 1, digits + count);
        }
    } else { // 0.000ddd
        out += "0.";
        out.append(static_cast<std::size_t>(-exponent - 1), '0');
        out.append(digits, digits + count);
    }
    return true;
}

} // namespace

void appendNumberG(std::string &out, double v, int precision)
{
    if (v == 0) { // Qt writes -0 as 0
        out += '0';
        return;
    }
    if (std::isnormal(v) && precision >= 1 && precision <= 15 && appendShortest(out, v, precision))
        return;
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

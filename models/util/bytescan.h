#pragma once

// Byte scans of the ingest path (JSON tokenizer, UTF-8 check), 16 bytes at a time with SSE2 where the
// compiler targets it (every x86-64 processor has it: no run-time check and no -march needed), else a
// byte loop. Each returns what the byte loop would: the first match or `end`.

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gf::bytescan {

#if defined(__SSE2__)
namespace detail {

inline __m128i load(const char *p)
{
    return _mm_loadu_si128(reinterpret_cast<const __m128i *>(p));
}

inline __m128i eq(__m128i v, char c)
{
    return _mm_cmpeq_epi8(v, _mm_set1_epi8(c));
}

/// The first set bit of a non-zero movemask: the index of the first match in the block.
inline int firstBit(int mask)
{
    return __builtin_ctz(static_cast<unsigned>(mask));
}

} // namespace detail
#endif

/// The first '"' or '\\' in [p, end).
inline const char *findQuoteOrBackslash(const char *p, const char *end)
{
#if defined(__SSE2__)
    using namespace detail;
    for (; end - p >= 16; p += 16) {
        const __m128i v = load(p);
        if (const int m = _mm_movemask_epi8(_mm_or_si128(eq(v, '"'), eq(v, '\\'))))
            return p + firstBit(m);
    }
#endif
    while (p < end && *p != '"' && *p != '\\')
        ++p;
    return p;
}

/// The first byte that ends a JSON string's plain run: '"', '\\' or a control character (< 0x20).
inline const char *findStringStop(const char *p, const char *end)
{
#if defined(__SSE2__)
    using namespace detail;
    const __m128i controlMax = _mm_set1_epi8(0x1F);
    for (; end - p >= 16; p += 16) {
        const __m128i v = load(p);
        const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, controlMax), v); // v <= 0x1F, unsigned
        if (const int m = _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(eq(v, '"'), eq(v, '\\')), control)))
            return p + firstBit(m);
    }
#endif
    while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20)
        ++p;
    return p;
}

/// The first of '"', '{', '}', '[', ']': what matters while skipping a value outside strings.
inline const char *findStructural(const char *p, const char *end)
{
#if defined(__SSE2__)
    using namespace detail;
    for (; end - p >= 16; p += 16) {
        const __m128i v = load(p);
        // Setting bit 5 turns '[' (0x5B) into '{' (0x7B) and ']' (0x5D) into '}' (0x7D), and no other
        // byte into either.
        const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
        const __m128i any = _mm_or_si128(eq(v, '"'), _mm_or_si128(eq(folded, '{'), eq(folded, '}')));
        if (const int m = _mm_movemask_epi8(any))
            return p + firstBit(m);
    }
#endif
    for (; p < end; ++p) {
        const char c = *p;
        if (c == '"' || c == '{' || c == '}' || c == '[' || c == ']')
            return p;
    }
    return p;
}

/// The first byte >= 0x80 (not ASCII).
inline const char *skipAscii(const char *p, const char *end)
{
#if defined(__SSE2__)
    using namespace detail;
    for (; end - p >= 16; p += 16)
        if (const int m = _mm_movemask_epi8(load(p)))
            return p + firstBit(m);
#endif
    while (p < end && static_cast<unsigned char>(*p) < 0x80)
        ++p;
    return p;
}

/// How many bytes of [p, end) equal `c`.
inline std::uint64_t count(const char *p, const char *end, char c)
{
    std::uint64_t n = 0;
#if defined(__SSE2__)
    using namespace detail;
    const __m128i zero = _mm_setzero_si128();
    while (end - p >= 16) {
        // Byte counters (each match subtracts -1) summed before they can reach 255.
        __m128i acc = zero;
        for (int i = 0; i < 255 && end - p >= 16; ++i, p += 16)
            acc = _mm_sub_epi8(acc, eq(load(p), c));
        const __m128i sums = _mm_sad_epu8(acc, zero);
        n += static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
             static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
    }
#endif
    for (; p < end; ++p)
        n += *p == c ? 1 : 0;
    return n;
}

} // namespace gf::bytescan

#pragma once

// Byte scans of the ingest path (JSON tokenizer, UTF-8 check), 16 bytes at a time with SSE2 where the
// compiler targets it (every x86-64 processor has it: no run-time check and no -march needed), else a
// byte loop. Each returns what the byte loop would: the first match or `end`.

#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
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
    // 64 bytes per test while they are all ASCII (text such as the price lists is), then 16.
    for (; end - p >= 64; p += 64)
        if (_mm_movemask_epi8(
                _mm_or_si128(_mm_or_si128(load(p), load(p + 16)), _mm_or_si128(load(p + 32), load(p + 48)))))
            break;
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
    const auto total = [&](__m128i acc) {
        const __m128i sums = _mm_sad_epu8(acc, zero);
        return static_cast<std::uint64_t>(_mm_cvtsi128_si32(sums)) +
               static_cast<std::uint64_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(sums, sums)));
    };
    while (end - p >= 64) {
        // 64 bytes a round, four matches at most per byte counter: summed before they can reach 255.
        __m128i acc = zero;
        for (int i = 0; i < 63 && end - p >= 64; ++i, p += 64) {
            acc = _mm_sub_epi8(acc, eq(load(p), c));
            acc = _mm_sub_epi8(acc, eq(load(p + 16), c));
            acc = _mm_sub_epi8(acc, eq(load(p + 32), c));
            acc = _mm_sub_epi8(acc, eq(load(p + 48), c));
        }
        n += total(acc);
    }
    while (end - p >= 16) {
        // Byte counters (each match subtracts -1) summed before they can reach 255.
        __m128i acc = zero;
        for (int i = 0; i < 255 && end - p >= 16; ++i, p += 16)
            acc = _mm_sub_epi8(acc, eq(load(p), c));
        n += total(acc);
    }
#endif
    for (; p < end; ++p)
        n += *p == c ? 1 : 0;
    return n;
}

/// The masks of one 64-byte block, bit i for byte i: quotes and brackets ('{', '}', '[', ']'); and
/// whether it holds a backslash.
struct BlockMasks
{
    std::uint64_t quote = 0;
    std::uint64_t bracket = 0;
    bool backslash = false;
};

/// The masks of the 64 bytes at p (all 64 must be readable).
inline BlockMasks blockMasks(const char *p)
{
    BlockMasks m;
#if defined(__SSE2__)
    using namespace detail;
    __m128i backslash = _mm_setzero_si128();
    for (int k = 0; k < 4; ++k) {
        const __m128i v = load(p + 16 * k);
        // Setting bit 5 turns '[' into '{' and ']' into '}', and no other byte into either.
        const __m128i folded = _mm_or_si128(v, _mm_set1_epi8(0x20));
        const auto bits = [](__m128i x) {
            return static_cast<std::uint64_t>(static_cast<unsigned>(_mm_movemask_epi8(x)) & 0xFFFFu);
        };
        const int shift = 16 * k;
        m.quote |= bits(eq(v, '"')) << shift;
        m.bracket |= bits(_mm_or_si128(eq(folded, '{'), eq(folded, '}'))) << shift;
        backslash = _mm_or_si128(backslash, eq(v, '\\'));
    }
    m.backslash = _mm_movemask_epi8(backslash) != 0;
#else
    for (int i = 0; i < 64; ++i) {
        const char c = p[i];
        const std::uint64_t bit = std::uint64_t{1} << i;
        m.quote |= c == '"' ? bit : 0;
        m.bracket |= c == '{' || c == '[' || c == '}' || c == ']' ? bit : 0;
        m.backslash = m.backslash || c == '\\';
    }
#endif
    return m;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define GF_BYTESCAN_AVX2 1
/// blockMasks with AVX2 (32 bytes per compare), compiled for AVX2 whatever the build targets: call it
/// only where haveAvx2() is true.
__attribute__((target("avx2"))) inline BlockMasks blockMasksAvx2(const char *p)
{
    const __m256i quote = _mm256_set1_epi8('"');
    const __m256i backslash = _mm256_set1_epi8('\\');
    const __m256i open = _mm256_set1_epi8('{');
    const __m256i close = _mm256_set1_epi8('}');
    const __m256i bit5 = _mm256_set1_epi8(0x20);
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(p + 32));
    const __m256i flo = _mm256_or_si256(lo, bit5); // '[' -> '{', ']' -> '}', no other byte to either
    const __m256i fhi = _mm256_or_si256(hi, bit5);
    BlockMasks m;
    // movemask gives 32 bits as a signed int: through uint32_t so that the upper half stays clear.
    const auto lowQuote = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(lo, quote)));
    const auto highQuote = static_cast<std::uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(hi, quote)));
    const auto lowBracket = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(flo, open), _mm256_cmpeq_epi8(flo, close))));
    const auto highBracket = static_cast<std::uint32_t>(
        _mm256_movemask_epi8(_mm256_or_si256(_mm256_cmpeq_epi8(fhi, open), _mm256_cmpeq_epi8(fhi, close))));
    m.quote = lowQuote | static_cast<std::uint64_t>(highQuote) << 32;
    m.bracket = lowBracket | static_cast<std::uint64_t>(highBracket) << 32;
    m.backslash = !_mm256_testz_si256(
        _mm256_or_si256(_mm256_cmpeq_epi8(lo, backslash), _mm256_cmpeq_epi8(hi, backslash)),
        _mm256_set1_epi8(-1));
    return m;
}

/// Whether the processor runs AVX2 (asked once).
inline bool haveAvx2()
{
    static const bool yes = (__builtin_cpu_init(), __builtin_cpu_supports("avx2") != 0);
    return yes;
}
#endif

/// The first byte of [p, end) that is not JSON whitespace (space, tab, line feed, carriage return), or
/// `end`.
inline const char *firstNonSpace(const char *p, const char *end)
{
#if defined(__SSE2__)
    using namespace detail;
    for (; end - p >= 16; p += 16) {
        const __m128i v = load(p);
        const __m128i space =
            _mm_or_si128(_mm_or_si128(eq(v, ' '), eq(v, '\n')), _mm_or_si128(eq(v, '\r'), eq(v, '\t')));
        if (const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFFu)
            return p + firstBit(static_cast<int>(other));
    }
#endif
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
        ++p;
    return p;
}

/// The last byte of [begin, at) that is not JSON whitespace (space, tab, line feed, carriage return), or
/// nullptr when there is none.
inline const char *lastNonSpace(const char *begin, const char *at)
{
#if defined(__SSE2__)
    using namespace detail;
    for (; at - begin >= 16; at -= 16) {
        const __m128i v = load(at - 16);
        const __m128i space =
            _mm_or_si128(_mm_or_si128(eq(v, ' '), eq(v, '\n')), _mm_or_si128(eq(v, '\r'), eq(v, '\t')));
        if (const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(space)) & 0xFFFFu)
            return at - 16 + (31 - __builtin_clz(other));
    }
#endif
    while (at > begin) {
        const char c = *--at;
        if (c != ' ' && c != '\n' && c != '\r' && c != '\t')
            return at;
    }
    return nullptr;
}

/// Bit i = the XOR of bits 0..i of x: with x the quotes of a block free of escapes, the bytes from each
/// opening quote up to (not including) its closing quote.
inline std::uint64_t prefixXor(std::uint64_t x)
{
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    return x;
}

} // namespace gf::bytescan

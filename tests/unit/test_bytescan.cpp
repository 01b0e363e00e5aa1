// util/bytescan.h: each 16-byte scan returns exactly what its byte loop returns, for every byte value
// at every position and alignment, and at the ends of the range; the UTF-8 check built on it keeps its
// verdicts and error offsets across every split of the input.
#include "util/bytescan.h"
#include "util/printable.h"

#include <QByteArray>
#include <QRandomGenerator>
#include <QTest>

#include <string>

using namespace gf;

namespace {

const char *slowQuoteOrBackslash(const char *p, const char *end)
{
    while (p < end && *p != '"' && *p != '\\')
        ++p;
    return p;
}

const char *slowStringStop(const char *p, const char *end)
{
    while (p < end && *p != '"' && *p != '\\' && static_cast<unsigned char>(*p) >= 0x20)
        ++p;
    return p;
}

const char *slowAscii(const char *p, const char *end)
{
    while (p < end && static_cast<unsigned char>(*p) < 0x80)
        ++p;
    return p;
}

/// Slow reference of the structural scan without strchr's treatment of NUL.
const char *slowStructuralExact(const char *p, const char *end)
{
    for (; p < end; ++p)
        if (*p == '"' || *p == '{' || *p == '}' || *p == '[' || *p == ']')
            return p;
    return p;
}

bool jsonSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

const char *slowFirstNonSpace(const char *p, const char *end)
{
    while (p < end && jsonSpace(*p))
        ++p;
    return p;
}

const char *slowLastNonSpace(const char *begin, const char *at)
{
    for (const char *q = at; q > begin; --q)
        if (!jsonSpace(q[-1]))
            return q - 1;
    return nullptr;
}

/// blockMasks and prefixXor against a byte loop over the same 64 bytes.
void checkBlock(const char *p, bool inString)
{
    std::uint64_t quote = 0, bracket = 0, strings = 0;
    bool backslash = false, in = inString;
    for (int i = 0; i < 64; ++i) {
        const char c = p[i];
        const std::uint64_t bit = std::uint64_t{1} << i;
        if (c == '"') {
            quote |= bit;
            in = !in;
        }
        // Inside a string: from its opening quote up to (not including) the closing one.
        strings |= in ? bit : 0;
        bracket |= c == '{' || c == '}' || c == '[' || c == ']' ? bit : 0;
        backslash = backslash || c == '\\';
    }
    const bytescan::BlockMasks m = bytescan::blockMasks(p);
    QCOMPARE(m.quote, quote);
    QCOMPARE(m.bracket, bracket);
    QCOMPARE(m.backslash, backslash);
#if defined(GF_BYTESCAN_AVX2)
    if (bytescan::haveAvx2()) {
        const bytescan::BlockMasks wide = bytescan::blockMasksAvx2(p);
        QCOMPARE(wide.quote, quote);
        QCOMPARE(wide.bracket, bracket);
        QCOMPARE(wide.backslash, backslash);
    }
#endif
    QCOMPARE(bytescan::prefixXor(m.quote) ^ (inString ? ~std::uint64_t{0} : std::uint64_t{0}), strings);
}

} // namespace

class TestByteScan final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One byte value planted at every position of a 0-70 byte buffer of filler, at 16 alignments.
    void everyByteEveryPosition()
    {
        std::string storage(128, 'a');
        for (int value = 0; value < 256; ++value) {
            for (int align = 0; align < 16; ++align) {
                for (int len = 0; len <= 70; len += 7) {
                    for (int at = 0; at < len; ++at) {
                        std::string s(static_cast<std::size_t>(len), 'a');
                        s[static_cast<std::size_t>(at)] = static_cast<char>(value);
                        storage.assign(static_cast<std::size_t>(align), 'a');
                        storage += s;
                        const char *b = storage.data() + align, *e = b + len;
                        QCOMPARE(bytescan::findQuoteOrBackslash(b, e), slowQuoteOrBackslash(b, e));
                        QCOMPARE(bytescan::findStringStop(b, e), slowStringStop(b, e));
                        QCOMPARE(bytescan::findStructural(b, e), slowStructuralExact(b, e));
                        QCOMPARE(bytescan::skipAscii(b, e), slowAscii(b, e));
                        QCOMPARE(bytescan::firstNonSpace(b, e), slowFirstNonSpace(b, e));
                        QCOMPARE(bytescan::lastNonSpace(b, e), slowLastNonSpace(b, e));
                        std::string spaces(static_cast<std::size_t>(len), ' ');
                        spaces[static_cast<std::size_t>(at)] = static_cast<char>(value);
                        const char *sb = spaces.data(), *se = sb + spaces.size();
                        QCOMPARE(bytescan::firstNonSpace(sb, se), slowFirstNonSpace(sb, se));
                        QCOMPARE(bytescan::lastNonSpace(sb, se), slowLastNonSpace(sb, se));
                        QCOMPARE(bytescan::count(b, e, static_cast<char>(value)),
                                 static_cast<std::uint64_t>(value == 'a' ? len : 1));
                    }
                }
            }
        }
    }

    // Long random buffers (the byte counters of count() wrap every 255 blocks).
    void randomBuffers()
    {
        QRandomGenerator rng(20261126);
        for (int round = 0; round < 40; ++round) {
            const int len = round < 20 ? rng.bounded(1, 200) : rng.bounded(4000, 20000);
            std::string s(static_cast<std::size_t>(len), '\0');
            const int alphabet = round % 2 ? 256 : 8; // dense matches or sparse ones
            for (char &c : s)
                c = alphabet == 256
                        ? static_cast<char>(rng.bounded(256))
                        : "a \n\"x{]\\"[rng.bounded(alphabet)]; // sparse: spaces, quotes, brackets
            const char *b = s.data(), *e = b + s.size();
            std::uint64_t newlines = 0;
            for (char c : s)
                newlines += c == '\n';
            QCOMPARE(bytescan::count(b, e, '\n'), newlines);
            for (const char *p = b; p < e; p += rng.bounded(1, 40)) {
                QCOMPARE(bytescan::findQuoteOrBackslash(p, e), slowQuoteOrBackslash(p, e));
                QCOMPARE(bytescan::findStringStop(p, e), slowStringStop(p, e));
                QCOMPARE(bytescan::findStructural(p, e), slowStructuralExact(p, e));
                QCOMPARE(bytescan::skipAscii(p, e), slowAscii(p, e));
                QCOMPARE(bytescan::firstNonSpace(p, e), slowFirstNonSpace(p, e));
                QCOMPARE(bytescan::lastNonSpace(b, p), slowLastNonSpace(b, p));
                if (e - p >= 64) {
                    checkBlock(p, false);
                    checkBlock(p, true);
                }
            }
        }
    }

    // All-ASCII runs of every length then a bad byte: the validator reports the bad byte's offset,
    // fed whole or split at every point.
    void utf8ErrorOffsetsAcrossSplits()
    {
        for (int run = 0; run < 50; ++run) {
            QByteArray text(run, 'x');
            text += "\xC3\xA9"; // é, valid
            const qsizetype bad = text.size();
            text += "\xC0\xAF"; // overlong '/', invalid
            text += "tail";
            for (qsizetype split = 0; split <= text.size(); ++split) {
                Utf8Validator v;
                const bool ok =
                    v.feed(text.constData(), static_cast<std::size_t>(split)) &&
                    v.feed(text.constData() + split, static_cast<std::size_t>(text.size() - split));
                QVERIFY(!ok);
                QCOMPARE(v.errorOffset(), static_cast<qint64>(bad));
            }
            QByteArray good(run, 'y');
            good += "\xE2\x82\xAC"; // €
            good += QByteArray(run, 'z');
            for (qsizetype split = 0; split <= good.size(); ++split) {
                Utf8Validator v;
                QVERIFY(v.feed(good.constData(), static_cast<std::size_t>(split)));
                QVERIFY(v.feed(good.constData() + split, static_cast<std::size_t>(good.size() - split)));
                QVERIFY(v.finish());
            }
            // Cut at the end: the offset of the cut sequence.
            QByteArray cut(run, 'w');
            cut += "\xF0\x9F\x98"; // 3 of the 4 bytes of an emoji
            Utf8Validator v;
            QVERIFY(v.feed(cut.constData(), static_cast<std::size_t>(cut.size())));
            QVERIFY(!v.finish());
            QCOMPARE(v.errorOffset(), static_cast<qint64>(run));
        }
    }
};

QTEST_GUILESS_MAIN(TestByteScan)
#include "test_bytescan.moc"

#include "util/jsonstream.h"

#include "util/bytescan.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

namespace gf {

namespace {

using Action = JsonHandler::Action;

constexpr std::array<bool, 256> makeTable(std::string_view chars, bool controls)
{
    std::array<bool, 256> t{};
    for (char c : chars)
        t[static_cast<unsigned char>(c)] = true;
    if (controls)
        for (int i = 0; i < 0x20; ++i)
            t[static_cast<std::size_t>(i)] = true;
    return t;
}

constexpr auto kNumberChar = makeTable("0123456789+-.eE", false);

inline bool isSpace(char c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string &out, std::uint32_t cp)
{
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

constexpr std::uint32_t kReplacement = 0xFFFD;

/// RFC 8259 number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
bool validNumber(std::string_view s)
{
    std::size_t i = 0;
    const std::size_t n = s.size();
    auto digit = [&](std::size_t k) { return k < n && s[k] >= '0' && s[k] <= '9'; };
    if (i < n && s[i] == '-')
        ++i;
    if (!digit(i))
        return false;
    if (s[i] == '0') {
        ++i;
    } else {
        while (digit(i))
            ++i;
    }
    if (i < n && s[i] == '.') {
        ++i;
        if (!digit(i))
            return false;
        while (digit(i))
            ++i;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < n && (s[i] == '+' || s[i] == '-'))
            ++i;
        if (!digit(i))
            return false;
        while (digit(i))
            ++i;
    }
    return i == n;
}

} // namespace

JsonStreamParser::JsonStreamParser(JsonHandler &handler, Limits limits) : m_handler(handler), m_limits(limits)
{
#if defined(GF_BYTESCAN_AVX2)
    m_avx2 = bytescan::haveAvx2();
#endif
    m_stack.reserve(64);
}

void JsonStreamParser::reset()
{
    m_stack.clear();
    m_token.clear();
    m_expect = Expect::Value;
    m_partial = Partial::None;
    m_tokenIsKey = false;
    m_skipNextValue = false;
    m_esc = 0;
    m_hex = 0;
    m_highSurrogate = 0;
    m_skipDepth = 0;
    m_skipInString = false;
    m_skipEscape = false;
    m_skipEmitEnd = false;
    m_skipPrev = 0;
    m_chunk = nullptr;
    m_cur = nullptr;
    m_offset = 0;
    m_line = 1;
    m_lineStart = 0;
    m_failed = false;
    m_aborted = false;
    m_error.clear();
}

void JsonStreamParser::trackLines(const char *from, const char *to)
{
    const std::uint64_t n = bytescan::count(from, to, '\n');
    if (n == 0)
        return;
    m_line += n;
    const char *q = to;
    while (q > from && q[-1] != '\n')
        --q;
    m_lineStart = m_offset + static_cast<std::uint64_t>(q - m_chunk);
}

bool JsonStreamParser::fail(const QString &what, const char *at)
{
    if (m_failed)
        return false;
    m_failed = true;
    std::uint64_t byte = m_offset;
    if (!at)
        at = m_cur;
    if (at && m_chunk) {
        trackLines(m_chunk, at);
        byte = m_offset + static_cast<std::uint64_t>(at - m_chunk);
    }
    m_error = QStringLiteral("line %1, column %2 (byte %3): %4")
                  .arg(m_line)
                  .arg(byte - m_lineStart + 1)
                  .arg(byte)
                  .arg(what);
    return false;
}

bool JsonStreamParser::appendToken(const char *from, const char *to)
{
    if (m_token.size() + static_cast<std::size_t>(to - from) > m_limits.maxTokenBytes)
        return fail(QStringLiteral("a string or number longer than %1 bytes").arg(m_limits.maxTokenBytes),
                    from);
    m_token.append(from, to);
    return true;
}

bool JsonStreamParser::apply(Action a, bool fromKey, bool fromOpen)
{
    switch (a) {
    case Action::Continue:
        return true;
    case Action::Abort:
        m_aborted = true;
        m_failed = true;
        m_error = QStringLiteral("stopped by the reader");
        return false;
    case Action::SkipValue:
        if (fromKey) {
            m_skipNextValue = true;
        } else if (fromOpen) {
            m_partial = Partial::Skip;
            m_skipDepth = 1;
            m_skipInString = false;
            m_skipEscape = false;
            m_skipEmitEnd = false;
        }
        return true;
    case Action::SkipRest:
        if (m_stack.empty())
            return true;
        m_skipNextValue = false;
        m_partial = Partial::Skip;
        m_skipDepth = 1;
        m_skipInString = false;
        m_skipEscape = false;
        m_skipEmitEnd = true;
        return true;
    }
    return true;
}

void JsonStreamParser::valueDone()
{
    m_expect = m_stack.empty() ? Expect::Done : Expect::CommaOrEnd;
}

bool JsonStreamParser::openContainer(char c)
{
    if (static_cast<int>(m_stack.size()) >= m_limits.maxDepth)
        return fail(QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth), nullptr);
    m_stack.push_back(c);
    if (m_skipNextValue) {
        m_skipNextValue = false;
        return apply(Action::SkipValue, false, true);
    }
    if (c == '{') {
        m_expect = Expect::KeyOrEndObject;
        return apply(m_handler.startObject(), false, true);
    }
    m_expect = Expect::ValueOrEndArray;
    return apply(m_handler.startArray(), false, true);
}

bool JsonStreamParser::closeContainer(char c)
{
    const char open = c == '}' ? '{' : '[';
    if (m_stack.empty() || m_stack.back() != open)
        return false; // caller reports
    m_stack.pop_back();
    valueDone();
    return apply(c == '}' ? m_handler.endObject() : m_handler.endArray(), false, false);
}

bool JsonStreamParser::emitString(std::string_view s)
{
    if (m_tokenIsKey) {
        m_expect = Expect::Colon;
        return apply(m_handler.key(s), true, false);
    }
    valueDone();
    if (m_skipNextValue) {
        m_skipNextValue = false;
        return true;
    }
    return apply(m_handler.string(s), false, false);
}

bool JsonStreamParser::emitNumber(std::string_view s)
{
    if (!validNumber(s))
        return fail(QStringLiteral("invalid number \"%1\"")
                        .arg(QString::fromUtf8(s.data(),
                                               static_cast<qsizetype>(std::min<std::size_t>(s.size(), 40)))),
                    nullptr);
    valueDone();
    if (m_skipNextValue) {
        m_skipNextValue = false;
        return true;
    }
    return apply(m_handler.number(s), false, false);
}

bool JsonStreamParser::emitLiteral(std::string_view s)
{
    Action a = Action::Continue;
    const bool skipIt = m_skipNextValue;
    m_skipNextValue = false;
    if (s == "true") {
        valueDone();
        if (!skipIt)
            a = m_handler.boolean(true);
    } else if (s == "false") {
        valueDone();
        if (!skipIt)
            a = m_handler.boolean(false);
    } else if (s == "null") {
        valueDone();
        if (!skipIt)
            a = m_handler.null();
    } else {
        return fail(QStringLiteral("unexpected word \"%1\"")
                        .arg(QString::fromUtf8(s.data(),
                                               static_cast<qsizetype>(std::min<std::size_t>(s.size(), 20)))),
                    nullptr);
    }
    return apply(a, false, false);
}

const char *JsonStreamParser::beginValue(const char *p, const char *end)
{
    const char c = *p;
    switch (c) {
    case '{':
    case '[':
        if (!openContainer(c))
            return nullptr;
        return p + 1;
    case '"':
        m_tokenIsKey = false;
        return parseString(p + 1, end);
    case 't':
    case 'f':
    case 'n':
        return parseLiteral(p, end);
    default:
        if (c == '-' || (c >= '0' && c <= '9'))
            return parseNumber(p, end);
        if (c == '}' || c == ']') {
            fail(QStringLiteral("expected a value before '%1'").arg(QLatin1Char(c)), p);
            return nullptr;
        }
        fail(QStringLiteral("unexpected character '%1' where a value was expected")
                 .arg(static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F
                          ? QString(QLatin1Char(c))
                          : QStringLiteral("\\x%1").arg(static_cast<unsigned char>(c), 2, 16,
                                                        QLatin1Char('0'))),
             p);
        return nullptr;
    }
}

const char *JsonStreamParser::parseString(const char *p, const char *end)
{
    const char *s = p;
    p = bytescan::findStringStop(p, end);
    if (p < end && *p == '"') {
        if (static_cast<std::size_t>(p - s) > m_limits.maxTokenBytes) {
            fail(QStringLiteral("a string longer than %1 bytes").arg(m_limits.maxTokenBytes), s);
            return nullptr;
        }
        if (!emitString(std::string_view(s, static_cast<std::size_t>(p - s))))
            return nullptr;
        return p + 1;
    }
    // Escapes or the end of the chunk: continue on the slow path with a copy.
    m_token.clear();
    if (!appendToken(s, p))
        return nullptr;
    m_partial = Partial::String;
    m_esc = 0;
    m_highSurrogate = 0;
    return stringSlow(p, end);
}

const char *JsonStreamParser::stringSlow(const char *p, const char *end)
{
    auto flushSurrogate = [this] {
        if (m_highSurrogate) {
            appendUtf8(m_token, kReplacement);
            m_highSurrogate = 0;
        }
    };
    while (p < end) {
        if (m_esc == 0) {
            const char *s = p;
            p = bytescan::findStringStop(p, end);
            if (p > s) {
                flushSurrogate();
                if (!appendToken(s, p))
                    return nullptr;
            }
            if (p == end)
                break;
            const char c = *p;
            if (c == '"') {
                flushSurrogate();
                m_partial = Partial::None;
                ++p;
                return emitString(m_token) ? p : nullptr;
            }
            if (c == '\\') {
                m_esc = 1;
                ++p;
                continue;
            }
            fail(QStringLiteral("control character 0x%1 inside a string")
                     .arg(static_cast<unsigned char>(c), 2, 16, QLatin1Char('0')),
                 p);
            return nullptr;
        }
        if (m_esc == 1) {
            const char c = *p;
            char out = 0;
            switch (c) {
            case '"':
                out = '"';
                break;
            case '\\':
                out = '\\';
                break;
            case '/':
                out = '/';
                break;
            case 'b':
                out = '\b';
                break;
            case 'f':
                out = '\f';
                break;
            case 'n':
                out = '\n';
                break;
            case 'r':
                out = '\r';
                break;
            case 't':
                out = '\t';
                break;
            case 'u':
                m_esc = 5;
                m_hex = 0;
                ++p;
                continue;
            default:
                fail(QStringLiteral("invalid escape sequence in a string"), p);
                return nullptr;
            }
            flushSurrogate();
            if (m_token.size() >= m_limits.maxTokenBytes) {
                fail(QStringLiteral("a string longer than %1 bytes").arg(m_limits.maxTokenBytes), p);
                return nullptr;
            }
            m_token.push_back(out);
            m_esc = 0;
            ++p;
            continue;
        }
        // \uXXXX digits
        const int v = hexValue(*p);
        if (v < 0) {
            fail(QStringLiteral("invalid \\u escape in a string"), p);
            return nullptr;
        }
        m_hex = m_hex * 16 + static_cast<std::uint32_t>(v);
        --m_esc;
        ++p;
        if (m_esc == 1) {
            m_esc = 0;
            const std::uint32_t cp = m_hex;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                flushSurrogate();
                m_highSurrogate = cp;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                if (m_highSurrogate) {
                    appendUtf8(m_token, 0x10000 + ((m_highSurrogate - 0xD800) << 10) + (cp - 0xDC00));
                    m_highSurrogate = 0;
                } else {
                    appendUtf8(m_token, kReplacement);
                }
            } else {
                flushSurrogate();
                appendUtf8(m_token, cp);
            }
            if (m_token.size() > m_limits.maxTokenBytes) {
                fail(QStringLiteral("a string longer than %1 bytes").arg(m_limits.maxTokenBytes), p);
                return nullptr;
            }
        }
    }
    return p;
}

const char *JsonStreamParser::parseNumber(const char *p, const char *end)
{
    const char *s = p;
    while (p < end && kNumberChar[static_cast<unsigned char>(*p)])
        ++p;
    if (m_partial == Partial::None) {
        if (p == end) {
            m_token.clear();
            if (!appendToken(s, p))
                return nullptr;
            m_partial = Partial::Number;
            return p;
        }
        if (static_cast<std::size_t>(p - s) > m_limits.maxTokenBytes) {
            fail(QStringLiteral("a number longer than %1 bytes").arg(m_limits.maxTokenBytes), s);
            return nullptr;
        }
        return emitNumber(std::string_view(s, static_cast<std::size_t>(p - s))) ? p : nullptr;
    }
    if (!appendToken(s, p))
        return nullptr;
    if (p == end)
        return p;
    m_partial = Partial::None;
    return emitNumber(m_token) ? p : nullptr;
}

const char *JsonStreamParser::parseLiteral(const char *p, const char *end)
{
    const char *s = p;
    while (p < end && *p >= 'a' && *p <= 'z' && (p - s) < 8)
        ++p;
    if (m_partial == Partial::None) {
        if (p == end) {
            m_token.assign(s, p);
            m_partial = Partial::Literal;
            return p;
        }
        return emitLiteral(std::string_view(s, static_cast<std::size_t>(p - s))) ? p : nullptr;
    }
    if (m_token.size() + static_cast<std::size_t>(p - s) > 8) {
        fail(QStringLiteral("unexpected word"), p);
        return nullptr;
    }
    m_token.append(s, p);
    if (p == end)
        return p;
    m_partial = Partial::None;
    return emitLiteral(m_token) ? p : nullptr;
}

const char *JsonStreamParser::skip(const char *p, const char *end)
{
    while (p < end) {
        if (m_skipEscape || end - p < 64) {
            p = skipBytes(p, end);
            if (!p || m_partial != Partial::Skip)
                return p;
            continue;
        }
        // 64 bytes at a time: where the block has no backslash every quote opens or closes a string, so
        // the bytes inside strings are a prefix XOR of the quotes, and only the brackets outside them
        // are looked at, in order, as the byte loop would.
#if defined(GF_BYTESCAN_AVX2)
        const bytescan::BlockMasks m = m_avx2 ? bytescan::blockMasksAvx2(p) : bytescan::blockMasks(p);
#else
        const bytescan::BlockMasks m = bytescan::blockMasks(p);
#endif
        if (m.backslash) {
            p = skipBytes(p, p + 64);
            if (!p || m_partial != Partial::Skip)
                return p;
            continue;
        }
        const std::uint64_t inString =
            bytescan::prefixXor(m.quote) ^ (m_skipInString ? ~std::uint64_t{0} : std::uint64_t{0});
        for (std::uint64_t brackets = m.bracket & ~inString; brackets; brackets &= brackets - 1) {
            const char *at = p + __builtin_ctzll(brackets);
            switch (skipBracket(at)) {
            case SkipStep::Failed:
                return nullptr;
            case SkipStep::Done:
                return at + 1;
            case SkipStep::Inside:
                break;
            }
        }
        m_skipInString = (inString >> 63) != 0;
        p += 64;
    }
    return p;
}

const char *JsonStreamParser::skipBytes(const char *p, const char *end)
{
    while (p < end) {
        if (m_skipInString) {
            if (m_skipEscape) {
                m_skipEscape = false;
                ++p;
                continue;
            }
            p = bytescan::findQuoteOrBackslash(p, end);
            if (p == end)
                break;
            if (*p == '\\')
                m_skipEscape = true;
            else
                m_skipInString = false;
            ++p;
            continue;
        }
        p = bytescan::findStructural(p, end);
        if (p == end)
            break;
        if (*p == '"') {
            m_skipInString = true;
            ++p;
            continue;
        }
        switch (skipBracket(p)) {
        case SkipStep::Failed:
            return nullptr;
        case SkipStep::Done:
            return p + 1;
        case SkipStep::Inside:
            break;
        }
        ++p;
    }
    return p;
}

JsonStreamParser::SkipStep JsonStreamParser::skipBracket(const char *at)
{
    const char c = *at;
    if (c == '{' || c == '[') {
        if (static_cast<int>(m_stack.size()) + m_skipDepth >
            m_limits.maxDepth) { // the skipped container itself is on the stack
            fail(QStringLiteral("nesting deeper than %1 levels").arg(m_limits.maxDepth), at);
            return SkipStep::Failed;
        }
        ++m_skipDepth;
        return SkipStep::Inside;
    }
    if (const char prev = previousSignificant(at); prev == ',' || prev == ':') {
        fail(QStringLiteral("'%1' after '%2' (trailing comma or missing value)")
                 .arg(QChar(QLatin1Char(c)))
                 .arg(QChar(QLatin1Char(prev))),
             at);
        return SkipStep::Failed;
    }
    if (--m_skipDepth != 0)
        return SkipStep::Inside;
    m_partial = Partial::None;
    m_skipInString = false;
    const char open = c == '}' ? '{' : '[';
    if (m_stack.empty() || m_stack.back() != open) {
        fail(QStringLiteral("'%1' does not close the open '%2'")
                 .arg(QChar(QLatin1Char(c)))
                 .arg(QChar(QLatin1Char(m_stack.empty() ? '?' : m_stack.back()))),
             at);
        return SkipStep::Failed;
    }
    m_stack.pop_back();
    valueDone();
    if (m_skipEmitEnd && !apply(c == '}' ? m_handler.endObject() : m_handler.endArray(), false, false))
        return SkipStep::Failed;
    return SkipStep::Done;
}

char JsonStreamParser::previousSignificant(const char *at) const
{
    const char *q = bytescan::lastNonSpace(m_chunk, at);
    return q ? *q : m_skipPrev;
}

bool JsonStreamParser::feed(const char *data, std::size_t size)
{
    if (m_failed)
        return false;
    m_chunk = data;
    const char *p = data;
    const char *end = data + size;
    while (p < end) {
        m_cur = p;
        switch (m_partial) {
        case Partial::None:
            break;
        case Partial::String:
            p = stringSlow(p, end);
            break;
        case Partial::Number:
            p = parseNumber(p, end);
            break;
        case Partial::Literal:
            p = parseLiteral(p, end);
            break;
        case Partial::Skip:
            p = skip(p, end);
            break;
        }
        if (!p)
            return false;
        if (m_partial != Partial::None || p == end)
            continue;
        const char c = *p;
        if (isSpace(c)) {
            p = bytescan::firstNonSpace(p + 1, end);
            continue;
        }
        switch (m_expect) {
        case Expect::Value:
            p = beginValue(p, end);
            break;
        case Expect::ValueOrEndArray:
            if (c == ']') {
                if (!closeContainer(c))
                    return fail(QStringLiteral("unbalanced ']'"), p);
                ++p;
            } else {
                p = beginValue(p, end);
            }
            break;
        case Expect::KeyOrEndObject:
            if (c == '}') {
                if (!closeContainer(c))
                    return m_failed ? false : fail(QStringLiteral("unbalanced '}'"), p);
                ++p;
                break;
            }
            [[fallthrough]];
        case Expect::Key:
            if (c != '"')
                return fail(m_expect == Expect::Key && c == '}'
                                ? QStringLiteral("'}' after ',' (trailing comma): expected a quoted key")
                                : QStringLiteral("expected a quoted key"),
                            p);
            m_tokenIsKey = true;
            p = parseString(p + 1, end);
            break;
        case Expect::Colon:
            if (c != ':')
                return fail(QStringLiteral("expected ':' after a key"), p);
            m_expect = Expect::Value;
            ++p;
            break;
        case Expect::CommaOrEnd:
            if (c == ',') {
                m_expect = m_stack.back() == '{' ? Expect::Key : Expect::Value;
                ++p;
            } else if (c == '}' || c == ']') {
                if (!closeContainer(c))
                    return m_failed ? false
                                    : fail(QStringLiteral("'%1' does not close the open '%2'")
                                               .arg(QChar(QLatin1Char(c)))
                                               .arg(QChar(QLatin1Char(m_stack.back()))),
                                           p);
                ++p;
            } else {
                return fail(QStringLiteral("expected ',' or a closing bracket"), p);
            }
            break;
        case Expect::Done:
            return fail(QStringLiteral("unexpected data after the end of the JSON document"), p);
        }
        if (!p)
            return false;
        if (m_failed)
            return false;
    }
    trackLines(data, end);
    {
        const char *q = end;
        while (q > data && isSpace(q[-1]))
            --q;
        if (q > data)
            m_skipPrev = q[-1];
    }
    m_offset += size;
    m_chunk = nullptr;
    m_cur = nullptr;
    return !m_failed;
}

bool JsonStreamParser::finish()
{
    if (m_failed)
        return false;
    m_chunk = nullptr;
    m_cur = nullptr;
    if (m_partial == Partial::Number) {
        m_partial = Partial::None;
        if (!emitNumber(m_token))
            return false;
    } else if (m_partial == Partial::Literal) {
        m_partial = Partial::None;
        if (!emitLiteral(m_token))
            return false;
    }
    if (m_expect == Expect::Done && m_partial == Partial::None)
        return true;
    if (m_expect == Expect::Value && m_stack.empty() && m_partial == Partial::None)
        return fail(QStringLiteral("empty document"), nullptr);
    return fail(QStringLiteral("unexpected end of data: the document is incomplete (truncated download?)"),
                nullptr);
}

bool parseJsonNumber(std::string_view s, double *out)
{
    if (s.empty())
        return false;
    const char *b = s.data();
    const char *e = b + s.size();
    const auto r = std::from_chars(b, e, *out);
    return r.ec == std::errc() && r.ptr == e && std::isfinite(*out);
}

bool parseDecimal(std::string_view s, double *out)
{
    while (!s.empty() && (s.front() == ' '))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' '))
        s.remove_suffix(1);
    if (!s.empty() && s.front() == '+')
        s.remove_prefix(1);
    return parseJsonNumber(s, out);
}

} // namespace gf

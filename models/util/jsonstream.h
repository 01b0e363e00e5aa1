#pragma once

#include <QString>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gf {

/// Receives the events of a streaming JSON parse (SAX style).
/// Views point into the parser's buffers and are valid only during the call.
/// Every callback returns what the parser should do next:
///  - Continue: go on;
///  - SkipValue: from key(): skip the value of this key without events; from startObject()/startArray():
///    skip the container just opened (no end event for it);
///  - SkipRest: skip the rest of the innermost open container, then report its end as usual;
///  - Abort: stop; the handler keeps its own reason.
/// Skipped parts are only checked for balanced brackets and closed strings: that is what keeps a
/// filter over a file of hundreds of MB fast.
class JsonHandler
{
public:
    enum class Action : std::uint8_t
    {
        Continue,
        SkipValue,
        SkipRest,
        Abort
    };

    virtual ~JsonHandler() = default;
    virtual Action startObject() { return Action::Continue; }
    virtual Action endObject() { return Action::Continue; }
    virtual Action startArray() { return Action::Continue; }
    virtual Action endArray() { return Action::Continue; }
    virtual Action key(std::string_view) { return Action::Continue; }
    virtual Action string(std::string_view) { return Action::Continue; }
    /// The number as written (validated against the JSON grammar); convert with parseJsonNumber().
    virtual Action number(std::string_view) { return Action::Continue; }
    virtual Action boolean(bool) { return Action::Continue; }
    virtual Action null() { return Action::Continue; }
};

/// An incremental (push) JSON parser: feed it chunks of any size, as they arrive from a file or a
/// socket; memory stays bounded by the nesting depth and the longest single string, whatever the
/// size of the document. Strict RFC 8259 grammar outside skipped values; one top-level value.
class JsonStreamParser
{
public:
    struct Limits
    {
        int maxDepth = 512;
        std::size_t maxTokenBytes = 16u * 1024u * 1024u; ///< longest string/number accepted
    };

    explicit JsonStreamParser(JsonHandler &handler) : JsonStreamParser(handler, Limits{}) {}
    JsonStreamParser(JsonHandler &handler, Limits limits);

    /// Parses the next chunk. Returns false on a syntax error or when the handler aborted.
    bool feed(const char *data, std::size_t size);
    bool feed(std::string_view chunk) { return feed(chunk.data(), chunk.size()); }
    /// Declares the end of input; false when the document is incomplete.
    bool finish();
    /// Starts over (a new document, e.g. after a retried download).
    void reset();

    bool failed() const { return m_failed; }
    bool aborted() const { return m_aborted; }
    /// "line L, column C (byte B): what"
    QString errorString() const { return m_error; }
    bool complete() const { return m_expect == Expect::Done && m_partial == Partial::None; }

private:
    enum class Expect : std::uint8_t
    {
        Value,
        ValueOrEndArray,
        KeyOrEndObject,
        Key,
        Colon,
        CommaOrEnd,
        Done
    };
    enum class Partial : std::uint8_t
    {
        None,
        String,
        Number,
        Literal,
        Skip
    };

    const char *beginValue(const char *p, const char *end);
    const char *parseString(const char *p, const char *end);
    const char *parseNumber(const char *p, const char *end);
    const char *parseLiteral(const char *p, const char *end);
    const char *skip(const char *p, const char *end);
    const char *skipBytes(const char *p, const char *end);
    enum class SkipStep : std::uint8_t
    {
        Inside,
        Done,
        Failed
    };
    SkipStep skipBracket(const char *at);
    const char *stringSlow(const char *p, const char *end);
    bool emitString(std::string_view s);
    bool emitNumber(std::string_view s);
    bool emitLiteral(std::string_view s);
    bool openContainer(char c);
    bool closeContainer(char c);
    void valueDone();
    bool apply(JsonHandler::Action a, bool fromKey, bool fromOpen);
    bool fail(const QString &what, const char *at);
    bool appendToken(const char *from, const char *to);
    void trackLines(const char *from, const char *to);
    char previousSignificant(const char *at) const;

    JsonHandler &m_handler;
    Limits m_limits;
    std::vector<char> m_stack;
    std::string m_token; ///< partial token across chunks / unescaped string
    Expect m_expect = Expect::Value;
    Partial m_partial = Partial::None;
    bool m_tokenIsKey = false;
    bool m_skipNextValue = false; ///< the handler asked to skip the value of the last key
    // string escape state (slow path)
    std::uint8_t m_esc = 0; ///< 0 none, 1 after '\', 2..5 = hex digits still expected + 1
    std::uint32_t m_hex = 0;
    std::uint32_t m_highSurrogate = 0;
    // skip state
    int m_skipDepth = 0;
    bool m_skipInString = false;
    bool m_skipEscape = false;
    bool m_skipEmitEnd = false;
    char m_skipPrev = 0; ///< last non-space byte of the previous chunk (trailing-comma check while skipping)
    // position
    const char *m_chunk = nullptr;
    const char *m_cur = nullptr; ///< start of the step being parsed (for error positions)
    std::uint64_t m_offset = 0;  ///< bytes before the current chunk (after feed: total)
    std::uint64_t m_line = 1;
    std::uint64_t m_lineStart = 0; ///< offset of the current line's first byte
    bool m_failed = false;
    bool m_aborted = false;
    bool m_avx2 = false; ///< the processor runs AVX2: the skip's block masks use it
    QString m_error;
};

/// Converts a JSON number token to double (locale-independent). False when it is not a number.
bool parseJsonNumber(std::string_view s, double *out);
/// Converts a decimal string such as "12.2400000000" or "0.0666" (AWS prices) to double.
bool parseDecimal(std::string_view s, double *out);

} // namespace gf

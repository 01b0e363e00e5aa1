#pragma once

// Shared by gpufrontier-probe and gpufrontier-cpuprobe: a small JSON writer, the progress
// protocol, timing helpers and host facts. Plain C++20, no Qt, no third-party dependency.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace gfprobe {

inline constexpr int kSchemaVersion = 1;

/// Exit codes shared by both probes (probes/README.md).
enum ExitCode : int
{
    ExitOk = 0,
    ExitUsage = 1,
    ExitNoDevice = 2,
    ExitDeviceError = 3,
};

/// Writes `progress <0-1000> <message>` to stderr, one line, flushed.
inline void progress(int permille, std::string_view message)
{
    permille = std::clamp(permille, 0, 1000);
    std::string line = "progress " + std::to_string(permille) + ' ';
    for (char c : message)
        line += (c == '\n' || c == '\r') ? ' ' : c;
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

/// Writes a free-form diagnostic line to stderr (ignored by the app's progress parser).
inline void note(std::string_view message)
{
    std::string line = "note ";
    line.append(message);
    line += '\n';
    std::fwrite(line.data(), 1, line.size(), stderr);
    std::fflush(stderr);
}

inline double median(std::vector<double> v)
{
    if (v.empty())
        return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

inline double nowSeconds()
{
    using Clock = std::chrono::steady_clock;
    return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
}

inline std::string utcTimestamp()
{
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

inline std::string hostName()
{
    char buf[256] = {};
    if (gethostname(buf, sizeof buf - 1) != 0)
        return {};
    return buf;
}

/// Parses a whole decimal integer in [min, max]; false when it is not one.
inline bool parseInt(const char *text, long min, long max, long *out)
{
    if (!text || !*text)
        return false;
    char *end = nullptr;
    errno = 0;
    const long v = std::strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || v < min || v > max)
        return false;
    *out = v;
    return true;
}

/// Parses the options both probes share: --help/-h, --version, --quick and one numeric option
/// (`--NAME N` or `--NAME=N`, a whole number in [min, max]; `numberHelp` ends "needs ..." in the
/// message). Returns -1 when the probe should run, otherwise the exit code to return at once.
inline int parseProbeArgs(int argc, char **argv, const char *program, std::string_view numberOption, long min,
                          long max, const char *numberHelp, void (*printUsage)(std::FILE *), bool *quick,
                          long *number)
{
    const std::string option = "--" + std::string(numberOption);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--help" || a == "-h") {
            printUsage(stdout);
            return ExitOk;
        }
        if (a == "--version") {
            std::printf("%s %s (schema %d)\n", program, GFPROBE_VERSION, kSchemaVersion);
            return ExitOk;
        }
        if (a == "--quick") {
            *quick = true;
            continue;
        }
        if (a == option || a.rfind(option + "=", 0) == 0) {
            const char *v = a == option ? (i + 1 < argc ? argv[++i] : nullptr) : argv[i] + option.size() + 1;
            if (!parseInt(v, min, max, number)) {
                std::fprintf(stderr, "%s: %s needs %s\n", program, option.c_str(), numberHelp);
                return ExitUsage;
            }
            continue;
        }
        std::fprintf(stderr, "%s: unknown option '%s'\n", program, argv[i]);
        printUsage(stderr);
        return ExitUsage;
    }
    return -1;
}

/// A minimal streaming JSON writer producing indented output. Non-finite numbers become null.
class JsonWriter
{
public:
    void beginObject(std::string_view key = {}) { open(key, '{'); }
    void endObject() { close('}'); }
    void beginArray(std::string_view key = {}) { open(key, '['); }
    void endArray() { close(']'); }

    void value(std::string_view key, std::string_view s)
    {
        prefix(key);
        appendString(s);
    }
    void value(std::string_view key, const char *s) { value(key, std::string_view(s)); }
    void value(std::string_view key, const std::string &s) { value(key, std::string_view(s)); }
    void value(std::string_view key, bool b)
    {
        prefix(key);
        m_out += b ? "true" : "false";
    }
    void value(std::string_view key, int v) { integer(key, v); }
    void value(std::string_view key, long v) { integer(key, v); }
    void value(std::string_view key, long long v) { integer(key, v); }
    void value(std::string_view key, unsigned long v) { integer(key, static_cast<long long>(v)); }
    void value(std::string_view key, unsigned long long v) { integer(key, static_cast<long long>(v)); }
    void value(std::string_view key, double v, int significant = 6)
    {
        prefix(key);
        if (!std::isfinite(v)) {
            m_out += "null";
            return;
        }
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*g", significant, v);
        m_out += buf;
    }
    void null(std::string_view key)
    {
        prefix(key);
        m_out += "null";
    }

    const std::string &str() const { return m_out; }

private:
    struct Level
    {
        char close;
        bool first;
    };

    template <class I> void integer(std::string_view key, I v)
    {
        prefix(key);
        m_out += std::to_string(v);
    }
    void indent()
    {
        m_out += '\n';
        m_out.append(m_stack.size() * 2, ' ');
    }
    void prefix(std::string_view key)
    {
        if (!m_stack.empty()) {
            if (!m_stack.back().first)
                m_out += ',';
            m_stack.back().first = false;
            indent();
        }
        if (!key.empty()) {
            appendString(key);
            m_out += ": ";
        }
    }
    void open(std::string_view key, char c)
    {
        prefix(key);
        m_out += c;
        m_stack.push_back({c == '{' ? '}' : ']', true});
    }
    void close(char c)
    {
        const bool empty = m_stack.back().first;
        m_stack.pop_back();
        if (!empty)
            indent();
        m_out += c;
    }
    void appendString(std::string_view s)
    {
        m_out += '"';
        for (unsigned char c : s) {
            switch (c) {
            case '"':
                m_out += "\\\"";
                break;
            case '\\':
                m_out += "\\\\";
                break;
            case '\n':
                m_out += "\\n";
                break;
            case '\r':
                m_out += "\\r";
                break;
            case '\t':
                m_out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    m_out += buf;
                } else {
                    m_out += static_cast<char>(c);
                }
            }
        }
        m_out += '"';
    }

    std::string m_out;
    std::vector<Level> m_stack;
};

/// A GEMM result compared with a reference on a small case (the document's "checks" array).
struct GemmCheck
{
    std::string dtype;
    int m = 0, n = 0, k = 0;
    double maxRelError = 0; ///< max |C - C_ref| / max |C_ref|
    double tolerance = 0;
    bool passed = false;
    bool supported = true; ///< false: the device cannot run this type (cuda); not written
};

/// Writes the "checks" array.
inline void writeChecks(JsonWriter &w, const std::vector<GemmCheck> &checks)
{
    w.beginArray("checks");
    for (const GemmCheck &c : checks) {
        w.beginObject();
        w.value("dtype", c.dtype);
        w.value("m", c.m);
        w.value("n", c.n);
        w.value("k", c.k);
        w.value("max_rel_error", c.maxRelError, 3);
        w.value("tolerance", c.tolerance, 3);
        w.value("passed", c.passed);
        w.endObject();
    }
    w.endArray();
}

/// Prints a JSON document on stdout with a trailing newline.
inline void printDocument(const JsonWriter &w)
{
    std::fwrite(w.str().data(), 1, w.str().size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
}

/// Writes the fields every document starts with.
inline void writeHeader(JsonWriter &w, const char *kind, const char *version, bool quick)
{
    w.value("schema_version", kSchemaVersion);
    w.value("kind", kind);
    w.value("probe_version", version);
    w.value("created_at", utcTimestamp());
    w.value("host_name", hostName());
    w.value("quick", quick);
}

/// A complete error document: the header plus {"error": {code, message, detail}}.
inline void printErrorDocument(const char *kind, const char *version, bool quick, std::string_view code,
                               std::string_view message, std::string_view detail)
{
    JsonWriter w;
    w.beginObject();
    writeHeader(w, kind, version, quick);
    w.beginObject("error");
    w.value("code", code);
    w.value("message", message);
    w.value("detail", detail);
    w.endObject();
    w.endObject();
    printDocument(w);
}

} // namespace gfprobe

// libFuzzer target: the streaming JSON parser. Properties checked on every input:
//  - feeding it whole or in pieces gives the same events and the same verdict;
//  - a handler that skips values never turns a valid document into an error.
#include "util/jsonstream.h"

#include <cstdint>
#include <string>

namespace {

class Trace final : public gf::JsonHandler
{
public:
    std::string out;
    bool skip = false;
    int n = 0;
    Action startObject() override
    {
        out += '{';
        return next();
    }
    Action endObject() override
    {
        out += '}';
        return Action::Continue;
    }
    Action startArray() override
    {
        out += '[';
        return next();
    }
    Action endArray() override
    {
        out += ']';
        return Action::Continue;
    }
    Action key(std::string_view k) override
    {
        out += 'K';
        out += k;
        out += '\0';
        return next();
    }
    Action string(std::string_view s) override
    {
        out += 'S';
        out += s;
        out += '\0';
        return Action::Continue;
    }
    Action number(std::string_view s) override
    {
        out += 'N';
        out += s;
        out += '\0';
        return Action::Continue;
    }
    Action boolean(bool b) override
    {
        out += b ? 'T' : 'F';
        return Action::Continue;
    }
    Action null() override
    {
        out += 'Z';
        return Action::Continue;
    }

private:
    Action next()
    {
        if (!skip)
            return Action::Continue;
        switch (++n % 5) {
        case 0:
            return Action::SkipValue;
        case 3:
            return Action::SkipRest;
        default:
            return Action::Continue;
        }
    }
};

bool run(const uint8_t *data, size_t size, size_t step, Trace &t)
{
    gf::JsonStreamParser::Limits limits;
    limits.maxDepth = 64;
    limits.maxTokenBytes = 4096;
    gf::JsonStreamParser p(t, limits);
    const char *d = reinterpret_cast<const char *>(data);
    for (size_t i = 0; i < size; i += step)
        if (!p.feed(d + i, std::min(step, size - i)))
            return false;
    return p.finish();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    Trace whole;
    const bool okWhole = run(data, size, size ? size : 1, whole);
    const size_t step = 1 + (size ? data[0] % 13 : 0);
    Trace pieces;
    const bool okPieces = run(data, size, step, pieces);
    if (okWhole != okPieces || (okWhole && whole.out != pieces.out))
        __builtin_trap();
    Trace skipping;
    skipping.skip = true;
    const bool okSkip = run(data, size, step, skipping);
    if (okWhole && !okSkip)
        __builtin_trap();
    return 0;
}

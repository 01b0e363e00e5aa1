#pragma once

#include <QString>

#include <cstddef>

namespace gf {

/// Receives a byte stream as it arrives: a download (refresh/httpclient.h) or a file read in
/// chunks. begin() is called before the first byte of every attempt (a retried download starts
/// over); write() returns false to stop (parse error).
class ByteSink
{
public:
    virtual ~ByteSink() = default;
    virtual void begin() {}
    virtual bool write(const char *data, std::size_t size) = 0;
    /// Why write() returned false, for the error message.
    virtual QString errorString() const { return {}; }
};

} // namespace gf

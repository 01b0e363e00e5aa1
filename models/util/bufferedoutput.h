#pragma once

#include "util/bytesink.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>
#include <QStringDecoder>
#include <QStringView>
#include <QTextStream>

#include <cstddef>
#include <cstring>
#include <memory>

namespace gf {

/// Bytes written out in chunks: output that is produced piece by piece (a streamed JSON document, a CSV
/// or a table of 100,000 rows) goes to its sink every `chunkSize` bytes instead of being built whole in
/// memory. The first failing write of the sink stops the output; ok() and errorString() tell.
class BufferedOutput
{
public:
    explicit BufferedOutput(ByteSink &sink, qsizetype chunkSize = 64 * 1024);
    ~BufferedOutput();
    BufferedOutput(const BufferedOutput &) = delete;
    BufferedOutput &operator=(const BufferedOutput &) = delete;

    void append(const char *data, qsizetype size)
    {
        if (m_size + size > m_capacity) {
            appendSlow(data, size);
            return;
        }
        std::memcpy(m_data.get() + m_size, data, static_cast<std::size_t>(size));
        m_size += size;
    }
    void append(char c)
    {
        if (m_size == m_capacity)
            flush();
        m_data[m_size++] = c;
    }
    void append(QByteArrayView bytes) { append(bytes.data(), bytes.size()); }
    /// UTF-8 of a text.
    void appendText(QStringView text);
    /// Hands what is buffered to the sink; false once a write failed.
    bool flush();
    bool ok() const { return m_ok; }
    QString errorString() const { return m_error; }

private:
    void appendSlow(const char *data, qsizetype size);

    ByteSink &m_sink;
    std::unique_ptr<char[]> m_data;
    qsizetype m_size = 0;
    qsizetype m_capacity;
    bool m_ok = true;
    QString m_error;
};

/// A sink that writes to a device (a file, stdout).
class DeviceSink final : public ByteSink
{
public:
    explicit DeviceSink(QIODevice *device) : m_device(device) {}
    bool write(const char *data, std::size_t size) override;
    QString errorString() const override;
    /// Bytes written so far.
    qint64 written() const { return m_written; }

private:
    QIODevice *m_device;
    qint64 m_written = 0;
};

/// A sink that appends to a byte array (documents small enough to hold, tests).
class ByteArraySink final : public ByteSink
{
public:
    explicit ByteArraySink(QByteArray &target) : m_target(target) {}
    bool write(const char *data, std::size_t size) override
    {
        m_target.append(data, static_cast<qsizetype>(size));
        return true;
    }

private:
    QByteArray &m_target;
};

/// A sink that writes UTF-8 bytes where a QTextStream writes: straight to its device when it has one
/// (after flushing what the stream holds, so the order is kept), else into its string.
class TextStreamSink final : public ByteSink
{
public:
    explicit TextStreamSink(QTextStream &stream) : m_stream(stream) {}
    bool write(const char *data, std::size_t size) override;
    QString errorString() const override;

private:
    QTextStream &m_stream;
    QStringDecoder m_decoder{QStringDecoder::Utf8}; ///< a chunk may end inside a UTF-8 sequence
};

} // namespace gf

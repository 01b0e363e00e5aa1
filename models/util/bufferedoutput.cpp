#include "util/bufferedoutput.h"

#include <QFileDevice>

#include <algorithm>

namespace gf {

BufferedOutput::BufferedOutput(ByteSink &sink, qsizetype chunkSize)
    : m_sink(sink), m_data(new char[static_cast<std::size_t>(std::max<qsizetype>(chunkSize, 1))]),
      m_capacity(std::max<qsizetype>(chunkSize, 1))
{
}

BufferedOutput::~BufferedOutput()
{
    flush();
}

void BufferedOutput::appendSlow(const char *data, qsizetype size)
{
    while (size > 0) {
        if (m_size == m_capacity)
            flush();
        const qsizetype n = std::min(size, m_capacity - m_size);
        std::memcpy(m_data.get() + m_size, data, static_cast<std::size_t>(n));
        m_size += n;
        data += n;
        size -= n;
    }
}

void BufferedOutput::appendText(QStringView text)
{
    const QByteArray utf8 = text.toUtf8();
    append(utf8.constData(), utf8.size());
}

bool BufferedOutput::flush()
{
    const qsizetype n = m_size;
    m_size = 0;
    if (!m_ok)
        return false;
    if (n > 0 && !m_sink.write(m_data.get(), static_cast<std::size_t>(n))) {
        m_ok = false;
        m_error = m_sink.errorString();
    }
    return m_ok;
}

bool DeviceSink::write(const char *data, std::size_t size)
{
    const qint64 before = m_written;
    while (size > 0) {
        const qint64 n = m_device->write(data, static_cast<qint64>(size));
        if (n <= 0)
            return false;
        data += n;
        size -= static_cast<std::size_t>(n);
        m_written += n;
    }
    // A file device buffers: its own flush is where a full disk or a closed pipe shows, chunk by chunk.
    if (auto *file = qobject_cast<QFileDevice *>(m_device); file && m_written > before)
        return file->flush();
    return true;
}

QString DeviceSink::errorString() const
{
    return m_device->errorString();
}

bool TextStreamSink::write(const char *data, std::size_t size)
{
    if (QIODevice *device = m_stream.device()) {
        m_stream.flush();
        DeviceSink sink(device);
        return sink.write(data, size);
    }
    m_stream << QString(m_decoder(QByteArrayView(data, static_cast<qsizetype>(size))));
    return m_stream.status() == QTextStream::Ok;
}

QString TextStreamSink::errorString() const
{
    if (QIODevice *device = m_stream.device())
        return device->errorString();
    return QStringLiteral("cannot write to the output");
}

} // namespace gf

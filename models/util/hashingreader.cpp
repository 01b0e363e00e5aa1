#include "util/hashingreader.h"

namespace gf {

HashingReader::HashingReader(QIODevice &source, QCryptographicHash::Algorithm algorithm)
    : m_source(source), m_hash(algorithm)
{
    open(QIODevice::ReadOnly | QIODevice::Unbuffered);
}

qint64 HashingReader::readData(char *data, qint64 maxSize)
{
    const qint64 n = m_source.read(data, maxSize);
    if (n < 0) {
        setErrorString(m_source.errorString());
        return -1;
    }
    m_hash.addData(QByteArrayView(data, n));
    return n;
}

bool HashingReader::drain()
{
    QByteArray buffer(1 << 16, Qt::Uninitialized);
    while (true) {
        const qint64 n = read(buffer.data(), buffer.size());
        if (n < 0)
            return false;
        if (n == 0)
            return true;
    }
}

} // namespace gf

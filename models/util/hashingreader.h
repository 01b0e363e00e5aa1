#pragma once

#include <QCryptographicHash>
#include <QIODevice>

namespace gf {

/// A read-only, sequential view of another device that hashes every byte read through it: a parser
/// that streams a file through it leaves the file's checksum behind without a second read.
class HashingReader final : public QIODevice
{
public:
    explicit HashingReader(QIODevice &source,
                           QCryptographicHash::Algorithm algorithm = QCryptographicHash::Sha256);

    bool isSequential() const override { return true; }
    /// Reads what the parser left unread (a parser may stop at the end of its data) into the hash.
    /// False when the source fails.
    bool drain();
    /// The hash of every byte read so far (raw bytes; toHex() for text).
    QByteArray result() const { return m_hash.result(); }

protected:
    qint64 readData(char *data, qint64 maxSize) override;
    qint64 writeData(const char *, qint64) override { return -1; }

private:
    QIODevice &m_source;
    QCryptographicHash m_hash;
};

} // namespace gf

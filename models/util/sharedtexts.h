#pragma once

#include <QByteArray>
#include <QHash>
#include <QSet>
#include <QString>

namespace gf {

/// Texts that repeat across many rows (a provider, a region, a GPU name, a source note) kept once: a
/// row that reads one gets the shared copy (Qt's implicit sharing) instead of its own allocation, so
/// 200,000 parsed rows hold a few hundred region strings, not 200,000. A column of unique values
/// (offer ids) stops being pooled after `limit` distinct texts. One pool takes either decoded texts
/// (operator()) or UTF-8 bytes (fromUtf8, which decodes only what it has not seen), not both.
class SharedTexts
{
public:
    explicit SharedTexts(qsizetype limit = 16384) : m_limit(limit) {}

    QString operator()(const QString &text)
    {
        if (m_texts.size() >= m_limit)
            return text;
        const auto it = m_texts.constFind(text);
        if (it != m_texts.constEnd())
            return *it;
        m_texts.insert(text);
        return text;
    }

    /// The text of UTF-8 bytes (a database column); null for a null pointer.
    QString fromUtf8(const char *data, qsizetype size)
    {
        if (!data)
            return {};
        if (m_bytes.size() >= m_limit)
            return QString::fromUtf8(data, size);
        // The lookup key points at the caller's bytes (no copy); an inserted key owns a copy.
        const auto it = m_bytes.constFind(QByteArray::fromRawData(data, size));
        if (it != m_bytes.constEnd())
            return it.value();
        const QString text = QString::fromUtf8(data, size);
        m_bytes.insert(QByteArray(data, size), text);
        return text;
    }

private:
    QSet<QString> m_texts;
    QHash<QByteArray, QString> m_bytes;
    qsizetype m_limit;
};

} // namespace gf

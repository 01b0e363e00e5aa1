#pragma once

#include <QSet>
#include <QString>

namespace gf {

/// Texts that repeat across many rows (a provider, a region, a GPU name, a source note) kept once: a
/// row that reads one gets the shared copy (Qt's implicit sharing) instead of its own allocation, so
/// 200,000 parsed rows hold a few hundred region strings, not 200,000. A column of unique values
/// (offer ids) stops being pooled after `limit` distinct texts.
class SharedTexts
{
public:
    explicit SharedTexts(qsizetype limit = 16384) : m_limit(limit) {}

    QString operator()(const QString &text)
    {
        if (m_pool.size() >= m_limit)
            return text;
        const auto it = m_pool.constFind(text);
        if (it != m_pool.constEnd())
            return *it;
        m_pool.insert(text);
        return text;
    }

private:
    QSet<QString> m_pool;
    qsizetype m_limit;
};

} // namespace gf

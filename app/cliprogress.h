#pragma once

#include <QElapsedTimer>
#include <QString>
#include <QTextStream>

namespace gf {

/// Progress of a refresh or import on stderr: one rewritten line on a terminal, otherwise a line
/// per step (and per 10%), so logs stay readable.
class CliProgress
{
public:
    CliProgress(QTextStream &err, bool quiet);
    void update(int permille, const QString &message);
    /// Ends a rewritten line before normal output.
    void clear();

private:
    QTextStream &m_err;
    bool m_quiet = false;
    bool m_tty = false;
    bool m_lineOpen = false;
    int m_lastDecile = -1;
    QString m_lastStep;
    QElapsedTimer m_clock;
};

} // namespace gf

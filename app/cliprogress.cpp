#include "cliprogress.h"

#include <cstdio>
#include <unistd.h>

namespace gf {

CliProgress::CliProgress(QTextStream &err, bool quiet) : m_err(err), m_quiet(quiet)
{
    // Only the real stderr of a terminal gets the rewritten line; tests capture into a string.
    m_tty = err.string() == nullptr && isatty(fileno(stderr)) != 0;
    m_clock.start();
}

void CliProgress::update(int permille, const QString &message)
{
    if (m_quiet)
        return;
    const QString line = QStringLiteral("[%1%] %2").arg(permille / 10, 3).arg(message);
    if (m_tty) {
        if (m_clock.elapsed() < 100 && permille < 1000)
            return;
        m_clock.restart();
        m_err << "\r\033[K" << line;
        m_err.flush();
        m_lineOpen = true;
        return;
    }
    const QString step = message.section(u',', 0, 0);
    const int decile = permille / 100;
    if (step == m_lastStep && decile == m_lastDecile)
        return;
    m_lastStep = step;
    m_lastDecile = decile;
    m_err << line << Qt::endl;
}

void CliProgress::clear()
{
    if (m_lineOpen) {
        m_err << "\r\033[K";
        m_err.flush();
        m_lineOpen = false;
    }
}

} // namespace gf

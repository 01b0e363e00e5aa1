// What the GUI benchmarks share (bench_ui_scale, bench_ui_start): a heartbeat that measures how long the
// event loop was blocked, and waiting for a condition while the event loop runs.
#pragma once

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <functional>

namespace gf::bench {

/// Longest gap between ticks of a 5 ms timer: how long the event loop was blocked.
class StallMeter : public QObject
{
public:
    StallMeter()
    {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, [this] {
            const qint64 now = m_clock.nsecsElapsed();
            m_worst = std::max(m_worst, now - m_last);
            m_last = now;
        });
    }
    void start()
    {
        m_clock.start();
        m_last = 0;
        m_worst = 0;
        m_timer.start();
    }
    /// The longest gap so far (the gap still open included), in ms.
    double worst() const { return std::max(m_worst, m_clock.nsecsElapsed() - m_last) / 1e6; }
    double stop()
    {
        const double w = worst();
        m_timer.stop();
        return w;
    }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0;
    qint64 m_worst = 0;
};

inline bool waitFor(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 2);
        QCoreApplication::sendPostedEvents(); // deferred deletes, layout requests
    }
    return true;
}

inline double ms(const QElapsedTimer &t)
{
    return t.nsecsElapsed() / 1e6;
}

} // namespace gf::bench

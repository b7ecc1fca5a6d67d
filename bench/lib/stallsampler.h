#pragma once

// Shared by the window benchmarks that measure event-loop stalls (bench/guistream,
// bench/bigresult): a 2 ms timer records the gaps between its ticks; a stall is what a gap
// exceeds the interval by.

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <vector>

namespace Bench {

class StallSampler
{
public:
    static constexpr int IntervalMs = 2;

    StallSampler()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(IntervalMs);
        QObject::connect(&m_timer, &QTimer::timeout,
                         [this] { m_gaps.push_back(m_tick.restart()); });
    }

    void start()
    {
        m_gaps.clear();
        m_tick.start();
        m_timer.start();
    }
    void stop() { m_timer.stop(); }

    // The stall at this percentile of the gaps (100: the longest), in ms.
    qint64 stallMs(int percentile = 100) const
    {
        if (m_gaps.empty())
            return 0;
        std::vector<qint64> sorted = m_gaps;
        std::sort(sorted.begin(), sorted.end());
        const size_t at = std::min(sorted.size() - 1, sorted.size() * size_t(percentile) / 100);
        return std::max<qint64>(0, sorted[at] - IntervalMs);
    }

private:
    QTimer m_timer;
    QElapsedTimer m_tick;
    std::vector<qint64> m_gaps;
};

} // namespace Bench

#pragma once

#include <QCoreApplication>
#include <QTest>

#include <memory>

// Runs the event loop until every event posted before the call has been delivered (posted
// events are delivered in order): what an earlier action queued (a queued call, a 0 ms single
// shot, a deferred callback, a posted LanguageChange or LayoutRequest) has run by the time it
// returns. The later event that a "nothing more happened" check waits for when the thing
// that must not happen would be posted. False if the loop did not get there in `timeoutMs`.
inline bool deliverPostedEvents(int timeoutMs = 5000)
{
    const auto delivered = std::make_shared<bool>(false);
    QMetaObject::invokeMethod(
            QCoreApplication::instance(), [delivered] { *delivered = true; }, Qt::QueuedConnection);
    return QTest::qWaitFor([delivered] { return *delivered; }, timeoutMs);
}

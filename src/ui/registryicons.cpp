#include "registryicons.h"

#include <QBuffer>
#include <QImageReader>
#include <QNetworkReply>
#include <QPixmap>
#include <QTimer>

namespace Gui {

RegistryIcons::RegistryIcons(QObject *parent)
    : QObject(parent)
{
}

QString RegistryIcons::chooseIcon(const Mcp::Registry::ServerJson &server, bool dark)
{
    const QString wanted = dark ? QStringLiteral("dark") : QStringLiteral("light");
    const Mcp::Registry::Icon *chosen = nullptr;
    for (const Mcp::Registry::Icon &icon : server.icons) {
        if (icon.mimeType.contains(QLatin1String("svg"), Qt::CaseInsensitive))
            continue; // never decoded: an SVG is a program of its own
        if (icon.theme == wanted)
            return icon.src;
        if (!chosen || (chosen->theme != QString() && icon.theme.isEmpty()))
            chosen = &icon;
    }
    return chosen ? chosen->src : QString();
}

QImage RegistryIcons::decode(const QByteArray &bytes)
{
    if (bytes.isEmpty() || bytes.size() > MaxBytes)
        return {};
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    // The format is read from the bytes, and only these are accepted.
    QImageReader reader(&buffer);
    reader.setDecideFormatFromContent(true);
    reader.setAllocationLimit(16); // MiB
    const QByteArray format = reader.format().toLower();
    if (format != "png" && format != "jpeg" && format != "jpg" && format != "gif"
        && format != "webp")
        return {};
    const QSize size = reader.size();
    if (!size.isValid() || size.width() > MaxSide || size.height() > MaxSide)
        return {};
    return reader.read();
}

void RegistryIcons::request(const QString &src, QObject *context,
                            std::function<void(const QIcon &)> done)
{
    if (m_icons.contains(src)) {
        QTimer::singleShot(0, context, [done, icon = m_icons.value(src)] { done(icon); });
        return;
    }
    const bool asked = m_waiting.contains(src);
    m_waiting[src] << Waiting{context, std::move(done)};
    if (!asked) {
        m_queue.enqueue(src);
        startNext();
    }
}

void RegistryIcons::startNext()
{
    while (m_inFlight < MaxInFlight && !m_queue.isEmpty()) {
        const QString src = m_queue.dequeue();
        QNetworkRequest request{QUrl(src)};
        request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                             QNetworkRequest::NoLessSafeRedirectPolicy);
        request.setMaximumRedirectsAllowed(3);
        request.setTransferTimeout(TimeoutMs);
        request.setAttribute(QNetworkRequest::CookieSaveControlAttribute, QNetworkRequest::Manual);
        request.setAttribute(QNetworkRequest::CookieLoadControlAttribute, QNetworkRequest::Manual);
        QNetworkReply *reply = m_network.get(request);
        ++m_inFlight;
        connect(reply, &QNetworkReply::downloadProgress, reply,
                [reply](qint64 received, qint64 total) {
                    if (received > MaxBytes || total > MaxBytes)
                        reply->abort();
                });
        connect(reply, &QNetworkReply::finished, this, [this, reply, src] {
            reply->deleteLater();
            --m_inFlight;
            QIcon icon;
            if (reply->error() == QNetworkReply::NoError) {
                const QImage image = decode(reply->read(MaxBytes + 1));
                if (!image.isNull())
                    icon = QIcon(QPixmap::fromImage(image));
            }
            finished(src, icon);
            startNext();
        });
    }
}

void RegistryIcons::finished(const QString &src, const QIcon &icon)
{
    m_icons.insert(src, icon);
    const QList<Waiting> waiting = m_waiting.take(src);
    for (const Waiting &w : waiting) {
        if (w.context)
            w.done(icon);
    }
}

} // namespace Gui

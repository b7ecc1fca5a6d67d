#include "icons.h"

#include <QBuffer>
#include <QFile>
#include <QGuiApplication>
#include <QIconEngine>
#include <QImageReader>
#include <QPainter>
#include <QPalette>
#include <QPixmapCache>

namespace Gui {

namespace {

// Draws an SVG whose `currentColor` is the palette's text colour at the time of drawing.
class PaletteIconEngine final : public QIconEngine
{
public:
    explicit PaletteIconEngine(QString path)
        : m_path(std::move(path))
    {
    }

    QIconEngine *clone() const override { return new PaletteIconEngine(m_path); }
    QString key() const override { return QStringLiteral("switchboard-palette-svg"); }

    void paint(QPainter *painter, const QRect &rect, QIcon::Mode mode, QIcon::State state) override
    {
        const qreal ratio = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        QPixmap drawn = pixmap(rect.size() * ratio, mode, state);
        drawn.setDevicePixelRatio(ratio);
        painter->drawPixmap(rect, drawn);
    }

    QPixmap pixmap(const QSize &size, QIcon::Mode mode, QIcon::State) override
    {
        if (size.isEmpty())
            return QPixmap();
        const QColor color = QGuiApplication::palette().color(
                mode == QIcon::Disabled ? QPalette::Disabled : QPalette::Active,
                QPalette::WindowText);
        const QString cacheKey = QStringLiteral("sb-icon:%1:%2x%3:%4")
                                         .arg(m_path)
                                         .arg(size.width())
                                         .arg(size.height())
                                         .arg(color.name(QColor::HexArgb));
        QPixmap cached;
        if (QPixmapCache::find(cacheKey, &cached))
            return cached;
        QFile file(m_path);
        if (!file.open(QIODevice::ReadOnly))
            return QPixmap();
        // The colour as the root's `color`, which `currentColor` refers to.
        QByteArray svg = file.readAll();
        svg.replace("<svg ", "<svg color=\"" + color.name().toLatin1() + "\" ");
        QBuffer buffer(&svg);
        QImageReader reader(&buffer, "svg");
        reader.setScaledSize(size);
        const QImage image = reader.read();
        if (image.isNull())
            return QPixmap();
        QPixmap drawn = QPixmap::fromImage(image);
        if (color.alphaF() < 1.0) { // a translucent disabled colour: the whole icon so
            QPixmap faded(drawn.size());
            faded.fill(Qt::transparent);
            QPainter painter(&faded);
            painter.setOpacity(color.alphaF());
            painter.drawPixmap(0, 0, drawn);
            painter.end();
            drawn = faded;
        }
        QPixmapCache::insert(cacheKey, drawn);
        return drawn;
    }

private:
    QString m_path;
};

std::optional<bool> &overridden()
{
    static std::optional<bool> value;
    return value;
}

} // namespace

bool svgIconsAvailable()
{
    if (overridden())
        return *overridden();
    static const bool available = QImageReader::supportedImageFormats().contains("svg");
    return available;
}

void setSvgIconsAvailableForTesting(std::optional<bool> available)
{
    overridden() = available;
}

QIcon icon(const QString &name)
{
    if (!svgIconsAvailable())
        return QIcon();
    return QIcon(new PaletteIconEngine(QStringLiteral(":/icons/%1.svg").arg(name)));
}

} // namespace Gui

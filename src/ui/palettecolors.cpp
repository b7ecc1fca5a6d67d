#include "palettecolors.h"

namespace Gui {

namespace {

// `tint` laid over the palette's base at `alpha` (0–255).
QColor over(const QPalette &palette, QColor tint, int alpha)
{
    const QColor base = palette.color(QPalette::Base);
    const auto mix = [alpha](int under, int above) {
        return (under * (255 - alpha) + above * alpha) / 255;
    };
    return QColor(mix(base.red(), tint.red()), mix(base.green(), tint.green()),
                  mix(base.blue(), tint.blue()));
}

} // namespace

bool isDark(const QPalette &palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor errorColor(const QPalette &palette)
{
    return isDark(palette) ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
}

QColor dimColor(const QPalette &palette)
{
    return palette.color(QPalette::PlaceholderText);
}

QColor addedBackground(const QPalette &palette)
{
    return over(palette, QColor(0x2e, 0xa0, 0x43), isDark(palette) ? 70 : 45);
}

QColor removedBackground(const QPalette &palette)
{
    return over(palette, QColor(0xf8, 0x51, 0x49), isDark(palette) ? 70 : 45);
}

} // namespace Gui

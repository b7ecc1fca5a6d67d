#include "icons.h"

#include <QImageReader>

namespace Gui {

namespace {

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

} // namespace Gui

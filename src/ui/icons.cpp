#include "icons.h"

#include <QImageReader>

namespace Ui {

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

} // namespace Ui

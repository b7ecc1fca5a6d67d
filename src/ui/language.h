#pragma once

#include <QString>

namespace Gui {

// The interface language. Installing it replaces the application's catalogue and Qt's own
// (standard buttons, dialogs); Qt then sends every widget a LanguageChange event, and each
// window retranslates itself (changeEvent → retranslateUi), so a switch needs no restart.
//
// `language` is a setting's value: "en", "zh_CN", or "system" (the system's locale).
// English installs the catalogue of its plural forms ("1 tool", "2 tools").
void installLanguage(const QString &language);

// The language last installed ("en" or "zh_CN"); empty before the first install.
QString installedLanguage();

} // namespace Gui

#include "modelpicker.h"

#include "settingsdialog.h"

#include <engine/llm/llm.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>

namespace Gui {

ModelPicker::ModelPicker(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("modelPicker"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setMaximumWidth(260);
    setEnabled(false);
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QString model = itemData(index).toString();
        if (!model.isEmpty() && m_provider && model != m_provider->model())
            emit modelChosen(model);
    });
}

void ModelPicker::cancelListing()
{
    if (m_cancelListing)
        std::exchange(m_cancelListing, {})();
}

void ModelPicker::retranslateUi()
{
    if (!m_provider) // with a model, the tips follow its next listing
        setProvider(nullptr);
}

void ModelPicker::setProvider(Engine::LlmProvider *provider)
{
    cancelListing();
    m_provider = provider;
    m_listedContextTokens = 0;
    clear();
    setEnabled(provider != nullptr);
    if (!provider) {
        addItem(tr("no model"));
        setToolTip(tr("Set a model in Settings"));
        return;
    }
    const QString current = provider->model();
    addItem(current, current);
    setToolTip(tr("The model that answers (reading the provider's list…)"));
    m_cancelListing = provider->listModels([this, current](Engine::ModelList list) {
        m_cancelListing = nullptr;
        if (!list.error.isEmpty()) {
            setToolTip(tr("The model that answers. The provider's list could not be read: %1")
                               .arg(list.error));
            return;
        }
        const QLocale locale;
        QSignalBlocker blocker(this); // no activated() while the list is rebuilt
        clear();
        bool found = false;
        for (const Engine::ModelInfo &model : list.models) {
            addItem(model.id, model.id);
            QStringList tip;
            if (!model.name.isEmpty())
                tip << model.name;
            if (model.contextTokens > 0)
                tip << tr("context window: %1 tokens").arg(locale.toString(model.contextTokens));
            setItemData(count() - 1, tip.join(QLatin1Char('\n')), Qt::ToolTipRole);
            if (model.id == current) {
                found = true;
                m_listedContextTokens = model.contextTokens;
            }
        }
        if (!found) // a model the provider does not list (an alias, a fine-tune) stays chosen
            insertItem(0, current, current);
        setCurrentIndex(findData(current));
        blocker.unblock();
        setToolTip(tr("The model that answers (%n models listed by the provider)", nullptr,
                      int(list.models.size())));
        emit listed();
    });
}

NoModelNotice::NoModelNotice(const QString &whyNot, const QString &keychainError, QWidget *parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("noModelNotice"));
    // The sentence ends here, not in `whyNot` too ("… \"<key>\".。").
    QString why = whyNot.trimmed();
    while (why.endsWith(u'.') || why.endsWith(QChar(0x3002)))
        why.chop(1);
    QString notice = tr("<b>Chat needs a model</b> — %1. Servers, tools and manual runs work "
                        "without one.")
                             .arg(why.toHtmlEscaped());
    if (!keychainError.isEmpty())
        notice += QLatin1Char(' ') + SettingsDialog::keychainNote(keychainError).toHtmlEscaped();
    auto *text = new QLabel(notice, this);
    text->setObjectName(QStringLiteral("noModelText"));
    text->setTextFormat(Qt::RichText);
    text->setWordWrap(true);
    auto *setUp = new QPushButton(tr("Set up a model…"), this);
    setUp->setObjectName(QStringLiteral("setUpModelButton"));
    setUp->setDefault(false);
    connect(setUp, &QPushButton::clicked, this, &NoModelNotice::setUpRequested);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 8, 8, 8);
    layout->addWidget(text, 1);
    layout->addWidget(setUp, 0, Qt::AlignVCenter);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::AlternateBase);
}

} // namespace Gui

#include "modelpicker.h"

#include <engine/llm/llm.h>

#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace Gui {

ModelPicker::ModelPicker(QWidget *parent)
    : QComboBox(parent)
{
    setObjectName(QStringLiteral("modelPicker"));
    setSizeAdjustPolicy(QComboBox::AdjustToContents);
    setMaximumWidth(260);
    setEnabled(false);
    connect(this, &QComboBox::activated, this, [this](int index) {
        const QString profile = itemData(index, ProfileRole).toString();
        if (!profile.isEmpty()) {
            // The picker shows the model in use until the window has switched.
            const int model = findData(m_provider ? m_provider->model() : QString());
            setCurrentIndex(model >= 0 ? model : count() - 1);
            if (profile != m_activeProfile)
                emit profileChosen(profile);
            return;
        }
        const QString model = itemData(index).toString();
        if (!model.isEmpty() && m_provider && model != m_provider->model())
            emit modelChosen(model);
    });
}

void ModelPicker::setProfiles(const QList<AppSettings::ModelProfile> &profiles,
                              const QString &active)
{
    m_profiles = profiles;
    m_activeProfile = active;
    updateGeometry(); // the profile's name is part of the width
    update();
}

void ModelPicker::restart()
{
    clear();
    if (m_profiles.size() < 2)
        return;
    for (const AppSettings::ModelProfile &profile : std::as_const(m_profiles)) {
        addItem(profile.shownName());
        const int row = count() - 1;
        setItemData(row, profile.id, ProfileRole);
        const QString model = profile.model.isEmpty() ? tr("its default model") : profile.model;
        setItemData(
                row,
                profile.usesEnvironment()
                        ? tr("Profile: the environment variables, %1").arg(model)
                        : tr("Profile: %1, %2")
                                  .arg(AppSettings::ModelProfile::providerName(profile.provider),
                                       model),
                Qt::ToolTipRole);
        if (profile.id == m_activeProfile) {
            QFont bold = font();
            bold.setBold(true);
            setItemData(row, bold, Qt::FontRole);
        }
    }
    insertSeparator(count());
}

void ModelPicker::addModel(const QString &model)
{
    addItem(model, model);
}

QString ModelPicker::profilePrefix() const
{
    if (m_profiles.size() < 2)
        return QString();
    for (const AppSettings::ModelProfile &profile : std::as_const(m_profiles)) {
        if (profile.id == m_activeProfile)
            return tr("%1 · %2").arg(profile.shownName(), QString());
    }
    return QString();
}

// Room for the profile's name too (within the maximum width: the text is then elided).
QSize ModelPicker::sizeHint() const
{
    QSize size = QComboBox::sizeHint();
    size.rwidth() += fontMetrics().horizontalAdvance(profilePrefix());
    return size.boundedTo(maximumSize());
}

QSize ModelPicker::minimumSizeHint() const
{
    QSize size = QComboBox::minimumSizeHint();
    size.rwidth() += fontMetrics().horizontalAdvance(profilePrefix());
    return size.boundedTo(maximumSize());
}

void ModelPicker::paintEvent(QPaintEvent *)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    // Which profile, when there is a choice: "Work · claude-sonnet-4-5", elided in the middle
    // when it is longer than the picker.
    option.currentText = profilePrefix() + option.currentText;
    const QRect field = style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                QStyle::SC_ComboBoxEditField, this);
    option.currentText
            = fontMetrics().elidedText(option.currentText, Qt::ElideMiddle, field.width());
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
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
    restart();
    setEnabled(provider != nullptr || m_profiles.size() > 1);
    if (!provider) {
        addItem(tr("no model"));
        setCurrentIndex(count() - 1);
        setToolTip(tr("Set a model in Settings"));
        return;
    }
    const QString current = provider->model();
    addModel(current);
    setCurrentIndex(count() - 1);
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
        restart();
        const int first = count();
        bool found = false;
        for (const Engine::ModelInfo &model : list.models) {
            addModel(model.id);
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
            insertItem(first, current, current);
        setCurrentIndex(findData(current));
        blocker.unblock();
        setToolTip(tr("The model that answers (%n models listed by the provider)", nullptr,
                      int(list.models.size())));
        emit listed();
    });
}

NoModelNotice::NoModelNotice(const QString &whyNot, const QString &keychainNote, QWidget *parent)
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
    if (!keychainNote.isEmpty())
        notice += QLatin1Char(' ') + keychainNote.toHtmlEscaped();
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

#include "settingsdialog.h"

#include "palettecolors.h"
#include "serversecretspage.h"

#include <engine/llm/llm.h>
#include <engine/secrets/processenvironment.h>

#include <mcp/registry/registryclient.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QScreen>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace Gui {

namespace {

QLabel *noteLabel(const QString &objectName, QWidget *parent)
{
    auto label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    return label;
}

void setErrorColor(QLabel *label)
{
    // Palette rather than a style sheet, so the look survives any app style.
    QPalette palette = label->palette();
    palette.setColor(QPalette::WindowText, errorColor(palette));
    label->setPalette(palette);
}

} // namespace

// Label and field columns on a grid: QFormLayout gives a wrapped note the height of its size
// hint rather than its height at the width it gets, so notes overlap or leave gaps.
class SettingsForm
{
public:
    explicit SettingsForm(QWidget *owner)
        : m_owner(owner)
        , m_grid(new QGridLayout)
    {
        m_grid->setColumnStretch(1, 1);
    }

    QGridLayout *layout() const { return m_grid; }
    const QList<QLabel *> &labels() const { return m_labels; }

    void addRow(const QString &label, QWidget *field)
    {
        m_grid->addWidget(field, addLabel(label, field), 1);
    }
    void addRow(const QString &label, QWidget *buddy, QLayout *field)
    {
        m_grid->addLayout(field, addLabel(label, buddy), 1);
    }
    void addNote(QWidget *note) { m_grid->addWidget(note, m_grid->rowCount(), 1); }

private:
    int addLabel(const QString &label, QWidget *buddy)
    {
        auto text = new QLabel(label, m_owner);
        text->setBuddy(buddy);
        m_labels << text;
        const int row = m_grid->rowCount();
        m_grid->addWidget(text, row, 0);
        return row;
    }

    QWidget *m_owner;
    QGridLayout *m_grid;
    QList<QLabel *> m_labels;
};

SettingsDialog::SettingsDialog(QString settingsFile, Engine::SecretStore *secrets, QWidget *parent,
                               Engine::ServerSecrets *serverSecrets,
                               QMap<QString, QStringList> secretUsage)
    : QDialog(parent)
    , m_file(std::move(settingsFile))
    , m_secrets(secrets)
{
    setObjectName(QStringLiteral("settingsDialog"));
    setWindowTitle(tr("Settings"));
    const AppSettings current = AppSettings::load(m_file);
    m_profiles = current.profiles;
    for (const AppSettings::ModelProfile &profile : std::as_const(m_profiles)) {
        m_savedProfileIds << profile.id;
        if (profile.id == current.active().id)
            m_profileIndex = int(m_savedProfileIds.size()) - 1;
    }

    SettingsForm modelForm(this);
    setUpProfileRow(current, modelForm);
    setUpModelForm(current, modelForm);
    auto modelGroup = new QGroupBox(tr("Model"), this);
    modelGroup->setLayout(modelForm.layout());
    SettingsForm toolsForm(this);
    setUpToolsForm(current, toolsForm);
    auto toolsGroup = new QGroupBox(tr("Tools"), this);
    toolsGroup->setLayout(toolsForm.layout());

    // ---- Interface
    m_languageCombo = new QComboBox(this);
    m_languageCombo->setObjectName(QStringLiteral("languageCombo"));
    m_languageCombo->addItem(tr("System"), QString::fromLatin1(AppSettings::SystemLanguage));
    // Each language in its own words, so it can be found whatever the current one is.
    m_languageCombo->addItem(QStringLiteral("English"),
                             QString::fromLatin1(AppSettings::EnglishLanguage));
    // "简体中文", spelled with escapes so no compiler's idea of the source encoding matters.
    m_languageCombo->addItem(QStringLiteral("\u7b80\u4f53\u4e2d\u6587"),
                             QString::fromLatin1(AppSettings::ChineseLanguage));
    m_languageCombo->setCurrentIndex(std::max(0, m_languageCombo->findData(current.language)));
    auto languageNote = noteLabel(QStringLiteral("languageNote"), this);
    languageNote->setText(tr("Applies as soon as the settings are saved."));
    SettingsForm interfaceForm(this);
    interfaceForm.addRow(tr("&Language:"), m_languageCombo);
    interfaceForm.addNote(languageNote);
    auto interfaceGroup = new QGroupBox(tr("Interface"), this);
    interfaceGroup->setLayout(interfaceForm.layout());

    m_saveError = noteLabel(QStringLiteral("saveError"), this);
    setErrorColor(m_saveError);
    m_saveError->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("okButton"));
    m_buttons->button(QDialogButtonBox::Cancel)->setObjectName(QStringLiteral("cancelButton"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);

    // One label column across the three groups, so the fields line up.
    int labelWidth = 0;
    for (const SettingsForm *form : {&modelForm, &toolsForm, &interfaceForm}) {
        for (QLabel *label : form->labels())
            labelWidth = std::max(labelWidth, label->sizeHint().width());
    }
    for (const SettingsForm *form : {&modelForm, &toolsForm, &interfaceForm})
        form->layout()->setColumnMinimumWidth(0, labelWidth);

    auto general = new QWidget;
    general->setObjectName(QStringLiteral("generalPage"));
    auto generalLayout = new QVBoxLayout(general);
    generalLayout->setContentsMargins(0, 0, 0, 0);
    generalLayout->addWidget(modelGroup);
    generalLayout->addWidget(toolsGroup);
    generalLayout->addWidget(interfaceGroup);
    generalLayout->addStretch(1);
    // The page scrolls where the screen is shorter than the settings (a 768-pixel laptop).
    auto generalScroll = new QScrollArea(this);
    generalScroll->setObjectName(QStringLiteral("generalScroll"));
    generalScroll->setWidgetResizable(true);
    generalScroll->setFrameShape(QFrame::NoFrame);
    generalScroll->setFocusPolicy(Qt::NoFocus);
    generalScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    generalScroll->setWidget(general);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("settingsPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(generalScroll, tr("&General"));
    auto secretsPage = new ServerSecretsPage(serverSecrets, std::move(secretUsage), this);
    connect(secretsPage, &ServerSecretsPage::secretChanged, this,
            &SettingsDialog::serverSecretChanged);
    m_pages->addTab(secretsPage, tr("Server &secrets"));

    auto layout = new QVBoxLayout(this);
    layout->addWidget(m_pages, 1);
    layout->addWidget(m_saveError);
    layout->addWidget(m_buttons);

    const QList<QWidget *> tabOrder{
            m_profileCombo,         m_addProfileButton, m_removeProfileButton, m_profileNameEdit,
            m_providerCombo,        m_baseUrlEdit,      m_modelEdit,           m_keyEdit,
            m_showKeyButton,        m_forgetKeyButton,  m_testButton,          m_requestTimeoutSpin,
            m_contextSpin,          m_seesImagesCheck,  m_pricesTable,         m_addPriceButton,
            m_removePriceButton,    m_toolTimeoutSpin,  m_observationSpin,     m_keepResultSpin,
            m_keepConversationSpin, m_startsSpin,       m_inboundSpin,         m_toolSearchSpin,
            m_pinnedEdit,           m_bashSandboxCombo, m_sensitiveFilesEdit,  m_registryEdit,
            m_languageCombo,        m_buttons};
    for (qsizetype i = 1; i < tabOrder.size(); ++i)
        setTabOrder(tabOrder.at(i - 1), tabOrder.at(i));

    connect(m_providerCombo, &QComboBox::currentIndexChanged, this,
            &SettingsDialog::providerChanged);
    connect(m_baseUrlEdit, &QLineEdit::textChanged, this, &SettingsDialog::validate);
    showProfile(m_profileIndex); // its name, the buttons, the key's state
    setMinimumWidth(560);
    // As tall as the settings, up to MaxHeight and the screen's height: the page scrolls.
    const int chrome = layout->sizeHint().height() - generalScroll->sizeHint().height();
    int height = chrome + general->sizeHint().height() + 8;
    if (const QScreen *screen = parent ? parent->screen() : QGuiApplication::primaryScreen())
        height = std::min(height, screen->availableGeometry().height() - 60);
    resize(std::max(sizeHint().width(), 640), std::min(height, MaxHeight));
}

// ---- Profiles
void SettingsDialog::setUpProfileRow(const AppSettings &current, SettingsForm &modelForm)
{
    Q_UNUSED(current)
    m_profileCombo = new QComboBox(this);
    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    for (const AppSettings::ModelProfile &profile : std::as_const(m_profiles))
        m_profileCombo->addItem(profile.shownName(), profile.id);
    m_profileCombo->setCurrentIndex(m_profileIndex);
    m_profileCombo->setToolTip(tr("The chat uses the profile shown here when you press OK; the "
                                  "model picker under the chat switches between them too"));
    m_addProfileButton = new QToolButton(this);
    m_addProfileButton->setObjectName(QStringLiteral("addProfileButton"));
    m_addProfileButton->setText(tr("Add"));
    m_addProfileButton->setToolTip(tr("A new profile: another provider, server, model or key"));
    m_removeProfileButton = new QToolButton(this);
    m_removeProfileButton->setObjectName(QStringLiteral("removeProfileButton"));
    m_removeProfileButton->setText(tr("Remove"));
    m_removeProfileButton->setToolTip(
            tr("Remove this profile; its stored key leaves the keychain when you press OK"));
    auto profileRow = new QHBoxLayout;
    profileRow->setContentsMargins(0, 0, 0, 0);
    profileRow->addWidget(m_profileCombo, 1);
    profileRow->addWidget(m_addProfileButton);
    profileRow->addWidget(m_removeProfileButton);
    m_profileNameEdit = new QLineEdit(this);
    m_profileNameEdit->setObjectName(QStringLiteral("profileNameEdit"));
    m_profileNameEdit->setMaxLength(AppSettings::MaxProfileNameLength);
    modelForm.addRow(tr("Pr&ofile:"), m_profileCombo, profileRow);
    modelForm.addRow(tr("N&ame:"), m_profileNameEdit);
    connect(m_profileCombo, &QComboBox::currentIndexChanged, this, &SettingsDialog::showProfile);
    connect(m_addProfileButton, &QToolButton::clicked, this, &SettingsDialog::addProfile);
    connect(m_removeProfileButton, &QToolButton::clicked, this, &SettingsDialog::removeProfile);
    connect(m_profileNameEdit, &QLineEdit::textEdited, this,
            [this] { m_profileCombo->setItemText(m_profileIndex, formProfile().shownName()); });
}

QString SettingsDialog::currentProfileId() const
{
    return m_profiles.value(m_profileIndex).id;
}

AppSettings::ModelProfile SettingsDialog::formProfile() const
{
    AppSettings::ModelProfile profile = m_profiles.value(m_profileIndex);
    profile.name = m_profileNameEdit->text().simplified();
    profile.provider = currentProvider();
    profile.baseUrl = m_baseUrlEdit->text().trimmed();
    profile.model = m_modelEdit->text().trimmed();
    return profile;
}

void SettingsDialog::showProfile(int index)
{
    if (index < 0 || index >= m_profiles.size())
        return;
    if (index != m_profileIndex && m_profileIndex < m_profiles.size()) {
        m_profiles[m_profileIndex] = formProfile();
        m_typedKeys.insert(currentProfileId(), m_keyEdit->text());
    }
    m_profileIndex = index;
    const AppSettings::ModelProfile &profile = m_profiles.at(index);
    {
        const QSignalBlocker blocker(m_providerCombo); // providerChanged() once, below
        m_providerCombo->setCurrentIndex(std::max(0, m_providerCombo->findData(profile.provider)));
    }
    m_profileNameEdit->setText(profile.name);
    m_profileNameEdit->setPlaceholderText(
            AppSettings::ModelProfile::providerName(profile.provider));
    m_baseUrlEdit->setText(profile.baseUrl);
    m_modelEdit->setText(profile.model);
    m_keyEdit->setText(m_typedKeys.value(profile.id));
    m_removeProfileButton->setEnabled(m_profiles.size() > 1);
    m_addProfileButton->setEnabled(m_profiles.size() < AppSettings::MaxProfiles);
    showTestResult(QString(), false);
    providerChanged();
}

void SettingsDialog::addProfile()
{
    m_profiles[m_profileIndex] = formProfile();
    AppSettings::ModelProfile profile;
    profile.id = AppSettings::newProfileId(m_profiles);
    profile.name = tr("Profile %1").arg(m_profiles.size() + 1);
    profile.provider = QString::fromLatin1(AppSettings::OpenAiProvider);
    m_profiles << profile;
    m_keyStates.insert(profile.id, KeyState{KeyState::NotStored, QString()});
    m_profileCombo->addItem(profile.shownName(), profile.id);
    m_profileCombo->setCurrentIndex(m_profileCombo->count() - 1);
    m_profileNameEdit->setFocus();
    m_profileNameEdit->selectAll();
}

void SettingsDialog::removeProfile()
{
    if (m_profiles.size() < 2)
        return;
    const int index = m_profileIndex;
    m_typedKeys.remove(currentProfileId());
    m_profiles.removeAt(index);
    m_profileIndex = m_profiles.size(); // the form's profile is gone: nothing to keep
    const int next = std::min(index, int(m_profiles.size()) - 1);
    {
        const QSignalBlocker blocker(m_profileCombo);
        m_profileCombo->removeItem(index);
        m_profileCombo->setCurrentIndex(next);
    }
    showProfile(next);
}

void SettingsDialog::showTestResult(const QString &text, bool failed)
{
    m_testResult->setText(text);
    m_testResult->setVisible(!text.isEmpty());
    QPalette palette = m_testResult->palette();
    palette.setColor(QPalette::WindowText,
                     failed ? errorColor(palette) : this->palette().color(QPalette::WindowText));
    m_testResult->setPalette(palette);
    growToFit();
}

// Asks the profile in the form for its models, with the key typed, else the stored one, else
// the environment's: what the chat would send.
void SettingsDialog::testConnection()
{
    if (m_cancelTest)
        std::exchange(m_cancelTest, {})();
    m_testProvider.reset();
    const int generation = ++m_testGeneration;
    const AppSettings::ModelProfile profile = formProfile();
    const auto ask = [this, generation, profile](const QString &key) {
        if (generation != m_testGeneration)
            return;
        AppSettings settings = this->settings();
        QString whyNot;
        const auto config = settings.providerConfig(
                profile, key, Engine::ProcessEnvironment::original(), &whyNot);
        if (!config) {
            m_testButton->setEnabled(true);
            showTestResult(tr("Not connected: %1").arg(whyNot), true);
            return;
        }
        m_testProvider = Engine::createProvider(*config);
        m_cancelTest = m_testProvider->listModels([this](Engine::ModelList list) {
            m_cancelTest = nullptr;
            m_testButton->setEnabled(true);
            if (!list.error.isEmpty()) {
                showTestResult(list.error, true);
                return;
            }
            QStringList names;
            for (const Engine::ModelInfo &model : list.models) {
                if (names.size() == 8) {
                    names << QStringLiteral("…");
                    break;
                }
                names << model.id;
            }
            showTestResult(list.models.empty() ? tr("Connected to %1; it lists no models.")
                                                         .arg(m_testProvider->describe())
                                               : tr("Connected to %1; it lists %n model(s): %2",
                                                    nullptr, int(list.models.size()))
                                                         .arg(m_testProvider->describe(),
                                                              names.join(QStringLiteral(", "))),
                           false);
        });
    };
    m_testButton->setEnabled(false);
    showTestResult(tr("Asking for the list of models…"), false);
    const QString typed = m_keyEdit->text().trimmed();
    if (profile.usesEnvironment() || !typed.isEmpty() || m_forget.contains(profile.id)) {
        ask(typed);
        return;
    }
    m_secrets->read(AppSettings::keychainKey(profile.id), this,
                    [ask](const Engine::SecretStore::Result &result) { ask(result.secret); });
}

// ---- Model provider
void SettingsDialog::setUpModelForm(const AppSettings &current, SettingsForm &modelForm)
{
    m_providerCombo = new QComboBox(this);
    m_providerCombo->setObjectName(QStringLiteral("providerCombo"));
    m_providerCombo->addItem(tr("Environment variables"),
                             QString::fromLatin1(AppSettings::EnvironmentProvider));
    m_providerCombo->addItem(tr("OpenAI-compatible"),
                             QString::fromLatin1(AppSettings::OpenAiProvider));
    m_providerCombo->addItem(tr("Anthropic"), QString::fromLatin1(AppSettings::AnthropicProvider));
    m_providerCombo->setCurrentIndex(
            std::max(0, m_providerCombo->findData(current.active().provider)));

    m_environmentNote = noteLabel(QStringLiteral("environmentNote"), this);
    m_environmentNote->setText(
            tr("Uses OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL (or ANTHROPIC_API_KEY, "
               "ANTHROPIC_BASE_URL and ANTHROPIC_MODEL) from the environment Switchboard was "
               "started in."));

    m_baseUrlEdit = new QLineEdit(current.active().baseUrl, this);
    m_baseUrlEdit->setObjectName(QStringLiteral("baseUrlEdit"));
    m_baseUrlEdit->setToolTip(
            tr("Leave empty for the provider's service; for a server of your own (Ollama, vLLM, "
               "llama.cpp) give its address, e.g. http://127.0.0.1:11434/v1"));
    m_baseUrlError = noteLabel(QStringLiteral("baseUrlError"), this);
    setErrorColor(m_baseUrlError);
    m_baseUrlError->hide();

    m_modelEdit = new QLineEdit(current.active().model, this);
    m_modelEdit->setObjectName(QStringLiteral("modelEdit"));

    m_keyEdit = new QLineEdit(this);
    m_keyEdit->setObjectName(QStringLiteral("apiKeyEdit"));
    m_keyEdit->setEchoMode(QLineEdit::Password);
    m_keyEdit->setClearButtonEnabled(true);
    m_showKeyButton = new QToolButton(this);
    m_showKeyButton->setObjectName(QStringLiteral("showKeyButton"));
    m_showKeyButton->setText(tr("&Show"));
    m_showKeyButton->setCheckable(true);
    m_showKeyButton->setFocusPolicy(Qt::StrongFocus);
    m_showKeyButton->setToolTip(tr("Show the key as you type it"));
    connect(m_showKeyButton, &QToolButton::toggled, this, [this](bool show) {
        m_keyEdit->setEchoMode(show ? QLineEdit::Normal : QLineEdit::Password);
    });
    m_forgetKeyButton = new QPushButton(tr("&Forget"), this);
    m_forgetKeyButton->setObjectName(QStringLiteral("forgetKeyButton"));
    m_forgetKeyButton->setAutoDefault(false);
    m_forgetKeyButton->setToolTip(tr("Remove the stored key from the keychain when you press OK"));
    connect(m_forgetKeyButton, &QPushButton::clicked, this, &SettingsDialog::forgetKey);
    auto keyRow = new QHBoxLayout;
    keyRow->setContentsMargins(0, 0, 0, 0);
    keyRow->addWidget(m_keyEdit, 1);
    keyRow->addWidget(m_showKeyButton);
    keyRow->addWidget(m_forgetKeyButton);
    m_keyStateLabel = noteLabel(QStringLiteral("keyStateLabel"), this);
    m_keychainNote = noteLabel(QStringLiteral("keychainNote"), this);
    setErrorColor(m_keychainNote);
    m_keychainNote->hide();
    connect(m_keyEdit, &QLineEdit::textEdited, this, [this] {
        m_forget.remove(currentProfileId());
        showKeyState();
    });
    m_testButton = new QPushButton(tr("Test &connection"), this);
    m_testButton->setObjectName(QStringLiteral("testConnectionButton"));
    m_testButton->setAutoDefault(false);
    m_testButton->setToolTip(tr("Ask the provider for its models with this profile's address "
                                "and key"));
    connect(m_testButton, &QPushButton::clicked, this, &SettingsDialog::testConnection);
    m_testResult = noteLabel(QStringLiteral("testResult"), this);
    m_testResult->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_testResult->hide();
    auto testRow = new QHBoxLayout;
    testRow->setContentsMargins(0, 0, 0, 0);
    testRow->addWidget(m_testButton);
    testRow->addStretch(1);

    m_requestTimeoutSpin = new QSpinBox(this);
    m_requestTimeoutSpin->setObjectName(QStringLiteral("requestTimeoutSpin"));
    m_requestTimeoutSpin->setRange(AppSettings::MinRequestTimeoutS,
                                   AppSettings::MaxRequestTimeoutS);
    m_requestTimeoutSpin->setSuffix(tr(" s"));
    m_requestTimeoutSpin->setValue(current.requestTimeoutS);
    m_requestTimeoutSpin->setToolTip(
            tr("How long the model may stay silent before the request fails"));

    // Every field of a form exists before its row is added (a null widget in a layout puts
    // the field at the dialog's corner instead).
    m_seesImagesCheck = new QCheckBox(this);
    m_seesImagesCheck->setObjectName(QStringLiteral("seesImagesCheck"));
    m_seesImagesCheck->setChecked(current.modelSeesImages);
    m_seesImagesCheck->setText(tr("The model sees images in tool results"));
    m_seesImagesCheck->setToolTip(tr("Turn off for a text-only model: each image is then named "
                                     "in the result's text instead"));
    m_contextSpin = new QSpinBox(this);
    m_contextSpin->setObjectName(QStringLiteral("contextTokensSpin"));
    m_contextSpin->setRange(AppSettings::MinContextTokens, AppSettings::MaxContextTokens);
    m_contextSpin->setSingleStep(8192);
    m_contextSpin->setGroupSeparatorShown(true);
    m_contextSpin->setSuffix(tr(" tokens"));
    m_contextSpin->setValue(current.contextTokens);
    m_contextSpin->setToolTip(tr("The model's context window. Longer conversations are fitted "
                                 "into it before each request: earlier tool results are "
                                 "shortened, then earlier turns left out (the chat and the "
                                 "conversation file keep everything)."));
    modelForm.addRow(tr("&Provider:"), m_providerCombo);
    modelForm.addNote(m_environmentNote);
    modelForm.addRow(tr("Base &URL:"), m_baseUrlEdit);
    modelForm.addNote(m_baseUrlError);
    modelForm.addRow(tr("&Model:"), m_modelEdit);
    modelForm.addRow(tr("API &key:"), m_keyEdit, keyRow);
    modelForm.addNote(m_keyStateLabel);
    modelForm.addNote(m_keychainNote);
    auto testWidget = new QWidget(this);
    testWidget->setLayout(testRow);
    modelForm.addNote(testWidget);
    modelForm.addNote(m_testResult);
    modelForm.addRow(tr("&Request timeout:"), m_requestTimeoutSpin);
    modelForm.addRow(tr("Context &window:"), m_contextSpin);
    modelForm.addNote(m_seesImagesCheck);
    QLayout *pricesRow = setUpPrices(current); // makes m_pricesTable
    modelForm.addRow(tr("&Prices:"), m_pricesTable, pricesRow);
}

// Prices: one row per model, US dollars per million tokens, as the provider lists them.
QLayout *SettingsDialog::setUpPrices(const AppSettings &current)
{
    m_pricesTable = new QTableWidget(0, 3, this);
    m_pricesTable->setObjectName(QStringLiteral("pricesTable"));
    // Short headers, each as wide as its words (a long one was cut, "入 $ / 百万 toker"); the
    // whole meaning in their tips.
    m_pricesTable->setHorizontalHeaderLabels({tr("Model"), tr("Input $/M"), tr("Output $/M")});
    m_pricesTable->horizontalHeaderItem(1)->setToolTip(tr("US dollars per million input tokens"));
    m_pricesTable->horizontalHeaderItem(2)->setToolTip(tr("US dollars per million output tokens"));
    m_pricesTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_pricesTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_pricesTable->horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_pricesTable->verticalHeader()->hide();
    m_pricesTable->setMaximumHeight(110);
    m_pricesTable->setTabKeyNavigation(false); // Tab leaves the table; arrows move in it
    m_pricesTable->setToolTip(tr("What each model's tokens cost, to show the cost of each turn "
                                 "and conversation in the status bar. Rows with a model and two "
                                 "numbers count."));
    for (auto it = current.prices.cbegin(); it != current.prices.cend(); ++it) {
        const int row = m_pricesTable->rowCount();
        m_pricesTable->insertRow(row);
        m_pricesTable->setItem(row, 0, new QTableWidgetItem(it.key()));
        m_pricesTable->setItem(row, 1, new QTableWidgetItem(QString::number(it->inputPerMillion)));
        m_pricesTable->setItem(row, 2, new QTableWidgetItem(QString::number(it->outputPerMillion)));
    }
    m_addPriceButton = new QToolButton(this);
    m_addPriceButton->setObjectName(QStringLiteral("addPriceButton"));
    m_addPriceButton->setText(tr("Add"));
    connect(m_addPriceButton, &QToolButton::clicked, this, [this] {
        const int row = m_pricesTable->rowCount();
        m_pricesTable->insertRow(row);
        m_pricesTable->setItem(row, 0, new QTableWidgetItem(m_modelEdit->text().trimmed()));
        m_pricesTable->editItem(m_pricesTable->item(row, 0));
    });
    m_removePriceButton = new QToolButton(this);
    m_removePriceButton->setObjectName(QStringLiteral("removePriceButton"));
    m_removePriceButton->setText(tr("Remove"));
    connect(m_removePriceButton, &QToolButton::clicked, this, [this] {
        if (m_pricesTable->currentRow() >= 0)
            m_pricesTable->removeRow(m_pricesTable->currentRow());
    });
    auto *priceButtons = new QVBoxLayout;
    priceButtons->addWidget(m_addPriceButton);
    priceButtons->addWidget(m_removePriceButton);
    priceButtons->addStretch(1);
    auto *pricesRow = new QHBoxLayout;
    pricesRow->addWidget(m_pricesTable, 1);
    pricesRow->addLayout(priceButtons);
    return pricesRow;
}

// ---- Tools
void SettingsDialog::setUpToolsForm(const AppSettings &current, SettingsForm &toolsForm)
{
    m_toolTimeoutSpin = new QSpinBox(this);
    m_toolTimeoutSpin->setObjectName(QStringLiteral("toolTimeoutSpin"));
    m_toolTimeoutSpin->setRange(AppSettings::MinToolTimeoutS, AppSettings::MaxToolTimeoutS);
    m_toolTimeoutSpin->setSuffix(tr(" s"));
    m_toolTimeoutSpin->setValue(current.toolTimeoutS);
    m_toolTimeoutSpin->setToolTip(
            tr("How long a tool call may run; a server's \"timeout\" in .mcp.json wins"));
    m_observationSpin = new QSpinBox(this);
    m_observationSpin->setObjectName(QStringLiteral("observationCharsSpin"));
    m_observationSpin->setRange(AppSettings::MinObservationChars, AppSettings::MaxObservationChars);
    m_observationSpin->setSingleStep(1000);
    m_observationSpin->setGroupSeparatorShown(true);
    m_observationSpin->setSuffix(tr(" characters"));
    m_observationSpin->setValue(current.observationChars);
    m_observationSpin->setToolTip(tr("How much of a tool's result the model reads; the rest is "
                                     "cut with a note (the chat shows the whole result)"));
    m_keepResultSpin = new QSpinBox(this);
    m_keepResultSpin->setObjectName(QStringLiteral("keepResultSpin"));
    m_keepResultSpin->setRange(0, AppSettings::MaxKeepResultMiB);
    m_keepResultSpin->setSuffix(tr(" MB"));
    m_keepResultSpin->setValue(current.keepResultMiB);
    m_keepResultSpin->setToolTip(tr("Each tool's whole result up to this size is kept with the "
                                    "conversation, so that a reopened conversation shows it as "
                                    "it was; a larger one keeps the model's share only, and "
                                    "says so. 0 keeps none."));
    m_keepConversationSpin = new QSpinBox(this);
    m_keepConversationSpin->setObjectName(QStringLiteral("keepConversationSpin"));
    m_keepConversationSpin->setRange(0, AppSettings::MaxKeepConversationMiB);
    m_keepConversationSpin->setSuffix(tr(" MB"));
    m_keepConversationSpin->setValue(current.keepConversationMiB);
    m_keepConversationSpin->setToolTip(tr("All the whole results one conversation keeps; past "
                                          "this, later results keep the model's share only."));
    m_startsSpin = new QSpinBox(this);
    m_startsSpin->setObjectName(QStringLiteral("maxConcurrentStartsSpin"));
    m_startsSpin->setRange(1, AppSettings::MaxConcurrentStarts);
    m_startsSpin->setValue(current.maxConcurrentStarts);
    m_startsSpin->setToolTip(tr("At most this many servers start at the same time; the others "
                                "wait for their turn"));
    m_inboundSpin = new QSpinBox(this);
    m_inboundSpin->setObjectName(QStringLiteral("maxInboundTasksSpin"));
    m_inboundSpin->setRange(1, AppSettings::MaxInboundTasks);
    m_inboundSpin->setValue(current.maxInboundTasks);
    m_inboundSpin->setToolTip(tr("When this workspace is served as an agent (Agents dock): at "
                                 "most this many remote tasks run at once; more are refused "
                                 "(HTTP 429)"));
    m_toolSearchSpin = new QSpinBox(this);
    m_toolSearchSpin->setObjectName(QStringLiteral("toolSearchSpin"));
    m_toolSearchSpin->setRange(0, AppSettings::MaxToolSearchThreshold);
    m_toolSearchSpin->setSpecialValueText(tr("never"));
    m_toolSearchSpin->setSuffix(tr(" tools"));
    m_toolSearchSpin->setValue(current.toolSearchThreshold);
    m_toolSearchSpin->setToolTip(
            tr("With more tools than this, the model is given the built-in and pinned tools and "
               "finds the servers' tools with search_tools, instead of every definition in every "
               "request"));
    m_pinnedEdit = new QLineEdit(current.pinnedTools.join(QLatin1Char(' ')), this);
    m_pinnedEdit->setObjectName(QStringLiteral("pinnedToolsEdit"));
    m_pinnedEdit->setPlaceholderText(tr("mcp__server__tool …"));
    m_pinnedEdit->setToolTip(tr("Tool names (as the model sees them) separated by spaces: always "
                                "offered, even when the model searches for the others"));
    m_bashSandboxCombo = new QComboBox(this);
    m_bashSandboxCombo->setObjectName(QStringLiteral("bashSandboxCombo"));
    m_bashSandboxCombo->addItem(tr("Where bubblewrap works"),
                                QVariant::fromValue(int(Mcp::Sandbox::Mode::Auto)));
    m_bashSandboxCombo->addItem(tr("Always (fail without bubblewrap)"),
                                QVariant::fromValue(int(Mcp::Sandbox::Mode::On)));
    m_bashSandboxCombo->addItem(tr("Never"), QVariant::fromValue(int(Mcp::Sandbox::Mode::Off)));
    m_bashSandboxCombo->setCurrentIndex(
            std::max(0, m_bashSandboxCombo->findData(int(current.bashSandbox))));
    m_bashSandboxCombo->setToolTip(
            tr("In the sandbox, bash commands can write only in the workspace and a private "
               "/tmp; the rest of the file system is read-only"));
    m_sensitiveFilesEdit = new QLineEdit(current.sensitiveFiles.join(QLatin1Char(' ')), this);
    m_sensitiveFilesEdit->setObjectName(QStringLiteral("sensitiveFilesEdit"));
    m_sensitiveFilesEdit->setToolTip(
            tr("Wildcards separated by spaces, matched against each part of a path in the "
               "workspace. read_file and list_dir ask before touching a match; search_files "
               "does not search inside one unless you allow it."));
    toolsForm.addRow(tr("&Tool timeout:"), m_toolTimeoutSpin);
    toolsForm.addRow(tr("Result si&ze for the model:"), m_observationSpin);
    toolsForm.addRow(tr("W&hole results kept, each:"), m_keepResultSpin);
    toolsForm.addRow(tr("Whole results kept, per conv&ersation:"), m_keepConversationSpin);
    toolsForm.addRow(tr("Servers starting at o&nce:"), m_startsSpin);
    toolsForm.addRow(tr("Remote tasks at once:"), m_inboundSpin);
    toolsForm.addRow(tr("Search tools a&bove:"), m_toolSearchSpin);
    toolsForm.addRow(tr("&Pinned tools:"), m_pinnedEdit);
    toolsForm.addRow(tr("Sand&box for bash:"), m_bashSandboxCombo);
    toolsForm.addRow(tr("Sensiti&ve files:"), m_sensitiveFilesEdit);
    m_registryEdit = new QLineEdit(current.registryUrl, this);
    m_registryEdit->setObjectName(QStringLiteral("registryUrlEdit"));
    m_registryEdit->setPlaceholderText(
            QString::fromLatin1(Mcp::Registry::RegistryClient::DefaultBaseUrl));
    m_registryEdit->setToolTip(tr("Where \"Add server…\" searches for servers: the official MCP "
                                  "Registry unless you name another (your company's own)"));
    m_registryError = noteLabel(QStringLiteral("registryUrlError"), this);
    setErrorColor(m_registryError);
    m_registryError->hide();
    toolsForm.addRow(tr("MCP Re&gistry:"), m_registryEdit);
    toolsForm.addNote(m_registryError);
    connect(m_registryEdit, &QLineEdit::textChanged, this, &SettingsDialog::validate);
}

QString SettingsDialog::keychainNote(const QString &reason, const QString &variable)
{
    return tr("No keychain answers here (%1), so an API key typed here lasts only until "
              "Switchboard quits. To keep one, set %2 in the environment Switchboard starts in "
              "and leave the key here empty.")
            .arg(reason, variable);
}

AppSettings SettingsDialog::settings() const
{
    AppSettings result;
    result.profiles = m_profiles;
    if (m_profileIndex < result.profiles.size())
        result.profiles[m_profileIndex] = formProfile();
    result.activeProfile = currentProfileId();
    result.requestTimeoutS = m_requestTimeoutSpin->value();
    result.toolTimeoutS = m_toolTimeoutSpin->value();
    result.maxConcurrentStarts = m_startsSpin->value();
    result.maxInboundTasks = m_inboundSpin->value();
    result.observationChars = m_observationSpin->value();
    result.keepResultMiB = m_keepResultSpin->value();
    result.keepConversationMiB = m_keepConversationSpin->value();
    result.contextTokens = m_contextSpin->value();
    result.modelSeesImages = m_seesImagesCheck->isChecked();
    result.toolSearchThreshold = m_toolSearchSpin->value();
    for (const QString &name : m_pinnedEdit->text().split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        if (!result.pinnedTools.contains(name))
            result.pinnedTools << name;
    }
    result.language = m_languageCombo->currentData().toString();
    result.bashSandbox = Mcp::Sandbox::Mode(m_bashSandboxCombo->currentData().toInt());
    for (int row = 0; row < m_pricesTable->rowCount(); ++row) {
        const auto text = [this, row](int column) {
            const QTableWidgetItem *item = m_pricesTable->item(row, column);
            return item ? item->text().trimmed() : QString();
        };
        // A price as the user's locale writes numbers, or with a dot; -1 when neither.
        const auto price = [&text](int column) {
            bool ok = false;
            double value = QLocale().toDouble(text(column), &ok);
            if (!ok)
                value = text(column).toDouble(&ok);
            return ok && value >= 0 ? value : -1.0;
        };
        const double input = price(1);
        const double output = price(2);
        if (!text(0).isEmpty() && input >= 0 && output >= 0)
            result.prices.insert(text(0), {input, output});
    }
    result.sensitiveFiles = m_sensitiveFilesEdit->text().split(
            QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    result.registryUrl = m_registryEdit->text().trimmed();
    return result;
}

QString SettingsDialog::currentProvider() const
{
    return m_providerCombo->currentData().toString();
}

void SettingsDialog::providerChanged()
{
    const AppSettings::ModelProfile selected = formProfile();
    const bool environment = selected.usesEnvironment();
    m_profileNameEdit->setPlaceholderText(
            AppSettings::ModelProfile::providerName(selected.provider));
    if (m_profileNameEdit->text().isEmpty())
        m_profileCombo->setItemText(m_profileIndex, selected.shownName());
    m_environmentNote->setVisible(environment);
    for (QWidget *widget :
         {static_cast<QWidget *>(m_baseUrlEdit), static_cast<QWidget *>(m_modelEdit),
          static_cast<QWidget *>(m_keyEdit), static_cast<QWidget *>(m_showKeyButton),
          static_cast<QWidget *>(m_forgetKeyButton)}) {
        widget->setEnabled(!environment);
    }
    if (environment) {
        m_baseUrlEdit->setPlaceholderText(QString());
        m_modelEdit->setPlaceholderText(QString());
    } else {
        Engine::ProviderConfig defaults;
        defaults.kind = selected.kind();
        m_baseUrlEdit->setPlaceholderText(defaults.effectiveBaseUrl());
        m_modelEdit->setPlaceholderText(defaults.effectiveModel());
        if (!m_keyStates.contains(selected.id))
            readKeyState(selected.id);
    }
    showKeyState();
    validate();
}

void SettingsDialog::readKeyState(const QString &profileId)
{
    m_keyStates[profileId].state = KeyState::Reading;
    m_secrets->read(AppSettings::keychainKey(profileId), this,
                    [this, profileId](const Engine::SecretStore::Result &result) {
                        KeyState &key = m_keyStates[profileId];
                        switch (result.status) {
                        case Engine::SecretStore::Result::Ok:
                            key.state
                                    = result.sessionOnly ? KeyState::SessionOnly : KeyState::Stored;
                            break;
                        case Engine::SecretStore::Result::NotFound:
                            key.state = KeyState::NotStored;
                            break;
                        case Engine::SecretStore::Result::Unavailable:
                            key.state = KeyState::Unavailable;
                            key.error = result.error;
                            break;
                        }
                        showKeyState();
                    });
}

void SettingsDialog::showKeyState()
{
    const QString provider = currentProvider();
    const QString profile = currentProfileId();
    if (provider == QLatin1String(AppSettings::EnvironmentProvider)) {
        m_keyStateLabel->hide();
        m_keychainNote->hide();
        m_keyEdit->setPlaceholderText(QString());
        return;
    }
    const KeyState key = m_keyStates.value(profile);
    const QString variable = AppSettings::environmentKeyName(provider);
    QString text;
    bool hasKey = false;
    switch (key.state) {
    case KeyState::Unknown:
    case KeyState::Reading:
        text = tr("Reading the keychain…");
        break;
    case KeyState::Stored:
        text = tr("Stored in the keychain.");
        hasKey = true;
        break;
    case KeyState::SessionOnly:
        text = tr("Kept for this session only (the keychain could not save it).");
        hasKey = true;
        break;
    case KeyState::NotStored:
        text = tr("No key stored; %1 is used if it is set.").arg(variable);
        break;
    case KeyState::Unavailable:
        text = tr("No key stored; %1 is used if it is set.").arg(variable);
        break;
    }
    if (m_forget.contains(profile))
        text = tr("The stored key is removed when you press OK.");
    else if (!m_keyEdit->text().isEmpty())
        text = hasKey ? tr("The key you typed replaces the stored one when you press OK.")
                      : tr("The key you typed is saved when you press OK.");
    m_keyStateLabel->setText(text);
    // Without a keychain the note below says it all, once.
    m_keyStateLabel->setVisible(key.state != KeyState::Unavailable);
    m_keyEdit->setPlaceholderText(hasKey && !m_forget.contains(profile)
                                          ? tr("Stored — type a new key to replace it")
                                          : tr("Paste the API key"));
    m_forgetKeyButton->setEnabled(hasKey || key.state == KeyState::Unknown
                                  || key.state == KeyState::Reading);
    m_keychainNote->setVisible(key.state == KeyState::Unavailable);
    if (key.state == KeyState::Unavailable)
        m_keychainNote->setText(keychainNote(key.error, variable));
    growToFit();
}

void SettingsDialog::growToFit()
{
    // A note appearing in a dialog already on screen needs room; wrapped labels are not
    // part of the minimum size the layout enforces.
    // Later, once the layout has taken in the change.
    QTimer::singleShot(0, this, [this] {
        if (!isVisible())
            return;
        const int needed = std::min(layout()->totalHeightForWidth(width()), int(MaxHeight));
        if (needed > height())
            resize(width(), needed);
    });
}

bool SettingsDialog::validate()
{
    const QString problem = currentProvider() == QLatin1String(AppSettings::EnvironmentProvider)
                                    ? QString()
                                    : AppSettings::checkBaseUrl(m_baseUrlEdit->text());
    m_baseUrlError->setText(problem.isEmpty() ? QString() : tr("Base URL: %1").arg(problem));
    m_baseUrlError->setVisible(!problem.isEmpty());
    const QString registry = AppSettings::checkBaseUrl(m_registryEdit->text());
    m_registryError->setText(registry.isEmpty() ? QString() : tr("MCP Registry: %1").arg(registry));
    m_registryError->setVisible(!registry.isEmpty());
    const bool ok = problem.isEmpty() && registry.isEmpty();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    growToFit();
    return ok;
}

void SettingsDialog::forgetKey()
{
    m_forget.insert(currentProfileId());
    m_keyEdit->clear();
    showKeyState();
}

void SettingsDialog::accept()
{
    if (m_pendingJobs > 0)
        return;
    if (!validate()) {
        (m_registryError->isVisible() ? m_registryEdit : m_baseUrlEdit)->setFocus();
        return;
    }
    const AppSettings result = settings();
    QString error;
    if (!result.save(m_file, &error)) {
        m_saveError->setText(error);
        m_saveError->show();
        return;
    }
    m_saveError->hide();
    m_keychainError.clear();

    // The key of each profile typed; the keys forgotten, and those of profiles removed.
    m_typedKeys.insert(currentProfileId(), m_keyEdit->text());
    QHash<QString, QString> keys;
    QSet<QString> forget = m_forget;
    for (const QString &id : std::as_const(m_savedProfileIds))
        forget.insert(id);
    for (const AppSettings::ModelProfile &profile : result.profiles) {
        if (!m_forget.contains(profile.id))
            forget.remove(profile.id);
        const QString key = m_typedKeys.value(profile.id).trimmed();
        if (!profile.usesEnvironment() && !key.isEmpty()) {
            keys.insert(profile.id, key);
            forget.remove(profile.id);
        }
    }
    m_pendingJobs = int(forget.size() + keys.size());
    if (m_pendingJobs == 0) {
        QDialog::accept();
        return;
    }
    // The dialog stays up (and inert) until the keychain has answered every job.
    for (QWidget *child : findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly))
        child->setEnabled(false);
    // A failed delete is only logged (by the store): the session copy is gone, and an
    // unreachable keychain holds nothing to delete.
    for (const QString &profile : std::as_const(forget)) {
        m_secrets->remove(AppSettings::keychainKey(profile), this,
                          [this](const Engine::SecretStore::Result &) { jobDone(); });
    }
    for (auto it = keys.cbegin(); it != keys.cend(); ++it) {
        // Said here already when the keychain could not be read: the window does not repeat it.
        const bool said = m_keyStates.value(it.key()).state == KeyState::Unavailable;
        m_secrets->write(AppSettings::keychainKey(it.key()), it.value(), this,
                         [this, said](const Engine::SecretStore::Result &written) {
                             if (written.status == Engine::SecretStore::Result::Unavailable
                                 && !said)
                                 m_keychainError = written.error;
                             jobDone();
                         });
    }
}

void SettingsDialog::jobDone()
{
    if (--m_pendingJobs == 0)
        QDialog::accept();
}

void SettingsDialog::reject()
{
    if (m_pendingJobs > 0)
        return; // the keychain is being written: the dialog closes when it has answered
    QDialog::reject();
}

} // namespace Gui

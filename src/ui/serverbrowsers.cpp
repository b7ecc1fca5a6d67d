#include "serverbrowsers.h"

#include "plainlabel.h"
#include "schemaform.h"

#include <engine/tools/skilltool.h>
#include <mcp/manager.h>

#include <QCompleter>
#include <QEvent>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPixmap>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QSplitter>
#include <QStringListModel>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QUrl>
#include <QVBoxLayout>

namespace Gui {

namespace {

using Json = Mcp::Json;

const QString ResourceKind = QStringLiteral("resource");
const QString TemplateKind = QStringLiteral("template");
const QString PromptKind = QStringLiteral("prompt");
// A form's values (strings: prompt arguments and template variables are) as a map.
std::map<std::string, std::string> stringValues(const Json &values)
{
    std::map<std::string, std::string> out;
    if (!values.is_object())
        return out;
    for (const auto &[key, value] : values.items())
        out[key] = value.is_string() ? value.get<std::string>() : value.dump();
    return out;
}

// One {…} expression of a URI template: its operator and variable names.
struct Expression
{
    QChar op;
    QStringList names;
};

std::vector<std::pair<QRegularExpressionMatch, Expression>> expressions(const QString &uriTemplate)
{
    static const QRegularExpression braces(
            QStringLiteral("\\{([+#./;?&]?)([A-Za-z0-9_.,%*:]+)\\}"));
    std::vector<std::pair<QRegularExpressionMatch, Expression>> out;
    auto it = braces.globalMatch(uriTemplate);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        Expression expression;
        expression.op = match.captured(1).isEmpty() ? QChar() : match.captured(1).at(0);
        for (QString name : match.captured(2).split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            name.remove(QRegularExpression(QStringLiteral("[*]|:[0-9]+$")));
            expression.names << name;
        }
        out.emplace_back(match, expression);
    }
    return out;
}

// What a listed resource or template stands for.
const std::string &uriOf(const Mcp::Resource &resource)
{
    return resource.uri;
}

const std::string &uriOf(const Mcp::ResourceTemplate &resourceTemplate)
{
    return resourceTemplate.uriTemplate;
}

} // namespace

Json templateSchema(const QString &uriTemplate)
{
    Json properties = Json::object();
    Json required = Json::array();
    for (const auto &[match, expression] : expressions(uriTemplate)) {
        const bool query = expression.op == QLatin1Char('?') || expression.op == QLatin1Char('&');
        for (const QString &name : expression.names) {
            properties[name.toStdString()] = {{"type", "string"}};
            if (!query)
                required.push_back(name.toStdString());
        }
    }
    return {{"type", "object"}, {"properties", properties}, {"required", required}};
}

QString expandTemplate(const QString &uriTemplate, const Json &values)
{
    QString out;
    qsizetype last = 0;
    for (const auto &[match, expression] : expressions(uriTemplate)) {
        out += uriTemplate.mid(last, match.capturedStart() - last);
        last = match.capturedEnd();
        const bool reserved
                = expression.op == QLatin1Char('+') || expression.op == QLatin1Char('#');
        const auto value = [&values](const QString &name) {
            return Mcp::stringMember(values, name.toStdString().c_str());
        };
        const auto encode = [reserved](const QString &text) {
            return reserved ? QString::fromUtf8(QUrl::toPercentEncoding(text, "/:?#[]@!$&'()*+,;="))
                            : QString::fromUtf8(QUrl::toPercentEncoding(text));
        };
        if (expression.op == QLatin1Char('?') || expression.op == QLatin1Char('&')) {
            QStringList pairs;
            for (const QString &name : expression.names) {
                if (!value(name).isEmpty())
                    pairs << name + QLatin1Char('=') + encode(value(name));
            }
            if (!pairs.isEmpty())
                out += expression.op + pairs.join(QLatin1Char('&'));
            continue;
        }
        QStringList parts;
        for (const QString &name : expression.names)
            parts << encode(value(name));
        const QChar separator = expression.op == QLatin1Char('/')   ? QLatin1Char('/')
                                : expression.op == QLatin1Char('.') ? QLatin1Char('.')
                                                                    : QLatin1Char(',');
        if (expression.op == QLatin1Char('/') || expression.op == QLatin1Char('.')
            || expression.op == QLatin1Char('#'))
            out += expression.op;
        out += parts.join(separator);
    }
    return out + uriTemplate.mid(last);
}

ServerItemBrowser::ServerItemBrowser(Mcp::Manager *manager, const QString &name, QWidget *parent)
    : QWidget(parent)
    , m_manager(manager)
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(name + QLatin1String("Tree"));
    m_tree->setColumnCount(1);
    m_tree->header()->hide();
    m_tree->setUniformRowHeights(true);
    auto left = new QWidget(this);
    auto leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_filter = new QLineEdit(left);
    m_filter->setObjectName(name + QLatin1String("Filter"));
    m_filter->setClearButtonEnabled(true);
    leftLayout->addWidget(m_filter);
    leftLayout->addWidget(m_tree, 1);
    m_refreshButton = new QPushButton(left);
    m_refreshButton->setObjectName(name + QLatin1String("RefreshButton"));
    leftLayout->addWidget(m_refreshButton);

    auto right = new QWidget(this);
    m_details = new QVBoxLayout(right);
    m_details->setContentsMargins(0, 0, 0, 0);
    m_title = plainLabel(QString(), right);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    m_title->setFont(titleFont);
    m_description = plainLabel(QString(), right);
    m_description->setObjectName(name + QLatin1String("Description"));
    m_status = plainLabel(QString(), right);
    m_status->setObjectName(name + QLatin1String("Status"));
    m_buttons = new QHBoxLayout;
    m_buttons->addWidget(m_status, 1);
    m_details->addWidget(m_title);
    m_details->addWidget(m_description);

    auto split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(left);
    split->addWidget(right);
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 2);
    auto outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(split);

    connect(m_tree, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { select(item); });
    connect(m_refreshButton, &QPushButton::clicked, this, [this] { refresh(); });
    connect(m_filter, &QLineEdit::textChanged, this, &ServerItemBrowser::applyFilter);
}

bool ServerItemBrowser::matchesFilter(const QTreeWidgetItem *item) const
{
    const QString filter = m_filter->text().trimmed();
    return filter.isEmpty() || item->text(0).contains(filter, Qt::CaseInsensitive)
           || item->toolTip(0).contains(filter, Qt::CaseInsensitive)
           || serverOf(item).contains(filter, Qt::CaseInsensitive);
}

void ServerItemBrowser::applyFilter()
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if (!kindOf(*it).isEmpty()) // an item a server listed, not a heading
            (*it)->setHidden(!matchesFilter(*it));
    }
}

void ServerItemBrowser::retranslateUi()
{
    m_refreshButton->setText(tr("&Refresh"));
    m_filter->setPlaceholderText(tr("Filter by name, URI or server"));
}

void ServerItemBrowser::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void ServerItemBrowser::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (!m_listed)
        refresh();
}

QObject *ServerItemBrowser::beginListing()
{
    m_listed = true;
    delete m_listing; // answers to an older listing are dropped
    m_listing = new QObject(this);
    m_tree->clear();
    select(nullptr);
    return m_listing;
}

QTreeWidgetItem *ServerItemBrowser::addServer(const QString &server)
{
    auto item = new QTreeWidgetItem(m_tree, {server});
    QFont bold = item->font(0);
    bold.setBold(true);
    item->setFont(0, bold);
    item->setExpanded(true);
    return item;
}

QTreeWidgetItem *ServerItemBrowser::addItem(QTreeWidgetItem *parent, const QString &text,
                                            const QString &kind, const QString &server,
                                            const QVariant &value, const QString &detail)
{
    auto *item = new QTreeWidgetItem(parent, {text});
    item->setData(0, KindRole, kind);
    item->setData(0, ServerRole, server);
    item->setData(0, ItemRole, value);
    item->setToolTip(0, detail);
    item->setHidden(!matchesFilter(item)); // lists come after the filter was typed
    return item;
}

QString ServerItemBrowser::kindOf(const QTreeWidgetItem *item)
{
    return item ? item->data(0, KindRole).toString() : QString();
}

QString ServerItemBrowser::serverOf(const QTreeWidgetItem *item)
{
    return item ? item->data(0, ServerRole).toString() : QString();
}

Mcp::Client *ServerItemBrowser::clientOf(const QTreeWidgetItem *item)
{
    Mcp::Client *client = m_manager->client(serverOf(item));
    if (!client)
        m_status->setText(tr("The server is not connected."));
    return client;
}

void ServerItemBrowser::offerCompletions(SchemaForm *form, const QTreeWidgetItem *item,
                                         const Mcp::CompletionReference &reference)
{
    Mcp::Client *client = m_manager->client(serverOf(item));
    if (!client || !client->capabilities().completions)
        return;
    const QString server = serverOf(item);
    for (const QString &name : form->properties()) {
        auto *edit = qobject_cast<QLineEdit *>(form->editor(name));
        if (!edit)
            continue;
        auto *model = new QStringListModel(edit);
        auto *completer = new QCompleter(model, edit);
        completer->setCaseSensitivity(Qt::CaseInsensitive);
        completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
        edit->setCompleter(completer);
        // One question at a time per field: a newer keystroke drops the older answer.
        auto generation = std::make_shared<int>(0);
        connect(edit, &QLineEdit::textEdited, edit,
                [this, form, edit, model, completer, name, reference, server, generation] {
                    Mcp::Client *client = m_manager->client(server);
                    if (!client)
                        return;
                    std::map<std::string, std::string> others;
                    for (const QString &other : form->properties()) {
                        auto *field = qobject_cast<QLineEdit *>(form->editor(other));
                        if (field && other != name && !field->text().isEmpty())
                            others[other.toStdString()] = field->text().toStdString();
                    }
                    const int asked = ++*generation;
                    Mcp::complete(client, reference, name.toStdString(), edit->text().toStdString(),
                                  others, edit,
                                  [edit, model, completer, generation,
                                   asked](const Mcp::Completion &completion) {
                                      if (asked != *generation || !completion.ok())
                                          return;
                                      const QStringList values(completion.values.begin(),
                                                               completion.values.end());
                                      model->setStringList(values);
                                      if (!values.isEmpty() && edit->hasFocus())
                                          completer->complete();
                                  });
                });
    }
}

ResourceBrowser::ResourceBrowser(Mcp::Manager *manager, QWidget *parent)
    : ServerItemBrowser(manager, QStringLiteral("resource"), parent)
{
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("templateForm"));
    m_readButton = new QPushButton(this);
    m_readButton->setObjectName(QStringLiteral("resourceReadButton"));
    m_attachButton = new QPushButton(this);
    m_attachButton->setObjectName(QStringLiteral("resourceAttachButton"));
    m_subscribeButton = new QPushButton(this);
    m_subscribeButton->setObjectName(QStringLiteral("resourceSubscribeButton"));
    m_subscribeButton->setCheckable(true);
    m_buttons->insertWidget(0, m_readButton);
    m_buttons->insertWidget(1, m_attachButton);
    m_buttons->insertWidget(2, m_subscribeButton);
    m_text = new QPlainTextEdit(this);
    m_text->setObjectName(QStringLiteral("resourcePreview"));
    m_text->setReadOnly(true);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_image = new QLabel(this);
    m_image->setObjectName(QStringLiteral("resourceImage"));
    m_image->setAlignment(Qt::AlignCenter);
    m_image->hide();
    m_details->addWidget(m_form);
    m_details->addLayout(m_buttons);
    m_details->addWidget(m_text, 1);
    m_details->addWidget(m_image, 1);

    connect(m_readButton, &QPushButton::clicked, this, &ResourceBrowser::readSelected);
    connect(m_subscribeButton, &QPushButton::clicked, this, &ResourceBrowser::toggleSubscription);
    connect(m_manager, &Mcp::Manager::serverNotification, this, &ResourceBrowser::onNotification);
    connect(m_attachButton, &QPushButton::clicked, this, [this] {
        if (m_read)
            emit attachRequested(*m_read);
    });
    retranslateUi();
    select(nullptr);
}

void ResourceBrowser::retranslateUi()
{
    ServerItemBrowser::retranslateUi();
    m_readButton->setText(tr("R&ead"));
    m_attachButton->setText(tr("Attach to &message"));
    m_attachButton->setToolTip(
            tr("The content goes with your next message, as a file you attached"));
    m_subscribeButton->setText(tr("&Watch"));
    m_subscribeButton->setToolTip(tr("Subscribe: read it again whenever the server says it "
                                     "changed"));
}

void ResourceBrowser::toggleSubscription()
{
    QTreeWidgetItem *item = m_tree->currentItem();
    if (kindOf(item) != ResourceKind)
        return;
    Mcp::Client *client = clientOf(item);
    if (!client)
        return;
    const QString uri = QString::fromStdString(valueOf<Mcp::Resource>(item).uri);
    const QString server = serverOf(item);
    const bool watch = !isWatched(server, uri);
    // Both eras: resources/subscribe, or the uri in the subscriptions/listen filter.
    client->watchResource(uri.toStdString(), watch, m_listing,
                          [this, server, uri, watch](Mcp::Response response) {
                              if (!response.ok()) {
                                  m_status->setText(tr("The server refused: %1")
                                                            .arg(QString::fromStdString(
                                                                    response.error->message)));
                                  m_subscribeButton->setChecked(isWatched(server, uri));
                                  return;
                              }
                              m_subscribeButton->setChecked(watch);
                              m_status->setText(watch ? tr("Watching it for changes.")
                                                      : tr("No longer watching it."));
                          });
}

bool ResourceBrowser::isWatched(const QString &server, const QString &uri) const
{
    const Mcp::Client *client = m_manager->client(server);
    return client && client->watchedResources().count(uri.toStdString()) > 0;
}

void ResourceBrowser::onNotification(const QString &server, const QString &method,
                                     const Json &params)
{
    if (method == QLatin1String("notifications/resources/list_changed")) {
        if (m_listed)
            refresh();
        return;
    }
    if (method != QLatin1String("notifications/resources/updated"))
        return;
    const QString uri = Mcp::stringMember(params, "uri");
    QTreeWidgetItem *item = m_tree->currentItem();
    // The resource on screen is read again; others are only marked.
    if (isWatched(server, uri) && kindOf(item) == ResourceKind && serverOf(item) == server
        && valueOf<Mcp::Resource>(item).uri == uri.toStdString()) {
        readSelected();
        m_status->setText(tr("Changed on the server; read again."));
    }
}

void ResourceBrowser::refresh()
{
    QObject *context = beginListing();
    for (const QString &server : m_manager->serverNames()) {
        Mcp::Client *client = m_manager->client(server);
        if (!client || !client->capabilities().resources)
            continue;
        QTreeWidgetItem *top = addServer(server);
        auto *resources = new QTreeWidgetItem(top, {tr("Resources (reading…)")});
        auto *templates = new QTreeWidgetItem(top, {tr("Templates (reading…)")});
        const auto fill = [this, server](QTreeWidgetItem *group, const QString &kind,
                                         const QString &label) {
            return [this, server, group, kind, label](const auto &items, const QString &error) {
                group->setText(0, error.isEmpty() ? label.arg(items.size())
                                                  : label.arg(0) + QStringLiteral(" — ") + error);
                for (const auto &entry : items) {
                    const QString uri = QString::fromStdString(uriOf(entry));
                    addItem(group, entry.name.isEmpty() ? uri : entry.name, kind, server,
                            QVariant::fromValue(entry), uri);
                }
                group->setExpanded(true);
            };
        };
        Mcp::listResources(client, context, fill(resources, ResourceKind, tr("Resources (%1)")));
        Mcp::listResourceTemplates(client, context,
                                   fill(templates, TemplateKind, tr("Templates (%1)")));
        top->setExpanded(true);
    }
}

void ResourceBrowser::select(QTreeWidgetItem *item)
{
    m_read.reset();
    m_attachButton->setEnabled(false);
    m_text->clear();
    m_text->show();
    m_image->hide();
    m_status->clear();
    const QString kind = kindOf(item);
    m_readButton->setEnabled(!kind.isEmpty());
    const Mcp::Client *client = kind == ResourceKind ? m_manager->client(serverOf(item)) : nullptr;
    const bool canSubscribe = client && client->capabilities().resourcesSubscribe;
    m_subscribeButton->setVisible(canSubscribe);
    m_subscribeButton->setChecked(
            canSubscribe
            && isWatched(serverOf(item), QString::fromStdString(valueOf<Mcp::Resource>(item).uri)));
    m_form->setVisible(kind == TemplateKind);
    if (kind.isEmpty()) {
        m_title->setText(item ? item->text(0) : tr("Select a resource"));
        m_description->setText(m_tree->topLevelItemCount() == 0
                                       ? tr("No connected server offers resources.")
                                       : QString());
        return;
    }
    m_title->setText(item->text(0));
    const auto describe = [this](const auto &entry) {
        QStringList lines;
        if (!entry.description.isEmpty())
            lines << entry.description;
        lines << QString::fromStdString(uriOf(entry));
        if (!entry.mimeType.isEmpty())
            lines << entry.mimeType;
        m_description->setText(lines.join(QLatin1Char('\n')));
    };
    if (kind == ResourceKind) {
        describe(valueOf<Mcp::Resource>(item));
        return;
    }
    const auto entry = valueOf<Mcp::ResourceTemplate>(item);
    describe(entry);
    m_form->setSchema(templateSchema(QString::fromStdString(entry.uriTemplate)));
    offerCompletions(m_form, item,
                     {Mcp::CompletionReference::Kind::ResourceTemplate, entry.uriTemplate});
}

void ResourceBrowser::readSelected()
{
    QTreeWidgetItem *item = m_tree->currentItem();
    const QString kind = kindOf(item);
    if (kind.isEmpty())
        return;
    QString uri = QString::fromStdString(valueOf<Mcp::Resource>(item).uri);
    if (kind == TemplateKind) {
        QString error;
        const Json values = m_form->values(&error);
        if (values.is_null()) {
            m_status->setText(error);
            return;
        }
        uri = expandTemplate(
                QString::fromStdString(valueOf<Mcp::ResourceTemplate>(item).uriTemplate), values);
    }
    Mcp::Client *client = clientOf(item);
    if (!client)
        return;
    m_status->setText(tr("Reading %1…").arg(uri));
    m_readButton->setEnabled(false);
    Mcp::readResource(client, uri.toStdString(), m_listing,
                      [this, uri](const Mcp::ReadResourceResult &result) {
                          m_readButton->setEnabled(true);
                          showRead(uri, result);
                      });
}

void ResourceBrowser::showRead(const QString &uri, const Mcp::ReadResourceResult &result)
{
    if (!result.ok()) {
        m_status->setText(
                tr("Could not read it: %1").arg(QString::fromStdString(result.error->message)));
        emit readFinished(false);
        return;
    }
    QString text;
    std::optional<Engine::Attachment> attachment;
    for (const Mcp::ResourceContents &content : result.contents) {
        const QString &mime = content.mimeType;
        if (content.isText()) {
            text += *content.text;
            continue;
        }
        const QByteArray &blob = content.blob;
        QImage image;
        if (Engine::Attachment::isModelImageType(mime)
            && blob.size() <= Engine::Attachment::MaxImageBytes && image.loadFromData(blob)) {
            m_image->setPixmap(QPixmap::fromImage(
                    image.width() > 480 || image.height() > 360
                            ? image.scaled(480, 360, Qt::KeepAspectRatio, Qt::SmoothTransformation)
                            : image));
            m_image->show();
            m_text->hide();
            attachment = Engine::Attachment{uri, mime, blob};
        } else {
            text += content.describe() + QLatin1Char('\n');
        }
    }
    if (!attachment && !text.isEmpty()) {
        QByteArray bytes = text.toUtf8();
        const bool cut = bytes.size() > Engine::Attachment::MaxTextBytes;
        if (cut)
            bytes.truncate(Engine::Attachment::MaxTextBytes);
        attachment = Engine::Attachment{uri, QStringLiteral("text/plain"), bytes};
        m_status->setText(cut ? tr("Read; only its first 256 KiB can be attached.") : tr("Read."));
    } else {
        m_status->setText(tr("Read."));
    }
    m_text->setPlainText(cutText(text, PreviewChars));
    m_read = attachment;
    m_attachButton->setEnabled(m_read.has_value());
    emit readFinished(true);
}

PromptBrowser::PromptBrowser(Mcp::Manager *manager, QWidget *parent)
    : ServerItemBrowser(manager, QStringLiteral("prompt"), parent)
{
    m_form = new SchemaForm(this);
    m_form->setObjectName(QStringLiteral("promptForm"));
    auto formScroll = new QScrollArea(this);
    formScroll->setWidgetResizable(true);
    formScroll->setWidget(m_form);
    m_getButton = new QPushButton(this);
    m_getButton->setObjectName(QStringLiteral("promptGetButton"));
    m_useButton = new QPushButton(this);
    m_useButton->setObjectName(QStringLiteral("promptUseButton"));
    m_buttons->insertWidget(0, m_getButton);
    m_buttons->insertWidget(1, m_useButton);
    m_messages = new QPlainTextEdit(this);
    m_messages->setObjectName(QStringLiteral("promptMessages"));
    m_messages->setReadOnly(true);
    m_details->addWidget(formScroll, 1);
    m_details->addLayout(m_buttons);
    m_details->addWidget(m_messages, 1);

    connect(m_getButton, &QPushButton::clicked, this, &PromptBrowser::getSelected);
    connect(m_useButton, &QPushButton::clicked, this, [this] {
        if (!m_fetched.isEmpty())
            emit useRequested(m_fetched);
    });
    retranslateUi();
    select(nullptr);
}

void PromptBrowser::retranslateUi()
{
    ServerItemBrowser::retranslateUi();
    m_getButton->setText(tr("&Get"));
    m_useButton->setText(tr("&Use in the chat"));
    m_useButton->setToolTip(tr("The prompt's messages go into the message box, to send or edit"));
}

void PromptBrowser::refresh()
{
    QObject *context = beginListing();
    for (const QString &server : m_manager->serverNames()) {
        Mcp::Client *client = m_manager->client(server);
        if (!client || !client->capabilities().prompts)
            continue;
        QTreeWidgetItem *top = addServer(server);
        Mcp::listPrompts(client, context,
                         [this, top, server](std::vector<Mcp::Prompt> items, const QString &error) {
                             if (!error.isEmpty())
                                 top->setToolTip(0, error);
                             for (const Mcp::Prompt &prompt : items) {
                                 QTreeWidgetItem *item
                                         = addItem(top, prompt.name, PromptKind, server,
                                                   QVariant::fromValue(prompt));
                                 if (m_wanted == std::pair(server, item->text(0))) {
                                     m_wanted = {};
                                     m_tree->setCurrentItem(item);
                                 }
                             }
                             top->setExpanded(true);
                         });
    }
}

void PromptBrowser::selectPrompt(const QString &server, const QString &name)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem *top = m_tree->topLevelItem(i);
        for (int j = 0; top->text(0) == server && j < top->childCount(); ++j) {
            if (top->child(j)->text(0) == name) {
                m_tree->setCurrentItem(top->child(j));
                return;
            }
        }
    }
    m_wanted = {server, name};
    if (!m_listed)
        refresh();
}

void PromptBrowser::select(QTreeWidgetItem *item)
{
    m_fetched.clear();
    m_useButton->setEnabled(false);
    m_messages->clear();
    m_status->clear();
    const bool prompt = kindOf(item) == PromptKind;
    m_getButton->setEnabled(prompt);
    if (!prompt) {
        m_title->setText(tr("Select a prompt"));
        m_description->setText(m_tree->topLevelItemCount() == 0
                                       ? tr("No connected server offers prompts.")
                                       : tr("Choose a prompt on the left to fill in its "
                                            "arguments and use it."));
        m_form->setSchema(Json::object());
        m_form->hide(); // not "takes no arguments": there is no prompt
        return;
    }
    m_form->show();
    m_form->setNoArgumentsText(tr("This prompt takes no arguments."));
    const auto entry = valueOf<Mcp::Prompt>(item);
    m_title->setText(item->text(0));
    m_description->setText(entry.description);
    // The arguments as a form of strings (MCP prompt arguments are strings).
    Json properties = Json::object();
    Json required = Json::array();
    for (const Mcp::PromptArgument &argument : entry.arguments) {
        const std::string name = argument.name.toStdString();
        if (name.empty())
            continue;
        Json property = {{"type", "string"}};
        if (!argument.description.isEmpty())
            property["description"] = argument.description.toStdString();
        properties[name] = property;
        if (argument.required)
            required.push_back(name);
    }
    m_form->setSchema({{"type", "object"}, {"properties", properties}, {"required", required}});
    offerCompletions(m_form, item,
                     {Mcp::CompletionReference::Kind::Prompt, entry.name.toStdString()});
}

void PromptBrowser::getSelected()
{
    QTreeWidgetItem *item = m_tree->currentItem();
    if (kindOf(item) != PromptKind)
        return;
    QString error;
    const Json values = m_form->values(&error);
    if (values.is_null()) {
        m_status->setText(error);
        return;
    }
    Mcp::Client *client = clientOf(item);
    if (!client)
        return;
    m_getButton->setEnabled(false);
    m_status->setText(tr("Getting the prompt…"));
    Mcp::getPrompt(
            client, item->text(0).toStdString(), stringValues(values), m_listing,
            [this](const Mcp::GetPromptResult &result) {
                m_getButton->setEnabled(true);
                if (!result.ok()) {
                    m_status->setText(tr("The server refused: %1")
                                              .arg(QString::fromStdString(result.error->message)));
                    emit promptFetched(false);
                    return;
                }
                QStringList shown;
                QStringList texts;
                for (const Mcp::PromptMessage &message : result.messages) {
                    const QString text = message.describe();
                    shown << QStringLiteral("%1: %2").arg(message.role, text);
                    texts << text;
                }
                // A server's prompt may be any size; the view and the composer get a bounded
                // part of it.
                m_messages->setPlainText(cutText(shown.join(QStringLiteral("\n\n")), PreviewChars));
                m_fetched = texts.join(QStringLiteral("\n\n"));
                const bool cut = m_fetched.size() > PreviewChars;
                m_fetched.truncate(PreviewChars);
                m_useButton->setEnabled(!m_fetched.isEmpty());
                m_status->setText(cut ? tr("%n message(s); only the first %1 characters can be "
                                           "used.",
                                           nullptr, int(texts.size()))
                                                  .arg(PreviewChars)
                                      : tr("%n message(s).", nullptr, int(texts.size())));
                emit promptFetched(true);
            });
}

SkillList::SkillList(Engine::SkillCatalog *catalog, QWidget *parent)
    : QWidget(parent)
    , m_catalog(catalog)
{
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("skillTree"));
    m_tree->setColumnCount(3);
    m_tree->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_note = plainLabel(QString(), this);
    m_note->setObjectName(QStringLiteral("skillNote"));
    auto layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_empty = plainLabel(QString(), this);
    m_empty->setObjectName(QStringLiteral("skillEmpty"));
    m_empty->setAlignment(Qt::AlignCenter);
    m_empty->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(m_note);
    layout->addWidget(m_tree, 1);
    layout->addWidget(m_empty, 1);
    if (m_catalog)
        connect(m_catalog, &Engine::SkillCatalog::changed, this, &SkillList::rebuild);
    retranslateUi();
    rebuild();
}

void SkillList::retranslateUi()
{
    m_tree->setHeaderLabels({tr("Skill"), tr("Server"), tr("Description")});
    m_note->setText(tr("Skills the servers offer. The model loads one with use_skill when a task "
                       "matches it; its files are read then, and only if they match what the "
                       "server listed (size, SHA-256, frontmatter)."));
    m_empty->setText(tr("No connected server offers skills. A server that does lists them "
                        "here as soon as it is connected."));
}

void SkillList::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SkillList::rebuild()
{
    m_tree->clear();
    const bool none = !m_catalog || m_catalog->skills().empty();
    m_tree->setVisible(!none);
    m_empty->setVisible(none);
    if (none)
        return;
    for (const Engine::SkillCatalog::Skill &skill : m_catalog->skills()) {
        auto *item = new QTreeWidgetItem(
                m_tree, {skill.entry.name(), skill.server, skill.entry.description().simplified()});
        item->setToolTip(2, skill.entry.description());
        for (const Mcp::Skills::File &file : skill.entry.files) {
            auto *child = new QTreeWidgetItem(
                    item, {file.uri, QString(), tr("%n bytes", nullptr, int(file.size))});
            child->setToolTip(0, file.digest);
        }
    }
}

} // namespace Gui

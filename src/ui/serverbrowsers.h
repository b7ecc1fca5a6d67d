#pragma once

#include <engine/llm/llm.h>
#include <mcp/client/features.h>
#include <mcp/wire/jsonrpc.h>

#include <QPointer>
#include <QSet>
#include <QTreeWidgetItem>
#include <QWidget>

class QHBoxLayout;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;
class QVBoxLayout;

namespace Engine {
class SkillCatalog;
}

namespace Mcp {
class Client;
class Manager;
} // namespace Mcp

namespace Gui {

class SchemaForm;

// What the servers offer besides tools, in the tool browser: a tree by server on the left, the
// selected item on the right. Lists are read when the page is first shown and on Refresh;
// nothing is read from a server until a person asks. The base of ResourceBrowser and
// PromptBrowser.
class ServerItemBrowser : public QWidget
{
    Q_OBJECT
public:
    QTreeWidget *tree() const { return m_tree; }
    virtual void refresh() = 0;

    // A server's text is shown (a resource) or used (a prompt's messages) up to this many
    // characters (an attachment keeps what the model may take).
    static constexpr int PreviewChars = 200000;

protected:
    ServerItemBrowser(Mcp::Manager *manager, const QString &name, QWidget *parent);
    void changeEvent(QEvent *event) override;
    void showEvent(QShowEvent *event) override;
    virtual void retranslateUi();
    virtual void select(QTreeWidgetItem *item) = 0;
    // Drops the answers to an earlier listing and empties the tree; the context for the new one.
    QObject *beginListing();
    // A server's row, bold and open.
    QTreeWidgetItem *addServer(const QString &server);
    // A row for an item a server listed (an Mcp::Resource, Mcp::ResourceTemplate or
    // Mcp::Prompt), and that item back.
    // `detail` (a resource's URI) is its tooltip, and the filter looks in it too.
    QTreeWidgetItem *addItem(QTreeWidgetItem *parent, const QString &text, const QString &kind,
                             const QString &server, const QVariant &item,
                             const QString &detail = QString());
    // The filter above the tree: the items whose name, detail or server contain its text.
    bool matchesFilter(const QTreeWidgetItem *item) const;
    void applyFilter();
    static QString kindOf(const QTreeWidgetItem *item);
    static QString serverOf(const QTreeWidgetItem *item);
    template<typename T>
    static T valueOf(const QTreeWidgetItem *item)
    {
        return item ? item->data(0, ItemRole).template value<T>() : T();
    }
    // The client of the selected item's server, or nullptr (and the status says so).
    Mcp::Client *clientOf(const QTreeWidgetItem *item);
    // While a person types in one of `form`'s text fields, the server's suggestions for it
    // (for `reference`, with the other fields as context), when the server of `item` offers
    // completions.
    void offerCompletions(SchemaForm *form, const QTreeWidgetItem *item,
                          const Mcp::CompletionReference &reference);

    enum Role { KindRole = Qt::UserRole, ServerRole, ItemRole };

    Mcp::Manager *m_manager;
    QLineEdit *m_filter;
    QTreeWidget *m_tree;
    QLabel *m_title;
    QLabel *m_description;
    QLabel *m_status;
    QPushButton *m_refreshButton;
    QVBoxLayout *m_details; // below the title and description
    QHBoxLayout *m_buttons; // the actions, then the status
    QPointer<QObject> m_listing;
    bool m_listed = false;
};

// Resources and resource templates: a resource read (text shown, an image drawn) and attached
// to the next message; a template's variables as a form.
class ResourceBrowser : public ServerItemBrowser
{
    Q_OBJECT
public:
    explicit ResourceBrowser(Mcp::Manager *manager, QWidget *parent = nullptr);

    void refresh() override;
    // Reads the selected resource (a template: with the form's values).
    void readSelected();

signals:
    // "Attach to message": the resource's content as the user's attachment.
    void attachRequested(const Engine::Attachment &attachment);
    void readFinished(bool ok);

private:
    void retranslateUi() override;
    void select(QTreeWidgetItem *item) override;
    void showRead(const QString &uri, const Mcp::ReadResourceResult &result);

    // resources/subscribe: the selected resource is read again when the server says it
    // changed (notifications/resources/updated); a list change lists again.
    void toggleSubscription();
    bool isWatched(const QString &server, const QString &uri) const;
    void onNotification(const QString &server, const QString &method, const Mcp::Json &params);

    SchemaForm *m_form;
    QPushButton *m_readButton;
    QPushButton *m_attachButton;
    QPushButton *m_subscribeButton;
    QPlainTextEdit *m_text;
    QLabel *m_image;
    std::optional<Engine::Attachment> m_read; // what was read last, ready to attach
};

// Prompts: a server's prompt with its arguments as a form; "Get" shows its messages, "Use"
// puts them in the composer.
class PromptBrowser : public ServerItemBrowser
{
    Q_OBJECT
public:
    explicit PromptBrowser(Mcp::Manager *manager, QWidget *parent = nullptr);

    void refresh() override;
    SchemaForm *form() const { return m_form; }
    void getSelected();
    // Shows SERVER's prompt NAME with its argument form (once listed: `/server:prompt`).
    void selectPrompt(const QString &server, const QString &name);

signals:
    // "Use in chat": the prompt's messages as text for the composer.
    void useRequested(const QString &text);
    void promptFetched(bool ok);

private:
    void retranslateUi() override;
    void select(QTreeWidgetItem *item) override;

    SchemaForm *m_form;
    QPushButton *m_getButton;
    QPushButton *m_useButton;
    QPlainTextEdit *m_messages;
    QString m_fetched;
    std::pair<QString, QString> m_wanted; // selectPrompt() before the list came
};

// The skills (SEP-2640) the servers list: name, server and description, and the files each
// lists. Nothing is read from a server here: a skill is loaded only when the model uses it
// (use_skill), verified first.
class SkillList : public QWidget
{
    Q_OBJECT
public:
    explicit SkillList(Engine::SkillCatalog *catalog, QWidget *parent = nullptr);
    QTreeWidget *tree() const { return m_tree; }

protected:
    void changeEvent(QEvent *event) override;

private:
    void retranslateUi();
    void rebuild();

    QPointer<Engine::SkillCatalog> m_catalog;
    QTreeWidget *m_tree;
    QLabel *m_note;
    QLabel *m_empty; // in place of the tree when no server offers a skill
};

// A resource template's variables ({name}, {+name}, {?a,b}, ...) as a flat form schema, and
// the URI with `values` put in (percent-encoded, except {+name}).
Mcp::Json templateSchema(const QString &uriTemplate);
QString expandTemplate(const QString &uriTemplate, const Mcp::Json &values);

} // namespace Gui

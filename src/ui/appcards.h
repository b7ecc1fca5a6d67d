#pragma once

#include <engine/approval/toolrunner.h>
#include <engine/apps/viewresources.h>

#include <QDateTime>
#include <QImage>
#include <QObject>
#include <QPointer>
#include <QTimer>
#include <QUrl>

#include <functional>
#include <map>
#include <memory>
#include <optional>

namespace Mcp {
class Manager;
}
namespace Engine {
class AppBridge;
class ToolRegistry;
class ToolRunner;
} // namespace Engine

class QLabel;
class QFrame;

namespace Gui {

class AppView;
class ChatView;

// The MCP Apps views of the chat: a tool card whose tool has a view (`_meta.ui.resourceUri`)
// gets room in the chat, the view is fetched (Engine::ViewResources) and shown there by the
// view plugin (appViewFactory()), and an Engine::AppBridge carries its messages: the call's
// input and result to the view, the view's calls through the gate. Live, when a conversation
// is reopened (the saved input and result sent again), and in a window of its own when the
// view asks for fullscreen or picture-in-picture.
//
// Views cost: a live view is a web page. Views out of sight for a moment are torn down
// (ui/resource-teardown first) and leave a still image until scrolled back; at most
// MaxLiveViews live at once. Where views cannot be shown, the card says so and the text stays.
class AppCards : public QObject
{
    Q_OBJECT
public:
    // What the window does for a view.
    struct Hooks
    {
        std::function<QString()> conversationId;
        // ui/message: into the composer, for the person to send.
        std::function<void(const QString &text)> suggestMessage;
        // ui/update-model-context of `server`'s view (empty: withdrawn).
        std::function<void(const QString &server, const QString &context)> setModelContext;
        // The bridge's record of each message and refusal, for the protocol log.
        std::function<void(const QString &server, bool fromView, const QString &text)> log;
        std::function<void(const QUrl &url)> openUrl;
    };

    AppCards(ChatView *chat, Mcp::Manager *manager, Engine::ToolRegistry *registry,
             Engine::ToolRunner *runner, Hooks hooks, QObject *parent = nullptr);
    ~AppCards() override;

    // The view of a run made by hand (the tool browser's result): a widget in `parent`,
    // live while it exists, or nullptr when `toolName` has no view.
    QWidget *panel(QWidget *parent, const QString &toolName, const Engine::Json &arguments,
                   const Engine::SharedToolRunResult &result);
    // Before the panels' widgets go: their views are told so.
    void releasePanels();

    // Every live view is told it goes (ui/resource-teardown); `done` once all answered or
    // after AppBridge::TeardownTimeoutMs (the window closing waits for it).
    void closeAll(std::function<void()> done);

    // For the window's own checks and tests.
    int cardCount() const { return int(m_cards.size()); }
    int liveViewCount() const;
    AppView *liveView(const QString &callId) const;
    Engine::AppBridge *bridge(const QString &callId) const;
    // What the card says instead of a view (why it cannot be shown), or empty.
    QString cardMessage(const QString &callId) const;
    // The display mode the view is in ("inline", "fullscreen", "pip").
    QString displayMode(const QString &callId) const;
    // What the sandbox refused of this card's view so far ("connect http://…", …).
    QStringList refused(const QString &callId) const;
    // Whether the card shows a still image of a view that was torn down.
    bool showsStill(const QString &callId) const;
    QStringList callIds() const;

    // A live view is a renderer process and its page (tens of MB each): a chat scrolled past
    // many views keeps this many live, the rest as still images.
    static constexpr int MaxLiveViews = 6;
    // A view out of sight this long is torn down (scrolling past does not churn).
    static constexpr int OutOfSightMs = 1500;
    // The room a view gets before it says its size, and the most it may take inline (it
    // scrolls within that); fullscreen has the window.
    static constexpr int InitialHeight = 160;
    static constexpr int MinHeight = 40;
    static constexpr int MaxInlineHeight = 640;
    // While the model writes a call, its view gets what there is of the arguments at most this
    // often (each time the whole text so far is read again), and only for arguments up to this
    // size: past it a view waits for the whole input, as a page given megabytes of half-made
    // JSON ten times a second would only stall.
    static constexpr int PartialInputMs = 100;
    static constexpr qsizetype MaxPartialInputChars = 256 * 1024;

protected:
    // The chat's palette, language or width changed: live views are told (host-context-changed).
    bool eventFilter(QObject *watched, QEvent *event) override;

signals:
    // A view went live or was torn down (for tests and benchmarks).
    void viewLive(const QString &callId);
    void viewRetired(const QString &callId);

private:
    struct Card;
    void cardShown(const QString &callId, const QString &toolName, const Engine::Json &arguments);
    void cardWriting(const QString &callId, const QString &toolName, const QString &argumentsDelta);
    void sendPartialInputs();
    void cardFinished(const QString &callId, const Engine::SharedToolRunResult &result);
    void cardsRemoving(const QStringList &callIds);
    void fetched(Card &card, const Engine::View &view);
    void place();
    void sweep();
    void goLive(Card &card);
    void retire(Card &card, const QString &reason, bool keepStill);
    void showMessage(Card &card, const QString &message);
    void showStill(Card &card);
    void clearBox(Card &card);
    QString setDisplayMode(Card &card, const QString &mode);
    void sizeChanged(Card &card, int height);
    void setHeight(Card &card, int height);
    Card &addCard(const QString &callId, const std::shared_ptr<Engine::Tool> &tool,
                  const Engine::Json &arguments, QWidget *parent);
    void askPermission(Card &card, const QString &permission, std::function<void(bool)> decide);
    void askOpenLink(Card &card, const QUrl &url, std::function<void(bool)> decide);
    Engine::Json hostContext(const Card &card) const;
    Card *find(const QString &callId) const;
    void tellContext(const QStringList &members);

    QPointer<ChatView> m_chat;
    Mcp::Manager *m_manager;
    Engine::ToolRegistry *m_registry;
    Engine::ToolRunner *m_runner;
    Hooks m_hooks;
    Engine::ViewResources m_resources;
    std::map<QString, std::unique_ptr<Card>> m_cards;
    QTimer m_sweepTimer;
    QTimer m_partialTimer;
    QWidget *m_parking; // views being torn down wait here, hidden, for their answer
    int m_panels = 0;
    int m_toldWidth = -1; // containerDimensions.width the views were last told
};

} // namespace Gui

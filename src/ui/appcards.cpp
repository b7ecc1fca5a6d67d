#include "appcards.h"

#include "appviewfactory.h"
#include "chatview.h"
#include "chatviewentry.h"

#include <engine/apps/appbridge.h>
#include <engine/tools/toolregistry.h>

#include <mcp/apps/contentpolicy.h>
#include <mcp/apps/partialinput.h>

#include <QApplication>
#include <QCloseEvent>
#include <QEvent>
#include <QFrame>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPalette>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

namespace Gui {

namespace {

// A view's own window (fullscreen or picture-in-picture): closing it brings the view back
// into its card.
class ViewWindow : public QWidget
{
public:
    std::function<void()> closed;

protected:
    void closeEvent(QCloseEvent *event) override
    {
        event->accept();
        if (auto then = std::exchange(closed, nullptr))
            then();
    }
};

// A view on its way out is heard only for its answer to ui/resource-teardown.
void disarm(AppView *view, bool keepMessages)
{
    if (!view)
        return;
    if (!keepMessages)
        view->onPosted = nullptr;
    view->onFailed = nullptr;
    view->onBlocked = nullptr;
    view->onPermission = nullptr;
}

qint64 now()
{
    return QDateTime::currentMSecsSinceEpoch();
}

Engine::Json resultJson(const Engine::ToolRunResult &result)
{
    Engine::Json json{{"content", result.output.content}, {"isError", result.output.isError}};
    if (!result.output.structuredContent.is_null())
        json["structuredContent"] = result.output.structuredContent;
    return json;
}

std::optional<QString> cancelReason(const Engine::ToolRunResult &result)
{
    if (result.denied)
        return QStringLiteral("The call was denied.");
    if (result.timedOut)
        return QStringLiteral("The call timed out.");
    if (result.cancelled)
        return QStringLiteral("The call was stopped.");
    return std::nullopt;
}

} // namespace

struct AppCards::Card
{
    QString callId;
    QString server;
    QString toolName; // the registry's
    std::string uri;
    Engine::Json tool;      // name, description, inputSchema: hostContext.toolInfo
    Engine::Json arguments; // null until known
    // While the model writes the call: the arguments' text so far, and the object last sent
    // of it (ui/notifications/tool-input-partial).
    QString partialText;
    bool partialChanged = false;
    Engine::Json partial;
    std::optional<Engine::Json> result;
    std::optional<QString> cancelled;

    bool fetched = false;
    Engine::View view;
    int height = InitialHeight;

    // Over the card's room, a child of the chat's viewport; or, for a panel (the tool
    // browser's), in the panel's parent, which owns it.
    QPointer<QFrame> box;
    bool panel = false;
    QPointer<AppView> live;
    QPointer<Engine::AppBridge> bridge;
    QPointer<ViewWindow> window;
    QString mode = QStringLiteral("inline");
    QImage still;
    QString message;
    QStringList refused;
    bool visible = false;
    qint64 lastSeen = 0;
};

AppCards::AppCards(ChatView *chat, Mcp::Manager *manager, Engine::ToolRegistry *registry,
                   Engine::ToolRunner *runner, Hooks hooks, QObject *parent)
    : QObject(parent)
    , m_chat(chat)
    , m_manager(manager)
    , m_registry(registry)
    , m_runner(runner)
    , m_hooks(std::move(hooks))
    , m_resources(manager)
    , m_parking(new QWidget)
{
    m_parking->setAttribute(Qt::WA_DontShowOnScreen);
    m_sweepTimer.setSingleShot(true);
    m_sweepTimer.setInterval(OutOfSightMs);
    connect(&m_sweepTimer, &QTimer::timeout, this, &AppCards::sweep);
    m_partialTimer.setSingleShot(true);
    m_partialTimer.setInterval(PartialInputMs);
    connect(&m_partialTimer, &QTimer::timeout, this, &AppCards::sendPartialInputs);
    connect(chat, &ChatView::toolCardShown, this, &AppCards::cardShown);
    connect(chat, &ChatView::toolCardWriting, this, &AppCards::cardWriting);
    connect(chat, &ChatView::toolCardFinished, this, &AppCards::cardFinished);
    connect(chat, &ChatView::toolCardsRemoving, this, &AppCards::cardsRemoving);
    connect(chat, &ChatView::viewsMoved, this, &AppCards::place);
    chat->installEventFilter(this);
}

bool AppCards::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_chat) {
        switch (event->type()) {
        case QEvent::PaletteChange:
            tellContext({QStringLiteral("theme"), QStringLiteral("styles")});
            break;
        case QEvent::LanguageChange:
            tellContext({QStringLiteral("locale")});
            break;
        case QEvent::Resize:
            if (m_chat->viewport()->width() != m_toldWidth)
                tellContext({QStringLiteral("containerDimensions")});
            break;
        default:
            break;
        }
    }
    return QObject::eventFilter(watched, event);
}

void AppCards::tellContext(const QStringList &members)
{
    m_toldWidth = m_chat->viewport()->width();
    for (auto &[id, card] : m_cards) {
        if (!card->bridge)
            continue;
        const Engine::Json whole = hostContext(*card);
        Engine::Json changes = Engine::Json::object();
        for (const QString &member : members)
            changes[member.toStdString()] = whole.at(member.toStdString());
        card->bridge->hostContextChanged(changes);
    }
}

AppCards::~AppCards()
{
    for (AppView *view : m_parking->findChildren<AppView *>(Qt::FindDirectChildrenOnly))
        disarm(view, false);
    for (auto &[id, card] : m_cards) {
        disarm(card->live, false);
        delete card->window;
        delete card->bridge;
        delete card->box;
    }
    delete m_parking;
}

AppCards::Card *AppCards::find(const QString &callId) const
{
    const auto it = m_cards.find(callId);
    return it == m_cards.end() ? nullptr : it->second.get();
}

void AppCards::cardShown(const QString &callId, const QString &toolName,
                         const Engine::Json &arguments)
{
    if (Card *known = find(callId)) {
        if (known->arguments.is_null() && !arguments.is_null()) {
            known->arguments = arguments;
            known->partialText.clear();
            known->partialChanged = false;
            if (known->bridge)
                known->bridge->toolInput(arguments);
        }
        return;
    }
    const std::shared_ptr<Engine::Tool> tool = m_registry->find(toolName);
    if (!tool || tool->isBuiltin() || !tool->appUi().hasView())
        return;
    addCard(callId, tool, arguments, m_chat->viewport());
}

void AppCards::cardWriting(const QString &callId, const QString &toolName,
                           const QString &argumentsDelta)
{
    Card *card = find(callId);
    if (!card) {
        const std::shared_ptr<Engine::Tool> tool = m_registry->find(toolName);
        if (!tool || tool->isBuiltin() || !tool->appUi().hasView())
            return;
        // A view sees the arguments of a call before it runs only when the call will run
        // without asking; otherwise the view comes once the person has allowed the call, and
        // a call they deny never reaches the server's page at all.
        const QString conversation = m_hooks.conversationId ? m_hooks.conversationId() : QString();
        if (!m_runner->runsWithoutAsking(toolName, conversation))
            return;
        card = &addCard(callId, tool, Engine::Json(), m_chat->viewport());
    }
    if (!card->arguments.is_null() || card->partialText.size() > MaxPartialInputChars)
        return;
    card->partialText += argumentsDelta;
    card->partialChanged = true;
    if (!m_partialTimer.isActive())
        m_partialTimer.start();
}

void AppCards::sendPartialInputs()
{
    for (auto &[id, card] : m_cards) {
        if (!std::exchange(card->partialChanged, false) || !card->arguments.is_null()
            || card->partialText.size() > MaxPartialInputChars)
            continue;
        Engine::Json partial = Mcp::Apps::partialArguments(card->partialText.toStdString());
        if (!partial.is_object() || partial == card->partial)
            continue;
        card->partial = std::move(partial);
        if (card->bridge)
            card->bridge->toolInputPartial(card->partial);
    }
}

AppCards::Card &AppCards::addCard(const QString &callId, const std::shared_ptr<Engine::Tool> &tool,
                                  const Engine::Json &arguments, QWidget *parent)
{
    auto card = std::make_unique<Card>();
    card->callId = callId;
    card->toolName = tool->name();
    card->server = tool->source();
    card->uri = tool->appUi().resourceUri;
    card->tool = {{"name", tool->originalName().toStdString()},
                  {"description", tool->description().toStdString()},
                  {"inputSchema", tool->inputSchema()}};
    card->arguments = arguments;
    card->panel = parent != m_chat->viewport();
    card->box = new QFrame(parent);
    card->box->setObjectName(QStringLiteral("appViewBox"));
    auto *layout = new QVBoxLayout(card->box);
    layout->setContentsMargins(0, 0, 0, 0);
    Card &c = *card;
    m_cards.emplace(callId, std::move(card));

    QString why;
    if (!appViewFactory(&why)) {
        showMessage(c, tr("%1 has an interactive view that this build cannot show. %2 The "
                          "result is below as text.")
                               .arg(c.server, why));
        return c;
    }
    showMessage(c, tr("Loading the view of %1…").arg(c.server));
    setHeight(c, InitialHeight);
    m_resources.fetch(c.server, c.uri, c.box, [this, callId](const Engine::View &view) {
        if (Card *card = find(callId))
            fetched(*card, view);
    });
    return c;
}

QWidget *AppCards::panel(QWidget *parent, const QString &toolName, const Engine::Json &arguments,
                         const Engine::SharedToolRunResult &result)
{
    const std::shared_ptr<Engine::Tool> tool = m_registry->find(toolName);
    if (!tool || tool->isBuiltin() || !tool->appUi().hasView())
        return nullptr;
    Card &card = addCard(QStringLiteral("panel-%1").arg(++m_panels), tool, arguments, parent);
    cardFinished(card.callId, result);
    return card.box;
}

void AppCards::releasePanels()
{
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        Card &card = *it->second;
        if (!card.panel) {
            ++it;
            continue;
        }
        retire(card, QStringLiteral("The result was closed."), false);
        it = m_cards.erase(it); // the box is its parent's
    }
}

void AppCards::fetched(Card &card, const Engine::View &view)
{
    card.fetched = true;
    card.view = view;
    if (!view.ok()) {
        showMessage(card, tr("The view of %1 cannot be shown: %2").arg(card.server, view.error));
        return;
    }
    if (view.meta.prefersBorder.value_or(false))
        card.box->setFrameShape(QFrame::StyledPanel);
    clearBox(card);
    if (card.panel)
        goLive(card);
    else
        place(); // goes live when in sight
}

void AppCards::cardFinished(const QString &callId, const Engine::SharedToolRunResult &result)
{
    Card *card = find(callId);
    if (!card || !result)
        return;
    if (const std::optional<QString> reason = cancelReason(*result)) {
        card->cancelled = reason;
        if (card->bridge)
            card->bridge->toolCancelled(*reason);
    } else {
        card->result = resultJson(*result);
        if (card->bridge)
            card->bridge->toolResult(*card->result);
    }
}

void AppCards::cardsRemoving(const QStringList &callIds)
{
    for (const QString &id : callIds) {
        const auto it = m_cards.find(id);
        if (it == m_cards.end())
            continue;
        Card &card = *it->second;
        if (card.live && m_hooks.setModelContext)
            m_hooks.setModelContext(card.server, QString()); // the view's context goes with it
        retire(card, QStringLiteral("The card was removed."), false);
        delete card.window;
        delete card.box;
        m_cards.erase(it);
    }
}

void AppCards::closeAll(std::function<void()> done)
{
    auto left = std::make_shared<int>(1);
    auto finish = std::make_shared<std::function<void()>>(std::move(done));
    auto one = [left, finish] {
        if (--*left == 0 && *finish)
            (*finish)();
    };
    for (auto &[id, card] : m_cards) {
        if (!card->bridge)
            continue;
        ++*left;
        QPointer<AppView> view = card->live;
        QPointer<Engine::AppBridge> bridge = card->bridge;
        card->live = nullptr;
        card->bridge = nullptr;
        disarm(view, true);
        bridge->teardown(QStringLiteral("The window is closing."), [view, bridge, one] {
            delete view;
            if (bridge)
                bridge->deleteLater();
            one();
        });
    }
    one();
}

void AppCards::place()
{
    if (!m_chat)
        return;
    const QRect viewport = m_chat->viewport()->rect();
    bool outOfSight = false;
    for (auto &[id, card] : m_cards) {
        if (card->panel)
            continue;
        const QRect room = m_chat->viewRect(id);
        if (room.isNull()) {
            card->box->hide();
            card->visible = false;
            continue;
        }
        if (card->box->geometry() != room)
            card->box->setGeometry(room);
        card->box->show();
        card->visible = room.intersects(viewport);
        if (card->visible) {
            card->lastSeen = now();
            if (!card->live && card->fetched && card->view.ok() && card->message.isEmpty())
                goLive(*card);
        } else if (card->live && card->mode == QLatin1String("inline")) {
            outOfSight = true;
        }
    }
    if (outOfSight && !m_sweepTimer.isActive())
        m_sweepTimer.start();
}

void AppCards::sweep()
{
    const qint64 t = now();
    for (auto &[id, card] : m_cards) {
        if (card->live && !card->panel && !card->visible && card->mode == QLatin1String("inline")
            && t - card->lastSeen >= OutOfSightMs)
            retire(*card, QStringLiteral("The view was scrolled out of sight."), true);
    }
    place();
}

int AppCards::liveViewCount() const
{
    return int(std::count_if(m_cards.begin(), m_cards.end(),
                             [](const auto &entry) { return bool(entry.second->live); }));
}

void AppCards::goLive(Card &card)
{
    AppViewFactory *factory = appViewFactory();
    if (!factory || card.live)
        return;
    // The bound: the view seen longest ago makes room.
    while (liveViewCount() >= MaxLiveViews) {
        Card *oldest = nullptr;
        for (auto &[id, other] : m_cards) {
            if (other->live && !other->panel && other->mode == QLatin1String("inline")
                && (!oldest || other->lastSeen < oldest->lastSeen))
                oldest = other.get();
        }
        if (!oldest)
            break;
        retire(*oldest, QStringLiteral("Too many views are live."), true);
    }

    const Mcp::Apps::ContentPolicy policy(card.view.meta);
    const Mcp::Apps::ViewMeta &meta = card.view.meta;
    AppViewSpec spec;
    spec.html = card.view.html;
    spec.csp = policy.csp();
    spec.allows = [policy](const QUrl &url, Mcp::Apps::ContentPolicy::Use use) {
        return policy.allows(url, use, QUrl());
    };
    Engine::Json permissions = Engine::Json::object();
    for (const auto &[declared, name] :
         {std::pair{meta.camera, "camera"}, std::pair{meta.microphone, "microphone"},
          std::pair{meta.geolocation, "geolocation"}}) {
        if (declared) {
            spec.permissions << QString::fromLatin1(name);
            permissions[name] = Engine::Json::object();
        }
    }
    auto list = [](const QStringList &origins) {
        Engine::Json array = Engine::Json::array();
        for (const QString &origin : origins)
            array.push_back(origin.toStdString());
        return array;
    };
    Engine::AppBridge::Options options;
    options.server = card.server;
    options.conversationId = m_hooks.conversationId ? m_hooks.conversationId() : QString();
    options.hostVersion = QApplication::applicationVersion();
    options.hostContext = hostContext(card);
    options.sandbox = {{"permissions", permissions},
                       {"csp",
                        {{"connectDomains", list(policy.connectDomains())},
                         {"resourceDomains", list(policy.resourceDomains())},
                         {"frameDomains", list(policy.frameDomains())},
                         {"baseUriDomains", list(policy.baseUriDomains())}}}};

    clearBox(card);
    AppView *view = factory->create(spec, card.box);
    card.live = view;
    const QString callId = card.callId;
    const QString server = card.server;
    Engine::AppBridge::Face face;
    face.post = [view = QPointer<AppView>(view)](const QByteArray &json) {
        if (view)
            view->post(json);
    };
    face.openLink = [this, callId](const QUrl &url, std::function<void(bool)> decide) {
        if (Card *c = find(callId))
            askOpenLink(*c, url, std::move(decide));
        else
            decide(false);
    };
    face.suggestMessage = m_hooks.suggestMessage;
    face.setModelContext = [this, server](const QString &context) {
        if (m_hooks.setModelContext)
            m_hooks.setModelContext(server, context);
    };
    face.requestDisplayMode = [this, callId](const QString &mode) {
        Card *c = find(callId);
        return c ? setDisplayMode(*c, mode) : QStringLiteral("inline");
    };
    face.sizeChanged = [this, callId](int, int height) {
        if (Card *c = find(callId))
            sizeChanged(*c, height);
    };
    face.log = [this, server](bool fromView, const QString &text) {
        if (m_hooks.log)
            m_hooks.log(server, fromView, text);
    };
    auto *bridge = new Engine::AppBridge(m_manager, m_registry, m_runner, options, face, this);
    card.bridge = bridge;
    view->onPosted = [bridge = QPointer<Engine::AppBridge>(bridge)](const QByteArray &json) {
        if (bridge)
            bridge->receive(json);
    };
    view->onBlocked = [this, callId, server](const QUrl &url, const QString &what) {
        const QString entry = what + QLatin1Char(' ') + url.toDisplayString().left(300);
        if (Card *c = find(callId)) {
            if (c->refused.size() < 200)
                c->refused << entry;
        }
        if (m_hooks.log)
            m_hooks.log(server, true, tr("refused by the sandbox: %1").arg(entry));
    };
    view->onFailed = [this, callId](const QString &why) {
        if (Card *c = find(callId)) {
            retire(*c, why, false);
            showMessage(*c, tr("The view of %1 stopped: %2").arg(c->server, why));
        }
    };
    view->onPermission
            = [this, callId](const QString &permission, std::function<void(bool)> decide) {
                  if (Card *c = find(callId))
                      askPermission(*c, permission, std::move(decide));
                  else
                      decide(false);
              };
    card.box->layout()->addWidget(view);
    setHeight(card, card.height);
    if (!card.arguments.is_null())
        bridge->toolInput(card.arguments);
    else if (card.partial.is_object())
        bridge->toolInputPartial(card.partial);
    if (card.result)
        bridge->toolResult(*card.result);
    else if (card.cancelled)
        bridge->toolCancelled(*card.cancelled);
    if (m_hooks.log && !factory->note().isEmpty())
        m_hooks.log(server, false, factory->note());
    emit viewLive(card.callId);
}

void AppCards::retire(Card &card, const QString &reason, bool keepStill)
{
    if (!card.live && !card.bridge)
        return;
    if (card.window) {
        card.window->closed = nullptr;
        card.window->deleteLater();
        card.mode = QStringLiteral("inline");
    }
    QPointer<AppView> view = card.live;
    QPointer<Engine::AppBridge> bridge = card.bridge;
    card.live = nullptr;
    card.bridge = nullptr;
    if (view) {
        disarm(view, true);
        if (keepStill)
            card.still = view->still();
        // Hidden, not gone: it still answers ui/resource-teardown.
        view->hide();
        view->setParent(m_parking);
    }
    if (keepStill)
        showStill(card);
    const QString callId = card.callId;
    if (bridge) {
        bridge->teardown(reason, [view, bridge] {
            delete view;
            if (bridge)
                bridge->deleteLater();
        });
    } else {
        delete view;
    }
    emit viewRetired(callId);
}

void AppCards::clearBox(Card &card)
{
    QLayout *layout = card.box->layout();
    while (QLayoutItem *item = layout->takeAt(0)) {
        if (QWidget *widget = item->widget(); widget && widget != card.live)
            widget->deleteLater();
        delete item;
    }
    card.message.clear();
}

void AppCards::showMessage(Card &card, const QString &message)
{
    clearBox(card);
    card.message = message;
    auto *label = new QLabel(message, card.box);
    label->setObjectName(QStringLiteral("appViewMessage"));
    label->setWordWrap(true);
    label->setTextFormat(Qt::PlainText);
    label->setForegroundRole(QPalette::PlaceholderText);
    card.box->layout()->addWidget(label);
    setHeight(card,
              std::max(MinHeight, label->heightForWidth(std::max(300, card.box->width())) + 8));
}

void AppCards::showStill(Card &card)
{
    clearBox(card);
    auto *label = new QLabel(card.box);
    label->setObjectName(QStringLiteral("appViewStill"));
    label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    if (!card.still.isNull())
        label->setPixmap(QPixmap::fromImage(card.still));
    card.box->layout()->addWidget(label);
}

bool AppCards::showsStill(const QString &callId) const
{
    const Card *card = find(callId);
    return card && !card->live && card->box->findChild<QLabel *>(QStringLiteral("appViewStill"));
}

void AppCards::sizeChanged(Card &card, int height)
{
    if (height <= 0)
        return;
    setHeight(card, std::clamp(height, MinHeight, MaxInlineHeight));
}

void AppCards::setHeight(Card &card, int height)
{
    card.height = height;
    if (card.panel)
        card.box->setFixedHeight(height);
    else
        m_chat->reserveView(card.callId, height);
}

QString AppCards::setDisplayMode(Card &card, const QString &mode)
{
    if (!card.live || mode == card.mode)
        return card.mode;
    if (mode == QLatin1String("inline")) {
        if (card.window) {
            card.window->closed = nullptr;
            card.window->close();
            card.window->deleteLater();
        }
        clearBox(card);
        card.box->layout()->addWidget(card.live);
        card.live->show();
        card.mode = mode;
        return mode;
    }
    if (mode != QLatin1String("fullscreen") && mode != QLatin1String("pip"))
        return card.mode;
    const bool pip = mode == QLatin1String("pip");
    if (!card.window) {
        card.window = new ViewWindow;
        card.window->setAttribute(Qt::WA_DeleteOnClose);
        auto *layout = new QVBoxLayout(card.window);
        layout->setContentsMargins(0, 0, 0, 0);
    }
    card.window->setWindowTitle(tr("%1 — view").arg(card.server));
    card.window->setWindowFlags(pip ? Qt::Window | Qt::WindowStaysOnTopHint | Qt::Tool
                                    : Qt::Window);
    card.window->layout()->addWidget(card.live);
    card.live->show();
    const QString callId = card.callId;
    card.window->closed = [this, callId] {
        if (Card *c = find(callId)) {
            c->window = nullptr;
            setDisplayMode(*c, QStringLiteral("inline"));
            if (c->bridge)
                c->bridge->hostContextChanged({{"displayMode", "inline"}});
        }
    };
    card.mode = mode;
    auto *placeholder = new QLabel(tr("The view is shown in its own window."), card.box);
    placeholder->setForegroundRole(QPalette::PlaceholderText);
    card.box->layout()->addWidget(placeholder);
    if (pip) {
        card.window->resize(420, 320);
        card.window->show();
    } else {
        card.window->showMaximized();
    }
    return mode;
}

void AppCards::askPermission(Card &card, const QString &permission,
                             std::function<void(bool)> decide)
{
    const QString what = permission == QLatin1String("camera")        ? tr("camera")
                         : permission == QLatin1String("microphone")  ? tr("microphone")
                         : permission == QLatin1String("geolocation") ? tr("location")
                                                                      : tr("camera and microphone");
    auto *box = new QMessageBox(QMessageBox::Question, tr("Allow the view?"),
                                tr("The view of %1 asks to use your %2. Allow it for this view?")
                                        .arg(card.server, what),
                                QMessageBox::Yes | QMessageBox::No, m_chat->window());
    box->setTextFormat(Qt::PlainText);
    box->setDefaultButton(QMessageBox::No);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this,
            [decide, box] { decide(box->clickedButton() == box->button(QMessageBox::Yes)); });
    box->open();
}

void AppCards::askOpenLink(Card &card, const QUrl &url, std::function<void(bool)> decide)
{
    auto *box = new QMessageBox(
            QMessageBox::Question, tr("Open a link?"),
            tr("The view of %1 wants to open this page in your browser:\n\n%2\n\nSite: %3")
                    .arg(card.server, url.toDisplayString().left(2000), url.host()),
            QMessageBox::Open | QMessageBox::Cancel, m_chat->window());
    box->setObjectName(QStringLiteral("appViewOpenLink"));
    box->setTextFormat(Qt::PlainText); // the URL is the view's: never rich text
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::finished, this, [this, decide, box, url] {
        const bool yes = box->clickedButton() == box->button(QMessageBox::Open);
        if (yes && m_hooks.openUrl)
            m_hooks.openUrl(url);
        decide(yes);
    });
    box->open();
}

Engine::Json AppCards::hostContext(const Card &card) const
{
    const QPalette pal = m_chat->palette();
    const bool dark = isDark(pal);
    const auto color = [&pal](QPalette::ColorRole role) {
        return pal.color(role).name().toStdString();
    };
    const Engine::Json variables{
            {"--color-background-primary", color(QPalette::Base)},
            {"--color-background-secondary", color(QPalette::AlternateBase)},
            {"--color-text-primary", color(QPalette::Text)},
            {"--color-text-secondary", color(QPalette::PlaceholderText)},
            {"--color-border-primary", color(QPalette::Mid)},
            {"--color-ring-primary", color(QPalette::Highlight)},
            {"--font-sans", m_chat->font().family().toStdString() + ", sans-serif"},
            {"--font-mono", "monospace"},
            {"--border-radius-md", "6px"}};
    const QString language = QLocale().name().startsWith(QLatin1String("zh"))
                                     ? QStringLiteral("zh-CN")
                                     : QStringLiteral("en-US");
    return {{"theme", dark ? "dark" : "light"},
            {"styles", {{"variables", variables}}},
            {"displayMode", card.mode.toStdString()},
            {"availableDisplayModes", {"inline", "fullscreen", "pip"}},
            {"containerDimensions",
             {{"width", std::max(200, m_chat->viewport()->width() - 60)},
              {"maxHeight", MaxInlineHeight}}},
            {"locale", language.toStdString()},
            {"userAgent", "Switchboard/" + QApplication::applicationVersion().toStdString()},
            {"platform", "desktop"},
            {"toolInfo", {{"id", card.callId.toStdString()}, {"tool", card.tool}}}};
}

AppView *AppCards::liveView(const QString &callId) const
{
    const Card *card = find(callId);
    return card ? card->live.data() : nullptr;
}

Engine::AppBridge *AppCards::bridge(const QString &callId) const
{
    const Card *card = find(callId);
    return card ? card->bridge.data() : nullptr;
}

QString AppCards::cardMessage(const QString &callId) const
{
    const Card *card = find(callId);
    return card ? card->message : QString();
}

QString AppCards::displayMode(const QString &callId) const
{
    const Card *card = find(callId);
    return card ? card->mode : QString();
}

QStringList AppCards::refused(const QString &callId) const
{
    const Card *card = find(callId);
    return card ? card->refused : QStringList();
}

QStringList AppCards::callIds() const
{
    QStringList ids;
    for (const auto &[id, card] : m_cards)
        ids << id;
    return ids;
}

} // namespace Gui

#include "usagelabel.h"

#include "appsettings.h"

#include <QLocale>

#include <algorithm>

namespace Gui {

UsageLabel::UsageLabel(QWidget *parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("usageLabel"));
}

void UsageLabel::addTurn(const Engine::Usage &usage, std::optional<double> cost)
{
    if (usage.inputTokens < 0 && usage.outputTokens < 0)
        return;
    m_conversation.inputTokens += std::max<qint64>(0, usage.inputTokens);
    m_conversation.outputTokens += std::max<qint64>(0, usage.outputTokens);
    m_lastTurn = usage;
    m_lastTurnCost = cost;
    if (cost)
        m_conversationCost += *cost;
    retranslateUi();
}

void UsageLabel::reset()
{
    m_conversation = {0, 0};
    m_conversationCost = 0;
    m_lastTurn.reset();
    m_lastTurnCost.reset();
    retranslateUi();
}

void UsageLabel::retranslateUi()
{
    if (!m_lastTurn) {
        clear();
        return;
    }
    const QLocale locale;
    QString last = tr("last turn: %1 in / %2 out tokens")
                           .arg(locale.toString(std::max<qint64>(0, m_lastTurn->inputTokens)),
                                locale.toString(std::max<qint64>(0, m_lastTurn->outputTokens)));
    QString total = tr("this conversation: %1 / %2")
                            .arg(locale.toString(m_conversation.inputTokens),
                                 locale.toString(m_conversation.outputTokens));
    // With a price for the model (Settings → Prices), what it cost.
    if (m_lastTurnCost) {
        last += QStringLiteral(" (%1)").arg(AppSettings::formatCost(*m_lastTurnCost));
        total += QStringLiteral(" (%1)").arg(AppSettings::formatCost(m_conversationCost));
    }
    setText(last + QStringLiteral(" · ") + total);
}

} // namespace Gui

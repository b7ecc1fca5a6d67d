#pragma once

#include <engine/llm/llm.h>

#include <QLabel>

#include <optional>

namespace Gui {

// The status bar's token count: the last turn's input and output tokens and the open
// conversation's total this session, with what they cost where the model has a price.
class UsageLabel : public QLabel
{
    Q_OBJECT
public:
    explicit UsageLabel(QWidget *parent = nullptr);

    // A turn finished with `usage` (a count below 0: the provider did not say) and its cost.
    void addTurn(const Engine::Usage &usage, std::optional<double> cost);
    // Another conversation: its usage is counted from here.
    void reset();
    void retranslateUi();

private:
    Engine::Usage m_conversation{0, 0};
    double m_conversationCost = 0;
    std::optional<Engine::Usage> m_lastTurn; // none until a turn reported its usage
    std::optional<double> m_lastTurnCost;
};

} // namespace Gui

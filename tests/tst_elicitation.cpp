// What a policy answers when a server asks the user something and nobody is asked.

#include <engine/serverrequests/elicitation.h>

#include <QTest>

using namespace Engine::Elicitation;

class tst_Elicitation : public QObject
{
    Q_OBJECT

private slots:
    void policies()
    {
        const Json form = {{"mode", "form"},
                           {"message", "Who are you?"},
                           {"requestedSchema",
                            {{"type", "object"},
                             {"properties",
                              {{"name", {{"type", "string"}, {"default", "Ada"}}},
                               {"age", {{"type", "integer"}, {"default", 36}}},
                               {"color", {{"type", "string"}, {"enum", {"red", "blue"}}}},
                               {"ok", {{"type", "boolean"}, {"default", false}}}}},
                             {"required", {"name", "age"}}}}};
        QString note;
        Mcp::Response r = answer(form, Policy::Decline, &note);
        QVERIFY(r.ok());
        QVERIFY(r.result == Json({{"action", "decline"}}));
        r = answer(form, Policy::Cancel, &note);
        QVERIFY(r.result == Json({{"action", "cancel"}}));
        r = answer(form, Policy::AcceptDefaults, &note);
        QVERIFY2(r.result
                         == Json({{"action", "accept"},
                                  {"content", {{"name", "Ada"}, {"age", 36}, {"ok", false}}}}),
                 r.result.dump().c_str());

        Json missing = form;
        missing["requestedSchema"]["required"].push_back("color");
        r = answer(missing, Policy::AcceptDefaults, &note);
        QVERIFY(r.result == Json({{"action", "decline"}}));
        QVERIFY2(note.contains(QLatin1String("color")), qPrintable(note));

        // A link is never followed without a person.
        r = answer({{"mode", "url"}, {"url", "https://example.com/x"}, {"elicitationId", "1"}},
                   Policy::AcceptDefaults, &note);
        QVERIFY(r.result == Json({{"action", "decline"}}));

        // Garbage in: a decision all the same, never a crash.
        r = answer(Json::array(), Policy::AcceptDefaults, &note);
        QVERIFY(r.ok());
        r = answer({{"requestedSchema", {{"properties", 3}, {"required", "x"}}}},
                   Policy::AcceptDefaults, &note);
        QVERIFY(r.result == Json({{"action", "accept"}, {"content", Json::object()}}));

        QCOMPARE(policyFromName(QStringLiteral("accept-defaults")), Policy::AcceptDefaults);
        QVERIFY(!policyFromName(QStringLiteral("accept")));
    }
};

QTEST_MAIN(tst_Elicitation)
#include "tst_elicitation.moc"

#pragma once

#include <engine/tools/tool.h>

#include <QString>
#include <QWidget>

#include <vector>

class QFormLayout;
class QLabel;

namespace Gui {

// A form generated from a tool's input schema (a JSON Schema object), so a person can fill in
// a tool's arguments without writing JSON. It understands the flat shapes tools use in
// practice (strings, numbers, integers, booleans, enums) and falls back to a small JSON editor
// for anything nested or exotic; it validates, but leaves the final word to the tool. Owned by
// whoever shows it (the tool browser).
class SchemaForm : public QWidget
{
    Q_OBJECT
public:
    explicit SchemaForm(QWidget *parent = nullptr);
    explicit SchemaForm(const Engine::Json &schema, QWidget *parent = nullptr);

    // Rebuilds the form; defaults are pre-filled.
    void setSchema(const Engine::Json &schema);
    // What an empty form says ("This tool takes no arguments." unless set: a prompt's form says
    // so of the prompt); used by the next setSchema().
    void setNoArgumentsText(const QString &text) { m_noArgumentsText = text; }
    Engine::Json schema() const { return m_schema; }

    // The arguments object. Empty optional fields are omitted. On the first invalid field
    // returns null and, if error is given, says which field and why.
    Engine::Json values(QString *error = nullptr) const;

    // The editor of one property (nullptr if there is none), for tests and focus.
    QWidget *editor(const QString &property) const;
    QStringList properties() const;

signals:
    void edited();

private:
    QString m_noArgumentsText;
    enum class Kind { String, Text, Number, Integer, Boolean, Enum, JsonValue };
    struct Field
    {
        QString name;
        Engine::Json schema;
        Kind kind = Kind::JsonValue;
        bool required = false;
        QWidget *editor = nullptr;
        QLabel *problem = nullptr; // live validation message under the editor
    };

    void clear();
    void addField(const QString &name, const Engine::Json &schema, bool required);
    // Null + error, or the field's value; `empty` tells that an optional field is unset.
    Engine::Json fieldValue(const Field &field, bool *empty, QString *error) const;
    void revalidate(const Field &field);

    Engine::Json m_schema;
    QFormLayout *m_layout = nullptr;
    std::vector<Field> m_fields;
};

} // namespace Gui

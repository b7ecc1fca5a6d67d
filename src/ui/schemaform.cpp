#include "schemaform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPlainTextEdit>
#include <QVBoxLayout>

#include <cmath>

namespace Gui {

using Engine::Json;

namespace {

// Strings longer than this (by the schema's maxLength) get a multi-line editor: a one-line
// box is awkward beyond a sentence or two.
constexpr int MultiLineMinLength = 256;
// Lines shown by a JSON or multi-line editor before it scrolls: enough for a small object,
// small enough that a form with several of them still fits a dialog.
constexpr int EditorLines = 4;

QString str(const Json &value)
{
    return value.is_string() ? QString::fromStdString(value.get<std::string>()) : QString();
}

// The one JSON type a property takes. ["string", "null"] counts as "string" (null is what
// omitting the field means); several real types have no single editor, so "" then.
QString schemaType(const Json &schema)
{
    if (!schema.is_object() || !schema.contains("type"))
        return {};
    const Json &type = schema["type"];
    if (type.is_string())
        return str(type);
    QString only;
    if (type.is_array()) {
        for (const Json &t : type) {
            if (!t.is_string() || t == "null")
                continue;
            if (!only.isEmpty())
                return {};
            only = str(t);
        }
    }
    return only;
}

// Whether a string property is meant to hold more than a line, judged by the hints servers
// actually give: a large maxLength, a name like "content", or a description that says so.
bool wantsMultiLine(const QString &name, const Json &schema)
{
    static const QStringList names
            = {QStringLiteral("content"), QStringLiteral("body"),  QStringLiteral("code"),
               QStringLiteral("script"),  QStringLiteral("patch"), QStringLiteral("diff")};
    if (names.contains(name, Qt::CaseInsensitive))
        return true;
    if (schema.contains("maxLength") && schema["maxLength"].is_number()
        && schema["maxLength"].get<double>() > MultiLineMinLength)
        return true;
    const QString description = str(schema.value("description", Json()));
    return description.contains(QLatin1String("multi-line"), Qt::CaseInsensitive)
           || description.contains(QLatin1String("multiline"), Qt::CaseInsensitive)
           || description.contains(QLatin1String("multiple lines"), Qt::CaseInsensitive);
}

QString editorText(const QWidget *editor)
{
    if (auto line = qobject_cast<const QLineEdit *>(editor))
        return line->text();
    if (auto text = qobject_cast<const QPlainTextEdit *>(editor))
        return text->toPlainText();
    return {};
}

// nlohmann's messages start with "[json.exception.parse_error.101] ": noise for a person.
QString parseErrorText(const char *what)
{
    QString message = QString::fromUtf8(what);
    const int bracket = message.indexOf(QLatin1String("] "));
    if (message.startsWith(QLatin1Char('[')) && bracket > 0)
        message = message.mid(bracket + 2);
    return message;
}

QString numberText(const Json &value)
{
    return value.is_number() ? QString::fromStdString(value.dump()) : QString();
}

} // namespace

SchemaForm::SchemaForm(QWidget *parent)
    : QWidget(parent)
    , m_layout(new QFormLayout(this))
{
    m_layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    setSchema(Json::object());
}

SchemaForm::SchemaForm(const Json &schema, QWidget *parent)
    : SchemaForm(parent)
{
    setSchema(schema);
}

void SchemaForm::clear()
{
    m_fields.clear();
    while (m_layout->rowCount() > 0)
        m_layout->removeRow(0);
}

void SchemaForm::setSchema(const Json &schema)
{
    clear();
    m_schema = schema;

    QStringList required;
    if (schema.is_object() && schema.contains("required") && schema["required"].is_array()) {
        for (const Json &name : schema["required"])
            required << str(name);
    }
    const Json properties = schema.is_object() && schema.contains("properties")
                                            && schema["properties"].is_object()
                                    ? schema["properties"]
                                    : Json::object();
    if (properties.empty()) {
        m_layout->addRow(new QLabel(m_noArgumentsText.isEmpty()
                                            ? tr("This tool takes no arguments.")
                                            : m_noArgumentsText,
                                    this));
        return;
    }
    if (!required.isEmpty())
        m_layout->addRow(new QLabel(tr("Fields marked * are required."), this));
    // Required fields first: they are what a person must fill in. Then alphabetical (the
    // order nlohmann keeps), which is stable whatever order the server sent.
    for (const bool wanted : {true, false}) {
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            const QString name = QString::fromStdString(it.key());
            if (required.contains(name) == wanted)
                addField(name, it.value(), wanted);
        }
    }
}

void SchemaForm::addField(const QString &name, const Json &schema, bool required)
{
    Field field;
    field.name = name;
    field.schema = schema.is_object() ? schema : Json::object();
    field.required = required;
    const Json &s = field.schema;
    const QString type = schemaType(s);
    const bool hasDefault = s.contains("default");
    const Json defaultValue = s.value("default", Json());

    if (s.contains("enum") && s["enum"].is_array() && !s["enum"].empty())
        field.kind = Kind::Enum;
    else if (type == QLatin1String("string"))
        field.kind = wantsMultiLine(name, s) ? Kind::Text : Kind::String;
    else if (type == QLatin1String("number"))
        field.kind = Kind::Number;
    else if (type == QLatin1String("integer"))
        field.kind = Kind::Integer;
    else if (type == QLatin1String("boolean"))
        field.kind = Kind::Boolean;
    else
        field.kind = Kind::JsonValue;

    const int index = int(m_fields.size());
    auto changed = [this, index] {
        revalidate(m_fields[size_t(index)]);
        emit edited();
    };
    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    const int lineHeight = QFontMetrics(fixed).lineSpacing();

    switch (field.kind) {
    case Kind::String: {
        auto edit = new QLineEdit(this);
        edit->setText(str(defaultValue));
        if (s.contains("format"))
            edit->setPlaceholderText(str(s["format"]));
        connect(edit, &QLineEdit::textChanged, this, changed);
        field.editor = edit;
        break;
    }
    case Kind::Number:
    case Kind::Integer: {
        // A line edit rather than a spin box: a spin box always holds a number, so an
        // optional field could never be left out.
        auto edit = new QLineEdit(this);
        edit->setText(numberText(defaultValue));
        QStringList range;
        if (s.contains("minimum") && s["minimum"].is_number())
            range << tr("min %1").arg(numberText(s["minimum"]));
        if (s.contains("maximum") && s["maximum"].is_number())
            range << tr("max %1").arg(numberText(s["maximum"]));
        edit->setPlaceholderText(field.kind == Kind::Integer ? tr("integer") : tr("number"));
        if (!range.isEmpty())
            edit->setPlaceholderText(
                    tr("%1 (%2)").arg(edit->placeholderText(), range.join(QStringLiteral(", "))));
        connect(edit, &QLineEdit::textChanged, this, changed);
        field.editor = edit;
        break;
    }
    case Kind::Boolean: {
        auto box = new QCheckBox(this);
        box->setChecked(defaultValue.is_boolean() && defaultValue.get<bool>());
        connect(box, &QCheckBox::toggled, this, changed);
        field.editor = box;
        break;
    }
    case Kind::Enum: {
        auto combo = new QComboBox(this);
        if (!required)
            combo->addItem(tr("(not set)"));
        for (const Json &option : s["enum"]) {
            const QString label
                    = option.is_string() ? str(option) : QString::fromStdString(option.dump());
            combo->addItem(label, QString::fromStdString(option.dump()));
            if (hasDefault && option == defaultValue)
                combo->setCurrentIndex(combo->count() - 1);
        }
        connect(combo, &QComboBox::currentIndexChanged, this, changed);
        field.editor = combo;
        break;
    }
    case Kind::Text:
    case Kind::JsonValue: {
        auto edit = new QPlainTextEdit(this);
        edit->setTabChangesFocus(true);
        if (field.kind == Kind::JsonValue) {
            edit->setFont(fixed);
            if (hasDefault)
                edit->setPlainText(QString::fromStdString(defaultValue.dump(2)));
            edit->setPlaceholderText(type.isEmpty() ? tr("JSON value") : tr("JSON %1").arg(type));
        } else {
            edit->setPlainText(str(defaultValue));
        }
        edit->setFixedHeight(lineHeight * EditorLines + 2 * edit->frameWidth() + 8);
        connect(edit, &QPlainTextEdit::textChanged, this, changed);
        field.editor = edit;
        break;
    }
    }

    const QString description = str(s.value("description", Json()));
    field.editor->setObjectName(name);
    field.editor->setToolTip(description);

    auto cell = new QWidget(this);
    auto column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(field.editor);
    if (!description.isEmpty()) {
        // The server's words: plain text, never interpreted as markup.
        auto help = new QLabel(description, cell);
        help->setTextFormat(Qt::PlainText);
        help->setWordWrap(true);
        help->setForegroundRole(QPalette::PlaceholderText);
        column->addWidget(help);
    }
    field.problem = new QLabel(cell);
    field.problem->setTextFormat(Qt::PlainText);
    field.problem->setWordWrap(true);
    field.problem->setStyleSheet(QStringLiteral("color: #c62828;"));
    field.problem->hide();
    column->addWidget(field.problem);

    auto label = new QLabel(required ? tr("%1 *").arg(name) : name, this);
    label->setTextFormat(Qt::PlainText);
    label->setToolTip(description);
    label->setBuddy(field.editor);
    m_layout->addRow(label, cell);

    m_fields.push_back(field);
    revalidate(m_fields.back());
}

Json SchemaForm::fieldValue(const Field &field, bool *empty, QString *error) const
{
    *empty = false;
    const Json &s = field.schema;
    switch (field.kind) {
    case Kind::Boolean: {
        const bool checked = static_cast<const QCheckBox *>(field.editor)->isChecked();
        // An unchecked box is indistinguishable from "not set"; leave it out unless the
        // server must hear it (required) or would assume otherwise (a default).
        *empty = !checked && !field.required && !s.contains("default");
        return checked;
    }
    case Kind::Enum: {
        const auto combo = static_cast<const QComboBox *>(field.editor);
        const QVariant data = combo->currentData();
        if (!data.isValid()) {
            *empty = true;
            return nullptr;
        }
        return Json::parse(data.toString().toStdString());
    }
    case Kind::String:
    case Kind::Text: {
        const QString text = editorText(field.editor);
        *empty = text.isEmpty();
        return text.toStdString();
    }
    case Kind::Number:
    case Kind::Integer: {
        const QString text = editorText(field.editor).trimmed();
        if (text.isEmpty()) {
            *empty = true;
            return nullptr;
        }
        Json value;
        bool ok = false;
        const qlonglong whole = QLocale::c().toLongLong(text, &ok);
        if (ok) {
            value = whole;
        } else if (field.kind == Kind::Integer) {
            *error = tr("'%1' is not a whole number").arg(text);
            return nullptr;
        } else {
            const double number = QLocale::c().toDouble(text, &ok);
            if (!ok || !std::isfinite(number)) {
                *error = tr("'%1' is not a number").arg(text);
                return nullptr;
            }
            value = number;
        }
        const double number = value.get<double>();
        if (s.contains("minimum") && s["minimum"].is_number()
            && number < s["minimum"].get<double>()) {
            *error = tr("must be at least %1").arg(numberText(s["minimum"]));
            return nullptr;
        }
        if (s.contains("maximum") && s["maximum"].is_number()
            && number > s["maximum"].get<double>()) {
            *error = tr("must be at most %1").arg(numberText(s["maximum"]));
            return nullptr;
        }
        return value;
    }
    case Kind::JsonValue: {
        const QString text = editorText(field.editor).trimmed();
        if (text.isEmpty()) {
            *empty = true;
            return nullptr;
        }
        Json value;
        try {
            value = Json::parse(text.toStdString());
        } catch (const Json::exception &e) {
            *error = tr("not valid JSON: %1").arg(parseErrorText(e.what()));
            return nullptr;
        }
        const QString type = schemaType(s);
        if (type == QLatin1String("object") && !value.is_object()) {
            *error = tr("must be a JSON object ({...})");
            return nullptr;
        }
        if (type == QLatin1String("array") && !value.is_array()) {
            *error = tr("must be a JSON array ([...])");
            return nullptr;
        }
        return value;
    }
    }
    return nullptr;
}

void SchemaForm::revalidate(const Field &field)
{
    bool empty = false;
    QString error;
    fieldValue(field, &empty, &error);
    field.problem->setText(error);
    field.problem->setVisible(!error.isEmpty());
}

Json SchemaForm::values(QString *error) const
{
    Json result = Json::object();
    for (const Field &field : m_fields) {
        bool empty = false;
        QString problem;
        Json value = fieldValue(field, &empty, &problem);
        if (problem.isEmpty() && empty && field.required)
            problem = tr("required");
        if (!problem.isEmpty()) {
            if (error)
                *error = tr("Field '%1': %2").arg(field.name, problem);
            return nullptr;
        }
        if (!empty)
            result[field.name.toStdString()] = std::move(value);
    }
    if (error)
        error->clear();
    return result;
}

QWidget *SchemaForm::editor(const QString &property) const
{
    for (const Field &field : m_fields) {
        if (field.name == property)
            return field.editor;
    }
    return nullptr;
}

QStringList SchemaForm::properties() const
{
    QStringList names;
    for (const Field &field : m_fields)
        names << field.name;
    return names;
}

} // namespace Gui

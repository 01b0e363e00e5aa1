#pragma once

// A small JSON Schema validator for tests (header-only). It supports the subset of draft 2020-12 used by
// resources/report.schema.json: type (string or array), const, enum, properties, required,
// additionalProperties (false), items, minItems, minimum, maximum, anyOf, $ref to "#/$defs/NAME", and the
// formats "date-time" and "date". Unknown keywords are errors, so the schema cannot silently use more.

#include <QDate>
#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QSet>
#include <QStringList>

#include <cmath>

namespace gf::test {

class JsonSchemaCheck
{
public:
    explicit JsonSchemaCheck(QJsonObject root) : m_root(std::move(root)) {}

    /// Problems found ("path: message"); empty = valid.
    QStringList validate(const QJsonValue &doc) const
    {
        QStringList errors;
        check(m_root, doc, QStringLiteral("$"), errors);
        return errors;
    }

private:
    static bool isType(const QJsonValue &v, const QString &type)
    {
        if (type == u"object")
            return v.isObject();
        if (type == u"array")
            return v.isArray();
        if (type == u"string")
            return v.isString();
        if (type == u"boolean")
            return v.isBool();
        if (type == u"null")
            return v.isNull();
        if (type == u"number")
            return v.isDouble();
        if (type == u"integer")
            return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() == std::floor(v.toDouble());
        return false;
    }

    void check(const QJsonObject &schema, const QJsonValue &v, const QString &path, QStringList &errors) const
    {
        static const QSet<QString> known{
            QStringLiteral("$schema"),     QStringLiteral("$id"),      QStringLiteral("title"),
            QStringLiteral("description"), QStringLiteral("$defs"),    QStringLiteral("$ref"),
            QStringLiteral("type"),        QStringLiteral("const"),    QStringLiteral("enum"),
            QStringLiteral("properties"),  QStringLiteral("required"), QStringLiteral("additionalProperties"),
            QStringLiteral("items"),       QStringLiteral("minItems"), QStringLiteral("minimum"),
            QStringLiteral("maximum"),     QStringLiteral("anyOf"),    QStringLiteral("format")};
        for (auto it = schema.begin(); it != schema.end(); ++it)
            if (!known.contains(it.key()))
                errors.append(
                    QStringLiteral("%1: the schema uses an unsupported keyword \"%2\"").arg(path, it.key()));

        if (schema.contains(u"$ref")) {
            const QString ref = schema.value(u"$ref").toString();
            const QString prefix = QStringLiteral("#/$defs/");
            if (!ref.startsWith(prefix) ||
                !m_root.value(u"$defs").toObject().contains(ref.mid(prefix.size()))) {
                errors.append(QStringLiteral("%1: unresolved $ref %2").arg(path, ref));
                return;
            }
            check(m_root.value(u"$defs").toObject().value(ref.mid(prefix.size())).toObject(), v, path,
                  errors);
        }
        if (schema.contains(u"anyOf")) {
            bool any = false;
            for (const QJsonValue &alt : schema.value(u"anyOf").toArray()) {
                QStringList sub;
                check(alt.toObject(), v, path, sub);
                if (sub.isEmpty()) {
                    any = true;
                    break;
                }
            }
            if (!any)
                errors.append(QStringLiteral("%1: matches none of anyOf").arg(path));
        }
        if (schema.contains(u"type")) {
            QStringList types;
            const QJsonValue t = schema.value(u"type");
            if (t.isArray())
                for (const QJsonValue &x : t.toArray())
                    types.append(x.toString());
            else
                types.append(t.toString());
            bool ok = false;
            for (const QString &type : std::as_const(types))
                ok = ok || isType(v, type);
            if (!ok) {
                errors.append(
                    QStringLiteral("%1: expected %2").arg(path, types.join(QStringLiteral(" or "))));
                return;
            }
        }
        if (schema.contains(u"const") && schema.value(u"const") != v)
            errors.append(QStringLiteral("%1: expected the constant %2")
                              .arg(path, schema.value(u"const").toVariant().toString()));
        if (schema.contains(u"enum") && !schema.value(u"enum").toArray().contains(v))
            errors.append(
                QStringLiteral("%1: \"%2\" is not in the enum").arg(path, v.toVariant().toString()));
        if (v.isDouble()) {
            if (schema.contains(u"minimum") && v.toDouble() < schema.value(u"minimum").toDouble())
                errors.append(QStringLiteral("%1: %2 is below the minimum").arg(path).arg(v.toDouble()));
            if (schema.contains(u"maximum") && v.toDouble() > schema.value(u"maximum").toDouble())
                errors.append(QStringLiteral("%1: %2 is above the maximum").arg(path).arg(v.toDouble()));
        }
        if (v.isString() && schema.contains(u"format")) {
            const QString f = schema.value(u"format").toString();
            if (f == u"date-time" && !QDateTime::fromString(v.toString(), Qt::ISODate).isValid())
                errors.append(QStringLiteral("%1: \"%2\" is not a date-time").arg(path, v.toString()));
            if (f == u"date" && !QDate::fromString(v.toString(), Qt::ISODate).isValid())
                errors.append(QStringLiteral("%1: \"%2\" is not a date").arg(path, v.toString()));
        }
        if (v.isObject()) {
            const QJsonObject o = v.toObject();
            const QJsonObject props = schema.value(u"properties").toObject();
            for (const QJsonValue &r : schema.value(u"required").toArray())
                if (!o.contains(r.toString()))
                    errors.append(
                        QStringLiteral("%1: missing required property \"%2\"").arg(path, r.toString()));
            for (auto it = o.begin(); it != o.end(); ++it) {
                const QString sub = path + u'.' + it.key();
                if (props.contains(it.key()))
                    check(props.value(it.key()).toObject(), it.value(), sub, errors);
                else if (schema.value(u"additionalProperties") == QJsonValue(false))
                    errors.append(QStringLiteral("%1: property not allowed by the schema").arg(sub));
            }
        }
        if (v.isArray()) {
            const QJsonArray a = v.toArray();
            if (schema.contains(u"minItems") && a.size() < schema.value(u"minItems").toInt())
                errors.append(QStringLiteral("%1: fewer than %2 items")
                                  .arg(path)
                                  .arg(schema.value(u"minItems").toInt()));
            if (schema.contains(u"items"))
                for (qsizetype i = 0; i < a.size(); ++i)
                    check(schema.value(u"items").toObject(), a.at(i),
                          QStringLiteral("%1[%2]").arg(path).arg(i), errors);
        }
    }

    QJsonObject m_root;
};

} // namespace gf::test

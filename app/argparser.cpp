#include "argparser.h"

#include <cmath>

namespace gf {

QString ArgParser::parse(const QStringList &args)
{
    m_values.clear();
    m_positional.clear();
    for (qsizetype i = 0; i < args.size(); ++i) {
        const QString &a = args.at(i);
        if (!a.startsWith(QStringLiteral("--")) || a == u"--") {
            if (a == u"--") {
                m_positional += args.mid(i + 1);
                break;
            }
            if (a.startsWith(u'-') && a.size() > 1 && !a.at(1).isDigit() && a.at(1) != u'.')
                return QStringLiteral("unknown option %1").arg(a);
            m_positional.append(a);
            continue;
        }
        QString name = a.mid(2);
        std::optional<QString> inlineValue;
        if (const qsizetype eq = name.indexOf(u'='); eq >= 0) {
            inlineValue = name.mid(eq + 1);
            name = name.left(eq);
        }
        const Option *opt = nullptr;
        for (const Option &o : m_options)
            if (o.name == name)
                opt = &o;
        if (!opt)
            return QStringLiteral("unknown option --%1").arg(name);
        if (opt->valueName.isEmpty()) {
            if (inlineValue)
                return QStringLiteral("option --%1 takes no value").arg(name);
            m_values[name].append(QStringLiteral("1"));
            continue;
        }
        QString v;
        if (inlineValue) {
            v = *inlineValue;
        } else {
            if (i + 1 >= args.size())
                return QStringLiteral("option --%1 needs a value (%2)").arg(name, opt->valueName);
            v = args.at(++i);
        }
        if (m_values.contains(name) && !opt->repeatable)
            return QStringLiteral("option --%1 given twice").arg(name);
        m_values[name].append(v);
    }
    return {};
}

QStringList ArgParser::values(const QString &name) const
{
    QStringList out;
    for (const QString &v : m_values.value(name))
        for (const QString &part : v.split(u',', Qt::SkipEmptyParts))
            out.append(part.trimmed());
    return out;
}

std::optional<double> ArgParser::number(const QString &name, QString *error, double min, double max) const
{
    if (!isSet(name))
        return std::nullopt;
    bool ok = false;
    const QString text = value(name).trimmed();
    const double v = text.toDouble(&ok);
    if (!ok || !std::isfinite(v)) {
        *error = QStringLiteral("--%1: \"%2\" is not a number").arg(name, text);
        return std::nullopt;
    }
    if (v < min || v > max) {
        *error = QStringLiteral("--%1: %2 is out of range (%3 to %4)").arg(name, text).arg(min).arg(max);
        return std::nullopt;
    }
    return v;
}

QString ArgParser::helpText() const
{
    QString out;
    for (const Option &o : m_options) {
        QString left = QStringLiteral("  --") + o.name;
        if (!o.valueName.isEmpty())
            left += u' ' + o.valueName;
        out += left.leftJustified(28) + u' ' + o.help + u'\n';
    }
    return out;
}

} // namespace gf

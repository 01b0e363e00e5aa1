#pragma once

#include <QHash>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// A small strict command-line parser: every option is declared; unknown flags and
/// missing values are errors naming the flag.
class ArgParser
{
public:
    struct Option
    {
        QString name;      ///< without "--"
        QString valueName; ///< empty = flag without value
        QString help;
        bool repeatable = false;
    };

    void addOption(const Option &o) { m_options.append(o); }
    void addFlag(const QString &name, const QString &help) { m_options.append({name, {}, help, false}); }
    void addValue(const QString &name, const QString &valueName, const QString &help, bool repeatable = false)
    {
        m_options.append({name, valueName, help, repeatable});
    }

    /// Parses args (without the program and command names). Returns an error message or empty.
    QString parse(const QStringList &args);

    bool isSet(const QString &name) const { return m_values.contains(name); }
    QString value(const QString &name) const { return m_values.value(name).value(0); }
    QStringList values(const QString &name) const;
    QStringList positional() const { return m_positional; }
    /// A number option; error text set when present but not a finite number in [min, max].
    std::optional<double> number(const QString &name, QString *error, double min, double max) const;

    QString helpText() const;

private:
    QList<Option> m_options;
    QHash<QString, QStringList> m_values;
    QStringList m_positional;
};

} // namespace gf

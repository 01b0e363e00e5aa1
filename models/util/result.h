#pragma once

#include <QString>

#include <utility>
#include <variant>

namespace gf {

/// An error as a value: a message for the user and a technical detail for logs. Core messages
/// carry facts (provider, URL, check, file, line); `code` names the kind of failure where a front
/// end has advice of its own to add (which flag, setting or page fixes it), e.g. "gcp-api-key".
struct Error
{
    QString message;
    QString detail;
    QString code;

    /// The same error with "prefix" in front of the message (the code is kept).
    Error prefixed(const QString &prefix) const { return Error{prefix + message, detail, code}; }

    QString text() const
    {
        return detail.isEmpty() ? message : message + QStringLiteral(" (") + detail + u')';
    }
};

/// Expected-style result used at module boundaries; no exception crosses them.
template <class T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_v(std::move(value)) {}
    Result(Error error) : m_v(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_v); }
    explicit operator bool() const { return ok(); }
    T &value() & { return std::get<T>(m_v); }
    const T &value() const & { return std::get<T>(m_v); }
    T value() && { return std::get<T>(std::move(m_v)); }
    const Error &error() const { return std::get<Error>(m_v); }
    T valueOr(T fallback) const { return ok() ? value() : std::move(fallback); }

private:
    std::variant<T, Error> m_v;
};

/// A result that carries no value.
struct Ok
{
};
using Status = Result<Ok>;

inline Error makeError(QString message, QString detail = {})
{
    return Error{std::move(message), std::move(detail), {}};
}

/// An error with a code (see Error::code).
inline Error makeCodedError(QString code, QString message, QString detail = {})
{
    return Error{std::move(message), std::move(detail), std::move(code)};
}

} // namespace gf

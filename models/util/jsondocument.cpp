#include "util/jsondocument.h"

#include <QJsonParseError>

namespace gf {

Result<QJsonDocument> parseJsonDocument(QByteArrayView data, const QString &origin)
{
    QJsonParseError err;
    QJsonDocument doc = QJsonDocument::fromJson(data.toByteArray(), &err);
    if (err.error != QJsonParseError::NoError)
        return makeError(QStringLiteral("%1: invalid JSON at byte %2: %3")
                             .arg(origin, QString::number(err.offset), err.errorString()));
    return doc;
}

} // namespace gf

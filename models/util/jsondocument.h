#pragma once

#include "util/result.h"

#include <QByteArrayView>
#include <QJsonDocument>
#include <QString>

namespace gf {

/// The JSON document of a whole provider response, or the error "ORIGIN: invalid JSON at byte N:
/// REASON". What the document must hold is the caller's to check.
Result<QJsonDocument> parseJsonDocument(QByteArrayView data, const QString &origin);

} // namespace gf

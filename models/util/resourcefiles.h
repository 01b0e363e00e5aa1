#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gf {

/// Reads a file shipped inside the application (Qt resource under ":/gpufrontier/").
QByteArray readResource(const QString &relativePath);
QString readResourceText(const QString &relativePath);
/// Files in a resource folder, sorted.
QStringList listResources(const QString &relativeDir);

} // namespace gf

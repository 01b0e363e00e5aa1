#include "util/resourcefiles.h"

#include <QDir>
#include <QFile>

namespace gf {

QByteArray readResource(const QString &relativePath)
{
    QFile f(QStringLiteral(":/gpufrontier/") + relativePath);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

QString readResourceText(const QString &relativePath)
{
    return QString::fromUtf8(readResource(relativePath));
}

QStringList listResources(const QString &relativeDir)
{
    QDir dir(QStringLiteral(":/gpufrontier/") + relativeDir);
    QStringList names = dir.entryList(QDir::Files, QDir::Name);
    return names;
}

} // namespace gf

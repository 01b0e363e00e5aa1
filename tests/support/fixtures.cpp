#include "fixtures.h"

#include <QFile>
#include <QFileInfo>

namespace gf::test {

QString fixturePath(const QString &relativePath)
{
    return QStringLiteral(GF_FIXTURES_DIR "/") + relativePath;
}

QByteArray readFixture(const QString &relativePath)
{
    QFile f(fixturePath(relativePath));
    if (!f.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(relativePath));
    return f.readAll();
}

QString builtExecutable(const QString &name)
{
    const QStringList candidates{QStringLiteral(GF_BINARY_DIR "/app/") + name,
                                 QStringLiteral(GF_BINARY_DIR "/probes/") + name};
    for (const QString &c : candidates)
        if (QFileInfo(c).isExecutable())
            return c;
    return candidates.first();
}

} // namespace gf::test

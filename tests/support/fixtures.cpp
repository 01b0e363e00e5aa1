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

QByteArray skypilotLambdaCatalog(int rows, int badVcpusAt)
{
    QByteArray text =
        "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,GpuInfo,SpotPrice\n";
    for (int i = 0; i < rows; ++i)
        text +=
            QStringLiteral("gpu_1x_a10_%1,A10,1.0,%2,200.0,%3,region-%4,\"{'Gpus': [{'Name': 'A10', "
                           "'Manufacturer': 'NVIDIA', 'Count': 1.0, 'MemoryInfo': {'SizeInMiB': 24576}}], "
                           "'TotalGpuMemoryInMiB': 24576}\",\n")
                .arg(i)
                .arg(i == badVcpusAt ? 99999 : 30)
                .arg(1.0 + (i % 97) * 0.01)
                .arg(i % 40)
                .toUtf8();
    return text;
}

} // namespace gf::test

// Data (a file name, an origin) is never used as a format string: an origin that contains "%1"
// or "%2" must come back verbatim in the error message, not expanded by a later QString::arg.

#include "domain/providertables.h"
#include "providers/awsspot.h"
#include "providers/gcpbilling.h"
#include "providers/skypilotcatalog.h"

#include <QTest>

using namespace gf;

namespace {
const QString kOrigin = QStringLiteral("x%1y%2z");
}

class TestFormatStrings : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void awsSpotRegionNotAnObject()
    {
        auto r = parseAwsSpotFeed(QByteArray(R"({"config":{"regions":[1]}})"), kOrigin);
        QVERIFY(!r.ok());
        const QString text = r.error().text();
        QVERIFY2(text.startsWith(kOrigin + QStringLiteral(": config.regions[0] is not an object")),
                 qPrintable(text));
    }

    void awsSpotRegionNameNotAString()
    {
        auto r = parseAwsSpotFeed(QByteArray(R"({"config":{"regions":[{"region":7}]}})"), kOrigin);
        QVERIFY(!r.ok());
        const QString text = r.error().text();
        QVERIFY2(text.startsWith(kOrigin + QStringLiteral(": config.regions[0].region is not a string")),
                 qPrintable(text));
    }

    void skypilotShortRow()
    {
        const QString csv = QStringLiteral(
            "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
            "p3.2xlarge,V100,1.0\n");
        auto r = parseSkypilotCsv(csv, QStringLiteral("aws"), ProviderTables::builtin(), kOrigin);
        QVERIFY(!r.ok());
        const QString text = r.error().text();
        QVERIFY2(text.startsWith(kOrigin + QStringLiteral(": line 2 has 3 fields, the header has 9")),
                 qPrintable(text));
    }

    void skypilotBadPrice()
    {
        const QString csv = QStringLiteral(
            "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region\n"
            "p3.2xlarge,V100,1.0,8.0,61.0,,cheap%2,,us-east-1\n");
        auto r = parseSkypilotCsv(csv, QStringLiteral("aws"), ProviderTables::builtin(), kOrigin);
        QVERIFY(!r.ok());
        const QString text = r.error().text();
        QVERIFY2(text.startsWith(kOrigin + QStringLiteral(": line 2: \"cheap%2\" is not a number")),
                 qPrintable(text));
    }

    void gcpSkuNotAnObject()
    {
        auto r = parseGcpSkuPage(QByteArray(R"({"skus":[1]})"), kOrigin);
        QVERIFY(!r.ok());
        const QString text = r.error().text();
        QVERIFY2(text.startsWith(kOrigin + QStringLiteral(": skus[0] is not an object")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestFormatStrings)
#include "test_formatstrings.moc"

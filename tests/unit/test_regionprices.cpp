#include "domain/regionprices.h"
#include "viewmodels/regionpricemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>

using namespace gf;

namespace {
Offer offer(const QString &provider, const QString &type, const QString &gpuId, double gpus,
            const QString &region, const QString &zone, std::optional<double> od, std::optional<double> spot)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.gpuId = gpuId;
    o.gpuRawName = gpuId.isEmpty() ? QStringLiteral("Mystery GPU") : gpuId.toUpper();
    o.gpuCount = gpus;
    o.region = region;
    o.zone = zone;
    o.onDemandUsdH = od;
    o.spotUsdH = spot;
    return o;
}

QList<Offer> sample()
{
    const QString h100 = QStringLiteral("h100-80gb-sxm5");
    return {
        // AWS us-east-1: the 8-GPU instance is cheaper per GPU-hour than the 1-GPU one on demand.
        offer(QStringLiteral("aws"), QStringLiteral("p5.48xlarge"), h100, 8, QStringLiteral("us-east-1"), {},
              80.0, 40.0),
        offer(QStringLiteral("aws"), QStringLiteral("p5.4xlarge"), h100, 1, QStringLiteral("us-east-1"), {},
              12.0, 4.0),
        // GCP us-central1: two zones, the lower price wins.
        offer(QStringLiteral("gcp"), QStringLiteral("a3-highgpu-8g"), h100, 8, QStringLiteral("us-central1"),
              QStringLiteral("us-central1-a"), 88.0, std::nullopt),
        offer(QStringLiteral("gcp"), QStringLiteral("a3-highgpu-8g"), h100, 8, QStringLiteral("us-central1"),
              QStringLiteral("us-central1-b"), 72.0, 24.0),
        // vast.ai: spot only.
        offer(QStringLiteral("vastai"), QStringLiteral("1x-H100"), h100, 1, QStringLiteral("Texas, US"), {},
              std::nullopt, 1.9),
        // Other GPUs and an offer without GPUs are left out.
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("a100-40gb-sxm4"), 8,
              QStringLiteral("us-east-1"), {}, 32.77, 12.0),
        offer(QStringLiteral("azure"), QStringLiteral("Standard_X"), h100, 0, QStringLiteral("eastus"), {},
              5.0, std::nullopt),
        offer(QStringLiteral("azure"), QStringLiteral("Standard_Y"), QString(), 2, QStringLiteral("eastus"),
              {}, 5.0, std::nullopt),
    };
}
} // namespace

class TestRegionPrices final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cheapestPerProviderAndRegion()
    {
        const QList<RegionPrice> rows = cheapestByRegion(sample(), QStringLiteral("h100-80gb-sxm5"));
        QCOMPARE(rows.size(), 3 + 0 + 0); // aws us-east-1, gcp us-central1, vast.ai Texas (azure: no GPUs)
        // Ordered by on-demand per GPU-hour: GCP 9.00, AWS 10.00, then vast.ai without on-demand.
        QCOMPARE(rows.at(0).provider, QStringLiteral("gcp"));
        QCOMPARE(*rows.at(0).onDemand.usdPerGpuHour, 9.0);
        QCOMPARE(*rows.at(0).onDemand.usdPerHour, 72.0);
        QCOMPARE(rows.at(0).onDemand.zone, QStringLiteral("us-central1-b"));
        QCOMPARE(*rows.at(0).spot.usdPerGpuHour, 3.0);
        QCOMPARE(rows.at(0).offers, 2);

        QCOMPARE(rows.at(1).provider, QStringLiteral("aws"));
        QCOMPARE(rows.at(1).onDemand.instanceType, QStringLiteral("p5.48xlarge"));
        QCOMPARE(*rows.at(1).onDemand.usdPerGpuHour, 10.0);
        // Spot: the 1-GPU instance (4.00) beats the 8-GPU one (5.00 per GPU-hour).
        QCOMPARE(rows.at(1).spot.instanceType, QStringLiteral("p5.4xlarge"));
        QCOMPARE(*rows.at(1).spot.usdPerGpuHour, 4.0);
        QCOMPARE(*rows.at(1).spot.usdPerHour, 4.0);
        QCOMPARE(rows.at(1).offers, 2);

        QCOMPARE(rows.at(2).provider, QStringLiteral("vastai"));
        QVERIFY(!rows.at(2).onDemand.usdPerGpuHour);
        QCOMPARE(*rows.at(2).spot.usdPerGpuHour, 1.9);
        QCOMPARE(*rows.at(2).bestUsdPerGpuHour(), 1.9);
        QCOMPARE(*rows.at(1).bestUsdPerGpuHour(), 4.0);
    }

    void unknownGpusByProviderName()
    {
        const QList<RegionPrice> rows = cheapestByRegion(sample(), QStringLiteral("Mystery GPU"));
        QCOMPARE(rows.size(), 1);
        QCOMPARE(*rows.at(0).onDemand.usdPerGpuHour, 2.5);
        QVERIFY(cheapestByRegion(sample(), QStringLiteral("rtx4090")).isEmpty());
        QVERIFY(cheapestByRegion(sample(), QString()).isEmpty());
    }

    void model()
    {
        RegionPriceModel m;
        QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
        m.setOffers(sample(), QStringLiteral("h100-80gb-sxm5"));
        QCOMPARE(m.rowCount(), 3);
        QCOMPARE(m.columnCount(), int(RegionPriceModel::ColumnCount));
        QCOMPARE(m.index(0, RegionPriceModel::OnDemandPerGpu).data(RegionPriceModel::SortRole).toDouble(),
                 9.0);
        QCOMPARE(m.index(0, RegionPriceModel::OnDemandPerGpu).data().toString(), QStringLiteral("9.000"));
        QCOMPARE(m.index(0, RegionPriceModel::OnDemandInstance).data().toString(),
                 QStringLiteral("a3-highgpu-8g (us-central1-b)"));
        QVERIFY(m.index(2, RegionPriceModel::OnDemandPerGpu).data(RegionPriceModel::SortRole).isNull());
        QVERIFY(m.index(1, RegionPriceModel::SpotPerGpu)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("p5.4xlarge")));
        QVERIFY(m.headerData(RegionPriceModel::OnDemandPerGpu, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("USD/GPU-h")));
        m.setOffers({}, QStringLiteral("h100-80gb-sxm5"));
        QCOMPARE(m.rowCount(), 0);
    }
};

QTEST_MAIN(TestRegionPrices)
#include "test_regionprices.moc"

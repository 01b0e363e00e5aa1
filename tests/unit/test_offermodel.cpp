#include "projection/catalogprojection.h"
#include "viewmodels/offertablemodel.h"

#include <QAbstractItemModelTester>
#include <QTest>
#include <QTimeZone>

using namespace gf;

namespace {
Offer offer(const QString &provider, const QString &type, const QString &gpuId, const QString &raw,
            double count, std::optional<double> mem, std::optional<double> od, std::optional<double> spot,
            const QString &region)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.gpuId = gpuId;
    o.gpuRawName = raw;
    o.gpuCount = count;
    o.gpuMemGb = mem;
    o.onDemandUsdH = od;
    o.spotUsdH = spot;
    o.region = region;
    o.dataDate = QDate(2026, 11, 1);
    return o;
}

QList<Offer> sample()
{
    return {
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("a100-40gb-sxm4"),
              QStringLiteral("A100"), 8, 40, 32.77, 12.0, QStringLiteral("us-east-1")),
        offer(QStringLiteral("aws"), QStringLiteral("g5.xlarge"), QStringLiteral("a10g"),
              QStringLiteral("A10G"), 1, 24, 1.006, 0.45, QStringLiteral("us-west-2")),
        offer(QStringLiteral("gcp"), QStringLiteral("a2-highgpu-1g"), QStringLiteral("a100-40gb-sxm4"),
              QStringLiteral("A100"), 1, 40, 3.67, std::nullopt, QStringLiteral("us-central1")),
        offer(QStringLiteral("vastai"), QStringLiteral("1x-RTX4090"), QStringLiteral("rtx4090"),
              QStringLiteral("RTX 4090"), 1, 24, 0.35, std::nullopt, QStringLiteral("Texas, US")),
        offer(QStringLiteral("azure"), QStringLiteral("Standard_X"), QString(), QStringLiteral("Mystery"), 2,
              std::nullopt, 5.0, 1.0, QStringLiteral("eastus")),
    };
}
} // namespace

class TestOfferModel final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void modelTester()
    {
        OfferTableModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setOffers(sample());
        QCOMPARE(model.rowCount(), 5);
        QCOMPARE(model.columnCount(), int(OfferTableModel::ColumnCount));
        model.setOffers({});
        QCOMPARE(model.rowCount(), 0);
        model.setOffers(sample());

        OfferFilterProxy proxy;
        QAbstractItemModelTester proxyTester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&model);
        proxy.setGpu(QStringLiteral("a100"));
        QCOMPARE(proxy.rowCount(), 2);
        proxy.sort(OfferTableModel::OnDemand);
        proxy.setGpu({});
        QCOMPARE(proxy.rowCount(), 5);
    }

    void displayAndSortRoles()
    {
        OfferTableModel model;
        model.setOffers(sample(), QDateTime(QDate(2026, 11, 22), QTime(12, 0), QTimeZone::utc()));
        const QModelIndex price = model.index(0, OfferTableModel::OnDemand);
        QCOMPARE(price.data(Qt::DisplayRole).toString(), QStringLiteral("32.770"));
        QCOMPARE(price.data(OfferTableModel::SortRole).toDouble(), 32.77);
        QVERIFY(model.headerData(OfferTableModel::OnDemand, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("USD/h")));
        QVERIFY(model.headerData(OfferTableModel::GpuMemory, Qt::Horizontal)
                    .toString()
                    .contains(QStringLiteral("GB")));
        QVERIFY(
            model.index(4, OfferTableModel::Gpu).data().toString().contains(QStringLiteral("unrecognised")));
        QVERIFY(!model.index(2, OfferTableModel::Spot).data(OfferTableModel::SortRole).isValid());
        QCOMPARE(model.index(0, OfferTableModel::SpotSavings).data().toString(), QStringLiteral("63"));
        QCOMPARE(model.index(0, OfferTableModel::PriceAge).data().toString(), QStringLiteral("21 days"));
        // Tooltips: where an offer is (Region may be scrolled out of view), and vast.ai's own metrics.
        QCOMPARE(model.index(0, OfferTableModel::Instance).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("AWS p4d.24xlarge in us-east-1"));
        QList<Offer> vast = sample();
        vast[3].networkGbps = 0.11;
        vast[3].uploadGbps = 0.08;
        vast[3].dlperf = 106.64;
        model.setOffers(vast);
        QVERIFY(model.index(3, OfferTableModel::Network)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("download 0.11 Gbps, upload 0.08 Gbps")));
        QVERIFY(model.index(3, OfferTableModel::Gpu)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("DLPerf 106.6")));
        QVERIFY(!model.index(0, OfferTableModel::Gpu)
                     .data(Qt::ToolTipRole)
                     .toString()
                     .contains(QStringLiteral("DLPerf")));
    }

    void filters_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<int>("rows");
        QTest::newRow("provider aws") << 0 << 2;
        QTest::newRow("gpu rtx") << 1 << 1;
        QTest::newRow("min gpus 2") << 2 << 2;
        QTest::newRow("min mem 30") << 3 << 2;
        QTest::newRow("max price 1.01") << 4 << 2;
        QTest::newRow("spot only") << 5 << 3;
        QTest::newRow("spot max 1.0") << 6 << 2;
        QTest::newRow("region us-") << 7 << 3;
        QTest::newRow("text texas") << 8 << 1;
        QTest::newRow("text two words") << 9 << 1;
    }
    void filters()
    {
        QFETCH(int, which);
        QFETCH(int, rows);
        OfferTableModel model;
        model.setOffers(sample());
        OfferFilterProxy proxy;
        proxy.setSourceModel(&model);
        switch (which) {
        case 0:
            proxy.setProviders({QStringLiteral("aws")});
            break;
        case 1:
            proxy.setGpu(QStringLiteral("RTX 4090"));
            break;
        case 2:
            proxy.setMinGpus(2);
            break;
        case 3:
            proxy.setMinGpuMemGb(30);
            break;
        case 4:
            proxy.setMaxPriceUsdH(1.01);
            break;
        case 5:
            proxy.setSpotOnly(true);
            break;
        case 6:
            proxy.setSpotOnly(true);
            proxy.setMaxPriceUsdH(1.0);
            break;
        case 7:
            proxy.setRegion(QStringLiteral("us-"));
            break;
        case 8:
            proxy.setText(QStringLiteral("texas"));
            break;
        case 9:
            proxy.setText(QStringLiteral("aws g5"));
            break;
        }
        QCOMPARE(proxy.rowCount(), rows);
    }

    void missingValuesSortLast()
    {
        OfferTableModel model;
        model.setOffers(sample());
        OfferFilterProxy proxy;
        proxy.setSourceModel(&model);
        proxy.sort(OfferTableModel::Spot, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Spot).data(OfferTableModel::SortRole).toDouble(), 0.45);
        QVERIFY(!proxy.index(4, OfferTableModel::Spot).data(OfferTableModel::SortRole).isValid());
    }

    // The Flags column (icon severity + names + a tooltip with the offer's numbers) and the
    // spot-risk columns from the projection.
    void flagsAndSpotRisk()
    {
        QList<Offer> offers = sample();
        offers[0].flags = static_cast<int>(OfferFlag::SpotAtFloor);
        offers[0].interruption = QStringLiteral("<5%");
        offers[0].spotLabel = QStringLiteral("spot");
        offers[0].spotUsdH = 3.0; // 9 % of 32.77
        offers[0].interconnect = QStringLiteral("NVSwitch");
        offers[0].vcpus = 96;
        offers[1].flags = static_cast<int>(OfferFlag::PriceOutlierHigh);
        offers[1].spotLabel = QStringLiteral("spot");
        offers[1].vcpus = 4;
        OfferTableModel model;
        model.setOffers(offers);
        QCOMPARE(model.index(0, OfferTableModel::Flags).data(OfferTableModel::SeverityRole).toInt(), 2);
        QCOMPARE(model.index(1, OfferTableModel::Flags).data(OfferTableModel::SeverityRole).toInt(), 1);
        QCOMPARE(model.index(2, OfferTableModel::Flags).data(OfferTableModel::SeverityRole).toInt(), 0);
        QCOMPARE(model.index(0, OfferTableModel::Flags).data().toString(), QStringLiteral("spot-at-floor"));
        const QString tip = model.index(0, OfferTableModel::Flags).data(Qt::ToolTipRole).toString();
        QVERIFY2(tip.contains(QStringLiteral("Spot 3 USD/h is 9.2 % of on-demand 32.77 USD/h")),
                 qPrintable(tip));
        QVERIFY(tip.contains(QStringLiteral("not recommended")));

        const Workload w = *findWorkload(builtinWorkloads(), QStringLiteral("gpt2-124m"));
        ProjectionOptions opt;
        opt.now = QDateTime(QDate(2026, 11, 2), QTime(0, 0), QTimeZone::utc());
        const ProjectionResults r =
            projectCatalog(offers, {OfferFilter{}, w, opt, defaultCalibration(), {}, 1});
        model.setProjection(std::make_shared<const ProjectionResults>(r));
        // The p4d's spot point: flagged, excluded, but its risk is shown.
        const ProjectedOffer *sp = model.spotPointFor(0);
        QVERIFY(sp && sp->suspectExcluded && sp->expectedInterruptions > 0);
        QVERIFY(model.index(0, OfferTableModel::SpotInterruptions).data().toString() != QStringLiteral("–"));
        QVERIFY(model.index(0, OfferTableModel::SpotOverhead).data(OfferTableModel::SortRole).toDouble() > 0);
        const QString risk = model.index(0, OfferTableModel::SpotOverhead).data(Qt::ToolTipRole).toString();
        QVERIFY2(risk.contains(QStringLiteral("spot_interruption.csv")), qPrintable(risk));
        // The shown point is the on-demand one (the spot one is suspect); its tooltip traces the numbers.
        QCOMPARE(model.pointFor(0)->mode, PriceMode::OnDemand);
        const QString how = model.index(0, OfferTableModel::Cost).data(Qt::ToolTipRole).toString();
        QVERIFY2(how.contains(QStringLiteral("gpu_specs.csv")) && how.contains(QStringLiteral("Setup")),
                 qPrintable(how));
        QCOMPARE(model.index(2, OfferTableModel::SpotInterruptions).data().toString(), QStringLiteral("–"));
    }
};

QTEST_GUILESS_MAIN(TestOfferModel)
#include "test_offermodel.moc"

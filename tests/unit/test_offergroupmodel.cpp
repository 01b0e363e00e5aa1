#include "viewmodels/offergroupmodel.h"
#include "viewmodels/offertablemodel.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QTest>

using namespace gf;

namespace {
Offer offer(const QString &provider, const QString &type, const QString &region, const QString &zone,
            std::optional<double> od, std::optional<double> spot, double gpus = 1)
{
    Offer o;
    o.provider = provider;
    o.instanceType = type;
    o.gpuId = QStringLiteral("a100-40gb-sxm4");
    o.gpuRawName = QStringLiteral("A100");
    o.gpuCount = gpus;
    o.gpuMemGb = 40;
    o.onDemandUsdH = od;
    o.spotUsdH = spot;
    o.region = region;
    o.zone = zone;
    o.dataDate = QDate(2026, 11, 1);
    return o;
}

// Two GCP a2 offers in zones, three AWS p4d offers in regions, one single Azure offer.
QList<Offer> sample()
{
    return {
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("us-east-1"), {}, 32.77,
              12.0, 8),
        offer(QStringLiteral("gcp"), QStringLiteral("a2-highgpu-1g"), QStringLiteral("us-central1"),
              QStringLiteral("us-central1-a"), 3.67, 1.1),
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("eu-west-1"), {}, 35.00,
              10.5, 8),
        offer(QStringLiteral("azure"), QStringLiteral("Standard_ND96"), QStringLiteral("eastus"), {}, 27.2,
              {}, 8),
        offer(QStringLiteral("gcp"), QStringLiteral("a2-highgpu-1g"), QStringLiteral("europe-west4"),
              QStringLiteral("europe-west4-a"), 3.30, std::nullopt),
        offer(QStringLiteral("aws"), QStringLiteral("p4d.24xlarge"), QStringLiteral("us-west-2"), {}, 32.77,
              14.0, 8),
    };
}

int topRowOf(const QAbstractItemModel &m, const QString &instance)
{
    for (int r = 0; r < m.rowCount(); ++r)
        if (m.index(r, OfferTableModel::Instance).data().toString() == instance)
            return r;
    return -1;
}
} // namespace

class TestOfferGroupModel final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void groupsPerInstanceType()
    {
        OfferTableModel offers;
        OfferGroupModel groups;
        QAbstractItemModelTester tester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        groups.setOfferModel(&offers);
        offers.setOffers(sample());
        QCOMPARE(groups.rowCount(), 3); // p4d (3 regions), a2 (2 zones), the single Azure offer
        QCOMPARE(groups.columnCount(), int(OfferTableModel::ColumnCount));
        QCOMPARE(groups.acceptedCount(), 6);
        QCOMPARE(groups.acceptedGroupCount(), 3);

        const int p4d = topRowOf(groups, QStringLiteral("p4d.24xlarge"));
        const int a2 = topRowOf(groups, QStringLiteral("a2-highgpu-1g"));
        const int nd = topRowOf(groups, QStringLiteral("Standard_ND96"));
        QVERIFY(p4d >= 0 && a2 >= 0 && nd >= 0);
        const QModelIndex p4dRow = groups.index(p4d, 0);
        QVERIFY(groups.isGroupRow(p4dRow));
        QCOMPARE(groups.rowCount(p4dRow), 3);
        QCOMPARE(groups.index(p4d, 0).data(GroupingModel::GroupSizeRole).toInt(), 3);
        QCOMPARE(groups.index(p4d, OfferTableModel::Region).data().toString(),
                 QStringLiteral("in 3 regions"));
        QCOMPARE(groups.index(a2, OfferTableModel::Region).data().toString(), QStringLiteral("in 2 zones"));
        // The price range in the row, the lowest as its sort number.
        const QString range = groups.index(p4d, OfferTableModel::OnDemand).data().toString();
        QVERIFY2(range.contains(QStringLiteral("32.77")) && range.contains(QStringLiteral("35.00")),
                 qPrintable(range));
        QCOMPARE(groups.index(p4d, OfferTableModel::OnDemand).data(OfferTableModel::SortRole).toDouble(),
                 32.77);
        QCOMPARE(groups.index(p4d, OfferTableModel::Spot).data(OfferTableModel::SortRole).toDouble(), 10.5);
        QVERIFY(groups.index(p4d, OfferTableModel::OnDemand)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("eu-west-1")));
        // Without a projection the best member is the lowest price: a2 in europe-west4 (3.30).
        QCOMPARE(groups.sourceRow(groups.index(a2, 0)), 4);
        QCOMPARE(groups.index(a2, 0).data(OfferTableModel::OfferIndexRole),
                 offers.index(4, 0).data(OfferTableModel::OfferIndexRole));
        // A single offer is a plain row, no children.
        QVERIFY(!groups.isGroupRow(groups.index(nd, 0)));
        QCOMPARE(groups.rowCount(groups.index(nd, 0)), 0);
        QCOMPARE(groups.index(nd, OfferTableModel::Region).data(),
                 offers.index(3, OfferTableModel::Region).data());

        // Children show their own offers, in catalog order, and map back.
        for (int child = 0; child < 3; ++child) {
            const QModelIndex idx = groups.index(child, OfferTableModel::Region, p4dRow);
            const int source = groups.sourceRow(idx);
            QCOMPARE(idx.data(), offers.index(source, OfferTableModel::Region).data());
            QCOMPARE(groups.indexOfSourceRow(source, OfferTableModel::Region), idx);
        }
        QCOMPARE(groups.sourceRow(groups.index(0, 0, p4dRow)), 0);
        QCOMPARE(groups.sourceRow(groups.index(2, 0, p4dRow)), 5);
    }

    void toggleToOneRowPerOffer()
    {
        OfferTableModel offers;
        offers.setOffers(sample());
        OfferGroupModel groups;
        QAbstractItemModelTester tester(&groups, QAbstractItemModelTester::FailureReportingMode::QtTest);
        groups.setOfferModel(&offers);
        groups.setGrouped(false);
        QCOMPARE(groups.rowCount(), 6);
        for (int r = 0; r < 6; ++r) {
            QCOMPARE(groups.sourceRow(groups.index(r, 0)), r);
            QVERIFY(!groups.hasChildren(groups.index(r, 0)));
            QCOMPARE(groups.index(r, OfferTableModel::OnDemand).data(),
                     offers.index(r, OfferTableModel::OnDemand).data());
        }
        groups.setGrouped(true);
        QCOMPARE(groups.rowCount(), 3);
        // A new catalog regroups; an empty one leaves no rows.
        offers.setOffers({});
        QCOMPARE(groups.rowCount(), 0);
        offers.setOffers(sample().mid(0, 3));
        QCOMPARE(groups.rowCount(), 2);
    }

    void filterThroughTheProxy()
    {
        OfferTableModel offers;
        offers.setOffers(sample());
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        OfferFilterProxy proxy;
        QAbstractItemModelTester tester(&proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        proxy.setSourceModel(&groups);
        QCOMPARE(proxy.rowCount(), 3);

        // A region filter keeps only matching members, and the group row summarises just those.
        proxy.setRegion(QStringLiteral("us-"));
        QCOMPARE(groups.acceptedCount(), 3); // two p4d, one a2
        QCOMPARE(groups.acceptedGroupCount(), 2);
        QCOMPARE(proxy.rowCount(), 2);
        const int p4d = topRowOf(proxy, QStringLiteral("p4d.24xlarge"));
        QVERIFY(p4d >= 0);
        const QModelIndex p4dRow = proxy.index(p4d, 0);
        QCOMPARE(proxy.rowCount(p4dRow), 2);
        QCOMPARE(proxy.index(p4d, OfferTableModel::Region).data().toString(), QStringLiteral("in 2 regions"));
        QCOMPARE(proxy.index(p4d, OfferTableModel::OnDemand).data().toString(),
                 offers.index(0, OfferTableModel::OnDemand).data().toString()); // 32.77 in both: no range
        const int a2 = topRowOf(proxy, QStringLiteral("a2-highgpu-1g"));
        QCOMPARE(proxy.index(a2, OfferTableModel::Region).data().toString(), QStringLiteral("in 1 zone"));
        // The a2 row now shows its us-central1 offer (the other one is filtered out).
        QCOMPARE(groups.sourceRow(proxy.mapToSource(proxy.index(a2, 0))), 1);

        // Sorting orders group rows by their best numbers, children within their group.
        proxy.setRegion({});
        proxy.sort(OfferTableModel::OnDemand, Qt::AscendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(),
                 QStringLiteral("a2-highgpu-1g"));
        QCOMPARE(proxy.index(2, OfferTableModel::Instance).data().toString(), QStringLiteral("p4d.24xlarge"));
        const QModelIndex sortedP4d = proxy.index(2, 0);
        double last = 0;
        for (int c = 0; c < proxy.rowCount(sortedP4d); ++c) {
            const double v = proxy.index(c, OfferTableModel::OnDemand, sortedP4d)
                                 .data(OfferTableModel::SortRole)
                                 .toDouble();
            QVERIFY(v >= last);
            last = v;
        }
        proxy.sort(OfferTableModel::OnDemand, Qt::DescendingOrder);
        QCOMPARE(proxy.index(0, OfferTableModel::Instance).data().toString(), QStringLiteral("p4d.24xlarge"));
        QCOMPARE(proxy.index(1, OfferTableModel::Instance).data().toString(),
                 QStringLiteral("Standard_ND96"));

        // Filtering out everything leaves no rows.
        proxy.setGpu(QStringLiteral("no-such-gpu"));
        QCOMPARE(proxy.rowCount(), 0);
        QCOMPARE(groups.acceptedCount(), 0);
    }

    // 100,000 offers in 5,000 groups: grouping is one pass; the figure goes to the log, nothing is
    // asserted about the machine's speed.
    void manyOffers()
    {
        QList<Offer> many;
        many.reserve(100000);
        for (int i = 0; i < 100000; ++i)
            many.append(offer(QStringLiteral("vastai"), QStringLiteral("type-%1").arg(i % 5000),
                              QStringLiteral("region-%1").arg(i / 5000), {}, 1.0 + i % 97, std::nullopt));
        OfferTableModel offers;
        OfferGroupModel groups;
        groups.setOfferModel(&offers);
        QElapsedTimer t;
        t.start();
        offers.setOffers(many);
        qInfo("grouped 100,000 offers into %d rows in %lld ms", groups.rowCount(), t.elapsed());
        QCOMPARE(groups.rowCount(), 5000);
        QCOMPARE(groups.rowCount(groups.index(0, 0)), 20);
        QCOMPARE(groups.acceptedCount(), 100000);
    }
};

QTEST_MAIN(TestOfferGroupModel)
#include "test_offergroupmodel.moc"

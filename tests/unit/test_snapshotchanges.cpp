// What changed since the last refresh: the diff of two snapshots of one provider (domain/snapshotchanges),
// the store's comparison of each provider's two newest good snapshots, and `gpufrontier-cli changes`.
#include "clirun.h"
#include "domain/snapshotchanges.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace gf;
using namespace gf::test;
using namespace Qt::StringLiterals;

namespace {

Offer offer(const QString &type, const QString &region, std::optional<double> onDemand,
            std::optional<double> spot = std::nullopt, double gpus = 1)
{
    Offer o;
    o.provider = u"lambda"_s;
    o.instanceType = type;
    o.region = region;
    o.gpuRawName = u"A100"_s;
    o.gpuCount = gpus;
    o.onDemandUsdH = onDemand;
    o.spotUsdH = spot;
    return o;
}

/// makeCatalogCsv with one price changed, the last offer gone and one new offer.
QByteArray changedCsv(const QString &provider, int rows)
{
    QList<QByteArray> lines = makeCatalogCsv(provider, rows).split('\n');
    while (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    for (QByteArray &l : lines)
        if (l.contains(",type-1,"))
            l.replace(",1.00,", ",1.50,");
    lines.removeLast(); // type-<rows> goes
    // The last line of a catalog one offer longer: type-<rows + 1>.
    QList<QByteArray> longer = makeCatalogCsv(provider, rows + 1).split('\n');
    while (!longer.isEmpty() && longer.last().isEmpty())
        longer.removeLast();
    lines.append(longer.last());
    return lines.join('\n') + '\n';
}

} // namespace

class TestSnapshotChanges final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void diffFindsNewGoneAndRepriced()
    {
        const QList<Offer> before{offer(u"a"_s, u"r1"_s, 2.0, 1.0), offer(u"b"_s, u"r1"_s, 4.0),
                                  offer(u"c"_s, u"r1"_s, 8.0), offer(u"d"_s, u"r1"_s, 1.0, 0.5)};
        const QList<Offer> after{offer(u"a"_s, u"r1"_s, 1.0, 1.0), offer(u"b"_s, u"r1"_s, 5.0),
                                 offer(u"d"_s, u"r1"_s, 1.0, 0.5), offer(u"e"_s, u"r2"_s, 3.0),
                                 offer(u"b"_s, u"r2"_s, 4.0)};
        const SnapshotChanges c = diffOffers(before, after);
        QCOMPARE(c.added.size(), 2); // e, and b in another region
        QCOMPARE(c.removed.size(), 1);
        QCOMPARE(c.removed.at(0).instanceType, u"c"_s);
        QCOMPARE(c.unchangedCount, 1);
        QCOMPARE(c.changed.size(), 2);
        // Largest change first: a halved (-50 %) before b (+25 %).
        QCOMPARE(c.changed.at(0).after.instanceType, u"a"_s);
        QCOMPARE(*c.changed.at(0).onDemandChange(), -0.5);
        QCOMPARE(*c.changed.at(0).spotChange(), 0.0);
        QCOMPARE(*c.changed.at(1).onDemandChange(), 0.25);
        QCOMPARE(c.cheaper(), 1);
        QCOMPARE(c.dearer(), 1);
        QCOMPARE(*c.medianCheaper(), -0.5);
        QCOMPARE(*c.medianDearer(), 0.25);
        QVERIFY(!c.comparable()); // the caller names the snapshots
        SnapshotChanges named = c;
        named.previous.id = 1;
        QCOMPARE(changesSummaryText(named),
                 u"2 new, 1 gone, 1 cheaper (median −50.0 %), 1 dearer (median +25.0 %), 1 unchanged"_s);
    }

    void aSpotOnlyChangeAndAnAddedPriceCount()
    {
        const SnapshotChanges c =
            diffOffers({offer(u"a"_s, u"r"_s, 2.0, 1.0), offer(u"b"_s, u"r"_s, std::nullopt, 1.0)},
                       {offer(u"a"_s, u"r"_s, 2.0, 0.8), offer(u"b"_s, u"r"_s, 2.0, 1.0)});
        QCOMPARE(c.changed.size(), 2);
        QCOMPARE(c.cheaper(), 1); // a: spot -20 %
        QCOMPARE(c.dearer(), 0);
        SnapshotChanges named = c;
        named.previous.id = 1;
        QVERIFY2(changesSummaryText(named).contains(u"1 with a price added or dropped"_s),
                 qPrintable(changesSummaryText(named)));
    }

    void equalOffersMatchInOrder()
    {
        // Two identical offers before, three after: the third is new, none changed.
        const QList<Offer> before{offer(u"a"_s, u"r"_s, 1.0), offer(u"a"_s, u"r"_s, 1.0)};
        const QList<Offer> after{offer(u"a"_s, u"r"_s, 1.0), offer(u"a"_s, u"r"_s, 1.0),
                                 offer(u"a"_s, u"r"_s, 1.0)};
        const SnapshotChanges c = diffOffers(before, after);
        QCOMPARE(c.added.size(), 1);
        QCOMPARE(c.unchangedCount, 2);
        QVERIFY(c.changed.isEmpty());
        // Another GPU count is another offer.
        const SnapshotChanges d = diffOffers({offer(u"a"_s, u"r"_s, 1.0, std::nullopt, 1)},
                                             {offer(u"a"_s, u"r"_s, 1.0, std::nullopt, 2)});
        QCOMPARE(d.added.size(), 1);
        QCOMPARE(d.removed.size(), 1);
        QCOMPARE(changesSummaryText(SnapshotChanges{}), u"first snapshot, nothing to compare"_s);
    }

    void storeComparesTheTwoNewestSnapshots()
    {
        TempDb db;
        const QString first = db.dir() + u"/first.csv"_s, second = db.dir() + u"/second.csv"_s;
        writeFile(first, makeCatalogCsv(u"lambda"_s, 6));
        writeFile(second, changedCsv(u"lambda"_s, 6));
        QCOMPARE(cli(db.path(), {u"import"_s, u"--file"_s, first}).rc, 0);
        QCOMPARE(cli(db.path(), {u"import"_s, u"--file"_s, second}).rc, 0);
        auto store = db.open();
        auto changes = store->latestChanges(u"lambda"_s);
        QVERIFY(changes);
        QCOMPARE(changes.value().size(), 1);
        const SnapshotChanges &c = changes.value().at(0);
        QVERIFY(c.comparable());
        QVERIFY(c.current.id > c.previous.id);
        QCOMPARE(c.added.size(), 1);
        QCOMPARE(c.added.at(0).instanceType, u"type-7"_s);
        QCOMPARE(c.removed.size(), 1);
        QCOMPARE(c.removed.at(0).instanceType, u"type-6"_s);
        QCOMPARE(c.changed.size(), 1);
        QCOMPARE(c.changed.at(0).after.instanceType, u"type-1"_s);
        QCOMPARE(*c.changed.at(0).onDemandChange(), 0.5);
        QCOMPARE(c.unchangedCount, 4);

        // Every provider: the bundled ones have a single snapshot, nothing to compare.
        auto all = store->latestChanges();
        QVERIFY(all);
        QVERIFY(all.value().size() > 5);
        qsizetype comparable = 0;
        for (const SnapshotChanges &s : all.value())
            comparable += s.comparable() ? 1 : 0;
        QCOMPARE(comparable, 1);

        // The CLI says the same.
        const CliRun text = cli(db.path(), {u"changes"_s, u"--provider"_s, u"lambda"_s});
        QCOMPARE(text.rc, 0);
        QVERIFY2(text.out.contains(u"1 new, 1 gone, 1 dearer (median +50.0 %), 4 unchanged"_s),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(u"1.000 → 1.500 (+50.0 %)"_s), qPrintable(text.out));
        QVERIFY2(text.out.contains(u"New: type-7"_s) && text.out.contains(u"Gone: type-6"_s),
                 qPrintable(text.out));
        const CliRun json =
            cli(db.path(), {u"changes"_s, u"--provider"_s, u"lambda"_s, u"--format"_s, u"json"_s});
        QCOMPARE(json.rc, 0);
        const QJsonObject j = QJsonDocument::fromJson(json.out.toUtf8()).array().at(0).toObject();
        QCOMPARE(j.value(u"counts").toObject().value(u"dearer").toInt(), 1);
        const QJsonObject changed = j.value(u"changed").toArray().at(0).toObject();
        QCOMPARE(changed.value(u"before").toObject().value(u"on_demand_usd_per_h").toDouble(), 1.0);
        QCOMPARE(changed.value(u"after").toObject().value(u"on_demand_usd_per_h").toDouble(), 1.5);
        QCOMPARE(changed.value(u"on_demand_change").toDouble(), 0.5);
        QCOMPARE(j.value(u"added").toArray().size(), 1);
        // Bad arguments.
        QCOMPARE(cli(db.path(), {u"changes"_s, u"--provider"_s, u"nosuch"_s}).rc, 2);
        QCOMPARE(cli(db.path(), {u"changes"_s, u"--limit"_s, u"-1"_s}).rc, 2);
    }
};

QTEST_GUILESS_MAIN(TestSnapshotChanges)
#include "test_snapshotchanges.moc"

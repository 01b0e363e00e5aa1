// Every real instance type of tests/fixtures/instances/instance_gpus.csv resolves to the
// right GPU variant, count, memory per GPU and interconnect through the app's real path (the provider
// tables first, then the name with the memory tie-break), and through validateSnapshot as every import does.
#include "domain/gpucatalog.h"
#include "domain/offergpu.h"
#include "domain/provider.h"
#include "domain/providertables.h"
#include "domain/snapshotdata.h"
#include "testsupport.h"
#include "util/csv.h"

#include <QTest>

#include <cmath>

using namespace gf;
using namespace gf::test;

namespace {

struct Row
{
    QString provider, instanceType, gpuName, expectedId, expectedInterconnect;
    double count = 0, expectedCount = 0, expectedMem = 0;
    std::optional<double> mem;
};

QList<Row> fixtureRows()
{
    auto parsed = parseCsv(QString::fromUtf8(readFixture(QStringLiteral("instances/instance_gpus.csv"))));
    if (!parsed)
        qFatal("instance_gpus.csv: %s", qPrintable(parsed.error().text()));
    const CsvDocument &doc = parsed.value();
    QList<Row> out;
    for (const CsvRecord &r : doc.records) {
        auto f = [&](const char *name) { return r.fields.at(doc.column(QLatin1String(name))).trimmed(); };
        Row row;
        row.provider = f("provider");
        row.instanceType = f("instance_type");
        row.gpuName = f("provider_gpu_name");
        row.count = f("provider_gpu_count").toDouble();
        if (!f("provider_mem_gb").isEmpty())
            row.mem = f("provider_mem_gb").toDouble();
        row.expectedId = f("expected_gpu_id");
        row.expectedCount = f("expected_count").toDouble();
        row.expectedMem = f("expected_mem_gb_per_gpu").toDouble();
        row.expectedInterconnect = f("expected_interconnect");
        out.append(row);
    }
    return out;
}

Offer offerOf(const Row &r)
{
    Offer o;
    o.provider = r.provider;
    o.instanceType = r.instanceType;
    o.region = QStringLiteral("somewhere");
    o.gpuRawName = r.gpuName;
    o.gpuCount = r.count;
    o.gpuMemGb = r.mem;
    o.onDemandUsdH = 1.0;
    return o;
}

/// The interconnect the projection uses: empty on a multi-GPU offer counts as PCIe.
QString effective(const QString &ic, double count)
{
    return ic.isEmpty() ? (count > 1 ? QStringLiteral("PCIe") : QString()) : ic;
}

} // namespace

class TestInstanceGpus final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void table_data()
    {
        QTest::addColumn<int>("index");
        const QList<Row> rows = fixtureRows();
        QVERIFY(rows.size() >= 98);
        QHash<QString, int> perProvider;
        for (qsizetype i = 0; i < rows.size(); ++i) {
            ++perProvider[rows.at(i).provider];
            QTest::addRow("%s %s", qPrintable(rows.at(i).provider), qPrintable(rows.at(i).instanceType))
                << static_cast<int>(i);
        }
        // Ten real instance types of every provider with its own price API (and instance tables); the clouds
        // read through SkyPilot's catalog have a few rows each where their GPU names need an alias.
        for (const ProviderInfo &p : providers())
            if (p.live == LiveSource::OwnApi)
                QVERIFY2(perProvider.value(p.id) >= 10, qPrintable(p.id));
    }
    void table()
    {
        QFETCH(int, index);
        static const QList<Row> rows = fixtureRows();
        const Row &r = rows.at(index);
        const OfferGpu g = resolveOfferGpu(offerOf(r), GpuCatalog::builtin(), ProviderTables::builtin());
        QVERIFY(g.id.has_value());
        QCOMPARE(*g.id, r.expectedId);
        QVERIFY2(std::abs(g.gpuCount - r.expectedCount) < 1e-6,
                 qPrintable(QStringLiteral("count %1").arg(g.gpuCount)));
        QVERIFY(g.memGb.has_value());
        QVERIFY2(std::abs(*g.memGb - r.expectedMem) <= 0.011,
                 qPrintable(QStringLiteral("mem %1").arg(*g.memGb)));
        QCOMPARE(effective(g.interconnect, g.gpuCount), r.expectedInterconnect);
        // Providers with instance tables resolve through them; vast.ai and the clouds read through SkyPilot's
        // catalog by name (their aliases).
        if (const ProviderInfo *p = providerInfo(r.provider);
            p && p->live == LiveSource::OwnApi && r.provider != u"vastai")
            QVERIFY2(g.viaTable, "not in the provider table");
        QCOMPARE(g.memoryDiffers, r.provider == u"vastai" && r.instanceType == u"1x-RTX_4090-32-65536");

        // The same through validateSnapshot, the path of every import.
        SnapshotData d;
        d.provider = r.provider;
        d.offers = {offerOf(r)};
        QVERIFY(validateSnapshot(d, GpuCatalog::builtin(), QStringLiteral("test")).ok());
        const Offer &o = d.offers.first();
        QCOMPARE(o.gpuId, r.expectedId);
        QVERIFY(std::abs(o.gpuCount - r.expectedCount) < 1e-6);
        QVERIFY(std::abs(*o.gpuMemGb - r.expectedMem) <= 0.011);
        QCOMPARE(effective(o.interconnect, o.gpuCount), r.expectedInterconnect);
        QCOMPARE(hasFlag(o.flags, OfferFlag::MemoryDiffers), g.memoryDiffers);
    }

    void nameAloneWasWrong()
    {
        // The two rows once resolved wrongly: by name, Azure's A100-80GB is the PCIe card and H100 the NVL.
        Offer nd = offerOf({QStringLiteral("azure"),
                            QStringLiteral("Standard_ND96amsr_A100_v4"),
                            QStringLiteral("A100-80GB"),
                            {},
                            {},
                            8,
                            0,
                            0,
                            std::nullopt});
        QCOMPARE(*GpuCatalog::builtin().resolve(nd.provider, nd.gpuRawName),
                 QStringLiteral("a100-80gb-pcie"));
        const OfferGpu g = resolveOfferGpu(nd, GpuCatalog::builtin(), ProviderTables::builtin());
        QCOMPARE(*g.id, QStringLiteral("a100-80gb-sxm4"));
        QCOMPARE(g.interconnect, QStringLiteral("NVSwitch"));
        Offer h = nd;
        h.instanceType = QStringLiteral("Standard_ND96isr_H100_v5");
        h.gpuRawName = QStringLiteral("H100");
        h.gpuCount = 12; // SkyPilot's count
        const OfferGpu gh = resolveOfferGpu(h, GpuCatalog::builtin(), ProviderTables::builtin());
        QCOMPARE(*gh.id, QStringLiteral("h100-80gb-sxm"));
        QCOMPARE(gh.gpuCount, 8.0);
        // A promo size resolves like its base size.
        h.instanceType += QStringLiteral("_Promo");
        QCOMPARE(*resolveOfferGpu(h, GpuCatalog::builtin(), ProviderTables::builtin()).id,
                 QStringLiteral("h100-80gb-sxm"));
    }

    void memoryTieBreakByName()
    {
        // vast.ai names without a table: the offer's memory picks the variant inside the family.
        Offer o;
        o.provider = QStringLiteral("vastai");
        o.instanceType = QStringLiteral("123");
        o.gpuRawName = QStringLiteral("A100 SXM4");
        o.gpuCount = 2;
        o.gpuMemGb = 79.15;
        const OfferGpu g = resolveOfferGpu(o, GpuCatalog::builtin(), ProviderTables::builtin());
        QCOMPARE(*g.id, QStringLiteral("a100-80gb-sxm4"));
        QCOMPARE(g.interconnect, QStringLiteral("NVLink")); // an SXM board always links its GPUs
        o.gpuMemGb = 39.4;
        QCOMPARE(*resolveOfferGpu(o, GpuCatalog::builtin(), ProviderTables::builtin()).id,
                 QStringLiteral("a100-40gb-sxm4"));
        o.gpuRawName = QStringLiteral("no such gpu");
        QVERIFY(!resolveOfferGpu(o, GpuCatalog::builtin(), ProviderTables::builtin()).id);
    }

    void everyTableIdIsKnown()
    {
        const ProviderTables &t = ProviderTables::builtin();
        int checked = 0;
        for (const QString &vm : t.azureVmSizes()) {
            const MachineShape *m = t.azureVmSize(vm);
            QVERIFY2(!m->gpuId.isEmpty() && GpuCatalog::builtin().model(m->gpuId), qPrintable(vm));
            ++checked;
        }
        for (const MachineShape &m : t.gcpMachines()) {
            QVERIFY2(GpuCatalog::builtin().model(m.gpuId), qPrintable(m.name));
            ++checked;
        }
        QVERIFY(checked > 50);
        QVERIFY(t.paperspaceMachine(QStringLiteral("H100x8")));
        QCOMPARE(t.machine(QStringLiteral("paperspace"), QStringLiteral("H100x8"))->gpuId,
                 QStringLiteral("h100-80gb-sxm"));
        QVERIFY(!t.machine(QStringLiteral("vastai"), QStringLiteral("1x-H100_SXM-32-65536")));
    }

    void familiesDifferInMemoryOrForm()
    {
        QHash<QString, QList<const GpuModel *>> families;
        for (const GpuModel &m : GpuCatalog::builtin().models()) {
            QVERIFY2(!m.family.isEmpty(), qPrintable(m.id));
            QVERIFY2(m.capacityClass == u"flagship" || m.capacityClass == u"standard", qPrintable(m.id));
            families[m.family].append(&m);
        }
        for (auto it = families.cbegin(); it != families.cend(); ++it)
            for (qsizetype i = 0; i < it.value().size(); ++i)
                for (qsizetype j = i + 1; j < it.value().size(); ++j) {
                    const GpuModel *a = it.value().at(i);
                    const GpuModel *b = it.value().at(j);
                    QVERIFY2(a->memoryGb != b->memoryGb || a->formFactor != b->formFactor,
                             qPrintable(a->id + u' ' + b->id));
                }
        QCOMPARE(GpuCatalog::builtin().model(QStringLiteral("h100-80gb-sxm"))->capacityClass,
                 QStringLiteral("flagship"));
        QCOMPARE(GpuCatalog::builtin().model(QStringLiteral("a10g"))->capacityClass,
                 QStringLiteral("standard"));
    }
};

QTEST_GUILESS_MAIN(TestInstanceGpus)
#include "test_instancegpus.moc"

#include "domain/gpucatalog.h"
#include "domain/provider.h"
#include "providers/snapshotfile.h"
#include "util/resourcefiles.h"

#include <QTest>

using namespace gf;

class TestGpuCatalog final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void normalise_data()
    {
        QTest::addColumn<QString>("in");
        QTest::addColumn<QString>("out");
        QTest::newRow("case") << QStringLiteral("NVIDIA A100") << QStringLiteral("nvidia a100");
        QTest::newRow("dashes") << QStringLiteral("A100-SXM4-80GB") << QStringLiteral("a100 sxm4 80gb");
        QTest::newRow("underscores") << QStringLiteral("nvidia_tesla_t4")
                                     << QStringLiteral("nvidia tesla t4");
        QTest::newRow("runs") << QStringLiteral("  RTX  - 4090 ") << QStringLiteral("rtx 4090");
        QTest::newRow("empty") << QString() << QString();
    }
    void normalise()
    {
        QFETCH(QString, in);
        QFETCH(QString, out);
        QCOMPARE(GpuCatalog::normalise(in), out);
    }

    /// Every alias in the shipped table resolves to the row it is written in.
    void everyAliasResolves_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("alias");
        QTest::addColumn<QString>("id");
        const GpuCatalog &cat = GpuCatalog::builtin();
        QVERIFY(cat.models().size() > 20);
        for (const GpuModel &m : cat.models()) {
            for (const QString &raw : m.aliases) {
                QString provider;
                QString alias = raw;
                const qsizetype colon = raw.indexOf(u':');
                if (colon > 0 && GpuCatalog::knownProvider(raw.left(colon))) {
                    provider = raw.left(colon);
                    alias = raw.mid(colon + 1);
                }
                QTest::newRow(qPrintable(m.id + u'/' + raw)) << provider << alias << m.id;
                // Spelling variants a provider could use for the same string.
                QTest::newRow(qPrintable(m.id + u'/' + raw + QStringLiteral("/upper")))
                    << provider << alias.toUpper() << m.id;
                QString dashed = alias;
                dashed.replace(u' ', u'-');
                QTest::newRow(qPrintable(m.id + u'/' + raw + QStringLiteral("/dashed")))
                    << provider << dashed << m.id;
            }
        }
    }
    void everyAliasResolves()
    {
        QFETCH(QString, provider);
        QFETCH(QString, alias);
        QFETCH(QString, id);
        const auto r =
            GpuCatalog::builtin().resolve(provider.isEmpty() ? QStringLiteral("aws") : provider, alias);
        // An unqualified alias may be overridden for one provider; check it with a provider that has no
        // override.
        const auto plain = GpuCatalog::builtin().resolve(provider, alias);
        QVERIFY2(plain.has_value(), qPrintable(alias));
        QCOMPARE(*plain, id);
        QVERIFY(r.has_value());
    }

    void realProviderNames_data()
    {
        QTest::addColumn<QString>("provider");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("id");
        QTest::newRow("aws A100 is 40GB SXM4 (p4d)")
            << QStringLiteral("aws") << QStringLiteral("A100") << QStringLiteral("a100-40gb-sxm4");
        QTest::newRow("aws A100-80GB is SXM4 (p4de)")
            << QStringLiteral("aws") << QStringLiteral("A100-80GB") << QStringLiteral("a100-80gb-sxm4");
        QTest::newRow("vast RTX 4090")
            << QStringLiteral("vastai") << QStringLiteral("RTX 4090") << QStringLiteral("rtx4090");
        QTest::newRow("nvidia-smi name")
            << QString() << QStringLiteral("NVIDIA A100-SXM4-80GB") << QStringLiteral("a100-80gb-sxm4");
        // The six spellings of the 2026 catalogs that had no row (18 offers never projected): cudo's A800
        // is the 80 GB PCIe card (instance types *-a800-pci_*, 81920 MiB per GPU); vast.ai's own spellings.
        QTest::newRow("cudo A800 is 80GB PCIe")
            << QStringLiteral("cudo") << QStringLiteral("A800") << QStringLiteral("a800-80gb-pcie");
        QTest::newRow("vast RTX 3060 Ti is not the RTX 3060")
            << QStringLiteral("vastai") << QStringLiteral("RTX 3060 Ti") << QStringLiteral("rtx3060ti");
        // Without a memory figure the 8 GB board; the memory tie-break moves a 16 GB offer
        // (test_instancegpus).
        QTest::newRow("vast RTX 4060 Ti without memory: 8GB")
            << QStringLiteral("vastai") << QStringLiteral("RTX 4060 Ti") << QStringLiteral("rtx4060ti-8gb");
        QTest::newRow("RTX 4060 Ti 16GB") << QStringLiteral("vastai") << QStringLiteral("RTX 4060 Ti 16GB")
                                          << QStringLiteral("rtx4060ti-16gb");
        QTest::newRow("vast RTX 5880Ada")
            << QStringLiteral("vastai") << QStringLiteral("RTX 5880Ada") << QStringLiteral("rtx-5880-ada");
        QTest::newRow("SkyPilot RTX5880-Ada")
            << QStringLiteral("vastai") << QStringLiteral("RTX5880-Ada") << QStringLiteral("rtx-5880-ada");
        QTest::newRow("vast RTX 5070")
            << QStringLiteral("vastai") << QStringLiteral("RTX 5070") << QStringLiteral("rtx5070");
        QTest::newRow("vast RTX 4070S Ti is the 4070 Ti SUPER")
            << QStringLiteral("vastai") << QStringLiteral("RTX 4070S Ti") << QStringLiteral("rtx4070tisuper");
        QTest::newRow("nvidia-smi RTX 4070 Ti SUPER")
            << QString() << QStringLiteral("NVIDIA GeForce RTX 4070 Ti SUPER")
            << QStringLiteral("rtx4070tisuper");
    }
    void realProviderNames()
    {
        QFETCH(QString, provider);
        QFETCH(QString, name);
        QFETCH(QString, id);
        const auto r = GpuCatalog::builtin().resolve(provider, name);
        QVERIFY2(r.has_value(), qPrintable(name));
        QCOMPARE(*r, id);
    }

    void unknownStaysUnrecognised()
    {
        QVERIFY(!GpuCatalog::builtin()
                     .resolve(QStringLiteral("aws"), QStringLiteral("Quantum Flux 9000"))
                     .has_value());
        QVERIFY(!GpuCatalog::builtin().resolve(QStringLiteral("aws"), QString()).has_value());
        // Never guessed from a prefix.
        QVERIFY(!GpuCatalog::builtin().resolve(QStringLiteral("aws"), QStringLiteral("A10")).has_value() ||
                *GpuCatalog::builtin().resolve(QStringLiteral("aws"), QStringLiteral("A10")) !=
                    QStringLiteral("a100-40gb-sxm4"));
    }

    void rejectsBrokenTables_data()
    {
        QTest::addColumn<QString>("csv");
        QTest::addColumn<QString>("message");
        QTest::newRow("duplicate id")
            << QStringLiteral("id,vendor,name,memory_gb,form_factor,aliases\nx,n,X,1,,a\nx,n,Y,1,,b\n")
            << QStringLiteral("duplicate id");
        QTest::newRow("alias collision")
            << QStringLiteral("id,vendor,name,memory_gb,form_factor,aliases\nx,n,X,1,,A-1\ny,n,Y,1,,a 1\n")
            << QStringLiteral("already maps");
        QTest::newRow("missing columns") << QStringLiteral("id,vendor\nx,n\n") << QStringLiteral("header");
    }
    void rejectsBrokenTables()
    {
        QFETCH(QString, csv);
        QFETCH(QString, message);
        auto r = GpuCatalog::fromCsv(csv);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(message), qPrintable(r.error().message));
    }

    /// The bundled snapshot's GPU names are all recognised, except the non-GPU accelerators we count.
    void bundledNamesRecognised()
    {
        int total = 0;
        QStringList unrecognised;
        for (const QString &file : listResources(QStringLiteral("catalog"))) {
            if (!file.endsWith(QStringLiteral(".csv")))
                continue;
            auto parsed = parseSnapshotCsv(readResourceText(QStringLiteral("catalog/") + file), file);
            QVERIFY2(parsed.ok(), qPrintable(parsed.ok() ? QString() : parsed.error().text()));
            for (const Offer &o : parsed.value().offers) {
                ++total;
                if (!GpuCatalog::builtin().resolve(o.provider, o.gpuRawName) &&
                    !unrecognised.contains(o.gpuRawName))
                    unrecognised.append(o.gpuRawName);
            }
        }
        QVERIFY(total > 1000);
        // Every GPU name of the bundled catalogs has a row (the last six, A800, RTX 5880Ada, RTX 5070,
        // RTX 4070S Ti, RTX 4060 Ti and RTX 3060 Ti, got theirs in issue 22): an offer shown as unrecognised
        // is never projected, ranked or recommended.
        QCOMPARE(unrecognised, QStringList());
    }
};

QTEST_APPLESS_MAIN(TestGpuCatalog)
#include "test_gpucatalog.moc"

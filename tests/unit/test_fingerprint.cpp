// snapshotFingerprint decides whether a refresh changed anything ("unchanged" creates no new
// snapshot). Its text for offers without vast.ai metrics must stay exactly what version 1 wrote,
// so that upgrading does not make every provider's next refresh look like a change.

#include "domain/snapshotchecks.h"
#include "providers/providerimport.h"

#include <QCryptographicHash>
#include <QSet>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <limits>

using namespace gf;

namespace {

Offer offer(const QString &type, double price)
{
    Offer o;
    o.provider = QStringLiteral("aws");
    o.instanceType = type;
    o.region = QStringLiteral("us-east-1");
    o.gpuRawName = QStringLiteral("A100");
    o.gpuCount = 8;
    o.gpuMemGb = 40;
    o.onDemandUsdH = price;
    o.spotLabel = QStringLiteral("spot");
    o.source = QStringLiteral("not part of the fingerprint");
    return o;
}

/// The fingerprint's text as version 1 made it, with Qt's own number formatting (the oracle for the rows
/// written without it).
QByteArray qtFingerprint(const SnapshotData &d)
{
    auto n = [](const std::optional<double> &v) { return v ? QString::number(*v, 'g', 12) : QString(); };
    QStringList rows;
    for (const Offer &o : d.offers) {
        QString row = QStringList{o.provider,
                                  o.instanceType,
                                  o.region,
                                  o.zone,
                                  o.gpuRawName,
                                  QString::number(o.gpuCount, 'g', 12),
                                  n(o.gpuMemGb),
                                  n(o.vcpus),
                                  n(o.ramGb),
                                  n(o.networkGbps),
                                  o.interconnect,
                                  n(o.onDemandUsdH),
                                  n(o.spotUsdH),
                                  o.spotLabel,
                                  o.interruption,
                                  n(o.reliability),
                                  QString::number(o.billingIncrementS),
                                  QString::number(o.billingMinimumS)}
                          .join(u'\x1f');
        if (o.uploadGbps || o.dlperf)
            row += u'\x1f' + n(o.uploadGbps) + u'\x1f' + n(o.dlperf);
        rows.append(row);
    }
    std::sort(rows.begin(), rows.end());
    return (QStringLiteral("gpufrontier-offers-v1\n") + d.provider + u'\n' + rows.join(u'\n')).toUtf8();
}

} // namespace

class TestFingerprint final : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void versionOneTextForOffersWithoutVastMetrics()
    {
        SnapshotData d;
        d.provider = QStringLiteral("aws");
        d.offers = {offer(QStringLiteral("p4d.24xlarge"), 32.77), offer(QStringLiteral("g5.xlarge"), 1.006)};
        const QByteArray expected = "gpufrontier-offers-v1\naws\n"
                                    "aws\x1fg5.xlarge\x1fus-east-1\x1f\x1f"
                                    "A100\x1f"
                                    "8\x1f"
                                    "40\x1f\x1f\x1f\x1f\x1f"
                                    "1.006\x1f\x1fspot\x1f\x1f\x1f"
                                    "1\x1f"
                                    "60\n"
                                    "aws\x1fp4d.24xlarge\x1fus-east-1\x1f\x1f"
                                    "A100\x1f"
                                    "8\x1f"
                                    "40\x1f\x1f\x1f\x1f\x1f"
                                    "32.77\x1f\x1fspot\x1f\x1f\x1f"
                                    "1\x1f"
                                    "60";
        QCOMPARE(snapshotFingerprint(d), expected);
        // Row order does not matter; the source note does not count.
        std::swap(d.offers[0], d.offers[1]);
        d.offers[0].source = QStringLiteral("another note");
        QCOMPARE(snapshotFingerprint(d), expected);
        // The refresh hashes it row by row (the snapshot checksum): the same digest as of the whole text.
        QCOMPARE(snapshotFingerprintSha256(d),
                 QCryptographicHash::hash(expected, QCryptographicHash::Sha256));
        d.offers.clear();
        QCOMPARE(snapshotFingerprintSha256(d),
                 QCryptographicHash::hash(snapshotFingerprint(d), QCryptographicHash::Sha256));
    }

    void numbersAndTextsAsQtWritesThem()
    {
        // Values Qt rounds differently from the C++ library (exactly halfway at the 12th digit), -0, large
        // and tiny numbers, texts beyond ASCII and beyond U+D800 (sorted as text, not as bytes).
        SnapshotData d;
        d.provider = QStringLiteral("vastai");
        const double values[] = {704837339352.5,     -0.0, 0.246676, 1e-7,
                                 5395013852665000.0, 12.5, 1.0 / 3,  64.4};
        const QString texts[] = {QStringLiteral("Qu\u00e9bec, CA"), QStringLiteral("\U0001F600 place"),
                                 QStringLiteral("\uE000 private"), QStringLiteral("plain"),
                                 QStringLiteral("\uFFFD replaced")};
        int k = 0;
        for (double v : values) {
            for (const QString &t : texts) {
                Offer o = offer(QString::number(++k), v);
                o.provider = d.provider;
                o.region = t;
                o.gpuCount = v;
                o.vcpus = v * 3;
                o.reliability = v / 7;
                if (k % 2)
                    o.dlperf = v * 11;
                o.billingMinimumS = -k;
                d.offers.append(o);
            }
        }
        const QByteArray expected = qtFingerprint(d);
        QCOMPARE(snapshotFingerprint(d), expected);
        QCOMPARE(snapshotFingerprintSha256(d),
                 QCryptographicHash::hash(expected, QCryptographicHash::Sha256));
        // The streamed imports' FingerprintingSink: the same digest, whatever order the offers come in.
        SnapshotData passed;
        CollectingSink collect(passed);
        FingerprintingSink fingerprint(collect);
        QVERIFY(fingerprint.begin(d).ok());
        for (qsizetype i = d.offers.size(); i-- > 0;)
            QVERIFY(fingerprint.add(Offer(d.offers.at(i))).ok());
        QCOMPARE(passed.offers.size(), d.offers.size());
        QCOMPARE(fingerprint.sha256(d.provider),
                 QCryptographicHash::hash(expected, QCryptographicHash::Sha256));
    }

    void rowDigestTellsRowsApartAsTheirTexts()
    {
        // Identical rows are imported once (rowDigest): every field counts, -0 is 0 and NaN is NaN as in
        // the rows' text, a text ending where the next begins is not the same row.
        Offer a = offer(QStringLiteral("p4d.24xlarge"), 32.77);
        a.vcpus = 0.0;
        a.dlperf = std::numeric_limits<double>::quiet_NaN();
        const QByteArray base = rowDigest(a);
        QCOMPARE(base.size(), 16);
        Offer same = a;
        same.vcpus = -0.0;
        same.dlperf = -std::numeric_limits<double>::quiet_NaN();
        QCOMPARE(rowDigest(same), base);
        QList<Offer> others;
        auto changed = [&](auto change) {
            Offer o = a;
            change(o);
            others.append(o);
        };
        changed([](Offer &o) { o.provider = QStringLiteral("gcp"); });
        changed([](Offer &o) { o.instanceType += u'x'; });
        changed([](Offer &o) {
            o.instanceType = QStringLiteral("p4d.24xlargeus-east-1");
            o.region.clear();
        });
        changed([](Offer &o) { o.zone = QStringLiteral("a"); });
        changed([](Offer &o) { o.gpuRawName = QStringLiteral("A10"); });
        changed([](Offer &o) { o.gpuCount = 4; });
        changed([](Offer &o) { o.gpuMemGb.reset(); });
        changed([](Offer &o) { o.vcpus.reset(); });
        changed([](Offer &o) { o.ramGb = 0; });
        changed([](Offer &o) { o.networkGbps = 100; });
        changed([](Offer &o) { o.interconnect = QStringLiteral("NVLink"); });
        changed([](Offer &o) { o.onDemandUsdH = std::nextafter(32.77, 100.0); });
        changed([](Offer &o) { o.spotUsdH = 9; });
        changed([](Offer &o) { o.spotLabel.clear(); });
        changed([](Offer &o) { o.interruption = QStringLiteral("<5%"); });
        changed([](Offer &o) { o.reliability = 0.9; });
        changed([](Offer &o) { o.uploadGbps = 1; });
        changed([](Offer &o) { o.dlperf.reset(); });
        changed([](Offer &o) { o.billingIncrementS = 2; });
        changed([](Offer &o) { o.billingMinimumS = 0; });
        changed([](Offer &o) { o.source += u'.'; });
        QSet<QByteArray> digests{base};
        for (const Offer &o : std::as_const(others))
            digests.insert(rowDigest(o));
        QCOMPARE(digests.size(), others.size() + 1);
    }

    void preparedRowIsTheDigestOfAPrintableRow()
    {
        // prepareRow (made on the reading thread) is ready only when none of the texts the import cleans
        // holds a character it would replace; its digest is then rowDigest's.
        Offer a = offer(QStringLiteral("p4d.24xlarge"), 32.77);
        a.zone = QStringLiteral("us-east-1a");
        a.interconnect = QStringLiteral("NVSwitch");
        a.interruption = QStringLiteral("<5%");
        a.region = QStringLiteral("Qu\u00e9bec, CA \U0001F600 \uFFFD"); // beyond ASCII, printable
        const PreparedRow ready = prepareRow(a);
        QVERIFY(ready.ready);
        QCOMPARE(ready.digestView().toByteArray(), rowDigest(a));
        // Each cleaned text in turn: a control or bidirectional formatting character makes the row not ready.
        QString Offer::*texts[] = {&Offer::provider,  &Offer::instanceType, &Offer::region,
                                   &Offer::zone,      &Offer::gpuRawName,   &Offer::interconnect,
                                   &Offer::spotLabel, &Offer::interruption, &Offer::source};
        for (QString Offer::*t : texts) {
            for (const QChar c : {QChar(0x07), QChar(u'\n'), QChar(0x9b), QChar(0x202e)}) {
                Offer b = a;
                b.*t += c;
                QVERIFY2(!prepareRow(b).ready, qPrintable(b.*t));
            }
        }
        // The GPU id is not a provider's text (the import sets it): it does not stop a row being ready.
        Offer c = a;
        c.gpuId = QStringLiteral("a100\u0007");
        QVERIFY(prepareRow(c).ready);
    }

    void largeFingerprintHashesAsItsText()
    {
        // The fingerprint's SHA-256 (libcrypto, fed in large pieces) over many rows, a row longer than a
        // piece among them: the digest of the whole text (Qt's SHA-256 as the oracle).
        SnapshotData d;
        d.provider = QStringLiteral("vastai");
        for (int i = 0; i < 3000; ++i) {
            Offer o = offer(QString::number(100000 + i * 7919 % 3000), 0.1 + i * 0.013);
            o.provider = d.provider;
            o.region = QStringLiteral("Place %1, CA").arg(i % 17);
            if (i == 1234)
                o.region = QString(70000, u'x') + QStringLiteral(" \u00e9");
            d.offers.append(o);
        }
        const QByteArray text = snapshotFingerprint(d);
        QVERIFY(text.size() > 3 * 65536);
        const QByteArray expected = QCryptographicHash::hash(text, QCryptographicHash::Sha256);
        QCOMPARE(snapshotFingerprintSha256(d), expected);
        SnapshotData passed;
        CollectingSink collect(passed);
        FingerprintingSink fingerprint(collect);
        QVERIFY(fingerprint.begin(d).ok());
        for (const Offer &o : std::as_const(d.offers))
            QVERIFY(fingerprint.add(Offer(o)).ok());
        QCOMPARE(fingerprint.sha256(d.provider), expected);
    }

    void vastMetricsCountWhenPresent()
    {
        SnapshotData d;
        d.provider = QStringLiteral("aws");
        d.offers = {offer(QStringLiteral("p4d.24xlarge"), 32.77)};
        const QByteArray without = snapshotFingerprint(d);
        d.offers[0].dlperf = 141.77;
        const QByteArray withDlperf = snapshotFingerprint(d);
        QVERIFY(withDlperf != without);
        d.offers[0].dlperf = 150.0;
        QVERIFY(snapshotFingerprint(d) != withDlperf);
        d.offers[0].dlperf.reset();
        d.offers[0].uploadGbps = 2.24;
        QVERIFY(snapshotFingerprint(d) != without);
    }
};

QTEST_GUILESS_MAIN(TestFingerprint)
#include "test_fingerprint.moc"

// snapshotFingerprint decides whether a refresh changed anything ("unchanged" creates no new
// snapshot). Its text for offers without vast.ai metrics must stay exactly what version 1 wrote,
// so that upgrading does not make every provider's next refresh look like a change.

#include "providers/providerimport.h"

#include <QCryptographicHash>
#include <QTest>

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

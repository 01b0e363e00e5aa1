// OfferPipe carries a parser's offers from its thread to the importing thread: every offer arrives, in
// order, after the head; what it holds is bounded; the sink's first error stops the producer and is the
// result, as if the parser had fed the sink directly.
#include "providers/offerpipe.h"

#include "domain/snapshotchecks.h"

#include <QTest>

#include <thread>

using namespace gf;

namespace {

/// Records what arrives, on the consuming thread; refuses offer `failAt` (1-based) when set.
class RecordingSink final : public OfferSink
{
public:
    explicit RecordingSink(qint64 failAt = 0) : m_failAt(failAt) {}
    Status begin(const SnapshotData &head) override
    {
        events.append(QStringLiteral("begin ") + head.provider);
        return Ok{};
    }
    Status add(Offer &&offer) override
    {
        if (offer.id == m_failAt)
            return makeError(QStringLiteral("offer %1 refused").arg(offer.id));
        ids.append(offer.id);
        return Ok{};
    }
    Status addPrepared(Offer &&offer, const PreparedRow &prepared) override
    {
        const PreparedRow expected = prepareRow(offer);
        if (expected.ready != prepared.ready || (expected.ready && expected.digest != prepared.digest))
            wrongPrepared.append(offer.id);
        readyRows += prepared.ready ? 1 : 0;
        return add(std::move(offer));
    }
    QStringList events;
    QList<qint64> ids;
    QList<qint64> wrongPrepared; ///< offers whose prepareRow did not come with them
    qint64 readyRows = 0;

private:
    qint64 m_failAt;
};

Offer offer(qint64 id)
{
    Offer o;
    o.id = id;
    o.instanceType = QString::number(id);
    o.onDemandUsdH = 0.1 * static_cast<double>(id);
    if (id % 10 == 3) // a text the import cleans: not ready
        o.gpuRawName = QStringLiteral("RTX\u0007");
    return o;
}

} // namespace

class TestOfferPipe final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void everyOfferInOrder()
    {
        RecordingSink sink;
        OfferPipe pipe(sink);
        const qint64 n = OfferPipe::kChunkOffers * 9 + 17;
        bool producerOk = true;
        std::thread producer([&] {
            SnapshotData head;
            head.provider = QStringLiteral("vastai");
            producerOk = pipe.begin(head).ok();
            for (qint64 i = 1; i <= n && producerOk; ++i)
                producerOk = pipe.add(offer(i)).ok();
            pipe.close();
        });
        pipe.consume();
        producer.join();
        QVERIFY(producerOk);
        QVERIFY(!pipe.error());
        QCOMPARE(sink.events, QStringList{QStringLiteral("begin vastai")});
        QCOMPARE(sink.ids.size(), n);
        for (qint64 i = 0; i < n; ++i)
            QCOMPARE(sink.ids.at(i), i + 1);
        // Each offer came with its own prepareRow, made on the producer's thread.
        QCOMPARE(sink.wrongPrepared, QList<qint64>{});
        QCOMPARE(sink.readyRows, n - (n + 7) / 10); // ids ending in 3 are not ready
        // Bounded: the queued chunks, the one being imported and the one being filled.
        QVERIFY2(pipe.peakHeld() <=
                     static_cast<qsizetype>(OfferPipe::kMaxChunks + 2) * OfferPipe::kChunkOffers,
                 qPrintable(QString::number(pipe.peakHeld())));
        // After the producer: straight to the sink.
        pipe.direct();
        QVERIFY(pipe.add(offer(n + 1)).ok());
        QCOMPARE(sink.ids.last(), n + 1);
    }

    void theSinksErrorStopsTheProducer()
    {
        const qint64 failAt = OfferPipe::kChunkOffers * 2 + 5;
        RecordingSink sink(failAt);
        OfferPipe pipe(sink);
        qint64 given = 0;
        QString producerError;
        std::thread producer([&] {
            SnapshotData head;
            head.provider = QStringLiteral("vastai");
            (void)pipe.begin(head);
            for (qint64 i = 1; i <= 1000000; ++i) {
                auto st = pipe.add(offer(i));
                if (!st) {
                    producerError = st.error().text();
                    break;
                }
                given = i;
            }
            pipe.close();
        });
        pipe.consume();
        producer.join();
        QVERIFY(pipe.error());
        QCOMPARE(pipe.error()->text(), QStringLiteral("offer %1 refused").arg(failAt));
        QCOMPARE(producerError, pipe.error()->text());
        // Nothing after the refused offer reached the sink; the producer stopped within the pipe's bound.
        QCOMPARE(sink.ids.size(), failAt - 1);
        QCOMPARE(sink.ids.last(), failAt - 1);
        QVERIFY2(given < failAt + static_cast<qint64>(OfferPipe::kMaxChunks + 2) * OfferPipe::kChunkOffers,
                 qPrintable(QString::number(given)));
    }
};

QTEST_GUILESS_MAIN(TestOfferPipe)
#include "test_offerpipe.moc"

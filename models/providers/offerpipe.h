#pragma once

#include "domain/snapshotdata.h"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace gf {

/// Carries the offers a parser gives on one thread (the producer) to a sink on another (the consumer: the
/// thread that owns the database connection), in order, a chunk at a time, so that reading a file and
/// importing it run side by side. What is held is bounded: at most kMaxChunks chunks of kChunkOffers.
/// The consumer's first error stops both sides: the producer's next begin()/add() returns it (its parser
/// aborts), so the result is what the same sink gives when the parser feeds it directly. Each offer's
/// prepareRow (the texts' check and the row's digest) is made on the producer's thread and given to the
/// sink with it (addPrepared).
///
///     OfferPipe pipe(sink);
///     std::thread producer([&] { parse(file, pipe); pipe.close(); });
///     pipe.consume();
///     producer.join();
///     pipe.direct(); // from here on begin()/add() go straight to the sink (e.g. a parser's finish())
class OfferPipe final : public OfferSink
{
public:
    static constexpr qsizetype kChunkOffers = 1024;
    static constexpr std::size_t kMaxChunks = 4;

    explicit OfferPipe(OfferSink &next) : m_next(next) {}

    // The producer's side.
    Status begin(const SnapshotData &head) override;
    Status add(Offer &&offer) override;
    /// The producer gives nothing more: consume() returns once it has passed everything on.
    void close();

    /// The consumer's side: passes everything on until the producer closes or the sink fails.
    void consume();
    /// After the producer has stopped: begin()/add() go straight to the sink, on the caller's thread.
    void direct();
    /// The sink's first error, if any.
    std::optional<Error> error() const;
    /// The most offers held by the pipe at one time (a counter for the tests).
    qsizetype peakHeld() const;

private:
    struct Item
    {
        std::optional<SnapshotData> head;
        QList<Offer> offers;
        std::vector<PreparedRow> prepared; ///< one per offer
    };
    Status push(Item item);

    OfferSink &m_next;
    Item m_pending; ///< the producer's chunk being filled (no head)
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Item> m_queue;
    qsizetype m_held = 0;
    qsizetype m_peakHeld = 0;
    bool m_closed = false;
    bool m_direct = false;
    std::optional<Error> m_error;
};

} // namespace gf

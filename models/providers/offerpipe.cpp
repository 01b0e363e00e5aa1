#include "providers/offerpipe.h"

#include "domain/snapshotchecks.h"

#include <algorithm>
#include <utility>

namespace gf {

Status OfferPipe::push(Item item)
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_queue.size() < kMaxChunks || m_error; });
    if (m_error)
        return *m_error;
    m_held += item.offers.size();
    m_peakHeld = std::max(m_peakHeld, m_held + m_pending.offers.size());
    m_queue.push_back(std::move(item));
    m_changed.notify_all();
    return Ok{};
}

Status OfferPipe::begin(const SnapshotData &head)
{
    if (m_direct)
        return m_next.begin(head);
    if (!m_pending.offers.isEmpty())
        if (auto st = push(std::exchange(m_pending, {})); !st)
            return st;
    SnapshotData h = head;
    h.offers = {};
    return push({std::move(h), {}, {}});
}

Status OfferPipe::add(Offer &&offer)
{
    if (m_direct)
        return m_next.add(std::move(offer));
    if (m_pending.offers.isEmpty()) {
        m_pending.offers.reserve(kChunkOffers);
        m_pending.prepared.reserve(static_cast<std::size_t>(kChunkOffers));
    }
    m_pending.prepared.push_back(prepareRow(offer));
    m_pending.offers.append(std::move(offer));
    if (m_pending.offers.size() < kChunkOffers)
        return Ok{};
    return push(std::exchange(m_pending, {}));
}

void OfferPipe::close()
{
    if (!m_pending.offers.isEmpty())
        (void)push(std::exchange(m_pending, {})); // a failed sink has its error already
    std::lock_guard lock(m_mutex);
    m_closed = true;
    m_changed.notify_all();
}

void OfferPipe::consume()
{
    while (true) {
        Item item;
        {
            std::unique_lock lock(m_mutex);
            m_changed.wait(lock, [&] { return !m_queue.empty() || m_closed; });
            if (m_queue.empty())
                return;
            item = std::move(m_queue.front());
            m_queue.pop_front();
            m_changed.notify_all();
        }
        std::optional<Error> failed;
        if (item.head)
            if (auto st = m_next.begin(*item.head); !st)
                failed = st.error();
        for (qsizetype i = 0; i < item.offers.size() && !failed; ++i)
            if (auto st =
                    m_next.addPrepared(std::move(item.offers[i]), item.prepared[static_cast<std::size_t>(i)]);
                !st)
                failed = st.error();
        std::lock_guard lock(m_mutex);
        m_held -= item.offers.size();
        if (failed) {
            m_error = std::move(failed);
            m_queue.clear();
            m_changed.notify_all();
            return;
        }
    }
}

void OfferPipe::direct()
{
    std::lock_guard lock(m_mutex);
    m_direct = true;
}

std::optional<Error> OfferPipe::error() const
{
    std::lock_guard lock(m_mutex);
    return m_error;
}

qsizetype OfferPipe::peakHeld() const
{
    std::lock_guard lock(m_mutex);
    return m_peakHeld;
}

} // namespace gf

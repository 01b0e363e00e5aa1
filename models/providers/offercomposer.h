#pragma once

#include "domain/snapshotdata.h"

#include <QList>
#include <QString>

namespace gf {

/// Offers composed from a price list's items given one at a time, page by page as they are read (the
/// Azure Retail Prices items, the Google Cloud Billing SKUs): what is held is the composition's state (one
/// chosen price per key, the skip counts), not the items, so it does not grow with pages or repeated items.
/// The live refreshes and the file imports of saved pages fold through the same composer.
template <class Item> class OfferComposer
{
public:
    virtual ~OfferComposer() = default;
    virtual void add(const Item &item) = 0;
    /// The offers of every item added, with the skip counts' warnings; starts over.
    virtual SnapshotData finish(const QString &source) = 0;
    /// The prices held (a counter for tests: it does not grow with repeated items).
    virtual qsizetype pricesHeld() const = 0;

    /// Every item of a page.
    void addAll(const QList<Item> &items)
    {
        for (const Item &i : items)
            add(i);
    }
    /// The composition of `items` held whole (composeAzureOffers, composeGcpOffers).
    SnapshotData compose(const QList<Item> &items, const QString &source)
    {
        addAll(items);
        return finish(source);
    }
};

} // namespace gf

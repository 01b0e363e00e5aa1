#pragma once

#include "providers/snapshotfile.h"
#include "util/jsonstream.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

namespace gf {

/// The number of offers vast.ai answers when a query states no limit (and, reportedly, to anonymous
/// queries whatever the limit): an answer of exactly this many offers is probably cut short.
inline constexpr int kVastDefaultLimit = 64;

/// One answer of the offer search, with what was skipped and why.
struct VastOfferPage
{
    SnapshotData data;      ///< the usable offers (warnings not yet filled in)
    int answered = 0;       ///< offers in the answer, usable or not
    int malformed = 0;      ///< offers skipped for a wrong type or a missing name/id
    QString firstMalformed; ///< what was wrong with the first of them ("offers[3].dph_total is not a number")
    int notRentable = 0;    ///< rentable: false or rented: true
    int noPrice = 0;        ///< no positive dph_total / search.totalHour
    std::optional<double> maxPrice; ///< the largest hourly price in the answer (the next page's cursor)
};

/// Parses one vast.ai offer search answer ({"offers": [...]} from the API, or the bare array that
/// `vastai search offers --raw` prints): every rentable, not rented offer with its on-demand price
/// (dph_total, else search.totalHour), interruptible minimum bid, reliability, vCPUs
/// (cpu_cores_effective: the share of the host that the offer rents), RAM (the same share of cpu_ram,
/// MB -> GB), GPU memory (MiB -> GB), download and upload bandwidth (Mb/s -> Gbps), DLPerf. An offer
/// with a wrong type or no id/GPU name is skipped and counted; only an answer that is not an offer
/// list, or whose every offer is malformed (a changed API), is an error.
Result<VastOfferPage> parseVastOfferPage(QByteArrayView data, const QString &origin);

/// The warnings of a page's skipped offers ("2 malformed offers skipped (first: ...)").
QStringList vastPageWarnings(const VastOfferPage &page);

/// parseVastOfferPage with the warnings in the snapshot; an answer of exactly kVastDefaultLimit
/// offers is warned about (probably cut short).
Result<SnapshotData> parseVastOffers(QByteArrayView data, const QString &origin);

/// The search query the live refresh sends (POST /api/v0/bundles/): rentable, not rented on-demand
/// offers, cheapest first. `minPrice` set: only offers of at least that hourly price (dph_total), the
/// cursor of the next page when an answer was cut at kVastDefaultLimit.
QByteArray vastSearchQuery(int limit = 10000, std::optional<double> minPrice = std::nullopt);

/// A vast.ai answer read as it streams (JsonStreamParser events), for an answer of any size: one offer is
/// held at a time and each usable offer goes to the sink as it is read, with the same rules, counts,
/// warnings and errors as parseVastOffers. Two passes over the same bytes: scan() finds the answer's form
/// and capture timestamp (the offers skipped unparsed), then offers() reads the offers. The prices' date
/// (the timestamp, else the first usable offer's end_date - duration, else `fallbackDate`) must be known
/// before the sink begins: offers read before it is are held until then.
class VastAnswerReader
{
public:
    VastAnswerReader(QString origin, QString descriptionSuffix, QDate fallbackDate, OfferSink &sink);
    ~VastAnswerReader();
    VastAnswerReader(const VastAnswerReader &) = delete;
    VastAnswerReader &operator=(const VastAnswerReader &) = delete;

    /// The handler of the first pass.
    JsonHandler &scan();
    /// After the first pass: an error when the answer is not an offer list.
    Status scanned();
    /// The handler of the second pass (a sink error aborts it: see error()).
    JsonHandler &offers();
    /// What stopped the second pass when its handler aborted.
    const std::optional<Error> &error() const;
    /// After the second pass: the catalog's provider, date, description and warnings (no offers), or the
    /// error of an answer whose every offer is malformed.
    Result<SnapshotData> finish();
    /// What the second pass counted (answered, skipped, the largest price); `data` holds nothing.
    const VastOfferPage &page() const;

private:
    class Scan;
    class Offers;
    std::unique_ptr<Scan> m_scan;
    std::unique_ptr<Offers> m_offers;
};

/// One answer of the live offer search (held in memory) read with VastAnswerReader: its usable offers go
/// to `sink` as they are read (ids 1..n within the answer; sink.begin() first, with the answer's own head,
/// whose date may be unknown), so that only one offer is held besides the body (offers read before the
/// answer's date is known are held until it is, at most the answer's). The result has parseVastOfferPage's
/// counts and maxPrice, no offers; its errors are parseVastOfferPage's. A body that is not valid UTF-8 or
/// that the stream parser refuses is read with parseVastOfferPage, as before, and its offers given to the
/// sink.
Result<VastOfferPage> streamVastOfferPage(QByteArrayView data, const QString &origin, OfferSink &sink);

} // namespace gf

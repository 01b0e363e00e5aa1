#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QByteArrayView>
#include <QDate>
#include <QList>
#include <QString>
#include <QStringList>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gf {

class GpuCatalog;
class ProviderTables;

/// A provider's catalog as parsed from a file, ready to import (not yet in the database).
struct SnapshotData
{
    QString provider;
    QDate dataDate;      ///< date of the prices ("# snapshot_date:")
    QString description; ///< "# source:" line
    QList<Offer> offers;
    QStringList warnings; ///< non-fatal findings (spot above on-demand, ...)
};

/// Plausibility limits applied before anything is written.
struct ValidationLimits
{
    double maxUsdPerHour = 500.0; ///< the largest 8-GPU instances cost ~100 USD/h
    double maxGpuCount = 64.0;
    int minRows = 1;
    /// The import date (UTC) that price dates are checked against: invalid = today. A snapshot date or a
    /// row's price date later than the day after it (a provider's local date may run a day ahead of UTC)
    /// is refused: prices dated in the future would make every other provider's look old.
    QDate importDate;
};

/// Resolves each offer's GPU variant (resolveOfferGpu: provider table first, else the name with the
/// memory tie-break; it sets gpuId and, from the table, gpuCount and interconnect, and memory when the
/// offer states none), sets the per-offer flags (unrecognised, memory differs, spot above on-demand,
/// spot at the floor, stale row; a parser's gpu-below-spot is kept) and checks types, units and ranges.
/// Every row must pass; the error names the origin, the line/row and what was wrong. `tables` nullptr:
/// the built-in provider tables.
Status validateSnapshot(SnapshotData &data, const GpuCatalog &gpus, const QString &origin,
                        const ValidationLimits &limits = {}, const ProviderTables *tables = nullptr);

/// What a thread that reads a catalog works out about a row before the import checks it (prepareRow, on
/// OfferPipe's reading thread, so that the thread that owns the database does not): whether its texts are
/// all printable (the import's cleaning changes none of them) and, when they are, its digest (rowDigest).
struct PreparedRow
{
    bool ready = false; ///< every text printable and `digest` is rowDigest of the row as it is
    std::array<char, 16> digest{};
    QByteArrayView digestView() const { return {digest.data(), static_cast<qsizetype>(digest.size())}; }
};

/// Takes a catalog's offers one at a time as a parser reads them (a streamed import: the store's
/// SnapshotImport), instead of a SnapshotData holding them all.
class OfferSink
{
public:
    virtual ~OfferSink() = default;
    /// Once, before the first offer: the catalog's provider, date and description (`head.offers` empty).
    virtual Status begin(const SnapshotData &head) = 0;
    /// One offer, `offer.id` its line in the file (or 0). An error stops the parser with it.
    virtual Status add(Offer &&offer) = 0;
    /// add() with what prepareRow found for the offer as it is given. A sink that uses it, or passes it on
    /// with the offer unchanged, overrides this; any other sink drops it (the default), so that a sink that
    /// changes an offer never passes on a digest of the offer it was.
    virtual Status addPrepared(Offer &&offer, const PreparedRow &prepared)
    {
        (void)prepared;
        return add(std::move(offer));
    }
};

/// An OfferSink that keeps every offer in `data` (a parser's whole-catalog form).
class CollectingSink final : public OfferSink
{
public:
    explicit CollectingSink(SnapshotData &data) : m_data(data) {}
    Status begin(const SnapshotData &head) override;
    Status add(Offer &&offer) override;

private:
    SnapshotData &m_data;
};

/// A streaming parser's whole-catalog form: runs `parse` into a CollectingSink and returns the header it
/// returns with every offer it gave.
Result<SnapshotData> collectOffers(const std::function<Result<SnapshotData>(OfferSink &)> &parse);

class SeenRows;
class SnapshotChunkChecks;

/// validateSnapshot over a catalog that arrives in chunks (a streamed import): the same checks, flags,
/// messages and warnings, with only the current chunk held. begin() once, add() per chunk in file order,
/// finish() after the last.
class SnapshotValidator
{
public:
    /// `seen` keeps the rows and offer ids seen so far (the store's temporary tables when streaming).
    SnapshotValidator(const GpuCatalog &gpus, QString origin, ValidationLimits limits, SeenRows &seen,
                      const ProviderTables *tables = nullptr);
    ~SnapshotValidator();
    SnapshotValidator(const SnapshotValidator &) = delete;
    SnapshotValidator &operator=(const SnapshotValidator &) = delete;

    /// The provider and the date of the prices (`head.offers` are not looked at). `rows`: the whole
    /// catalog's row count when it is known already (a catalog too small is refused before anything else,
    /// naming `head.warnings`).
    Status begin(const SnapshotData &head, std::optional<qsizetype> rows);
    /// Checks and completes a chunk of rows (in file order, ids = their lines); rows identical to an
    /// earlier row are removed from it. `prepared`, when given, holds prepareRow of each row as given (same
    /// order and count).
    Status add(QList<Offer> &rows, const std::vector<PreparedRow> *prepared = nullptr);
    /// After the last chunk: refuses a catalog of fewer than limits.minRows rows (`rawRows`: every row given
    /// to add) or named like another provider's, and appends the warnings to `meta.warnings`.
    Status finish(SnapshotData &meta, qint64 rawRows);

private:
    const GpuCatalog &m_gpus;
    const ProviderTables &m_shapes;
    QString m_origin;
    ValidationLimits m_limits;
    SeenRows &m_seen;
    QString m_provider;
    QDate m_dataDate;
    QDate m_importDate;
    std::unique_ptr<SnapshotChunkChecks> m_checks;
    int m_spotAbove = 0, m_spotFloor = 0, m_gpuBelowSpot = 0, m_stale = 0, m_tooOld = 0, m_memoryDiffers = 0,
        m_fromTable = 0, m_noOnDemand = 0;
};

} // namespace gf

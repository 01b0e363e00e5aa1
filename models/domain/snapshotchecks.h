#pragma once

#include "domain/snapshotdata.h"
#include "util/result.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QSet>
#include <QString>

#include <optional>
#include <utility>
#include <vector>

namespace gf {

/// Checks on a parsed catalog that come before the row-by-row validation (validateSnapshot calls them).

/// Replaces the control characters (C0, DEL, C1) and bidirectional formatting characters in every text
/// of `data` (offers, description, warnings): line breaks and tabs by a space, the others by U+FFFD, so
/// that no provider's string can recolour a terminal, split a table row or reorder what is shown, and
/// no NUL cuts a name. Adds one warning naming how many texts changed and the first of them. Returns
/// the number of texts changed.
qsizetype normaliseSnapshotText(SnapshotData &data);

/// The provider whose naming an offer follows, judged from its instance type and region alone (AWS
/// "p4d.24xlarge" in "us-east-1", Azure "Standard_ND96asr_v4", Google Cloud "a2-highgpu-1g" in
/// "us-central1", vast.ai "2x-H200-32-65536" in "France, FR, EU", Paperspace "East Coast (NY2)");
/// empty when the names say nothing (a custom catalog's own names).
QString providerOfNaming(const QString &instanceType, const QString &region);

/// Refuses a catalog holding rows named like another provider's (an AWS catalog imported as Azure):
/// the error names the other provider, how many rows and the first one with its line.
Status checkProviderNaming(const SnapshotData &data, const QString &origin);

/// checkProviderNaming over rows given one at a time (a catalog that is not held whole): add() every row
/// (its instance type, region and line), finish() after the last.
class ProviderNaming
{
public:
    explicit ProviderNaming(QString provider);
    void add(const Offer &row);
    /// Whether a row named like another provider's was found.
    bool foreignFound() const { return m_foreign > 0; }
    /// checkProviderNaming's error when a row was named like another provider's.
    Status finish(const QString &origin) const;

private:
    QString m_provider;
    bool m_typesOnly = false;
    qint64 m_rows = 0;
    int m_foreign = 0;
    QString m_other;
    Offer m_firstForeign;
};

/// The error for a catalog with fewer than `minRows` offers: what the parser skipped and why (its
/// warnings: which field failed on how many rows, with the first examples) when it says, else a hint at a
/// truncated or empty download.
Error tooFewRows(const SnapshotData &data, const QString &origin, int minRows);

/// The rows and offer ids a validation that goes chunk by chunk has seen so far (SnapshotValidator):
/// in memory for a catalog held whole, in the database's temporary tables for a streamed import, so that
/// what is held does not grow with the rows.
class SeenRows
{
public:
    virtual ~SeenRows() = default;
    /// Records a row's digest (rowDigest): true when it is new, false when an identical row came before.
    virtual Result<bool> addRow(QByteArrayView digest) = 0;
    /// Records a vast.ai offer id at its line: 0 when it is new, else the line it was recorded at before.
    virtual Result<qint64> addOfferId(const QString &id, qint64 line) = 0;
    /// What addKeyedRow found.
    struct Keyed
    {
        bool fresh = true;  ///< false: an identical row came before
        qint64 earlier = 0; ///< fresh and its id was recorded before (by another row) at this line
    };
    /// A vast.ai row with its offer id: addRow(digest), and, when the row is new, addOfferId(id, line),
    /// in one look-up where the id is new or the row repeats the one recorded with it (an identical row
    /// has the same id). `earlier` is set only for a fresh row whose id is already recorded.
    virtual Result<Keyed> addKeyedRow(const QString &id, QByteArrayView digest, qint64 line) = 0;
};

/// SeenRows in memory.
class SeenRowsInMemory final : public SeenRows
{
public:
    Result<bool> addRow(QByteArrayView digest) override;
    Result<qint64> addOfferId(const QString &id, qint64 line) override;
    Result<Keyed> addKeyedRow(const QString &id, QByteArrayView digest, qint64 line) override;

private:
    QSet<QByteArray> m_rows;
    QHash<QString, qint64> m_ids;
};

/// A digest of every field of a row: two rows are identical when their digests are.
QByteArray rowDigest(const Offer &o);

/// What the import's checks need of a row that can be worked out before them, on another thread: whether
/// every text the cleaning looks at (normaliseSnapshotText) is printable and, if so, the row's digest.
/// A row with an unprintable text is not ready: its digest is the one of its cleaned texts, made later.
PreparedRow prepareRow(const Offer &o);

/// The error for a catalog of `rows` offers, fewer than `minRows`; `warnings` are the parser's.
Error tooFewRows(qsizetype rows, const QStringList &warnings, const QString &origin, int minRows);

/// Drops every row identical in all its fields to an earlier row (a catalog that lists a row twice):
/// the first stays. Adds a warning with the count and the first duplicate's line. Returns the count.
qsizetype dropIdenticalRows(SnapshotData &data);

/// vast.ai offers are named by their numeric offer id: two different offers under one id are refused
/// (which of them is the real one cannot be told). Identical repeats are dropped before this.
Status checkUniqueOfferIds(const SnapshotData &data, const QString &origin);

/// The cheapest price that is plausible for a whole instance, USD/h: below it a price is a data error
/// (0.00, 1e-320).
inline constexpr double kMinPlausibleUsdPerHour = 0.001;

/// Refuses a row whose on-demand or spot price is above zero but below kMinPlausibleUsdPerHour.
Status checkMinimumPrices(const SnapshotData &data, const QString &origin);

/// The checks above (from normaliseSnapshotText on) over a catalog that arrives in chunks, with the same
/// results and messages as over the whole catalog at once: counts and first examples are carried from
/// chunk to chunk, and identical rows and offer ids are looked up in `seen`.
class SnapshotChunkChecks
{
public:
    SnapshotChunkChecks(QString provider, QString origin, SeenRows &seen);
    /// Normalises the chunk's texts, removes rows identical to an earlier row, and checks offer ids and
    /// minimum prices. Once a row named like another provider's is found, every further chunk is only
    /// counted (cleared) and finish() refuses the catalog. `prepared` (optional): prepareRow of each row
    /// as given, in order; a ready row's texts are known to be printable and its digest is used.
    Status add(QList<Offer> &rows, const std::vector<PreparedRow> *prepared = nullptr);
    /// Whether a row named like another provider's was found (the chunks are then cleared by add).
    bool foreignFound() const { return m_naming.foreignFound(); }
    /// Normalises the description and the warnings, refuses a catalog named like another provider's, and
    /// appends the warnings of the normalised texts and dropped rows to `meta.warnings`.
    Status finish(SnapshotData &meta);
    /// The rows kept so far (identical repeats removed).
    qint64 kept() const { return m_kept; }

private:
    QString m_provider;
    QString m_origin;
    SeenRows &m_seen;
    ProviderNaming m_naming;
    qsizetype m_changed = 0;
    QString m_firstChanged;
    qsizetype m_dropped = 0;
    qint64 m_firstDropped = 0;
    qint64 m_kept = 0;
    /// The chunk's first kept row whose offer id an earlier row holds (vast.ai): the earlier line and it.
    std::optional<std::pair<qint64, Offer>> m_idConflict;
};

} // namespace gf

#pragma once

#include "domain/offer.h"

#include <QHash>
#include <QList>
#include <QString>

#include <array>
#include <vector>

namespace gf {

/// The offers of a catalog held compactly, for the commands that read a million of them at once
/// (`gpufrontier-cli frontier` and `offers`): a row of plain numbers per offer (~170 bytes instead of an
/// Offer's 464 and its texts), the texts of each column held once per distinct value (a column of unique
/// values, such as vast.ai's offer ids, packed into one block of characters), the optional figures
/// NaN-coded, the snapshot's id and dates once per snapshot. `at(i)` gives back the Offer exactly as it
/// was appended (every field; a stored NaN figure cannot be told from a missing one, and the database
/// stores none). Only `flags` and `medianUsdPerGpuH` change after an append (applyPriceSanity).
class OfferTable
{
public:
    /// The text columns.
    enum Column : std::size_t
    {
        Provider,
        InstanceType,
        Region,
        Zone,
        GpuRawName,
        GpuId,
        Interconnect,
        SpotLabel,
        Interruption,
        Source,
        TextColumns
    };
    OfferTable();

    qsizetype size() const { return static_cast<qsizetype>(m_rows.size()); }
    bool isEmpty() const { return m_rows.empty(); }
    void reserve(qsizetype rows);
    void append(const Offer &offer);
    /// The offer of row i, every field as appended (flags and median as last set).
    Offer at(qsizetype i) const;
    /// The same values as at(i), its texts pointing into this table (QString::fromRawData: no copy, no
    /// reference count, no allocation): for reading rows by the million. Valid while the table lives and
    /// no row is appended; a text that is changed is copied first, as any QString.
    Offer view(qsizetype i) const;

    /// A hint: starts loading row i into the cache (a reader of rows in a random order calls it a few
    /// rows ahead).
    void prefetch(qsizetype i) const
    {
#if defined(__GNUC__)
        const char *p = reinterpret_cast<const char *>(m_rows.data() + i);
        for (std::size_t b = 0; b < sizeof(Row); b += 64)
            __builtin_prefetch(p + b);
        __builtin_prefetch(p + sizeof(Row) - 1);
#else
        Q_UNUSED(i);
#endif
    }

    /// The id of row i's text in `column`: rows with the same id have the same text (in a column of
    /// unique values, past its shared texts, the same text may come under several ids).
    quint32 textId(qsizetype i, Column column) const
    {
        return m_rows[static_cast<std::size_t>(i)].text[column];
    }
    /// Row i's text in `column`, as view(i) gives it (pointing into this table).
    QString textView(qsizetype i, Column column) const
    {
        return m_texts[column].view(textId(i, column));
    }
    double gpuCount(qsizetype i) const
    {
        return m_rows[static_cast<std::size_t>(i)].gpuCount;
    }
    int flags(qsizetype i) const
    {
        return m_rows[static_cast<std::size_t>(i)].flags;
    }
    void setFlags(qsizetype i, int flags)
    {
        m_rows[static_cast<std::size_t>(i)].flags = flags;
    }
    void setMedianUsdPerGpuH(qsizetype i, double median)
    {
        m_rows[static_cast<std::size_t>(i)].median = median;
    }

    /// Every row as an Offer (tests, and callers that need the list form).
    QList<Offer> toList() const;

private:
    enum Figure : std::size_t
    {
        GpuMemGb,
        Vcpus,
        RamGb,
        NetworkGbps,
        OnDemandUsdH,
        SpotUsdH,
        Reliability,
        UploadGbps,
        Dlperf,
        Figures
    };

    /// The distinct texts of one column: the first `kShared` distinct values shared (QString), the rest
    /// of a column of unique values packed as UTF-16 in one block (an id with the top bit set).
    class TextColumn
    {
    public:
        quint32 add(const QString &text);
        QString text(quint32 id) const;
        /// text(id) pointing into this column.
        QString view(quint32 id) const;

    private:
        QList<QString> m_shared;
        QHash<QString, quint32> m_ids;
        QHash<const QChar *, quint32> m_byAddress; ///< the characters of m_shared's texts

        std::vector<char16_t> m_chars;
        std::vector<quint64> m_starts{0}; ///< packed text k is m_chars[m_starts[k], m_starts[k + 1])
    };

    /// The snapshot's facts, the same for every offer of a snapshot.
    struct SnapshotFacts
    {
        qint64 snapshotId = 0;
        QDateTime fetchedAt;
        QDate dataDate;
    };

    struct Row
    {
        qint64 id = 0;
        std::array<quint32, TextColumns> text{};
        std::array<double, Figures> figure{}; ///< NaN = none
        double gpuCount = 0;
        double median = 0;
        qint64 priceDate = 0; ///< Julian days (QDate::toJulianDay; an invalid date's too)
        qint64 listingEnd = 0;
        qint32 billingIncrementS = 0;
        qint32 billingMinimumS = 0;
        qint32 flags = 0;
        quint32 snapshot = 0; ///< index into m_snapshots
    };

    quint32 snapshotIndex(const Offer &o);
    /// Row i as an Offer, each text given by text(column, id).
    template <class Text> Offer offerAt(qsizetype i, Text text) const;

    std::vector<Row> m_rows;
    std::array<TextColumn, TextColumns> m_texts;
    QList<SnapshotFacts> m_snapshots;
};

} // namespace gf

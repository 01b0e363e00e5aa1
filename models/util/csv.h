#pragma once

#include "util/result.h"

#include <QIODevice>
#include <QList>
#include <QString>
#include <QStringList>

#include <functional>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

namespace gf {

/// One parsed CSV record with the (1-based) line it starts on.
struct CsvRecord
{
    int line = 0;
    QStringList fields;
};

/// RFC 4180 reader: quoted fields, doubled quotes, CRLF or LF, embedded newlines.
/// Lines starting with '#' before the header are returned as comments.
struct CsvDocument
{
    QStringList comments; ///< leading '#' lines without the '#', trimmed
    QStringList header;
    QList<CsvRecord> records;

    int column(const QString &name) const { return header.indexOf(name); }
};

/// The whole text at once (CsvRecordReader underneath). Header names are trimmed.
Result<CsvDocument> parseCsv(const QString &text, bool leadingComments = true);

/// parseCsv for a data file shipped with the app: an error names `file`, and a column of `columns` that the
/// header lacks is an error naming it ("FILE: the column NAME is missing"). With `fullRecords`, a record with
/// fewer or more fields than the header is one too ("FILE, record N has X fields, the header has Y").
Result<CsvDocument> parseCsvWithColumns(const QString &text, const QString &file,
                                        std::initializer_list<const char *> columns,
                                        bool fullRecords = false);
/// The trimmed field `name` of record `r`; empty where the header has no such column or the record is short.
QString csvField(const CsvDocument &doc, const CsvRecord &r, const char *name);

/// Incremental RFC 4180 reader over UTF-8 bytes, for files read piece by piece (the AWS price list CSV,
/// gigabytes): quoted fields, doubled quotes, CRLF or LF, line breaks inside quotes; a quote inside an
/// unquoted field, text after a closing quote or an unclosed quote at the end is an error naming the line.
/// Blank lines are skipped. The one CSV grammar of the program: parseCsv reads with it too.
class CsvRecordReader
{
public:
    /// Gets each record with the (1-based) line it starts on; returns false to stop reading.
    using Handler = std::function<bool(std::span<const std::string> fields, qint64 line)>;

    /// `maxFieldBytes` > 0: a longer field is an error (a file that is not CSV at all).
    explicit CsvRecordReader(Handler handler, std::size_t maxFieldBytes = 0, qint64 firstLine = 1);

    /// Reads the next bytes (any split, also inside a field). False when the input is malformed
    /// (error() says why) or the handler stopped (error() empty).
    bool write(const char *data, std::size_t size);
    /// The end of the input: hands over a last record without a line end.
    bool finish();
    QString error() const { return m_error; }

private:
    enum class State : quint8
    {
        FieldStart,
        Unquoted,
        Quoted,
        QuoteInQuoted, ///< a quote inside a quoted field: a doubled quote or the closing one
        AfterQuoted,   ///< after the closing quote (and a '\r')
    };
    bool fail(const QString &message);
    std::string &field() { return m_fields[m_count]; }
    void endField();
    bool endRecord();
    bool fieldTooLong();

    Handler m_handler;
    std::size_t m_maxFieldBytes = 0;
    std::vector<std::string> m_fields; ///< the first m_count + 1 are the record's; kept for their capacity
    std::size_t m_count = 0;           ///< complete fields of the record
    State m_state = State::FieldStart;
    bool m_recordHasContent = false; ///< a comma or a quote: not a blank line
    bool m_failed = false;
    qint64 m_line = 1;
    qint64 m_recordLine = 1;
    QString m_error;
};

/// The bounds on one input file: every reader of a file or body checks them while it streams, so that
/// no input makes the program hold more than about one field and the parsed rows in memory.
struct InputLimits
{
    qint64 maxFileBytes =
        qint64(512) * 1024 * 1024;           ///< a larger file is refused (the AWS offer file has its own)
    std::size_t maxFieldBytes = 1024 * 1024; ///< one CSV field or comment line
};

/// A whole CSV document read piece by piece (CsvRecordReader underneath): an optional byte order mark,
/// leading '#' comment lines (when asked for), the header, then every record handed over as soon as it is
/// complete. Nothing but the record being read is kept.
class CsvStream
{
public:
    /// The comments (without '#', trimmed) and the header (names trimmed); false stops reading.
    using HeaderHandler = std::function<bool(const QStringList &comments, const QStringList &header)>;
    /// One record after the header with the line it starts on; false stops reading.
    using RecordHandler = std::function<bool(const QStringList &fields, qint64 line)>;

    CsvStream(HeaderHandler onHeader, RecordHandler onRecord, bool leadingComments = true,
              std::size_t maxFieldBytes = InputLimits{}.maxFieldBytes);

    /// False when the input is malformed (error() says why) or a handler stopped (error() empty).
    bool write(const char *data, std::size_t size);
    bool finish();
    QString error() const { return m_error.isEmpty() ? m_reader.error() : m_error; }
    bool sawHeader() const { return m_sawHeader; }

private:
    bool prelude(const char *&p, const char *end);
    bool record(std::span<const std::string> fields, qint64 line);

    HeaderHandler m_onHeader;
    RecordHandler m_onRecord;
    std::size_t m_maxFieldBytes;
    CsvRecordReader m_reader;
    bool m_inPrelude; ///< before the header: comment and blank lines
    bool m_inComment = false;
    bool m_bomChecked = false;
    bool m_sawHeader = false;
    std::string m_pending; ///< the first bytes until the byte order mark is decided; a comment line
    QStringList m_comments;
    qint64 m_line = 1; ///< line of the prelude being read
    QString m_error;
};

/// Reads `in` (from where it stands) through `stream`, refusing more than `limits.maxFileBytes`; the error
/// names `origin`.
Status readCsvStream(QIODevice &in, CsvStream &stream, const InputLimits &limits, const QString &origin);

/// Quote one field per RFC 4180 (only when needed).
QString csvQuote(const QString &field);
/// Quote and neutralise cells a spreadsheet would run as a formula (= + - @ at the start).
QString csvQuoteSafe(const QString &field);
/// A number cell: `significantDigits` 0 writes the shortest text that reads back to the same double
/// ("0.125", never an exponent); otherwise that many significant digits ('g' format).
QString csvNumber(double value, int significantDigits = 0);

} // namespace gf

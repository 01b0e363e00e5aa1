#include "util/csv.h"

#include "util/printable.h"

#include <QLocale>

#include <algorithm>
#include <cstring>

namespace gf {

Result<CsvDocument> parseCsv(const QString &text, bool leadingComments)
{
    CsvDocument doc;
    const qsizetype n = text.size();
    qsizetype i = 0;
    int line = 1;
    if (n > 0 && text.at(0) == QChar(0xFEFF))
        i = 1; // byte order mark

    if (leadingComments) {
        while (i < n && (text.at(i) == u'#' || text.at(i) == u'\n' || text.at(i) == u'\r')) {
            qsizetype end = text.indexOf(u'\n', i);
            if (end < 0)
                end = n;
            QString content = text.mid(i, end - i).trimmed();
            if (content.startsWith(u'#'))
                doc.comments.append(content.mid(1).trimmed());
            i = end + 1;
            ++line;
        }
    }

    QList<CsvRecord> rows;
    CsvRecordReader reader(
        [&](std::span<const std::string> fields, qint64 start) {
            CsvRecord r;
            r.line = static_cast<int>(start);
            r.fields.reserve(static_cast<qsizetype>(fields.size()));
            for (const std::string &f : fields)
                r.fields.append(QString::fromUtf8(f.data(), static_cast<qsizetype>(f.size())));
            rows.append(std::move(r));
            return true;
        },
        0, line);
    const QByteArray bytes = QStringView(text).mid(std::min(i, n)).toUtf8();
    if (!reader.write(bytes.constData(), static_cast<std::size_t>(bytes.size())) || !reader.finish())
        return makeError(reader.error());

    if (rows.isEmpty())
        return makeError(QStringLiteral("The CSV has no header line"));
    doc.header = rows.takeFirst().fields;
    for (QString &h : doc.header)
        h = h.trimmed();
    doc.records = std::move(rows);
    return doc;
}

Result<CsvDocument> parseCsvWithColumns(const QString &text, const QString &file,
                                        std::initializer_list<const char *> columns, bool fullRecords)
{
    auto parsed = parseCsv(text);
    if (!parsed)
        return makeError(QStringLiteral("%1: %2").arg(file, parsed.error().message));
    const CsvDocument &doc = parsed.value();
    for (const char *c : columns)
        if (doc.column(QLatin1String(c)) < 0)
            return makeError(QStringLiteral("%1: the column %2 is missing").arg(file, QLatin1String(c)));
    for (qsizetype i = 0; fullRecords && i < doc.records.size(); ++i)
        if (doc.records.at(i).fields.size() != doc.header.size())
            return makeError(QStringLiteral("%1, record %2 has %3 fields, the header has %4")
                                 .arg(file)
                                 .arg(i + 1)
                                 .arg(doc.records.at(i).fields.size())
                                 .arg(doc.header.size()));
    return parsed;
}

QString csvField(const CsvDocument &doc, const CsvRecord &r, const char *name)
{
    const int c = doc.column(QLatin1String(name));
    return c >= 0 && c < r.fields.size() ? r.fields.at(c).trimmed() : QString();
}

CsvRecordReader::CsvRecordReader(Handler handler, std::size_t maxFieldBytes, qint64 firstLine)
    : m_handler(std::move(handler)), m_maxFieldBytes(maxFieldBytes), m_fields(1), m_line(firstLine),
      m_recordLine(firstLine)
{
}

bool CsvRecordReader::fail(const QString &message)
{
    m_failed = true;
    m_error = message;
    return false;
}

bool CsvRecordReader::fieldTooLong()
{
    if (m_maxFieldBytes == 0 || field().size() <= m_maxFieldBytes)
        return false;
    fail(QStringLiteral("Malformed CSV: a field longer than %1 bytes on line %2")
             .arg(m_maxFieldBytes)
             .arg(m_line));
    return true;
}

void CsvRecordReader::endField()
{
    ++m_count;
    if (m_fields.size() <= m_count)
        m_fields.emplace_back();
    m_fields[m_count].clear();
    m_state = State::FieldStart;
}

bool CsvRecordReader::endRecord()
{
    const std::size_t count = m_count + 1;
    const bool blank = count == 1 && !m_recordHasContent && m_fields[0].empty();
    const bool go = blank || m_handler(std::span<const std::string>(m_fields.data(), count), m_recordLine);
    m_count = 0;
    m_fields[0].clear();
    m_state = State::FieldStart;
    m_recordHasContent = false;
    ++m_line;
    m_recordLine = m_line;
    if (!go)
        m_failed = true; // the handler stopped: its own error
    return go;
}

bool CsvRecordReader::write(const char *data, std::size_t size)
{
    if (m_failed)
        return false;
    const char *p = data;
    const char *const end = data + size;
    while (p < end) {
        switch (m_state) {
        case State::Quoted: {
            // Everything up to the next quote is field text (line breaks included).
            const auto *quote =
                static_cast<const char *>(std::memchr(p, '"', static_cast<std::size_t>(end - p)));
            const char *stop = quote ? quote : end;
            m_line += std::count(p, stop, '\n');
            field().append(p, stop);
            if (fieldTooLong())
                return false;
            p = stop;
            if (quote) {
                ++p;
                m_state = State::QuoteInQuoted;
            }
            break;
        }
        case State::FieldStart:
        case State::Unquoted: {
            const char *stop = p;
            while (stop < end && *stop != ',' && *stop != '\n' && *stop != '"' && *stop != '\r')
                ++stop;
            if (stop != p) {
                field().append(p, stop);
                m_state = State::Unquoted;
                if (fieldTooLong())
                    return false;
            }
            if (stop == end)
                return true;
            p = stop + 1;
            switch (*stop) {
            case ',':
                m_recordHasContent = true;
                endField();
                break;
            case '\n':
                if (!endRecord())
                    return false;
                break;
            case '"':
                if (m_state == State::Unquoted)
                    return fail(QStringLiteral("Malformed CSV: a quote inside an unquoted field on line %1")
                                    .arg(m_line));
                m_state = State::Quoted;
                m_recordHasContent = true;
                break;
            default: // '\r': dropped (CRLF line ends)
                break;
            }
            break;
        }
        case State::QuoteInQuoted:
        case State::AfterQuoted: {
            const char c = *p++;
            if (c == '"' && m_state == State::QuoteInQuoted) {
                field().push_back('"'); // a doubled quote
                m_state = State::Quoted;
            } else if (c == ',') {
                m_recordHasContent = true;
                endField();
            } else if (c == '\n') {
                if (!endRecord())
                    return false;
            } else if (c == '\r') {
                m_state = State::AfterQuoted;
            } else if (c == '"') {
                return fail(
                    QStringLiteral("Malformed CSV: a quote inside an unquoted field on line %1").arg(m_line));
            } else {
                return fail(
                    QStringLiteral("Malformed CSV: text after a closing quote on line %1").arg(m_line));
            }
            break;
        }
        }
    }
    return true;
}

bool CsvRecordReader::finish()
{
    if (m_failed)
        return false;
    if (m_state == State::Quoted)
        return fail(
            QStringLiteral("Malformed CSV: a quoted field is not closed (file truncated?) near line %1")
                .arg(m_line));
    if (m_count > 0 || !m_fields[0].empty() || m_recordHasContent) {
        if (!endRecord())
            return false;
        --m_line; // no line end was read
    }
    return true;
}

CsvStream::CsvStream(HeaderHandler onHeader, RecordHandler onRecord, bool leadingComments,
                     std::size_t maxFieldBytes)
    : m_onHeader(std::move(onHeader)), m_onRecord(std::move(onRecord)), m_maxFieldBytes(maxFieldBytes),
      m_reader([this](std::span<const std::string> fields, qint64 line) { return record(fields, line); },
               maxFieldBytes),
      m_inPrelude(leadingComments)
{
}

bool CsvStream::record(std::span<const std::string> fields, qint64 line)
{
    for (const std::string &f : fields)
        if (!isValidUtf8(f.data(), f.size())) {
            m_error = QStringLiteral("line %1 is not valid UTF-8 (save the file as UTF-8)").arg(line);
            return false;
        }
    QStringList list;
    list.reserve(static_cast<qsizetype>(fields.size()));
    for (const std::string &f : fields)
        list.append(QString::fromUtf8(f.data(), static_cast<qsizetype>(f.size())));
    if (!m_sawHeader) {
        m_sawHeader = true;
        for (QString &h : list)
            h = h.trimmed();
        return m_onHeader(m_comments, list);
    }
    return m_onRecord(list, line);
}

bool CsvStream::prelude(const char *&p, const char *end)
{
    while (p < end && m_inPrelude) {
        if (m_inComment) {
            const auto *nl =
                static_cast<const char *>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
            const char *stop = nl ? nl : end;
            m_pending.append(p, stop);
            if (m_maxFieldBytes > 0 && m_pending.size() > m_maxFieldBytes) {
                m_error = QStringLiteral("Malformed CSV: a comment line longer than %1 bytes on line %2")
                              .arg(m_maxFieldBytes)
                              .arg(m_line);
                return false;
            }
            p = stop;
            if (!nl)
                return true;
            ++p;
            m_comments.append(QString::fromUtf8(m_pending).trimmed());
            m_pending.clear();
            m_inComment = false;
            ++m_line;
        } else if (*p == '#') {
            m_inComment = true;
            ++p;
        } else if (*p == '\n') {
            ++m_line;
            ++p;
        } else if (*p == '\r') {
            ++p;
        } else {
            m_inPrelude = false;
            m_reader = CsvRecordReader(
                [this](std::span<const std::string> fields, qint64 line) { return record(fields, line); },
                m_maxFieldBytes, m_line);
        }
    }
    return true;
}

bool CsvStream::write(const char *data, std::size_t size)
{
    if (!m_error.isEmpty())
        return false;
    if (!m_bomChecked) {
        // Decide on the byte order mark once three bytes are there.
        m_pending.append(data, size);
        if (m_pending.size() < 3)
            return true;
        m_bomChecked = true;
        std::string head;
        head.swap(m_pending);
        const std::size_t skip = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        return write(head.data() + skip, head.size() - skip);
    }
    const char *p = data;
    const char *const end = data + size;
    if (m_inPrelude && !prelude(p, end))
        return false;
    if (p == end)
        return true;
    return m_reader.write(p, static_cast<std::size_t>(end - p));
}

bool CsvStream::finish()
{
    if (!m_bomChecked) {
        m_bomChecked = true;
        std::string head;
        head.swap(m_pending);
        const std::size_t skip = head.compare(0, 3, "\xEF\xBB\xBF") == 0 ? 3 : 0;
        if (!write(head.data() + skip, head.size() - skip))
            return false;
    }
    if (!m_error.isEmpty())
        return false;
    if (m_inComment) {
        m_comments.append(QString::fromUtf8(m_pending).trimmed());
        m_pending.clear();
    }
    return m_inPrelude ? true : m_reader.finish();
}

Status readCsvStream(QIODevice &in, CsvStream &stream, const InputLimits &limits, const QString &origin)
{
    QByteArray buffer(1 << 20, Qt::Uninitialized);
    qint64 total = 0;
    while (true) {
        const qint64 n = in.read(buffer.data(), buffer.size());
        if (n < 0)
            return makeError(QStringLiteral("%1: cannot read: %2").arg(origin, in.errorString()));
        if (n == 0)
            break;
        total += n;
        if (limits.maxFileBytes > 0 && total > limits.maxFileBytes)
            return makeError(
                QStringLiteral("%1: larger than %2 MB, too large for a catalog CSV")
                    .arg(origin, QString::number(limits.maxFileBytes >> 20 ? limits.maxFileBytes >> 20 : 1)));
        if (!stream.write(buffer.constData(), static_cast<std::size_t>(n)))
            return stream.error().isEmpty() ? Status(Ok{})
                                            : makeError(QStringLiteral("%1: %2").arg(origin, stream.error()));
    }
    if (!stream.finish())
        return stream.error().isEmpty() ? Status(Ok{})
                                        : makeError(QStringLiteral("%1: %2").arg(origin, stream.error()));
    if (!stream.sawHeader())
        return makeError(QStringLiteral("%1: The CSV has no header line").arg(origin));
    return Ok{};
}

QString csvQuote(const QString &field)
{
    if (field.contains(u',') || field.contains(u'"') || field.contains(u'\n') || field.contains(u'\r')) {
        QString q = field;
        q.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return u'"' + q + u'"';
    }
    return field;
}

namespace {

bool isFormulaStart(QChar c)
{
    return c == u'=' || c == u'+' || c == u'-' || c == u'@' || c == u'\t' || c == u'\r';
}

bool isSpreadsheetSeparator(QChar c)
{
    return c == u',' || c == u';' || c == u'\t';
}

} // namespace

QString csvQuoteSafe(const QString &field)
{
    // A spreadsheet may split the file on ',', ';' or tab (its locale's list separator, or the user's
    // choice at import): every piece between separators is a cell of its own there, so a formula start
    // after any of them is neutralised too, not only at the start of the field. A leading apostrophe
    // makes spreadsheets treat the cell as text; numbers are never passed here.
    QString s;
    s.reserve(field.size() + 2);
    bool cellStart = true;
    for (const QChar c : field) {
        if (cellStart && isFormulaStart(c))
            s += u'\'';
        s += c;
        // Blanks after a separator are trimmed by some spreadsheets: the cell starts at the next character.
        if (isSpreadsheetSeparator(c))
            cellStart = true;
        else if (c != u' ')
            cellStart = false;
    }
    // Quoted whenever a separator is in it, so that a reader splitting on ';' or tab keeps it one cell.
    if (s.contains(u';') || s.contains(u'\t')) {
        s.replace(QStringLiteral("\""), QStringLiteral("\"\""));
        return u'"' + s + u'"';
    }
    return csvQuote(s);
}

QString csvNumber(double value, int significantDigits)
{
    return significantDigits > 0 ? QString::number(value, 'g', significantDigits)
                                 : QString::number(value, 'f', QLocale::FloatingPointShortest);
}

} // namespace gf

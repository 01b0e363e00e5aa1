#include "util/csv.h"

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
    CsvRecord current;
    current.line = line;
    QString field;
    bool inQuotes = false;
    bool fieldWasQuoted = false;
    bool rowHasContent = false;

    auto endField = [&] {
        current.fields.append(field);
        field.clear();
        fieldWasQuoted = false;
    };
    auto endRow = [&] {
        endField();
        if (rowHasContent || current.fields.size() > 1 || !current.fields.constFirst().isEmpty())
            rows.append(current);
        current = CsvRecord{};
        current.line = line;
        rowHasContent = false;
    };

    for (; i < n; ++i) {
        const QChar c = text.at(i);
        if (inQuotes) {
            if (c == u'"') {
                if (i + 1 < n && text.at(i + 1) == u'"') {
                    field.append(u'"');
                    ++i;
                } else {
                    inQuotes = false;
                }
            } else {
                if (c == u'\n')
                    ++line;
                field.append(c);
            }
            continue;
        }
        if (c == u'"') {
            if (!field.isEmpty() || fieldWasQuoted)
                return makeError(
                    QStringLiteral("Malformed CSV: a quote inside an unquoted field on line %1").arg(line));
            inQuotes = true;
            fieldWasQuoted = true;
            rowHasContent = true;
        } else if (c == u',') {
            endField();
            rowHasContent = true;
        } else if (c == u'\r') {
            // swallowed; CRLF handled by '\n'
        } else if (c == u'\n') {
            ++line;
            endRow();
        } else {
            if (fieldWasQuoted)
                return makeError(
                    QStringLiteral("Malformed CSV: text after a closing quote on line %1").arg(line));
            field.append(c);
        }
    }
    if (inQuotes)
        return makeError(
            QStringLiteral("Malformed CSV: a quoted field is not closed (file truncated?) near line %1")
                .arg(line));
    if (!field.isEmpty() || !current.fields.isEmpty() || rowHasContent)
        endRow();

    if (rows.isEmpty())
        return makeError(QStringLiteral("The CSV has no header line"));
    doc.header = rows.takeFirst().fields;
    for (QString &h : doc.header)
        h = h.trimmed();
    doc.records = std::move(rows);
    return doc;
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

QString csvQuoteSafe(const QString &field)
{
    if (!field.isEmpty()) {
        const QChar c = field.at(0);
        if (c == u'=' || c == u'+' || c == u'-' || c == u'@' || c == u'\t' || c == u'\r') {
            // A leading apostrophe makes spreadsheets treat the cell as text; numbers are never passed here.
            return csvQuote(u'\'' + field);
        }
    }
    return csvQuote(field);
}

} // namespace gf

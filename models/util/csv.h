#pragma once

#include "util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

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

Result<CsvDocument> parseCsv(const QString &text, bool leadingComments = true);

/// Quote one field per RFC 4180 (only when needed).
QString csvQuote(const QString &field);
/// Quote and neutralise cells a spreadsheet would run as a formula (= + - @ at the start).
QString csvQuoteSafe(const QString &field);

} // namespace gf

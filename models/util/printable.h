#pragma once

#include <QByteArray>
#include <QString>

#include <cstddef>

namespace gf {

/// Whether a character must never reach a terminal, a table cell or a document as it is: C0 controls
/// (NUL, BEL, ESC, line breaks, ...), DEL, C1 controls (U+0080–U+009F, CSI among them), the line and
/// paragraph separators and the bidirectional formatting characters (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069) that reorder what is shown.
bool isUnprintableChar(char16_t c);

/// Whether `s` holds any such character.
bool hasUnprintable(const QString &s);

/// `s` safe to store and print: line breaks and tabs become one space each, every other character of
/// isUnprintableChar becomes U+FFFD (the replacement character), so that nothing is silently
/// dropped and no NUL cuts the text. `replaced` (if given) is increased by the characters changed.
QString printableText(const QString &s, qsizetype *replaced = nullptr);

/// Like printableText but keeps line breaks and tabs (for multi-line cells that are quoted, CSV).
QString printableKeepingLines(const QString &s);

/// A JSON document's text (QJsonDocument::toJson) with every unprintable character that QJsonDocument
/// writes raw (DEL, C1, bidi formatting) written as a \uXXXX escape: the parsed values stay the same.
QByteArray escapeJsonUnprintable(const QByteArray &json);

/// Checks that bytes fed piece by piece (any split) are well-formed UTF-8: no stray continuation byte, no
/// overlong form, no surrogate, nothing above U+10FFFF, no sequence cut at the end.
class Utf8Validator
{
public:
    bool feed(const char *data, std::size_t size);
    bool finish() { return m_need == 0 && !m_bad; }
    /// Offset of the first byte of the bad sequence (or of the cut one at the end).
    qint64 errorOffset() const { return m_sequenceStart; }

private:
    qint64 m_offset = 0;
    qint64 m_sequenceStart = 0;
    int m_need = 0;             ///< continuation bytes still expected
    unsigned char m_low = 0x80; ///< range of the next continuation byte (overlong and surrogate checks)
    unsigned char m_high = 0xBF;
    bool m_bad = false;
};

/// Whether `bytes` is well-formed UTF-8.
bool isValidUtf8(const char *data, std::size_t size);

} // namespace gf

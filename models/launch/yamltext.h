#pragma once

#include "util/shellquote.h" // shellQuoted: the one shell quoter

#include <QString>
#include <QStringView>

namespace gf {

/// A YAML double-quoted scalar that reads back as exactly `text` with any YAML 1.1 or 1.2 parser:
/// '"' and '\' escaped, every control character, DEL, NEL (U+0085), the line and paragraph separators
/// (U+2028, U+2029), lone surrogates and the BOM written as escapes; everything else as is (UTF-8).
QString yamlQuoted(QStringView text);
/// Text safe inside a '#' comment line: every character that YAML or a terminal treats as a line break
/// or control character, and the bidi overrides and isolates that reorder what a reader sees (the rule
/// of util/printable.h's isUnprintableChar), becomes '?', so a comment can never end early or lie.
QString yamlCommentText(QStringView text);
/// A literal block scalar ("|") of the given lines at `indent` spaces, for text GPU Frontier generates
/// (setup and run): the caller passes only fixed template text. Ends with a newline.
QString yamlLiteralBlock(const QString &text, int indent);

} // namespace gf

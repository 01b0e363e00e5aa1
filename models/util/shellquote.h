#pragma once

#include <QString>
#include <QStringView>

namespace gf {

/// A shell word: the text in single quotes ('it'\''s'), safe in bash and sh whatever it contains.
QString shellQuoted(QStringView text);
/// The same, left as it is when it is a non-empty run of characters the shell takes literally
/// (letters, digits and ._-,:/+=): a command line a person reads ("--workload resnet50").
QString shellWord(QStringView text);

} // namespace gf

#pragma once

#include "util/result.h"

#include <QByteArray>
#include <QIODevice>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace gf {

/// A file the app writes for the user (a report, an exported chart), written whole or not at all:
/// a regular file (or a new one) goes through a temporary file renamed over it when everything was
/// written; a FIFO, a character device (/dev/null, a terminal) or a socket is written directly, never
/// replaced by a regular file. Every write, the flush and the final close are checked.
class OutputFile
{
public:
    explicit OutputFile(QString path);
    ~OutputFile();
    OutputFile(const OutputFile &) = delete;
    OutputFile &operator=(const OutputFile &) = delete;

    /// Opens it; the error names the path and the reason (a folder, a missing folder, no permission).
    Status open();
    /// Where to write, after open().
    QIODevice *device() const;
    /// Whether the path is a FIFO, a device or a socket (written in place).
    bool isSpecial() const { return m_special; }
    /// Finishes the file: `written` false (a writer that failed, `why` says why) discards it; else
    /// flushes, closes and puts the file in place, reporting a full disk or any other failure. A
    /// regular file is left exactly as it was when anything failed.
    Status commit(bool written = true, const QString &why = {});
    /// Discards what was written (a regular file stays as it was).
    void cancel();

private:
    QString m_path;
    bool m_special = false;
    std::unique_ptr<QIODevice> m_file;
};

/// Writes `bytes` to `path` as OutputFile does.
Status writeOutputFile(const QString &path, const QByteArray &bytes);

/// One file of a folder written whole (writeFolderWhole).
struct FolderFile
{
    QString name; ///< a plain file name, no folder part
    QByteArray data;
    bool executable = false;
};

/// Writes `files` into the folder `dir` whole or not at all: they are written into a new temporary
/// folder beside `dir` (the same file system), every write, flush and close checked; only when all were
/// written does the temporary folder become `dir` (a rename, when `dir` does not exist) or are its files
/// renamed into `dir` (replacing files of the same names, leaving the others). On any failure `dir` is as
/// it was and the temporary folder is removed; the error names the file and the reason (a full disk).
/// Returns the paths of the files in `dir`.
Result<QStringList> writeFolderWhole(const QString &dir, const QList<FolderFile> &files);

} // namespace gf

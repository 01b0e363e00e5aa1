#include "util/outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSaveFile>

#include <filesystem>
#include <system_error>

#ifdef Q_OS_UNIX
#include <sys/stat.h>
#endif

namespace gf {

namespace {

/// A FIFO, a character or block device or a socket: something a rename would replace by a regular file.
bool isSpecialFile(const QString &path)
{
#ifdef Q_OS_UNIX
    struct stat st;
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return false;
    return S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode) || S_ISSOCK(st.st_mode);
#else
    const QFileInfo info(path);
    return info.exists() && !info.isFile() && !info.isDir();
#endif
}

QString native(const QString &path)
{
    return QDir::toNativeSeparators(path);
}

Error writeError(const QString &path, const QString &why)
{
    return makeError(QStringLiteral("Cannot write %1: %2").arg(native(path), why));
}

/// Writes `data` to a new file at `path`: every write, the flush and the close checked.
Status writeNewFile(const QString &path, const QByteArray &data, bool executable)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return writeError(path, f.errorString());
    if (f.write(data) != data.size() || !f.flush()) {
        const QString why = f.errorString();
        f.close();
        return writeError(path, why);
    }
    f.close();
    if (f.error() != QFileDevice::NoError)
        return writeError(path, f.errorString());
    if (executable)
        f.setPermissions(f.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup |
                         QFileDevice::ExeOther);
    return Ok{};
}

bool renameOver(const QString &from, const QString &to, QString *why)
{
    std::error_code ec;
    std::filesystem::rename(std::filesystem::path(QFile::encodeName(from).toStdString()),
                            std::filesystem::path(QFile::encodeName(to).toStdString()), ec);
    if (ec)
        *why = QString::fromLocal8Bit(ec.message().c_str());
    return !ec;
}

} // namespace

OutputFile::OutputFile(QString path) : m_path(std::move(path)) {}

OutputFile::~OutputFile()
{
    cancel();
}

Status OutputFile::open()
{
    const QFileInfo info(m_path);
    if (info.isDir())
        return makeError(QStringLiteral("Cannot write %1: it is a folder.").arg(native(m_path)));
    m_special = isSpecialFile(m_path);
    if (m_special) {
        // A FIFO or a device is written in place: a rename would put a regular file where it was.
        auto file = std::make_unique<QFile>(m_path);
        if (!file->open(QIODevice::WriteOnly | QIODevice::Unbuffered))
            return writeError(m_path, file->errorString());
        m_file = std::move(file);
        return Ok{};
    }
    if (!info.absoluteDir().exists())
        return makeError(QStringLiteral("Cannot write %1: the folder %2 does not exist.")
                             .arg(native(m_path), native(info.absolutePath())));
    auto file = std::make_unique<QSaveFile>(m_path);
    // Never fall back to writing the target in place: a failure must not leave a half-written file.
    file->setDirectWriteFallback(false);
    if (!file->open(QIODevice::WriteOnly))
        return writeError(m_path, file->errorString());
    m_file = std::move(file);
    return Ok{};
}

QIODevice *OutputFile::device() const
{
    return m_file.get();
}

Status OutputFile::commit(bool written, const QString &why)
{
    if (!m_file)
        return writeError(m_path, QStringLiteral("it was not opened"));
    auto *file = static_cast<QFileDevice *>(m_file.get());
    // The last buffered bytes are written by the flush: a full disk shows there, not in write().
    if (!written || !file->flush()) {
        const QString reason = !written && !why.isEmpty() ? why : file->errorString();
        cancel();
        return makeError(QStringLiteral("Cannot write %1 (disk full?): %2").arg(native(m_path), reason));
    }
    if (auto *save = qobject_cast<QSaveFile *>(file)) {
        const bool ok = save->commit();
        const QString reason = save->errorString();
        m_file.reset();
        if (!ok)
            return makeError(QStringLiteral("Cannot write %1 (disk full?): %2").arg(native(m_path), reason));
        return Ok{};
    }
    file->close();
    const bool ok = file->error() == QFileDevice::NoError;
    const QString reason = file->errorString();
    m_file.reset();
    if (!ok)
        return writeError(m_path, reason);
    return Ok{};
}

void OutputFile::cancel()
{
    if (!m_file)
        return;
    if (auto *save = qobject_cast<QSaveFile *>(m_file.get()))
        save->cancelWriting();
    m_file.reset();
}

Status writeOutputFile(const QString &path, const QByteArray &bytes)
{
    OutputFile file(path);
    if (auto st = file.open(); !st)
        return st;
    const bool written = file.device()->write(bytes) == bytes.size();
    return file.commit(written, file.device()->errorString());
}

Result<QStringList> writeFolderWhole(const QString &dirIn, const QList<FolderFile> &files)
{
    const QFileInfo target(dirIn);
    const QString dir = target.absoluteFilePath();
    if (target.exists() && !target.isDir())
        return makeError(QStringLiteral("Cannot write into %1: it is not a folder").arg(native(dirIn)));
    const QString parent = target.absolutePath();
    if (!QDir().mkpath(parent))
        return makeError(QStringLiteral("Cannot create the folder %1").arg(native(parent)));
    // The temporary folder is beside the target, on the same file system, so that renames move it.
    QString temp;
    for (int attempt = 0; attempt < 16 && temp.isEmpty(); ++attempt) {
        const QString name =
            QStringLiteral(".%1.partial-%2")
                .arg(target.fileName(), QString::number(QRandomGenerator::global()->generate(), 16));
        if (QDir(parent).mkdir(name))
            temp = QDir(parent).filePath(name);
    }
    if (temp.isEmpty())
        return makeError(
            QStringLiteral("Cannot create a temporary folder in %1 (read-only, or the disk is full)")
                .arg(native(parent)));
    auto discard = [&](const Error &e) -> Result<QStringList> {
        QDir(temp).removeRecursively();
        return e;
    };
    for (const FolderFile &f : files)
        if (auto st = writeNewFile(QDir(temp).filePath(f.name), f.data, f.executable); !st)
            return discard(makeError(st.error().message +
                                     QStringLiteral("; nothing was written to %1").arg(native(dirIn))));
    QStringList written;
    for (const FolderFile &f : files)
        written.append(QDir(dir).filePath(f.name));
    QString why;
    if (!target.exists()) {
        if (renameOver(temp, dir, &why))
            return written;
        return discard(
            makeError(QStringLiteral("Cannot move the written files into %1: %2").arg(native(dirIn), why)));
    }
    for (const FolderFile &f : files)
        if (!renameOver(QDir(temp).filePath(f.name), QDir(dir).filePath(f.name), &why))
            return discard(
                makeError(QStringLiteral("Cannot move %1 into %2: %3").arg(f.name, native(dirIn), why)));
    QDir(temp).removeRecursively();
    return written;
}

} // namespace gf

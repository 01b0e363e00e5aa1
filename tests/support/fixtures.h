#pragma once

#include <QByteArray>
#include <QString>

namespace gf::test {

/// Test fixtures (tests/fixtures/) and built programs, for every test; Qt Core only.
QByteArray readFixture(const QString &relativePath);
QString fixturePath(const QString &relativePath);
/// Path of a built executable (gpufrontier-cli, gpufrontier, probes) in the build tree.
QString builtExecutable(const QString &name);

} // namespace gf::test

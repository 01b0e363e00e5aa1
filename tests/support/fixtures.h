#pragma once

#include <QByteArray>
#include <QString>

namespace gf::test {

/// Test fixtures (tests/fixtures/) and built programs, for every test; Qt Core only.
QByteArray readFixture(const QString &relativePath);
QString fixturePath(const QString &relativePath);
/// Path of a built executable (gpufrontier-cli, gpufrontier, probes) in the build tree.
QString builtExecutable(const QString &name);

/// The first offer of `offers` (a list of gf::Offer) with that instance type, nullptr when none.
template <typename Offers>
auto findOffer(const Offers &offers, const QString &instanceType) -> decltype(&*offers.begin())
{
    for (const auto &o : offers)
        if (o.instanceType == instanceType)
            return &o;
    return nullptr;
}

} // namespace gf::test

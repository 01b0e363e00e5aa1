#pragma once

#include <QByteArray>
#include <QString>

namespace gf::test {

/// Test fixtures (tests/fixtures/) and built programs, for every test; Qt Core only.
QByteArray readFixture(const QString &relativePath);
QString fixturePath(const QString &relativePath);
/// Path of a built executable (gpufrontier-cli, gpufrontier, probes) in the build tree.
QString builtExecutable(const QString &name);

/// A SkyPilot catalog (vms.csv) of Lambda with `rows` GPU rows, each its own instance type ("gpu_1x_a10_<i>",
/// over 40 regions); `badVcpusAt` >= 0: that row (0-based) states 99999 vCPUs, which the import refuses.
QByteArray skypilotLambdaCatalog(int rows, int badVcpusAt = -1);

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

#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

namespace gf {

/// SkyPilot's cloud name of a GPU Frontier provider id ("vastai" -> "vast"); empty when SkyPilot has none.
QString skypilotCloud(const QString &provider);

/// Canonical GPU id -> SkyPilot accelerator name (resources/providers/skypilot_accelerators.csv).
class SkypilotAcceleratorTable
{
public:
    struct Row
    {
        QString gpuId;
        QString accelerator;
        QList<std::pair<QString, QString>> overrides; ///< ("cloud" or "cloud/PREFIX", name)
        QString vastType;
    };

    static Result<SkypilotAcceleratorTable> fromCsv(const QString &text);
    static const SkypilotAcceleratorTable &builtin();

    /// The accelerator name for this GPU on this SkyPilot cloud and instance type; empty when unknown.
    QString acceleratorName(const QString &gpuId, const QString &cloud, const QString &instanceType) const;
    /// The GPU part of SkyPilot's vast.ai instance type names; empty when unknown.
    QString vastType(const QString &gpuId) const;
    const QList<Row> &rows() const { return m_rows; }

private:
    QList<Row> m_rows;
    QHash<QString, qsizetype> m_byId;
};

/// Exactly what a SkyPilot task pins for one offer.
struct SkypilotPin
{
    QString cloud;        ///< aws, gcp, azure, paperspace, vast
    QString region;       ///< empty: none pinned
    QString zone;         ///< empty: none pinned
    QString instanceType; ///< SkyPilot's instance type; empty: SkyPilot chooses the host for the accelerators
    QString accelerator;  ///< NAME of NAME:COUNT
    int acceleratorCount = 0;
    QStringList notes; ///< what differs from the offer (nearest vast.ai type, AWS zone id not pinned, ...)
};

/// The pin of one offer: cloud, region, zone (where SkyPilot takes the provider's zone name), instance type
/// (GCP n1 offers "n1-standard-8+1xT4" become n1-standard-8 plus T4:1; a vast.ai marketplace offer becomes
/// SkyPilot's nearest synthetic type, region left open) and accelerator. A host SkyPilot does not pair with
/// the accelerators (skypilotrules.h, e.g. GCP a3-edgegpu-8g with H100:8) is left out: the pin names the
/// accelerators and the location, SkyPilot chooses one of its hosts, and a note says so. An error for offers
/// SkyPilot cannot launch: an unrecognised GPU, a GPU without a SkyPilot name, a fractional GPU count, an
/// unknown provider, a retired size (retired_instances.csv), a count SkyPilot attaches to no host.
Result<SkypilotPin> skypilotPin(const Offer &offer,
                                const SkypilotAcceleratorTable &table = SkypilotAcceleratorTable::builtin());

} // namespace gf

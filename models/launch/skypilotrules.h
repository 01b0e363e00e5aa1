#pragma once

#include "domain/offer.h"
#include "util/result.h"

#include <QHash>
#include <QList>
#include <QRegularExpression>
#include <QString>
#include <QStringList>

#include <optional>

namespace gf {

/// Which hosts SkyPilot attaches an accelerator to, per cloud (resources/providers/skypilot_hosts.csv, from
/// SkyPilot's gcp_catalog.py): a task pinning another pair is refused at launch.
class SkypilotHostTable
{
public:
    struct Row
    {
        QString cloud;
        QString accelerator; ///< "*": every accelerator without rows of its own on the cloud
        int count = 0;       ///< 0: any count
        QStringList hosts;   ///< exact names, or "PREFIX*"
        std::optional<double> maxVcpus;
        std::optional<double> maxMemoryGib;
        int line = 0;
    };

    /// `zonesText`: skypilot_host_zones.csv (cloud, instance_type, zones), where SkyPilot's catalog lists
    /// hosts.
    static Result<SkypilotHostTable> fromCsv(const QString &text, const QString &zonesText = {});
    static const SkypilotHostTable &builtin();

    /// The rows that govern this accelerator on this cloud (its own, else the cloud's "*" rows); empty when
    /// the cloud has no rule for it.
    QList<Row> rulesFor(const QString &cloud, const QString &accelerator) const;
    /// Whether SkyPilot attaches ACCELERATOR:COUNT to `host` (vCPUs and memory where the rule limits them;
    /// unknown values pass). The error names the hosts it takes instead.
    Status checkPair(const QString &cloud, const QString &host, const QString &accelerator, int count,
                     std::optional<double> vcpus = std::nullopt,
                     std::optional<double> memoryGib = std::nullopt) const;
    /// Whether SkyPilot has any host for ACCELERATOR:COUNT on the cloud (true when the cloud has no rule).
    bool countAttachable(const QString &cloud, const QString &accelerator, int count) const;
    /// The exact host names SkyPilot takes for ACCELERATOR:COUNT (prefix rules such as "n1-*" left out).
    QStringList hostsFor(const QString &cloud, const QString &accelerator, int count) const;
    /// The zones where SkyPilot's catalog lists this host; nullptr when the table does not know it.
    const QStringList *zonesOf(const QString &cloud, const QString &host) const;
    const QList<Row> &rows() const { return m_rows; }

private:
    QList<Row> m_rows;
    QHash<QString, QStringList> m_zones; ///< "cloud/host" -> zones
};

/// Per SkyPilot cloud: whether its catalog prices spot (resources/providers/skypilot_clouds.csv).
class SkypilotCloudTable
{
public:
    struct Row
    {
        QString cloud;
        bool spot = false;
        QString source;
    };
    static Result<SkypilotCloudTable> fromCsv(const QString &text, const QString &unused = {});
    static const SkypilotCloudTable &builtin();

    /// True when SkyPilot's catalog of the cloud has spot prices; false for a cloud without a row.
    bool spotPriced(const QString &cloud) const;
    const Row *row(const QString &cloud) const;
    const QList<Row> &rows() const { return m_rows; }

private:
    QList<Row> m_rows;
};

/// Sizes and families their cloud retired (resources/providers/retired_instances.csv), dated, with sources.
class RetiredInstanceTable
{
public:
    struct Row
    {
        QString provider;
        QRegularExpression pattern; ///< anchored: the whole instance type
        QString family;
        QString retired; ///< YYYY-MM-DD
        QString source;
    };
    static Result<RetiredInstanceTable> fromCsv(const QString &text, const QString &unused = {});
    static const RetiredInstanceTable &builtin();

    /// The row that retires this provider's instance type; nullptr when it is current.
    const Row *retired(const QString &provider, const QString &instanceType) const;
    const QList<Row> &rows() const { return m_rows; }

private:
    QList<Row> m_rows;
};

/// "Standard_NC6 is retired: NC-series (NVIDIA K80), retired 2023-09-06 (source)": nothing when current.
std::optional<QString> retiredText(const Offer &offer,
                                   const RetiredInstanceTable &table = RetiredInstanceTable::builtin());

} // namespace gf

#include "launchplandialog.h"
#include "uistyle.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

namespace gf {

LaunchPlanDialog::LaunchPlanDialog(const QStringList &offerLines, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("launchPlanDialog"));
    setWindowTitle(tr("Launch plan"));
    auto *layout = new QVBoxLayout(this);
    auto *intro =
        new QLabel(tr("Writes one SkyPilot task (YAML) per offer into a folder, pinning exactly that "
                      "offer, and a README.txt with the <tt>sky</tt> commands, the cost ceiling of each "
                      "task and how to bring measurements back. %n offer(s):",
                      nullptr, static_cast<int>(offerLines.size())),
                   this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *offers = new QPlainTextEdit(offerLines.join(u'\n'), this);
    offers->setObjectName(QStringLiteral("launchOffers"));
    offers->setReadOnly(true);
    offers->setMaximumHeight(110);
    offers->setLineWrapMode(QPlainTextEdit::NoWrap);
    layout->addWidget(offers);

    QSettings s;
    auto *form = new QFormLayout;
    m_dir = new QLineEdit(
        s.value(QStringLiteral("launchPlan/dir"), QDir::home().filePath(QStringLiteral("gpufrontier-plan")))
            .toString(),
        this);
    m_dir->setObjectName(QStringLiteral("launchDir"));
    auto *browse = new QPushButton(tr("Browse…"), this);
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString d =
            QFileDialog::getExistingDirectory(this, tr("Folder for the launch plan"), m_dir->text());
        if (!d.isEmpty())
            m_dir->setText(d);
    });
    auto *dirRow = new QHBoxLayout;
    dirRow->addWidget(m_dir, 1);
    dirRow->addWidget(browse);
    form->addRow(tr("&Folder:"), dirRow);

    m_run = new QLineEdit(s.value(QStringLiteral("launchPlan/run")).toString(), this);
    m_run->setObjectName(QStringLiteral("launchRun"));
    m_run->setPlaceholderText(tr("e.g. python train.py --epochs 90 (optional)"));
    m_run->setToolTip(
        tr("Your training command. It runs on every node from the task's envs (GF_USER_CMD), never "
           "pasted into the generated shell text. Your code travels with sky launch --workdir."));
    form->addRow(tr("Training &command:"), m_run);

    m_probe = new QCheckBox(tr("Run gpufrontier-&probe and measure the throughput"), this);
    m_probe->setObjectName(QStringLiteral("launchProbe"));
    m_probe->setChecked(s.value(QStringLiteral("launchPlan/probe"), false).toBool());
    m_probe->setToolTip(
        tr("Ships GPU Frontier's .tar.gz package (file_mounts) and runs the probe and a timed "
           "measurement (gf_measure.py) first; the JSON comes back with Measurements > Import."));
    form->addRow(QString(), m_probe);

    m_sweep = new QCheckBox(tr("&Validation sweep: only measure, then stop (adds sweep.sh)"), this);
    m_sweep->setObjectName(QStringLiteral("launchSweep"));
    m_sweep->setChecked(s.value(QStringLiteral("launchPlan/sweep"), false).toBool());
    m_sweep->setToolTip(
        tr("Every task runs the probe and measures for a few minutes (your command, or a synthetic "
           "step of the preset's shape) and stops; sweep.sh launches all of them in parallel, "
           "collects the JSON files and tears the clusters down."));
    form->addRow(QString(), m_sweep);
    // A sweep always runs the probe: shown checked and fixed while the sweep is chosen.
    auto sweepImpliesProbe = [this](bool sweep) {
        if (sweep)
            m_probe->setChecked(true);
        m_probe->setEnabled(!sweep);
    };
    connect(m_sweep, &QCheckBox::toggled, this, sweepImpliesProbe);
    sweepImpliesProbe(m_sweep->isChecked());

    m_package = new QLineEdit(s.value(QStringLiteral("launchPlan/package")).toString(), this);
    m_package->setObjectName(QStringLiteral("launchPackage"));
    m_package->setPlaceholderText(QString::fromLatin1(kDefaultPackageName));
    m_package->setToolTip(
        tr("GPU Frontier's Linux .tar.gz (cpack -G TGZ), copied into the plan folder for the "
           "probe. Empty: %1 from the plan folder or the current folder.")
            .arg(QString::fromLatin1(kDefaultPackageName)));
    auto *browsePackage = new QPushButton(tr("Browse…"), this);
    connect(browsePackage, &QPushButton::clicked, this, [this] {
        const QString f = QFileDialog::getOpenFileName(this, tr("GPU Frontier package"), m_package->text(),
                                                       tr("Packages (*.tar.gz)"));
        if (!f.isEmpty())
            m_package->setText(f);
    });
    auto *packageRow = new QHBoxLayout;
    packageRow->addWidget(m_package, 1);
    packageRow->addWidget(browsePackage);
    form->addRow(tr("P&ackage:"), packageRow);

    m_nodes = new QSpinBox(this);
    m_nodes->setObjectName(QStringLiteral("launchNodes"));
    m_nodes->setRange(1, 255);
    m_nodes->setValue(s.value(QStringLiteral("launchPlan/nodes"), 1).toInt());
    m_nodes->setToolTip(tr("num_nodes of every task (data-parallel training over several instances)."));
    form->addRow(tr("&Nodes:"), m_nodes);

    m_margin = new QDoubleSpinBox(this);
    m_margin->setObjectName(QStringLiteral("launchMargin"));
    m_margin->setRange(1.0, 100.0);
    m_margin->setDecimals(2);
    m_margin->setSingleStep(0.05);
    m_margin->setPrefix(QStringLiteral("× "));
    m_margin->setValue(s.value(QStringLiteral("launchPlan/margin"), kDefaultCostMargin).toDouble());
    m_margin->setToolTip(
        tr("Cost ceiling of a task = projected cost × this margin, at least the slow end of the "
           "projection's range (README.txt, GF_MAX_COST_USD)."));
    form->addRow(tr("Cost &margin:"), m_margin);

    m_legacy =
        new QCheckBox(tr("Older SkyPilot (before 0.10): cloud/region/zone keys instead of infra"), this);
    m_legacy->setObjectName(QStringLiteral("launchLegacy"));
    m_legacy->setChecked(s.value(QStringLiteral("launchPlan/legacy"), false).toBool());
    form->addRow(QString(), m_legacy);
    layout->addLayout(form);

    m_problem = new QLabel(this);
    m_problem->setObjectName(QStringLiteral("launchProblem"));
    m_problem->setStyleSheet(QStringLiteral("color: %1").arg(errorColor(palette()).name()));
    m_problem->setWordWrap(true);
    layout->addWidget(m_problem);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Write plan"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_dir, &QLineEdit::textChanged, this, &LaunchPlanDialog::updateState);
    updateState();
}

QString LaunchPlanDialog::directory() const
{
    return m_dir->text().trimmed();
}

LaunchOptions LaunchPlanDialog::options() const
{
    LaunchOptions o;
    o.runCommand = m_run->text().trimmed();
    o.sweep = m_sweep->isChecked();
    o.probe = m_probe->isChecked(); // a sweep measures anyway (LaunchOptions::measures)
    o.nodes = m_nodes->value();
    o.costMargin = m_margin->value();
    o.legacyKeys = m_legacy->isChecked();
    o.packagePath = m_package->text().trimmed(); // found with findPackage when empty
    return o;
}

void LaunchPlanDialog::updateState()
{
    m_problem->setText(directory().isEmpty() ? tr("Choose a folder for the plan.") : QString());
}

void LaunchPlanDialog::accept()
{
    if (directory().isEmpty()) {
        updateState();
        return;
    }
    QSettings s;
    s.setValue(QStringLiteral("launchPlan/dir"), directory());
    s.setValue(QStringLiteral("launchPlan/run"), m_run->text().trimmed());
    s.setValue(QStringLiteral("launchPlan/probe"), m_probe->isChecked());
    s.setValue(QStringLiteral("launchPlan/sweep"), m_sweep->isChecked());
    s.setValue(QStringLiteral("launchPlan/nodes"), m_nodes->value());
    s.setValue(QStringLiteral("launchPlan/margin"), m_margin->value());
    s.setValue(QStringLiteral("launchPlan/legacy"), m_legacy->isChecked());
    s.setValue(QStringLiteral("launchPlan/package"), m_package->text().trimmed());
    QDialog::accept();
}

} // namespace gf

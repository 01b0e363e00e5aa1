#pragma once

#include "launch/launchplan.h"

#include <QDialog>
#include <QStringList>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace gf {

/// "Launch plan…": where to write SkyPilot tasks for the chosen offers and what they run. The choices
/// are remembered (QSettings "launchPlan/…") when the dialog is accepted.
class LaunchPlanDialog final : public QDialog
{
    Q_OBJECT
public:
    /// `offerLines`: one line per offer to plan (shown, not edited).
    explicit LaunchPlanDialog(const QStringList &offerLines, QWidget *parent = nullptr);

    QString directory() const;
    LaunchOptions options() const;

    void accept() override;

private:
    void updateState();

    QLineEdit *m_dir = nullptr;
    QLineEdit *m_run = nullptr;
    QCheckBox *m_probe = nullptr;
    QCheckBox *m_sweep = nullptr;
    QSpinBox *m_nodes = nullptr;
    QDoubleSpinBox *m_margin = nullptr;
    QCheckBox *m_legacy = nullptr;
    QLineEdit *m_package = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace gf

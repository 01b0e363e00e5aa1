#include "scenariocomparedialog.h"
#include "frontierchart.h"
#include "uistyle.h"

#include "util/format.h"
#include "viewmodels/appstate.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QHelpEvent>
#include <QLabel>
#include <QLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPushButton>
#include <QScatterSeries>
#include <QSettings>
#include <QSplitter>
#include <QTableWidget>
#include <QToolTip>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <cmath>

namespace gf {

namespace {

/// The two sides' colours: blue and orange, lighter on the dark theme (3:1 against its plot).
QColor sideColor(int side, bool dark)
{
    if (side == 0)
        return dark ? QColor(0x6c, 0xb4, 0xf0) : QColor(0x1f, 0x6f, 0xb4);
    return dark ? QColor(0xff, 0xa8, 0x4d) : QColor(0xd9, 0x5f, 0x02);
}

QString rangeText(double hours, double hoursLow, double hoursHigh, double cost, double costLow,
                  double costHigh)
{
    return QObject::tr("%1 (likely %2 – %3) · %4 USD (likely %5 – %6)")
        .arg(formatHours(hours), formatHours(hoursLow), formatHours(hoursHigh), formatUsd(cost),
             formatUsd(costLow), formatUsd(costHigh));
}

QString rangeHtml(const ScenarioPick &p)
{
    return rangeText(p.hours, p.hoursLow, p.hoursHigh, p.costUsd, p.costUsdLow, p.costUsdHigh);
}

} // namespace

ScenarioCompareDialog::ScenarioCompareDialog(AppState *state, Scenario current, const QStringList &recent,
                                             QWidget *parent)
    : QDialog(parent), m_state(state), m_current(std::move(current))
{
    setObjectName(QStringLiteral("scenarioCompareDialog"));
    setWindowTitle(tr("Compare scenarios"));
    auto *layout = new QVBoxLayout(this);

    auto *pickers = new QHBoxLayout;
    m_pickA = makePicker(recent);
    m_pickA->setObjectName(QStringLiteral("scenarioA"));
    m_pickB = makePicker(recent);
    m_pickB->setObjectName(QStringLiteral("scenarioB"));
    if (m_pickB->count() > 1)
        m_pickB->setCurrentIndex(1);
    for (auto [label, picker] : {std::pair{tr("&A:"), m_pickA}, std::pair{tr("&B:"), m_pickB}}) {
        auto *l = new QLabel(label, this);
        l->setBuddy(picker);
        pickers->addWidget(l);
        pickers->addWidget(picker, 1);
        auto *browse = new QPushButton(tr("Browse…"), this);
        connect(browse, &QPushButton::clicked, this, [this, p = picker] { this->browse(p); });
        pickers->addWidget(browse);
    }
    m_compare = new QPushButton(tr("&Compare"), this);
    m_compare->setObjectName(QStringLiteral("compareScenarios"));
    m_compare->setDefault(true);
    connect(m_compare, &QPushButton::clicked, this, &ScenarioCompareDialog::compare);
    pickers->addWidget(m_compare);
    layout->addLayout(pickers);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("compareStatus"));
    m_status->setWordWrap(true);
    layout->addWidget(m_status);

    auto *answers = new QWidget(this);
    m_answers = answers;
    auto *answersLayout = new QHBoxLayout(answers);
    answersLayout->setContentsMargins(0, 0, 0, 0);
    for (auto [label, name] : {std::pair{&m_answerA, QStringLiteral("answerA")},
                               std::pair{&m_answerB, QStringLiteral("answerB")}}) {
        auto *box = new QGroupBox(answers);
        auto *v = new QVBoxLayout(box);
        *label = new QLabel(box);
        (*label)->setObjectName(name);
        (*label)->setWordWrap(true);
        (*label)->setTextFormat(Qt::RichText);
        (*label)->setAlignment(Qt::AlignTop | Qt::AlignLeft);
        (*label)->setTextInteractionFlags(Qt::TextSelectableByMouse);
        v->addWidget(*label);
        answersLayout->addWidget(box, 1);
    }
    layout->addWidget(answers);

    auto *bottom = new QSplitter(Qt::Horizontal, this);
    m_differences = new QTableWidget(0, 3, bottom);
    m_differences->setObjectName(QStringLiteral("scenarioDifferences"));
    m_differences->setHorizontalHeaderLabels({tr("Setting that differs"), tr("A"), tr("B")});
    m_differences->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_differences->horizontalHeader()->setStretchLastSection(true);
    m_differences->verticalHeader()->hide();
    m_differences->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_differences->setWordWrap(true);
    bottom->addWidget(m_differences);

    auto *chart = new QChart;
    chart->setTitle(tr("Efficiency frontiers: time against cost"));
    chart->legend()->setAlignment(Qt::AlignBottom);
    m_chartView = new QChartView(chart, bottom);
    // Hovering names a frontier point (tipAt, on the view's tooltip event).
    m_chartView->viewport()->installEventFilter(this);
    m_chartView->setObjectName(QStringLiteral("scenarioCompareChart"));
    m_chartView->setRenderHint(QPainter::Antialiasing);
    m_chartView->setMinimumSize(420, 340);
    bottom->addWidget(m_chartView);
    bottom->setStretchFactor(0, 1);
    bottom->setStretchFactor(1, 2);
    bottom->setSizes({380, 720});
    layout->addWidget(bottom, 1);

    auto *close = new QPushButton(tr("Close"), this);
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    auto *buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(close);
    layout->addLayout(buttons);

    connect(&m_watcher, &QFutureWatcher<Projected>::finished, this, &ScenarioCompareDialog::onProjected);
    applyChartTheme();
    resize(1100, 860);
}

ScenarioCompareDialog::~ScenarioCompareDialog()
{
    m_watcher.disconnect(this);
    m_watcher.waitForFinished();
}

QComboBox *ScenarioCompareDialog::makePicker(const QStringList &recent)
{
    auto *c = new QComboBox(this);
    c->addItem(tr("Current settings"), QString());
    for (const QString &path : recent)
        c->addItem(QFileInfo(path).fileName(), path);
    for (int i = 1; i < c->count(); ++i)
        c->setItemData(i, c->itemData(i), Qt::ToolTipRole);
    c->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    c->setMinimumContentsLength(16);
    return c;
}

void ScenarioCompareDialog::browse(QComboBox *picker)
{
    QSettings settings;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Scenario to compare"), settings.value(QStringLiteral("scenarios/lastFolder")).toString(),
        tr("GPU Frontier scenarios (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    int i = picker->findData(path);
    if (i < 0) {
        picker->addItem(QFileInfo(path).fileName(), path);
        i = picker->count() - 1;
    }
    picker->setCurrentIndex(i);
}

void ScenarioCompareDialog::setSources(const QString &a, const QString &b)
{
    for (auto [picker, path] : {std::pair{m_pickA, a}, std::pair{m_pickB, b}}) {
        int i = picker->findData(path);
        if (i < 0) {
            picker->addItem(QFileInfo(path).fileName(), path);
            i = picker->count() - 1;
        }
        picker->setCurrentIndex(i);
    }
}

Result<std::pair<Scenario, QString>> ScenarioCompareDialog::sourceOf(const QComboBox *picker) const
{
    const QString path = picker->currentData().toString();
    if (path.isEmpty())
        return std::pair{m_current, tr("Current settings")};
    auto s = readScenarioFile(path);
    if (!s)
        return s.error();
    const QString label = s.value().name.isEmpty() ? QFileInfo(path).completeBaseName() : s.value().name;
    return std::pair{s.value(), label};
}

void ScenarioCompareDialog::compare()
{
    if (m_watcher.isRunning())
        return;
    QList<std::pair<Scenario, QString>> sides;
    for (const QComboBox *picker : {m_pickA, m_pickB}) {
        auto s = sourceOf(picker);
        if (!s) {
            m_status->setText(s.error().message);
            setErrorStyle(m_status);
            Q_EMIT failed(s.error().message);
            return;
        }
        sides.append(s.value());
    }
    if (m_state->offers().isEmpty()) {
        m_status->setText(tr("No catalog is loaded yet: wait for it, then compare."));
        setErrorStyle(m_status);
        Q_EMIT failed(m_status->text());
        return;
    }
    setErrorStyle(m_status, false);
    m_status->setText(tr("Projecting both scenarios over %1 offers…").arg(m_state->offers().size()));
    m_compare->setEnabled(false);
    const QList<Offer> offers = m_state->offers();
    const Calibration calibration = m_state->calibration();
    const ThroughputMeasurements measurements = m_state->measurements();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    m_watcher.setFuture(QtConcurrent::run([offers, calibration, measurements, now, sides] {
        Projected out;
        for (const auto &[scenario, label] : sides) {
            auto o = projectScenario(offers, scenario, label, calibration, measurements, now);
            if (!o) {
                out.error = o.error().message;
                return out;
            }
            out.sides.append(std::move(o).value());
        }
        return out;
    }));
}

void ScenarioCompareDialog::onProjected()
{
    m_compare->setEnabled(true);
    const Projected p = m_watcher.result();
    if (!p.error.isEmpty()) {
        m_status->setText(p.error);
        setErrorStyle(m_status);
        Q_EMIT failed(p.error);
        return;
    }
    m_outcomes = p.sides;
    m_status->setText(tr("Both projected over the current catalog (%1 offers), with its calibration and "
                         "imported measurements.")
                          .arg(m_state->offers().size()));
    showAnswers();
    showDifferences();
    showChart();
    Q_EMIT compared();
}

void ScenarioCompareDialog::showAnswers()
{
    const bool dark = isDarkPalette(palette());
    for (int side = 0; side < 2; ++side) {
        const ScenarioOutcome &o = m_outcomes.at(side);
        QString html =
            QStringLiteral("<h3 style='color:%1'>%2: %3</h3>")
                .arg(sideColor(side, dark).name(), side == 0 ? tr("A") : tr("B"), o.label.toHtmlEscaped());
        html += tr("<p>%1<br>%2 points · %3 on the frontier · %4 within the limits</p>")
                    .arg(o.results.workload.name.toHtmlEscaped())
                    .arg(o.results.points.size())
                    .arg(o.results.frontierCount)
                    .arg(o.results.feasibleCount);
        for (const ScenarioPick &p : o.picks) {
            html += QStringLiteral("<p><b>%1</b><br>").arg(p.role.left(1).toUpper() + p.role.mid(1));
            if (p.point < 0)
                html += tr("none within the limits") + QStringLiteral("</p>");
            else
                html +=
                    QStringLiteral("%1 <i>(%2)</i><br>%3</p>")
                        .arg(p.offer.toHtmlEscaped(), p.gpu.toHtmlEscaped(), rangeHtml(p).toHtmlEscaped());
        }
        if (!o.whyText.isEmpty())
            html += QStringLiteral("<p><i>%1</i></p>").arg(o.whyText.toHtmlEscaped());
        if (!o.noneText.isEmpty())
            html += QStringLiteral("<p><b>%1</b><br>%2</p>")
                        .arg(tr("Nothing fits"),
                             o.noneText.toHtmlEscaped().replace(u'\n', QStringLiteral("<br>")));
        (side == 0 ? m_answerA : m_answerB)->setText(html);
    }
    // Word-wrapped rich text: the layout is told the height the answers need at their width.
    int height = 0;
    for (QLabel *label : {m_answerA, m_answerB}) {
        const int width = std::max(label->width(), m_answers->width() / 2 - 40);
        height = std::max(height, label->heightForWidth(width));
    }
    for (QLabel *label : {m_answerA, m_answerB})
        label->setMinimumHeight(height);
    m_answers->layout()->invalidate();
    layout()->activate();
}

void ScenarioCompareDialog::showDifferences()
{
    const QList<ScenarioDifference> diffs =
        scenarioDifferences(m_outcomes.at(0).scenario, m_outcomes.at(1).scenario);
    m_differences->setRowCount(static_cast<int>(diffs.size()));
    for (int r = 0; r < diffs.size(); ++r) {
        const ScenarioDifference &d = diffs.at(r);
        m_differences->setItem(r, 0, new QTableWidgetItem(d.field));
        m_differences->setItem(r, 1, new QTableWidgetItem(d.a.isEmpty() ? tr("(default)") : d.a));
        m_differences->setItem(r, 2, new QTableWidgetItem(d.b.isEmpty() ? tr("(default)") : d.b));
    }
    if (diffs.isEmpty()) {
        m_differences->setRowCount(1);
        m_differences->setItem(0, 0, new QTableWidgetItem(tr("The two scenarios have the same settings")));
    }
}

QChart *ScenarioCompareDialog::chart() const
{
    return m_chartView->chart();
}

void ScenarioCompareDialog::showChart()
{
    QChart *c = chart();
    c->removeAllSeries();
    m_frontierSeries = {};
    for (QAbstractAxis *a : c->axes())
        c->removeAxis(a);
    double minX = 1e300, maxX = 0, minY = 1e300, maxY = 0;
    const bool dark = isDarkPalette(palette());
    QList<QAbstractSeries *> added;
    for (int side = 0; side < 2; ++side) {
        const ScenarioOutcome &o = m_outcomes.at(side);
        auto *line = new QLineSeries;
        line->setObjectName(side == 0 ? QStringLiteral("frontierA") : QStringLiteral("frontierB"));
        line->setName(
            tr("%1 frontier (%2 points)").arg(side == 0 ? tr("A") : tr("B")).arg(o.frontier.size()));
        QPen pen(sideColor(side, dark));
        pen.setWidthF(2.5);
        if (side == 1)
            pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        line->setPointsVisible(true);
        for (qsizetype i : o.frontier) {
            const ProjectedOffer &pt = o.results.points.at(i);
            if (!(pt.totalHours > 0 && pt.costUsd > 0))
                continue;
            line->append(pt.totalHours, pt.costUsd);
            minX = std::min(minX, pt.totalHours);
            maxX = std::max(maxX, pt.totalHours);
            minY = std::min(minY, pt.costUsd);
            maxY = std::max(maxY, pt.costUsd);
        }
        c->addSeries(line);
        added.append(line);
        m_frontierSeries[static_cast<std::size_t>(side)] = line;
        if (o.answer.recommended >= 0) {
            const ProjectedOffer &pt = o.results.points.at(o.answer.recommended);
            auto *rec = new QScatterSeries;
            rec->setObjectName(side == 0 ? QStringLiteral("recommendedA") : QStringLiteral("recommendedB"));
            rec->setName(tr("%1 recommended").arg(side == 0 ? tr("A") : tr("B")));
            rec->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
            rec->setMarkerSize(13);
            rec->setColor(sideColor(side, dark));
            rec->setBorderColor(dark ? Qt::white : Qt::black);
            rec->append(pt.totalHours, pt.costUsd);
            c->addSeries(rec);
            added.append(rec);
        }
    }
    if (maxX <= 0)
        return;
    auto axis = [](double lo, double hi, const QString &title) {
        auto *a = new QLogValueAxis;
        a->setBase(10);
        a->setMin(lo * 0.8);
        a->setMax(hi * 1.25);
        a->setTitleText(title);
        fitLogTicks(a);
        connect(a, &QLogValueAxis::rangeChanged, a, [a] { fitLogTicks(a); });
        return a;
    };
    QLogValueAxis *x = axis(minX, maxX, tr("Training time (hours, log)"));
    QLogValueAxis *y = axis(minY, maxY, tr("Run cost (USD, log)"));
    c->addAxis(x, Qt::AlignBottom);
    c->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries *s : added) {
        s->attachAxis(x);
        s->attachAxis(y);
    }
    applyChartTheme();
}

QString ScenarioCompareDialog::tipAt(const QPoint &viewportPos) const
{
    // The frontier point nearest the cursor on screen, of either side, within a marker's reach.
    constexpr double kReachPx = 12;
    int bestSide = -1;
    qsizetype bestPoint = -1;
    double bestDistance = kReachPx * kReachPx * (1 + 1e-9); // points drawn on the same spot: the first one
    for (int side = 0; side < std::min<int>(2, static_cast<int>(m_outcomes.size())); ++side) {
        QLineSeries *line = m_frontierSeries[static_cast<std::size_t>(side)];
        if (!line)
            continue;
        const ScenarioOutcome &o = m_outcomes.at(side);
        for (qsizetype i : o.frontier) {
            const ProjectedOffer &pt = o.results.points.at(i);
            const QPointF scene =
                chart()->mapToScene(chart()->mapToPosition(QPointF(pt.totalHours, pt.costUsd), line));
            const QPoint onView = m_chartView->mapFromScene(scene);
            const double dx = onView.x() - viewportPos.x(), dy = onView.y() - viewportPos.y();
            if (pt.totalHours > 0 && pt.costUsd > 0 && dx * dx + dy * dy < bestDistance) {
                bestDistance = dx * dx + dy * dy;
                bestSide = side;
                bestPoint = i;
            }
        }
    }
    return bestSide < 0 ? QString() : pointText(bestSide, bestPoint);
}

bool ScenarioCompareDialog::eventFilter(QObject *watched, QEvent *event)
{
    // The view's tooltip event (the mouse rested): the nearest frontier point's tooltip, kept while the
    // cursor stays within a marker's reach. Taken here, since QGraphicsView hides any tooltip its items lack.
    if (m_chartView && watched == m_chartView->viewport() && event->type() == QEvent::ToolTip) {
        const QPoint pos = static_cast<QHelpEvent *>(event)->pos();
        if (const QString tip = tipAt(pos); !tip.isEmpty())
            QToolTip::showText(m_chartView->viewport()->mapToGlobal(pos), tip, m_chartView->viewport(),
                               QRect(pos - QPoint(12, 12), QSize(24, 24)));
        else
            QToolTip::hideText();
        return true;
    }
    return QDialog::eventFilter(watched, event);
}

QString ScenarioCompareDialog::pointText(int side, qsizetype point) const
{
    if (side < 0 || side >= m_outcomes.size() || point < 0 ||
        point >= m_outcomes.at(side).results.points.size())
        return {};
    const ScenarioOutcome &o = m_outcomes.at(side);
    const ProjectedOffer &pt = o.results.points.at(point);
    QString text = QStringLiteral("<b>%1: %2</b><br>%3<br>")
                       .arg(side == 0 ? tr("A") : tr("B"), o.label.toHtmlEscaped(),
                            pointOfferText(o.results, point).toHtmlEscaped());
    text += rangeText(pt.totalHours, pt.totalHoursLow, pt.totalHoursHigh, pt.costUsd, pt.costUsdLow,
                      pt.costUsdHigh);
    if (point == o.answer.recommended)
        text += QStringLiteral("<br><i>%1</i>").arg(tr("recommended"));
    return text;
}

void ScenarioCompareDialog::applyChartTheme()
{
    const bool dark = isDarkPalette(palette());
    QChart *c = chart();
    // setTheme resets series colours and fonts: the sides' colours are applied again after it.
    c->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    c->setBackgroundBrush(palette().window());
    c->setTitleBrush(palette().windowText());
    c->legend()->setLabelColor(palette().windowText().color());
    for (QAbstractSeries *s : c->series()) {
        const int side = s->objectName().endsWith(u'A') ? 0 : 1;
        if (auto *line = qobject_cast<QLineSeries *>(s)) {
            QPen pen(sideColor(side, dark));
            pen.setWidthF(2.5);
            if (side == 1)
                pen.setStyle(Qt::DashLine);
            line->setPen(pen);
        } else if (auto *sc = qobject_cast<QScatterSeries *>(s)) {
            sc->setColor(sideColor(side, dark));
            sc->setBorderColor(dark ? Qt::white : Qt::black);
        }
    }
    for (QAbstractAxis *a : c->axes()) {
        a->setLabelsBrush(palette().windowText());
        a->setTitleBrush(palette().windowText());
    }
}

void ScenarioCompareDialog::changeEvent(QEvent *event)
{
    QDialog::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyChartTheme();
        if (m_outcomes.size() == 2)
            showAnswers();
    }
}

} // namespace gf

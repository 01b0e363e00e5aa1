#include "answerpage.h"

#include "frontierpage.h"
#include "uistyle.h"

#include "domain/gpuspecs.h"
#include "util/format.h"
#include "viewmodels/displaycurrency.h"

#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

namespace gf {

namespace {

QLabel *wrappingLabel(QWidget *parent, const QString &objectName)
{
    auto *l = new QLabel(parent);
    l->setObjectName(objectName);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

} // namespace

/// One answer: its role ("Recommended"), the offer, its time and cost with the likely range, the price per
/// hour and per GPU-hour, how sure the speed is, its flags; buttons to see it on the frontier or plan it.
class AnswerCard final : public QFrame
{
public:
    AnswerCard(const QString &role, const QString &objectName, QWidget *parent) : QFrame(parent)
    {
        setObjectName(objectName);
        setFrameShape(QFrame::StyledPanel);
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
        auto *box = new QVBoxLayout(this);
        m_role = new QLabel(role, this);
        QFont roleFont = m_role->font();
        roleFont.setBold(true);
        m_role->setFont(roleFont);
        m_note = wrappingLabel(this, objectName + QStringLiteral("Note"));
        m_title = wrappingLabel(this, objectName + QStringLiteral("Title"));
        QFont titleFont = m_title->font();
        titleFont.setPointSizeF(titleFont.pointSizeF() * 1.15);
        titleFont.setBold(true);
        m_title->setFont(titleFont);
        m_gpu = wrappingLabel(this, objectName + QStringLiteral("Gpu"));
        m_figures = wrappingLabel(this, objectName + QStringLiteral("Figures"));
        QFont figureFont = m_figures->font();
        figureFont.setPointSizeF(figureFont.pointSizeF() * 1.6);
        m_figures->setFont(figureFont);
        m_range = wrappingLabel(this, objectName + QStringLiteral("Range"));
        m_evidence = wrappingLabel(this, objectName + QStringLiteral("Evidence"));
        m_flags = wrappingLabel(this, objectName + QStringLiteral("Flags"));
        for (QWidget *w : {static_cast<QWidget *>(m_role), static_cast<QWidget *>(m_note),
                           static_cast<QWidget *>(m_title), static_cast<QWidget *>(m_gpu),
                           static_cast<QWidget *>(m_figures), static_cast<QWidget *>(m_range),
                           static_cast<QWidget *>(m_evidence), static_cast<QWidget *>(m_flags)})
            box->addWidget(w);
        auto *buttons = new QHBoxLayout;
        m_frontier = new QPushButton(QObject::tr("Show on frontier"), this);
        m_frontier->setObjectName(objectName + QStringLiteral("Frontier"));
        m_frontier->setToolTip(QObject::tr("Open the Frontier page with this offer selected"));
        m_launch = new QPushButton(QObject::tr("Launch plan…"), this);
        m_launch->setObjectName(objectName + QStringLiteral("Launch"));
        m_launch->setToolTip(QObject::tr("Write a SkyPilot task for this offer"));
        buttons->addWidget(m_frontier);
        buttons->addWidget(m_launch);
        buttons->addStretch(1);
        box->addLayout(buttons);
        box->addStretch(1);
    }

    QPushButton *frontierButton() const { return m_frontier; }
    QPushButton *launchButton() const { return m_launch; }
    qsizetype point() const { return m_point; }

    /// Shows a point of the results; `note` says how it relates to the other answers (may be empty).
    void setPoint(const ProjectionResults &r, qsizetype point, const QString &note)
    {
        m_point = point;
        setVisible(point >= 0);
        if (point < 0)
            return;
        const AnswerPointText text = describeAnswerPoint(r, point, DisplayCurrency::instance().current());
        m_note->setText(note);
        m_note->setVisible(!note.isEmpty());
        m_title->setText(text.title);
        m_gpu->setText(text.gpu);
        m_figures->setText(text.figures);
        m_figures->setToolTip(QObject::tr("Time of the whole run (setup, training and expected spot "
                                          "interruptions) and what it is billed"));
        m_range->setText(text.likely);
        m_range->setToolTip(QObject::tr("The time and cost at the slow and the fast end of the speed's "
                                        "likely range (10th to 90th percentile)"));
        m_evidence->setText(text.evidence);
        m_evidence->setToolTip(text.evidenceDetail);
        // The flags' names here; what each means in their tooltip (and the card's).
        m_flags->setVisible(!text.flagNames.isEmpty());
        m_flags->setText(QStringLiteral("⚠ ") + text.flagNames.join(QStringLiteral(" · ")));
        m_flags->setToolTip(text.flagSentences.join(u'\n'));
        setToolTip(text.explanation.join(u'\n'));
    }

    QString plainText() const
    {
        if (!isVisible() && m_point < 0)
            return {};
        QStringList parts;
        for (const QLabel *l : {m_role, m_note, m_title, m_gpu, m_figures, m_range, m_evidence, m_flags})
            if (!l->isHidden() && !l->text().isEmpty())
                parts.append(l->text());
        return parts.join(u'\n');
    }

private:
    QLabel *m_role = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_gpu = nullptr;
    QLabel *m_figures = nullptr;
    QLabel *m_range = nullptr;
    QLabel *m_evidence = nullptr;
    QLabel *m_flags = nullptr;
    QPushButton *m_frontier = nullptr;
    QPushButton *m_launch = nullptr;
    qsizetype m_point = -1;
};

AnswerPage::AnswerPage(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("answerPage"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    auto *scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 12, 12, 12);
    layout->setSpacing(10);
    buildHeader(layout);
    buildCards(layout);
    buildNothingFits(layout);
    buildNextSteps(layout);
    layout->addStretch(1);
    scroll->setWidget(content);
    outer->addWidget(scroll);
    m_headline->setText(tr("Loading the catalog …"));
    // Another display currency or rate: the prices and costs follow (the budget stays in USD, as entered).
    connect(&DisplayCurrency::instance(), &DisplayCurrency::changed, this, [this] {
        if (m_results)
            setResults(m_results);
    });
}

void AnswerPage::buildHeader(QVBoxLayout *layout)
{
    m_headline = wrappingLabel(this, QStringLiteral("answerHeadline"));
    QFont f = m_headline->font();
    f.setPointSizeF(f.pointSizeF() * 1.35);
    f.setBold(true);
    m_headline->setFont(f);
    m_limits = wrappingLabel(this, QStringLiteral("answerLimits"));
    m_filterNotice = wrappingLabel(this, QStringLiteral("answerFilterNotice"));
    m_filterNotice->hide();
    m_updating = new QLabel(tr("Updating …"), this);
    m_updating->setObjectName(QStringLiteral("answerUpdating"));
    m_updating->hide();
    auto *top = new QHBoxLayout;
    top->addWidget(m_headline, 1);
    top->addWidget(m_updating, 0, Qt::AlignTop);
    layout->addLayout(top);
    layout->addWidget(m_limits);
    layout->addWidget(m_filterNotice);
}

void AnswerPage::buildCards(QVBoxLayout *layout)
{
    m_cardsBox = new QWidget(this);
    auto *row = new QHBoxLayout(m_cardsBox);
    row->setContentsMargins(0, 0, 0, 0);
    m_recommended = new AnswerCard(tr("Recommended"), QStringLiteral("answerRecommended"), m_cardsBox);
    m_cheapest =
        new AnswerCard(tr("Cheapest within your limits"), QStringLiteral("answerCheapest"), m_cardsBox);
    m_fastest = new AnswerCard(tr("Fastest within your limits"), QStringLiteral("answerFastest"), m_cardsBox);
    for (AnswerCard *card : {m_recommended, m_cheapest, m_fastest}) {
        row->addWidget(card, 1, Qt::AlignTop);
        connect(card->frontierButton(), &QPushButton::clicked, this, [this, card] {
            if (m_results && card->point() >= 0)
                Q_EMIT frontierRequested(static_cast<int>(m_results->catalogRowOf(card->point())));
        });
        connect(card->launchButton(), &QPushButton::clicked, this, [this, card] {
            if (m_results && card->point() >= 0)
                Q_EMIT launchPlanRequested(m_results, {card->point()});
        });
    }
    layout->addWidget(m_cardsBox);
    m_why = wrappingLabel(this, QStringLiteral("answerWhy"));
    layout->addWidget(m_why);
    m_cardsBox->hide();
    m_why->hide();
}

void AnswerPage::buildNothingFits(QVBoxLayout *layout)
{
    m_nothingFits = new QFrame(this);
    m_nothingFits->setObjectName(QStringLiteral("answerNothingFits"));
    m_nothingFits->setFrameShape(QFrame::StyledPanel);
    auto *box = new QVBoxLayout(m_nothingFits);
    auto *title = new QLabel(tr("No offer fits your limits"), m_nothingFits);
    QFont f = title->font();
    f.setBold(true);
    f.setPointSizeF(f.pointSizeF() * 1.15);
    title->setFont(f);
    box->addWidget(title);
    m_nothingFacts = wrappingLabel(m_movesBox, QStringLiteral("answerNothingFacts"));
    box->addWidget(m_nothingFacts);
    layout->addWidget(m_nothingFits);
    m_nothingFits->hide();
}

void AnswerPage::buildNextSteps(QVBoxLayout *layout)
{
    m_nextSteps = new QWidget(this);
    auto *row = new QHBoxLayout(m_nextSteps);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Next:"), m_nextSteps));
    m_launch = new QPushButton(tr("Launch plan for the recommended offer…"), m_nextSteps);
    m_launch->setObjectName(QStringLiteral("answerLaunchPlan"));
    m_launch->setToolTip(tr("Write a SkyPilot task that launches the recommended offer (Ctrl+L)"));
    m_export = new QPushButton(tr("Export report…"), m_nextSteps);
    m_export->setObjectName(QStringLiteral("answerExport"));
    m_export->setToolTip(tr("The whole answer as HTML, PDF, Markdown, CSV or JSON (Ctrl+E)"));
    m_compare = new QPushButton(tr("Compare these side by side"), m_nextSteps);
    m_compare->setObjectName(QStringLiteral("answerCompare"));
    m_compare->setToolTip(tr("The recommended, cheapest and fastest offers on the Compare page"));
    m_showFrontier = new QPushButton(tr("See every offer on the frontier"), m_nextSteps);
    m_showFrontier->setObjectName(QStringLiteral("answerShowFrontier"));
    m_showFrontier->setToolTip(tr("The cost-versus-time chart of every offer"));
    for (QPushButton *b : {m_launch, m_export, m_compare, m_showFrontier})
        row->addWidget(b);
    row->addStretch(1);
    layout->addWidget(m_nextSteps);
    m_nextSteps->hide();
    connect(m_launch, &QPushButton::clicked, this, [this] {
        if (m_results && m_answer.recommended >= 0)
            Q_EMIT launchPlanRequested(m_results, {m_answer.recommended});
    });
    connect(m_export, &QPushButton::clicked, this, &AnswerPage::exportRequested);
    connect(m_compare, &QPushButton::clicked, this, [this] { Q_EMIT compareRequested(answerRows()); });
    connect(m_showFrontier, &QPushButton::clicked, this, [this] {
        Q_EMIT frontierRequested(m_results && m_answer.recommended >= 0
                                     ? static_cast<int>(m_results->catalogRowOf(m_answer.recommended))
                                     : -1);
    });
}

void AnswerPage::setUpdating(bool updating)
{
    m_updating->setVisible(updating);
}

void AnswerPage::showProblem(const QString &message)
{
    m_results.reset();
    m_answer = {};
    m_headline->setText(tr("No answer: %1").arg(message));
    setErrorStyle(m_headline);
    m_limits->clear();
    m_cardsBox->hide();
    m_why->hide();
    m_nothingFits->hide();
    m_nextSteps->hide();
}

void AnswerPage::setResults(ProjectionResultsPtr results)
{
    m_results = std::move(results);
    m_updating->hide();
    setErrorStyle(m_headline, false);
    if (!m_results)
        return;
    m_answer = answerOf(*m_results);
    m_headline->setText(headlineText());
    m_limits->setText(limitsText());
    const QString notice = FrontierPage::filterNotice(m_results->filter, m_results->offers.size());
    m_filterNotice->setText(notice);
    m_filterNotice->setVisible(!notice.isEmpty());
    if (m_answer.hasRecommendation())
        showAnswer();
    else
        showNothingFits();
}

QString AnswerPage::headlineText() const
{
    const ProjectionResults &r = *m_results;
    if (!m_answer.hasRecommendation())
        return tr("Where to train %1: no offer fits").arg(r.workload.name);
    const ProjectedOffer &p = r.points.at(m_answer.recommended);
    return tr("Train %1 on %2: %3 for %4")
        .arg(r.workload.name, pointTitleText(r.offers.at(p.offerIndex), p), formatHours(p.totalHours),
             formatMoneyWithUnit(p.costUsd, DisplayCurrency::instance().current()));
}

QString AnswerPage::limitsText() const
{
    const ProjectionResults &r = *m_results;
    QStringList parts;
    parts.append(tr("%1 × %2 epochs, %3, %4")
                     .arg(answerCountText(r.workload.samplesPerEpoch, r.workload.sampleUnit),
                          formatNumber(r.workload.epochs), precisionName(r.workload.precision),
                          answerStackText(r, nullptr)));
    parts.append(r.options.deadlineHours ? tr("deadline %1").arg(formatHours(*r.options.deadlineHours))
                                         : tr("no deadline"));
    parts.append(r.options.budgetUsd ? tr("budget %1 USD").arg(formatUsd(*r.options.budgetUsd))
                                     : tr("no budget"));
    parts.append(tr("%1 offers projected, %2 within the limits, %3 on the frontier")
                     .arg(QString::number(r.projectedCount), QString::number(r.feasibleCount),
                          QString::number(r.frontierCount)));
    return parts.join(QStringLiteral(" · "));
}

void AnswerPage::showAnswer()
{
    const ProjectionResults &r = *m_results;
    const Answer &a = m_answer;
    m_nothingFits->hide();
    m_recommended->setPoint(r, a.recommended, {});
    m_cheapest->setPoint(r, a.cheapest,
                         a.cheapest == a.recommended ? tr("The recommended offer is also the cheapest.")
                                                     : QString());
    m_fastest->setPoint(r, a.fastest,
                        a.fastest == a.recommended ? tr("The recommended offer is also the fastest.")
                                                   : QString());
    m_cardsBox->show();
    const auto title = [&r](qsizetype i) {
        const ProjectedOffer &p = r.points.at(i);
        return pointTitleText(r.offers.at(p.offerIndex), p);
    };
    QString why = answerWhyText(r, a, title, DisplayCurrency::instance().current());
    if (why.isEmpty())
        why = tr("It is the only offer on the efficiency frontier within your limits.");
    m_why->setText(tr("<b>Why this one:</b> it is on the efficiency frontier (no offer is both faster and "
                      "cheaper). %1")
                       .arg(why.toHtmlEscaped()));
    m_why->show();
    m_launch->setEnabled(true);
    m_compare->setEnabled(answerRows().size() > 1);
    m_nextSteps->show();
}

void AnswerPage::showNothingFits()
{
    const ProjectionResults &r = *m_results;
    const Answer &a = m_answer;
    m_cardsBox->hide();
    m_why->hide();
    m_nothingFacts->setText(
        a.none.facts.isEmpty() ? QString() : a.none.facts.at(0).toUpper() + a.none.facts.mid(1) + u'.');
    // The previous advice goes as a whole (a button of it may be the one being clicked: deleted later).
    if (m_movesBox) {
        m_movesBox->hide();
        m_movesBox->setParent(nullptr);
        m_movesBox->deleteLater();
    }
    m_movesBox = new QWidget(m_nothingFits);
    m_moves = new QVBoxLayout(m_movesBox);
    m_moves->setContentsMargins(0, 0, 0, 0);
    m_nothingFits->layout()->addWidget(m_movesBox);
    const auto title = [&r](qsizetype i) {
        const ProjectedOffer &p = r.points.at(i);
        return pointTitleText(r.offers.at(p.offerIndex), p);
    };
    const QStringList texts = limitMoveTexts(r, a, title);
    for (qsizetype i = 0; i < texts.size() && i < a.moves.size(); ++i) {
        const LimitMove move = a.moves.at(i);
        auto *row = new QHBoxLayout;
        auto *label = wrappingLabel(m_movesBox, QStringLiteral("answerMove%1").arg(i));
        label->setText(texts.at(i).at(0).toUpper() + texts.at(i).mid(1) + u'.');
        auto *apply = new QPushButton(move.deadlineHours && move.budgetUsd ? tr("Use these limits")
                                      : move.deadlineHours                 ? tr("Use this deadline")
                                                                           : tr("Use this budget"),
                                      m_movesBox);
        apply->setObjectName(QStringLiteral("answerApplyMove%1").arg(i));
        apply->setToolTip(tr("Set the limit in the workload panel (rounded up so that the offer fits)"));
        connect(apply, &QPushButton::clicked, this,
                [this, move] { Q_EMIT limitsRequested(move.deadlineHours, move.budgetUsd); });
        row->addWidget(label, 1);
        row->addWidget(apply, 0, Qt::AlignTop);
        m_moves->addLayout(row);
    }
    if (a.none.suspectExcluded) {
        auto *row = new QHBoxLayout;
        auto *label = wrappingLabel(m_movesBox, QStringLiteral("answerSuspectHint"));
        label->setText(
            tr("Offers with suspect prices (too old, or below the provider's floor) were left out; "
               "refresh their catalogs on the Catalogs page, or let them be picked."));
        auto *include = new QPushButton(tr("Include suspect prices"), m_movesBox);
        include->setObjectName(QStringLiteral("answerIncludeSuspect"));
        connect(include, &QPushButton::clicked, this, &AnswerPage::includeSuspectRequested);
        row->addWidget(label, 1);
        row->addWidget(include, 0, Qt::AlignTop);
        m_moves->addLayout(row);
    }
    if (texts.isEmpty() && !a.none.suspectExcluded) {
        auto *label = wrappingLabel(m_movesBox, QStringLiteral("answerNoMove"));
        label->setText(r.offers.isEmpty()
                           ? tr("Widen the filter on the Offers page, or refresh the catalogs.")
                           : tr("No deadline or budget would change this: try another GPU "
                                "count, precision or the filter on the Offers page."));
        m_moves->addWidget(label);
    }
    m_nothingFits->show();
    m_launch->setEnabled(false);
    m_compare->setEnabled(false);
    m_nextSteps->show();
}

QList<int> AnswerPage::answerRows() const
{
    QList<int> rows;
    if (!m_results)
        return rows;
    for (qsizetype p : {m_answer.recommended, m_answer.cheapest, m_answer.fastest}) {
        if (p < 0)
            continue;
        const int row = static_cast<int>(m_results->catalogRowOf(p));
        if (!rows.contains(row))
            rows.append(row);
    }
    return rows;
}

QString AnswerPage::plainText() const
{
    QStringList parts{m_headline->text(), m_limits->text()};
    if (!m_filterNotice->isHidden())
        parts.append(m_filterNotice->text());
    if (!m_cardsBox->isHidden()) {
        for (const AnswerCard *card : {m_recommended, m_cheapest, m_fastest})
            if (!card->isHidden())
                parts.append(card->plainText());
        parts.append(m_why->text());
    }
    if (!m_nothingFits->isHidden()) {
        parts.append(m_nothingFacts->text());
        for (const QLabel *l : m_movesBox->findChildren<QLabel *>())
            parts.append(l->text());
    }
    return parts.join(u'\n');
}

} // namespace gf

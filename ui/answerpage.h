#pragma once

#include "projection/answer.h"
#include "viewmodels/projectioncontroller.h"

#include <QWidget>

#include <optional>

class QBoxLayout;
class QFrame;
class QLabel;
class QPushButton;
class QVBoxLayout;

namespace gf {

class AnswerCard;

/// The Answer page, first on start: for the current workload and limits, the recommended offer and the
/// cheapest and the fastest within the limits, each with its time, cost, likely range and how sure its
/// speed is (evidence and software stack); why the recommended one beat its nearest rival; and what to do
/// next. When nothing fits, it says why and which limit to move by how much, with a button that moves it.
/// Everything follows the workload panel: MainWindow hands every new projection to setResults.
class AnswerPage final : public QWidget
{
    Q_OBJECT
public:
    explicit AnswerPage(QWidget *parent = nullptr);

    void setResults(ProjectionResultsPtr results);
    ProjectionResultsPtr results() const { return m_results; }
    const Answer &answer() const { return m_answer; }
    /// A projection is running (the figures shown are about to change) or done.
    void setUpdating(bool updating);
    /// The catalog could not be loaded: the page says so instead of an answer.
    void showProblem(const QString &message);

    /// The catalog rows of the recommended, cheapest and fastest points (each once, in that order).
    QList<int> answerRows() const;
    /// Plain text of the page (headline, cards, reason, advice): what a screen reader or a test reads.
    QString plainText() const;

Q_SIGNALS:
    /// Write SkyPilot launch files for these points of the results.
    void launchPlanRequested(const gf::ProjectionResultsPtr &results, const QList<qsizetype> &points);
    void exportRequested();
    /// Compare these catalog rows side by side (the Compare page).
    void compareRequested(const QList<int> &catalogRows);
    /// Show this catalog row on the Frontier page.
    void frontierRequested(int catalogRow);
    /// Set the workload panel's limits (a move the page suggested); nullopt = leave that limit as it is.
    void limitsRequested(std::optional<double> deadlineHours, std::optional<double> budgetUsd);
    /// Let suspect prices be picked (the workload panel's box).
    void includeSuspectRequested();

private:
    void buildHeader(QVBoxLayout *layout);
    void buildCards(QVBoxLayout *layout);
    void buildNothingFits(QVBoxLayout *layout);
    void buildNextSteps(QVBoxLayout *layout);
    void showAnswer();
    void showNothingFits();
    QString headlineText() const;
    QString limitsText() const;

    ProjectionResultsPtr m_results;
    Answer m_answer;
    QLabel *m_headline = nullptr;
    QLabel *m_limits = nullptr;
    QLabel *m_filterNotice = nullptr;
    QLabel *m_updating = nullptr;
    QWidget *m_cardsBox = nullptr;
    AnswerCard *m_recommended = nullptr;
    AnswerCard *m_cheapest = nullptr;
    AnswerCard *m_fastest = nullptr;
    QLabel *m_why = nullptr;
    QFrame *m_nothingFits = nullptr;
    QLabel *m_nothingFacts = nullptr;
    QWidget *m_movesBox = nullptr; ///< the advice of the current answer, rebuilt with each
    QVBoxLayout *m_moves = nullptr;
    QWidget *m_nextSteps = nullptr;
    QPushButton *m_launch = nullptr;
    QPushButton *m_export = nullptr;
    QPushButton *m_compare = nullptr;
    QPushButton *m_showFrontier = nullptr;
};

} // namespace gf

#pragma once

#include <QLabel>

namespace gf {

/// A one-line plain-text label that can be narrower than its text: it draws the text elided with
/// "…" and shows the whole text as its tooltip when elided. Its minimum width is a few characters,
/// so long status lines never set a window's minimum size. text() always returns the whole text.
class ElidedLabel : public QLabel
{
    Q_OBJECT
public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    QSize minimumSizeHint() const override;
    /// True when the current width cannot show the whole text.
    bool isElided() const;

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;
};

} // namespace gf

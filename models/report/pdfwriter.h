#pragma once

#include "report/vectorcanvas.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QString>

#include <memory>
#include <vector>

namespace gf {

/// The two standard-14 fonts the writer uses (never embedded; every PDF reader has them).
enum class PdfFont : quint8
{
    Helvetica,
    HelveticaBold
};

inline constexpr double kA4WidthPt = 595.276;
inline constexpr double kA4HeightPt = 841.890;

/// Text in WinAnsiEncoding (cp1252): Latin-1 and the cp1252 punctuation map directly; a few common
/// symbols are transliterated ("≤" -> "<=", "→" -> "->", "∞" -> "inf"); anything else becomes '?'.
QByteArray toWinAnsi(QStringView text);
/// Width of text in points set in `font` at `size` (AFM widths, same mapping as toWinAnsi).
double pdfTextWidth(QStringView text, PdfFont font, double size);
/// The longest prefix of `text` that fits `width` (with "…" appended when cut).
QString pdfElide(const QString &text, PdfFont font, double size, double width);
/// Splits text into lines no wider than `width` at spaces (a word longer than a line is cut).
QStringList pdfWrap(const QString &text, PdfFont font, double size, double width);

/// One page's content stream. Coordinates are points with the origin at the TOP LEFT (y down);
/// the page converts to PDF user space.
class PdfPage
{
public:
    PdfPage(double width, double height) : m_width(width), m_height(height) {}

    double width() const { return m_width; }
    double height() const { return m_height; }

    void setFillColor(Rgb c);
    void setStrokeColor(Rgb c);
    void setLineWidth(double w);
    void setDash(double dash); ///< 0 = solid
    void moveTo(double x, double y);
    void lineTo(double x, double y);
    void curveTo(double x1, double y1, double x2, double y2, double x3, double y3);
    void closePath();
    void addRect(double x, double y, double w, double h);
    void addCircle(double cx, double cy, double r); ///< four Bézier quarter arcs
    void stroke();
    void fill();
    void fillAndStroke();
    void save();
    void restore();
    void clipRect(double x, double y, double w, double h);
    /// Text with its baseline at y; rotated counter-clockwise by rotateDeg around (x, y).
    void text(double x, double y, QStringView s, PdfFont font, double size, Rgb color, double rotateDeg = 0);
    /// A link annotation is not needed; plain content only.
    const QByteArray &content() const { return m_content; }

private:
    QByteArray pt(double x, double y) const;
    double m_width;
    double m_height;
    QByteArray m_content;
};

/// A PDF 1.4 document: pages of vector content and text in the standard fonts, a proper
/// cross-reference table, Flate-compressed content streams. Deterministic: the same calls give the
/// same bytes (the creation date is whatever setCreationDate was given; none when unset).
class PdfDocument
{
public:
    explicit PdfDocument(double pageWidth = kA4WidthPt, double pageHeight = kA4HeightPt);
    ~PdfDocument();
    PdfDocument(const PdfDocument &) = delete;
    PdfDocument &operator=(const PdfDocument &) = delete;

    PdfPage &addPage();
    qsizetype pageCount() const { return m_pages.size(); }
    PdfPage &page(qsizetype i) { return *m_pages[i]; }

    void setTitle(const QString &title) { m_title = title; }
    void setCreator(const QString &creator) { m_creator = creator; }
    void setCreationDate(const QDateTime &when) { m_created = when; }
    void setCompress(bool on) { m_compress = on; }

    QByteArray toPdf() const;

private:
    double m_pageWidth;
    double m_pageHeight;
    std::vector<std::unique_ptr<PdfPage>> m_pages;
    QString m_title;
    QString m_creator;
    QDateTime m_created;
    bool m_compress = true;
};

/// The VectorCanvas interface on one PDF page (the chart is drawn through it).
class PdfCanvas final : public VectorCanvas
{
public:
    explicit PdfCanvas(PdfPage &page) : m_page(page) {}

    void line(QPointF a, QPointF b, const Pen &pen) override;
    void polyline(const QList<QPointF> &points, const Pen &pen) override;
    void rect(const QRectF &r, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void circle(QPointF centre, double radius, std::optional<Rgb> fill, std::optional<Pen> stroke) override;
    void text(QPointF at, const QString &text, double size, bool bold, Rgb color,
              TextAnchor anchor = TextAnchor::Start, double rotateDeg = 0) override;
    void beginClip(const QRectF &r) override;
    void endClip() override;

private:
    void applyPen(const Pen &pen);
    void paint(bool fill, bool stroke);
    PdfPage &m_page;
};

} // namespace gf

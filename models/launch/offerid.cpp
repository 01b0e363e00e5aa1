#include "launch/offerid.h"

#include "domain/provider.h"

#include <QStringList>

namespace gf {

namespace {

/// `commas`: ',' written %2C too, so that an offer ID survives the CLI's comma-separated values (a vast.ai
/// region "France, FR, EU").
QString encodePart(const QString &s, bool commas = false)
{
    QString out;
    out.reserve(s.size());
    for (QChar c : s) {
        if (c == u'%')
            out += QStringLiteral("%25");
        else if (c == u'/')
            out += QStringLiteral("%2F");
        else if (c == u':')
            out += QStringLiteral("%3A");
        else if (commas && c == u',')
            out += QStringLiteral("%2C");
        else
            out += c;
    }
    return out;
}

QString decodePart(const QString &s)
{
    QString out;
    out.reserve(s.size());
    for (qsizetype i = 0; i < s.size(); ++i) {
        if (s.at(i) == u'%' && i + 2 < s.size()) {
            const QString hex = s.mid(i + 1, 2).toUpper();
            if (hex == u"25" || hex == u"2F" || hex == u"3A" || hex == u"2C") {
                out += hex == u"25" ? u'%' : hex == u"2F" ? u'/' : hex == u"3A" ? u':' : u',';
                i += 2;
                continue;
            }
        }
        out += s.at(i);
    }
    return out;
}

} // namespace

QString offerIdText(const Offer &offer, bool spot)
{
    QString id = encodePart(offer.provider, true) + u'/' + encodePart(offer.instanceType, true) + u'/' +
                 encodePart(offer.region, true);
    if (!offer.zone.isEmpty())
        id += u'/' + encodePart(offer.zone, true);
    if (spot)
        id += QStringLiteral(":spot");
    return id;
}

QString offerKey(const Offer &offer)
{
    return encodePart(offer.provider) + u'/' + encodePart(offer.instanceType) + u'/' +
           encodePart(offer.region);
}

QStringList splitOfferIds(const QStringList &values)
{
    const QStringList providers = knownProviders();
    auto startsAnId = [&](QStringView rest) {
        const QStringView t = rest.trimmed();
        const qsizetype slash = t.indexOf(u'/');
        return slash > 0 && providers.contains(t.left(slash).toString(), Qt::CaseInsensitive);
    };
    QStringList out;
    for (const QString &value : values) {
        qsizetype start = 0;
        for (qsizetype i = 0; i <= value.size(); ++i) {
            if (i < value.size() && (value.at(i) != u',' || !startsAnId(QStringView(value).mid(i + 1))))
                continue;
            QStringView piece = QStringView(value).mid(start, i - start);
            // Blanks next to a separating comma belong to the list, not to the ID.
            if (start > 0)
                while (!piece.isEmpty() && piece.front().isSpace())
                    piece = piece.mid(1);
            if (i < value.size())
                while (!piece.isEmpty() && piece.back().isSpace())
                    piece.chop(1);
            if (!piece.trimmed().isEmpty())
                out.append(piece.toString());
            start = i + 1;
        }
    }
    return out;
}

Result<OfferId> parseOfferId(const QString &textIn)
{
    QString text = textIn; // not trimmed: a part may end in a space (IDs are printed exactly)
    OfferId id;
    if (text.endsWith(QStringLiteral(":spot"), Qt::CaseInsensitive)) {
        id.spot = true;
        text.chop(5);
    } else if (text.endsWith(QStringLiteral(":on-demand"), Qt::CaseInsensitive)) {
        text.chop(10);
    }
    const QStringList parts = text.split(u'/');
    if (parts.size() < 3 || parts.size() > 4)
        return makeError(
            QStringLiteral("offer ID \"%1\" is not provider/instance_type/region[/zone][:spot]").arg(textIn));
    id.provider = decodePart(parts.at(0)).toLower();
    id.instanceType = decodePart(parts.at(1));
    id.region = decodePart(parts.at(2));
    if (parts.size() == 4)
        id.zone = decodePart(parts.at(3));
    if (id.provider.isEmpty() || id.instanceType.isEmpty() || id.region.isEmpty())
        return makeError(
            QStringLiteral("offer ID \"%1\": provider, instance type and region must not be empty")
                .arg(textIn));
    if (parts.size() == 4 && id.zone.isEmpty())
        return makeError(QStringLiteral("offer ID \"%1\": the zone after the last '/' is empty").arg(textIn));
    return id;
}

QList<qsizetype> matchOffers(const QList<Offer> &offers, const OfferId &id)
{
    QList<qsizetype> out;
    for (qsizetype i = 0; i < offers.size(); ++i) {
        const Offer &o = offers.at(i);
        if (o.provider.compare(id.provider, Qt::CaseInsensitive) != 0 || o.instanceType != id.instanceType ||
            o.region != id.region)
            continue;
        if (!id.zone.isEmpty() && o.zone != id.zone)
            continue;
        out.append(i);
    }
    return out;
}

} // namespace gf

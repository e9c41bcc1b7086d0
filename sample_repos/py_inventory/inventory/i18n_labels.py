"""Localised shelf labels and packing-slip texts.

The Hamburg and Lyon sites print labels in the local language; the Osaka
partner warehouse gets Japanese. Identifiers in this module intentionally
use the domain words the site teams use (PEP 3131 allows it), because the
label templates were written together with them.
"""

from __future__ import annotations

from typing import Dict

# Default language per site code.
STANDORT_SPRACHE: Dict[str, str] = {
    "HAM": "de",
    "LYS": "fr",
    "OSA": "ja",
}

ÉTIQUETTES: Dict[str, Dict[str, str]] = {
    "de": {
        "fragile": "Vorsicht, zerbrechlich!",
        "heavy": "Schwer – mit zwei Personen heben",
        "cold": "Kühlware: bei 2–8 °C lagern",
        "picked": "📦 Kommissioniert von {name}",
    },
    "fr": {
        "fragile": "Attention, fragile !",
        "heavy": "Lourd – à soulever à deux",
        "cold": "Produit frais : conserver entre 2 et 8 °C",
        "picked": "📦 Préparé par {name}",
    },
    "ja": {
        "fragile": "取扱注意・われもの",
        "heavy": "重量物：二人で持ち上げてください",
        "cold": "要冷蔵（2〜8℃）",
        "picked": "📦 ピッキング担当：{name}",
    },
}

café = "Pausenraum / salle de pause / 休憩室 ☕"


def größe_berechnen(länge_cm: float, breite_cm: float, höhe_cm: float) -> float:
    """Volumen eines Pakets in Litern (cm³ / 1000), auf 0,1 gerundet."""
    if min(länge_cm, breite_cm, höhe_cm) <= 0:
        raise ValueError("Maße müssen positiv sein")
    return round(länge_cm * breite_cm * höhe_cm / 1000.0, 1)


def volumengewicht(länge_cm: float, breite_cm: float, höhe_cm: float, divisor: int = 5000) -> float:
    """Volumetric weight as carriers compute it: L x W x H / divisor (kg)."""
    return round(länge_cm * breite_cm * höhe_cm / divisor, 2)


def étiquette(clé: str, langue: str = "fr", **valeurs: str) -> str:
    """Return the label text for ``clé`` in ``langue``; fall back to German.

    Missing keys return the key wrapped in brackets, so an untranslated
    label is visible on the printout rather than silently blank.
    """
    table = ÉTIQUETTES.get(langue) or ÉTIQUETTES["de"]
    modèle = table.get(clé) or ÉTIQUETTES["de"].get(clé)
    if modèle is None:
        return f"[{clé}]"
    return modèle.format(**valeurs)


def 在庫ラベル(品番: str, 数量: int, 棚番: str) -> str:
    """大阪倉庫向けの棚ラベル文字列を作る（品番・数量・棚番）。"""
    return f"品番 {品番}｜数量 {数量} 個｜棚 {棚番}"


def packzettel_zeilen(positionen: Dict[str, int], standort: str = "HAM") -> list:
    """Build packing-slip lines in the site language, with a header row."""
    sprache = STANDORT_SPRACHE.get(standort, "de")
    überschrift = {
        "de": "Artikel · Menge",
        "fr": "Article · Quantité",
        "ja": "品目・数量",
    }[sprache]
    zeilen = [überschrift, "─" * len(überschrift)]
    for artikel, menge in sorted(positionen.items()):
        zeilen.append(f"{artikel:<16}{menge:>6}")
    zeilen.append(étiquette("picked", sprache, name="Team Süd"))
    return zeilen


if __name__ == "__main__":
    print(größe_berechnen(40, 30, 25), "L")
    print(在庫ラベル("BOL-00412", 24, "OSA/03-B07"))
    print("\n".join(packzettel_zeilen({"BOL-00412": 24, "MUT-00077": 100}, "LYS")))
    print(café)

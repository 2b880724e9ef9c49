"""Small helpers for writing SVG with the standard library's ElementTree (`board/picture.py`).

ElementTree escapes every text and attribute value (`<`, `&`, quotes) and keeps attributes in the
order they are given, so the same drawing is always the same bytes. Characters that XML 1.0 cannot
hold at all (most control characters) are dropped from texts taken from a ruleset.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

SVG_NAMESPACE = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
CHAR_WIDTH = 0.6  # the width of an average character, in font sizes: enough to size a box around a text

_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
_ROMAN = ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))


def number(value: float) -> str:
    """A coordinate as SVG text: at most one decimal, never an exponent."""
    text = f"{round(value, 1):.1f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def clean(text: str) -> str:
    """`text` without the characters XML cannot hold."""
    return _NOT_XML.sub("", text)


def _attribute_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return number(value)
    return clean(str(value))


def element(parent: ET.Element | None, tag: str, text: str | None = None, **attributes: Any) -> ET.Element:
    """An SVG element; `class_` is written `class` and `data_owner` is written `data-owner`."""
    attrib = {name.rstrip("_").replace("_", "-"): _attribute_value(value)
              for name, value in attributes.items() if value is not None}
    made = ET.Element(tag, attrib) if parent is None else ET.SubElement(parent, tag, attrib)
    if text is not None:
        made.text = clean(text)
    return made


MIN_FONT = 8.0  # the smallest text of the picture


def text_width(text: str, size: float) -> float:
    """About how wide `text` is at font size `size`."""
    return len(text) * size * CHAR_WIDTH


def fitting(text: str, width: float, size: float) -> float:
    """`size`, or the smaller font size at which `text` fits in `width`, but not below MIN_FONT:
    the page's default zoom makes the smallest text 11 px (static/app.js), so a smaller font here
    would mean a larger zoom for every reader."""
    wanted = text_width(text, size)
    return size if wanted <= width or wanted == 0 else max(MIN_FONT, round(size * width / wanted, 1))


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on the colour `#rrggbb`."""
    red, green, blue = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#000000" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def roman(level: int) -> str:
    """A tile level as printed on the tiles (I, II, …); 0 and below as digits."""
    if level <= 0:
        return str(level)
    out = []
    for value, letters in _ROMAN:
        while level >= value:
            out.append(letters)
            level -= value
    return "".join(out)


def serialise(root: ET.Element) -> str:
    """The document as text. No XML declaration: UTF-8 needs none in a file, and without one the
    same text can be put inside an HTML page as it is."""
    ET.indent(root, space=" ")  # one element a line: readable, and a change shows as a small diff
    return ET.tostring(root, encoding="unicode") + "\n"

"""QR codes of the players' links, drawn on the server as inline SVG (``segno``; no script,
no image service): a phone's camera opens the link from the game master's screen."""

from __future__ import annotations

import segno
from markupsafe import Markup

SCALE = 4
"""Pixels per module at the SVG's own size (CSS may scale it: it has a ``viewBox``)."""
BORDER = 4
"""The quiet zone around the code, in modules (the standard's minimum)."""


def qr_code(url: str) -> segno.QRCode:
    """The QR code of ``url`` (error correction M, the smallest version that holds it)."""
    return segno.make(url, error="m", micro=False)


def qr_svg(url: str, label: str) -> Markup:
    """``url``'s QR code as an ``<svg>`` element for a page, described by ``label`` (escaped
    here: it may be a character's name)."""
    code = qr_code(url)
    svg = code.svg_inline(
        scale=SCALE,
        border=BORDER,
        dark="#000",
        light="#fff",
        svgclass="qr",
        lineclass=None,
        omitsize=False,
        title=label,
    )
    size = code.symbol_size(scale=SCALE, border=BORDER)[0]
    # a viewBox, so CSS can make the code bigger or smaller without blurring it
    svg = svg.replace("<svg ", f'<svg viewBox="0 0 {size} {size}" role="img" ', 1)
    return Markup(svg)

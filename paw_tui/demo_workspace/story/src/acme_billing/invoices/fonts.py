"""Fonts embedded in invoice PDFs: PDF/A requires every glyph's font to be embedded."""

from __future__ import annotations

from importlib import resources

FONT_FAMILY = "Inter"
FONT_FILES = {"normal": "Inter-Regular.woff2", "bold": "Inter-SemiBold.woff2"}


def font_path(weight: str) -> str:
    return str(resources.files("acme_billing.invoices").joinpath("fonts", FONT_FILES[weight]))


def font_face_css() -> str:
    """@font-face rules for the bundled fonts (their licence: docs/invoices.md)."""
    rules = []
    for weight, name in FONT_FILES.items():
        rules.append(
            "@font-face {"
            f" font-family: {FONT_FAMILY};"
            f" font-weight: {weight};"
            f" src: url('file://{font_path(weight)}');"
            " }"
        )
    return "\n".join(rules)

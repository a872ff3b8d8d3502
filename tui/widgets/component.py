"""A component class's style, read safely before the stylesheet has reached a new widget."""

from __future__ import annotations

from rich.style import Style
from textual.widget import Widget


def component_style(widget: Widget, name: str) -> Style:
    """``widget.get_component_rich_style(name)``, or no style until the stylesheet has reached the widget.

    A table laid out anew under a modal screen (a resize across the fold with the leave question or the
    command palette open) draws its new widgets before their component classes are styled, and Textual
    raises KeyError there: the app crashed. The widget is styled, and told so (``notify_style_update``),
    a moment later; each user of this then draws again."""
    try:
        return widget.get_component_rich_style(name)
    except KeyError:
        return Style()

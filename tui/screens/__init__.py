"""The app's screens, one to a file."""

from textual.binding import Binding

#: Tab and shift+Tab on a form move the focus at once, before the keys typed after them are handed out.
#: As ordinary bindings they waited in the focused field's queue behind nothing, while the keys after them
#: were already queued to that field: text typed or pasted fast after a Tab landed in the field before it
#: ("127.0.0.1" in the table name, and the table served on every interface).
FORM_FOCUS_KEYS = [
    Binding("tab", "app.focus_next", "next field", show=False, priority=True),
    Binding("shift+tab", "app.focus_previous", "previous field", show=False, priority=True),
]

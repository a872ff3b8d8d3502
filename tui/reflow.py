"""A game's rules text reflowed into paragraphs, for the rules screen and ``turpin rules`` alike: each
wraps it to its own width."""

from __future__ import annotations


def reflowed(rules: str) -> str:
    """The engine's rules text with the line breaks it has for an 80-column file taken out, so whoever
    shows it wraps it to its own width (a break kept from the file left every other line half empty): a
    line that ends a sentence keeps its break (Highwayman's rules put one item to a line), and so does an
    indented line (a table, as the market's price list), any other joins the next."""
    lines: list[str] = []
    for line in rules.strip().splitlines():
        previous = lines[-1] if lines else ""
        if (previous.strip() and line.strip() and not previous[0].isspace() and not line[0].isspace()
                and not previous.rstrip().endswith((".", "!", "?"))):
            lines[-1] = lines[-1].rstrip() + " " + line.strip()
        else:
            lines.append(line)
    return "\n".join(lines)

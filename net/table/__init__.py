"""The table: one game's full state and every decision about it, split by job; ``net.table.table.Table``
composes the parts. Nothing is imported here, so ``net.record`` can use the clock and the match without
a cycle through the table."""

"""What turpin keeps on disk for the player: his game records and where they go, the unfinished game
against bots the menu offers to go on with, his seat tokens and his theme."""

from tui.games.dick_turpin.hooks import Panes as Panes

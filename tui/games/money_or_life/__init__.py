from tui.games.money_or_life.hooks import Panes as Panes

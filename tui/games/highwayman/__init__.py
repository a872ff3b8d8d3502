from tui.games.highwayman.hooks import Panes as Panes

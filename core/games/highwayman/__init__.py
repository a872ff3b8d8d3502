from core.games.highwayman.rules import GAME as GAME

from core.games.dick_turpin.rules import GAME as GAME

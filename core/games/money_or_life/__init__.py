from core.games.money_or_life.rules import GAME as GAME

"""Roman War's rules by rule area; each module holds one mixin of the game object
(games/roman_war/game.py composes them; stages.py states the flow)."""

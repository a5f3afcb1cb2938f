"""Promised Land's rules by area, as functions of the game object (its queries) and an ``apply``'s scratch."""

"""Soul of the Empire's rules by area, as functions of the game object and an apply's scratch."""

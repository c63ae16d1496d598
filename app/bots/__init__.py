"""Players that are not people: a random player for every game, and (per game) bots with a strategy."""

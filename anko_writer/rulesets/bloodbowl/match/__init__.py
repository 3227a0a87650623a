"""The match engine: the pitch, the actions, the dice procedures and the AI coaches (004)."""

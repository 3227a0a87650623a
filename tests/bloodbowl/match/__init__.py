"""The Blood Bowl match engine (004): procedures with fixed dice, the half loop, statistics."""

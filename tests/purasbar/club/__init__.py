"""The club wing: people, owner and coach, morale, training, youth, ageing, achievements, fans, generation."""

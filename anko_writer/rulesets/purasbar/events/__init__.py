"""000 ch.6: the 安科事件 — event depth, effects, and the business, environment and match event tables."""

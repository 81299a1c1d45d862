"""Competition's service side (issue 32): the ratings' storage, their update from each finished
ranked game, and the rating boards."""

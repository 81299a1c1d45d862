"""Progression (E6-E8): weekly tasks, referral and badges, as pure rules."""

"""The social rules (product S1-S7), pure: no storage, no event shapes (docs/social.md)."""

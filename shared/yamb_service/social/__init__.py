"""Social (product S1-S7): players and presence, favourites and blocks, messages and chats,
invitations, reports, contact and fair play. A folder per part, each with its ports, its
DynamoDB adapter, its service and its routes (docs/social.md)."""

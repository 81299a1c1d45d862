"""The open game database's service (issue 32): a finished public game staged as it ends,
each month's games exported to files, the months listed and their files handed out."""

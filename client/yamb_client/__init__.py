"""The terminal client (`yamb play`): play against the local stack or a deployed one."""

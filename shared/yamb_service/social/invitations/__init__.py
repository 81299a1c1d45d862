"""Invitations to a waiting table (S2): the protocol's `invite`, `answer_invitation`,
`withdraw_invitation` and `invitations`."""

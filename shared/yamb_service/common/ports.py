"""What the domains' ports share: the part of a transaction that one store prepares and
another store commits (docs/decisions.md, "Cross-domain writes go through ports")."""


class TransactionPart:
    """Writes a store prepares for a transaction that another store commits: a claim's marker
    in the wallet change that pays it, a wallet's writes in a rename's transaction. Both
    happen, or neither. A service hands it on and never looks inside; each storage has its
    own kind (DynamoDB: yamb_service.common.dynamo.DynamoPart), made by that storage's
    adapters only."""

    __slots__ = ()

"""The game service's adapters and application logic: DynamoDB, API Gateway, Step Functions,
Cognito. The rules stay in `yamb`; this package wires them to AWS."""

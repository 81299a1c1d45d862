"""Reports and their review (S5): `POST /reports`, `GET /moderation/cases`,
`POST /moderation/cases/{caseId}`."""

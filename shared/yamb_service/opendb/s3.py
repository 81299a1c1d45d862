"""The open database's files in S3: a private bucket (no public access at all), each file
handed out through a link signed for a while (`link`), which the HTTP API's
`GET /database/{file}` redirects to."""

from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

# How long a download link works: long enough for a slow download to start.
LINK_SECONDS = 3600


class S3FileStore:
    def __init__(self, client: Callable[[], Any], bucket: str) -> None:
        self._client = client  # made at the first use
        self._bucket = bucket

    def put(self, name: str, data: bytes, content_type: str) -> None:
        self._client().put_object(
            Bucket=self._bucket,
            Key=name,
            Body=data,
            ContentType=content_type,
            # A month's file never changes: a cache may keep it (the manifest a day).
            CacheControl="public, max-age=86400",
            ContentDisposition=f'attachment; filename="{name}"',
        )

    def get(self, name: str) -> bytes | None:
        try:
            answer = self._client().get_object(Bucket=self._bucket, Key=name)
        except ClientError as error:
            if error.response.get("Error", {}).get("Code") in ("NoSuchKey", "404"):
                return None
            raise
        body: bytes = answer["Body"].read()
        return body

    def link(self, name: str) -> str:
        url: str = self._client().generate_presigned_url(
            "get_object",
            Params={"Bucket": self._bucket, "Key": name},
            ExpiresIn=LINK_SECONDS,
        )
        return url

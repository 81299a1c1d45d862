"""What the layers' builds do to the libraries still works: botocore with the data of the
services the functions call only (layers/dependencies/trim_botocore.py) makes their clients."""

import shutil
import subprocess
import sys
from pathlib import Path

import botocore

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "layers" / "dependencies"))
from trim_botocore import kept_services, trim  # noqa: E402

CLIENTS = """
import botocore, botocore.session
assert botocore.__file__.startswith(%r), botocore.__file__
session = botocore.session.get_session()
for service in %r:
    session.create_client(service, region_name="eu-west-1", aws_access_key_id="a",
                          aws_secret_access_key="b")
print("ok")
"""


def test_trimmed_botocore_makes_the_functions_clients(tmp_path: Path) -> None:
    # given botocore trimmed as the dependencies layer ships it
    shutil.copytree(Path(botocore.__file__).parent, tmp_path / "botocore")
    removed = trim(tmp_path / "botocore")

    # when a fresh interpreter makes a client of every service the functions call with it
    services = sorted(kept_services())
    code = CLIENTS % (str(tmp_path), services)
    result = subprocess.run(
        [sys.executable, "-c", code],
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        check=False,
    )

    # then they are made, and hundreds of other services' data are gone
    assert result.stdout.strip() == "ok", result.stderr
    assert {
        "dynamodb",
        "stepfunctions",
        "apigatewaymanagementapi",
        "cognito-idp",
        "ses",
        "ssm",
    } == set(services)
    assert len(removed) > 300

"""The deployment recipe of docs/deploy.md, kept true: its files.

- The systemd units pass ``systemd-analyze verify``; nginx.conf passes ``nginx -t`` (as
  shipped, routing by table, and with the spreading its comment offers instead); the
  Caddyfile passes ``caddy validate``.
- The Dockerfile and compose.yaml (parsed, Docker cannot run here) start exactly the
  commands the units start: the same ``db upgrade``, the same ``serve`` with the same
  options, on the ports nginx.conf and the Caddyfile proxy to, with the same environment
  variables.
- A backup made by deploy/backup.sh restores with deploy/restore-check.sh, and every match
  in it replays.

The recipe run behind each proxy: test_deploy_nginx.py and test_deploy_caddy.py.
nginx, Caddy, openssl and systemd-analyze come from Debian (``.ci/deploy.sh``); missing,
these tests FAIL rather than skip.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from hg_deploy import (
    DEPLOY,
    PORTS,
    ROOT,
    SRC,
    UNIT_BINARY,
    caddy_env,
    env_file,
    migrate_argv,
    nginx_site,
    pg_url,
    plain,
    serve_argv,
    spread,
    tool,
)

from hollywood_gin.cli import build_parser


def _dockerfile() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    out: list[tuple[str, str]] = []
    pending = ""
    for raw in (DEPLOY / "Dockerfile").read_text().splitlines():
        line = raw.strip()
        if not pending and (not line or line.startswith("#")):
            continue
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        word, _, rest = line.partition(" ")
        out.append((word.upper(), rest.strip()))
    return out


def _compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return data


def _nginx_ports() -> list[int]:
    upstream = re.search(r"upstream hollywood_gin \{(.*?)\}", (DEPLOY / "nginx.conf").read_text(),
                         re.S)
    assert upstream is not None
    return [int(p) for p in re.findall(r"server 127\.0\.0\.1:(\d+)", upstream.group(1))]


def _caddy_ports() -> list[int]:
    proxy = re.search(r"^\treverse_proxy ([^{]*)\{", (DEPLOY / "Caddyfile").read_text(), re.M)
    assert proxy is not None
    return [int(p) for p in re.findall(r"127\.0\.0\.1:(\d+)", proxy.group(1))]


# -- the files agree -------------------------------------------------------------------------


def test_compose_and_the_image_start_the_commands_the_units_start() -> None:
    instructions = _dockerfile()
    entrypoint = json.loads(next(a for i, a in instructions if i == "ENTRYPOINT"))
    cmd = json.loads(next(a for i, a in instructions if i == "CMD"))
    assert entrypoint == ["hollywood-gin"]
    assert [a for i, a in instructions if i == "FROM"][-1].startswith("python:3.11")
    assert any('"hollywood-gin[web,postgres,redis]"' in a for i, a in instructions if i == "RUN")
    assert ["hollywood-gin", *cmd] == serve_argv(PORTS[0])  # `docker run` alone: app1

    services = _compose()["services"]
    assert set(services) == {"db", "redis", "migrate", "proxy", "app1", "app2"}
    assert ["hollywood-gin", *services["migrate"]["command"]] == migrate_argv()
    for name, port in zip(("app1", "app2"), PORTS, strict=True):
        app = services[name]
        assert ["hollywood-gin", *app["command"]] == serve_argv(port)
        assert app["network_mode"] == "service:proxy"  # 127.0.0.1:PORT as on a machine
        assert app["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
        assert f"127.0.0.1:{port}/readyz" in " ".join(app["healthcheck"]["test"])
        assert app["image"] == services["migrate"]["image"]
        assert app["build"]["dockerfile"] == "deploy/Dockerfile"
        # the variables of the units' environment file, besides the backup's own
        wanted = {k for k in env_file() if not k.startswith("HG_")}
        assert set(app["environment"]) == wanted
    assert _nginx_ports() == _caddy_ports() == list(PORTS)
    assert "./nginx.conf:/etc/nginx/conf.d/default.conf:ro" in services["proxy"]["volumes"]
    assert services["migrate"]["depends_on"]["db"]["condition"] == "service_healthy"
    assert services["db"]["image"].startswith("postgres:")


def _dotenv(text: str) -> dict[str, str]:
    """The variables a compose .env sets, with the lines that are commented out as well
    (the example's second choice), later lines winning."""
    out = {}
    for line in text.splitlines():
        key, sep, value = line.lstrip("# ").partition("=")
        if sep and key.isupper():
            out[key] = value
    return out


def test_compose_announces_through_redis_when_its_profile_is_on() -> None:
    """The redis service starts only with its profile, keeps nothing, and the example's
    Redis choice is a --bus the server accepts, naming that service; by default the apps
    keep PostgreSQL's own bus, as the environment file of the units does."""
    services = _compose()["services"]
    redis = services["redis"]
    assert redis["profiles"] == ["redis"] and redis["image"].startswith("redis:")
    assert redis["command"][0] == "redis-server"
    assert redis["command"][1:] == ["--save", "", "--appendonly", "no"]
    for name in ("app1", "app2", "migrate"):
        assert services[name]["environment"]["HOLLYWOOD_GIN_BUS"] == "${HG_BUS:-postgresql}"
        assert "redis" not in services[name].get("depends_on", {})  # refused at start, retried
    example = (DEPLOY / "compose.env.example").read_text()
    assert "\nHG_BUS=postgresql\n" in example
    assert env_file()["HOLLYWOOD_GIN_BUS"] == "postgresql"
    chosen = _dotenv(example)  # with the Redis lines uncommented
    assert chosen["COMPOSE_PROFILES"] == "redis"
    assert chosen["HG_BUS"] == "redis://redis:6379/0"
    parser = build_parser()
    for bus in ("postgresql", chosen["HG_BUS"]):
        assert parser.parse_args(["serve", "--bus", bus]).bus == bus

    # Every command parses with the real command line, and the docs show the same ones.
    parser = build_parser()
    for argv in (migrate_argv(), *(serve_argv(p) for p in PORTS)):
        parser.parse_args(argv[1:])
    docs = (ROOT / "docs" / "deploy.md").read_text()
    assert "systemctl enable --now hollywood-gin@8001 hollywood-gin@8002" in docs
    assert " ".join(serve_argv(8001)) in docs
    assert " ".join(migrate_argv()) in docs


def test_the_systemd_units_verify(tmp_path: Path) -> None:
    binary = Path(sys.executable).with_name("hollywood-gin")
    assert binary.exists(), "the hollywood-gin command is not installed beside this Python"
    names = ["hollywood-gin@.service", "hollywood-gin-migrate.service", "hollywood-gin.target",
             "hollywood-gin-backup.service", "hollywood-gin-backup.timer"]
    for name in names:
        text = (DEPLOY / name).read_text().replace(UNIT_BINARY, str(binary))
        text = text.replace("/opt/hollywood-gin/deploy/", f"{DEPLOY}/")
        text = text.replace("/etc/hollywood-gin/hollywood-gin.env",
                            str(DEPLOY / "hollywood-gin.env"))
        (tmp_path / name).write_text(text)
    shutil.copy(tmp_path / "hollywood-gin@.service", tmp_path / "hollywood-gin@8001.service")
    checked = [str(tmp_path / n) for n in names if n != "hollywood-gin@.service"]
    run = subprocess.run([tool("systemd-analyze"), "verify", "--man=no", "--generators=no",
                          str(tmp_path / "hollywood-gin@8001.service"), *checked],
                         capture_output=True, text=True, env={**os.environ,
                                                              "SYSTEMD_LOG_LEVEL": "warning"})
    assert run.returncode == 0, run.stderr
    ours = [line for line in run.stderr.splitlines() if str(tmp_path) in line]
    assert ours == [], "\n".join(ours)  # an unknown key or a bad value is only a warning


@pytest.mark.parametrize("edit", [None, spread], ids=["routed-by-table", "spread"])
def test_the_nginx_config_is_valid(tmp_path: Path, edit: Any) -> None:
    main = nginx_site(tmp_path, PORTS, 8443, 8080, edit=edit)
    run = subprocess.run([tool("nginx"), "-t", "-q", "-p", str(tmp_path), "-e",
                          str(tmp_path / "error.log"), "-c", str(main)],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr + (tmp_path / "error.log").read_text()


def test_the_caddyfile_is_valid(tmp_path: Path) -> None:
    text = (DEPLOY / "Caddyfile").read_text()
    run = subprocess.run([tool("caddy"), "validate", "--adapter", "caddyfile", "--config",
                          str(DEPLOY / "Caddyfile")], capture_output=True, text=True,
                         env=caddy_env(tmp_path))
    assert run.returncode == 0 and "Valid configuration" in run.stdout + run.stderr, run.stderr
    assert "lb_policy header X-Hg-Table" in text  # routing by table (test_deploy_caddy.py)


# -- backups ------------------------------------------------------------------------------


def _database(name: str) -> str:
    """A database of its own (made by .ci/postgres.sh, as the test database is)."""
    run = subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh")], capture_output=True,
                         text=True, env={**os.environ, "HG_PG_DB": name}, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip().split("=", 1)[1]


def test_a_backup_restores_and_every_match_replays(tmp_path: Path) -> None:
    import psycopg

    from hollywood_gin import Rules
    from hollywood_gin.store import Store

    test_db = plain(pg_url()).rsplit("/", 1)[1]
    source, scratch = _database(f"{test_db}_bk"), _database(f"{test_db}_bk_restore")
    for url in (source, scratch):
        with psycopg.connect(plain(url), autocommit=True) as conn:
            conn.execute("DROP SCHEMA IF EXISTS public CASCADE")
            conn.execute("CREATE SCHEMA public")
    store = Store(source)
    try:
        pm = store.new_match(rules=Rules(), seed=5, players=("a", "b"))
        for _ in range(30):
            if pm.match.hand.is_over:
                break
            pm.act(pm.match.hand.legal_actions()[0])
        actions = pm.action_count
    finally:
        store.close()

    env = {**os.environ, "HOLLYWOOD_GIN_DB": source, "HG_RESTORE_CHECK_DB": scratch,
           "HG_BACKUP_DIR": str(tmp_path / "backups"), "HG_BACKUP_DAYS": "14",
           "HOLLYWOOD_GIN": str(Path(sys.executable).with_name("hollywood-gin")),
           "PYTHONPATH": os.pathsep.join(p for p in (SRC, os.environ.get("PYTHONPATH")) if p)}
    backup = subprocess.run([str(DEPLOY / "backup.sh")], env=env, capture_output=True,
                            text=True, timeout=120)
    assert backup.returncode == 0, backup.stderr
    dump = Path(backup.stdout.strip())
    assert dump.parent == tmp_path / "backups" and dump.stat().st_size > 0

    check = subprocess.run([str(DEPLOY / "restore-check.sh")], env=env, capture_output=True,
                           text=True, timeout=120)
    assert check.returncode == 0, check.stderr + check.stdout
    assert f"1 of 1 saved matches replay ({actions} actions)" in check.stdout
    assert "restores and replays" in check.stdout

    # A damaged dump is caught.
    bad = tmp_path / "backups" / "hollywood-gin-bad.dump"
    bad.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    damaged = subprocess.run([str(DEPLOY / "restore-check.sh"), str(bad)], env=env,
                             capture_output=True, text=True, timeout=120)
    assert damaged.returncode != 0

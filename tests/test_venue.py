"""`make run` on the venue's network, `make dev` on this machine only (issue 23 §1)."""

import subprocess
from pathlib import Path

import pytest

from flipwell.venue import banner, dev_refusal, is_loopback, run_environment, venue_address

ROOT = Path(__file__).parents[1]


@pytest.mark.parametrize(
    ("host", "expected"),
    [
        ("127.0.0.1", True),
        ("127.0.0.2", True),
        ("localhost", True),
        ("::1", True),
        ("[::1]", True),
        ("0.0.0.0", False),
        ("192.168.1.20", False),
        ("league.example.org", False),
    ],
)
def test_is_loopback_only_for_this_machine_s_own_addresses(host, expected):
    assert is_loopback(host) is expected


def test_run_environment_on_the_venue_network_names_the_lan_address():
    """issue 23 §1: ALLOWED_HOSTS from the LAN address make run prints, plus localhost."""
    environment = run_environment("0.0.0.0", 8000, "192.168.1.20")

    assert environment == {
        "DEBUG": "0",
        "ALLOWED_HOSTS": "localhost,127.0.0.1,[::1],192.168.1.20",
        "FLIPWELL_SITE_URL": "http://192.168.1.20:8000",
    }


def test_run_environment_on_this_machine_allows_only_localhost():
    assert run_environment("127.0.0.1", 8123, "192.168.1.20") == {
        "DEBUG": "0",
        "ALLOWED_HOSTS": "localhost,127.0.0.1,[::1]",
        "FLIPWELL_SITE_URL": "http://127.0.0.1:8123",
    }


def test_run_environment_without_a_network_serves_localhost():
    assert run_environment("0.0.0.0", 8000, None)["FLIPWELL_SITE_URL"] == "http://127.0.0.1:8000"
    assert venue_address("0.0.0.0", 8000, None) is None


def test_venue_address_of_one_interface_is_that_interface():
    assert venue_address("10.0.0.5", 8000, "192.168.1.20") == "http://10.0.0.5:8000"


def test_banner_tells_the_official_which_address_to_open_before_printing():
    assert banner("0.0.0.0", 8000, "192.168.1.20").splitlines() == [
        "Serving the venue's network on 0.0.0.0:8000 (Ctrl+C stops the server).",
        "Phones and QR codes use http://192.168.1.20:8000/ : open flipwell at this address",
        "(not 127.0.0.1) before printing the score sheets.",
    ]


def test_dev_refuses_a_host_beyond_this_machine_and_says_why():
    """issue 23 §1: DEBUG on shows tracebacks, settings and the URL list to the network."""
    assert dev_refusal("127.0.0.1") == ""
    assert dev_refusal("0.0.0.0").startswith(
        "make dev refuses HOST=0.0.0.0: it runs with DEBUG on, where a failing page shows its "
        "traceback and the settings"
    )


def test_make_dev_with_a_network_host_stops_before_serving():
    done = subprocess.run(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "dev", "HOST=0.0.0.0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    assert done.returncode != 0
    assert "make dev refuses HOST=0.0.0.0" in done.stderr
    assert "make run HOST=0.0.0.0 (gunicorn, DEBUG off)" in done.stderr

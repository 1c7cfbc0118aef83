"""Settings from the environment: the typed helpers, DATABASE_URL, and refusing to start."""

import ipaddress
import json
import os
import stat
import subprocess
import sys

import pytest
from django.core.exceptions import ImproperlyConfigured

from flipwell.env import (
    debug_hosts,
    env_addresses,
    env_bool,
    env_list,
    env_time_zone,
    parse_database_url,
    photo_storage,
    secret_key,
    site_url,
)
from flipwell.lan import lan_address

# --- DATABASE_URL ---

NO_PERSISTENT_CONNECTIONS = {
    "CONN_MAX_AGE": 0,
    "CONN_HEALTH_CHECKS": False,
    "DISABLE_SERVER_SIDE_CURSORS": False,
}


def test_parse_database_url_sqlite_three_slashes_is_relative():
    database = parse_database_url("sqlite:///var/db.sqlite3")

    assert database["ENGINE"] == "django.db.backends.sqlite3"
    assert database["NAME"] == "var/db.sqlite3"


def test_parse_database_url_sqlite_waits_for_the_write_lock():
    """Concurrent writers queue (IMMEDIATE, a 20 s busy timeout) instead of failing."""
    assert parse_database_url("sqlite:///var/db.sqlite3")["OPTIONS"] == {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
    }


def test_parse_database_url_sqlite_four_slashes_is_absolute():
    assert parse_database_url("sqlite:////srv/flipwell/db.sqlite3")["NAME"] == (
        "/srv/flipwell/db.sqlite3"
    )


def test_parse_database_url_postgres_full():
    assert parse_database_url("postgres://fw:s%40cret@db.example.org:6543/flipwell") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "flipwell",
        "USER": "fw",
        "PASSWORD": "s@cret",
        "HOST": "db.example.org",
        "PORT": "6543",
        **NO_PERSISTENT_CONNECTIONS,
    }


def test_parse_database_url_postgresql_scheme_without_password_or_port():
    assert parse_database_url("postgresql://postgres@127.0.0.1/flipwell_test") == {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": "flipwell_test",
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": "127.0.0.1",
        "PORT": "",
        **NO_PERSISTENT_CONNECTIONS,
    }


def test_parse_database_url_postgres_query_becomes_options():
    database = parse_database_url("postgres://u@h:5432/n?sslmode=require&connect_timeout=5")

    assert database["OPTIONS"] == {"sslmode": "require", "connect_timeout": 5}


@pytest.mark.parametrize("url", ["sqlite:///db.sqlite3", "postgres://u@h/n"])
def test_parse_database_url_keeps_connections_checked_before_reuse(url):
    database = parse_database_url(url, conn_max_age=60, conn_health_checks=True)

    assert (database["CONN_MAX_AGE"], database["CONN_HEALTH_CHECKS"]) == (60, True)


def test_parse_database_url_postgres_without_host_uses_socket():
    database = parse_database_url("postgres:///flipwell")

    assert (database["HOST"], database["NAME"]) == ("", "flipwell")


@pytest.mark.parametrize(
    "url", ["mysql://root@localhost/flipwell", "oracle://x/y", "flipwell.sqlite3"]
)
def test_parse_database_url_unsupported_scheme_refused(url):
    with pytest.raises(ImproperlyConfigured, match="is not supported; use sqlite:///"):
        parse_database_url(url)


@pytest.mark.parametrize("url", ["sqlite://", "sqlite:///", "sqlite://host/db.sqlite3"])
def test_parse_database_url_malformed_sqlite_refused(url):
    with pytest.raises(ImproperlyConfigured, match="three or four slashes, no host"):
        parse_database_url(url)


def test_parse_database_url_postgres_without_name_refused():
    with pytest.raises(ImproperlyConfigured, match="names no database"):
        parse_database_url("postgres://u@h:5432/")


def test_parse_database_url_postgres_bad_port_refused_without_showing_password():
    with pytest.raises(ImproperlyConfigured, match="bad port") as caught:
        parse_database_url("postgres://u:hunter2@h:99999/n")

    assert "hunter2" not in str(caught.value)


def test_parse_database_url_repeated_option_refused():
    with pytest.raises(ImproperlyConfigured, match="repeats the option 'sslmode'"):
        parse_database_url("postgres://u@h/n?sslmode=require&sslmode=disable")


# --- Typed helpers ---


@pytest.mark.parametrize(
    ("raw", "expected"), [("1", True), ("Yes", True), ("off", False), ("0", False)]
)
def test_env_bool_words(raw, expected):
    assert env_bool("DEBUG", not expected, environ={"DEBUG": raw}) is expected


def test_env_bool_unset_is_default():
    assert env_bool("DEBUG", True, environ={}) is True


def test_env_bool_unknown_word_refused():
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a yes/no value"):
        env_bool("DEBUG", False, environ={"DEBUG": "maybe"})


def test_env_list_splits_and_strips():
    assert env_list("H", [], environ={"H": " a.org, b.org ,,"}) == ["a.org", "b.org"]


def test_env_addresses_become_name_address_pairs():
    environ = {"ADMINS": "Ann Lee <ann@example.org>, bob@example.org"}

    assert env_addresses("ADMINS", environ=environ) == [
        ("Ann Lee", "ann@example.org"),
        ("bob@example.org", "bob@example.org"),
    ]


def test_env_addresses_without_at_sign_refused():
    with pytest.raises(ImproperlyConfigured, match="ADMINS='ann' is not a list of e-mail"):
        env_addresses("ADMINS", environ={"ADMINS": "ann"})


def test_env_time_zone_unknown_refused():
    with pytest.raises(ImproperlyConfigured, match="not a known time zone"):
        env_time_zone("TIME_ZONE", "UTC", environ={"TIME_ZONE": "Mars/Olympus"})


GOOD_KEY = "7Jq-vX2pLw9sTn4RbZ0yHc8mKf3dGa6e"


def test_secret_key_from_environment(tmp_path):
    assert secret_key(data_dir=tmp_path, environ={"SECRET_KEY": GOOD_KEY}) == GOOD_KEY
    assert list(tmp_path.iterdir()) == []


def test_secret_key_unset_is_generated_and_kept_in_data_dir_mode_0600(tmp_path):
    data_dir = tmp_path / "data"

    first = secret_key(data_dir=data_dir, environ={})
    second = secret_key(data_dir=data_dir, environ={})

    key_file = data_dir / "secret_key"
    assert (first, len(first) >= 50) == (second, True)
    assert key_file.read_text().strip() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_secret_key_generated_differs_per_data_dir(tmp_path):
    assert secret_key(data_dir=tmp_path / "a", environ={}) != secret_key(
        data_dir=tmp_path / "b", environ={}
    )


@pytest.mark.parametrize("value", ["", "  "])
def test_secret_key_empty_given_explicitly_refused(tmp_path, value):
    with pytest.raises(ImproperlyConfigured, match="SECRET_KEY is set but empty"):
        secret_key(data_dir=tmp_path, environ={"SECRET_KEY": value})


@pytest.mark.parametrize(
    ("value", "problem"),
    [
        ("secret", "it has 6 characters, fewer than 20"),
        ("k" * 50, "it uses fewer than 5 different characters"),
        ("abababababcdcdcdcdcd", "it uses fewer than 5 different characters"),
        (
            "flipwell-INSECURE-development-key-never-use-in-production",
            "it is a published placeholder",
        ),
    ],
)
def test_secret_key_weak_given_explicitly_refused(tmp_path, value, problem):
    with pytest.raises(ImproperlyConfigured, match=f"SECRET_KEY is too weak: {problem}"):
        secret_key(data_dir=tmp_path, environ={"SECRET_KEY": value})


def test_secret_key_weak_file_refused_naming_it(tmp_path):
    (tmp_path / "secret_key").write_text("short\n")

    with pytest.raises(ImproperlyConfigured, match="secret_key is too weak"):
        secret_key(data_dir=tmp_path, environ={})


# --- The settings module as a process sees it ---


def _load_settings(tmp_path, **env):
    clean = {
        k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL"}
    }
    clean.update(env)
    code = "import flipwell.settings as s; print(s.DATABASES['default']['NAME'])"
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=clean, cwd=tmp_path
    )


def test_settings_without_secret_key_start_with_a_generated_key(tmp_path):
    """A fresh machine needs no set-up: the key is generated in the data directory."""
    result = _load_settings(tmp_path, FLIPWELL_DATA_DIR=str(tmp_path / "data"))

    assert (result.returncode, result.stderr) == (0, "")
    assert (tmp_path / "data" / "secret_key").is_file()


def test_settings_with_weak_secret_key_refuse_to_start(tmp_path):
    result = _load_settings(tmp_path, SECRET_KEY="hunter2")

    assert result.returncode != 0
    assert "SECRET_KEY is too weak" in result.stderr


def test_settings_default_database_is_sqlite_in_created_data_dir(tmp_path):
    data_dir = tmp_path / "data"

    result = _load_settings(tmp_path, DEBUG="1", FLIPWELL_DATA_DIR=str(data_dir))

    assert result.stdout.strip() == str(data_dir / "flipwell.sqlite3")
    assert data_dir.is_dir()


def test_settings_default_data_dir_is_var_in_working_directory(tmp_path):
    result = _load_settings(tmp_path, SECRET_KEY=GOOD_KEY)

    assert result.stdout.strip() == str(tmp_path / "var" / "flipwell.sqlite3")


_SQLITE_STATE = (
    "import django; django.setup(); from django.db import connection; "
    "cursor = connection.cursor(); "
    "print(*(cursor.execute(f'PRAGMA {p}').fetchone()[0] "
    "for p in ('journal_mode', 'synchronous', 'busy_timeout')), connection.transaction_mode)"
)


@pytest.mark.parametrize("url", ["", "sqlite:///league.sqlite3"])
def test_settings_sqlite_database_opens_in_wal_mode_with_immediate_transactions(tmp_path, url):
    """Both the default database and a sqlite: DATABASE_URL: WAL, synchronous=NORMAL (1), a
    busy timeout of 20 000 ms and transactions that take the write lock when they begin."""
    env = {**os.environ, "SECRET_KEY": GOOD_KEY, "DJANGO_SETTINGS_MODULE": "flipwell.settings"}
    env.pop("DATABASE_URL", None)
    if url:
        env["DATABASE_URL"] = url
    result = subprocess.run(
        [sys.executable, "-c", _SQLITE_STATE],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        check=False,
    )

    assert (result.stdout.split(), result.stderr) == (["wal", "1", "20000", "IMMEDIATE"], "")


def test_settings_database_url_selects_postgres(tmp_path):
    result = _load_settings(tmp_path, DEBUG="1", DATABASE_URL="postgres://u@h:5432/league")

    assert result.stdout.strip() == "league"


def test_settings_bad_debug_value_refuses_to_start(tmp_path):
    result = _load_settings(tmp_path, DEBUG="sure")

    assert "DEBUG='sure' is not a yes/no value" in result.stderr


def test_debug_hosts_accept_the_lan_address_for_phones_at_the_venue():
    assert debug_hosts("192.168.1.20") == ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    assert debug_hosts(None) == ["localhost", "127.0.0.1", "[::1]"]


def test_lan_address_is_an_address_other_devices_reach_or_none():
    address = lan_address()

    assert address is None or not ipaddress.ip_address(address).is_loopback


def test_run_mode_allowed_hosts_include_the_lan_address(tmp_path):
    env = {**os.environ, "DEBUG": "1", "FLIPWELL_DATA_DIR": str(tmp_path)}
    env.pop("ALLOWED_HOSTS", None)
    code = "import json; from flipwell import settings; print(json.dumps(settings.ALLOWED_HOSTS))"

    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout

    assert json.loads(out) == debug_hosts(lan_address())


def test_settings_with_sentry_dsn_start_reporting_to_sentry(tmp_path):
    """No report is sent here: starting the client only reads the DSN."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "DEBUG"}}
    env.update(SECRET_KEY=GOOD_KEY, SENTRY_DSN="https://public@sentry.example.org/1")
    code = (
        "import flipwell.settings, sentry_sdk; c = sentry_sdk.get_client(); "
        "print(c.is_active(), c.dsn, c.options['send_default_pii'])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tmp_path
    )

    assert (result.stdout.split(), result.stderr) == (
        ["True", "https://public@sentry.example.org/1", "False"],
        "",
    )


def test_settings_without_sentry_dsn_do_not_import_sentry(tmp_path):
    code = "import sys, flipwell.settings; print('sentry_sdk' in sys.modules)"
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "SENTRY_DSN"}}
    imported = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**env, "SECRET_KEY": GOOD_KEY},
        cwd=tmp_path,
    )

    assert (imported.stdout.strip(), imported.stderr) == ("False", "")


def _cache_round_trip(tmp_path, value, **env):
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    clean.update(SECRET_KEY=GOOD_KEY, DJANGO_SETTINGS_MODULE="flipwell.settings", **env)
    code = (
        "import sys, django; django.setup(); from django.core.cache import caches; "
        "cache = caches['default']; "
        "old = cache.get('flipwell-test-key'); cache.set('flipwell-test-key', sys.argv[1], 30); "
        "print(type(cache).__name__, old)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, value], capture_output=True, text=True, env=clean, cwd=tmp_path
    )
    return result.stdout.split(), result.stderr


def test_settings_default_cache_is_each_process_own_memory(tmp_path):
    assert _cache_round_trip(tmp_path, "one") == (["LocMemCache", "None"], "")
    assert _cache_round_trip(tmp_path, "two") == (["LocMemCache", "None"], "")


def test_settings_redis_url_makes_one_cache_every_process_shares(tmp_path):
    """Two processes, as two workers or two app servers: the second reads the first's value."""
    url = "redis://127.0.0.1:6379/15"
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).delete(":1:flipwell-test-key")
    except redis.ConnectionError:
        pytest.skip(f"no Redis server at {url}")

    first = _cache_round_trip(tmp_path, "one", REDIS_URL=url)
    second = _cache_round_trip(tmp_path, "two", REDIS_URL=url)

    assert (first, second) == ((["RedisCache", "None"], ""), (["RedisCache", "one"], ""))


# --- the site address and the ports a Host may name (issue 26 §5) ---


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", ""),
        ("https://league.example.org/", "https://league.example.org"),
        ("http://192.168.1.20:8000", "http://192.168.1.20:8000"),
    ],
)
def test_site_url_is_scheme_host_and_port(value, expected):
    assert site_url(value) == expected


@pytest.mark.parametrize(
    "value",
    ["league.example.org", "ftp://league.example.org", "https://x.org/league", "http://x:y"],
)
def test_site_url_other_than_an_address_is_refused(value):
    with pytest.raises(ImproperlyConfigured, match="is not a site address"):
        site_url(value)


def _allowed_ports(tmp_path, **env):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "FLIPWELL_SITE_URL", "ALLOWED_PORTS"}
    }
    clean.update({"FLIPWELL_DATA_DIR": str(tmp_path), "FLIPWELL_LISTEN_PORTS": "", **env})
    code = "import json, flipwell.settings as s; print(json.dumps(s.ALLOWED_PORTS))"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=clean, check=True
    )
    return json.loads(done.stdout)


def test_allowed_ports_default_to_the_site_address_s_and_gunicorn_s(tmp_path):
    """issue 26 §5: `Host: 127.0.0.1:31337` passed, whatever the port."""
    assert _allowed_ports(tmp_path) == []
    assert _allowed_ports(tmp_path, FLIPWELL_SITE_URL="http://192.168.1.20:8000") == ["8000"]
    assert _allowed_ports(tmp_path, FLIPWELL_LISTEN_PORTS="8731") == ["8731"]
    assert _allowed_ports(tmp_path, DEBUG="1") == ["*"]
    assert _allowed_ports(tmp_path, ALLOWED_PORTS="8000,8443") == ["8000", "8443"]


def test_cross_origin_opener_policy_only_over_https(tmp_path):
    """issue 23 §1: over plain HTTP at the venue's LAN address chromium ignores the header and
    logs an error on every page of every phone (tests/browser/test_make_run.py saw it)."""
    code = "import flipwell.settings as s; print(s.SECURE_CROSS_ORIGIN_OPENER_POLICY)"
    env = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DATABASE_URL"}}

    def policy(https: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={**env, "FLIPWELL_HTTPS": https, "FLIPWELL_DATA_DIR": str(tmp_path)},
            check=True,
        )
        return done.stdout.strip()

    assert (policy("no"), policy("yes")) == ("None", "same-origin")


# --- Score photos' storage ---


def test_photo_storage_is_the_folder_without_a_bucket(tmp_path):
    storage = photo_storage(tmp_path, environ={})

    assert storage == {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(tmp_path), "base_url": None},
    }


def test_photo_storage_is_a_private_s3_bucket_when_one_is_named(tmp_path):
    environ = {"FLIPWELL_S3_BUCKET": "photos", "FLIPWELL_S3_ENDPOINT_URL": "http://s3.test:9000"}

    storage = photo_storage(tmp_path, environ=environ)

    assert storage["BACKEND"] == "storages.backends.s3.S3Storage"
    assert storage["OPTIONS"] == {
        "bucket_name": "photos",
        "default_acl": "private",
        "file_overwrite": False,
        "querystring_auth": True,
        "endpoint_url": "http://s3.test:9000",
    }


def test_photo_storage_files_chosen_despite_a_bucket(tmp_path):
    environ = {"FLIPWELL_S3_BUCKET": "photos", "FLIPWELL_PHOTO_STORAGE": "files"}

    assert photo_storage(tmp_path, environ=environ)["OPTIONS"]["location"] == str(tmp_path)


def test_photo_storage_s3_without_a_bucket_refused(tmp_path):
    with pytest.raises(ImproperlyConfigured, match="needs FLIPWELL_S3_BUCKET"):
        photo_storage(tmp_path, environ={"FLIPWELL_PHOTO_STORAGE": "s3"})

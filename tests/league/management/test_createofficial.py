"""`flipwell createofficial`: a fresh installation's first official, who may open leagues."""

import pytest
from django.contrib.auth.models import User

from flipwell.cli import main
from flipwell.league import services
from flipwell.league.exchange.demo import create_demo_league
from flipwell.league.selectors.setup import league_openers, may_create_league
from tests import factories as f

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase 42"


def test_createofficial_reads_the_password_from_the_environment(monkeypatch, capsys, settings):
    settings.SITE_URL = ""
    monkeypatch.delenv("PORT", raising=False)
    monkeypatch.setenv("FIRST_PASSWORD", PASSWORD)

    status = main(["createofficial", "ada", "--password-from-env", "FIRST_PASSWORD"])

    user = User.objects.get(username="ada")
    assert status == 0
    assert user.check_password(PASSWORD)
    assert may_create_league(user) is True
    assert capsys.readouterr().out.splitlines() == [
        "Created the league official “ada”: this account may open leagues.",
        "Next: sign in at http://127.0.0.1:8000/manage/ and press “Open a new league”.",
    ]


def test_createofficial_asks_for_the_password_twice(monkeypatch):
    answers = iter([PASSWORD, PASSWORD])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))

    assert main(["createofficial", "ada"]) == 0

    assert User.objects.get(username="ada").check_password(PASSWORD)


def test_createofficial_refuses_two_different_passwords(monkeypatch, capsys):
    answers = iter([PASSWORD, PASSWORD + "!"])
    monkeypatch.setattr("getpass.getpass", lambda prompt: next(answers))

    assert main(["createofficial", "ada"]) == 1

    assert capsys.readouterr().err == (
        "flipwell createofficial: the two passwords differ; nothing was created\n"
    )
    assert not User.objects.filter(username="ada").exists()


def test_createofficial_refuses_an_unset_variable(monkeypatch, capsys):
    monkeypatch.delenv("FIRST_PASSWORD", raising=False)

    assert main(["createofficial", "ada", "--password-from-env", "FIRST_PASSWORD"]) == 1

    assert capsys.readouterr().err == (
        "flipwell createofficial: --password-from-env FIRST_PASSWORD: the environment "
        "variable FIRST_PASSWORD is not set or empty\n"
    )


def test_createofficial_refuses_a_taken_name_and_a_weak_password(monkeypatch, capsys):
    f.UserFactory(username="ada")
    monkeypatch.setenv("WEAK", "password")

    taken = main(["createofficial", "ada", "--password-from-env", "WEAK"])
    taken_err = capsys.readouterr().err
    weak = main(["createofficial", "bob", "--password-from-env", "WEAK"])
    weak_err = capsys.readouterr().err

    assert (taken, weak) == (1, 1)
    assert taken_err.startswith("flipwell createofficial: username: ")
    assert "already exists" in taken_err
    assert weak_err.startswith("flipwell createofficial: password: ")
    assert not User.objects.filter(username="bob").exists()


def test_league_openers_leaves_out_the_named_account():
    create_demo_league()

    before = league_openers(besides="demo")
    services.create_league_opener(username="ada", password=PASSWORD)
    after = league_openers(besides="demo")

    assert (before, after) == (False, True)


def test_demo_official_may_open_a_league_of_his_own():
    demo = create_demo_league()

    assert may_create_league(demo.official) is True


def test_createofficial_names_the_site_address_it_was_given(monkeypatch, capsys, settings):
    """``make run`` passes the venue address (FLIPWELL_SITE_URL): the official signs in
    there, not at a port 8000 the server may not listen on."""
    settings.SITE_URL = "http://192.168.1.20:9000"
    monkeypatch.setenv("FIRST_PASSWORD", PASSWORD)

    main(["createofficial", "ada", "--password-from-env", "FIRST_PASSWORD"])

    assert capsys.readouterr().out.splitlines()[1] == (
        "Next: sign in at http://192.168.1.20:9000/manage/ and press “Open a new league”."
    )


def test_createofficial_names_the_port_flipwell_serve_listens_on(monkeypatch, capsys, settings):
    settings.SITE_URL = ""
    monkeypatch.setenv("PORT", "8080")
    monkeypatch.setenv("FIRST_PASSWORD", PASSWORD)

    main(["createofficial", "ada", "--password-from-env", "FIRST_PASSWORD"])

    assert capsys.readouterr().out.splitlines()[1] == (
        "Next: sign in at http://127.0.0.1:8080/manage/ and press “Open a new league”."
    )

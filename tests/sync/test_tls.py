"""Sync verifies TLS, against a real Radicale server over HTTPS whose certificate a private authority signed.

No system store trusts that authority, so only `sync.ca_file` can make the server trusted: a sync that works
without it, or with another authority's certificate, would mean verification is off.
"""

import dataclasses
from functools import partial
from pathlib import Path

import pytest

from app.config import SyncSettings
from app.domain.clock import Clock
from app.offline import OfflineInterpreter
from app.secrets import SYNC_PASSWORD
from app.service import MurmurService
from app.store import Store
from app.sync.account import task_list_of
from app.sync.remote import SyncError
from tests.sync.conftest import settings_for
from tests.sync.phone import Phone
from tests.sync.radicale_server import RadicaleServer, make_certificates
from tests.sync.test_sync import by_summary, create

NOT_TRUSTED = "has a certificate this machine does not trust"


def service_for(store: Store, clock: Clock, settings: SyncSettings) -> MurmurService:
    return MurmurService(
        store=store,
        interpreter=OfflineInterpreter(),
        clock=lambda: clock,
        sync_source=partial(task_list_of, settings),
    )


def failed_sync(service: MurmurService) -> str:
    """The one line a failed sync gives, checked to be the one it records for the status too."""
    with pytest.raises(SyncError) as raised:
        service.sync()
    message = str(raised.value)
    assert "\n" not in message and message.strip() == message
    assert service.sync_status().last_error == message
    return message


@pytest.fixture(autouse=True)
def password(radicale_tls: RadicaleServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(SYNC_PASSWORD.env, radicale_tls.password)


def test_a_server_signed_by_an_unknown_authority_is_refused_and_says_to_set_ca_file(
    store: Store, clock: Clock, radicale_tls: RadicaleServer
) -> None:
    assert radicale_tls.url.startswith("https://")
    service = service_for(store, clock, settings_for(radicale_tls))  # no ca_file: the system's authorities
    create(service, "Stay here until trusted")
    message = failed_sync(service)
    # Not "cannot reach the sync server": the user must learn it is the certificate, and what to set.
    assert message.startswith(f"the sync server at 127.0.0.1:{radicale_tls.port} {NOT_TRUSTED} (")
    assert message.endswith("set sync.ca_file to that authority's certificate")
    assert service.sync_status().queued == 1  # nothing was sent, nothing is lost


def test_with_its_authority_as_ca_file_sync_works_both_ways(
    store: Store, clock: Clock, radicale_tls: RadicaleServer
) -> None:
    settings = dataclasses.replace(settings_for(radicale_tls), ca_file=str(radicale_tls.ca_file))
    service = service_for(store, clock, settings)
    create(service, "Renew the certificate")
    report = service.sync()
    assert report.pushed == ["created: Renew the certificate"] and service.sync_status().last_error is None
    with Phone(radicale_tls.url, radicale_tls.username, radicale_tls.password, ca_file=radicale_tls.ca_file) as phone:
        assert [str(todo["SUMMARY"]) for todo in phone.todos().values()] == ["Renew the certificate"]
        phone.add("Tell the team")
    assert service.sync().pulled == ["created: Tell the team"]
    assert set(by_summary(service)) == {"Renew the certificate", "Tell the team"}


def test_another_authority_as_ca_file_is_not_trusted(
    store: Store, clock: Clock, radicale_tls: RadicaleServer, tmp_path: Path
) -> None:
    # A CA file that exists and parses, but did not sign this server's certificate: verification still fails.
    other = tmp_path / "other"
    other.mkdir()
    other_ca, _, _ = make_certificates(other)
    service = service_for(store, clock, dataclasses.replace(settings_for(radicale_tls), ca_file=str(other_ca)))
    message = failed_sync(service)
    assert message.startswith(f"the sync server at 127.0.0.1:{radicale_tls.port} {NOT_TRUSTED} (")


def test_a_ca_file_that_does_not_exist_is_named(
    store: Store, clock: Clock, radicale_tls: RadicaleServer, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-ca.pem"
    service = service_for(store, clock, dataclasses.replace(settings_for(radicale_tls), ca_file=str(missing)))
    assert failed_sync(service) == f"the certificate authority file {missing} does not exist (sync.ca_file)"


@pytest.mark.parametrize("credentials", ["alice@", "alice:s3cret-pass@"])
def test_a_user_name_in_the_address_is_refused(
    store: Store, clock: Clock, radicale_tls: RadicaleServer, credentials: str
) -> None:
    url = f"https://{credentials}127.0.0.1:{radicale_tls.port}/"
    settings = SyncSettings(
        url=url, username=radicale_tls.username, calendar="Murmur", ca_file=str(radicale_tls.ca_file)
    )
    message = failed_sync(service_for(store, clock, settings))
    assert message == "put the user name in sync.username, not in the server's address"
    assert radicale_tls.password not in message  # the address's password is never echoed back

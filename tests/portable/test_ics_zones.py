"""The .ics export as strict calendar apps read it: in a zone that is UTC by any name, UTC times ("...Z") with no
TZID and no VTIMEZONE; elsewhere every TZID has a VTIMEZONE of the same name. Checked on the service in many
zones, and on the real `murmur` process in the zone its machine says (TZ, no MURMUR_TZ). The words said stay out
of the file unless asked for (`--with-said`), and are read back when there."""

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import pytest

from app.domain.clock import Clock
from app.domain.enums import Format, Status
from app.offline import OfflineInterpreter
from app.service import MurmurService
from app.store import Store
from tests.support.clock import FIXED_NOW
from tests.support.murmur_cli import Murmur

SAID = ("remind me to call the dentist Thursday at 3pm", "water the plants every Monday at 8am", "buy oat milk")
UTC_NAMES = ["UTC", "Etc/UTC", "GMT", "Universal", "Etc/Zulu"]
ZONES = ["Europe/Berlin", "America/Argentina/Buenos_Aires", "Asia/Kolkata", "Etc/GMT+5"]


def service_in(path: Path, zone: str) -> MurmurService:
    tz = ZoneInfo(zone)
    return MurmurService(
        store=Store.open(path), interpreter=OfflineInterpreter(), clock=lambda: Clock(FIXED_NOW.astimezone(tz), tz)
    )


@pytest.fixture
def zoned(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[MurmurService]:
    service = service_in(tmp_path / "murmur.db", request.param)
    for words in SAID:
        service.submit(words)
    yield service
    service.close()


def tzids(calendar: icalendar.Calendar) -> set[str]:
    """The TZID of every property in the calendar that has one."""
    return {
        str(value.params["TZID"])
        for part in calendar.walk()
        for _, value in part.property_items(recursive=False)
        if "TZID" in getattr(value, "params", {})
    }


def assert_utc_times(text: str) -> None:
    calendar = icalendar.Calendar.from_ical(text)
    assert "TZID" not in text and not calendar.walk("VTIMEZONE"), text
    todos = calendar.walk("VTODO")
    assert len(todos) == len(SAID) and sum("DUE" in todo for todo in todos) == 2
    for todo in todos:
        for name in ("DUE", "DTSTART"):
            if name in todo:
                assert todo[name].to_ical().endswith(b"Z") and todo.decoded(name).utcoffset() == timedelta(0)
    dentist = next(todo for todo in todos if todo["SUMMARY"] == "Call the dentist")
    assert dentist.decoded("DUE").hour == 15  # 3pm where the machine is: UTC


def assert_zone_named_alike(text: str, zone: str) -> None:
    calendar = icalendar.Calendar.from_ical(text)
    assert [str(timezone["TZID"]) for timezone in calendar.walk("VTIMEZONE")] == [zone]  # one, named as the machine
    assert tzids(calendar) == {zone}  # names its zone, and every time refers to it
    dentist = next(todo for todo in calendar.walk("VTODO") if todo["SUMMARY"] == "Call the dentist")
    assert dentist.decoded("DUE").astimezone(ZoneInfo(zone)).hour == 15


@pytest.mark.parametrize("zoned", UTC_NAMES, indirect=True)
def test_in_utc_by_any_name_times_are_utc_without_a_zone(zoned: MurmurService) -> None:
    assert_utc_times(zoned.export(Format.ICS))


@pytest.mark.parametrize("zoned", ZONES, indirect=True)
def test_elsewhere_every_tzid_has_its_vtimezone(zoned: MurmurService) -> None:
    assert_zone_named_alike(zoned.export(Format.ICS), zoned.clock().tz.key)


@pytest.mark.slow
@pytest.mark.parametrize("zone", ["UTC", "Etc/UTC", "Europe/Berlin"])
def test_the_murmur_process_writes_its_machine_s_zone_so(tmp_path: Path, zone: str) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path, TZ=zone)
    murmur.env["MURMUR_TZ"] = zone  # said in the zone the export will find (in this process, so quickly)
    for words in SAID:
        assert murmur.run("add", "--offline", words).returncode == 0
    del murmur.env["MURMUR_TZ"]  # the export: the machine's zone, as a process started in it reads it
    done = murmur.run_process("export", "--format", "ics")
    assert done.returncode == 0, done.stderr
    if zone == "Europe/Berlin":
        assert_zone_named_alike(done.stdout, zone)
    else:
        assert_utc_times(done.stdout)


@pytest.mark.parametrize("zoned", ["UTC", "Europe/Berlin"], indirect=True)
def test_the_words_said_stay_out_unless_asked_for_and_are_read_back(zoned: MurmurService, tmp_path: Path) -> None:
    plain = zoned.export(Format.ICS)
    assert "X-MURMUR-SAID" not in plain and "remind me" not in plain.lower()
    with_said = zoned.export(Format.ICS, with_said=True)
    assert "X-MURMUR-SAID:remind me to call the dentist Thursday at 3pm" in with_said

    (tmp_path / "said.ics").write_text(with_said, encoding="utf-8")
    other = service_in(tmp_path / "other.db", zoned.clock().tz.key)
    try:
        assert other.import_file(tmp_path / "said.ics").problems == []
        said = {entry.summary: entry.source_text for entry in other.entries(list(Status))}
    finally:
        other.close()
    assert said["Call the dentist"] == "remind me to call the dentist Thursday at 3pm"


def test_murmur_export_with_said(tmp_path: Path) -> None:
    murmur = Murmur(tmp_path / "murmur.db", tmp_path)
    assert murmur.run("add", "--offline", SAID[0]).returncode == 0
    assert "X-MURMUR-SAID" not in murmur.run("export", "--format", "ics").stdout
    assert "X-MURMUR-SAID:remind me" in murmur.run("export", "--format", "ics", "--with-said").stdout
    done = murmur.run("export", "--format", "csv", "--with-said")
    assert done.returncode != 0 and "--with-said is for --format ics" in done.stderr

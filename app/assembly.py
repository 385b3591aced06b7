"""Putting the pipeline together: store + interpreter (LLM agent or offline rules) + settings.

Both front ends (the CLI and the desktop app) build their MurmurService here, so they always
agree on which interpreter runs.
"""

import logging
from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import time, timedelta
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from app.agent.provider import NO_FLAGS, ProviderFlags, resolve_provider
from app.changes.interpretation import Agent, Interpreter
from app.config import LlmSettings, LocaleSettings, Settings, SyncSettings, load_settings
from app.domain.clock import Clock
from app.domain.local_calendar import LocalCalendar, country_from_locale
from app.errors import MurmurError, UsageError, Words
from app.paths import default_db_path
from app.recordings.retention import Retention
from app.service import MurmurService
from app.speech_in.language import date_languages
from app.speech_in.rehearing import InstalledEars
from app.store import Store
from app.store.backups import remove_abandoned_copies

if TYPE_CHECKING:
    from app.agent.connection import ConnectionReport
    from app.sync.remote import KnownList, SyncSource, TaskList

log = logging.getLogger("murmur.assembly")


def build_interpreter(
    settings: Settings, offline: bool = False, flags: ProviderFlags = NO_FLAGS
) -> Interpreter | Agent:
    """The LLM agent when a provider is configured; the offline rules when `offline` or none is; a model that
    fails every utterance with the reason when what is configured cannot be used (the fallback then says so)."""
    if not offline and (why := settings.closed_because("llm")):  # no default server gets the words meant for another
        from app.agent.unusable import UnusableModel

        return UnusableModel(f"the language model is off: {why}")
    try:
        provider = None if offline else resolve_provider(settings.llm, flags)
    except UsageError as error:
        from app.agent.unusable import UnusableModel

        return UnusableModel(str(error))
    if provider is None:
        from app.offline import OfflineInterpreter

        return OfflineInterpreter()
    from app.agent.loop import LlmAgent

    return LlmAgent(provider, settings.privacy, profile_tokens=settings.memory.profile_tokens)


def local_calendar(settings: LocaleSettings) -> LocalCalendar:
    """The user's calendar from the [locale] settings: the country said, else the system locale's."""
    return LocalCalendar(
        country=settings.country.upper() or country_from_locale(),
        morning=time.fromisoformat(settings.morning),
        afternoon=time.fromisoformat(settings.afternoon),
        evening=time.fromisoformat(settings.evening),
        night=time.fromisoformat(settings.night),
    )


@dataclass(frozen=True)
class Pipeline:
    """What reads what is said, as the settings make it: the interpreter, the rules that check a model's work (and
    file what it failed, with llm.fallback = offline), the clock in the user's date languages and calendar."""

    interpreter: Interpreter | Agent
    rules: Interpreter | None
    fallback: Interpreter | None
    clock: Callable[[], Clock]
    session_gap: timedelta


def pipeline_settings(settings: Settings) -> tuple[object, ...]:
    """The settings `pipeline_for` reads: when these change, the pipeline is made anew."""
    return (settings.llm, settings.privacy, settings.memory, settings.speech.language, settings.locale)


def pipeline_for(settings: Settings, offline: bool = False, flags: ProviderFlags = NO_FLAGS) -> Pipeline:
    interpreter = build_interpreter(settings, offline, flags)
    rules = None
    if isinstance(interpreter, Agent):
        from app.offline import OfflineInterpreter

        rules = OfflineInterpreter()
    languages = tuple(date_languages(settings.speech.language))
    return Pipeline(
        interpreter=interpreter,
        rules=rules,
        fallback=rules if settings.llm.fallback == "offline" else None,
        clock=partial(Clock.system, languages=languages, calendar=local_calendar(settings.locale)),
        session_gap=timedelta(minutes=settings.memory.session_gap_minutes),
    )


def build_service(
    db_path: Path | None = None,
    settings: Settings | None = None,
    offline: bool = False,
    flags: ProviderFlags = NO_FLAGS,
) -> MurmurService:
    settings = settings or load_settings()
    pipeline = pipeline_for(settings, offline, flags)
    db_path = db_path or default_db_path()
    remove_abandoned_copies(db_path)  # what a backup or a restore killed midway left: it would stay forever
    service = MurmurService(
        store=Store.open(db_path),
        interpreter=pipeline.interpreter,
        clock=pipeline.clock,
        session_gap=pipeline.session_gap,
        rules=pipeline.rules,
        fallback=pipeline.fallback,
        sync_source=sync_source_for(settings),
        retention=Retention(
            settings.recordings.keep, settings.recordings.max_days, settings.recordings.max_mb * 1_000_000
        ),
        ears=InstalledEars(settings.speech),
        max_changes=max(1, settings.llm.max_mutations),
    )
    take_daily_backup(service)
    return service


def use_settings(service: MurmurService, settings: Settings) -> None:
    """Point a running service at the pipeline `settings` make (a new provider, model, key, privacy, language),
    as a restart would. Called between two runs, on the thread that runs them: a run keeps one interpreter."""
    pipeline, before = pipeline_for(settings), service.interpreter
    service.interpreter, service.rules, service.fallback = pipeline.interpreter, pipeline.rules, pipeline.fallback
    service.clock, service.session_gap = pipeline.clock, pipeline.session_gap
    if isinstance(before, Agent):
        before.close()


class ModelTest(Protocol):
    """Tries the server and the model as set (the settings, a typed key or the stored one, the command line's
    flags); `app.agent.connection.test_connection`."""

    def __call__(
        self, settings: LlmSettings, api_key: str | None = None, flags: ProviderFlags = NO_FLAGS
    ) -> "ConnectionReport": ...


def model_test(service: MurmurService) -> ModelTest:
    """The connection test `murmur config test` and the Settings dialog run: what it finds of the model (the
    protocol that worked, or that it is set aside) is remembered in the service's database, as utterances would
    have shown it."""

    def tried(settings: LlmSettings, api_key: str | None = None, flags: ProviderFlags = NO_FLAGS) -> "ConnectionReport":
        from app.agent.connection import test_connection  # the openai client takes a second to import: only here

        return test_connection(settings, api_key, flags, service.store)

    return tried


def sync_source_for(settings: Settings) -> "SyncSource | None":
    """What opens the user's task list for a sync; None while sync is not set up; one that fails saying why while
    the [sync] settings cannot be used (the failure shows where sync failures show, until the file is fixed)."""
    if why := settings.closed_because("sync"):
        return partial(_sync_off, why)
    return partial(_task_list, settings.sync) if settings.sync.url else None


def _task_list(settings: SyncSettings, *, known: "KnownList | None") -> AbstractContextManager["TaskList"]:
    from app.sync.account import task_list_of  # the sync's code loads for a sync, not for every service built

    return task_list_of(settings, known=known)


def _sync_off(why: str, *, known: "KnownList | None") -> AbstractContextManager["TaskList"]:
    from app.sync.remote import SyncError

    raise SyncError(f"sync is off: {why}", Words("fix that line of the settings file"))


def take_daily_backup(service: MurmurService) -> None:
    """Whichever front end opens the database first each day backs it up; a backup that cannot be made is
    logged and never stops the user's command."""
    try:
        service.take_daily_backup()
    except MurmurError as error:
        log.warning("the daily backup could not be made: %s", error)

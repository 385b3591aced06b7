"""What drives a run through its stages, in one try/finally: listen, transcribe, interpret (and apply), reply.

A run goes from where it is to the stage asked for (by default its last), so one front end can drive it across
threads: the desktop's microphone thread up to the transcript, its worker from there. The run ends, exactly once,
when it reaches its last stage or fails; an error is reported as the run's and raised to the caller. Each ended
run is kept for `murmur runs` and `murmur doctor` (app/run/kept.py).
"""

from collections.abc import Callable
from dataclasses import dataclass, replace

from app.domain.events import FinalTranscript, Stage
from app.run.kept import kept_run
from app.run.run import HeardWords, Run
from app.service import MurmurService
from app.speech_out.reply import spoken_reply


@dataclass(frozen=True)
class Stages:
    """What does each stage's work for one front end; a stage with nothing to do it is skipped."""

    service: MurmurService | None = None  # interprets and applies
    listen: Callable[[], None] | None = None  # returns when the user has said it all (the key let go)
    hear: Callable[[], HeardWords] | None = None  # the recording's (or the file's) final text


def drive(run: Run, stages: Stages, until: Stage | None = None) -> Run:
    """Take `run` through its stages up to `until` (by default its last). A run whose recording held no words
    stops after TRANSCRIBE, open: the caller says how it ended (a tap, nobody answering, nothing heard)."""
    if run.keep is None and stages.service is not None:
        run.keep = keeper(stages.service)
    if run.again is None:
        run.begin()  # a run again begins once the inbox has handed its utterance over
    ended_how: str | None = None  # why it stopped before its last stage
    try:
        for stage in run.stages(until):
            with run.timed(stage):
                _STEPS[stage](run, stages)
            if stage is Stage.TRANSCRIBE and not run.text:
                return run
    except BaseException as error:
        ended_how = "interrupted"  # Ctrl+C: no error of the run's, but it ends
        if run.started:
            run.fail_with(error)
        raise
    finally:
        if run.started and (ended_how is not None or run.last in run.seconds):
            run.end(ended_how or "")
    return run


def keeper(service: MurmurService) -> Callable[[Run], None]:
    """How a run is kept once it ends: without its words, beside the service's database."""
    return lambda run: service.keep_run(kept_run(run))


def _listen(run: Run, stages: Stages) -> None:
    if stages.listen is not None:
        stages.listen()


def _transcribe(run: Run, stages: Stages) -> None:
    if stages.hear is None:
        return
    transcript = stages.hear()
    run.transcript, run.text, run.audio = transcript, transcript.text.strip(), transcript.audio
    run.options = replace(run.options, faint=transcript.faint)
    if run.text:
        run.report(FinalTranscript(run.text, audio=run.audio))


def _interpret(run: Run, stages: Stages) -> None:
    service = stages.service
    if service is None:
        return
    again, options = run.again, replace(run.options, timed=run.timed)  # the service's side steps, timed as the run's
    if again is None:
        run.result = service.submit(run.text, run.source, run.report, options, audio=run.audio)
    elif again.rehear:
        run.result = service.rehear(again.utterance_id, again.engine, run.report, options, on_start=run.begin)
    else:
        run.result = service.retry(again.utterance_id, run.report, options, again.text, on_start=run.begin)


def _reply(run: Run, stages: Stages) -> None:
    if stages.service is not None and run.result is not None:
        run.reply = spoken_reply(run.result, run.reply_mode, stages.service.clock())


_STEPS: dict[Stage, Callable[[Run, Stages], None]] = {
    Stage.LISTEN: _listen,
    Stage.TRANSCRIBE: _transcribe,
    Stage.INTERPRET: _interpret,
    Stage.REPLY: _reply,
}

"""The last runs, kept beside the database without their words (app/store/kept_runs.py): kept as each ends, read
back to see what was slow or failing."""

from app.errors import AmbiguousIdError, UsageError, Words, command
from app.service.core import ServiceCore
from app.store.kept_runs import KeptRun, KeptRuns


class RunArea(ServiceCore):
    """The kept runs: one appended as it ends, the last ones read newest first."""

    def keep_run(self, run: KeptRun) -> None:
        """Keep `run` as the newest; one that cannot be written is logged, never a reason to fail the run."""
        KeptRuns.beside(self.store.path).keep(run)

    def recent_runs(self, limit: int | None = None) -> list[KeptRun]:
        """The kept runs, newest first, at most `limit`."""
        runs = KeptRuns.beside(self.store.path).read()[::-1]
        return runs[:limit] if limit is not None else runs

    def kept_run(self, prefix: str) -> KeptRun:
        """The kept run whose ID starts with `prefix`; an error for none or several."""
        wanted = prefix.strip().lower()
        found = [run for run in self.recent_runs() if wanted and run.id.startswith(wanted)]
        if not found:
            listed = Words("the kept runs are listed under Murmur → Recent runs")
            raise UsageError(f"no kept run has ID '{prefix}'", command("runs", instead=listed, phrase="see them: {}"))
        if len(found) > 1:
            shown = ", ".join(run.id[: len(wanted) + 2] for run in found[:5])
            raise AmbiguousIdError(f"ID '{prefix}' matches {len(found)} kept runs ({shown}); give more characters")
        return found[0]

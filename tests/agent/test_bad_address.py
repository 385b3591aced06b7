"""A model server address that cannot be one is refused where it is typed, and one already saved is reported
wherever it matters: every utterance's note, `murmur config test`, `murmur doctor` (which also fails a server
that cannot be reached, and a model set aside). The real command on a real database."""

import json
from pathlib import Path

from app.agent import ledger
from app.store import Store
from tests.support.llm_server import FakeLlmServer, closed_port_url
from tests.support.murmur_cli import Murmur, assert_one_line_error

BAD = "banana://nowhere"
SAID = f"the LLM address '{BAD}' must start with http:// or https://"


def murmur_with_saved(tmp_path: Path, **llm: str) -> Murmur:
    murmur = Murmur(tmp_path / "m.db", tmp_path, DISPLAY="", WAYLAND_DISPLAY="")
    for name in ("MURMUR_LLM_BASE_URL", "OPENAI_BASE_URL", "MURMUR_LLM_API_KEY", "OPENAI_API_KEY", "MURMUR_LLM_PRESET"):
        murmur.env.pop(name, None)
    folder = Path(murmur.env["MURMUR_CONFIG_DIR"])
    folder.mkdir(parents=True, exist_ok=True)
    lines = "\n".join(f"{key} = {json.dumps(value)}" for key, value in llm.items())
    (folder / "settings.toml").write_text(f"[llm]\n{lines}\n", encoding="utf-8")
    return murmur


def checks(murmur: Murmur) -> dict[str, dict[str, object]]:
    report = murmur.json("doctor", code=1)
    return {check["name"]: check for check in report["checks"]}


def test_an_address_that_is_no_url_is_refused_when_it_is_set(tmp_path: Path) -> None:
    murmur = murmur_with_saved(tmp_path, preset="llamacpp")
    for bad in (BAD, "localhost:8080", "http://"):
        done = murmur.run("config", "set", "llm.base_url", bad)
        assert_one_line_error(done, 2, f"setting llm.base_url: {bad!r} ")
    assert murmur.json("config", "show")["settings"]["llm"]["base_url"] == ""
    assert murmur.run("config", "set", "llm.base_url", "http://127.0.0.1:8080/v1").returncode == 0


def test_a_saved_bad_address_is_said_with_every_utterance(tmp_path: Path) -> None:
    murmur = murmur_with_saved(tmp_path, preset="llamacpp", base_url=BAD)
    done = murmur.run("add", "buy milk")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(f"The built-in rules filed this: {SAID}")
    assert "no LLM is configured" not in done.stdout


def test_config_test_names_a_saved_bad_address(tmp_path: Path) -> None:
    murmur = murmur_with_saved(tmp_path, preset="llamacpp", base_url=BAD)
    assert_one_line_error(murmur.run("config", "test"), 2, SAID)


def test_doctor_fails_a_bad_address_a_dead_server_and_a_model_set_aside(tmp_path: Path) -> None:
    bad = checks(murmur_with_saved(tmp_path / "bad", preset="llamacpp", base_url=BAD))["model server"]
    assert bad["ok"] is False and SAID in str(bad["detail"]) and "built-in rules" in str(bad["fix"])

    dead_url = closed_port_url()
    dead = checks(murmur_with_saved(tmp_path / "dead", base_url=dead_url, model="m"))["model server"]
    assert dead["ok"] is False and f"cannot reach {dead_url}" in str(dead["detail"])
    assert "start the server" in str(dead["fix"])

    with FakeLlmServer() as server:
        murmur = murmur_with_saved(tmp_path / "aside", base_url=server.base_url, model="m")
        store = Store.open(murmur.db_path)
        ledger.set_aside(store, server.base_url, "m", "`config test`: this model does not follow tool instructions")
        store.close()
        found = checks(murmur)
    assert found["model server"]["ok"] is True
    assert found["model"]["ok"] is False and "'m' is set aside: `config test`: this model" in str(
        found["model"]["detail"]
    )
    assert "`murmur config test`" in str(found["model"]["fix"])

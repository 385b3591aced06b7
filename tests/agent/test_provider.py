"""Which server, model and key: flags beat the environment, which beats the settings file and presets;
the key lives in the keyring (an in-memory backend here, as no Secret Service runs in tests)."""

import pytest

from app.agent.provider import PRESETS, ProviderConfig, ProviderFlags, is_local_url, price_for, resolve_provider
from app.config import LlmSettings
from app.errors import SecretStoreError, UsageError
from app.secrets import delete_api_key, get_api_key, keyring_problem, set_api_key
from tests.support.memory_keyring import MemoryKeyring


def resolve(
    settings: LlmSettings | None = None, flags: ProviderFlags | None = None, **env: str
) -> ProviderConfig | None:
    return resolve_provider(settings or LlmSettings(), flags or ProviderFlags(), environ=env, look_in_keyring=False)


def test_nothing_configured_means_offline() -> None:
    assert resolve() is None
    assert resolve(LlmSettings(base_url="https://api.example.com/v1", model="m")) is None  # remote, no key


def test_a_local_server_needs_no_key() -> None:
    config = resolve(LlmSettings(preset="ollama"))
    assert config is not None and config.base_url == "http://localhost:11434/v1" and config.model == "llama3.1"
    assert config.is_local and config.api_key == "not-needed"


def test_flags_beat_environment_beats_file_beats_preset() -> None:
    settings = LlmSettings(preset="ollama", model="file-model")
    assert resolve(settings).model == "file-model"  # type: ignore[union-attr]
    assert resolve(settings, MURMUR_LLM_MODEL="env-model").model == "env-model"  # type: ignore[union-attr]
    flags = ProviderFlags(model="flag-model", base_url="http://10.0.0.5:8080/v1")
    flagged = resolve(settings, flags, MURMUR_LLM_MODEL="env-model")
    assert flagged is not None and (flagged.model, flagged.base_url) == ("flag-model", "http://10.0.0.5:8080/v1")


def test_openai_variables_are_read_and_a_key_selects_openai() -> None:
    config = resolve(OPENAI_API_KEY="sk-abc")
    assert config is not None and config.base_url == "https://api.openai.com/v1" and config.model == "gpt-4o-mini"
    assert config.price.known and "sk-abc" not in repr(config)  # never printed by accident
    mine = resolve(
        MURMUR_LLM_API_KEY="sk-mine",
        OPENAI_API_KEY="sk-other",
        OPENAI_BASE_URL="https://x.test/v1",
        MURMUR_LLM_MODEL="m",
    )
    assert mine is not None and mine.api_key == "sk-mine" and mine.base_url == "https://x.test/v1"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        (LlmSettings(preset="skynet"), "unknown LLM preset 'skynet'"),
        (LlmSettings(base_url="localhost:11434"), "must start with http:// or https://"),
        (LlmSettings(base_url="http://127.0.0.1:8080/v1"), "no LLM model is set"),
    ],
)
def test_bad_settings_get_one_clear_line(settings: LlmSettings, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        resolve(settings, MURMUR_LLM_API_KEY="k")


@pytest.mark.parametrize(
    ("url", "local"),
    [
        ("http://localhost:11434/v1", True),
        ("http://127.0.0.1:8080/v1", True),
        ("http://192.168.1.20:1234/v1", True),
        ("http://[::1]:8080/v1", True),
        ("http://gpu-box.local:8080/v1", True),
        ("https://api.openai.com/v1", False),
        ("https://8.8.8.8/v1", False),
    ],
)
def test_local_urls(url: str, local: bool) -> None:
    assert is_local_url(url) is local


def test_prices_come_from_the_table_and_the_settings() -> None:
    assert price_for("gpt-4o-mini", LlmSettings()).cost(1_000_000, 1_000_000) == pytest.approx(0.75)
    custom = LlmSettings(pricing={"my-model": {"input": 2.0, "output": 4.0}})
    assert price_for("my-model", custom).cost(500_000, 250_000) == pytest.approx(2.0)
    assert not price_for("llama3.1", LlmSettings()).known


def test_every_preset_resolves() -> None:
    for name, preset in PRESETS.items():
        config = resolve(LlmSettings(preset=name), MURMUR_LLM_API_KEY="k")
        assert config is not None and config.base_url == preset.base_url and config.model == preset.default_model


def test_the_key_round_trips_through_the_keyring(memory_keyring: MemoryKeyring) -> None:
    assert keyring_problem() is None and get_api_key() is None
    set_api_key("  sk-saved  ")
    assert get_api_key() == "sk-saved" and list(memory_keyring.secrets.values()) == ["sk-saved"]
    config = resolve_provider(LlmSettings(), environ={})
    assert config is not None and config.api_key == "sk-saved"
    assert delete_api_key() and get_api_key() is None and not delete_api_key()


@pytest.mark.parametrize("key", ["", "   ", "sk-with space"])
def test_a_malformed_key_is_refused(memory_keyring: MemoryKeyring, key: str) -> None:
    with pytest.raises(SecretStoreError):
        set_api_key(key)
    assert memory_keyring.secrets == {}


def test_without_a_keyring_the_key_is_refused_not_written_anywhere(no_keyring: None) -> None:
    assert keyring_problem() is not None and "MURMUR_LLM_API_KEY" in (keyring_problem() or "")
    with pytest.raises(SecretStoreError, match="cannot save the API key: no system keyring is available"):
        set_api_key("sk-secret")
    assert get_api_key() is None

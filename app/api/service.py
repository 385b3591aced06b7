"""The service every front end holds, and how it is built from the settings."""

from app.assembly import build_service, model_test, pipeline_settings, sync_source_for, use_settings
from app.service import MurmurService, PipelineResult

__all__ = [
    "MurmurService",
    "PipelineResult",
    "build_service",
    "model_test",
    "pipeline_settings",
    "sync_source_for",
    "use_settings",
]

"""How much one request may change or name: the caps every way in shares."""

from app.bounds.checks import whole
from app.bounds.limits import MASS_CHANGE_CAP, MAX_ROW_ID

__all__ = ["MASS_CHANGE_CAP", "MAX_ROW_ID", "whole"]

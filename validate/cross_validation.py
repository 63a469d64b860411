"""What cross-validating the time model found (the result models only, so that
validate.compare can carry them in its report without importing the fit; validate.lofo
computes them)."""
from __future__ import annotations

from pydantic import BaseModel, Field


class TimeFigures(BaseModel):
    """Issue 11's figures over one set of predictions."""

    cases: int
    within_25: float | None = None
    within_50: float | None = None
    max_error: float | None = None
    spearman_suite: float | None = Field(None, description="rank correlation over the suite cases among them")
    spearman_all: float | None = Field(None, description="rank correlation over all of them")
    dram_write_within_20: float | None = Field(
        None, description="share with DRAM bytes written within 20% (the cache model is not refitted: "
                          "no code fits CacheTuning, so this is the same in every split)")


class CasePrediction(BaseModel):
    name: str
    measured_ns: float
    predicted_ns: float = Field(description="with constants fitted without the case's family")
    error: float


class FamilyAccuracy(BaseModel):
    family: str
    case_set: str
    held_out: bool = Field(description="in the held-out corpus: predicted with constants fitted on every "
                                       "other family except the held-out ones")
    figures: TimeFigures
    cases: list[CasePrediction]


class CrossValidation(BaseModel):
    """Leave-one-family-out (LOFO) accuracy of the time model, and the held-out corpus."""

    method: str
    traffic: str = Field(description="what fed the time model when predicting: model (memsim's cache "
                                     "model) or measured (ncu's counters); fits always read the measured")
    fits: int
    fit_seconds: float = Field(description="all the fits together")
    in_sample: TimeFigures = Field(description="the shipped constants, on the families the LOFO covers")
    lofo: TimeFigures = Field(description="each family predicted by constants fitted without it")
    held_out: TimeFigures = Field(description="the held-out corpus, constants fitted on all the rest")
    held_out_shipped: TimeFigures = Field(description="the held-out corpus with the shipped constants")
    families: list[FamilyAccuracy]

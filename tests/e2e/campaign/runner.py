"""runner: the seeded, bounded campaign.

Every (operation, kind of damage) pair gets its share of the cases (one
seeded Hypothesis run per pair); Hypothesis draws for each case the details
of the damage and whether valid credentials go with it. The run stops at `cases` cases or after `seconds`,
whichever comes first; findings are collected, not raised, so one run
reports all of them (and Hypothesis never shrinks by re-sending requests).
"""

import collections
import dataclasses
import random
import time

from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st

from . import mutations, transport, verdict

DEFAULT_SEED = 20261113


@dataclasses.dataclass
class Finding:
    case: object
    status: object
    problems: list

    def __str__(self):
        c = self.case
        return (f"{c.op.name} [{c.kind}, {c.auth} credentials{', ' + c.detail if c.detail else ''}]"
                f" -> {self.status}: {'; '.join(self.problems)}")


@dataclasses.dataclass
class Result:
    cases: int = 0
    seconds: float = 0.0
    seed: int = DEFAULT_SEED
    findings: list = dataclasses.field(default_factory=list)
    by_kind: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    by_service: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    by_auth: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    by_status: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    known: collections.Counter = dataclasses.field(default_factory=collections.Counter)  # known failure -> cases
    operations: set = dataclasses.field(default_factory=set)
    pairs: int = 0
    cut: bool = False          # stopped by the time budget or the case cap

    def summary(self):
        return (f"{self.cases} cases in {self.seconds:.0f} s (seed {self.seed}) over {len(self.operations)} operations;"
                f" services {dict(self.by_service)}; credentials {dict(self.by_auth)};"
                f" statuses {dict(sorted(self.by_status.items(), key=lambda kv: str(kv[0])))};"
                f" kinds {dict(sorted(self.by_kind.items()))}; findings {len(self.findings)};"
                f" known failures {dict(self.known)}")


def run(contexts, cases, seconds, run_seed=DEFAULT_SEED, known_failure=None, progress=None):
    """Send up to `cases` malformed requests within `seconds`; returns a Result.

    known_failure(finding) -> a name or None: findings it names are counted
    in result.known, not returned as findings.
    """
    targets = [(ctx, op) for ctx in contexts for op in ctx.operations]
    result = Result(seed=run_seed)
    started = time.monotonic()
    deadline = started + seconds

    def record(ctx, case, resp, error):
        result.cases += 1
        result.operations.add(case.op.name)
        result.by_kind[case.kind] += 1
        result.by_service[ctx.doc.service] += 1
        result.by_auth[case.auth] += 1
        status = resp.status if resp is not None else "dropped"
        result.by_status[status] += 1
        found = verdict.problems(ctx, case, resp, error) or verdict.undocumented(case, resp)
        if found:
            finding = Finding(case, status, found)
            known = known_failure(finding) if known_failure else None
            if known:
                result.known[known] += 1
            else:
                result.findings.append(finding)
        if progress and result.cases % 1000 == 0:
            progress(f"{result.cases} cases, {len(result.findings)} findings, {time.monotonic() - started:.0f} s")

    # One Hypothesis run per (operation, kind), so that every operation and
    # every kind of damage gets its share; the pairs are shuffled (seeded) so
    # that a run cut short by the time budget still spans the four services.
    pairs = [(ctx, op, kind) for ctx, op in targets for kind in dict.fromkeys(mutations.kinds_for(op))]
    random.Random(run_seed).shuffle(pairs)
    per_pair = max(1, cases // len(pairs))
    result.pairs = len(pairs)
    for ctx, op, kind in pairs:
        @seed(run_seed)
        @settings(max_examples=1 if kind == "far_oversized_body" else per_pair, deadline=None, database=None, phases=[Phase.generate],
                  derandomize=False, suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
        @given(st.data())
        def one(data):
            if time.monotonic() > deadline or result.cases >= cases:
                result.cut = True
                return
            case = data.draw(mutations.case_for(ctx, op, kind))
            resp, error = transport.send(ctx.base_url, case)
            record(ctx, case, resp, error)

        one()
    result.seconds = time.monotonic() - started
    return result

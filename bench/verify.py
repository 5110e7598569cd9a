"""The record verifier over self-played records of every kind and seat count.

    python bench/verify.py [--per-group N] [--seed S] [--keep FILE]

Writes N self-played records (default 1,000) of each of claim (2 seats), claim2 (2), claim-mix
(2, 3, 4) and inheritors (2, 3, 4) to one NDJSON file, runs ``python -m games.rules.verify`` on it
(in this process, ``--quiet``) and prints its summary, the time to make the records and the
verifier's records per second (wall clock and CPU). Exit status: the verifier's.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.rules.verify import main as verify_main
from tests.rules_verify.helpers import GROUPS, records


def run(per_group: int, seed: int, keep: str | None) -> int:
    path = Path(keep) if keep else Path(tempfile.mkstemp(suffix=".ndjson")[1])
    start = time.perf_counter()
    n = 0
    with path.open("w") as fh:
        for game, seats in GROUPS:
            t = time.perf_counter()
            for rec in records(game, seats, per_group, seed):
                fh.write(json.dumps(rec, separators=(",", ":")) + "\n")
                n += 1
            print(f"made {per_group} {game} records with {seats} seats in {time.perf_counter() - t:.1f} s")
    print(f"{n} records ({path.stat().st_size / 1e6:.1f} MB) made in {time.perf_counter() - start:.1f} s")
    out = io.StringIO()
    wall, cpu = time.perf_counter(), time.process_time()
    rc = verify_main(["--quiet", str(path)], out=out)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(out.getvalue().rstrip())
    print(f"verified {n} records in {wall:.1f} s wall ({n / wall:.0f} records/s), {cpu:.1f} s CPU "
          f"({n / cpu:.0f} records/s); exit status {rc}")
    if not keep:
        path.unlink()
    return rc


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--per-group", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--keep", help="write the records to this file and keep it")
    args = parser.parse_args()
    return run(args.per_group, args.seed, args.keep)


if __name__ == "__main__":
    raise SystemExit(main())

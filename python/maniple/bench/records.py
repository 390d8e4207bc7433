"""One schema for every measured figure: a throughput (things per second,
higher is better) with its median, min and max over the runs, the STREAM
triad of the same run at the same rank count, and what was compared."""
import csv
import json
import statistics

FIELDS = ["bench", "impl", "variant", "ranks", "oversubscribed", "scaling", "size", "unit", "runs",
          "median", "min", "max", "per_rank", "seconds", "bytes_per_unit", "GBps", "stream_GBps",
          "fraction_of_stream", "status", "note"]
STATUSES = ("ok", "not installed", "failed", "dry run")


def record(bench, impl, ranks, cores, scaling, size, unit, rates, *, variant="", seconds=None,
           bytes_per_unit=None, status="ok", note=""):
    """A record from the per-run rates (units per second)."""
    r = dict.fromkeys(FIELDS)
    r.update(bench=bench, impl=impl, variant=variant, ranks=ranks, oversubscribed=ranks > cores,
             scaling=scaling, size=size, unit=unit, status=status, note=note, bytes_per_unit=bytes_per_unit)
    if rates:
        med = statistics.median(rates)
        r.update(runs=len(rates), median=med, min=min(rates), max=max(rates), per_rank=med / ranks,
                 seconds=seconds if seconds is not None else size / med)
        if bytes_per_unit:
            r["GBps"] = med * bytes_per_unit / 1e9
    else:
        r["runs"] = 0
    return r


def missing(bench, impl, ranks, cores, scaling, status, note):
    """A peer that could not run: the row stays, with the reason."""
    return record(bench, impl, ranks, cores, scaling, 0, "", [], status=status, note=note)


def attach_stream(recs):
    """Fill stream_GBps and fraction_of_stream from the STREAM triad
    records (bench 'stream') measured at the same rank count."""
    stream = {r["ranks"]: r["median"] * r["bytes_per_unit"] / 1e9 for r in recs
              if r["bench"] == "stream" and r["status"] in ("ok", "dry run") and r["runs"]}
    for r in recs:
        s = stream.get(r["ranks"])
        if s and r["stream_GBps"] is None:
            r["stream_GBps"] = s
        if r["GBps"] and r["stream_GBps"]:
            r["fraction_of_stream"] = r["GBps"] / r["stream_GBps"]
    return recs


def check(r):
    """Raise ValueError naming the field when a record breaks the schema."""
    if set(r) != set(FIELDS):
        raise ValueError(f"record fields {sorted(set(r) ^ set(FIELDS))} differ from the schema")
    if r["status"] not in STATUSES:
        raise ValueError(f"record status {r['status']!r} is not one of {STATUSES}")
    if not isinstance(r["ranks"], int) or r["ranks"] < 1:
        raise ValueError(f"record ranks {r['ranks']!r} is not a positive integer")
    if r["runs"]:
        if not r["min"] <= r["median"] <= r["max"]:
            raise ValueError(f"record {r['bench']}/{r['impl']}: median {r['median']} outside [{r['min']}, {r['max']}]")
    return r


def write_jsonl(path, recs):
    with open(path, "w") as f:
        for r in recs:
            f.write(json.dumps(check(r)) + "\n")


def write_csv(path, recs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in recs:
            w.writerow({k: ("" if v is None else v) for k, v in check(r).items()})


def read_jsonl(path):
    with open(path) as f:
        return [check(json.loads(line)) for line in f if line.strip()]
